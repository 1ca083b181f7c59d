import t from 'tap';
import { collectPageProblems, expectNoAxeViolations, expectReflowAndAxeAtPhoneWidths, openContext, pathOf } from '#test/helpers/browser.ts';
import { createMember, signIn } from '#test/helpers/factories.ts';
import { browserWorld } from '#test/helpers/browser-world.ts';

const DAY = 24 * 3600 * 1000;

t.test("a member marks questions from their list: with htmx only the row changes and it is announced; without JavaScript the form posts as before", async (t) => {
  const { browserReady, db, alpha, app, baseUrl } = await browserWorld(t);
  const browser = await browserReady;
  const now = app.clock.now().getTime();
  const panel = await db.insertInto('ep_panels').values({ community_id: alpha.id, name: 'Finance leaders', min_words: 5, max_words: 200 }).returning('id').executeTakeFirstOrThrow();
  const batch = await db
    .insertInto('ep_batches')
    .values({ community_id: alpha.id, panel_id: panel.id, title: 'Winter', deadline_at: new Date(now + 10 * DAY), status: 'sent', sent_at: new Date(now - DAY) })
    .returning('id')
    .executeTakeFirstOrThrow();

  for (const javaScriptEnabled of [true, false]) {
    const mode = javaScriptEnabled ? 'with JavaScript' : 'without JavaScript';
    await t.test(mode, async (t) => {
      const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: javaScriptEnabled ? 'Script' : 'Plain' });
      const ids: number[] = [];
      for (const title of ['How do you plan cash?', 'Who was your best hire?']) {
        const q = await db.insertInto('ep_questions').values({ community_id: alpha.id, batch_id: batch.id, panel_id: panel.id, title, brief_html: '<p>Tell us.</p>' }).returning('id').executeTakeFirstOrThrow();
        await db.insertInto('ep_answers').values({ community_id: alpha.id, question_id: q.id, user_id: ada.id, sent_at: new Date(now - DAY) }).execute();
        ids.push(q.id);
      }
      const [cash, hire] = ids as [number, number];
      const context = await openContext(t, browser, baseUrl, { viewport: { width: 375, height: 740 }, token: (await signIn(app, ada, alpha)).token, javaScriptEnabled });
      const page = await context.newPage();
      const problems = collectPageProblems(page);
      await page.goto('/expert-panels');
      await page.getByRole('heading', { name: 'Expert Panels', level: 1 }).waitFor();
      await expectReflowAndAxeAtPhoneWidths(t, page, `the list with its marks ${mode}`, { browser, javaScriptEnabled });
      const cashRow = page.locator(`#ep-row-${cash}`);
      const statusOf = async (id: number) => (await db.selectFrom('ep_answers').select('status').where('question_id', '=', id).where('user_id', '=', ada.id).executeTakeFirstOrThrow()).status;

      if (javaScriptEnabled) {
        // Only the row changes: the document is the same one (a mark set on it survives), no navigation.
        let navigations = 0;
        page.on('framenavigated', (frame) => {
          if (frame === page.mainFrame()) navigations += 1;
        });
        await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true));
        await cashRow.getByRole('button', { name: "Can't answer: How do you plan cash?" }).click();
        await page.locator('#ep-live').getByText("“How do you plan cash?”: marked as can't answer. You can still answer while it is open.").waitFor();
        await cashRow.getByText("Can't answer", { exact: true }).waitFor();
        t.equal(await cashRow.getByRole('button', { name: /^Can't answer/ }).count(), 0, 'the mark it has is no longer offered');
        t.ok(await cashRow.getByRole('button', { name: 'Ignore: How do you plan cash?' }).isVisible(), 'the other one is');
        t.equal(navigations, 0, 'no navigation');
        t.ok(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage === true), 'the same document');
        t.equal(pathOf(page), '/expert-panels');
        t.equal(await page.locator('#ep-live').getAttribute('role'), 'status', 'the live region is still the polite one');
        t.equal(await statusOf(cash), 'cant_answer');
        t.ok(await page.locator(`#ep-row-${hire}`).getByRole('button', { name: "Can't answer: Who was your best hire?" }).isVisible(), 'the other row untouched');
        await expectNoAxeViolations(t, page, 'the list after marking a row');
        await expectReflowAndAxeAtPhoneWidths(t, page, `the list after marking ${mode}`, { browser, javaScriptEnabled });

        await page.locator(`#ep-row-${hire}`).getByRole('button', { name: 'Ignore: Who was your best hire?' }).click();
        await page.locator('#ep-live').getByText('“Who was your best hire?”: ignored. You can still answer while it is open.').waitFor();
        await page.locator(`#ep-row-${hire}`).getByText('Ignored', { exact: true }).waitFor();
        t.equal(navigations, 0, 'still no navigation');
        t.equal(await statusOf(hire), 'ignored');
        await expectNoAxeViolations(t, page, 'the list after the second mark');
      } else {
        await Promise.all([page.waitForURL(/alert=expert-question-cant-answer/), cashRow.getByRole('button', { name: "Can't answer: How do you plan cash?" }).click()]);
        await page.getByText("Marked as can't answer.").waitFor();
        t.equal(pathOf(page), '/expert-panels', 'back to the list, as before');
        await page.locator(`#ep-row-${cash}`).getByText("Can't answer", { exact: true }).waitFor();
        t.equal(await statusOf(cash), 'cant_answer');
        await expectReflowAndAxeAtPhoneWidths(t, page, `the list after marking ${mode}`, { browser, javaScriptEnabled });
      }
      t.same(problems, [], 'no page problems');
    });
  }
});
