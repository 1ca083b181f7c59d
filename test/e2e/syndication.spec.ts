import t from 'tap';
import { parseRssFeed } from 'feedsmith';
import { setupDatabase } from '#test/helpers/app.ts';
import { collectPageProblems, expectReflowAndAxeAtPhoneWidths, launchBrowser, openContext, serveApp } from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

t.test('syndication in the browser: staff create a feed and open its address; pages advertise it', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  // The community owns the host the browser uses, so the feed's addresses are on this server.
  const alpha = await createCommunity(db, { code: 'alpha', name: 'Alpha Circle of Independent Practitioners', app_name: 'Alpha Circle', hosts: ['127.0.0.1'] });
  const { app, baseUrl } = await serveApp(t, db);
  const boss = await createMember(db, alpha, { firstName: 'Bartholomew', lastName: 'Featherstonehaugh', roles: ['ADMIN', 'MEMBER'] });
  const writer = await createMember(db, alpha, { firstName: 'Maximiliana', lastName: 'Vandenberghe-Oyelaran' });
  // A published article with a long public address: nothing may push the staff's pages sideways.
  const at = new Date(app.clock.now().getTime() - 86_400_000);
  const article = await db
    .insertInto('articles')
    .values({ community_id: alpha.id, author_id: writer.id, status: 'MANUALLY_PUBLISHED', status_updated_at: at, published_date: at, article_url: 'https://news.example.com/2026/11/articles/what-the-night-shift-taught-me-about-patience-and-short-sentences?utm_source=newsletter', created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  const revision = await db
    .insertInto('article_revisions')
    .values({ community_id: alpha.id, article_id: article.id, author_id: writer.id, title: 'What the night shift taught me about patience, short sentences and the supply chain', content: '<p>Night shifts teach patience.</p>', word_count: 4, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('articles').set({ current_revision_id: revision.id }).where('id', '=', article.id).execute();

  const browser = await browserReady;
  const context = await openContext(t, browser, baseUrl, { viewport: { width: 375, height: 740 }, token: (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token });
  const page = await context.newPage();
  const problems = collectPageProblems(page);
  const check = (what: string) => expectReflowAndAxeAtPhoneWidths(t, page, what, { browser, javaScriptEnabled: true });

  await page.goto('/admin/feeds/syndication');
  await page.getByRole('heading', { name: 'Feeds', level: 1 }).waitFor();
  t.ok(await page.getByRole('link', { name: 'Syndication' }).isVisible(), 'the Syndication tab');
  await page.getByText('No syndication feeds yet').waitFor();

  await page.getByLabel('Title').fill('Alpha Circle of Independent Practitioners — everything we publish');
  await page.getByLabel('Description').fill('Articles our members published, and the expert roundups of our panels.');
  await page.getByLabel('Items').fill('10');
  await Promise.all([page.waitForURL(/\/admin\/feeds\/syndication\/\d+\?done=created$/), page.getByRole('button', { name: 'Create the feed' }).click()]);
  await page.getByText('Feed created.').waitFor();
  await page.getByRole('cell', { name: /What the night shift taught me/ }).waitFor();
  await check('a feed with its addresses and what it carries');

  const rss = await page.getByLabel('RSS 2.0', { exact: true }).inputValue();
  t.equal(rss, `${baseUrl}/feeds/alpha-circle-of-independent-practitioners-everything-we.rss`, 'an absolute address on this host');
  const answer = await context.request.get(rss);
  t.equal(answer.status(), 200);
  t.match(answer.headers()['content-type'], 'application/rss+xml');
  t.ok(answer.headers().etag, 'with its validator');
  const feed = parseRssFeed(await answer.text());
  t.same(feed.items?.map((i) => i.title), ['What the night shift taught me about patience, short sentences and the supply chain'], 'the published article');
  const again = await context.request.get(rss, { headers: { 'if-none-match': answer.headers().etag! } });
  t.equal(again.status(), 304, 'asked again with its validator: not modified');

  await Promise.all([page.waitForURL(/\/admin\/feeds\/syndication$/), page.getByRole('link', { name: 'All syndication feeds' }).click()]);
  // (The list with a feed is in the reflow sweep, test/e2e/reflow.spec.ts.)
  await page.getByRole('cell', { name: /Created/ }).first().waitFor();

  // The community's pages advertise the feed in their head.
  await page.goto('/contact');
  t.equal(await page.locator('link[rel="alternate"][type="application/rss+xml"]').getAttribute('href'), '/feeds/alpha-circle-of-independent-practitioners-everything-we.rss');
  t.same(problems, [], 'no errors in the pages');
});
