import t from 'tap';
import { collectPageProblems, DESKTOP, expectNoAxeViolations, openContext, recordScripts, brotliBytes, pathOf } from '#test/helpers/browser.ts';
import { createMember, signIn } from '#test/helpers/factories.ts';
import { browserWorld } from '#test/helpers/browser-world.ts';

/** React's element tag: in any script that carries React. */
const isReact = (source: string) => source.includes('react.transitional.element') || source.includes('react.element');

t.test('the bell, the only island of most member pages, works without React', async (t) => {
  const { browserReady, db, alpha, app, baseUrl } = await browserWorld(t);
  const browser = await browserReady;
  const member = await createMember(db, alpha);
  const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token: (await signIn(app, member, alpha)).token });
  const page = await context.newPage();
  const problems = collectPageProblems(page);
  const scripts = recordScripts(page);
  await page.goto('/', { waitUntil: 'networkidle' });

  const bell = page.getByRole('button', { name: 'Notifications' });
  await bell.waitFor();
  t.ok(scripts.length > 0, 'the bell has its script');
  t.same(scripts.filter((s) => isReact(s.source)).map((s) => s.url), [], 'no script of the page is React');
  // The shell's other script is the first-party page views (insights): small, and counted apart.
  const tracker = scripts.filter((s) => /\/island_Tracker-/.test(s.url));
  const jsBytes = scripts.filter((s) => !tracker.includes(s)).reduce((n, s) => n + brotliBytes(s.url), 0);
  t.ok(jsBytes <= 2 * 1024, `the bell's scripts are ${jsBytes} bytes on the wire, at most 2 KiB`);
  const trackerBytes = tracker.reduce((n, s) => n + brotliBytes(s.url), 0);
  t.ok(trackerBytes <= 1024, `the page views' script is ${trackerBytes} bytes on the wire, at most 1 KiB`);

  const heading = page.getByRole('heading', { name: 'Notifications' });
  t.equal(await bell.getAttribute('aria-expanded'), 'false');
  await bell.click();
  await heading.waitFor();
  t.equal(await bell.getAttribute('aria-expanded'), 'true');
  t.equal(await bell.getAttribute('aria-controls'), await page.locator('.bell-panel').getAttribute('id'), 'the button names the panel it opens');
  t.equal(await page.getByRole('link', { name: 'See all notifications' }).getAttribute('href'), '/notifications');
  t.equal(pathOf(page), '/', 'the click did not follow the link');
  await expectNoAxeViolations(t, page, 'the bell panel');
  await page.locator('main').click({ position: { x: 5, y: 5 } });
  await heading.waitFor({ state: 'detached' });
  t.equal(await bell.getAttribute('aria-expanded'), 'false', 'a click elsewhere closes the panel');

  // From the keyboard: the space bar opens it (a button), Escape closes it.
  await bell.focus();
  await page.keyboard.press(' ');
  await heading.waitFor();
  await page.keyboard.press('Escape');
  await heading.waitFor({ state: 'detached' });
  await page.keyboard.press('Enter');
  await heading.waitFor();
  t.equal(pathOf(page), '/', 'Enter opens the panel instead of following the link');
  t.same(problems, []);
});
