import t from 'tap';
import { invitationPath } from '#src/features/expert-panels/invite/links.ts';
import { collectPageProblems, expectReflowAndAxeAtPhoneWidths, openContext } from '#test/helpers/browser.ts';
import { createMember } from '#test/helpers/factories.ts';
import { browserWorld } from '#test/helpers/browser-world.ts';

// A journey with JavaScript off and on, axe and reflow at 320 and 375 px on each step.
t.setTimeout(6 * 60_000);

const NARROW = { width: 320, height: 720 };
const PHONE = { width: 375, height: 812 };

t.test('answering from an invitation link, signed out', async (t) => {
  const { browserReady, db, alpha, app, baseUrl } = await browserWorld(t);
  const browser = await browserReady;
  const secret = app.config.cookieSecret;
  const panel = await db.insertInto('ep_panels').values({ community_id: alpha.id, name: 'Growth and pricing', min_words: 3, max_words: 60 }).returning('id').executeTakeFirstOrThrow();

  /** A member with a sent batch of questions, and their invitation link (good for `ttlMs`). */
  async function invited(titles: string[], ttlMs = 60 * 60 * 1000) {
    const member = await createMember(db, alpha, { firstName: 'Jonah', lastName: 'Whitaker' });
    const batch = await db
      .insertInto('ep_batches')
      .values({ community_id: alpha.id, panel_id: panel.id, title: 'November', deadline_at: new Date(Date.now() + 7 * 24 * 3600 * 1000), status: 'sent', sent_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ids: number[] = [];
    for (const [position, title] of titles.entries()) {
      const q = await db
        .insertInto('ep_questions')
        .values({
          community_id: alpha.id,
          batch_id: batch.id,
          panel_id: panel.id,
          title,
          position,
          brief_html: '<p>Tell us what you changed and what happened next. A long unbroken word: <strong>supercalifragilisticexpialidocious-pricing-experiments</strong>.</p>',
          guidelines_html: '<ul><li>Be specific.</li><li>Name numbers where you can.</li></ul>',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(q.id);
      await db.insertInto('ep_answers').values({ community_id: alpha.id, question_id: q.id, user_id: member.id, status: 'open' }).execute();
    }
    const link = invitationPath(secret, { communityId: alpha.id, userId: member.id, questionIds: ids, expiresAt: new Date(Date.now() + ttlMs) });
    return { member, ids, link };
  }
  const statusOf = (questionId: number, userId: number) =>
    db.selectFrom('ep_answers').select(['status', 'body_html']).where('question_id', '=', questionId).where('user_id', '=', userId).executeTakeFirstOrThrow();

  await t.test('JavaScript off at 320 and 375: read, answer, and an expired link keeps the text', async (t) => {
    const { member, ids, link } = await invited(['How did you raise prices?', 'Do annual plans work?']);
    const context = await openContext(t, browser, baseUrl, { viewport: NARROW, javaScriptEnabled: false });
    const page = await context.newPage();
    const check = (what: string) => expectReflowAndAxeAtPhoneWidths(t, page, what, { browser, javaScriptEnabled: false });
    await page.goto(link);
    await page.getByRole('heading', { name: 'Questions for you' }).waitFor();
    await page.getByRole('heading', { name: 'How did you raise prices?' }).waitFor();
    await check('the invitation');
    await page.getByLabel('Your answer to “How did you raise prices?”').fill('We raised prices by ten percent and churn held.');
    await Promise.all([page.waitForURL(/notice=submitted/), page.getByRole('button', { name: 'Send answer' }).first().click()]);
    await page.getByText('Thank you: your answer was sent and is now in review.').waitFor();
    t.equal(await page.getByRole('heading', { name: 'How did you raise prices?' }).count(), 0, 'the answered question is gone from the list');
    await check('after answering');
    t.match(await statusOf(ids[0]!, member.id), { status: 'submitted', body_html: '<p>We raised prices by ten percent and churn held.</p>' });

    // A link that expires while the member types.
    const short = await invited(['What would you do differently?'], 2500);
    await page.goto(short.link);
    await page.getByLabel('Your answer to “What would you do differently?”').fill('Test the price on new customers first.');
    await page.waitForTimeout(3000);
    await page.getByRole('button', { name: 'Send answer' }).click();
    await page.getByText('This invitation link has expired, so it can no longer send answers by itself.').waitFor();
    t.equal(await page.getByLabel('Your answer to “What would you do differently?”').inputValue(), 'Test the price on new customers first.', 'the text is kept');
    t.ok(await page.getByRole('link', { name: 'Sign in (opens in a new tab)' }).isVisible(), 'the way to sign in');
    await check('an expired link, text kept');
    t.equal((await statusOf(short.ids[0]!, short.member.id)).status, 'open');
  });

  await t.test('JavaScript on at 375: can’t answer one, answer the other, the last one done', async (t) => {
    const { member, ids, link } = await invited(['Which channel grew fastest?', 'What did you stop doing?']);
    const context = await openContext(t, browser, baseUrl, { viewport: PHONE });
    const page = await context.newPage();
    const problems = collectPageProblems(page);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Which channel grew fastest?' }).waitFor();
    await expectReflowAndAxeAtPhoneWidths(t, page, 'the invitation with JavaScript', { browser, javaScriptEnabled: true });
    await Promise.all([page.waitForURL(/notice=cant_answer/), page.getByRole('button', { name: "I can't answer" }).first().click()]);
    await page.getByText("Noted: you can't answer that question.").waitFor();
    await page.getByLabel('Your answer to “What did you stop doing?”').fill('Cold outbound email.');
    await Promise.all([page.waitForURL(/notice=submitted/), page.getByRole('button', { name: 'Send answer' }).click()]);
    await page.getByText('That was the last open question of this invitation.').waitFor();
    await expectReflowAndAxeAtPhoneWidths(t, page, 'all done', { browser, javaScriptEnabled: true });
    t.equal((await statusOf(ids[0]!, member.id)).status, 'cant_answer');
    t.equal((await statusOf(ids[1]!, member.id)).status, 'submitted');
    t.same(problems, [], 'no console errors or failed requests');
  });
});
