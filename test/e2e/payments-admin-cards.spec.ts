import t from 'tap';
import { addCard, adminScope } from '#src/features/payments/saved-cards/service.ts';
import { setupDatabase } from '#test/helpers/app.ts';
import {
  collectPageProblems,
  expectReflowAndAxeAtPhoneWidths,
  launchBrowser,
  openContext,
  serveApp,
} from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { CARDS, cardToken, enablePayments } from '#test/helpers/payments.ts';

// Whole journeys with JavaScript on and off, axe at two widths on every step: minutes on a busy machine.
t.setTimeout(8 * 60_000);

/**
 * An admin manages a member's saved cards (spec sections 4 and 6): makes another card the default,
 * reads its authorisation log, removes a card; with JavaScript (optimistic, the log loaded on open
 * behind its 10-row skeleton, a refused change rolled back with the admin's message) and without
 * (plain forms, alerts after the redirect, the log opened by its link); axe-clean at 320 and 375 px
 * (one walk per mode, each step checked at both widths).
 */
t.test('saved cards in admin mode, in the browser', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle' });
  await enablePayments(db, alpha);
  const { app, baseUrl } = await serveApp(t, db);
  const browser = await browserReady;
  const boss = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Bea', lastName: 'Boss' });
  const amara = await createMember(db, alpha, { firstName: 'Amara', lastName: 'Okafor' });
  const staff = { userId: boss.id };
  const scope = await adminScope(app, staff, { id: alpha.id, code: alpha.code, name: alpha.name }, amara.id);
  const base = `/admin/members/alpha/${amara.id}/cards`;

  /** Amara starts each run with an American Express (older) and a Visa (the default). */
  async function freshCards() {
    await db.updateTable('saved_payments').set({ deleted_at: new Date(), is_default: false }).where('user_id', '=', amara.id).where('deleted_at', 'is', null).execute();
    const amex = await addCard(app, scope, { token: await cardToken(app, alpha, CARDS.amex) });
    const visa = await addCard(app, scope, { token: await cardToken(app, alpha, CARDS.visa) });
    return { amex, visa };
  }
  const defaultId = async () =>
    (await db.selectFrom('saved_payments').select('id').where('user_id', '=', amara.id).where('is_default', '=', true).where('deleted_at', 'is', null).executeTakeFirst())?.id;

  for (const javaScriptEnabled of [false, true]) {
    const viewport = { width: 320, height: 720 };
    const what = `JavaScript ${javaScriptEnabled ? 'on' : 'off'}`;
    await t.test(`${what}, each step at 320 and 375 px`, async (t) => {
      const { amex, visa } = await freshCards();
      const token = (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token;
      const context = await openContext(t, browser, baseUrl, { viewport, token, javaScriptEnabled });
      const page = await context.newPage();
      const problems = collectPageProblems(page);
      const axe = (label: string) => expectReflowAndAxeAtPhoneWidths(t, page, `${label}, ${what}`, { browser, javaScriptEnabled });

      // From the admin member page.
      await page.goto(`/admin/members/alpha/${amara.id}`);
      await Promise.all([page.waitForURL(`**${base}`), page.getByRole('link', { name: 'Saved cards and authorisation logs' }).click()]);
      await page.getByRole('heading', { name: 'Saved cards', level: 1 }).waitFor();
      const amexCard = page.locator(`#card-${amex.id}`);
      const visaCard = page.locator(`#card-${visa.id}`);
      t.equal(await amexCard.locator('.card-mask').textContent(), '***********0005', 'American Express: 15');
      t.equal(await visaCard.locator('.card-mask').textContent(), '************4242', 'others: 16');
      t.ok(await visaCard.getByText('Default', { exact: true }).isVisible(), 'the Visa is the default');
      t.notOk(await visaCard.getByRole('button', { name: /^Remove/ }).isVisible(), 'the default has no remove button');
      await axe('the saved cards');

      // With JavaScript: a refused change is rolled back with the admin's message.
      if (javaScriptEnabled) {
        await page.route(`**${base}/${amex.id}/default`, (route) =>
          route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: { code: 'SavedCards.ChangeDefaultFailed', message: 'That card could not be made this member’s default. Please try again.' } }) }),
        );
        await amexCard.getByRole('button', { name: 'Make default: American Express ending 0005' }).click();
        await page.getByRole('alert').filter({ hasText: 'That card could not be made this member’s default. Please try again.' }).waitFor();
        t.ok(await visaCard.getByText('Default', { exact: true }).isVisible(), 'rolled back: the Visa is the default again');
        t.notOk(await amexCard.getByText('Default', { exact: true }).isVisible());
        await page.unroute(`**${base}/${amex.id}/default`);
      }

      // Make the American Express the default.
      if (javaScriptEnabled) {
        await amexCard.getByRole('button', { name: 'Make default: American Express ending 0005' }).click();
        t.ok(await amexCard.getByText('Default', { exact: true }).isVisible(), 'the change shows at once');
        await page.getByRole('status').filter({ hasText: 'The default card was changed.' }).waitFor();
      } else {
        await Promise.all([page.waitForURL(/alert=saved-card-default/), amexCard.getByRole('button', { name: 'Make default: American Express ending 0005' }).click()]);
        await page.getByText('The default card was changed.').waitFor();
      }
      t.equal(await defaultId(), amex.id, 'saved');
      t.ok(await page.locator(`#card-${visa.id}`).getByRole('button', { name: 'Remove Visa ending 4242' }).isVisible(), 'the old default can now be removed');

      // The authorisation log of the American Express.
      if (javaScriptEnabled) {
        let release: () => void = () => {};
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route(`**${base}/${amex.id}/log?fragment=1`, async (route) => {
          await held;
          await route.continue();
        });
        await page.locator(`#log-${amex.id} > summary`).click();
        await page.locator(`#log-${amex.id} .auth-log-skeleton`).waitFor();
        t.equal(await page.locator(`#log-${amex.id} .auth-log-skeleton tbody tr`).count(), 10, 'a 10-row skeleton while it loads');
        release();
      } else {
        await Promise.all([page.waitForURL(/\?log=/), page.locator(`#log-${amex.id} > summary`).click().then(() => page.getByRole('link', { name: 'Show the authorisation log' }).first().click())]);
      }
      const log = page.locator(`#log-${amex.id}`);
      await log.getByRole('table').waitFor();
      await log.getByText('Approved (code 0)').waitFor();
      await log.getByText('Reversed').waitFor();
      await axe('the auth log open');
      if (javaScriptEnabled) {
        await page.locator(`#log-${amex.id} > summary`).click();
        t.notOk(await log.getByRole('table').isVisible(), 'toggled hidden');
      }

      // Remove the Visa.
      const removeVisa = page.locator(`#card-${visa.id}`).getByRole('button', { name: 'Remove Visa ending 4242' });
      if (javaScriptEnabled) {
        await removeVisa.click();
        t.notOk(await page.locator(`#card-${visa.id}`).isVisible(), 'gone at once');
        await page.getByRole('status').filter({ hasText: 'The card was removed.' }).waitFor();
      } else {
        await Promise.all([page.waitForURL(/alert=saved-card-removed/), removeVisa.click()]);
        await page.getByText('The card was removed.').waitFor();
        t.equal(await page.locator(`#card-${visa.id}`).count(), 0);
      }
      const removed = await db.selectFrom('saved_payments').select('deleted_at').where('id', '=', visa.id).executeTakeFirstOrThrow();
      t.ok(removed.deleted_at, 'removed');
      await axe('after the changes');

      // Add a Mastercard: with JavaScript in the card form (the provider's inputs), without on the hosted page.
      await page.getByRole('heading', { name: 'Add a card' }).waitFor();
      const fillCard = async () => {
        await page.getByLabel('First name').fill('Amara');
        await page.getByLabel('Last name').fill('Okafor');
        await page.getByLabel('Card number').fill(CARDS.mastercard);
        await page.getByLabel('CVV').fill('123');
        await page.getByLabel('Month').fill('07');
        await page.getByLabel('Year').fill('2029');
        await page.getByLabel('Zip code').fill('10001');
      };
      if (javaScriptEnabled) {
        await fillCard();
        await Promise.all([page.waitForURL(/alert=saved-card-added/), page.getByRole('button', { name: 'Add card' }).click()]);
      } else {
        await Promise.all([page.waitForURL(/\/sandbox-pay\/alpha\/hosted/), page.getByRole('button', { name: 'Add card' }).click()]);
        await fillCard();
        await Promise.all([page.waitForURL(/alert=saved-card-added/), page.getByRole('button', { name: 'Continue' }).click()]);
      }
      await page.getByText('The card was added and is now the default.').waitFor();
      const added = await db.selectFrom('saved_payments').select(['id', 'last4']).where('user_id', '=', amara.id).where('is_default', '=', true).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
      t.equal(added.last4, '4444', 'the new card is the default');
      t.ok(await page.locator(`#card-${added.id}`).getByText('Default', { exact: true }).isVisible());
      t.ok(await page.locator(`#card-${amex.id}`).getByRole('button', { name: 'Remove American Express ending 0005' }).isVisible(), 'the old default lost default');
      await axe('after adding a card');
      // The refused change above was forced (409): the browser logs that answer. Without JavaScript the
      // provider's hosted page has no icon of its own, and Chromium's /favicon.ico request is a 404
      // (not a request of any page: page.on('response') never sees it).
      const expected = (p: string) => p.includes('status of 409') || (!javaScriptEnabled && p.includes('status of 404'));
      t.same(problems.filter((p) => !expected(p)), [], 'no page errors');
    });
  }
});
