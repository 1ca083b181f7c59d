import t from 'tap';
import type { Page } from 'playwright-core';
import { setupDatabase } from '#test/helpers/app.ts';
import {
  collectPageProblems,
  expectNoAxeViolations,
  expectNoAxeViolationsWithoutJavaScript,
  expectNoSidewaysScroll,
  expectReflowAndAxeAtPhoneWidths,
  launchBrowser,
  openContext,
  serveApp,
} from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { saveCard } from '#src/features/payments/ledger.ts';
import { CARDS, cardToken, enablePayments } from '#test/helpers/payments.ts';
import { createSubscription } from '#test/helpers/paynow.ts';

// Whole journeys with JavaScript on and off, axe on every step (at two widths without JavaScript): minutes on a busy machine.
t.setTimeout(8 * 60_000);

const NARROW = { width: 320, height: 720 };
const PHONE = { width: 375, height: 812 };

/** The card, on whichever form holds the inputs (the island's, or the provider's hosted page). */
async function fillCard(page: Page, number: string = CARDS.visa) {
  await page.getByLabel('First name').fill('Jonah');
  await page.getByLabel('Last name').fill('Whitaker');
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('CVV').fill('123');
  await page.getByLabel('Month').fill('12');
  await page.getByLabel('Year').fill(String(new Date().getUTCFullYear() + 2));
  await page.getByLabel('Zip code').fill('10001');
}

t.test('pay-now in the browser: an overdue member pays', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle', auth_background_image: 'img/summit-background.svg', auth_logo: 'img/summit-logo.svg' });
  await enablePayments(db, alpha);
  const { app, baseUrl } = await serveApp(t, db);
  const browser = await browserReady;
  const overdue = async () => {
    const m = await createMember(db, alpha, { firstName: 'Jonah', lastName: 'Whitaker' });
    const sub = await createSubscription(db, alpha, m.id, { outstandingCents: 600000 });
    return { m, sub, link: `/pay-now?userId=${m.id}&subscriptionId=${encodeURIComponent(sub)}` };
  };
  const statusOf = (sub: string) => db.selectFrom('subscriptions').select(['status', 'outstanding_cents']).where('id', '=', sub).executeTakeFirstOrThrow();

  await t.test('JavaScript off at 320 and 375: through the provider’s hosted page', async (t) => {
    const { sub, link } = await overdue();
    const context = await openContext(t, browser, baseUrl, { viewport: NARROW, javaScriptEnabled: false });
    const page = await context.newPage();
    const check = (what: string) => expectReflowAndAxeAtPhoneWidths(t, page, what, { browser, javaScriptEnabled: false });
    await page.goto(link);
    await page.getByRole('heading', { name: app.t('paynow.form.heading') }).waitFor();
    await page.getByText('$6,000.00', { exact: true }).waitFor();
    await page.getByText('and more...').waitFor();
    await check('the pay-now form');
    await Promise.all([page.waitForURL(/\/sandbox-pay\//), page.getByRole('button', { name: 'Pay $6,000.00' }).click()]);
    await fillCard(page);
    await Promise.all([page.waitForURL(/\/pay-now\?/), page.getByRole('button', { name: 'Continue' }).click()]);
    await page.getByRole('heading', { name: app.t('paynow.complete.heading') }).waitFor();
    t.ok(await page.getByRole('link', { name: app.t('paynow.complete.statement') }).isVisible(), 'the statement link');
    await check('payment complete');
    t.same(await statusOf(sub), { status: 'active', outstanding_cents: 0 });
  });

  await t.test('JavaScript on at 375: the card form island, a refused card inline, then a good one', async (t) => {
    const { sub, link } = await overdue();
    const context = await openContext(t, browser, baseUrl, { viewport: PHONE });
    const page = await context.newPage();
    const problems = collectPageProblems(page);
    await page.goto(link);
    await page.getByLabel('Card number').waitFor();
    await expectNoAxeViolations(t, page, 'the pay-now form with JavaScript');
    await expectNoSidewaysScroll(t, page, 'the form with JavaScript, 375');
    await fillCard(page, CARDS.decline);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Pay $6,000.00' }).click()]);
    await page.getByText(app.t('payments.errors.declined')).waitFor();
    await expectNoAxeViolations(t, page, 'the refused card, inline');
    await page.getByLabel('Card number').waitFor();
    await fillCard(page);
    await Promise.all([page.waitForURL(/\/pay-now\?/), page.getByRole('button', { name: 'Pay $6,000.00' }).click()]);
    await page.getByRole('heading', { name: app.t('paynow.complete.heading') }).waitFor();
    await expectNoAxeViolations(t, page, 'payment complete with JavaScript');
    t.same(await statusOf(sub), { status: 'active', outstanding_cents: 0 });
    // The refused card's page is answered with HTTP 400 (spec section 8): Chromium logs that status.
    t.same(problems.filter((p) => !/status of 400/.test(p)), [], 'no page errors');
  });

  for (const javaScriptEnabled of [false, true]) {
    await t.test(`the dunning page after sign-in at 320, JavaScript ${javaScriptEnabled ? 'on' : 'off'}: pay with the default card`, async (t) => {
      const { m, sub } = await overdue();
      const saved = await saveCard(app, { community: alpha, userId: m.id, actorId: m.id, token: await cardToken(app, alpha), idempotencyKey: `e2e-save-${m.id}` });
      t.ok(saved.ok);
      const context = await openContext(t, browser, baseUrl, { viewport: NARROW, javaScriptEnabled, token: (await signIn(app, m, alpha)).token });
      const page = await context.newPage();
      await page.goto('/settings');
      await page.getByRole('heading', { name: app.t('paynow.overdue.heading') }).waitFor();
      t.match(page.url(), /\/billing\/overdue\?next=%2Fsettings$/);
      await expectNoSidewaysScroll(t, page, `the dunning page, 320, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`);
      if (javaScriptEnabled) await expectNoAxeViolations(t, page, 'the dunning page');
      else await expectNoAxeViolationsWithoutJavaScript(t, browser, page, 'the dunning page');
      await Promise.all([page.waitForURL(/\/settings\?alert=paynow-paid/), page.getByRole('button', { name: 'Pay $6,000.00 with Visa ending 4242' }).click()]);
      await page.getByText(app.t('paynow.overdue.paid')).waitFor();
      t.same(await statusOf(sub), { status: 'active', outstanding_cents: 0 });
    });
  }

  await t.test('the error and no-balance views at 320', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: NARROW });
    const page = await context.newPage();
    await page.goto('/pay-now?userId=1&subscriptionId=sub_unknown_000000');
    await page.getByRole('heading', { name: app.t('paynow.error.heading') }).waitFor();
    await page.getByRole('link', { name: app.t('paynow.error.tryAgain') }).waitFor();
    await expectNoSidewaysScroll(t, page, 'the error view, 320');
    await expectNoAxeViolations(t, page, 'the error view');
    const m = await createMember(db, alpha);
    const sub = await createSubscription(db, alpha, m.id, { status: 'active', outstandingCents: 0 });
    await page.goto(`/pay-now?userId=${m.id}&subscriptionId=${sub}`);
    await page.getByRole('heading', { name: app.t('paynow.noBalance.heading') }).waitFor();
    await expectNoSidewaysScroll(t, page, 'no balance due, 320');
    await expectNoAxeViolations(t, page, 'no balance due');
  });
});
