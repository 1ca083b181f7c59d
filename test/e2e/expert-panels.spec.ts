import t from 'tap';
import { collectPageProblems, expectReflowAndAxeAtPhoneWidths, openContext } from '#test/helpers/browser.ts';
import { createMember, signIn } from '#test/helpers/factories.ts';
import { browserWorld } from '#test/helpers/browser-world.ts';

const PHONE = { width: 375, height: 740 } as const;
const DAY = 24 * 3600 * 1000;

t.test('a member answers an expert-panel question in the browser, with and without JavaScript', async (t) => {
  const { browserReady, db, alpha, app, baseUrl } = await browserWorld(t);
  const browser = await browserReady;
  const now = app.clock.now().getTime();
  const panel = await db
    .insertInto('ep_panels')
    .values({ community_id: alpha.id, name: 'Growth & Go-to-Market', topic: 'Growth', min_words: 5, max_words: 40 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const batch = await db
    .insertInto('ep_batches')
    .values({ community_id: alpha.id, panel_id: panel.id, title: 'December', deadline_at: new Date(now + 10 * DAY), status: 'sent', sent_at: new Date(now - DAY) })
    .returning('id')
    .executeTakeFirstOrThrow();

  for (const javaScript of [true, false]) {
    const mode = javaScript ? 'with JavaScript' : 'without JavaScript';
    await t.test(mode, async (t) => {
      const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: javaScript ? 'Script' : 'Plain' });
      const title = javaScript ? 'Which pricing change paid off most?' : 'Which channel would you cut first?';
      const question = await db
        .insertInto('ep_questions')
        .values({
          community_id: alpha.id,
          batch_id: batch.id,
          panel_id: panel.id,
          title,
          brief_html: '<p>Tell us about the one change that moved revenue the most, and what you learned from it.</p>',
          guidelines_html: '<p>Write from your own experience. No promotion.</p>',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('ep_answers').values({ community_id: alpha.id, question_id: question.id, user_id: ada.id, sent_at: new Date(now - DAY) }).execute();

      const context = await openContext(t, browser, baseUrl, { viewport: PHONE, token: (await signIn(app, ada, alpha)).token, javaScriptEnabled: javaScript });
      const page = await context.newPage();
      const problems = collectPageProblems(page);

      // The questions: the open tab lists the question, a link to it.
      await page.goto('/expert-panels');
      await page.getByRole('heading', { name: 'Expert Panels', level: 1 }).waitFor();
      await expectReflowAndAxeAtPhoneWidths(t, page, `the questions ${mode}`, { browser, javaScriptEnabled: javaScript });
      await Promise.all([page.waitForURL(new RegExp(`/expert-panels/${question.id}$`)), page.getByRole('link', { name: title }).click()]);
      await page.getByRole('heading', { name: title, level: 1 }).waitFor();
      await expectReflowAndAxeAtPhoneWidths(t, page, `the question ${mode}`, { browser, javaScriptEnabled: javaScript });

      // Too short: the spec's message beside the field, the text kept.
      const field = page.getByLabel('Write your answer');
      await field.fill('Value based tiers.');
      if (javaScript) {
        await page.getByText('Words: 3 (between 5 and 40)').waitFor();
        await page.getByText('Draft saved on this device.').waitFor();
        await page.reload();
        await page.getByText('Your draft was restored.').waitFor();
        t.equal(await field.inputValue(), 'Value based tiers.', 'the draft is restored');
      }
      await Promise.all([page.waitForLoadState('domcontentloaded'), page.getByRole('button', { name: 'Submit answer' }).click()]);
      await page.getByText('Your answer is 3 words: please write at least 5 words.').waitFor();
      t.equal(await field.inputValue(), 'Value based tiers.', 'the text is kept');
      await expectReflowAndAxeAtPhoneWidths(t, page, `the refused answer ${mode}`, { browser, javaScriptEnabled: javaScript });

      // Submitted: in review, with an Edit link; the in-review tab lists it.
      await field.fill('We moved to **value based** tiers and our average contract grew by a third.');
      await Promise.all([page.waitForURL(/alert=expert-answer-submitted/), page.getByRole('button', { name: 'Submit answer' }).click()]);
      await page.getByText('Your answer is submitted. It is in review.').waitFor();
      await page.getByText('In review: the editors will read your answer.').waitFor();
      await page.getByRole('link', { name: 'Edit your answer' }).waitFor();
      await expectReflowAndAxeAtPhoneWidths(t, page, `the answer in review ${mode}`, { browser, javaScriptEnabled: javaScript });
      await page.goto('/expert-panels?tab=in-review');
      await page.getByRole('link', { name: title }).waitFor();
      t.ok(await page.getByRole('link', { name: 'In review (1)' }).isVisible(), 'the in-review tab counts it');
      const row = await db.selectFrom('ep_answers').select(['status', 'word_count']).where('question_id', '=', question.id).where('user_id', '=', ada.id).executeTakeFirstOrThrow();
      t.same(row, { status: 'submitted', word_count: 14 });
      // The refused submit is a 400 page (the form with its message), which the browser logs as a failed load.
      const refused = /status of 400 \(Bad Request\)/;
      t.same(problems.filter((m) => !refused.test(m)), [], 'no script errors');
      t.ok(problems.length <= 1, 'at most the one refused submit');
    });
  }
});
