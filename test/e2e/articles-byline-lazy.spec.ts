import t, { type Test } from 'tap';
import type { Route } from 'playwright-core';
import { acceptProductAgreement, saveByline } from '#src/features/articles/byline-terms.ts';
import { setupDatabase } from '#test/helpers/app.ts';
import { collectPageProblems, DESKTOP, expectNoAxeViolations, launchBrowser, openContext, recordScripts, brotliBytes, serveApp, setAuthCookie } from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

const KIB = 1024;
/** Issue 10's budget for every page but the article editor: JS on the wire (brotli). */
const JS_BUDGET = 100 * KIB;

/** A script of ProseMirror's view: it names its own CSS classes. */
const isProseMirror = (source: string) => source.includes('ProseMirror-hideselection');

/** The ProseMirror scripts recorded, once their bodies are read (the recording lags the page a little). */
async function proseMirrorScripts(scripts: { source: string }[], atLeast = 1) {
  for (let i = 0; i < 50 && scripts.filter((s) => isProseMirror(s.source)).length < atLeast; i++) await new Promise((r) => setTimeout(r, 100));
  return scripts.filter((s) => isProseMirror(s.source)).length;
}

t.test('the byline editor loads ProseMirror only when the member starts editing', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle', article_terms: 'Terms.', article_guidelines: 'Write well.' });
  const { app, baseUrl } = await serveApp(t, db);
  const browser = await browserReady;
  const deps = { db, clock: app.clock, community: alpha, t: app.t, notifier: app.notifications };

  async function settingsPage(t: Test) {
    const member = await createMember(db, alpha);
    await acceptProductAgreement(deps, member.id);
    await saveByline(deps, member.id, '<p>Ada writes at <a href="https://acme.example">Acme</a>.</p>');
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP });
    await setAuthCookie(context, baseUrl, (await signIn(app, member, alpha)).token);
    const page = await context.newPage();
    const problems = collectPageProblems(page);
    const scripts = recordScripts(page);
    await page.goto(`${baseUrl}/articles/settings`, { waitUntil: 'networkidle' });
    const field = page.getByRole('textbox', { name: 'Byline (at most 140 characters and 1 link)' });
    await page.getByText('19/140 characters').waitFor();
    return { member, page, field, problems, scripts };
  }

  await t.test('the first load: no ProseMirror, under the JS budget, the saved byline shown as text with its link, axe-clean', async (t) => {
    const { page, field, problems, scripts } = await settingsPage(t);
    t.ok(scripts.length > 0, 'the page has its island scripts');
    t.same(
      scripts.filter((s) => isProseMirror(s.source)).map((s) => s.url),
      [],
      'no script of the first load is ProseMirror',
    );
    const jsBytes = scripts.reduce((n, s) => n + brotliBytes(s.url), 0);
    t.ok(jsBytes <= JS_BUDGET, `the first load's scripts are ${(jsBytes / KIB).toFixed(1)} KiB on the wire, at most 100 KiB`);
    t.equal(await field.innerText(), 'Ada writes at Acme.', 'the byline reads as text, not markup');
    t.equal(await field.getByRole('link', { name: 'Acme' }).getAttribute('href'), 'https://acme.example');
    t.equal(await page.getByRole('button', { name: 'Save Byline' }).isEnabled(), true, 'the saved byline is valid');
    await expectNoAxeViolations(t, page, 'the byline before the editor loads');
    // Hovering the field is the first sign of editing: ProseMirror comes now, and the field becomes it.
    await field.hover();
    await page.locator('.byline-body.ProseMirror').waitFor();
    t.equal(await proseMirrorScripts(scripts), 1, 'ProseMirror arrived once the member pointed at the byline');
    await expectNoAxeViolations(t, page, 'the byline editor');
    t.same(problems, []);
  });

  await t.test('what the member types while ProseMirror loads is kept, with the focus and the caret; a paste waits for it', async (t) => {
    const { member, page, field, problems, scripts } = await settingsPage(t);
    // Hold back every script asked for from now on: the editor's chunk arrives when the test says.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held: string[] = [];
    await page.route('**/*.js', async (route: Route) => {
      held.push(route.request().url());
      await released;
      await route.continue();
    });
    await field.focus();
    await page.keyboard.press('End');
    await page.keyboard.type(' Daily');
    await page.keyboard.press('Enter');
    for (let i = 0; i < ' Daily'.length; i++) await page.keyboard.press('ArrowLeft');
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/html', '<p><b>, bold</b></p><script>window.pwned=1</script>');
      data.setData('text/plain', ', bold');
      document.querySelector('.byline-body')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    t.ok(held.length > 0, 'focusing the field asked for the editor');
    t.equal(await page.locator('.byline-body.ProseMirror').count(), 0, 'ProseMirror has not arrived yet');
    t.equal(await field.innerText(), 'Ada writes at Acme. Daily', 'typing works before it arrives; Enter does nothing');
    await page.getByText('25/140 characters').waitFor();

    release();
    await page.locator('.byline-body.ProseMirror').waitFor();
    await page.getByText('Ada writes at Acme., bold Daily').waitFor();
    t.equal(await field.evaluate((el) => el === document.activeElement), true, 'the editor has the focus');
    await page.keyboard.type('!');
    t.equal(await field.innerText(), 'Ada writes at Acme., bold! Daily', 'the caret stayed where the member left it');
    t.equal(await field.evaluate((el) => el.querySelectorAll('p').length), 1, 'one paragraph');
    t.equal(await field.evaluate((el) => /<b>|<strong>|script/.test(el.innerHTML)), false, 'the paste kept only its text');
    t.equal(await proseMirrorScripts(scripts), 1, 'ProseMirror came with the first sign of editing');
    await page.getByText('32/140 characters').waitFor();
    await expectNoAxeViolations(t, page, 'the byline editor after the swap');

    await page.getByRole('button', { name: 'Save Byline' }).click();
    await page.getByText('Byline saved.').waitFor();
    const row = await db.selectFrom('article_user_settings').select('byline').where('user_id', '=', member.id).executeTakeFirstOrThrow();
    t.equal(row.byline, '<p>Ada writes at <a href="https://acme.example">Acme</a>., bold! Daily</p>');
    t.equal(await page.evaluate(() => 'pwned' in window), false);
    t.same(problems, []);
  });
});
