import t from 'tap';
import type { AddressInfo } from 'node:net';
import { setupDatabase, testClock } from '#test/helpers/app.ts';
import { collectPageProblems, expectReflowAndAxeAtPhoneWidths, launchBrowser, openContext } from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { startEpApp, submitAs } from '../features/expert-panels/admin-fixtures.ts';

const PHONE = { width: 375, height: 740 } as const;

t.test('an editor runs an expert panel in the browser: panel, member, batch, question, send, review, accept', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle' });
  const { app } = await startEpApp(t, db, testClock());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const browser = await browserReady;
  const boss = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Bea', lastName: 'Boss' });

  for (const javaScriptEnabled of [true, false]) {
    const mode = javaScriptEnabled ? 'with JavaScript' : 'without JavaScript';
    await t.test(mode, async (t) => {
      const expert = await createMember(db, alpha, { firstName: javaScriptEnabled ? 'Ada' : 'Alan', lastName: 'Expert' });
      const panelName = javaScriptEnabled ? 'Finance leaders' : 'People leaders';
      const context = await openContext(t, browser, baseUrl, { viewport: PHONE, token: (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token, javaScriptEnabled });
      const page = await context.newPage();
      const problems = collectPageProblems(page);
      const check = (what: string) => expectReflowAndAxeAtPhoneWidths(t, page, `${mode}: ${what}`, { browser, javaScriptEnabled });

      await page.goto('/admin/expert-panels');
      await check('the panels page');
      await page.getByLabel('Name', { exact: true }).fill(panelName);
      await page.getByLabel('Topic').fill('Money and people');
      await page.getByLabel('Fewest words in an answer').fill('3');
      await page.getByLabel('Most words in an answer').fill('200');
      await page.getByRole('button', { name: 'Create panel' }).click();
      await page.waitForURL(/\/admin\/expert-panels\/panels\/\d+/);
      await page.getByLabel('Add a member by email or username').fill(expert.email);
      await page.getByRole('button', { name: 'Add member' }).click();
      await page.getByText('The member was added to the panel.').waitFor();
      t.ok(await page.getByRole('cell', { name: expert.email }).isVisible(), 'the member is listed');
      await check('a panel with its member');

      await page.goto('/admin/expert-panels/batches');
      await page.getByLabel('Panel', { exact: true }).selectOption({ label: panelName });
      await page.getByLabel('Title').fill(`${panelName}: winter`);
      await page.getByLabel('Deadline').fill('2026-12-20T10:00');
      await page.getByRole('button', { name: 'Create batch' }).click();
      await page.waitForURL(/\/admin\/expert-panels\/batches\/\d+/);
      await page.locator('#q-new-title').fill('How do you plan cash?');
      await page.locator('#q-new-brief').fill('Tell us **how** you do it.');
      await page.getByRole('button', { name: 'Add question' }).click();
      await page.getByText('The question was added.').waitFor();
      await check('a draft batch with a question');
      await page.getByRole('button', { name: 'Send batch' }).click();
      await page.getByText('The batch was sent').waitFor();
      await check('a sent batch');

      const answer = await db.selectFrom('ep_answers').select('id').where('user_id', '=', expert.id).executeTakeFirstOrThrow();
      await submitAs(db, answer.id, '<p>We forecast thirteen weeks ahead, every Monday.</p>', 7, app.clock.now());
      await page.getByRole('link', { name: 'Answers to "How do you plan cash?"' }).click();
      await page.getByRole('link', { name: `${expert.firstName} Expert` }).click();
      await page.waitForURL(/\/admin\/expert-panels\/answers\/\d+/);
      await page.getByRole('button', { name: 'Start review' }).click();
      await page.getByText('The review has started').waitFor();
      await check('an answer in review');
      await page.getByLabel('Note to the member').fill('Clear and useful, thank you.');
      await page.getByRole('button', { name: 'Accept', exact: true }).click();
      await page.getByText('The answer was accepted and the member told.').waitFor();
      await check('an accepted answer');
      t.equal((await db.selectFrom('ep_answers').select('status').where('id', '=', answer.id).executeTakeFirstOrThrow()).status, 'accepted');

      await page.goto('/admin/expert-panels/answers');
      await check('the answers board');
      t.same(problems, [], 'no console errors or failed requests');
    });
  }
});
