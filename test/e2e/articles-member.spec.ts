import t, { type Test } from 'tap';
import { acceptProductAgreement, saveByline } from '#src/features/articles/byline-terms.ts';
import { autosaveRevision, submitForReview } from '#src/features/articles/writing.ts';
import { createFeedback } from '#src/features/articles/feedback.ts';
import { moveArticle } from '#src/features/articles/review.ts';
import { setupDatabase } from '#test/helpers/app.ts';
import { collectPageProblems, DESKTOP, expectNoAxeViolations, launchBrowser, openContext, PHONE, serveApp, setAuthCookie } from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

const words = (n: number, w = 'word') => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');
const note = (i: number) => `Note ${String(i).padStart(2, '0')}.`;

t.test('the member’s editor when things change under them, in a browser', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle', article_terms: 'Terms.', article_guidelines: 'Write from your own experience.\n\nKeep it short.' });
  const { app, baseUrl } = await serveApp(t, db);
  const browser = await browserReady;
  const deps = { db, clock: app.clock, community: alpha, t: app.t, notifier: app.notifications };
  const editorUser = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Ed' });
  const editor = { userId: editorUser.id, isStaff: true };

  /** A member whose article came back for a revision, signed in on a page of the given width. */
  async function memberInRevision(t: Test, viewport: { width: number; height: number } = DESKTOP) {
    const member = await createMember(db, alpha);
    await acceptProductAgreement(deps, member.id);
    await saveByline(deps, member.id, '<p>Writes things.</p>');
    const content = `<p>${words(510)}</p>`;
    const draft = await autosaveRevision(deps, member.id, { title: 'First go', content });
    await submitForReview(deps, member.id, { articleId: draft.id, title: 'First go', content, agreed: true });
    await moveArticle(deps, editor, { articleId: draft.id, to: 'FIRST_ROUND_EDIT' });
    await moveArticle(deps, editor, { articleId: draft.id, to: 'NEEDS_REVISION' });
    const context = await openContext(t, browser, baseUrl, { viewport });
    await setAuthCookie(context, baseUrl, (await signIn(app, member, alpha)).token);
    const page = await context.newPage();
    return { member, articleId: draft.id, page, problems: collectPageProblems(page) };
  }

  await t.test('the editors take the article while the member types: the reason, no Retry that cannot work, the text kept', async (t) => {
    const { articleId, page } = await memberInRevision(t);
    await page.goto(`${baseUrl}/articles/edit`);
    const title = page.getByRole('textbox', { name: 'Title' });
    await page.locator('.ProseMirror').waitFor(); // hydrated: the typing below goes to the island's autosave
    await moveArticle(deps, editor, { articleId, to: 'FIRST_ROUND_EDIT' });
    await title.fill('Second go, typed after the editors took it');
    await page.getByText('This article can no longer be changed here: it was submitted or taken for review. Copy your text if you want to keep it.').waitFor();
    t.equal(await page.getByRole('button', { name: 'Retry now' }).count(), 0, 'no Retry');
    t.equal(await page.getByRole('button', { name: 'Submit', exact: true }).count(), 0, 'no Submit');
    t.equal(await page.getByRole('button', { name: 'Save article & exit editor' }).count(), 0, 'no Save & exit');
    t.equal(await title.inputValue(), 'Second go, typed after the editors took it', 'the typed title stays');
    t.match(await page.getByRole('textbox', { name: 'Article' }).textContent(), 'word509', 'the text stays');
    t.equal(await page.getByRole('textbox', { name: 'Article' }).getAttribute('contenteditable'), 'false', 'and is not edited in vain');
    await expectNoAxeViolations(t, page, 'the editor once the article is taken');
  });

  await t.test('older feedback is fetched and added above the thread, the newer messages staying', async (t) => {
    const { member, articleId, page, problems } = await memberInRevision(t);
    for (let i = 1; i <= 25; i++) await createFeedback(deps, i % 2 ? editor : { userId: member.id, isStaff: false }, { articleId, feedback: note(i) });
    await page.goto(`${baseUrl}/articles/edit`);
    await page.getByText(note(25)).waitFor();
    t.equal(await page.getByText(note(5), { exact: true }).count(), 0, 'the newest 20 at first');
    await page.getByLabel('Message to your editor').fill('Half typed');
    await page.getByRole('button', { name: 'Show older messages' }).click();
    await page.getByText(note(1), { exact: true }).waitFor();
    t.equal(new URL(page.url()).pathname + new URL(page.url()).search, '/articles/edit', 'the page stayed');
    t.same(
      await page.locator('#feedback .remark > p:not(.remark-meta)').allTextContents(),
      Array.from({ length: 25 }, (_, i) => note(i + 1)),
      'the whole thread, oldest first',
    );
    t.equal(await page.getByRole('button', { name: 'Show older messages' }).count(), 0, 'nothing older is left');
    t.equal(await page.getByLabel('Message to your editor').inputValue(), 'Half typed', 'what was typed stays');
    t.equal(await page.locator('.slideover-close').isVisible(), false, 'at the computer width the sidebar has no Close button');
    t.equal(await page.getByRole('button', { name: 'Add link' }).textContent(), 'Add link', 'the link tool says what it does, in words');
    t.equal(await page.evaluate(() => document.activeElement?.id), 'remark-1', 'reading goes on from the oldest message added');
    t.same(problems, []);
  });

  await t.test('a message that fails to send says so in the spec’s words, with Try again', async (t) => {
    const { page } = await memberInRevision(t);
    await page.goto(`${baseUrl}/articles/edit`);
    await page.getByLabel('Message to your editor').waitFor();
    // Hydrated: an empty message cannot be sent (the form without JavaScript would post instead).
    await page.waitForFunction(() => document.querySelector<HTMLButtonElement>('#feedback button[type="submit"]')?.disabled === true);
    await page.route('**/graphql', (route) => route.abort());
    await page.getByLabel('Message to your editor').fill('Are two pages fine?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('An error occurred while submitting your feedback.').waitFor();
    await page.unroute('**/graphql');
    await page.getByRole('button', { name: 'Try again' }).click();
    // Try again shows it as sending at once; it is stored once the answer has come.
    await page.waitForFunction(() => !document.body.textContent?.includes('An error occurred while submitting your feedback.') && !document.body.textContent?.includes('Sending…'));
    const remarks = await db.selectFrom('article_feedback').select('remark').orderBy('id', 'desc').limit(1).execute();
    t.same(remarks.map((r) => r.remark), ['Are two pages fine?']);
  });

  await t.test('signed out while typing: the reason, the text kept, and saved once signed in again', async (t) => {
    const { member, articleId, page, problems } = await memberInRevision(t);
    await page.goto(`${baseUrl}/articles/edit`);
    await page.getByRole('textbox', { name: 'Article' }).waitFor();
    await page.waitForFunction(() => document.querySelector('[data-island="ArticleEditor"][data-hydrated]') !== null || document.querySelector('.ProseMirror') !== null);
    await page.context().clearCookies({ name: 'auth' });
    await page.getByRole('textbox', { name: 'Title' }).fill('Typed while signed out');
    await page.getByText('You were signed out. Sign in again in another tab: your text stays on this page and is saved as soon as you are back.').waitFor();
    t.equal(await page.getByRole('textbox', { name: 'Title' }).inputValue(), 'Typed while signed out', 'the text stays');
    // Signing in again (in another tab, as far as this page knows): the next try saves.
    await setAuthCookie(page.context(), baseUrl, (await signIn(app, member, alpha)).token);
    await page.getByRole('status').getByText(/^Autosaved /).waitFor({ timeout: 30_000 });
    const saved = await db
      .selectFrom('articles')
      .innerJoin('article_revisions', 'article_revisions.id', 'articles.current_revision_id')
      .select('article_revisions.title')
      .where('articles.id', '=', articleId)
      .executeTakeFirstOrThrow();
    t.equal(saved.title, 'Typed while signed out');
    t.same(problems.filter((p) => !/401|Failed to load resource/.test(p)), []);
  });

  await t.test('on a phone, guidelines=true opens the sidebar at load with the guidelines open', async (t) => {
    const { page, problems } = await memberInRevision(t, PHONE);
    await page.goto(`${baseUrl}/articles/edit?guidelines=true`);
    const panel = page.getByRole('dialog', { name: 'Guidelines & feedback' });
    await panel.waitFor();
    await panel.getByText('Keep it short.').waitFor();
    t.equal(await page.locator('#editor-guidelines').evaluate((d) => (d as HTMLDetailsElement).open), true, 'the guidelines panel is open');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    await page.goto(`${baseUrl}/articles/edit`);
    await page.getByRole('button', { name: 'Guidelines & feedback' }).waitFor();
    t.equal(await page.getByRole('dialog').count(), 0, 'closed without the parameter');
    t.same(problems, []);
  });
});
