import t from 'tap';
import type { Page } from 'playwright-core';
import { fixedClock } from '#src/core/clock.ts';
import { acceptProductAgreement } from '#src/features/articles/byline-terms.ts';
import { autosaveRevision } from '#src/features/articles/writing.ts';
import { publishDueArticles } from '#src/features/articles/publishing.ts';
import { setupDatabase } from '#test/helpers/app.ts';
import { DESKTOP, expectNoAxeViolationsWithoutJavaScript, launchBrowser, openContext, pathOf, serveApp, setAuthCookie } from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

/** A body for the plain field: paragraphs of `sizes[i]` words, separated by an empty line. */
const body = (paragraphs: Array<[prefix: string, words: number]>) =>
  paragraphs.map(([prefix, n]) => Array.from({ length: n }, (_, i) => `${prefix}w${i}`).join(' ')).join('\n\n');

const FIRST_TITLE = 'What the night shift taught me';
const EDITED_TITLE = 'What the night shift taught me about patience';
/** 500 words exactly (the minimum): five paragraphs of 100. */
const FIRST_BODY = body([['one', 100], ['two', 100], ['three', 100], ['four', 100], ['five', 100]]);
/** 520 words: the second paragraph rewritten with 120 words. */
const SECOND_BODY = body([['one', 100], ['tight', 120], ['three', 100], ['four', 100], ['five', 100]]);
const FEEDBACK = 'Please tighten the second paragraph.';

/** Clicks a button that submits a form (JavaScript is off: a real navigation) and waits for the next page. */
async function submitBy(page: Page, name: string) {
  await Promise.all([page.waitForEvent('framenavigated'), page.getByRole('button', { name, exact: true }).click()]);
  await page.waitForLoadState('domcontentloaded');
}

