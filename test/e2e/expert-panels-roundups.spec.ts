import t from 'tap';
import type { Page } from 'playwright-core';
import { collectPageProblems, expectReflowAndAxeAtPhoneWidths, openContext, pathOf } from '#test/helpers/browser.ts';
import { createMember, signIn } from '#test/helpers/factories.ts';
import { browserWorld } from '#test/helpers/browser-world.ts';

/** Clicks a button that submits a form and waits for the page it leads to. */
async function submitBy(page: Page, name: string) {
  await Promise.all([page.waitForEvent('framenavigated'), page.getByRole('button', { name, exact: true }).first().click()]);
  await page.waitForLoadState('domcontentloaded');
}

t.test('an editor builds a roundup from accepted answers and publishes it; the live page shows it (JS on and off, 320/375, axe)', async (t) => {
  const { browserReady, db, alpha, app, baseUrl } = await browserWorld(t);
  const browser = await browserReady;
  const editor = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Eddie', lastName: 'Editor' });
  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace', companyName: 'Analytical Engines Incorporated' });
  const alan = await createMember(db, alpha, { firstName: 'Alan', lastName: 'Turing', companyName: 'Bletchley Works' });
  const panel = await db.insertInto('ep_panels').values({ community_id: alpha.id, name: 'Finance leaders' }).returning('id').executeTakeFirstOrThrow();
  const batch = await db
    .insertInto('ep_batches')
    .values({ community_id: alpha.id, panel_id: panel.id, title: 'November', deadline_at: new Date(Date.now() + 86_400_000), status: 'sent', sent_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const question = async (title: string) => {
    const q = await db.insertInto('ep_questions').values({ community_id: alpha.id, batch_id: batch.id, panel_id: panel.id, title, brief_html: '<p>Tell us what worked.</p>' }).returning('id').executeTakeFirstOrThrow();
    for (const [who, text] of [
      [ada, 'Keep three months of costs aside, and talk to your bank long before you need to borrow anything.'],
      [alan, 'Model the worst case first, then cut what you can before you must; a calm plan beats a fast one.'],
    ] as const) {
      await db
        .insertInto('ep_answers')
        .values({ community_id: alpha.id, question_id: q.id, user_id: who.id, status: 'accepted', body_html: `<p>${text}</p>`, body_text: text, word_count: text.split(' ').length, decided_at: new Date() })
        .execute();
    }
    return q.id;
  };
  await question('How do you plan cash for a slow quarter?');
  await question('What was the best hire you ever made?');

  for (const javaScriptEnabled of [true, false]) {
    const how = javaScriptEnabled ? 'with JavaScript' : 'without JavaScript';
    const title = javaScriptEnabled ? 'Cash in a slow quarter' : 'The best hire we ever made';
    const slug = javaScriptEnabled ? 'cash-in-a-slow-quarter' : 'the-best-hire-we-ever-made';
    const context = await openContext(t, browser, baseUrl, { viewport: { width: 375, height: 740 }, javaScriptEnabled, token: (await signIn(app, editor, alpha, ['ADMIN', 'MEMBER'])).token });
    const page = await context.newPage();
    const problems = collectPageProblems(page);
    const check = (what: string) => expectReflowAndAxeAtPhoneWidths(t, page, `${what} ${how}`, { browser, javaScriptEnabled });

    await page.goto('/admin/expert-panels/roundups');
    await page.getByRole('heading', { name: 'Roundups', level: 1 }).waitFor();
    await check('the board');
    // The empty board's empty state offers the same link: the board's own is the first.
    await Promise.all([page.waitForEvent('framenavigated'), page.getByRole('link', { name: 'New roundup' }).first().click()]);
    await page.getByRole('heading', { name: 'New roundup', level: 1 }).waitFor();
    await check('the new roundup page');
    const label = javaScriptEnabled ? 'How do you plan cash for a slow quarter? (Finance leaders, 2 accepted answers)' : 'What was the best hire you ever made? (Finance leaders, 2 accepted answers)';
    await page.getByLabel('Question').selectOption({ label });
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Introduction').fill('Two members of our finance panel answer.');
    await submitBy(page, 'Create roundup');
    await page.getByRole('heading', { name: `Roundup: ${title}`, level: 1 }).waitFor();
    t.match(pathOf(page), /^\/admin\/expert-panels\/roundups\/\d+$/, `the roundup's page ${how}`);
    await page.getByText('Roundup created.').waitFor();

    await submitBy(page, "Add Alan Turing's answer");
    await submitBy(page, "Add Ada Lovelace's answer");
    await submitBy(page, "Move up: Ada Lovelace's answer");
    await page.getByText('Every accepted answer to this question is in the roundup.').waitFor();
    await check('the composed roundup');
    for (const move of ['Move to editor review', 'Mark ready for publishing', 'Publish']) await submitBy(page, move);
    await page.getByText('Status: Published').waitFor();
    await page.getByText(/Ready for publishing → Published, by Eddie Editor/).waitFor();
    await check('the published roundup');

    await Promise.all([page.waitForEvent('framenavigated'), page.getByRole('link', { name: `/expert-panels/roundups/${slug}` }).click()]);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    const names = await page.getByRole('heading', { level: 3 }).allTextContents();
    t.same(names, ['Ada Lovelace', 'Alan Turing'], `the answers in the editor's order ${how}`);
    t.same(problems, [], `no page problems ${how}`);

    // Signed out, the live page reads the same.
    const visitorContext = await openContext(t, browser, baseUrl, { viewport: { width: 320, height: 720 }, javaScriptEnabled });
    const visitor = await visitorContext.newPage();
    await visitor.goto(`/expert-panels/roundups/${slug}`);
    await visitor.getByRole('heading', { name: title, level: 1 }).waitFor();
    await visitor.getByText('Analytical Engines Incorporated').first().waitFor();
    await expectReflowAndAxeAtPhoneWidths(t, visitor, `the live page signed out ${how}`, { browser, javaScriptEnabled });
  }
});
