import t from 'tap';
import { setupDatabase } from '#test/helpers/app.ts';
import {
  DESKTOP,
  PHONE,
  collectPageProblems,
  expectNoAxeViolations,
  launchBrowser,
  openContext,
  pathOf,
  serveApp,
} from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

const MAIN_LINKS = ['Forum', 'Members', 'Expert Panels', 'Articles', 'EXEC'];
const MORE_LINKS = ['Events', 'Member Directory Guide'];
/** Set E2E_SCREENSHOT_DIR=/tmp to keep screenshots of the signed-in home page. */
const screenshotDir = process.env.E2E_SCREENSHOT_DIR;

t.test('the page shell in a browser', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, {
    code: 'alpha',
    app_name: 'Alpha Circle',
    forum_enabled: true,
    exec_link: 'https://example.com/exec',
    nav_more: JSON.stringify([
      { label: 'Events', link: 'https://example.com/events' },
      { label: 'Member Directory Guide', link: 'https://example.com/guide' },
    ]),
    link_terms: 'https://example.com/terms',
    link_privacy: 'https://example.com/privacy',
  });
  await db
    .insertInto('ads')
    .values([
      { community_id: alpha.id, shape: 'MASTHEAD', image_url: 'img/ads/masthead-partner.svg', link: 'https://example.com/ad', alt_text: 'Alpha masthead ad' },
      // Both ads on every signed-in page: axe checks that their landmarks are told apart (landmark-unique).
      { community_id: alpha.id, shape: 'MEDIUM_SQUARE', image_url: 'img/ads/square-retreat.svg', link: 'https://example.com/retreat', alt_text: 'Alpha square ad' },
    ])
    .execute();
  const { app, baseUrl } = await serveApp(t, db);
  const browser = await launchBrowser(t);
  const member = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const { token } = await signIn(app, member, alpha);

  await t.test('at desktop width a member sees the main navigation, the More menu and the user menu', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token });
    const page = await context.newPage();
    const problems = collectPageProblems(page);
    await page.goto('/');
    if (screenshotDir) await page.screenshot({ path: `${screenshotDir}/shell-desktop.png`, fullPage: true });
    t.equal(await page.title(), 'Home | Alpha Circle');
    t.ok(await page.getByRole('heading', { level: 1, name: 'Welcome back, Ada Lovelace' }).isVisible(), 'greets the member');

    const nav = page.getByRole('navigation', { name: 'Main' });
    t.ok(await nav.isVisible(), 'the main navigation is shown');
    for (const label of MAIN_LINKS) t.ok(await nav.getByRole('link', { name: label, exact: true }).isVisible(), `shows ${label}`);
    t.equal(await nav.getByRole('link', { name: 'Offers', exact: true }).count(), 0, 'EXEC replaces Offers');
    t.ok(await page.getByRole('navigation', { name: 'Mobile' }).isHidden(), 'the mobile sidebar is hidden');
    t.ok(await page.getByText('Menu', { exact: true }).isHidden(), 'so is its Menu button');

    // More: a <details> menu, closed until clicked.
    for (const label of MORE_LINKS) t.ok(await nav.getByRole('link', { name: label }).isHidden(), `${label} is hidden before More opens`);
    await nav.getByText('More', { exact: true }).click();
    for (const label of MORE_LINKS) {
      const link = nav.getByRole('link', { name: label });
      await link.waitFor({ state: 'visible' });
      t.ok(await link.isVisible(), `More lists ${label}`);
    }
    t.equal(await nav.getByRole('link', { name: 'Events' }).getAttribute('href'), 'https://example.com/events');
    await nav.getByText('More', { exact: true }).click();
    await nav.getByRole('link', { name: 'Events' }).waitFor({ state: 'hidden' });
    t.pass('a second click closes More');
    // From the keyboard: Escape closes the open menu and gives the focus back to its summary.
    await page.getByRole('button', { name: 'Notifications' }).waitFor({ state: 'visible' });
    await nav.getByText('More', { exact: true }).click();
    await nav.getByRole('link', { name: 'Events' }).focus();
    await page.keyboard.press('Escape');
    await nav.getByRole('link', { name: 'Events' }).waitFor({ state: 'hidden' });
    t.equal(await page.evaluate(() => document.activeElement?.closest('details.more-menu') && document.activeElement.tagName), 'SUMMARY', 'Escape closes More; focus on its summary');

    // The user menu: the avatar summary, labelled with the member's name.
    const account = page.getByLabel('Account menu for Ada Lovelace');
    t.ok(await account.isVisible(), 'the account menu button is labelled with the member name');
    t.ok(await page.getByRole('link', { name: 'Manage Profile' }).isHidden(), 'the user menu starts closed');
    await account.click();
    const profile = page.getByRole('link', { name: 'Manage Profile' });
    await profile.waitFor({ state: 'visible' });
    t.equal(await profile.getAttribute('href'), `/profile/${member.id}/self`);
    t.ok(await page.locator('.user-menu').getByRole('link', { name: 'Settings' }).isVisible(), 'shows Settings');
    t.ok(await page.locator('.user-menu').getByRole('button', { name: 'Sign Out' }).isVisible(), 'shows Sign Out');
    await profile.focus();
    await page.keyboard.press('Escape');
    await profile.waitFor({ state: 'hidden' });
    t.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Account menu for Ada Lovelace', 'Escape closes the account menu; focus on its summary');

    t.ok(await page.getByRole('img', { name: 'Alpha masthead ad' }).isVisible(), 'shows the masthead ad');
    t.ok(await page.getByRole('contentinfo').getByText(`Copyright © ${new Date().getUTCFullYear()} alpha Inc`).isVisible(), 'shows the footer');
    t.same(problems, [], 'no script errors');

  });

  await t.test('the bell hydrates under the real CSP and opens its Notifications panel, Escape closes it', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token });
    const page = await context.newPage();
    const problems = collectPageProblems(page);
    await page.goto('/');
    // Before hydration the bell is a plain link; hydrated, it is a button that says whether it is open.
    const bell = page.getByRole('button', { name: 'Notifications' });
    await bell.waitFor({ state: 'visible' });
    t.equal(await bell.getAttribute('aria-expanded'), 'false', 'hydrated and closed');
    const panelHeading = page.getByRole('heading', { name: 'Notifications' });
    t.equal(await panelHeading.count(), 0, 'no panel yet');

    await bell.click();
    await panelHeading.waitFor({ state: 'visible' });
    t.equal(await bell.getAttribute('aria-expanded'), 'true', 'the bell says it is expanded');
    // The panel loads the newest notifications (none here) after it opens.
    await page.getByText("You're all caught up.").waitFor({ state: 'visible' });
    t.pass('the panel says there is nothing new');
    t.ok(await page.getByRole('link', { name: 'See all notifications' }).isVisible(), 'and links to all notifications');
    t.equal(pathOf(page), '/', 'clicking the bell did not follow its link');

    await page.keyboard.press('Escape');
    await panelHeading.waitFor({ state: 'detached' });
    t.equal(await bell.getAttribute('aria-expanded'), 'false', 'Escape closes the panel');

    await bell.click();
    await panelHeading.waitFor({ state: 'visible' });
    await bell.click();
    await panelHeading.waitFor({ state: 'detached' });
    t.equal(await bell.getAttribute('aria-expanded'), 'false', 'a second click closes it too');

    t.same(problems, [], 'no script errors, no CSP refusals, no hydration mismatch');
  });

  await t.test('at phone width the main navigation is hidden and the Menu opens the mobile sidebar', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: PHONE, token });
    const page = await context.newPage();
    await page.goto('/');
    t.ok(await page.getByRole('navigation', { name: 'Main' }).isHidden(), 'the main navigation is hidden');
    const mobile = page.getByRole('navigation', { name: 'Mobile' });
    t.ok(await mobile.isHidden(), 'the sidebar starts closed');
    if (screenshotDir) await page.screenshot({ path: `${screenshotDir}/shell-phone.png`, fullPage: true });

    await page.getByText('Menu', { exact: true }).click();
    await mobile.waitFor({ state: 'visible' });
    if (screenshotDir) await page.screenshot({ path: `${screenshotDir}/shell-phone-menu.png` });
    const header = await page.getByRole('banner').boundingBox();
    const panel = await mobile.boundingBox();
    t.ok(header && panel && panel.y >= header.y + header.height - 1, 'the sidebar opens below the header, not over it', { header, panel });
    for (const label of [...MAIN_LINKS, ...MORE_LINKS, 'Notifications', 'Manage Profile', 'Messages', 'Groups', 'Settings']) {
      t.ok(await mobile.getByRole('link', { name: label, exact: true }).isVisible(), `the sidebar shows ${label}`);
    }
    t.ok(await mobile.getByRole('heading', { name: 'More' }).isVisible(), 'the More links have a heading');
    t.ok(await mobile.getByRole('button', { name: 'Sign Out' }).isVisible(), 'the sidebar has Sign Out');
    t.equal(await mobile.getByRole('link', { name: 'Manage Profile' }).getAttribute('href'), `/profile/${member.id}/self`, 'Manage Profile: the same link as the user menu');

    await page.getByText('Menu', { exact: true }).click();
    await mobile.waitFor({ state: 'hidden' });
    t.pass('a second click closes the sidebar');
  });

  await t.test('a visitor sees the Sign In link and the page loads no JavaScript at all', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    const response = await page.goto('/');
    await page.waitForLoadState('networkidle');
    t.equal(response?.status(), 200);
    t.ok(await page.getByRole('heading', { level: 1, name: 'Welcome to alpha Council' }).isVisible(), 'shows the welcome');
    t.ok(await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).isVisible(), 'shows Sign In in the header');
    t.equal(await page.getByRole('navigation', { name: 'Main' }).count(), 0, 'no main navigation');
    t.equal(await page.getByRole('button', { name: 'Notifications' }).count(), 0, 'no bell');
    t.equal(await page.getByRole('link', { name: 'Notifications' }).count(), 0, 'no bell link either');
    t.same(scripts, [], 'no script is requested');
    t.equal(await page.locator('script').count(), 0, 'and the document has no script element');
  });

  await t.test('the signed-in home page has no WCAG 2.1 A/AA violations at desktop and phone width', async (t) => {
    for (const [name, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const context = await openContext(t, browser, baseUrl, { viewport, token, bypassCSP: true });
      const page = await context.newPage();
      await page.goto('/');
      await page.getByRole('button', { name: 'Notifications' }).waitFor({ state: 'visible' });
      await expectNoAxeViolations(t, page, `the signed-in home page at ${name} width`);
      // A best practice outside the WCAG tags above: the two ads' landmarks are told apart by their labels.
      const landmarks = await page.evaluate(() =>
        (window as unknown as { axe: { run: (c: Document, o: unknown) => Promise<{ violations: { id: string }[] }> } }).axe
          .run(document, { runOnly: { type: 'rule', values: ['landmark-unique'] }, resultTypes: ['violations'] })
          .then((r) => r.violations.map((v) => v.id)),
      );
      t.same(landmarks, [], `no two landmarks share a role and a label at ${name} width (axe landmark-unique)`);
      if (name === 'phone') {
        await page.getByText('Menu', { exact: true }).click();
        await page.getByRole('navigation', { name: 'Mobile' }).waitFor({ state: 'visible' });
        await expectNoAxeViolations(t, page, 'the signed-in home page with the mobile sidebar open');
      } else {
        const account = page.getByLabel('Account menu for Ada Lovelace');
        await page.getByRole('navigation', { name: 'Main' }).getByText('More', { exact: true }).click();
        await account.click();
        await page.getByRole('link', { name: 'Manage Profile' }).waitFor({ state: 'visible' });
        await expectNoAxeViolations(t, page, 'the signed-in home page with the More and user menus open');
        await account.click();
        await page.getByRole('button', { name: 'Notifications' }).click();
        await page.getByRole('heading', { name: 'Notifications' }).waitFor({ state: 'visible' });
        await expectNoAxeViolations(t, page, 'the signed-in home page with the bell panel open');
      }
    }
  });

  await t.test('the signed-out home page has no WCAG 2.1 A/AA violations', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, bypassCSP: true });
    const page = await context.newPage();
    await page.goto('/');
    await expectNoAxeViolations(t, page, 'the signed-out home page');
  });
});

