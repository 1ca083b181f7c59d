import t from 'tap';
import { buyAmplification, listActivePackages, offersAmplification } from '#src/features/payments/amplify.ts';
import { saveCard } from '#src/features/payments/ledger.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';
import { createArticle } from '#test/helpers/members-profiles.ts';
import { CARDS, cardToken, enablePayments } from '#test/helpers/payments.ts';

const KEY = (s: string) => `amplify-test-key-${s}`.padEnd(20, 'x');

t.test('amplification', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'] });
  const gamma = await createCommunity(db, { code: 'gamma', hosts: ['gamma.test'] });
  const { app } = await startApp(t, db, { clock });
  await enablePayments(db, alpha);
  await enablePayments(db, beta);
  const [spotlight, feature, retired] = await db
    .insertInto('amplification_packages')
    .values([
      { community_id: alpha.id, name: 'Spotlight', description: 'Featured in the weekly member newsletter.', price_cents: 49900, sort_order: 1 },
      { community_id: alpha.id, name: 'Feature', description: 'A week on the home page and two social posts.', price_cents: 129900, sort_order: 2 },
      { community_id: alpha.id, name: 'Old package', description: 'No longer sold.', price_cents: 100, sort_order: 3, active: false },
    ])
    .returning('id')
    .execute();
  // Priced in euros while the site charges dollars: neither listed nor sold.
  const [euroPackage] = await db
    .insertInto('amplification_packages')
    .values([{ community_id: alpha.id, name: 'Euro boost', description: 'Priced in euros.', price_cents: 9900, currency: 'EUR', sort_order: 0 }])
    .returning('id')
    .execute();
  const [betaPackage] = await db.insertInto('amplification_packages').values([{ community_id: beta.id, name: 'Beta boost', description: 'Beta only.', price_cents: 1000 }]).returning('id').execute();

  const amara = await createMember(db, alpha, { firstName: 'Amara', lastName: 'Okafor' });
  const bob = await createMember(db, alpha, { firstName: 'Bob', lastName: 'Other' });
  const bea = await createMember(db, beta, { firstName: 'Bea', lastName: 'Beta' });
  const gil = await createMember(db, gamma, { firstName: 'Gil', lastName: 'Gamma' });
  const live = await createArticle(db, alpha, amara.id, 'Leading Through Change');
  const draft = await createArticle(db, alpha, amara.id, 'Still Drafting', 'DRAFT');
  const bobs = await createArticle(db, alpha, bob.id, 'Bob Writes');
  const beas = await createArticle(db, beta, bea.id, 'Beta Piece');
  const gils = await createArticle(db, gamma, gil.id, 'Gamma Piece');
  await db.insertInto('article_agreements').values({ community_id: alpha.id, user_id: amara.id, kind: 'PRODUCT', article_id: null, created_at: clock.now() }).execute();

  const saved = await saveCard(app, { community: alpha, userId: amara.id, actorId: amara.id, token: await cardToken(app, alpha, CARDS.visa), idempotencyKey: 'amplify-saved-card-1' });
  if (!saved.ok) throw new Error('card');

  const session = async (user: { id: number }, community = alpha) => csrfFor(app, (await signIn(app, user, community)).cookie, '/settings/billing');
  const me = await session(amara);
  const get = (url: string, jar = me, host?: string) => app.inject({ url, headers: { cookie: jar.cookie, accept: 'text/html', ...(host ? { host } : {}) } });
  const post = (url: string, fields: Record<string, string>, jar = me) =>
    app.inject({
      method: 'POST',
      url,
      headers: { cookie: jar.cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      payload: new URLSearchParams({ _csrf: jar.token, ...fields }).toString(),
    });
  const orders = () => db.selectFrom('amplification_orders').selectAll().where('article_id', '=', live).execute();
  const charges = (key: string) => db.selectFrom('sandbox_transactions').select('id').where('kind', '=', 'charge').where('idempotency_key', 'like', `%${key}`).execute();

  await t.test('the page: one’s own published article, the active packages with prices', async (t) => {
    const res = await get(`/articles/amplify/${live}`);
    t.equal(res.statusCode, 200);
    t.match(res.body, 'Amplify your article');
    t.match(res.body, 'Leading Through Change');
    t.match(res.body, 'Spotlight');
    t.match(res.body, 'Featured in the weekly member newsletter.');
    t.match(res.body, '$499.00');
    t.match(res.body, 'Feature');
    t.match(res.body, '$1,299.00');
    t.notMatch(res.body, 'Old package', 'inactive packages are not offered');
    t.notMatch(res.body, 'Beta boost', 'another community’s packages are not offered');
    t.notMatch(res.body, 'Euro boost', 'a package in another currency than the site’s is not offered');
    t.notMatch(res.body, 'Pay with', 'no payment before a package is chosen');
  });

  await t.test('choosing a package shows the payment: the default card in one click', async (t) => {
    const res = await get(`/articles/amplify/${live}?package=${spotlight!.id}`);
    t.equal(res.statusCode, 200);
    t.match(res.body, 'Pay $499.00 for Spotlight');
    t.match(res.body, 'Pay with Visa ending 4242');
    t.match(res.body, new RegExp(`id="package-${spotlight!.id}"[^>]*checked`), 'the choice is kept');
    for (const bad of ['abc', '0', String(retired!.id), String(betaPackage!.id), '99999999999', '%00']) {
      const r = await get(`/articles/amplify/${live}?package=${bad}`);
      t.equal(r.statusCode, 400, `package ${bad}: 400`);
      t.match(r.body, 'Choose one of the packages offered.');
    }
  });

  await t.test('only one’s own published article: others 404, one’s draft says why', async (t) => {
    t.equal((await get(`/articles/amplify/${bobs}`)).statusCode, 404, 'another member’s');
    t.equal((await get(`/articles/amplify/${beas}`)).statusCode, 404, 'another community’s');
    const d = await get(`/articles/amplify/${draft}`);
    t.equal(d.statusCode, 409, 'one’s own draft');
    t.match(d.body, 'Only a published article can be amplified.');
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999', '%00', `${live}x`]) t.equal((await get(`/articles/amplify/${bad}`)).statusCode, 404, `${bad}: 404`);
    t.equal((await post(`/articles/amplify/${bobs}`, { packageId: String(spotlight!.id), savedPaymentId: String(saved.savedPayment.id), idempotencyKey: KEY('bobs') })).statusCode, 404, 'no buying for another’s article');
    const g = { cookie: (await signIn(app, gil, gamma)).cookie, token: '' };
    t.equal((await get(`/articles/amplify/${gils}`, g, 'gamma.test')).statusCode, 404, 'a community without payments: 404');
    const anon = await app.inject({ url: `/articles/amplify/${live}`, headers: { accept: 'text/html' } });
    t.ok([302, 303].includes(anon.statusCode), 'signed out: to sign in');
  });

  await t.test('pay with the saved card: one charge, the order, the statement, the page shows it', async (t) => {
    const res = await post(`/articles/amplify/${live}`, { packageId: String(spotlight!.id), savedPaymentId: String(saved.savedPayment.id), idempotencyKey: KEY('saved') });
    t.equal(res.statusCode, 303, res.body.slice(0, 300));
    t.equal(res.headers.location, `/articles/amplify/${live}?alert=amplify-purchased`);
    const [order] = await orders();
    t.ok(order, 'an order');
    t.equal(order?.package_id, spotlight!.id);
    const ledger = await db.selectFrom('payment_ledger').selectAll().where('id', '=', order!.ledger_id).executeTakeFirstOrThrow();
    t.equal(ledger.purpose, 'amplification');
    t.equal(ledger.amount_cents, 49900);
    const statement = await db.selectFrom('statements').selectAll().where('ledger_id', '=', order!.ledger_id).executeTakeFirstOrThrow();
    t.equal(statement.kind, 'amplification');
    t.equal(statement.name, 'Amplification: Spotlight for “Leading Through Change”');
    t.equal(statement.payment_method, 'Visa ending 4242');
    const page = await get(res.headers.location as string);
    t.match(page.body, 'Your amplification is booked.');
    t.match(page.body, 'This article is amplified');
    t.match(page.body, 'Spotlight, bought Nov 21, 2026 ($499.00)');
    const billing = await get('/settings/billing');
    t.match(billing.body, 'Amplification: Spotlight for “Leading Through Change”', 'on the billing page');
  });

  await t.test('a double submit charges once', async (t) => {
    const fields = { packageId: String(feature!.id), savedPaymentId: String(saved.savedPayment.id), idempotencyKey: KEY('double') };
    const results = await Promise.all([post(`/articles/amplify/${live}`, fields), post(`/articles/amplify/${live}`, fields), post(`/articles/amplify/${live}`, fields)]);
    t.same(results.map((r) => r.statusCode), [303, 303, 303], 'every submit lands on the confirmation');
    t.equal((await charges(KEY('double'))).length, 1, 'one charge at the processor');
    t.equal((await orders()).filter((o) => o.package_id === feature!.id).length, 1, 'one order');
  });

  await t.test('pay with a new card (a token): saved as the default, charged', async (t) => {
    const res = await post(`/articles/amplify/${live}`, { packageId: String(spotlight!.id), token: await cardToken(app, alpha, CARDS.mastercard), idempotencyKey: KEY('token') });
    t.equal(res.statusCode, 303);
    t.equal((await orders()).length, 3);
    const page = await get(`/articles/amplify/${live}?package=${spotlight!.id}`);
    t.match(page.body, 'Pay with Mastercard ending 4444', 'the new card is the default now');
  });

  await t.test('a refused card shows the error inline and keeps the choice', async (t) => {
    const before = (await orders()).length;
    const res = await post(`/articles/amplify/${live}`, { packageId: String(feature!.id), token: await cardToken(app, alpha, CARDS.decline), idempotencyKey: KEY('declined') });
    t.equal(res.statusCode, 400);
    t.match(res.body, 'Your card was declined. Please use another card.');
    t.match(res.body, /role="alert"/);
    t.match(res.body, 'Pay $1,299.00 for Feature', 'the package is kept');
    t.match(res.body, new RegExp(`id="package-${feature!.id}"[^>]*checked`));
    t.notMatch(res.body, KEY('declined'), 'a fresh key for the next try');
    t.equal((await orders()).length, before, 'no order');
  });

  await t.test('a processor failure keeps the key: the retry asks about the same charge and charges once', async (t) => {
    const before = (await orders()).length;
    const processor = app.cardProcessor as { charge: typeof app.cardProcessor.charge };
    const real = processor.charge;
    // The processor charged, but its answer was lost (a timeout).
    processor.charge = async function (this: typeof app.cardProcessor, input) {
      await real.call(this, input);
      return { ok: false, code: 'processing', authorisation: null };
    };
    const fields = { packageId: String(spotlight!.id), savedPaymentId: String(saved.savedPayment.id), idempotencyKey: KEY('timeout') };
    let res;
    try {
      res = await post(`/articles/amplify/${live}`, fields);
    } finally {
      processor.charge = real;
    }
    t.equal(res.statusCode, 502);
    t.match(res.body, 'There was a problem processing your payment. Please try again.');
    t.match(res.body, KEY('timeout'), 'the form keeps its key');
    const retried = await post(`/articles/amplify/${live}`, fields);
    t.equal(retried.statusCode, 303, 'the retry finds the charge');
    t.equal((await charges(KEY('timeout'))).length, 1, 'one charge at the processor');
    t.equal((await orders()).length, before + 1, 'one order');
  });

  await t.test('hostile input is 4xx', async (t) => {
    const base = { packageId: String(spotlight!.id), savedPaymentId: String(saved.savedPayment.id), idempotencyKey: KEY('hostile') };
    const cases: [string, Record<string, string>][] = [
      ['no package', { ...base, packageId: '' }],
      ['a word for a package', { ...base, packageId: 'spotlight' }],
      ['a retired package', { ...base, packageId: String(retired!.id) }],
      ['another community’s package', { ...base, packageId: String(betaPackage!.id) }],
      ['a package in another currency than the site’s', { ...base, packageId: String(euroPackage!.id) }],
      ['a short key', { ...base, idempotencyKey: 'short' }],
      ['a NUL in the key', { ...base, idempotencyKey: `${KEY('nul')}\u0000` }],
      ['a huge key', { ...base, idempotencyKey: 'k'.repeat(5000) }],
      ['a bad card id', { ...base, savedPaymentId: 'x' }],
      ['no card, no token and a bad key', { packageId: base.packageId, idempotencyKey: 'bad key!' }],
      ['no card, no token and a retired package', { packageId: String(retired!.id), idempotencyKey: base.idempotencyKey }],
      ['a NUL in the token', { packageId: base.packageId, idempotencyKey: base.idempotencyKey, token: 'tok\u0000' }],
      ['an unknown token', { packageId: base.packageId, idempotencyKey: KEY('unknown-token'), token: 'tok_not_real_at_all' }],
    ];
    for (const [what, fields] of cases) {
      const res = await post(`/articles/amplify/${live}`, fields);
      t.ok(res.statusCode >= 400 && res.statusCode < 500, `${what}: 4xx (${res.statusCode})`);
    }
    const bobsCard = await saveCard(app, { community: alpha, userId: bob.id, actorId: bob.id, token: await cardToken(app, alpha), idempotencyKey: 'bob-card-amplify' });
    if (!bobsCard.ok) throw new Error('card');
    const stolen = await post(`/articles/amplify/${live}`, { ...base, savedPaymentId: String(bobsCard.savedPayment.id), idempotencyKey: KEY('stolen') });
    t.equal(stolen.statusCode, 404, 'another member’s card');
    const leftBehind = await db.selectFrom('payment_ledger').select('id').where('idempotency_key', 'like', `%${KEY('stolen')}`).execute();
    t.equal(leftBehind.length, 0, 'the refused purchase leaves no pending ledger row');
    const noCsrf = await app.inject({ method: 'POST', url: `/articles/amplify/${live}`, headers: { cookie: me.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(base).toString() });
    t.equal(noCsrf.statusCode, 403, 'no CSRF token: refused');
    t.equal((await charges(KEY('hostile'))).length, 0, 'nothing charged');
  });

  await t.test('a new card without JavaScript: the hosted page, then the return buys once', async (t) => {
    const page = await get(`/articles/amplify/${live}?package=${feature!.id}`);
    t.match(page.body, 'data-card-form', 'the card form is on the page');
    t.match(page.body, 'Pay $1,299.00<', 'its button names the price');
    const key = KEY('hosted');
    const res = await post(`/articles/amplify/${live}`, { packageId: String(feature!.id), idempotencyKey: key });
    t.equal(res.statusCode, 303);
    const hosted = new URL(String(res.headers.location));
    const state = hosted.searchParams.get('state')!;
    t.ok(state, 'the sealed state travels');
    t.match(hosted.searchParams.get('return'), new RegExp(`/articles/amplify/${live}/return$`));
    const token = await cardToken(app, alpha, CARDS.visa);
    const { SandboxProcessor } = await import('#src/features/payments/processor/sandbox/processor.ts');
    const engine = (app.cardProcessor as InstanceType<typeof SandboxProcessor>).engine;
    const returnUrl = `/articles/amplify/${live}/return?${new URLSearchParams({ token, state, signature: engine.sign(token, state) })}`;
    const before = (await orders()).length;
    const back = await get(returnUrl);
    t.equal(back.statusCode, 303, back.body.slice(0, 200));
    t.equal(back.headers.location, `/articles/amplify/${live}?alert=amplify-purchased`);
    t.equal((await orders()).length, before + 1, 'one order');
    const replay = await get(returnUrl);
    t.equal(replay.statusCode, 303, 'the same return again: the same purchase');
    t.equal((await orders()).length, before + 1, 'still one order');
    t.equal((await charges(key)).length, 1, 'one charge');

    const forged = await get(`/articles/amplify/${live}/return?${new URLSearchParams({ token, state, signature: 'forged' })}`);
    t.equal(forged.statusCode, 400, 'a forged signature');
    const otherArticle = await get(`/articles/amplify/${bobs}/return?${new URLSearchParams({ token, state, signature: engine.sign(token, state) })}`);
    t.equal(otherArticle.statusCode, 400, 'the state of another address');
    t.equal((await get(`/articles/amplify/${live}/return`)).statusCode, 400, 'nothing at all');
    t.equal((await get(`/articles/amplify/${live}/return?token=%00&state=%00&signature=%00`)).statusCode, 400, 'NUL bytes');

    const declinedToken = await cardToken(app, alpha, CARDS.decline);
    const post2 = await post(`/articles/amplify/${live}`, { packageId: String(spotlight!.id), idempotencyKey: KEY('hosted-declined') });
    const state2 = new URL(String(post2.headers.location)).searchParams.get('state')!;
    const refused = await get(`/articles/amplify/${live}/return?${new URLSearchParams({ token: declinedToken, state: state2, signature: engine.sign(declinedToken, state2) })}`);
    t.equal(refused.statusCode, 400);
    t.match(refused.body, 'Your card was declined. Please use another card.');
    t.match(refused.body, 'Pay $499.00 for Spotlight', 'the package is kept');
  });

  await t.test('a package in another currency than the site’s cannot be bought', async (t) => {
    await t.rejects(
      buyAmplification(app, { community: alpha, userId: amara.id, actorId: amara.id, articleId: live, packageId: euroPackage!.id, idempotencyKey: KEY('euro'), source: { savedPaymentId: saved.savedPayment.id } }),
      { code: 'Amplify.UnknownPackage' },
    );
    const res = await post(`/articles/amplify/${live}`, { packageId: String(euroPackage!.id), savedPaymentId: String(saved.savedPayment.id), idempotencyKey: KEY('euro') });
    t.equal(res.statusCode, 400, 'the form says the package is unknown');
    t.equal((await charges(KEY('euro'))).length, 0, 'nothing charged');
    t.same((await listActivePackages(db, alpha)).map((p) => p.name), ['Spotlight', 'Feature'], 'only the site’s currency is listed');
    await db.updateTable('amplification_packages').set({ active: false }).where('community_id', '=', alpha.id).where('currency', '=', 'USD').execute();
    t.equal(await offersAmplification(db, alpha), false, 'only packages in another currency: amplification is not offered');
    await db.updateTable('amplification_packages').set({ active: true }).where('id', 'in', [spotlight!.id, feature!.id]).execute();
    t.equal(await offersAmplification(db, alpha), true);
  });

  await t.test('the service refuses a key replayed for another package', async (t) => {
    const before = (await orders()).filter((o) => o.package_id === spotlight!.id).length;
    const result = await buyAmplification(app, { community: alpha, userId: amara.id, actorId: amara.id, articleId: live, packageId: spotlight!.id, idempotencyKey: KEY('saved'), source: { savedPaymentId: saved.savedPayment.id } });
    t.equal(result.status, 'succeeded', 'the same key and package: the first purchase');
    t.equal((await orders()).filter((o) => o.package_id === spotlight!.id).length, before, 'no new order');
  });

  await t.test('the dashboard links published articles to amplification', async (t) => {
    const res = await get('/articles');
    t.equal(res.statusCode, 200);
    t.match(res.body, `href="/articles/amplify/${live}"`);
    t.match(res.body, 'Amplify “Leading Through Change”');
    t.notMatch(res.body, `/articles/amplify/${draft}"`, 'not the draft');
    const published = await get('/articles/published');
    t.match(published.body, `href="/articles/amplify/${live}"`, 'and each published article on the published page');
  });

  await t.test('GraphQL: packages and amplifyArticle, bearer and cookie+CSRF', async (t) => {
    const gql = (query: string, variables: object, headers: Record<string, string>) =>
      app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });
    const bearer = { authorization: `Bearer ${(await signIn(app, amara, alpha)).token}` };
    const packages = await gql('{ amplificationPackages { id name description price priceCents currency } }', {}, bearer);
    t.same(packages.json().data?.amplificationPackages?.map((p: { name: string; price: string }) => [p.name, p.price]), [['Spotlight', '$499.00'], ['Feature', '$1,299.00']], packages.body);
    const BUY = `mutation B($articleId: ID!, $packageId: ID!, $idempotencyKey: String!, $savedPaymentId: ID, $token: String) {
      amplifyArticle(articleId: $articleId, packageId: $packageId, idempotencyKey: $idempotencyKey, savedPaymentId: $savedPaymentId, token: $token) { id articleId packageName amount amountCents createdAt statementUrl }
    }`;
    const [card] = await db.selectFrom('saved_payments').select('id').where('user_id', '=', amara.id).where('is_default', '=', true).execute();
    const vars = { articleId: String(live), packageId: String(spotlight!.id), idempotencyKey: KEY('graphql-bearer'), savedPaymentId: String(card!.id) };
    const bought = await gql(BUY, vars, bearer);
    const order = bought.json().data?.amplifyArticle;
    t.match(order, { articleId: String(live), packageName: 'Spotlight', amount: '$499.00', amountCents: 49900, statementUrl: /^\/rest\/statements\/\d+\.pdf$/ }, bought.body);
    const again = await gql(BUY, vars, bearer);
    t.equal(again.json().data?.amplifyArticle?.id, order?.id, 'the same key: the same order');
    t.equal((await charges(KEY('graphql-bearer'))).length, 1, 'charged once');

    const declined = await gql(BUY, { ...vars, savedPaymentId: null, token: await cardToken(app, alpha, CARDS.decline), idempotencyKey: KEY('graphql-declined') }, bearer);
    t.equal(declined.json().errors?.[0]?.extensions?.code, 'Payments.Declined', declined.body);
    const both = await gql(BUY, { ...vars, token: 'tok_x', idempotencyKey: KEY('graphql-both') }, bearer);
    t.equal(both.json().errors?.[0]?.extensions?.code, '900', 'a card and a token: refused');
    const hostileId = await gql(BUY, { ...vars, articleId: '1e9x', idempotencyKey: KEY('graphql-hostile') }, bearer);
    t.equal(hostileId.json().errors?.[0]?.extensions?.code, 'NotFound', 'a malformed article id: the same answer as an unknown one (decision 0047)');
    const notMine = await gql(BUY, { ...vars, articleId: String(bobs), idempotencyKey: KEY('graphql-bobs') }, bearer);
    t.equal(notMine.json().errors?.[0]?.extensions?.code, 'NotFound');

    const browser = await session(amara);
    const cookieVars = { ...vars, packageId: String(feature!.id), idempotencyKey: KEY('graphql-cookie') };
    const noToken = await gql(BUY, cookieVars, { cookie: browser.cookie });
    t.ok(noToken.statusCode === 403 || noToken.json().errors?.[0]?.extensions?.code === 'BadRequest.Csrf', 'a cookie without the CSRF token is refused');
    t.equal((await charges(KEY('graphql-cookie'))).length, 0, 'and charges nothing');
    const viaCookie = await gql(BUY, cookieVars, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.equal(viaCookie.json().data?.amplifyArticle?.packageName, 'Feature', viaCookie.body);
    const anon = await gql('{ amplificationPackages { id } }', {}, {});
    t.equal(anon.json().errors?.[0]?.extensions?.code, 'NotAuthenticated');
  });
});
