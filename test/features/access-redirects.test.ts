import t from 'tap';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { GOOD_PASSWORD, setPassword } from '#test/helpers/auth.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';

const html = { accept: 'text/html' };
const text = (body: string) => body.replace(/<[^>]+>/g, ' ').replace(/&#x27;/g, "'").replace(/\s+/g, ' ');

t.test('access as spec section 2 says', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', name: 'Alpha Council' });
  const { app } = await startApp(t, db);
  const member = await createMember(db, alpha, { firstName: 'Ada' });
  const admin = await createMember(db, alpha, { firstName: 'Ed', roles: ['ADMIN', 'MEMBER'] });
  await setPassword(db, admin.id);
  await db.insertInto('ads').values({ community_id: alpha.id, shape: 'MEDIUM_SQUARE', image_url: 'img/ads/square-retreat.svg', link: 'https://example.com/ad', alt_text: 'Retreat ad' }).execute();
  const m = await signIn(app, member, alpha);
  const a = await signIn(app, admin, alpha, ['ADMIN', 'MEMBER']);

  await t.test('signed out, /settings and each of its sections send to sign-in with a way back', async (t) => {
    for (const url of ['/settings', '/settings/security', '/settings/notifications', '/settings/team', '/settings/billing']) {
      const res = await app.inject({ url, headers: html });
      t.equal(res.statusCode, 303, url);
      t.equal(res.headers.location, `/login?redirect=${encodeURIComponent(url)}`, `${url} comes back after sign-in`);
    }
  });

  await t.test('signed in, /settings is a page, not a 404', async (t) => {
    for (const url of ['/settings', '/settings/team', '/settings/notifications']) {
      const res = await app.inject({ url, headers: { ...html, cookie: m.cookie } });
      t.equal(res.statusCode, 200, url);
      t.match(text(res.body), 'Settings');
    }
    const security = await app.inject({ url: '/settings', headers: { ...html, cookie: m.cookie } });
    t.match(text(security.body), 'Username');
    t.match(text(security.body), 'Security Team Billing', 'the side menu lists security, team and billing');
  });

  await t.test('a member who opens the admin area goes to the app login with a redirect back, and may sign in as an admin there', async (t) => {
    const b = new FormBrowser(app);
    b.cookies.set('auth', m.token);
    const res = await b.get('/admin/articles?status=SUBMITTED_FOR_REVIEW');
    t.equal(res.statusCode, 303, 'not a 403 page');
    t.equal(res.headers.location, '/login?redirect=%2Fadmin%2Farticles%3Fstatus%3DSUBMITTED_FOR_REVIEW');
    const login = await b.get(res.headers.location as string);
    t.equal(login.statusCode, 200, 'the sign-in page, not a redirect loop');
    t.match(text(login.body), "That page is for the community's admins. Sign in with an admin account to open it.");
    t.match(login.body, 'name="redirect" value="/admin/articles?status=SUBMITTED_FOR_REVIEW"');
    const step = await b.post('/login', { email: admin.email, redirect: '/admin/articles?status=SUBMITTED_FOR_REVIEW' }, res.headers.location as string);
    t.match(step.body, 'type="password"');
    const signedIn = await b.post('/login/password', { email: admin.email, password: GOOD_PASSWORD, redirect: '/admin/articles?status=SUBMITTED_FOR_REVIEW' }, res.headers.location as string);
    t.equal(signedIn.headers.location, '/admin/articles?status=SUBMITTED_FOR_REVIEW', 'back to the address first asked for');
    t.equal((await b.get('/admin/articles?status=SUBMITTED_FOR_REVIEW')).statusCode, 200);
  });

  await t.test('a signed-in member sent to sign-in for a member page simply goes there', async (t) => {
    // (The test before signed that browser in as the admin, which ended the member's first session.)
    const again = await signIn(app, member, alpha);
    const res = await app.inject({ url: '/login?redirect=%2Farticles', headers: { ...html, cookie: again.cookie } });
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, '/articles');
  });

  await t.test('the admin home links to each admin area that exists, in its own shell without ads', async (t) => {
    const res = await app.inject({ url: '/admin', headers: { ...html, cookie: a.cookie } });
    t.equal(res.statusCode, 200);
    t.match(res.body, '<a href="/admin/articles">Articles</a>', 'links to the articles board');
    // Every admin area of spec section 2 is built now: each link the admin home shows answers.
    const main = /<main[\s\S]*<\/main>/.exec(res.body)?.[0] ?? '';
    const areas = [...main.matchAll(/<a href="(\/admin\/[a-z-]+)">/g)].map((m) => m[1]!);
    t.ok(areas.includes('/admin/feeds') && areas.includes('/admin/content-bank'), 'the newest areas are linked');
    for (const path of areas) t.equal((await app.inject({ url: path, headers: { ...html, cookie: a.cookie } })).statusCode, 200, `${path} answers`);
    t.match(res.body, /<nav aria-label="Admin"[^>]*>/, 'the admin navigation');
    t.notMatch(res.body, 'aria-label="Main"', 'not the member navigation');
    t.notMatch(res.body, 'Retreat ad', 'no ads');
    const board = await app.inject({ url: '/admin/articles', headers: { ...html, cookie: a.cookie } });
    t.match(board.body, /<nav aria-label="Admin"[^>]*>/);
    t.match(board.body, '<a href="/admin/articles" aria-current="page">Articles</a>');
    t.notMatch(board.body, 'Retreat ad');
    const memberPage = await app.inject({ url: '/articles', headers: { ...html, cookie: a.cookie } });
    t.match(memberPage.body, 'aria-label="Main"', 'the member pages keep the member shell');
  });
});

t.test('the admin sign-in preselects the community of the host the admin is on', async (t) => {
  const db = await setupDatabase(t);
  await createCommunity(db, { code: 'harbor', name: 'Harbor Guild', hosts: ['harbor.localhost'] });
  await createCommunity(db, { code: 'summit', name: 'Summit Circle', hosts: ['summit.localhost'] });
  const { app } = await startApp(t, db, { env: { DEFAULT_COMMUNITY: 'harbor' } });
  const summit = await app.inject({ url: '/login-admin', headers: { ...html, host: 'summit.localhost' } });
  t.equal(summit.statusCode, 200);
  t.match(summit.body, '<option value="summit" selected="">', 'Summit on summit.localhost');
  t.notMatch(summit.body, '<option value="harbor" selected="">');
  const harbor = await app.inject({ url: '/login-admin', headers: { ...html, host: 'harbor.localhost' } });
  t.match(harbor.body, '<option value="harbor" selected="">', 'Harbor on harbor.localhost');
});
