import t from 'tap';
import { chargeOnce, saveCard } from '#src/features/payments/ledger.ts';
import { setupDatabase } from '#test/helpers/app.ts';
import {
  collectPageProblems,
  expectReflowAndAxeAtPhoneWidths,
  launchBrowser,
  openContext,
  serveApp,
} from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { createArticle } from '#test/helpers/members-profiles.ts';
import { CARDS, cardToken, enablePayments } from '#test/helpers/payments.ts';

// Whole journeys with JavaScript on and off, axe at two widths on every step: minutes on a busy machine.
t.setTimeout(8 * 60_000);

/**
 * Billing and amplification in the browser: the statements list with its PDF link, and buying an
 * amplification package with the card on file, with JavaScript on and off, axe-clean and no sideways
 * scroll at 320 and 375 px at each step (one walk per mode).
 */
t.test('billing and amplification in the browser', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', name: 'Alpha Executive Council', app_name: 'Alpha Circle' });
  const { app, baseUrl } = await serveApp(t, db);
  const browser = await browserReady;
  await enablePayments(db, alpha);
  await db
    .insertInto('amplification_packages')
    .values([
      { community_id: alpha.id, name: 'Spotlight', description: 'Featured in the weekly member newsletter.', price_cents: 49900, sort_order: 1 },
      { community_id: alpha.id, name: 'Feature', description: 'A week on the home page and two social posts to the whole community.', price_cents: 129900, sort_order: 2 },
    ])
    .execute();
  const amara = await createMember(db, alpha, { firstName: 'Amara', lastName: 'Okafor' });
  const saved = await saveCard(app, { community: alpha, userId: amara.id, actorId: amara.id, token: await cardToken(app, alpha, CARDS.visa), idempotencyKey: 'e2e-billing-card' });
  if (!saved.ok) throw new Error('card');
  const dues = await chargeOnce(app, {
    community: alpha,
    userId: amara.id,
    actorId: amara.id,
    idempotencyKey: 'e2e-billing-dues',
    amountCents: 750000,
    purpose: 'dues',
    description: '12-month membership',
    items: [
      { label: 'Membership dues (12 months)', amountCents: 600000 },
      { label: 'Initiation fee', amountCents: 150000 },
    ],
    statement: { kind: 'dues', name: '12-month membership with a rather long name so that it has to wrap on a phone' },
    source: { savedPaymentId: saved.savedPayment.id },
  });
  if (dues.status !== 'succeeded') throw new Error('dues');
  const token = async () => (await signIn(app, amara, alpha)).token;

  for (const javaScriptEnabled of [true, false]) {
    const width = 320;
    const what = `JavaScript ${javaScriptEnabled ? 'on' : 'off'}`;
    await t.test(`billing: the statements and the PDF link, ${what}`, async (t) => {
      const context = await openContext(t, browser, baseUrl, { viewport: { width, height: 740 }, token: await token(), javaScriptEnabled });
      const page = await context.newPage();
      const problems = collectPageProblems(page);
      await page.goto('/settings/billing');
      await page.getByRole('heading', { name: 'Statements' }).waitFor();
      await page.getByText('12-month membership with a rather long name').waitFor();
      await page.getByText('$7,500.00').waitFor();
      const link = page.getByRole('link', { name: /^Download statement \(PDF\)/ });
      t.equal(await link.count(), 1);
      const href = await link.getAttribute('href');
      t.equal(href, `/settings/billing/statements/${dues.statementId}.pdf`);
      const pdf = await context.request.get(href!);
      t.equal(pdf.headers()['content-type'], 'application/pdf');
      t.equal((await pdf.body()).subarray(0, 5).toString('latin1'), '%PDF-', 'the link gives a PDF');
      t.notOk(await page.getByText(/Saved cards|ending 4242/).count(), 'no saved cards in the member view');
      await expectReflowAndAxeAtPhoneWidths(t, page, `billing, ${what}`, { browser, javaScriptEnabled });
      t.same(problems, [], 'no script errors');
    });
  }

  for (const javaScriptEnabled of [true, false]) {
    const width = 320;
    const what = `JavaScript ${javaScriptEnabled ? 'on' : 'off'}`;
    await t.test(`amplify: buy a package with the saved card, ${what}`, async (t) => {
      const articleId = await createArticle(db, alpha, amara.id, `Leading Through Change, part ${javaScriptEnabled ? 'a' : 'b'}`);
      const context = await openContext(t, browser, baseUrl, { viewport: { width, height: 740 }, token: await token(), javaScriptEnabled });
      const page = await context.newPage();
      const problems = collectPageProblems(page);
      await page.goto(`/articles/amplify/${articleId}`);
      await page.getByRole('heading', { name: 'Amplify your article' }).waitFor();
      await page.getByText('Featured in the weekly member newsletter.').waitFor();
      await expectReflowAndAxeAtPhoneWidths(t, page, `amplify packages, ${what}`, { browser, javaScriptEnabled });

      await page.getByLabel(/Spotlight/).check();
      await Promise.all([page.waitForURL(/\?package=\d+$/), page.getByRole('button', { name: 'Continue to payment' }).click()]);
      await page.getByRole('heading', { name: 'Pay $499.00 for Spotlight' }).waitFor();
      await expectReflowAndAxeAtPhoneWidths(t, page, `amplify payment, ${what}`, { browser, javaScriptEnabled });

      await Promise.all([page.waitForURL(/alert=amplify-purchased$/), page.getByRole('button', { name: 'Pay with Visa ending 4242' }).click()]);
      await page.getByText('Your amplification is booked.').first().waitFor();
      await page.getByRole('heading', { name: 'This article is amplified' }).waitFor();
      await page.getByText(/Spotlight, bought .* \(\$499\.00\)/).waitFor();
      const orders = await db.selectFrom('amplification_orders').select('id').where('article_id', '=', articleId).execute();
      t.equal(orders.length, 1, 'one order');
      await expectReflowAndAxeAtPhoneWidths(t, page, `amplify confirmation, ${what}`, { browser, javaScriptEnabled });
      t.same(problems, [], 'no script errors');
    });
  }
});
