import t from 'tap';
import type { Page } from 'playwright-core';
import { setupDatabase } from '#test/helpers/app.ts';
import { DESKTOP, expectNoAxeViolations, expectNoAxeViolationsWithoutJavaScript, expectNoSidewaysScroll, launchBrowser, openContext, PHONE, serveApp } from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

/**
 * The sites pages in a browser: an admin edits a site at phone and desktop width (a refused colour
 * shows its message, then a good one saves), and every sites page is axe-clean and does not scroll
 * sideways at 320 and 375 px, with JavaScript on and off.
 */
t.setTimeout(120_000);

async function submit(page: Page, click: () => Promise<void>) {
  await Promise.all([page.waitForEvent('framenavigated'), click()]);
  await page.waitForLoadState('domcontentloaded');
}

t.test('sites: edit at phone and desktop width; every page axe-clean, no sideways scroll at 320/375, JS on and off', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, {
    code: 'alpha',
    name: 'Alpha Circle of Independent Practitioners and Advisors',
    hosts: ['alpha-circle-of-independent-practitioners.example.test', 'alpha.example.test'],
    concierge_phone: '+1 512 555 0142',
    nav_more: JSON.stringify([{ label: 'Events', link: 'https://example.com/events/an-unusually-long-address-for-the-events-page' }]),
  });
  const beta = await createCommunity(db, { code: 'beta', name: 'Beta Guild', hosts: ['beta.example.test'], concierge_phone: '+1 401 555 0199' });
  const admin = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Ada' });
  await db.insertInto('memberships').values({ community_id: beta.id, user_id: admin.id, roles: ['ADMIN', 'MEMBER'] }).execute();
  // Platform staff (an admin of the `admin` community): the one who may create sites.
  const platform = await createCommunity(db, { code: 'admin', name: 'Network Staff' });
  await db.insertInto('memberships').values({ community_id: platform.id, user_id: admin.id, roles: ['ADMIN', 'MEMBER'] }).execute();
  const { app, baseUrl } = await serveApp(t, db);
  const browser = await browserReady;

  for (const [label, viewport] of [
    ['phone 390', PHONE],
    ['desktop 1280', DESKTOP],
  ] as const) {
    await t.test(`edit a site at ${label}`, async (t) => {
      const { token } = await signIn(app, admin, alpha, ['ADMIN', 'MEMBER']);
      const context = await openContext(t, browser, baseUrl, { viewport, token });
      const page = await context.newPage();
      await page.goto('/admin/sites');
      await expectNoAxeViolations(t, page, `/admin/sites at ${label}`);
      await submit(page, () => page.getByRole('link', { name: 'Edit Beta Guild' }).click());
      t.equal(new URL(page.url()).pathname, '/admin/sites/beta');
      await page.getByLabel('Primary colour').fill('#ffcc00');
      await page.getByLabel('Familiar name').fill(`Beta ${label}`);
      await submit(page, () => page.getByRole('button', { name: 'Save' }).click());
      await t.resolveMatch(page.locator('#colorPrimary-error').textContent(), /WCAG AA needs at least 4\.5:1/, 'the refused colour says why, next to the field');
      t.equal(await page.getByLabel('Familiar name').inputValue(), `Beta ${label}`, 'what was typed is kept');
      await expectNoAxeViolations(t, page, `the refused form at ${label}`);
      await page.getByLabel('Primary colour').fill('#0f5e54');
      await page.getByLabel('Label 2').fill(`Podcast ${label}`);
      await page.getByLabel('Link 2').fill('https://example.com/podcast');
      await submit(page, () => page.getByRole('button', { name: 'Save' }).click());
      t.same(await page.locator('.field-error').allTextContents(), [], 'no field refused');
      await t.resolveMatch(page.getByRole('status').textContent(), 'live on every server');
      t.equal(await page.getByLabel('Primary colour').inputValue(), '#0f5e54');
      await t.resolveMatch(page.locator('#colorPrimary-contrast').textContent(), /meets WCAG AA/);
      await t.resolveMatch(page.locator('[data-nav-row] input[name$=".label"]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)), [/^Podcast/], 'the added navMore row, in the first row (blank rows close up)');
      const stored = await db.selectFrom('communities').select(['familiar_name', 'color_primary', 'nav_more']).where('id', '=', beta.id).executeTakeFirstOrThrow();
      t.match(stored, { familiar_name: `Beta ${label}`, color_primary: '#0f5e54' });
      t.ok(stored.nav_more.some((n) => n.label === `Podcast ${label}` && n.link === 'https://example.com/podcast'), 'the row is stored');
    });
  }

  await t.test('every sites page at 320 and 375 px, JavaScript on and off', async (t) => {
    const { token } = await signIn(app, admin, alpha, ['ADMIN', 'MEMBER']);
    for (const javaScriptEnabled of [true, false]) {
      for (const width of [320, 375]) {
        const context = await openContext(t, browser, baseUrl, { viewport: { width, height: 800 }, token, javaScriptEnabled });
        const page = await context.newPage();
        for (const path of ['/admin/sites', '/admin/sites/new', '/admin/sites/alpha', '/admin/dashboards']) {
          const what = `${path} at ${width} px, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`;
          const res = await page.goto(path);
          t.equal(res?.status(), 200, what);
          await expectNoSidewaysScroll(t, page, what);
          if (width === 320) {
            if (javaScriptEnabled) await expectNoAxeViolations(t, page, what);
            else await expectNoAxeViolationsWithoutJavaScript(t, browser, page, what);
          }
        }
        if (!javaScriptEnabled && width === 320) {
          // A refused create without JavaScript: the messages, the typed values, still no sideways scroll.
          await page.goto('/admin/sites/new');
          await page.getByLabel('Code').fill('Not A Code');
          await page.getByLabel('Host names').fill('https://not a host/');
          await submit(page, () => page.getByRole('button', { name: 'Create community' }).last().click());
          t.equal(await page.getByLabel('Code').inputValue(), 'Not A Code');
          await t.resolveMatch(page.locator('#hosts-error').textContent(), 'not valid host names');
          await expectNoSidewaysScroll(t, page, 'the refused create form at 320 px without JavaScript');
          await expectNoAxeViolationsWithoutJavaScript(t, browser, page, 'the refused create form');
        }
        await context.close();
      }
    }
    const dashboards = await (await openContext(t, browser, baseUrl, { token })).newPage();
    await dashboards.goto('/admin/dashboards');
    const port = new URL(baseUrl).port;
    t.equal(
      await dashboards.getByRole('link', { name: 'Open the admin area of Beta Guild' }).getAttribute('href'),
      `http://beta.example.test:${port}/admin`,
      'an outbound link to the brand’s admin area on its own host',
    );
  });
});
