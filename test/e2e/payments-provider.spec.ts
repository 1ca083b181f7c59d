import t from 'tap';
import type { AddressInfo } from 'node:net';
import { createElement } from 'react';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { buildApp } from '#src/app.ts';
import { hostedPageAddress, newIdempotencyKey, readHostedReturn, type CheckoutState } from '#src/features/payments/checkout.ts';
import { loadPaymentSite } from '#src/features/payments/queries.ts';
import { cardFormLogos } from '#src/features/payments/cards.ts';
import { CardForm } from '#src/features/payments/views/payments/CardForm.tsx';
import { setupDatabase, testConfig } from '#test/helpers/app.ts';
import { collectPageProblems, expectNoAxeViolations, expectNoSidewaysScroll, expectReflowAndAxeAtPhoneWidths, launchBrowser, openContext } from '#test/helpers/browser.ts';
import { createCommunity } from '#test/helpers/factories.ts';
import { CARDS, enablePayments } from '#test/helpers/payments.ts';

// Whole journeys with JavaScript on and off, axe on every step: minutes on a busy machine.
t.setTimeout(8 * 60_000);

const PHONE_320 = { width: 320, height: 640 };
const PHONE_375 = { width: 375, height: 740 };

/**
 * The card form and Sandbox Pay in Chromium, on a test-only page of the contract's shape: a form
 * that posts a token (JavaScript on) or goes through the hosted page (JavaScript off), and a return
 * handler that reads the signed return. Each saves the card at the processor and says so.
 */