t.test('article review without JavaScript: the member and the editor, from draft to published', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, {
    code: 'alpha',
    app_name: 'Alpha Circle',
    article_terms: 'Terms of the program.\n\nYou keep your copyright.',
    article_guidelines: 'Write about what you know.',
  });
  const beta = await createCommunity(db, { code: 'beta', app_name: 'Beta Circle', article_terms: 'Beta terms.', article_application_url: 'https://apply.example.com/articles?from=beta' });
  const { app, baseUrl } = await serveApp(t, db);
  const browser = await browserReady;
  const author = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Byron' });
  const editorUser = await createMember(db, alpha, { firstName: 'Eve', lastName: 'Editor', roles: ['ADMIN', 'MEMBER'] });

  await t.test('the journey: submit, feedback, revision, diff, approval, schedule, publication', async (t) => {
    const memberContext = await openContext(t, browser, baseUrl, { viewport: DESKTOP, javaScriptEnabled: false });
    await setAuthCookie(memberContext, baseUrl, (await signIn(app, author, alpha)).token);
    const editorContext = await openContext(t, browser, baseUrl, { viewport: DESKTOP, javaScriptEnabled: false });
    await setAuthCookie(editorContext, baseUrl, (await signIn(app, editorUser, alpha, ['ADMIN', 'MEMBER'])).token);
    const member = await memberContext.newPage();
    const editor = await editorContext.newPage();
    const notificationsOfAuthor = async () =>
      (await db.selectFrom('notifications').select('message').where('user_id', '=', author.id).where('community_id', '=', alpha.id).orderBy('id').execute()).map((n) => n.message);

    // 1. The member: the agreement gate, a byline, a 500-word draft saved by the server, then Submit.
    await member.goto('/articles');
    await member.getByRole('heading', { name: 'Before you write' }).waitFor();
    await member.getByLabel('I have read and accept these terms').check();
    await submitBy(member, 'Confirm');
    t.equal(pathOf(member), '/articles/edit', 'accepting the terms opens the editor');

    await member.goto('/articles/settings');
    await member.getByLabel('Byline (at most 140 characters and 1 link)').fill('Ada writes about long nights and short sentences.');
    await submitBy(member, 'Save Byline');
    await member.getByText('Byline saved.').waitFor();

    await member.goto('/articles/edit');
    await member.getByRole('textbox', { name: 'Title' }).fill(FIRST_TITLE);
    await member.getByRole('textbox', { name: 'Article' }).fill(FIRST_BODY);
    await submitBy(member, 'Save draft');
    t.equal(pathOf(member), '/articles/edit', 'Save draft comes back to the editor');
    await member.getByText('Saved.', { exact: true }).waitFor();
    t.equal((await member.locator('#body-count').textContent())?.trim(), '500/1000 words (500 min)', 'the server counted exactly 500 words');
    t.equal(await member.getByRole('textbox', { name: 'Title' }).inputValue(), FIRST_TITLE, 'the title came back');
    t.equal(await member.getByRole('textbox', { name: 'Article' }).inputValue(), FIRST_BODY, 'the body came back paragraph by paragraph');
    await expectNoAxeViolationsWithoutJavaScript(t, browser, member, "the member's editor with a saved draft");

    await member.getByLabel('I confirm this article is my original work and agree to the article agreement').check();
    await submitBy(member, 'Submit');
    await member.getByText('Your article was submitted for review.').waitFor();
    t.equal(pathOf(member), '/articles');
    const { id: articleId } = await db.selectFrom('articles').select('id').where('author_id', '=', author.id).executeTakeFirstOrThrow();
    const statusOf = async () => (await db.selectFrom('articles').select(['status', 'editor_id']).where('id', '=', articleId).executeTakeFirstOrThrow());
    t.equal((await statusOf()).status, 'SUBMITTED_FOR_REVIEW');

    // 2. The editor: the board, the article, assign themself, FIRST_ROUND_EDIT, feedback, NEEDS_REVISION.
    await editor.goto('/admin/articles');
    await editor.getByRole('heading', { name: 'Articles board' }).waitFor();
    await editor.getByLabel('Search title or member').fill('night shift');
    await submitBy(editor, 'Apply');
    const row = editor.getByRole('row').filter({ hasText: FIRST_TITLE });
    t.match(await row.textContent(), /Ada Byron.*Submitted for review.*Unassigned/, 'the board lists the article, its member, status and no editor');
    await expectNoAxeViolationsWithoutJavaScript(t, browser, editor, 'the articles board');
    await Promise.all([editor.waitForURL(`${baseUrl}/admin/articles/${articleId}`), row.getByRole('link', { name: FIRST_TITLE }).click()]);
    await editor.getByRole('heading', { name: FIRST_TITLE, level: 1 }).waitFor();

    await editor.getByLabel('Assign editor').selectOption({ label: 'Eve Editor' });
    await submitBy(editor, 'Assign');
    await editor.getByText('Editor assigned.').waitFor();
    t.equal((await statusOf()).editor_id, editorUser.id, 'the editor assigned themself');

    const move = async (to: string, extra: { date?: string; note?: string } = {}) => {
      await editor.getByLabel('Move to').selectOption(to);
      if (extra.date) await editor.getByLabel('Publication date and time (UTC)').fill(extra.date);
      if (extra.note) await editor.getByLabel('Note (optional)').fill(extra.note);
      await submitBy(editor, 'Move');
      await editor.getByText('Status changed.').waitFor();
      t.equal((await statusOf()).status, to, `moved to ${to}`);
    };
    await move('FIRST_ROUND_EDIT', { note: 'Picked up' });
    t.match(await editor.textContent('main'), 'Submitted for review → First-round edit (Picked up)', 'the history shows the move and its note');

    await editor.getByLabel('Feedback to the member').fill(FEEDBACK);
    await submitBy(editor, 'Send feedback');
    await editor.getByText('Feedback sent.').waitFor();
    t.equal(await editor.locator('#feedback .remark-text').last().textContent(), FEEDBACK, 'the thread shows the remark');
    await move('NEEDS_REVISION');

    t.same(
      await notificationsOfAuthor(),
      [
        `Your article "${FIRST_TITLE}" was submitted for review.`,
        `The editors are working on "${FIRST_TITLE}".`,
        `New feedback on "${FIRST_TITLE}".`,
        `"${FIRST_TITLE}" needs a revision: see the editor's feedback.`,
      ],
      'the member was notified of the submission, the first edit, the feedback and the revision request',
    );

    // 3. The member reads the feedback, rewrites the second paragraph (520 words) and submits again.
    await member.goto('/articles/edit');
    await member.getByText(FEEDBACK).waitFor();
    t.equal(await member.getByRole('textbox', { name: 'Article' }).inputValue(), FIRST_BODY, 'the editor holds the submitted text');
    await expectNoAxeViolationsWithoutJavaScript(t, browser, member, "the member's editor with feedback");
    await member.getByRole('textbox', { name: 'Article' }).fill(SECOND_BODY);
    await submitBy(member, 'Submit');
    await member.getByText('Please accept the agreement first.').waitFor();
    t.equal(await member.getByRole('textbox', { name: 'Article' }).inputValue(), SECOND_BODY, 'a refused submission keeps what was typed');
    t.equal((await statusOf()).status, 'NEEDS_REVISION', 'nothing moved without the agreement');
    await member.getByLabel('I confirm this article is my original work and agree to the article agreement').check();
    await submitBy(member, 'Submit');
    await member.getByText('Your article was submitted for review.').waitFor();
    t.equal((await statusOf()).status, 'SUBMITTED_FOR_REVIEW');

    // 4. The editor compares the two revisions, retitles the text, and moves it on to the approval.
    const revisions = await db.selectFrom('article_revisions').select(['id', 'word_count']).where('article_id', '=', articleId).orderBy('id').execute();
    t.same(revisions.map((r) => r.word_count), [500, 520], 'two revisions: the first submission and the revision');
    await editor.goto(`/admin/articles/${articleId}?from=${revisions[0]!.id}&to=${revisions[1]!.id}#diff`);
    const diffBody = editor.locator('#diff .diff-body');
    await diffBody.waitFor();
    t.equal(await diffBody.locator('ins').count() > 0 && (await diffBody.locator('del').count()) > 0, true, 'the body shows insertions and deletions');
    const inserted = (await diffBody.locator('ins').allTextContents()).join(' ');
    const deleted = (await diffBody.locator('del').allTextContents()).join(' ');
    t.match(inserted, /tightw0 .*tightw119/, 'the new second paragraph is inserted');
    t.match(deleted, /twow0 .*twow99/, 'the old second paragraph is deleted');
    t.notMatch(`${inserted} ${deleted}`, /onew|threew|fourw|fivew/, 'the other paragraphs are unchanged');
    t.match(await editor.locator('#diff').textContent(), '120 words added, 100 words removed.', 'the summary counts the words');
    await expectNoAxeViolationsWithoutJavaScript(t, browser, editor, 'an article page showing a diff');

    await move('FIRST_ROUND_EDIT');
    await editor.getByRole('textbox', { name: 'Title' }).fill(EDITED_TITLE);
    await submitBy(editor, 'Save the text');
    await editor.getByText('Text saved as a new revision.').waitFor();
    await editor.getByRole('heading', { name: EDITED_TITLE, level: 1 }).waitFor();
    const latest = await db
      .selectFrom('articles')
      .innerJoin('article_revisions', 'article_revisions.id', 'articles.current_revision_id')
      .select(['article_revisions.title', 'article_revisions.word_count', 'article_revisions.author_id'])
      .where('articles.id', '=', articleId)
      .executeTakeFirstOrThrow();
    t.same(latest, { title: EDITED_TITLE, word_count: 520, author_id: editorUser.id }, "the editor's text is a new revision with the body unchanged");
    t.match(await editor.locator('#diff .diff').first().textContent(), 'about patience', "by default the diff compares the member's revision with the editor's");
    await move('FINAL_EDIT');
    await move('READY_TO_APPROVE');

    // 5. The member approves the final version.
    await member.goto('/articles/edit');
    await member.getByRole('heading', { name: 'Approve for publishing' }).waitFor();
    t.equal(await member.getByRole('heading', { level: 1 }).textContent(), EDITED_TITLE, "the preview shows the editor's title");
    t.equal(await member.getByRole('textbox', { name: 'Article' }).count(), 0, 'the preview is read-only');
    await member.getByLabel('I approve this final version for publishing').check();
    await submitBy(member, 'Approve');
    await member.getByText('Thank you: your article goes live in 1 to 2 weeks.').waitFor();
    t.equal(pathOf(member), '/articles');
    t.equal((await statusOf()).status, 'READY_TO_PUBLISH');

    // 6. The editor schedules it; the job, run after that time, publishes it.
    await editor.goto(`/admin/articles/${articleId}`);
    const at = new Date(Date.now() + 24 * 3600_000);
    at.setUTCSeconds(0, 0);
    await move('SCHEDULED', { date: at.toISOString().slice(0, 16) });
    t.match(await editor.textContent('main'), 'Ready to publish → Scheduled');
    const scheduled = await db.selectFrom('articles').select('scheduled_date').where('id', '=', articleId).executeTakeFirstOrThrow();
    t.equal(new Date(scheduled.scheduled_date!).toISOString(), at.toISOString(), 'the date was stored as UTC');

    t.same(await publishDueArticles(db, fixedClock(new Date(at.getTime() - 60_000)), app.t, app.notifications), [], 'a minute early, the job publishes nothing');
    t.same(await publishDueArticles(db, fixedClock(new Date(at.getTime() + 60_000)), app.t, app.notifications), [articleId], 'a minute after, the job publishes the article');
    t.equal((await statusOf()).status, 'PUBLISHED', 'the article is PUBLISHED in the database');
    const { published_date } = await db.selectFrom('articles').select('published_date').where('id', '=', articleId).executeTakeFirstOrThrow();
    t.equal(new Date(published_date!).toISOString(), new Date(at.getTime() + 60_000).toISOString(), "the publication date is the job's time");
    const messages = await notificationsOfAuthor();
    t.equal(messages.length, 11, 'one notification per step');
    t.match(messages.slice(4), [
      `Your article "${FIRST_TITLE}" was submitted for review.`,
      `The editors are working on "${FIRST_TITLE}".`,
      `"${EDITED_TITLE}" is in proofreading.`,
      `"${EDITED_TITLE}" is ready for your approval.`,
      `Thank you for approving "${EDITED_TITLE}". It goes live in 1 to 2 weeks.`,
      new RegExp(`^"${EDITED_TITLE}" is scheduled for `),
      `"${EDITED_TITLE}" is published.`,
    ], 'the later notifications follow every step up to the publication');

    await member.goto('/articles/published');
    await member.getByRole('heading', { name: 'Published articles', level: 1 }).waitFor();
    t.match(await member.locator('main ul.plain li').allTextContents(), [new RegExp(`^${EDITED_TITLE} · `)], 'the published page lists the article');

    // 7. The blackout windows page, with a window added through its form.
    await editor.goto('/admin/articles/blackouts');
    await editor.getByLabel('Start date (first closed day)').fill('2099-12-23');
    await editor.getByLabel('End date (first day open again)').fill('2100-01-02');
    await submitBy(editor, 'Add the window');
    await editor.getByText('Window added.').waitFor();
    t.match(await editor.getByRole('row').filter({ hasText: 'Dec 23, 2099' }).textContent(), /Dec 23, 2099.*Jan 2, 2100.*Upcoming/, 'dates as Mon D, YYYY');
    await expectNoAxeViolationsWithoutJavaScript(t, browser, editor, 'the blackout windows');
    // The program settings (terms, guidelines, application form), a refused save shown with its messages.
    await editor.goto('/admin/articles/settings');
    await editor.getByLabel('External application form (optional)').fill('http://not-secure.example');
    await editor.getByRole('button', { name: 'Save settings' }).click();
    await editor.getByText('Enter a full https:// address, or leave it empty.').waitFor();
    await expectNoAxeViolationsWithoutJavaScript(t, browser, editor, 'the program settings with an error');
  });

  await t.test('the CSV export, and the external application form', async (t) => {
    const other = await createMember(db, alpha, { firstName: 'Grace', lastName: 'Hopper' });
    const deps = { db, clock: app.clock, community: alpha, t: app.t, notifier: app.notifications };
    await acceptProductAgreement(deps, other.id);
    await autosaveRevision(deps, other.id, { title: 'Notes on compilers', content: '<p>Short draft.</p>' });

    const editorContext = await openContext(t, browser, baseUrl, { javaScriptEnabled: false, token: (await signIn(app, editorUser, alpha, ['ADMIN', 'MEMBER'])).token });
    const csv = await editorContext.request.get('/admin/articles/export.csv');
    t.equal(csv.status(), 200);
    t.match(csv.headers()['content-type'], /^text\/csv/);
    t.match(csv.headers()['content-disposition'], /^attachment; filename="articles-alpha-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = await csv.text();
    t.match(text.split(/\r?\n/)[0], /^\uFEFFID,Title,Status,Author name,Author email/, 'the header row, after the byte-order mark');
    t.match(text, new RegExp(`,${EDITED_TITLE},PUBLISHED,Ada Byron,`), 'the published article is in the export');
    t.match(text, /,Notes on compilers,DRAFT,Grace Hopper,/, 'and the draft of another member');
    const filtered = await (await editorContext.request.get('/admin/articles/export.csv?status=DRAFT')).text();
    t.notMatch(filtered, EDITED_TITLE, "the board's filters apply to the export");

    const memberContext = await openContext(t, browser, baseUrl, { javaScriptEnabled: false, token: (await signIn(app, author, alpha)).token });
    const refused = await memberContext.request.get('/admin/articles/export.csv', { maxRedirects: 0 });
    t.not(refused.status(), 200, 'a member cannot export');
    t.notMatch(await refused.text(), EDITED_TITLE);

    // A community with an external application form sends members with no article in flight there.
    const { app: betaApp, baseUrl: betaUrl } = await serveApp(t, db, { DEFAULT_COMMUNITY: 'beta' });
    const applicant = await createMember(db, beta, { firstName: 'Kay', lastName: 'Applicant' });
    await acceptProductAgreement({ db, clock: betaApp.clock, community: beta, t: betaApp.t, notifier: betaApp.notifications }, applicant.id);
    const betaContext = await openContext(t, browser, betaUrl, { javaScriptEnabled: false, token: (await signIn(betaApp, applicant, beta)).token });
    const page = await betaContext.newPage();
    const response = await page.request.get(`${betaUrl}/articles/edit`, { maxRedirects: 0 });
    t.equal(response.status(), 303, '/articles/edit answers with a 303');
    t.equal(response.headers().location, 'https://apply.example.com/articles?from=beta', 'to the application form');
    await page.goto(`${betaUrl}/articles`);
    t.equal(await page.getByRole('link', { name: 'Write an article' }).getAttribute('href'), 'https://apply.example.com/articles?from=beta', 'the dashboard links to it too');
  });
});
