import t from 'tap';
import { developmentEnv, setupDatabase } from '#test/helpers/app.ts';
import {
  collectPageProblems,
  expectNoAxeViolations,
  expectNoAxeViolationsWithoutJavaScript,
  expectNoSidewaysScroll,
  launchBrowser,
  openContext,
  serveApp,
  setColorScheme,
} from '#test/helpers/browser.ts';
import { createCommunity } from '#test/helpers/factories.ts';

/**
 * The style page (/dev/styles, development only) in a real browser: every component of the kit, in
 * both colour schemes, at 320, 375 and 1280 px, with JavaScript on and off: axe-clean, and the page
 * never scrolls sideways (the wide table scrolls inside its own box). Loaded once per mode; the
 * width and the scheme change in place.
 */
const WIDTHS = [320, 375, 1280] as const;
const SCHEMES = ['light', 'dark'] as const;

t.test('the style page is axe-clean and reflows, light and dark, with JavaScript on and off', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle' });
  const { baseUrl } = await serveApp(t, db, await developmentEnv(t));
  const browser = await browserReady;

  for (const javaScriptEnabled of [true, false]) {
    const context = await openContext(t, browser, baseUrl, { javaScriptEnabled });
    const page = await context.newPage();
    const problems = collectPageProblems(page);
    const response = await page.goto('/dev/styles');
    t.equal(response?.status(), 200);
    const mode = `JavaScript ${javaScriptEnabled ? 'on' : 'off'}`;
    for (const colorScheme of SCHEMES) {
      await setColorScheme(page, colorScheme);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        const what = `/dev/styles at ${width} px, ${colorScheme}, ${mode}`;
        await expectNoSidewaysScroll(t, page, what);
        // axe (the slow part) with JavaScript on at 320 and 1280 px in each scheme (375 px lays out as
        // 320 does); the JavaScript-off markup (the same: the page has no script) once, at a phone
        // width (its scratch page is light).
        if (javaScriptEnabled && width !== 375) await expectNoAxeViolations(t, page, what);
        else if (!javaScriptEnabled && width === 375 && colorScheme === 'light') await expectNoAxeViolationsWithoutJavaScript(t, browser, page, what);
      }
    }
    if (javaScriptEnabled) {
      // The phone-width frame holds the same gallery (the page may frame it: its CSP says so).
      await page.locator('iframe.styles-phone').scrollIntoViewIfNeeded();
      await page.frameLocator('iframe.styles-phone').locator('#kit-table').waitFor();
      t.pass('the phone-width frame shows the gallery');
    }
    t.same(problems, [], `no page errors (${mode})`);
  }
});
