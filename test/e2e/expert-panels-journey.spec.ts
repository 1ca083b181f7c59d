import t from 'tap';
import type { Page } from 'playwright-core';
import { DESKTOP, collectPageProblems, expectReflowAndAxeAtPhoneWidths, openContext, pathOf } from '#test/helpers/browser.ts';
import { createMember, signIn } from '#test/helpers/factories.ts';
import { browserWorld } from '#test/helpers/browser-world.ts';

const DAY = 24 * 3600 * 1000;

/** Clicks a button that submits a form and waits for the page it leads to. */
async function submitBy(page: Page, name: string) {
  await Promise.all([page.waitForEvent('framenavigated'), page.getByRole('button', { name, exact: true }).first().click()]);
  await page.waitForLoadState('domcontentloaded');
}

/** Follows a link and waits for the page it leads to. */
async function follow(page: Page, name: string) {
  await Promise.all([page.waitForEvent('framenavigated'), page.getByRole('link', { name, exact: true }).first().click()]);
  await page.waitForLoadState('domcontentloaded');
}

/**
 * The whole of issue 15 across its areas, once at desktop width and once at 375 px: a member answers;
 * an editor reviews, edits and accepts it with a note, builds a roundup from it and publishes it
 * (DRAFT → EDITOR_REVIEW → READY_FOR_PUBLISHING → FINAL); the member sees it published on their list
 * and question, follows the live address to the roundup, and has been notified of both decisions.
 */
