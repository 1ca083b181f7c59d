import type { Test } from 'tap';
import type { Page } from 'playwright-core';
import { CARDS } from './payments.ts';

/** Fills the card's fields: the CardForm island's (JavaScript on) or the provider's hosted page (off). */
export async function fillCard(page: Page, number: string) {
  await page.getByLabel('First name').fill('Amara');
  await page.getByLabel('Last name').fill('Okafor');
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('CVV').fill(number.length === 15 ? '1234' : '123');
  await page.getByLabel('Month').fill('12');
  await page.getByLabel('Year').fill(String(new Date().getUTCFullYear() + 2));
  await page.getByLabel('Zip code').fill('10001');
}

/**
 * The payment step in the browser: a card that is declined when charged, then a good one. With
 * JavaScript the island takes the card in the page; without, the form goes to the provider's hosted
 * page, which returns to /get-started/payment/return.
 */
export async function payInBrowser(
  t: Test,
  page: Page,
  { javaScriptEnabled, what, check }: { javaScriptEnabled: boolean; what: string; check: (page: Page, what: string) => Promise<void> },
) {
  const pay = async (number: string) => {
    const terms = page.getByLabel(/I accept the/);
    if (!(await terms.isChecked())) await terms.check();
    if (javaScriptEnabled) {
      await fillCard(page, number);
      await Promise.all([page.waitForLoadState('domcontentloaded'), page.getByRole('button', { name: /^Pay / }).click()]);
      return;
    }
    await Promise.all([page.waitForURL(/\/hosted|sandbox/), page.getByRole('button', { name: /^Pay / }).click()]);
    await page.getByRole('heading', { name: 'Pay by card' }).waitFor();
    await check(page, `the hosted page, ${what}`);
    await fillCard(page, number);
    await Promise.all([page.waitForURL(/\/get-started\//), page.getByRole('button', { name: 'Continue' }).click()]);
  };
  await pay(CARDS.chargeDecline);
  await page.getByText('Your card was declined. Please use another card.').first().waitFor();
  t.ok(await page.getByLabel(/I accept the/).isChecked(), `the terms tick is kept, ${what}`);
  await check(page, `a declined card, ${what}`);
  await pay(CARDS.visa);
}
