import t from 'tap';
import { setupDatabase } from '#test/helpers/app.ts';
import { DESKTOP, expectNoAxeViolations, expectNoAxeViolationsWithoutJavaScript, expectNoSidewaysScroll, launchBrowser, openContext, serveApp } from '#test/helpers/browser.ts';
import { signIn } from '#test/helpers/factories.ts';

/**
 * The signed-in home page on the demo (issue 14): Amara's page with Summit's real forum posts,
 * articles and new members, at phone widths and on a desktop, with JavaScript on and off: axe-clean,
 * no sideways scroll, and its links are plain links that lead somewhere.
 */
t.setTimeout(5 * 60_000);

t.test('the home page on the demo is readable at 320 and 375 px and on a desktop, and axe-clean', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t, { seeded: true });
  const { app, baseUrl } = await serveApp(t, db, { DEFAULT_COMMUNITY: 'summit' });
  const summit = await db.selectFrom('communities').selectAll().where('code', '=', 'summit').executeTakeFirstOrThrow();
  const amara = await db.selectFrom('users').select('id').where('email', '=', 'amara.okafor@summit-demo.example.com').executeTakeFirstOrThrow();
  const { token } = await signIn(app, amara, summit);
  const browser = await browserReady;

  // Both phone widths with JavaScript; without it at 320 px (the same markup); the desktop once.
  const runs = [
    { viewport: { width: 320, height: 740 }, javaScriptEnabled: true },
    { viewport: { width: 320, height: 740 }, javaScriptEnabled: false },
    { viewport: { width: 375, height: 740 }, javaScriptEnabled: true },
    { viewport: DESKTOP, javaScriptEnabled: true },
  ];
  for (const { viewport, javaScriptEnabled } of runs) {
    const what = `Amara's home page at ${viewport.width} px, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`;
    const context = await openContext(t, browser, baseUrl, { viewport, token, javaScriptEnabled });
    const page = await context.newPage();
    const response = await page.goto('/');
    t.equal(response?.status(), 200, `${what}: answers`);
    await page.getByRole('heading', { name: 'New in the forum' }).waitFor();
    t.equal(await page.locator('#main section[aria-labelledby="home-forum"] li a').count(), 5, `${what}: five new posts`);
    t.equal(await page.locator('#main section[aria-labelledby="home-members"] li').count(), 6, `${what}: six new members`);
    await expectNoSidewaysScroll(t, page, what);
    if (javaScriptEnabled) await expectNoAxeViolations(t, page, what);
    else if (viewport.width === 320) await expectNoAxeViolationsWithoutJavaScript(t, browser, page, what);
    if (viewport === DESKTOP && javaScriptEnabled) {
      // A new member's tile leads to their profile.
      const first = page.locator('#main section[aria-labelledby="home-members"] li a').first();
      const name = (await first.textContent())!;
      await Promise.all([page.waitForURL(/\/profile\/\d+$/), first.click()]);
      await page.getByRole('heading', { name }).first().waitFor();
      t.pass(`${what}: a new member's tile opens ${name}'s profile`);
    }
    await context.close();
  }
});
