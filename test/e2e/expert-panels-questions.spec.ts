import t from 'tap';
import type { AddressInfo } from 'node:net';
import { addQuestion, createBatch, sendBatch } from '#src/features/expert-panels/admin/batches.ts';
import { addPanelMember, createPanel } from '#src/features/expert-panels/admin/panels.ts';
import { setupDatabase, testClock } from '#test/helpers/app.ts';
import { collectPageProblems, expectReflowAndAxeAtPhoneWidths, launchBrowser, openContext } from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { epDepsFor, startEpApp, submitAs } from '../features/expert-panels/admin-fixtures.ts';

const PHONE = { width: 375, height: 740 } as const;
const DAY = 24 * 3600 * 1000;

t.test('an editor uses the questions board in the browser: filter, search, close and reopen, the batches list', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle' });
  const { app } = await startEpApp(t, db, clock);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const browser = await browserReady;
  const boss = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Bea', lastName: 'Boss' });
  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Expert' });
  const deps = epDepsFor(app, alpha);
  const editor = { userId: boss.id, isStaff: true };
  const at = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();

  const finance = await createPanel(deps, editor, { name: 'Finance leaders', minWords: '1', maxWords: '300' });
  const people = await createPanel(deps, editor, { name: 'People leaders', minWords: '1', maxWords: '300' });
  await addPanelMember(deps, editor, finance, ada.email);
  await addPanelMember(deps, editor, people, ada.email);
  const winter = await createBatch(deps, editor, { panelId: String(finance), title: 'Winter money, a long batch title that must wrap on a phone', deadline: at(7 * DAY) });
  const cashId = await addQuestion(deps, editor, winter, { title: 'How do you plan cash when the season turns and the invoices arrive late?' });
  await addQuestion(deps, editor, winter, { title: 'When do you raise prices?' });
  await sendBatch(deps, editor, winter);
  const hiring = await createBatch(deps, editor, { panelId: String(people), title: 'Hiring', deadline: at(3 * DAY) });
  await addQuestion(deps, editor, hiring, { title: 'How do you hire for cash roles?' });
  await sendBatch(deps, editor, hiring);
  const draft = await createBatch(deps, editor, { panelId: String(people), title: 'Spring draft', deadline: at(30 * DAY) });
  await addQuestion(deps, editor, draft, { title: 'A draft question' });
  const answer = await db.selectFrom('ep_answers').select('id').where('question_id', '=', cashId).executeTakeFirstOrThrow();
  await submitAs(db, answer.id, '<p>Thirteen weeks ahead, every Monday.</p>', 6, clock.now());

  for (const javaScriptEnabled of [true, false]) {
    const mode = javaScriptEnabled ? 'with JavaScript' : 'without JavaScript';
    await t.test(mode, async (t) => {
      const context = await openContext(t, browser, baseUrl, { viewport: PHONE, token: (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token, javaScriptEnabled });
      const page = await context.newPage();
      const problems = collectPageProblems(page);
      const check = (what: string) => expectReflowAndAxeAtPhoneWidths(t, page, `${mode}: ${what}`, { browser, javaScriptEnabled });

      await page.goto('/admin/expert-panels');
      await page.getByRole('link', { name: 'Questions', exact: true }).click();
      await page.waitForURL(/\/admin\/expert-panels\/questions$/);
      await check('the questions board');
      t.ok(await page.getByRole('cell', { name: 'Draft (batch not sent)' }).isVisible(), 'a draft question is shown as such');

      await page.getByLabel('Search question titles').fill('cash');
      await page.getByLabel('Question state').selectOption('open');
      await page.getByLabel('Sort').selectOption('answers');
      await page.getByRole('button', { name: 'Show questions' }).click();
      await page.waitForURL(/q=cash/);
      t.match(page.url(), /state=open/);
      t.match(page.url(), /sort=answers/);
      t.equal(await page.locator('tbody tr').count(), 2, 'two open questions about cash');
      await check('the board filtered');

      await page.getByRole('button', { name: /^Close "How do you plan cash/ }).click();
      await page.getByText('The question was closed: it takes no new answers.').waitFor();
      t.match(page.url(), /q=cash/, 'back on the board with its search');
      t.match(page.url(), /state=open/, 'and its state filter');
      t.equal(await page.getByLabel('Search question titles').inputValue(), 'cash', 'the search is still in its field');
      t.equal(await page.locator('tbody tr').count(), 1, 'the closed one left the open filter');
      await check('after closing a question');

      await page.getByLabel('Question state').selectOption('closed');
      await page.getByRole('button', { name: 'Show questions' }).click();
      await page.waitForURL(/state=closed/);
      await page.getByRole('button', { name: /^Reopen "How do you plan cash/ }).click();
      await page.getByText('The question is open again.').waitFor();
      t.match(page.url(), /state=closed/);
      t.equal((await db.selectFrom('ep_questions').select('closed_at').where('id', '=', cashId).executeTakeFirstOrThrow()).closed_at, null);

      await page.goto('/admin/expert-panels/batches');
      await page.getByLabel('Batch state').selectOption('draft');
      await page.getByRole('button', { name: 'Show batches' }).click();
      await page.waitForURL(/state=draft/);
      t.ok(await page.getByRole('link', { name: 'Spring draft', exact: true }).isVisible());
      t.equal(await page.getByRole('link', { name: 'Hiring', exact: true }).count(), 0);
      await check('the batches list filtered');
      t.same(problems, [], 'no console errors or failed requests');

      // A search the board cannot use is answered with a 400 and its message beside the field.
      await page.goto(`/admin/expert-panels/questions?q=${'x'.repeat(250)}`);
      await page.getByText('Please keep this to 200 characters.').waitFor();
      t.equal(await page.getByLabel('Search question titles').inputValue(), 'x'.repeat(250), 'what was typed is kept');
      await check('a search too long');
    });
  }
});
