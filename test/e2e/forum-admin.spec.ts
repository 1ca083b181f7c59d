import t from 'tap';
import type { Page } from 'playwright-core';
import { setupDatabase } from '#test/helpers/app.ts';
import { collectPageProblems, expectNoAxeViolations, expectNoSidewaysScroll, launchBrowser, openContext, pathOf, serveApp } from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

/** Clicks a button that submits a form and waits for the page it leads to. */
async function submitBy(page: Page, scope: ReturnType<Page['locator']> | Page, name: string) {
  await Promise.all([page.waitForEvent('framenavigated'), scope.getByRole('button', { name, exact: true }).first().click()]);
  await page.waitForLoadState('domcontentloaded');
}

t.test('staff approve a waiting post, dismiss a report and create a topic, at 320 and 375 px', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle', forum_enabled: true });
  const { app, baseUrl } = await serveApp(t, db);
  const browser = await browserReady;
  const boss = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Bea', lastName: 'Boss' });
  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const alan = await createMember(db, alpha, { firstName: 'Alan', lastName: 'Turing' });
  const post = (title: string, status: 'published' | 'pending') =>
    db
      .insertInto('forum_posts')
      .values({ community_id: alpha.id, author_id: ada.id, title, body_html: `<p>${title}: a long enough message to read.</p>`, body_text: `${title}: a long enough message to read.`, status })
      .returning('id')
      .executeTakeFirstOrThrow();
  const waiting = await post('Looking for a CFO mentor in the Austin area', 'pending');
  const reported = await post('Quarterly board meeting notes', 'published');
  await db.insertInto('forum_reports').values({ community_id: alpha.id, target_kind: 'post', target_id: reported.id, post_id: reported.id, reporter_id: alan.id, reason: 'off_topic', description: 'Not sure this belongs here.' }).execute();

  const context = await openContext(t, browser, baseUrl, { viewport: { width: 320, height: 720 }, token: (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token });
  const page = await context.newPage();
  const problems = collectPageProblems(page);
  const check = async (what: string) => {
    await expectNoSidewaysScroll(t, page, `${what} at ${page.viewportSize()!.width} px`);
    await expectNoAxeViolations(t, page, what);
  };

  await page.goto('/admin/forum');
  await page.getByRole('heading', { name: 'Forum', level: 1 }).waitFor();
  await check('the overview');
  await Promise.all([page.waitForEvent('framenavigated'), page.getByRole('link', { name: '1 post or reply waits for approval' }).click()]);
  t.equal(pathOf(page), '/admin/forum/queue');
  await check('the queue');
  await submitBy(page, page.getByRole('listitem').filter({ hasText: 'Looking for a CFO mentor' }), 'Approve');
  await page.getByText('Approved: it is published.').waitFor();
  t.equal((await db.selectFrom('forum_posts').select('status').where('id', '=', waiting.id).executeTakeFirstOrThrow()).status, 'published', 'the post is published');

  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/admin/forum/reports');
  await page.getByText('Not sure this belongs here.').waitFor();
  await check('the reports');
  await submitBy(page, page, 'Dismiss');
  await page.getByText('Report dismissed.').waitFor();
  await page.getByText('No open reports.').waitFor();

  await page.setViewportSize({ width: 320, height: 720 });
  await page.goto('/admin/forum/topics');
  await page.getByLabel('Name', { exact: true }).fill('Hiring and careers');
  await submitBy(page, page, 'Add topic');
  await page.getByText('Topic added.').waitFor();
  await page.getByRole('rowheader', { name: 'Hiring and careers' }).waitFor();
  await check('the topics');

  await page.goto('/admin/forum/posts');
  await page.getByRole('rowheader', { name: /Quarterly board meeting notes/ }).waitFor();
  await check('the posts');
  t.same(problems, [], 'no script errors');
});
