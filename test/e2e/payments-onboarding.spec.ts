import t, { type Test } from 'tap';
import type { Page, Browser } from 'playwright-core';
import { createOnboarding } from '#src/features/payments/onboarding/progress.ts';
import { setupDatabase } from '#test/helpers/app.ts';
import {
  collectPageProblems,
  expectReflowAndAxeAtPhoneWidths,
  launchBrowser,
  openContext,
  pathOf,
  serveApp,
} from '#test/helpers/browser.ts';
import { createCommunity, createMember } from '#test/helpers/factories.ts';
import { enablePayments } from '#test/helpers/payments.ts';
import { fillCard, payInBrowser } from '#test/helpers/onboarding-browser.ts';
import { CARDS } from '#test/helpers/payments.ts';

// Whole journeys with JavaScript on and off, axe at two widths on every step: minutes on a busy machine.
t.setTimeout(8 * 60_000);

const PASSWORD = 'Onboard-Me-42';

/**
 * Onboarding in the browser, from the invitation link to the complete page, with JavaScript on and
 * off: at every step axe and no sideways scroll at 320 and 375 px (one walk per mode, the viewport
 * set to each width in turn). The payment goes through the card form: with JavaScript the CardForm
 * island, without it the provider's hosted page.
 */
t.test('onboarding in the browser', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle', link_terms: 'https://alpha.example.com/terms' });
  const { plans } = await enablePayments(db, alpha, { showAddressStep: true });
  const { baseUrl } = await serveApp(t, db);
  const browser = await browserReady;

  const check = async (t: Test, page: Page, what: string, javaScriptEnabled: boolean, b: Browser) =>
    expectReflowAndAxeAtPhoneWidths(t, page, what, { browser: b, javaScriptEnabled });
  const submit = async (page: Page, name: string | RegExp) => Promise.all([page.waitForLoadState('domcontentloaded'), page.getByRole('button', { name }).click()]);

  let n = 0;
  for (const javaScriptEnabled of [false, true]) {
    const what = `JavaScript ${javaScriptEnabled ? 'on' : 'off'}`;
    await t.test(`from the link to complete, a declined card then a good one: ${what}`, async (t) => {
      n += 1;
      const member = await createMember(db, alpha, { gate: 'onboarding', firstName: 'Amara', lastName: 'Okafor' });
      const uid = await createOnboarding(db, alpha, member.id, plans[0]!.id);
      const context = await openContext(t, browser, baseUrl, { viewport: { width: 320, height: 740 }, javaScriptEnabled });
      const page = await context.newPage();
      const problems = collectPageProblems(page);
      const missing: string[] = [];
      page.on('response', (r) => {
        if (r.status() === 404) missing.push(r.url());
      });

      await page.goto(`/get-started?uid=${uid}&dealId=${plans[0]!.deal_id}`);
      await page.getByRole('heading', { name: 'Your membership', level: 1 }).waitFor();
      t.equal(pathOf(page), '/get-started/payment');
      await page.getByText('$7,500').first().waitFor();
      await check(t, page, `payment, ${what}`, javaScriptEnabled, browser);

      if (javaScriptEnabled) {
        // Pay without the terms: the island says so by the checkbox before tokenising; the card stays typed.
        await page.getByLabel('Card number').waitFor();
        await fillCard(page, CARDS.visa);
        await page.getByRole('button', { name: /^Pay / }).click();
        await page.locator('#accepted-terms-error').getByText('You Must Accept the Terms and Conditions').waitFor();
        t.equal(pathOf(page), '/get-started/payment', 'nothing was posted');
        t.equal(await page.getByLabel('Card number').inputValue(), CARDS.visa, 'the card is kept');
        t.equal(await page.evaluate(() => document.activeElement?.id), 'accepted-terms', 'the focus is on the terms');
        t.equal(await page.getByLabel(/I accept the/).getAttribute('aria-describedby'), 'accepted-terms-error');
      }
      await payInBrowser(t, page, { javaScriptEnabled, what, check: (p: Page, w: string) => check(t, p, w, javaScriptEnabled, browser) });

      await page.getByRole('heading', { name: 'Create your username and password' }).waitFor();
      await check(t, page, `password, ${what}`, javaScriptEnabled, browser);
      await page.getByLabel('Username', { exact: true }).fill(`amara.okafor.${n}`);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
      await submit(page, 'Create my sign-in');

      await page.getByRole('heading', { name: 'Tell members about yourself' }).waitFor();
      await check(t, page, `profile, ${what}`, javaScriptEnabled, browser);
      await page.getByLabel('Job title', { exact: true }).fill('Founder');
      await submit(page, 'Save and continue');

      await page.getByRole('heading', { name: 'Your mobile phone' }).waitFor();
      await page.getByLabel('Mobile number', { exact: true }).fill('123');
      await submit(page, 'Save and continue');
      await page.getByText('Please enter a valid phone number.').waitFor();
      await check(t, page, `contact with a message, ${what}`, javaScriptEnabled, browser);
      await submit(page, 'Skip for now');

      await page.getByRole('heading', { name: 'Your team' }).waitFor();
      await check(t, page, `team, ${what}`, javaScriptEnabled, browser);
      await submit(page, 'Skip for now');

      await page.getByRole('heading', { name: 'Your mailing address' }).waitFor();
      await page.getByLabel('Street address', { exact: true }).fill('1 Main St');
      await page.getByLabel('City', { exact: true }).fill('Austin');
      await page.getByLabel('Postal code', { exact: true }).fill('78701');
      await page.getByLabel('Country', { exact: true }).fill('United States');
      await check(t, page, `address, ${what}`, javaScriptEnabled, browser);
      await submit(page, 'Save and continue');

      await page.getByRole('heading', { name: "You're all set" }).waitFor();
      if (javaScriptEnabled) {
        // The countdown runs 5 seconds: one width per load of the page, as a check at one width fits in them.
        await page.getByText('Taking you to the home page in 5 seconds.').waitFor();
        await expectReflowAndAxeAtPhoneWidths(t, page, `complete, ${what}`, { browser, javaScriptEnabled, widths: [375] });
      } else {
        await check(t, page, `complete, ${what}`, javaScriptEnabled, browser);
      }
      const gate = await db.selectFrom('memberships').select('gate').where('user_id', '=', member.id).executeTakeFirstOrThrow();
      t.equal(gate.gate, 'app', 'onboarding complete: the gate is open');
      if (javaScriptEnabled) {
        // With JavaScript, "Stay on this page" turns the redirect off.
        await page.getByRole('button', { name: 'Stay on this page' }).click();
        await page.getByText('You will stay on this page.').waitFor();
        await page.waitForTimeout(5500);
        t.equal(pathOf(page), '/get-started/complete', 'stayed');
        // The page loaded again and left alone goes to the root after 5 seconds.
        await page.reload();
        await page.getByRole('heading', { name: "You're all set" }).waitFor();
        await page.getByText('Taking you to the home page in 5 seconds.').waitFor();
        await expectReflowAndAxeAtPhoneWidths(t, page, `complete, ${what}`, { browser, javaScriptEnabled, widths: [320] });
        await page.waitForURL((u) => u.pathname === '/', { timeout: 9000 });
        t.pass('redirected to the root after 5 seconds');
      } else {
        // Without JavaScript nothing moves the page (a redirect that cannot be stopped fails WCAG 2.2.1): the links lead on.
        t.equal(await page.getByText('Taking you to the home page in 5 seconds.').isVisible(), false, 'no countdown promised');
        await page.getByRole('link', { name: 'Articles' }).first().waitFor();
      }
      // The refused card and the refused phone answer 400 (the page with its messages), and Chromium's
      // own favicon request may 404: it logs both as failed loads. What the pages load is checked above.
      t.same(problems.filter((p) => !p.includes('Failed to load resource')), [], 'no console errors');
      t.same(missing, [], 'nothing missing');
    });
  }
});
