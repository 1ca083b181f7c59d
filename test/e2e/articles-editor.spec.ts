import t, { type Test } from 'tap';
import { acceptProductAgreement, saveByline } from '#src/features/articles/byline-terms.ts';
import { autosaveRevision, submitForReview } from '#src/features/articles/writing.ts';
import { createFeedback } from '#src/features/articles/feedback.ts';
import { moveArticle } from '#src/features/articles/review.ts';
import { setupDatabase } from '#test/helpers/app.ts';
import { collectPageProblems, DESKTOP, expectNoAxeViolations, launchBrowser, openContext, serveApp, setAuthCookie } from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

/** Waits (up to 10 s) until the check holds: for what the page saves in the background. */
async function until(check: () => Promise<boolean | undefined>) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out waiting for the condition');
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

// Eleven journeys in one browser: past two minutes when the machine is busy (CI runs two files at once).
t.setTimeout(5 * 60_000);

t.test('the rich-text editor island in a browser', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle', article_terms: 'Terms.', article_guidelines: 'Write well.' });
  const { app, baseUrl } = await serveApp(t, db);
  const browser = await browserReady;
  const deps = { db, clock: app.clock, community: alpha, t: app.t, notifier: app.notifications };
  const editorUser = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'] });

  async function memberPage(t: Test, options: { agreement?: boolean; byline?: boolean } = {}) {
    const member = await createMember(db, alpha);
    if (options.agreement !== false) await acceptProductAgreement(deps, member.id);
    if (options.byline) await saveByline(deps, member.id, '<p>Writes things.</p>');
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP });
    await setAuthCookie(context, baseUrl, (await signIn(app, member, alpha)).token);
    const page = await context.newPage();
    return { member, context, page, problems: collectPageProblems(page) };
  }
  const current = (memberId: number) =>
    db
      .selectFrom('articles')
      .innerJoin('article_revisions', 'article_revisions.id', 'articles.current_revision_id')
      .select(['articles.id', 'articles.status', 'article_revisions.title', 'article_revisions.content', 'article_revisions.word_count'])
      .where('articles.author_id', '=', memberId)
      .executeTakeFirst();

  await t.test('the byline editor: one paragraph, a live count, one link, Save disabled while invalid', async (t) => {
    const { member, page, problems } = await memberPage(t);
    await page.goto(`${baseUrl}/articles/settings`);
    const field = page.getByRole('textbox', { name: 'Byline (at most 140 characters and 1 link)' });
    const save = page.getByRole('button', { name: 'Save Byline' });
    await field.waitFor();
    await page.getByText('0/140 characters').waitFor();
    t.equal(await save.isDisabled(), true, 'an empty byline cannot be saved');
    await field.click();
    await page.keyboard.type('Ada writes');
    await page.keyboard.press('Enter');
    await page.keyboard.type(' about engines at ');
    t.equal(await field.evaluate((el) => el.querySelectorAll('p').length), 1, 'Enter is blocked');
    await page.getByRole('button', { name: 'Add link' }).click();
    await page.getByLabel('Link address').fill('acme.example');
    await page.getByLabel('Link address').press('Enter');
    t.equal(await page.getByRole('button', { name: 'Add link' }).isDisabled(), true, 'one link is the most');
    await page.keyboard.press('End');
    await page.keyboard.type('.');
    await page.getByText('49/140 characters').waitFor();
    await page.keyboard.type(' ' + 'x'.repeat(100));
    await page.getByText('The byline can have at most 140 characters.').waitFor();
    t.equal(await save.isDisabled(), true, 'too long');
    for (let i = 0; i < 101; i++) await page.keyboard.press('Backspace');
    await page.getByText('49/140 characters').waitFor();
    t.equal(await save.isEnabled(), true);
    await save.click();
    await page.getByText('Byline saved.').waitFor();
    const row = await db.selectFrom('article_user_settings').select('byline').where('user_id', '=', member.id).executeTakeFirstOrThrow();
    t.equal(row.byline, '<p>Ada writes about engines at <a href="https://acme.example">https://acme.example</a>.</p>');
    await expectNoAxeViolations(t, page, 'the byline editor');
    // A paste keeps text and links only; a second link makes the byline invalid.
    await page.getByRole('textbox', { name: 'Byline (at most 140 characters and 1 link)' }).click();
    await page.keyboard.press('End');
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/html', '<p><strong>Bold</strong> <a href="https://second.example">second</a></p><script>window.pwned=1</script><p>next</p>');
      document.querySelector('.byline-body')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await page.getByText('The byline can have at most 1 link.').waitFor();
    t.equal(await save.isDisabled(), true, 'two links');
    t.equal(await field.evaluate((el) => el.innerHTML.includes('<strong>') || el.innerHTML.includes('script')), false, 'bold and scripts are dropped');
    t.equal(await field.evaluate((el) => el.querySelectorAll('p').length), 1, 'pasted paragraphs join the one paragraph');
    t.same(problems, []);
  });

  await t.test('the gate: Confirm stays disabled until the box is ticked', async (t) => {
    const { page } = await memberPage(t, { agreement: false });
    await page.goto(`${baseUrl}/articles`);
    const dialog = page.getByRole('dialog', { name: 'Before you write' });
    await dialog.waitFor();
    const confirm = dialog.getByRole('button', { name: 'Confirm' });
    await page.waitForFunction(() => (document.querySelector('dialog[open] button[type="submit"]') as HTMLButtonElement | null)?.disabled === true);
    t.equal(await confirm.isDisabled(), true);
    t.equal(await page.getByRole('heading', { name: 'Your articles' }).isVisible(), true, 'the dashboard shows behind the modal');
    await page.keyboard.press('Escape');
    t.equal(await dialog.isVisible(), true, 'Escape does not dismiss the terms');
    await expectNoAxeViolations(t, page, 'the agreement modal');
    await dialog.getByLabel('I have read and accept these terms').check();
    t.equal(await confirm.isEnabled(), true);
    await confirm.click();
    await page.waitForURL(`${baseUrl}/articles/edit`);
  });

  await t.test('formatting from the toolbar and the keyboard is saved as the allowed tags', async (t) => {
    const { member, page, problems } = await memberPage(t);
    await page.goto(`${baseUrl}/articles/edit`);
    const body = page.getByRole('textbox', { name: 'Article' });
    await body.waitFor();
    await page.getByRole('textbox', { name: 'Title' }).fill('Formatting');
    // The toolbar is one Tab stop; the arrow keys, Home and End move among its buttons (ARIA toolbar pattern).
    const toolbar = page.getByRole('toolbar');
    t.same(await toolbar.locator('button').evaluateAll((bs) => bs.map((b) => b.getAttribute('tabindex'))), ['0', '-1', '-1', '-1', '-1', '-1', '-1', '-1'], 'one Tab stop');
    const focused = () => page.evaluate(() => document.activeElement?.textContent);
    await toolbar.getByRole('button', { name: 'Bold' }).focus();
    await page.keyboard.press('ArrowRight');
    t.equal(await focused(), 'IItalics', 'ArrowRight moves to the next button');
    await page.keyboard.press('End');
    t.equal(await focused(), 'Add link', 'End moves to the last');
    await page.keyboard.press('ArrowRight');
    t.equal(await focused(), 'BBold', 'ArrowRight wraps to the first');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    t.equal(await focused(), 'Add link', 'Tab comes back to the button last used');
    t.equal(await toolbar.locator('button[tabindex="0"]').count(), 1, 'still one Tab stop');
    await page.keyboard.press('Home');
    t.equal(await focused(), 'BBold', 'Home moves to the first');
    await body.click();
    await page.getByRole('button', { name: 'Heading', exact: true }).click();
    await page.keyboard.type('A heading');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('bold');
    await page.keyboard.press('Control+b');
    await page.keyboard.type(' plain ');
    await page.getByRole('button', { name: 'Underline' }).click();
    await page.keyboard.type('under');
    t.equal(await page.getByRole('button', { name: 'Underline' }).getAttribute('aria-pressed'), 'true', 'the toolbar shows the active mark');
    await page.getByRole('button', { name: 'Underline' }).click();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Bulleted list' }).click();
    await page.keyboard.type('first point');
    await page.keyboard.press('Enter');
    await page.keyboard.type('second point');
    await page.getByRole('status').getByText(/^Autosaved/).waitFor();
    const row = await current(member.id);
    t.equal(row?.content, '<h2>A heading</h2><p><strong>bold</strong> plain <u>under</u></p><ul><li><p>first point</p></li><li><p>second point</p></li></ul>');
    // Under the real CSP (which refuses inline styles) the underline shows.
    t.match(await page.locator('.rich-body u').evaluate((el) => getComputedStyle(el).textDecorationLine), 'underline', 'the underline shows in the editor');
    t.equal(row?.word_count, 9);
    await page.getByText('9/1000 words (500 min)').waitFor();
    // The link box: an address without a scheme becomes https.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('see ');
    await page.getByRole('button', { name: 'Add link' }).click();
    await page.getByLabel('Link address').fill('javascript:alert(1)');
    await page.getByLabel('Link address').press('Enter');
    await page.getByText('Enter a web address (https://…) or an email address (mailto:…).').waitFor();
    await page.getByLabel('Link address').fill('example.com/page');
    await page.getByLabel('Link address').press('Enter');
    await until(async () => (await current(member.id))?.content?.includes('<p>see <a href="https://example.com/page">https://example.com/page</a></p>'));
    t.pass('the link was autosaved');
    await expectNoAxeViolations(t, page, 'the editor with formatting');
    t.same(problems, [], 'no console errors or failed requests');
  });

  await t.test('pasted content is cleaned on the client and again on the server', async (t) => {
    const { member, page } = await memberPage(t);
    await page.goto(`${baseUrl}/articles/edit`);
    const body = page.getByRole('textbox', { name: 'Article' });
    await body.click();
    await page.evaluate(() => {
      const html =
        '<meta charset="utf-8"><style>p{color:red}</style><div style="font-family:Arial"><p class="MsoNormal" onclick="steal()">Pasted <b>bold</b> <span style="font-weight:700">heavy</span> ' +
        '<span style="text-decoration: underline">under</span> <a href="javascript:alert(1)">bad link</a> <a href="https://ok.example/">good link</a></p>' +
        '<script>window.pwned = true</script><img src="x" onerror="window.pwned = true"><table><tr><td>cell text</td></tr></table><h4>Small heading</h4></div>';
      const data = new DataTransfer();
      data.setData('text/html', html);
      data.setData('text/plain', 'Pasted bold heavy under bad link good link cell text Small heading');
      document.querySelector('.rich-body')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await page.getByRole('textbox', { name: 'Title' }).fill('Pasted');
    await page.getByRole('status').getByText(/^Autosaved/).waitFor();
    const content = (await current(member.id))?.content ?? '';
    t.match(content, '<strong>bold</strong>');
    t.match(content, '<strong>heavy</strong>');
    t.match(content, '<u>under</u>');
    t.match(content, '<a href="https://ok.example/">good link</a>');
    t.match(content, 'bad link');
    t.match(content, 'cell text');
    t.match(content, '<h3>Small heading</h3>');
    t.notMatch(content, /javascript:|onclick|<img|<script|style="font|class=|color:red|<table|<td/);
    t.equal(await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned ?? false), false, 'nothing pasted ran');
  });

  await t.test('offline: a notice, the text kept, saved once the connection returns', async (t) => {
    const { member, context, page } = await memberPage(t);
    await page.goto(`${baseUrl}/articles/edit`);
    await page.getByRole('textbox', { name: 'Title' }).fill('Offline');
    await page.getByRole('status').getByText(/^Autosaved/).waitFor();
    await context.setOffline(true);
    await page.getByText('You are offline. Your changes stay on this page and are saved when the connection returns.').waitFor();
    await page.getByRole('textbox', { name: 'Article' }).fill(words(40));
    await page.waitForTimeout(3500);
    t.equal((await current(member.id))?.word_count, 0, 'nothing reached the server');
    t.equal(await page.getByRole('textbox', { name: 'Article' }).textContent(), words(40), 'the text is still on the page');
    await context.setOffline(false);
    await page.getByRole('status').getByText(/^Autosaved/).waitFor();
    await page.waitForFunction(() => !document.body.textContent?.includes('You are offline'));
    t.equal((await current(member.id))?.word_count, 40, 'saved when the connection came back');
  });

  await t.test('text typed into the plain form while the script loads is kept and saved', async (t) => {
    const { member, page } = await memberPage(t);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/island_ArticleEditor-*.js', async (route) => {
      await held;
      await route.continue();
    });
    // Module scripts hold DOMContentLoaded back, so wait only for the response.
    await page.goto(`${baseUrl}/articles/edit`, { waitUntil: 'commit' });
    await page.locator('textarea#body').waitFor();
    await page.locator('textarea#body').fill('Typed before the script arrived.\n\nA second paragraph.');
    await page.locator('input#title').fill('Early');
    await page.locator('#agreed').check();
    release();
    await page.locator('.rich-body').waitFor();
    t.equal(await page.locator('.rich-body').innerHTML(), '<p>Typed before the script arrived.</p><p>A second paragraph.</p>', 'the typed text is in the editor');
    t.equal(await page.getByRole('textbox', { name: 'Title' }).inputValue(), 'Early');
    t.equal(await page.locator('#agreed').isChecked(), true);
    await until(async () => (await current(member.id))?.title === 'Early');
    t.equal((await current(member.id))?.content, '<p>Typed before the script arrived.</p><p>A second paragraph.</p>', 'and autosaved');
  });

  await t.test('Save & exit while the first autosave is on the wire: one article, the latest text', async (t) => {
    const { member, page } = await memberPage(t);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let saves = 0;
    await page.route('**/graphql', async (route) => {
      saves += 1;
      await held;
      await route.continue();
    });
    await page.goto(`${baseUrl}/articles/edit`);
    await page.getByRole('textbox', { name: 'Title' }).fill('Racing');
    await page.getByRole('textbox', { name: 'Article' }).fill(words(30));
    await until(async () => saves === 1);
    await page.getByRole('textbox', { name: 'Article' }).fill(words(45));
    await page.getByRole('button', { name: 'Save article & exit editor' }).click();
    await page.waitForTimeout(300);
    t.equal(new URL(page.url()).pathname, '/articles/edit', 'the post waits for the save on the wire');
    release();
    await page.waitForURL(`${baseUrl}/articles`);
    const rows = await db.selectFrom('articles').select('id').where('author_id', '=', member.id).execute();
    t.equal(rows.length, 1, 'one article');
    t.equal((await current(member.id))?.word_count, 45, 'with the text of the post, not the older save');
  });

  await t.test('an editor corrects the text on the board without losing the author’s formatting', async (t) => {
    const { member, page: memberTab } = await memberPage(t, { byline: true });
    await memberTab.close();
    const content = `<h2>Intro</h2><p>See <a href="https://ada.example">my site</a> and <strong>this</strong>.</p><ul><li><p>one</p></li></ul><p>${words(500)}</p>`;
    const draft = await autosaveRevision(deps, member.id, { title: 'Formatted', content });
    await submitForReview(deps, member.id, { articleId: draft.id, title: 'Formatted', content, agreed: true });
    await moveArticle(deps, { userId: editorUser.id, isStaff: true }, { articleId: draft.id, to: 'FIRST_ROUND_EDIT' });
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP });
    await setAuthCookie(context, baseUrl, (await signIn(app, editorUser, alpha, ['ADMIN', 'MEMBER'])).token);
    const page = await context.newPage();
    const problems = collectPageProblems(page);
    await page.goto(`${baseUrl}/admin/articles/${draft.id}`);
    const body = page.getByRole('textbox', { name: 'Body' });
    await body.waitFor();
    await page.getByText('Links, bold, italics, underline, headings and lists are kept.').waitFor();
    await body.locator('h2').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' and welcome');
    await page.getByRole('button', { name: 'Save the text' }).click();
    await page.getByText('Text saved as a new revision.').waitFor();
    const saved = (await current(member.id))!;
    t.match(saved.content, '<h2>Intro and welcome</h2><p>See <a href="https://ada.example">my site</a> and <strong>this</strong>.</p><ul><li><p>one</p></li></ul>');
    await expectNoAxeViolations(t, page, 'the admin article page with the rich-text form');
    t.same(problems, []);
  });

  await t.test('title too long: the message at once, nothing silently cut', async (t) => {
    const { page } = await memberPage(t);
    await page.goto(`${baseUrl}/articles/edit`);
    await page.getByRole('textbox', { name: 'Title' }).fill('x'.repeat(255));
    await page.getByText('The title must be under 255 characters.').first().waitFor();
    t.equal(await page.getByRole('textbox', { name: 'Title' }).inputValue(), 'x'.repeat(255));
  });

  await t.test('Submit waits for the rules and the agreement; Save & exit replaces Back once there is text', async (t) => {
    const { member, page } = await memberPage(t, { byline: true });
    await page.goto(`${baseUrl}/articles/edit`);
    await page.getByRole('link', { name: 'Back' }).waitFor();
    const submit = page.getByRole('button', { name: 'Submit', exact: true });
    await page.getByRole('textbox', { name: 'Title' }).fill('Ready');
    await page.getByRole('button', { name: 'Save article & exit editor' }).waitFor();
    await page.getByRole('textbox', { name: 'Article' }).fill(words(499));
    await page.getByText('Your article needs at least 500 words.').waitFor();
    t.equal(await submit.isDisabled(), true, '499 words');
    await page.getByRole('textbox', { name: 'Article' }).fill(words(500));
    await page.getByText('500/1000 words (500 min)').waitFor();
    t.equal(await submit.isEnabled(), true, 'the rules are met: Submit opens the article agreement');
    await submit.click();
    const modal = page.getByRole('dialog', { name: 'Article agreement' });
    await modal.waitFor();
    const confirm = modal.getByRole('button', { name: 'Confirm' });
    t.equal(await confirm.isDisabled(), true, 'Confirm waits for the box');
    t.equal(await modal.getByRole('link', { name: 'Read the program’s terms (opens in a new tab)' }).getAttribute('href'), '/articles/agreement');
    await expectNoAxeViolations(t, page, 'the article agreement modal');
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await modal.waitFor({ state: 'hidden' });
    t.not((await current(member.id))?.status, 'SUBMITTED_FOR_REVIEW', 'Cancel submits nothing');
    await submit.click();
    await modal.getByLabel('I confirm this article is my original work and agree to the article agreement').check();
    t.equal(await confirm.isEnabled(), true);
    await confirm.click();
    await page.getByText('Your article was submitted for review.').waitFor();
    t.equal((await current(member.id))?.status, 'SUBMITTED_FOR_REVIEW');
  });

  await t.test('the editors-at-work page reloads when the editors finish; feedback is shown at once', async (t) => {
    const { member, page } = await memberPage(t, { byline: true });
    await page.goto(`${baseUrl}/articles/edit`);
    await page.getByRole('textbox', { name: 'Title' }).fill('Watched');
    await page.getByRole('textbox', { name: 'Article' }).fill(words(520));
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await page.getByLabel('I confirm this article is my original work and agree to the article agreement').check();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Your article was submitted for review.').waitFor();
    const article = (await current(member.id))!;
    const editor = { userId: editorUser.id, isStaff: true };
    await moveArticle(deps, editor, { articleId: article.id, to: 'FIRST_ROUND_EDIT' });
    await page.goto(`${baseUrl}/articles/edit`);
    await page.getByText('The editors are working on your article.').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-island="StatusWatch"]') !== null);
    await createFeedback(deps, editor, { articleId: article.id, feedback: 'One change, please.' });
    await moveArticle(deps, editor, { articleId: article.id, to: 'NEEDS_REVISION' });
    // The watch asks every 15 s and whenever the tab comes back into view; the latter here.
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await page.getByText('The editors have finished. Loading your article…').waitFor();
    await page.getByRole('textbox', { name: 'Article' }).waitFor();
    await page.getByText('One change, please.').waitFor();
    const send = page.getByRole('button', { name: 'Send' });
    t.equal(await send.isDisabled(), true, 'Send is disabled while the message is empty');
    // The answer is held back, to see Send while a message is on its way.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/graphql', async (route) => {
      if (route.request().postData()?.includes('articleFeedbackCreate')) await held;
      await route.continue();
    });
    await page.getByLabel('Message to your editor').fill('Done, thank you.');
    await send.click();
    await page.getByText('Done, thank you.').waitFor();
    await page.getByLabel('Message to your editor').fill('And one more thing.');
    t.equal(await send.isDisabled(), true, 'Send is disabled while a message is being sent');
    release();
    await page.waitForFunction(() => !document.body.textContent?.includes('Sending…'));
    t.equal(await send.isDisabled(), false, 'and enabled again once it is sent');
    await page.getByLabel('Message to your editor').fill('');
    await page.unroute('**/graphql');
    const remarks = await db.selectFrom('article_feedback').select('remark').where('article_id', '=', article.id).orderBy('id').execute();
    t.same(remarks.map((r) => r.remark), ['One change, please.', 'Done, thank you.']);
  });
});
