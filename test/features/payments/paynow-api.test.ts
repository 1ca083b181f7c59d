import t from 'tap';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';
import { CARDS, cardToken, enablePayments } from '#test/helpers/payments.ts';
import { createSubscription } from '#test/helpers/paynow.ts';
import { payBalance } from '#src/features/payments/paynow/service.ts';
import { saveCard } from '#src/features/payments/ledger.ts';
import type { CardProcessor } from '#src/features/payments/processor/types.ts';

t.test('pay-now over REST and GraphQL', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'] });
  const { app } = await startApp(t, db);
  await enablePayments(db, alpha);
  await enablePayments(db, beta);

  let ip = 0;
  /** Each call from its own address unless told: the per-IP limits are tested on their own. */
  const nextIp = () => `198.51.100.${(ip++ % 250) + 1}`;
  const rest = (url: string, body: unknown, headers: Record<string, string> = {}, remoteAddress = nextIp()) =>
    app.inject({ method: 'POST', url, remoteAddress, headers: { 'content-type': 'application/json', ...headers }, payload: typeof body === 'string' ? body : JSON.stringify(body) });
  const gql = (query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}, remoteAddress = nextIp()) =>
    app.inject({ method: 'POST', url: '/graphql', remoteAddress, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });

  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Okafor' });
  const adaSub = await createSubscription(db, alpha, ada.id, { outstandingCents: 600000, nextDunningAt: new Date('2026-11-04T00:00:00Z') });

  await t.test('check-balance answers the spec fields for the right pair', async (t) => {
    const res = await rest('/rest/payment/check-balance', { subscriptionId: adaSub, userId: String(ada.id) });
    t.equal(res.statusCode, 200);
    const body = res.json();
    t.match(body, { memberName: 'Ada Okafor', outstandingBalance: 600000, currency: 'USD', showNoBalanceDue: false, renewalDate: '2027-06-01T00:00:00.000Z' });
    t.match(body.publicKey, /^pk_sandbox_/);
    t.match(body.serverHost, /sandbox-pay$/);
    t.equal(res.headers['cache-control'], 'no-store', 'a member’s name and balance are never stored');
  });

  await t.test('a wrong pair, an unknown one, another community’s and a malformed one get the same answer', async (t) => {
    const bea = await createMember(db, beta);
    const beaSub = await createSubscription(db, beta, bea.id);
    const answers = await Promise.all([
      rest('/rest/payment/check-balance', { subscriptionId: adaSub, userId: ada.id + 1 }),
      rest('/rest/payment/check-balance', { subscriptionId: 'sub_doesnotexist0000', userId: ada.id }),
      rest('/rest/payment/check-balance', { subscriptionId: beaSub, userId: bea.id }),
      rest('/rest/payment/check-balance', { subscriptionId: 'x', userId: 'abc' }),
      rest('/rest/payment/check-balance', {}),
    ]);
    for (const res of answers) {
      t.equal(res.statusCode, 400);
      t.same(res.json(), answers[0]!.json(), 'the same body');
    }
    t.equal(answers[0]!.json().error.code, 'Payments.InvalidMembership');
    const own = await rest('/rest/payment/check-balance', { subscriptionId: beaSub, userId: bea.id }, { host: 'beta.test' });
    t.equal(own.statusCode, 200, 'on its own community’s host the pair is known');
  });

  await t.test('hostile input is refused with a 4xx', async (t) => {
    const cases: Array<[string, unknown]> = [
      ['/rest/payment/check-balance', { subscriptionId: `sub_\u0000abcdefgh`, userId: ada.id }],
      ['/rest/payment/check-balance', { subscriptionId: 'a'.repeat(100_000), userId: ada.id }],
      ['/rest/payment/check-balance', { subscriptionId: adaSub, userId: 1e300 }],
      ['/rest/payment/check-balance', { subscriptionId: { $ne: null }, userId: [1] }],
      ['/rest/payment/check-balance', '{"subscriptionId": '],
      ['/rest/payment/check-balance', '[1,2,3]'],
      ['/rest/payment/pay-balance', { token: 'tok_\u0007bell', userId: ada.id, subscriptionId: adaSub }],
      ['/rest/payment/pay-balance', { token: 'x'.repeat(5000), userId: ada.id, subscriptionId: adaSub }],
      ['/rest/payment/pay-balance', { token: 42, userId: ada.id, subscriptionId: adaSub }],
    ];
    for (const [url, body] of cases) {
      const res = await rest(url, body);
      t.ok(res.statusCode >= 400 && res.statusCode < 500, `${url} ${JSON.stringify(body).slice(0, 60)}: ${res.statusCode}`);
    }
    const badKey = await rest('/rest/payment/pay-balance', { token: 'tok_abcdefghijkl', userId: ada.id, subscriptionId: adaSub }, { 'idempotency-key': 'short' });
    t.equal(badKey.statusCode, 400, 'a malformed Idempotency-Key');
    const sub = await db.selectFrom('subscriptions').selectAll().where('id', '=', adaSub).executeTakeFirstOrThrow();
    t.equal(sub.outstanding_cents, 600000, 'nothing was paid');
  });

  await t.test('a declined card is a 400 with the card message, and changes nothing', async (t) => {
    const token = await cardToken(app, alpha, CARDS.decline);
    const res = await rest('/rest/payment/pay-balance', { token, userId: ada.id, subscriptionId: adaSub });
    t.equal(res.statusCode, 400);
    t.equal(res.json().error.code, 'Payments.Declined');
    t.equal(res.json().error.message, app.t('payments.errors.declined'));
    const sub = await db.selectFrom('subscriptions').selectAll().where('id', '=', adaSub).executeTakeFirstOrThrow();
    t.equal(sub.status, 'past_due');
    t.equal(sub.outstanding_cents, 600000);
  });

  await t.test('an anonymous client pays the balance: one charge, the subscription settled', async (t) => {
    const token = await cardToken(app, alpha, CARDS.visa);
    const res = await rest('/rest/payment/pay-balance', { token, userId: String(ada.id), subscriptionId: adaSub });
    t.equal(res.statusCode, 200);
    const id = res.json().id;
    t.match(id, /^\d+$/);
    const sub = await db.selectFrom('subscriptions').selectAll().where('id', '=', adaSub).executeTakeFirstOrThrow();
    t.match(sub, { status: 'active', outstanding_cents: 0, dunning_count: 0, next_dunning_at: null, past_due_since: null });
    const ledger = await db.selectFrom('payment_ledger').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow();
    t.match(ledger, { kind: 'charge', purpose: 'balance', status: 'succeeded', amount_cents: 600000, subscription_id: adaSub, actor_id: null });
    const statement = await db.selectFrom('statements').selectAll().where('ledger_id', '=', Number(id)).executeTakeFirstOrThrow();
    t.equal(statement.kind, 'dues');

    const again = await rest('/rest/payment/pay-balance', { token: await cardToken(app, alpha), userId: ada.id, subscriptionId: adaSub });
    t.equal(again.statusCode, 200, 'a balance of 0 is marked paid');
    t.equal(again.json().id, id, 'with the payment that paid it');
    const charges = await db.selectFrom('payment_ledger').select('id').where('subscription_id', '=', adaSub).where('kind', '=', 'charge').where('status', '=', 'succeeded').execute();
    t.equal(charges.length, 1, 'and no second charge');

    const balance = await rest('/rest/payment/check-balance', { subscriptionId: adaSub, userId: ada.id });
    t.match(balance.json(), { outstandingBalance: 0, showNoBalanceDue: false }, 'paid lately: the complete view, not no-balance');
  });

  await t.test("someone else paying the balance does not replace the member's default card; the member paying does", async (t) => {
    const fay = await createMember(db, alpha);
    const own = await saveCard(app, { community: alpha, userId: fay.id, actorId: fay.id, token: await cardToken(app, alpha, CARDS.mastercard), idempotencyKey: `fay-own-card-${fay.id}` });
    t.ok(own.ok);
    const sub = await createSubscription(db, alpha, fay.id, { outstandingCents: 5000 });
    const anonymous = await rest('/rest/payment/pay-balance', { token: await cardToken(app, alpha, CARDS.amex), userId: fay.id, subscriptionId: sub });
    t.equal(anonymous.statusCode, 200, 'the balance is paid');
    const cards = await db.selectFrom('saved_payments').select(['card_type', 'is_default']).where('user_id', '=', fay.id).where('deleted_at', 'is', null).orderBy('id').execute();
    t.same(cards, [{ card_type: 'MASTERCARD', is_default: true }, { card_type: 'AMERICAN_EXPRESS', is_default: false }], "the payer's card is kept but is not the default");

    await db.updateTable('subscriptions').set({ outstanding_cents: 7000, status: 'past_due', past_due_since: new Date('2026-11-20T00:00:00Z') }).where('id', '=', sub).execute();
    const { token: bearer } = await signIn(app, fay, alpha);
    const mine = await rest('/rest/payment/pay-balance', { token: await cardToken(app, alpha, CARDS.visa), userId: fay.id, subscriptionId: sub }, { authorization: `Bearer ${bearer}` });
    t.equal(mine.statusCode, 200);
    const after = await db.selectFrom('saved_payments').select(['card_type', 'is_default']).where('user_id', '=', fay.id).where('is_default', '=', true).execute();
    t.same(after, [{ card_type: 'VISA', is_default: true }], "the member's own new card becomes the default");
  });

  await t.test('no balance and never paid: showNoBalanceDue, and paying is refused', async (t) => {
    const cy = await createMember(db, alpha);
    const sub = await createSubscription(db, alpha, cy.id, { status: 'active', outstandingCents: 0 });
    const res = await rest('/rest/payment/check-balance', { subscriptionId: sub, userId: cy.id });
    t.match(res.json(), { outstandingBalance: 0, showNoBalanceDue: true });
    const pay = await rest('/rest/payment/pay-balance', { token: await cardToken(app, alpha), userId: cy.id, subscriptionId: sub });
    t.equal(pay.statusCode, 409);
    t.equal(pay.json().error.code, 'Payments.NoBalanceDue');
  });

  await t.test('the spec’s pay call {token, userId} pays the balance this client checked with check-balance; a user id alone pays nothing', async (t) => {
    const gus = await createMember(db, alpha);
    const sub = await createSubscription(db, alpha, gus.id, { outstandingCents: 31400 });
    const other = await createMember(db, alpha);
    await createSubscription(db, alpha, other.id, { outstandingCents: 100 });
    const address = nextIp();
    const cookieOf = (res: Awaited<ReturnType<typeof rest>>) => res.cookies.filter((c) => c.name === 'paynow_checked').map((c) => `${c.name}=${c.value}`).join('; ');

    const blind = await rest('/rest/payment/pay-balance', { token: await cardToken(app, alpha), userId: gus.id }, {}, address);
    t.equal(blind.statusCode, 400, 'without a checked balance: refused');
    t.equal(blind.json().error.code, 'Payments.InvalidMembership');
    const wrongPair = await rest('/rest/payment/check-balance', { subscriptionId: sub, userId: other.id }, {}, address);
    t.equal(wrongPair.statusCode, 400);
    t.equal(cookieOf(wrongPair), '', 'a wrong pair remembers nothing');

    const check = await rest('/rest/payment/check-balance', { subscriptionId: sub, userId: gus.id }, {}, address);
    t.equal(check.statusCode, 200);
    const cookie = cookieOf(check);
    const set = check.cookies.find((c) => c.name === 'paynow_checked');
    t.match(set, { httpOnly: true, sameSite: 'Strict', maxAge: 1800 }, 'a short-lived, HttpOnly, same-site cookie');
    t.notMatch(decodeURIComponent(set!.value), sub, 'not the subscription id in clear');

    const forOther = await rest('/rest/payment/pay-balance', { token: await cardToken(app, alpha), userId: other.id }, { cookie }, address);
    t.equal(forOther.statusCode, 400, 'another user id than the one checked');
    const forged = await rest('/rest/payment/pay-balance', { token: await cardToken(app, alpha), userId: gus.id }, { cookie: cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) }, address);
    t.equal(forged.statusCode, 400, 'a tampered cookie');
    const onBeta = await rest('/rest/payment/pay-balance', { token: await cardToken(app, beta), userId: gus.id }, { cookie, host: 'beta.test' }, address);
    t.equal(onBeta.statusCode, 400, 'another community');

    const paid = await rest('/rest/payment/pay-balance', { token: await cardToken(app, alpha), userId: String(gus.id) }, { cookie }, address);
    t.equal(paid.statusCode, 200, 'exactly the spec’s payload');
    t.match(paid.json(), { id: /^\d+$/ });
    const row = await db.selectFrom('payment_ledger').select(['subscription_id', 'amount_cents', 'actor_id']).where('id', '=', Number(paid.json().id)).executeTakeFirstOrThrow();
    t.same(row, { subscription_id: sub, amount_cents: 31400, actor_id: null }, 'the checked balance, paid anonymously');

    const ivy = await createMember(db, alpha);
    const ivySub = await createSubscription(db, alpha, ivy.id, { outstandingCents: 7700 });
    const page = await app.inject({ url: `/pay-now?userId=${ivy.id}&subscriptionId=${encodeURIComponent(ivySub)}`, remoteAddress: address });
    t.equal(page.statusCode, 200);
    const fromPage = await rest('/rest/payment/pay-balance', { token: await cardToken(app, alpha), userId: ivy.id }, { cookie: cookieOf(page) }, address);
    t.equal(fromPage.statusCode, 200, 'the balance the pay-now page showed is the one the spec’s pay call pays');
    const ivyAfter = await db.selectFrom('subscriptions').select('outstanding_cents').where('id', '=', ivySub).executeTakeFirstOrThrow();
    t.equal(ivyAfter.outstanding_cents, 0);

  });

  await t.test('without a subscriptionId or a checked balance only the signed-in member pays their own', async (t) => {
    const dee = await createMember(db, alpha);
    const sub = await createSubscription(db, alpha, dee.id, { outstandingCents: 12500 });
    const anonymous = await rest('/rest/payment/pay-balance', { token: await cardToken(app, alpha), userId: dee.id });
    t.equal(anonymous.statusCode, 400);
    t.equal(anonymous.json().error.code, 'Payments.InvalidMembership');
    const { token: bearer } = await signIn(app, dee, alpha);
    const stranger = await createMember(db, alpha);
    const notMine = await rest('/rest/payment/pay-balance', { token: await cardToken(app, alpha), userId: stranger.id }, { authorization: `Bearer ${bearer}` });
    t.equal(notMine.statusCode, 400, 'another member’s user id');
    const mine = await rest('/rest/payment/pay-balance', { token: await cardToken(app, alpha), userId: dee.id }, { authorization: `Bearer ${bearer}` });
    t.equal(mine.statusCode, 200);
    const row = await db.selectFrom('payment_ledger').selectAll().where('id', '=', Number(mine.json().id)).executeTakeFirstOrThrow();
    t.equal(row.actor_id, dee.id, 'the member pressed pay');
    t.equal(row.subscription_id, sub);
  });

  await t.test('GraphQL: anonymous, cookie with CSRF, and bearer clients', async (t) => {
    const eve = await createMember(db, alpha, { firstName: 'Eve', lastName: 'Adeyemi' });
    const sub = await createSubscription(db, alpha, eve.id, { outstandingCents: 4200 });
    const balanceQuery = 'query B($s: ID!, $u: ID!) { subscriptionBalance(subscriptionId: $s, userId: $u) { memberName outstandingBalance currency showNoBalanceDue renewalDate publicKey serverHost } }';
    const anonymous = await gql(balanceQuery, { s: sub, u: String(eve.id) });
    t.equal(anonymous.statusCode, 200);
    t.match(anonymous.json().data.subscriptionBalance, { memberName: 'Eve Adeyemi', outstandingBalance: 4200, showNoBalanceDue: false });
    const wrong = await gql(balanceQuery, { s: sub, u: String(ada.id) });
    t.equal(wrong.json().errors[0].extensions.code, 'Payments.InvalidMembership');

    // A past-due member's first page is the dunning page (gate.ts): it carries the CSRF token too.
    const browser = await csrfFor(app, (await signIn(app, eve, alpha)).cookie, '/billing/overdue');
    const me = await gql('{ me { subscription { outstandingBalance currency status } } }', {}, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.same(me.json().data.me.subscription, { outstandingBalance: 4200, currency: 'USD', status: 'PAST_DUE' });
    const pay = 'mutation P($u: ID!, $t: String!, $s: ID) { paySubscriptionByToken(userId: $u, token: $t, subscriptionId: $s) }';
    const noCsrf = await gql(pay, { u: String(eve.id), t: await cardToken(app, alpha), s: sub }, { cookie: browser.cookie });
    t.equal(noCsrf.statusCode, 403, 'our cookies without the CSRF token are refused');
    const declined = await gql(pay, { u: String(eve.id), t: await cardToken(app, alpha, CARDS.decline), s: sub }, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.equal(declined.json().errors[0].extensions.code, 'Payments.Declined', 'a refused card: its code');
    const viaCookie = await gql(pay, { u: String(eve.id), t: await cardToken(app, alpha), s: sub }, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.match(viaCookie.json().data.paySubscriptionByToken, /^\d+$/);

    const hal = await createMember(db, alpha);
    const hsub = await createSubscription(db, alpha, hal.id, { outstandingCents: 2500 });
    const checked = await gql(balanceQuery, { s: hsub, u: String(hal.id) });
    const jar = checked.cookies.filter((c) => c.name === 'paynow_checked').map((c) => `${c.name}=${c.value}`).join('; ');
    t.ok(jar, 'subscriptionBalance remembers the pair it checked');
    const asSpec = 'mutation P($u: ID!, $t: String!) { paySubscriptionByToken(userId: $u, token: $t) }';
    const blind = await gql(asSpec, { u: String(hal.id), t: await cardToken(app, alpha) });
    t.equal(blind.json().errors[0].extensions.code, 'Payments.InvalidMembership', 'paySubscriptionByToken(userId, token) without a checked balance: refused');
    const paidAsSpec = await gql(asSpec, { u: String(hal.id), t: await cardToken(app, alpha) }, { cookie: jar });
    t.match(paidAsSpec.json().data?.paySubscriptionByToken, /^\d+$/, 'paySubscriptionByToken(userId, token) pays the balance the client checked');
    const hrow = await db.selectFrom('subscriptions').select('outstanding_cents').where('id', '=', hsub).executeTakeFirstOrThrow();
    t.equal(hrow.outstanding_cents, 0);

    const fay = await createMember(db, alpha);
    const fsub = await createSubscription(db, alpha, fay.id, { outstandingCents: 9900 });
    const bearer = { authorization: `Bearer ${(await signIn(app, fay, alpha)).token}` };
    const viaBearer = await gql(pay, { u: String(fay.id), t: await cardToken(app, alpha) }, bearer);
    t.match(viaBearer.json().data?.paySubscriptionByToken, /^\d+$/, 'a bearer client pays its own without the subscription id');
    const after = await gql('{ me { subscription { outstandingBalance status } } }', {}, bearer);
    t.same(after.json().data.me.subscription, { outstandingBalance: 0, status: 'ACTIVE' });
    const row = await db.selectFrom('subscriptions').select('status').where('id', '=', fsub).executeTakeFirstOrThrow();
    t.equal(row.status, 'active');
    const visitorMe = await gql('{ me { subscription { outstandingBalance } } }', {});
    t.equal(visitorMe.json().data.me, null, 'a visitor has no me');
  });

  await t.test('50 payers submitting twice at once with the same key: zero double charges', async (t) => {
    const payers = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const m = await createMember(db, alpha);
        const sub = await createSubscription(db, alpha, m.id, { outstandingCents: 10000 + i });
        return { m, sub, token: await cardToken(app, alpha), key: `bench-key-${i}-${m.id}`, ip: `192.0.2.${i + 1}` };
      }),
    );
    const answers = await Promise.all(
      payers.flatMap((p) =>
        [0, 1].map(() => rest('/rest/payment/pay-balance', { token: p.token, userId: p.m.id, subscriptionId: p.sub }, { 'idempotency-key': p.key }, p.ip)),
      ),
    );
    t.ok(answers.every((r) => r.statusCode === 200), `all answered 200 (${[...new Set(answers.map((r) => r.statusCode))].join(', ')})`);
    for (let i = 0; i < payers.length; i++) t.equal(answers[2 * i]!.json().id, answers[2 * i + 1]!.json().id, `payer ${i}: one payment id for both`);
    const processorCharges = await db.selectFrom('sandbox_transactions').select(['idempotency_key']).where('kind', '=', 'charge').where('sub_domain', '=', alpha.code).execute();
    for (let i = 0; i < payers.length; i++) {
      const mine = processorCharges.filter((c) => c.idempotency_key.startsWith(`charge:${alpha.id}:${payers[i]!.m.id}:`));
      t.equal(mine.length, 1, `one charge at the processor for payer ${i}`);
    }
    const settled = await db.selectFrom('payment_ledger').select('subscription_id').where('kind', '=', 'charge').where('status', '=', 'succeeded').where('subscription_id', 'in', payers.map((p) => p.sub)).execute();
    t.equal(settled.length, 50, 'one settled charge per subscription');
  });

  await t.test('two tabs paying one balance at once, each with its own key and card: one charge', async (t) => {
    const m = await createMember(db, alpha);
    const sub = await createSubscription(db, alpha, m.id, { outstandingCents: 25000 });
    const [tokenA, tokenB] = [await cardToken(app, alpha), await cardToken(app, alpha, CARDS.mastercard)];
    const [a, b] = await Promise.all([
      rest('/rest/payment/pay-balance', { token: tokenA, userId: m.id, subscriptionId: sub }, { 'idempotency-key': 'tab-a-key-0001' }),
      rest('/rest/payment/pay-balance', { token: tokenB, userId: m.id, subscriptionId: sub }, { 'idempotency-key': 'tab-b-key-0002' }),
    ]);
    t.equal(a.statusCode, 200);
    t.equal(b.statusCode, 200);
    t.equal(a.json().id, b.json().id, 'both are told the one payment');
    const processorCharges = await db.selectFrom('sandbox_transactions').select('id').where('kind', '=', 'charge').where('idempotency_key', 'like', `charge:${alpha.id}:${m.id}:%`).execute();
    t.equal(processorCharges.length, 1, 'one charge at the processor');
    const settled = await db.selectFrom('payment_ledger').select('id').where('subscription_id', '=', sub).where('kind', '=', 'charge').where('status', '=', 'succeeded').execute();
    t.equal(settled.length, 1, 'one settled charge');
    const row = await db.selectFrom('subscriptions').select(['outstanding_cents', 'status']).where('id', '=', sub).executeTakeFirstOrThrow();
    t.match(row, { outstanding_cents: 0, status: 'active' });

    // The same, with a slow processor: both tabs have read the balance before either charge answers.
    const m2 = await createMember(db, alpha);
    const sub2 = await createSubscription(db, alpha, m2.id, { outstandingCents: 26000 });
    const slow = Object.assign(Object.create(app.cardProcessor), {
      charge: async (input: Parameters<CardProcessor['charge']>[0]) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return app.cardProcessor.charge(input);
      },
    }) as CardProcessor;
    const slowApp = { db: app.db, clock: app.clock, t: app.t, cardProcessor: slow };
    const ref = { subscriptionId: sub2, userId: m2.id };
    const [x, y] = await Promise.all([
      payBalance(slowApp, alpha, { ref, actorId: null, idempotencyKey: 'tab-x-key-0001', source: { token: await cardToken(app, alpha) } }),
      payBalance(slowApp, alpha, { ref, actorId: null, idempotencyKey: 'tab-y-key-0002', source: { token: await cardToken(app, alpha, CARDS.mastercard) } }),
    ]);
    t.match(x, { status: 'paid' });
    t.same(y, x, 'both tabs are told the one payment');
    const charged2 = await db.selectFrom('sandbox_transactions').select('id').where('kind', '=', 'charge').where('idempotency_key', 'like', `charge:${alpha.id}:${m2.id}:%`).execute();
    t.equal(charged2.length, 1, 'one charge at the processor with a slow processor');
  });

  await t.test('a refused card, then a good one: the second card pays', async (t) => {
    const m = await createMember(db, alpha);
    const sub = await createSubscription(db, alpha, m.id, { outstandingCents: 27000 });
    const ref = { subscriptionId: sub, userId: m.id };
    const refused = await payBalance(app, alpha, { ref, actorId: null, idempotencyKey: 'same-form-key-01', source: { token: await cardToken(app, alpha, CARDS.decline) } });
    t.match(refused, { status: 'refused', code: 'declined' });
    const paid = await payBalance(app, alpha, { ref, actorId: null, idempotencyKey: 'same-form-key-01', source: { token: await cardToken(app, alpha) } });
    t.match(paid, { status: 'paid' }, 'even under the same client key');
  });

  await t.test('the calls are limited per address', async (t) => {
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) statuses.push((await rest('/rest/payment/check-balance', { subscriptionId: adaSub, userId: ada.id }, {}, '203.0.113.99')).statusCode);
    t.equal(statuses.filter((s) => s === 200).length, 30, '30 lookups a minute');
    t.equal(statuses.at(-1), 429, 'then 429');
    const gqlLimited = await gql('query { subscriptionBalance(subscriptionId: "sub_abcdefghijk", userId: "1") { outstandingBalance } }', {}, {}, '203.0.113.99');
    t.equal(gqlLimited.json().errors[0].extensions.code, 'RateLimited', 'GraphQL counts with REST');
    const elsewhere = await rest('/rest/payment/check-balance', { subscriptionId: adaSub, userId: ada.id }, {}, '203.0.113.100');
    t.equal(elsewhere.statusCode, 200, 'another address is not limited');
  });
});
