import t from 'tap';
import { acceptProductAgreement, saveByline } from '#src/features/articles/byline-terms.ts';
import { autosaveRevision, submitForReview } from '#src/features/articles/writing.ts';
import {
  collectPageProblems,
  DESKTOP,
  expectNoAxeViolations,
  expectNoAxeViolationsWithoutJavaScript,
  openContext,
  pathOf,
} from '#test/helpers/browser.ts';
import { createMember, signIn } from '#test/helpers/factories.ts';
import { browserWorld } from '#test/helpers/browser-world.ts';

const words = (n: number) => `<p>${Array.from({ length: n }, (_, i) => `word${i}`).join(' ')}</p>`;
const NIGHT = 'Night shift notes';
const ENGINES = 'What engines taught me';

t.test('the assign-editor modal on the editors’ board', async (t) => {
  const { browserReady, db, alpha, app, baseUrl } = await browserWorld(t);
  const browser = await browserReady;
  const deps = { db, clock: app.clock, community: alpha, t: app.t, notifier: app.notifications };
  const edna = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Edna', lastName: 'Editor' });
  const eve = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Eve', lastName: 'Reviewer' });
  const ids: Record<string, number> = {};
  for (const [first, title] of [['Ada', NIGHT], ['Grace', ENGINES]] as const) {
    const author = await createMember(db, alpha, { firstName: first, lastName: 'Writer' });
    await acceptProductAgreement(deps, author.id);
    await saveByline(deps, author.id, `<p>${first} writes.</p>`);
    const a = await autosaveRevision(deps, author.id, { title, content: words(500) });
    await submitForReview(deps, author.id, { articleId: a.id, title, content: words(500), agreed: true });
    ids[title] = a.id;
  }
  const editorOf = async (id: number) => (await db.selectFrom('articles').select('editor_id').where('id', '=', id).executeTakeFirstOrThrow()).editor_id;
  const token = async () => (await signIn(app, edna, alpha, ['ADMIN', 'MEMBER'])).token;

  await t.test('with JavaScript: a modal dialog assigns in place, Escape and Cancel change nothing', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token: await token() });
    const page = await context.newPage();
    const problems = collectPageProblems(page);
    await page.goto('/admin/articles');
    await page.getByRole('heading', { name: 'Articles board' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: NIGHT });
    const trigger = page.getByRole('button', { name: `Assign editor to “${NIGHT}”` });
    await trigger.waitFor(); // hydrated: the link became a button
    t.equal(await trigger.getAttribute('aria-haspopup'), 'dialog');
    t.match(await row.textContent(), /Ada Writer.*Submitted for review.*Unassigned/);
    await expectNoAxeViolations(t, page, 'the board with the island');

    // Open, choose, Assign.
    await trigger.click();
    const dialog = page.getByRole('dialog', { name: 'Assign an editor' });
    await dialog.waitFor();
    t.equal(await page.evaluate(() => document.querySelector('dialog[open]')?.matches(':modal')), true, 'opened with showModal()');
    t.match(await dialog.textContent(), NIGHT, 'the dialog names the article');
    t.equal(await dialog.getByLabel('Editor').inputValue(), '', 'starts at the current editor: none');
    t.same(await dialog.getByLabel('Editor').locator('option').allTextContents(), ['Unassigned', 'Edna Editor', 'Eve Reviewer'], 'the board’s editors');
    t.equal(await page.evaluate(() => document.activeElement?.id), 'assign-modal-editor', 'focus moved into the dialog');
    await expectNoAxeViolations(t, page, 'the board with the assign-editor dialog open');
    await dialog.getByLabel('Editor').selectOption({ label: 'Eve Reviewer' });
    await dialog.getByRole('button', { name: 'Assign', exact: true }).click();
    await page.getByRole('status').getByText(`Eve Reviewer now edits “${NIGHT}”.`).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    t.match(await row.textContent(), /Submitted for review.*Eve Reviewer/, 'the row shows the editor');
    t.equal(await editorOf(ids[NIGHT]!), eve.id, 'the database has the editor');
    t.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), `Assign editor to “${NIGHT}”`, 'focus is back on the trigger');
    t.equal(pathOf(page), '/admin/articles', 'no page load');

    // Escape closes without a change.
    await trigger.click();
    await dialog.waitFor();
    t.equal(await dialog.getByLabel('Editor').inputValue(), String(eve.id), 'opens at the editor just assigned');
    await dialog.getByLabel('Editor').selectOption({ label: 'Edna Editor' });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    t.match(await row.textContent(), 'Eve Reviewer', 'the row is unchanged');
    t.equal(await editorOf(ids[NIGHT]!), eve.id, 'the database is unchanged');
    t.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), `Assign editor to “${NIGHT}”`, 'focus is back on the trigger after Escape');

    // Cancel too, on the other row.
    const other = page.getByRole('button', { name: `Assign editor to “${ENGINES}”` });
    await other.click();
    await dialog.waitFor();
    t.match(await dialog.textContent(), ENGINES);
    await dialog.getByLabel('Editor').selectOption({ label: 'Edna Editor' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    t.equal(await editorOf(ids[ENGINES]!), null);
    t.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), `Assign editor to “${ENGINES}”`, 'focus is back on that row’s trigger');

    // A failure keeps the dialog open, the choice kept, and says so; a retry then works.
    await page.route('**/admin/articles/*/editor', (route) => route.abort());
    await other.click();
    await dialog.getByLabel('Editor').selectOption({ label: 'Edna Editor' });
    await dialog.getByRole('button', { name: 'Assign', exact: true }).click();
    await dialog.getByRole('alert').getByText('The editor could not be assigned.').waitFor();
    t.equal(await dialog.isVisible(), true, 'the dialog stays open');
    t.equal(await dialog.getByLabel('Editor').inputValue(), String(edna.id), 'the choice is kept');
    t.equal(await editorOf(ids[ENGINES]!), null);
    await expectNoAxeViolations(t, page, 'the dialog showing an error');
    await page.unroute('**/admin/articles/*/editor');
    await dialog.getByRole('button', { name: 'Assign', exact: true }).click();
    await page.getByRole('status').getByText(`Edna Editor now edits “${ENGINES}”.`).waitFor();
    t.equal(await editorOf(ids[ENGINES]!), edna.id);

    // The server's reason is shown too (here: the session ended).
    await page.route('**/admin/articles/*/editor', (route) =>
      route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ error: { code: 'NotAuthenticated', message: 'Please sign in.' } }) }),
    );
    await other.click();
    await dialog.getByRole('button', { name: 'Assign', exact: true }).click();
    await dialog.getByText('Please sign in.').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.unroute('**/admin/articles/*/editor');

    // After a reload the board shows what the database has.
    await page.reload();
    t.match(await row.textContent(), 'Eve Reviewer');
    t.match(await page.getByRole('row').filter({ hasText: ENGINES }).textContent(), 'Edna Editor');
    // The browser logs the two failures made on purpose above; nothing else may go wrong.
    t.same(
      problems.filter((p) => !p.startsWith('console.error: Failed to load resource:')),
      [],
      'no page errors (hydration matched)',
    );
    t.equal(problems.length, 2, 'only the aborted request and the 401 were logged');
  });

  await t.test('without JavaScript: the row’s control is a link to the article page’s form, which assigns', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token: await token(), javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/admin/articles');
    const row = page.getByRole('row').filter({ hasText: NIGHT });
    const link = row.getByRole('link', { name: 'Assign editor', exact: true });
    t.equal(await link.getAttribute('href'), `/admin/articles/${ids[NIGHT]}#assign`);
    t.equal(await page.locator('dialog').count(), 0, 'no dialog without JavaScript');
    await expectNoAxeViolationsWithoutJavaScript(t, browser, page, 'the board without JavaScript');
    await Promise.all([page.waitForURL(`${baseUrl}/admin/articles/${ids[NIGHT]}#assign`), link.click()]);
    t.equal(await page.locator('#assign').count(), 1, 'the anchor is the assign form');
    await page.locator('#assign').getByLabel('Assign editor').selectOption({ label: 'Edna Editor' });
    await Promise.all([page.waitForURL(`${baseUrl}/admin/articles/${ids[NIGHT]}?done=assigned`), page.locator('#assign').getByRole('button', { name: 'Assign' }).click()]);
    await page.getByText('Editor assigned.').waitFor();
    t.equal(await editorOf(ids[NIGHT]!), edna.id, 'the database has the editor');
    await page.goto('/admin/articles');
    t.match(await page.getByRole('row').filter({ hasText: NIGHT }).textContent(), 'Edna Editor');
  });
});
