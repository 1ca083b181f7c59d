import t from 'tap';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

const html = { accept: 'text/html' };

t.test('pages and the shell', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, {
    code: 'alpha',
    app_name: 'Alpha Circle',
    forum_enabled: true,
    exec_link: 'https://example.com/exec',
    nav_more: JSON.stringify([{ label: 'Events', link: 'https://example.com/events' }]),
    link_terms: 'https://example.com/terms',
  });
  const beta = await createCommunity(db, { code: 'beta', app_name: 'Beta Guild', hosts: ['beta.test'] });
  await db.insertInto('ads').values([
    { community_id: alpha.id, shape: 'MASTHEAD', image_url: 'img/ads/masthead-partner.svg', link: 'https://example.com/ad', alt_text: 'Alpha masthead ad' },
    { community_id: alpha.id, shape: 'MEDIUM_SQUARE', image_url: 'img/ads/square-retreat.svg', link: 'https://example.com/retreat', alt_text: 'Alpha square ad' },
  ]).execute();
  const { app } = await startApp(t, db);
  const member = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const { cookie } = await signIn(app, member, alpha);

  await t.test('an unknown path shows the 404 page exactly as the spec words it', async (t) => {
    const res = await app.inject({ url: '/no/such/page', headers: html });
    t.equal(res.statusCode, 404);
    t.match(res.body, '<title>Page Not Found | Alpha Circle</title>');
    t.match(res.body, 'The page you are trying to reach can&#x27;t be found.');
    t.match(res.body, /<a class="button" href="\/">Back to Home<\/a>/);
  });

  await t.test('a visitor sees only the Sign In link, no bell, no ads, and no JavaScript', async (t) => {
    const res = await app.inject({ url: '/', headers: html });
    t.equal(res.statusCode, 200);
    t.match(res.body, '>Sign In</a>');
    t.notMatch(res.body, 'data-island');
    t.notMatch(res.body, '<script');
    t.notMatch(res.body, 'Alpha masthead ad');
    t.notMatch(res.body, 'aria-label="Main"');
  });

  await t.test('a member sees the full navigation, the bell island, the ad and the footer', async (t) => {
    const res = await app.inject({ url: '/', headers: { ...html, cookie } });
    t.equal(res.statusCode, 200);
    t.match(res.body, '<title>Home | Alpha Circle</title>');
    for (const label of ['Forum', 'Members', 'Expert Panels', 'Articles', 'EXEC', 'More', 'Events', 'Manage Profile', 'Messages', 'Groups', 'Settings', 'Sign Out']) {
      t.match(res.body, `>${label}<`, `shows ${label}`);
    }
    t.match(res.body, 'data-island="NotificationBell"');
    t.match(res.body, /<script type="module" nonce="[^"]+" src="\/static\/build\/[^"]+\.js">/);
    t.match(res.body, 'alt="Alpha masthead ad"');
    t.match(res.body, /<aside class="ad ad-masthead" aria-label="Advertisement \(top of page\)"><a href="\/ads\/\d+\/click"[^>]*>.*<span class="ad-cta">Learn more<\/span><\/a><\/aside>/, "the masthead's Learn more is inside the ad's link (through the counted click)");
    t.match(res.body, 'aria-label="Advertisement (side of page)"', 'the rail has a label of its own');
    t.match(res.body, 'Copyright © 2026 alpha Inc');
    t.match(res.body, 'href="https://example.com/terms"');
    t.match(res.body, 'class="mobile-nav"', 'the mobile sidebar is a <details> menu');
  });

  await t.test('Contact us: a page of its own for everyone, linked from the footer; a dialog on member pages', async (t) => {
    const visitor = await app.inject({ url: '/', headers: html });
    t.match(visitor.body, /<a href="\/contact" data-dialog="contact-dialog" aria-haspopup="dialog">Contact us<\/a>/, 'the footer links to the page');
    t.notMatch(visitor.body, '<dialog', 'no dialog (and no script) for a visitor: the link is the page');
    const page = await app.inject({ url: '/contact', headers: html });
    t.equal(page.statusCode, 200);
    t.match(page.body, '<title>Contact us | Alpha Circle</title>');
    t.match(page.body, /<h1>Contact us<\/h1>/);
    t.match(page.body, '<a href="mailto:concierge@alpha.example.com">concierge@alpha.example.com</a>');
    t.match(page.body, /<a href="tel:\+\d+">[^<]+<\/a>/);
    t.notMatch(page.body, '<script', 'works without JavaScript');
    const other = await app.inject({ url: '/contact', headers: { ...html, host: 'beta.test' } });
    t.notMatch(other.body, 'concierge@alpha.example.com', "each community's own concierge");
    const member = await app.inject({ url: '/', headers: { ...html, cookie } });
    const menu = /<details class="menu user-menu">[\s\S]*?<\/details>/.exec(member.body)?.[0] ?? '';
    t.match(menu, '<a href="/contact" data-dialog="contact-dialog" aria-haspopup="dialog">Contact us</a>', 'the user menu has it');
    t.match(member.body, /<dialog id="contact-dialog" class="modal-dialog contact-dialog" aria-labelledby="contact-dialog-heading">[\s\S]*<form class="modal-close" method="dialog">[\s\S]*mailto:concierge@alpha.example.com[\s\S]*<\/dialog>/, 'the dialog, closed, with a close button that needs no script');
    t.match(member.body, 'data-island="NotificationBell"', 'opened by the bell’s script, which the page loads anyway');
  });

  await t.test('Offers is labelled Offers and Forum is hidden when the community has neither an exec link nor a forum', async (t) => {
    const other = await createMember(db, beta);
    const session = await signIn(app, other, beta);
    const res = await app.inject({ url: '/', headers: { ...html, host: 'beta.test', cookie: session.cookie } });
    t.match(res.body, '<title>Home | Beta Guild</title>');
    t.match(res.body, '>Offers</a>');
    t.notMatch(res.body, '>EXEC<');
    t.notMatch(res.body, '>Forum<');
    t.notMatch(res.body, '>More<');
  });
});