t.test('the card form and the sandbox provider in the browser', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const community = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle' });
  await enablePayments(db, community);

  await t.test('pages', async (t) => {
    const app: FastifyInstance = await buildApp({ config: testConfig({ DEFAULT_COMMUNITY: 'alpha' }), db });
    const saved: string[] = [];
    const save = async (request: FastifyRequest, token: string, key: string) => {
      const site = (await loadPaymentSite(app.db, request.community))!;
      const outcome = await app.cardProcessor.createPaymentProfile({ site, customerRef: 'c-e2e', token, idempotencyKey: `e2e:${key}` });
      const text = outcome.ok ? `Saved card ending ${outcome.card.last4}` : `Refused: ${outcome.code}`;
      saved.push(text);
      return createElement('p', { role: 'status' }, text);
    };
    await app.register(async (a) => {
      a.get('/test-card-form', { config: { access: 'public' } }, async (request, reply) => {
        const site = (await loadPaymentSite(a.db, request.community))!;
        const body = createElement(
          'section',
          null,
          createElement('h1', null, 'Add a card'),
          createElement(CardForm, { action: '/test-card-form', idempotencyKey: newIdempotencyKey(), processor: a.cardProcessor.browserSettings(site), logos: cardFormLogos(site.acceptedCards), submitLabel: 'Save card', hidden: { plan: '12' } }),
        );
        return reply.page({ title: 'Add a card', body });
      });
      a.post('/test-card-form', { config: { access: 'public' } }, async (request, reply) => {
        const b = request.body as Record<string, string>;
        if (b.token) return reply.page({ title: 'Card', body: await save(request, b.token, b.idempotencyKey!) });
        const site = (await loadPaymentSite(a.db, request.community))!;
        const state: CheckoutState = { communityId: request.community.id, purpose: 'e2e', idempotencyKey: b.idempotencyKey!, returnPath: '/test-card-form/return', data: { plan: b.plan ?? '' } };
        return reply.redirect(hostedPageAddress(a, request, site, state), 303);
      });
      a.get('/test-card-form/return', { config: { access: 'public' } }, async (request, reply) => {
        const back = readHostedReturn(a, request);
        if (!back) return reply.code(400).send('bad return');
        return reply.page({ title: 'Card', body: await save(request, back.token, back.state.idempotencyKey) });
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    t.teardown(() => app.close());
    const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const browser = await browserReady;
    const year = String(new Date().getUTCFullYear() + 2);

    await t.test('JavaScript on: the provider mounts the inputs, refuses invalid fields, and the form posts only a token', async (t) => {
      for (const viewport of [PHONE_320]) {
        const context = await openContext(t, browser, baseUrl, { viewport });
        const page = await context.newPage();
        const problems = collectPageProblems(page);
        const posted: string[] = [];
        page.on('request', (r) => {
          if (r.method() === 'POST' && new URL(r.url()).pathname === '/test-card-form') posted.push(r.postData() ?? '');
        });
        await page.goto('/test-card-form');
        await page.getByLabel('Card number').waitFor();
        t.equal(await page.locator('[data-card-mount] input[name]').count(), 0, 'the card inputs have no name');
        t.equal(await page.getByText('and more...').count(), 1, 'three logos, then and more...');
        await expectNoAxeViolations(t, page, `the card form at ${viewport.width}`);
        await expectNoSidewaysScroll(t, page, `the card form at ${viewport.width}`);

        await page.getByLabel('First name').fill('Amara');
        await page.getByLabel('Card number').fill('4242 4242 4242 4241');
        await page.getByRole('button', { name: 'Save card' }).click();
        await page.getByText('Enter valid information for the following input(s): Last name, Card number, CVV, Month, Year, Zip code.').waitFor();
        t.equal(await page.getByLabel('Card number').getAttribute('aria-invalid'), 'true', 'the field is marked');
        await expectNoAxeViolations(t, page, `the card form with its message at ${viewport.width}`);

        await page.getByLabel('Last name').fill('Okafor');
        await page.getByLabel('Card number').fill(CARDS.visa);
        await page.getByLabel('CVV').fill('123');
        await page.getByLabel('Month').fill('12');
        await page.getByLabel('Year').fill(year);
        await page.getByLabel('Zip code').fill('10001');
        await Promise.all([page.waitForURL('**/test-card-form'), page.getByRole('button', { name: 'Save card' }).click()]);
        await page.getByText('Saved card ending 4242').waitFor();
        t.equal(posted.length, 1, 'one post');
        t.match(posted[0], /(^|&)token=tok_/, 'it carries the token');
        t.notMatch(posted[0], /4242424242424242|cvv|number=/i, 'and no card data');
        // The provider answers invalid fields with a 422, which Chromium reports as a failed resource: expected.
        t.same(problems.filter((p) => !/status of 422/.test(p)), [], 'no page errors');
      }
    });

    await t.test('JavaScript on, a card that needs the challenge: approve, and back with the card', async (t) => {
      const context = await openContext(t, browser, baseUrl, { viewport: PHONE_375 });
      const page = await context.newPage();
      await page.goto('/test-card-form');
      await page.getByLabel('Card number').waitFor();
      await expectNoSidewaysScroll(t, page, 'the card form at 375');
      for (const [label, value] of [['First name', 'Amara'], ['Last name', 'Okafor'], ['Card number', CARDS.challenge], ['CVV', '123'], ['Month', '12'], ['Year', year], ['Zip code', '10001']] as const) await page.getByLabel(label).fill(value);
      await Promise.all([page.waitForURL('**/sandbox-pay/challenge/**'), page.getByRole('button', { name: 'Save card' }).click()]);
      await page.getByRole('heading', { name: 'Confirm this payment' }).waitFor();
      await expectNoAxeViolations(t, page, 'the challenge page');
      await expectNoSidewaysScroll(t, page, 'the challenge page at 375');
      await Promise.all([page.waitForURL('**/test-card-form/return?**'), page.getByRole('button', { name: 'Approve' }).click()]);
      await page.getByText('Saved card ending 3220').waitFor();
      t.pass('approved and saved');
    });

    await t.test("the provider's script does not load: the message, a log entry, and the hosted page still works", async (t) => {
      const context = await openContext(t, browser, baseUrl, { viewport: PHONE_375 });
      const page = await context.newPage();
      await page.route('**/sandbox-pay/js/card.js', (route) => route.abort());
      const before = await db.selectFrom('payment_error_logs').select('id').where('source', '=', 'script').execute();
      await page.goto('/test-card-form');
      await page.getByText('It looks like we encountered an error.').waitFor();
      await expectNoAxeViolations(t, page, 'the card form without its script');
      await t.resolves(
        (async () => {
          for (let i = 0; i < 50; i++) {
            const rows = await db.selectFrom('payment_error_logs').select(['id', 'category', 'message']).where('source', '=', 'script').orderBy('id').execute();
            if (rows.length > before.length) {
              const row = rows.at(-1)!;
              t.equal(row.category, 'Payment', 'spec section 7: category Payment');
              t.match(row.message, /^load: /, 'the stage leads the error text');
              return;
            }
            await new Promise((r) => setTimeout(r, 100));
          }
          throw new Error('no log entry');
        })(),
        'the script error is logged',
      );
      await Promise.all([page.waitForURL('**/sandbox-pay/alpha/hosted?**'), page.getByRole('button', { name: 'Save card' }).click()]);
      t.pass('the form falls back to the hosted page');
    });

    await t.test('JavaScript off: no card inputs, the hosted page takes the card, errors next to fields, and back', async (t) => {
      // One walk, each page checked at 375 and 320 px in turn.
      const context = await openContext(t, browser, baseUrl, { viewport: PHONE_375, javaScriptEnabled: false });
      const page = await context.newPage();
      const check = (what: string) => expectReflowAndAxeAtPhoneWidths(t, page, what, { browser, javaScriptEnabled: false, widths: [375, 320] });
      await page.goto('/test-card-form');
      await page.getByText('secure page').waitFor();
      t.equal(await page.locator('form input:not([type="hidden"])').count(), 0, 'no card inputs on our page');
      await check('the card form without JavaScript');
      await Promise.all([page.waitForURL('**/sandbox-pay/alpha/hosted?**'), page.getByRole('button', { name: 'Save card' }).click()]);
      await page.getByRole('heading', { name: 'Pay by card' }).waitFor();
      await check('the hosted page');

      await page.getByLabel('First name').fill('Amara');
      await page.getByLabel('Last name').fill('Okafor');
      await page.getByLabel('Card number').fill('1234');
      await Promise.all([page.waitForLoadState('domcontentloaded'), page.getByRole('button', { name: 'Continue' }).click()]);
      await page.getByText('Enter valid information for the following input(s): Card number, CVV, Month, Year, Zip code.').waitFor();
      await page.getByText('Enter a valid card number.').waitFor();
      t.equal(await page.getByLabel('Last name').inputValue(), 'Okafor', 'what was typed is kept');
      t.equal(await page.getByLabel('Card number').inputValue(), '', 'but not the number');
      await check('the hosted page with errors');

      await page.getByLabel('Card number').fill(CARDS.mastercard);
      await page.getByLabel('CVV').fill('123');
      await page.getByLabel('Month').fill('12');
      await page.getByLabel('Year').fill(year);
      await page.getByLabel('Zip code').fill('10001');
      await Promise.all([page.waitForURL('**/test-card-form/return?**'), page.getByRole('button', { name: 'Continue' }).click()]);
      await page.getByText('Saved card ending 4444').waitFor();
      t.pass('saved through the hosted page at 320');
    });
  });
});