t.test('an answer goes from the member to a published roundup and back to the member (desktop and 375 px, axe on every page)', async (t) => {
  const { browserReady, db, alpha, app, baseUrl } = await browserWorld(t);
  const browser = await browserReady;
  const now = app.clock.now().getTime();
  const editor = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Eddie', lastName: 'Editor' });
  const panel = await db
    .insertInto('ep_panels')
    .values({ community_id: alpha.id, name: 'Finance leaders', topic: 'Money', min_words: 5, max_words: 200 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const batch = await db
    .insertInto('ep_batches')
    .values({ community_id: alpha.id, panel_id: panel.id, title: 'Winter', deadline_at: new Date(now + 10 * DAY), status: 'sent', sent_at: new Date(now - DAY) })
    .returning('id')
    .executeTakeFirstOrThrow();

  const runs = [
    { label: 'desktop', viewport: DESKTOP, first: 'Ada', last: 'Desk', title: 'How do you plan cash for a slow quarter?', roundup: 'Cash in a slow quarter', slug: 'cash-in-a-slow-quarter' },
    { label: '375 px', viewport: { width: 375, height: 740 }, first: 'Alan', last: 'Phone', title: 'What was the best hire you ever made?', roundup: 'The best hire we ever made', slug: 'the-best-hire-we-ever-made' },
  ] as const;

  for (const run of runs) {
    await t.test(run.label, async (t) => {
      const name = `${run.first} ${run.last}`;
      const expert = await createMember(db, alpha, { firstName: run.first, lastName: run.last, companyName: `${run.last} Holdings` });
      const question = await db
        .insertInto('ep_questions')
        .values({ community_id: alpha.id, batch_id: batch.id, panel_id: panel.id, title: run.title, brief_html: '<p>Tell us what worked, and what you learned.</p>' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('ep_answers').values({ community_id: alpha.id, question_id: question.id, user_id: expert.id, sent_at: new Date(now - DAY) }).execute();

      const open = async (token: string) => {
        const context = await openContext(t, browser, baseUrl, { viewport: run.viewport, token });
        const page = await context.newPage();
        return { page, problems: collectPageProblems(page) };
      };
      const member = await open((await signIn(app, expert, alpha)).token);
      const staff = await open((await signIn(app, editor, alpha, ['ADMIN', 'MEMBER'])).token);
      // Every page visited: axe (WCAG 2.1 A/AA) and no sideways scroll, at this run's width.
      const check = (page: Page, what: string) => expectReflowAndAxeAtPhoneWidths(t, page, `${what} (${run.label})`, { browser, javaScriptEnabled: true, widths: [run.viewport.width] });

      // 1. The member answers from the question's page.
      await member.page.goto(`/expert-panels/${question.id}`);
      await member.page.getByRole('heading', { name: run.title, level: 1 }).waitFor();
      await check(member.page, 'the question');
      await member.page.getByLabel('Write your answer').fill('We keep three months of costs aside and talk to the bank early.');
      await Promise.all([member.page.waitForURL(/alert=expert-answer-submitted/), member.page.getByRole('button', { name: 'Submit answer' }).click()]);
      await member.page.getByText('Your answer is submitted. It is in review.').waitFor();
      await check(member.page, 'the submitted answer');

      // 2. The editor reviews it: start, edit, accept with a note.
      await staff.page.goto('/admin/expert-panels/answers');
      await staff.page.getByRole('heading', { name: 'Expert answers', level: 1 }).waitFor();
      await check(staff.page, 'the answers board');
      await follow(staff.page, name);
      await staff.page.getByRole('heading', { name: `Answer by ${name}`, level: 1 }).waitFor();
      await check(staff.page, 'the answer');
      await submitBy(staff.page, 'Start review');
      await staff.page.getByText('The review has started').waitFor();
      await check(staff.page, 'the answer in review');
      const finalText = 'We keep three months of costs aside, and we talk to our bank long before we need to borrow.';
      await staff.page.getByLabel('Answer text').fill(finalText);
      await submitBy(staff.page, 'Save edit');
      await staff.page.getByText('Your edit was saved as a new revision.').waitFor();
      await check(staff.page, 'the edited answer');
      await staff.page.getByLabel('Note to the member').fill('Clear and useful: we tightened one sentence.');
      await submitBy(staff.page, 'Accept');
      await staff.page.getByText('The answer was accepted and the member told.').waitFor();
      await check(staff.page, 'the accepted answer');
      const row = await db.selectFrom('ep_answers').select(['status', 'decision_note']).where('question_id', '=', question.id).where('user_id', '=', expert.id).executeTakeFirstOrThrow();
      t.same(row, { status: 'accepted', decision_note: 'Clear and useful: we tightened one sentence.' }, 'accepted with the note');

      // 3. The editor builds a roundup from it and moves it to FINAL.
      await staff.page.goto('/admin/expert-panels/roundups');
      await staff.page.getByRole('heading', { name: 'Roundups', level: 1 }).waitFor();
      await check(staff.page, 'the roundups board');
      await follow(staff.page, 'New roundup');
      await staff.page.getByRole('heading', { name: 'New roundup', level: 1 }).waitFor();
      await check(staff.page, 'the new roundup page');
      await staff.page.getByLabel('Question').selectOption({ label: `${run.title} (Finance leaders, 1 accepted answer)` });
      await staff.page.getByLabel('Title').fill(run.roundup);
      await staff.page.getByLabel('Introduction').fill('A member of our finance panel answers.');
      await submitBy(staff.page, 'Create roundup');
      await staff.page.getByRole('heading', { name: `Roundup: ${run.roundup}`, level: 1 }).waitFor();
      t.match(pathOf(staff.page), /^\/admin\/expert-panels\/roundups\/\d+$/, "the roundup's page");
      await staff.page.getByText('Status: Draft').waitFor();
      await check(staff.page, 'the draft roundup');
      await submitBy(staff.page, `Add ${name}'s answer`);
      await staff.page.getByText('Every accepted answer to this question is in the roundup.').waitFor();
      await check(staff.page, 'the composed roundup');
      for (const [move, status] of [
        ['Move to editor review', 'Editor review'],
        ['Mark ready for publishing', 'Ready for publishing'],
        ['Publish', 'Published'],
      ] as const) {
        await submitBy(staff.page, move);
        await staff.page.getByText(`Status: ${status}`).waitFor();
        await check(staff.page, `the roundup in ${status}`);
      }
      await staff.page.getByText(/Ready for publishing → Published, by Eddie Editor/).waitFor();
      const live = `/expert-panels/roundups/${run.slug}`;
      t.ok(await staff.page.getByRole('link', { name: live }).isVisible(), 'the published roundup shows its live address');

      // 4. The member sees it published: the published tab, the question page with the live address.
      await member.page.goto('/expert-panels?tab=published');
      await member.page.getByRole('link', { name: 'Published (1)' }).waitFor();
      await member.page.getByRole('link', { name: run.title }).waitFor();
      t.equal(await member.page.getByRole('link', { name: `Read the roundup “${run.roundup}”` }).getAttribute('href'), live, 'the list links the live roundup');
      await check(member.page, 'the published tab');
      await follow(member.page, run.title);
      await member.page.getByRole('heading', { name: run.title, level: 1 }).waitFor();
      await member.page.getByText(`Your answer is published in the roundup “${run.roundup}”.`).waitFor();
      await member.page.getByText(finalText).first().waitFor();
      await check(member.page, 'the published answer');

      // 5. The live address leads to the roundup: their name, the final (edited) text.
      await follow(member.page, live);
      t.equal(pathOf(member.page), live, 'the live address');
      await member.page.getByRole('heading', { name: run.roundup, level: 1 }).waitFor();
      t.same(await member.page.getByRole('heading', { level: 3 }).allTextContents(), [name], 'their name over their answer');
      await member.page.getByText(finalText).waitFor();
      await member.page.getByText(`${run.last} Holdings`).first().waitFor();
      await check(member.page, 'the live roundup');

      // 6. The member was told both times.
      await member.page.goto('/notifications');
      await member.page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
      await member.page.getByRole('link', { name: `Your answer to "${run.title}" was accepted. Editor’s note: Clear and useful: we tightened one sentence.` }).waitFor();
      const told = member.page.getByRole('link', { name: `Your expert answer is published in the roundup “${run.roundup}”.` });
      await told.waitFor();
      await check(member.page, 'the notifications');
      await Promise.all([member.page.waitForURL((url) => url.pathname === live), told.click()]);
      await member.page.getByRole('heading', { name: run.roundup, level: 1 }).waitFor();

      t.same(member.problems, [], "no page problems on the member's side");
      t.same(staff.problems, [], "no page problems on the editor's side");
    });
  }
});
