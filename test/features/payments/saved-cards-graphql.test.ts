import t from 'tap';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { CARDS, cardToken, enablePayments } from '#test/helpers/payments.ts';

const CARD_FIELDS = 'id userId firstName lastName expirationMonth expirationYear last4Digits cardType status isDefault';

t.test('saved cards over GraphQL', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'] });
  const { app } = await startApp(t, db, { clock: testClock() });
  await enablePayments(db, alpha);
  await enablePayments(db, beta);
  const boss = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Bea', lastName: 'Boss' });
  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const alan = await createMember(db, alpha, { firstName: 'Alan', lastName: 'Turing' });
  const grace = await createMember(db, beta, { firstName: 'Grace', lastName: 'Hopper' });
  const betaBoss = await createMember(db, beta, { roles: ['ADMIN', 'MEMBER'], firstName: 'Ben', lastName: 'Betaboss' });

  const gql = (url: '/graphql' | '/graphqlAdmin', query: string, variables: object, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });

  /** Bearer headers, and cookie headers with the page's CSRF token. */
  async function clients(user: { id: number }, community = alpha, roles: Array<'ADMIN' | 'MEMBER'> = ['MEMBER'], host?: string) {
    const { token } = await signIn(app, user, community, roles);
    const hostHeader: Record<string, string> = host ? { host } : {};
    const page = await app.inject({ url: '/settings', headers: { cookie: `auth=${token}`, accept: 'text/html', ...hostHeader } });
    const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(page.body)![1]!;
    const csrfCookie = page.cookies.find((c) => c.name === '_csrf')!.value;
    return {
      bearer: { authorization: `Bearer ${token}`, ...hostHeader },
      cookie: { cookie: `auth=${token}; _csrf=${csrfCookie}`, 'x-csrf-token': csrf, ...hostHeader },
      cookieNoCsrf: { cookie: `auth=${token}`, ...hostHeader },
    };
  }

  const ADD = `mutation($userId: ID!, $token: String!) { paymentAddFromToken(userId: $userId, token: $token) { ${CARD_FIELDS} } }`;
  const LIST = `query { payments { ${CARD_FIELDS} } }`;
  const DEFAULT = 'mutation($id: ID!) { paymentChangeDefaultSavedPayment(paymentId: $id) }';
  const DELETE = 'mutation($id: ID!) { paymentDeleteSavedPayment(paymentId: $id) }';

  await t.test('member schema: one’s own cards, by bearer and by cookie with CSRF', async (t) => {
    const c = await clients(ada);
    const first = (await gql('/graphql', ADD, { userId: String(ada.id), token: await cardToken(app, alpha, CARDS.visa) }, c.bearer)).json();
    t.equal(first.data.paymentAddFromToken.isDefault, true);
    t.equal(first.data.paymentAddFromToken.last4Digits, '4242');
    t.equal(first.data.paymentAddFromToken.cardType, 'VISA');
    t.equal(first.data.paymentAddFromToken.status, 'VALID');
    const noCsrf = await gql('/graphql', ADD, { userId: String(ada.id), token: await cardToken(app, alpha, CARDS.amex) }, c.cookieNoCsrf);
    t.equal(noCsrf.statusCode, 403, 'a cookie without the CSRF token is refused');
    const second = (await gql('/graphql', ADD, { userId: String(ada.id), token: await cardToken(app, alpha, CARDS.amex) }, c.cookie)).json();
    t.equal(second.data.paymentAddFromToken.cardType, 'AMERICAN_EXPRESS');
    const listed = (await gql('/graphql', LIST, {}, c.cookie)).json().data.payments;
    t.same(listed.map((p: { isDefault: boolean }) => p.isDefault), [true, false], 'the new card is the only default');
    const firstId = first.data.paymentAddFromToken.id;
    t.equal((await gql('/graphql', DEFAULT, { id: firstId }, c.bearer)).json().data.paymentChangeDefaultSavedPayment, firstId);
    const refused = (await gql('/graphql', DELETE, { id: firstId }, c.cookie)).json();
    t.equal(refused.errors[0].extensions.code, 'Payments.DefaultCardRemoval');
    t.equal((await gql('/graphql', DELETE, { id: second.data.paymentAddFromToken.id }, c.cookie)).json().data.paymentDeleteSavedPayment, second.data.paymentAddFromToken.id);
    t.equal((await gql('/graphql', LIST, {}, c.bearer)).json().data.payments.length, 1);
    const processor = (await gql('/graphql', 'query { paymentProcessor { id publicKey subDomain serverHost } }', {}, c.bearer)).json().data.paymentProcessor;
    t.same(processor, { id: 'alpha', publicKey: 'pk_sandbox_alpha_test', subDomain: 'alpha', serverHost: '/sandbox-pay' });
    const declined = (await gql('/graphql', ADD, { userId: String(ada.id), token: await cardToken(app, alpha, CARDS.decline) }, c.bearer)).json();
    t.equal(declined.errors[0].extensions.code, 'SavedCards.VerificationFailed');
    t.equal(declined.errors[0].message, 'We couldn’t verify your card. Please check the details or use another card. Need help? Email concierge@alpha.example.com.', 'member wording with the help line');
  });

  await t.test('a member cannot act on another member’s cards, and has no auth log', async (t) => {
    const c = await clients(alan);
    const other = (await gql('/graphql', ADD, { userId: String(ada.id), token: await cardToken(app, alpha, CARDS.visa) }, c.bearer)).json();
    t.equal(other.errors[0].extensions.code, 'Forbidden', 'userId must be one’s own');
    const adaCard = await db.selectFrom('saved_payments').select('id').where('user_id', '=', ada.id).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
    t.equal((await gql('/graphql', DEFAULT, { id: String(adaCard.id) }, c.bearer)).json().errors[0].extensions.code, 'NotFound');
    t.equal((await gql('/graphql', DELETE, { id: String(adaCard.id) }, c.bearer)).json().errors[0].extensions.code, 'NotFound');
    t.same((await gql('/graphql', LIST, {}, c.bearer)).json().data.payments, [], 'sees only their own (none)');
    const noLog = await gql('/graphql', 'query($id: ID!) { cardAuthLog(paymentId: $id) { id } }', { id: String(adaCard.id) }, c.bearer);
    t.ok(noLog.json().errors, 'cardAuthLog is not on the member schema');
    const noAdmin = await gql('/graphqlAdmin', `query($u: ID!) { paymentsForUser(userId: $u) { id } }`, { u: String(ada.id) }, c.bearer);
    t.not(noAdmin.statusCode, 200, 'a member cannot use the admin schema');
  });

  const A_LIST = `query($u: ID!) { paymentsForUser(userId: $u) { ${CARD_FIELDS} } }`;
  const A_ADD = `mutation($u: ID!, $token: String!) { paymentAddFromToken(userId: $u, token: $token) { ${CARD_FIELDS} } }`;
  const A_DEFAULT = 'mutation($id: ID!, $u: ID!) { paymentChangeDefaultSavedPayment(paymentId: $id, userId: $u) }';
  const A_DELETE = 'mutation($id: ID!, $u: ID!) { paymentDeleteSavedPayment(paymentId: $id, userId: $u) }';
  const A_LOG = 'query($id: ID!) { cardAuthLog(paymentId: $id) { id attemptAmount attemptedAt authResponseCode reversalHttpCode } }';

  await t.test('admin schema: a member’s cards and auth logs, by bearer and by cookie with CSRF', async (t) => {
    const c = await clients(boss, alpha, ['ADMIN', 'MEMBER']);
    const added = (await gql('/graphqlAdmin', A_ADD, { u: String(alan.id), token: await cardToken(app, alpha, CARDS.mastercard) }, c.bearer)).json().data.paymentAddFromToken;
    t.equal(added.userId, String(alan.id));
    t.equal(added.isDefault, true);
    const second = (await gql('/graphqlAdmin', A_ADD, { u: String(alan.id), token: await cardToken(app, alpha, CARDS.visa) }, c.cookie)).json().data.paymentAddFromToken;
    t.equal(second.isDefault, true);
    t.equal((await gql('/graphqlAdmin', A_DEFAULT, { id: added.id, u: String(alan.id) }, c.cookieNoCsrf)).statusCode, 403, 'cookie without CSRF refused');
    t.equal((await gql('/graphqlAdmin', A_DEFAULT, { id: added.id, u: String(alan.id) }, c.cookie)).json().data.paymentChangeDefaultSavedPayment, added.id);
    const list = (await gql('/graphqlAdmin', A_LIST, { u: String(alan.id) }, c.bearer)).json().data.paymentsForUser;
    t.same(list.filter((p: { isDefault: boolean }) => p.isDefault).map((p: { id: string }) => p.id), [added.id]);
    const log = (await gql('/graphqlAdmin', A_LOG, { id: added.id }, c.cookie)).json().data.cardAuthLog;
    t.equal(log.length, 1);
    t.equal(log[0].authResponseCode, 0);
    t.equal(log[0].reversalHttpCode, 200);
    t.ok(Number.isInteger(log[0].attemptAmount));
    const refused = (await gql('/graphqlAdmin', A_DELETE, { id: added.id, u: String(alan.id) }, c.bearer)).json();
    t.equal(refused.errors[0].extensions.code, 'Payments.DefaultCardRemoval');
    t.equal((await gql('/graphqlAdmin', A_DELETE, { id: second.id, u: String(alan.id) }, c.bearer)).json().data.paymentDeleteSavedPayment, second.id);
    const processor = (await gql('/graphqlAdmin', 'query($u: ID!) { paymentProcessor(userId: $u) { id publicKey subDomain serverHost } }', { u: String(alan.id) }, c.bearer)).json().data.paymentProcessor;
    t.equal(processor.publicKey, 'pk_sandbox_alpha_test');
    const declined = (await gql('/graphqlAdmin', A_ADD, { u: String(alan.id), token: await cardToken(app, alpha, CARDS.cvv) }, c.bearer)).json();
    t.equal(declined.errors[0].extensions.code, 'SavedCards.VerificationFailed');
    t.equal(declined.errors[0].message, 'The card could not be verified. Check the details or use another card.', 'admin wording, no help line');
    const actions = await db.selectFrom('staff_actions').select('action').where('member_id', '=', alan.id).orderBy('id').execute();
    t.same(actions.map((a) => a.action), ['card_added', 'card_added', 'card_default_changed', 'card_removed']);
  });

  await t.test('tenancy on the admin schema: another community’s member and card are not found', async (t) => {
    const g = await clients(grace, beta, ['MEMBER'], 'beta.test');
    const graceCard = (await gql('/graphql', ADD, { userId: String(grace.id), token: await cardToken(app, beta, CARDS.visa) }, g.bearer)).json().data.paymentAddFromToken;
    const c = await clients(boss, alpha, ['ADMIN', 'MEMBER']);
    t.equal((await gql('/graphqlAdmin', A_LIST, { u: String(grace.id) }, c.bearer)).json().errors[0].extensions.code, 'NotFound');
    t.equal((await gql('/graphqlAdmin', A_LOG, { id: graceCard.id }, c.bearer)).json().errors[0].extensions.code, 'NotFound');
    t.equal((await gql('/graphqlAdmin', A_DEFAULT, { id: graceCard.id, u: String(grace.id) }, c.bearer)).json().errors[0].extensions.code, 'NotFound');
    t.equal((await gql('/graphqlAdmin', A_ADD, { u: String(grace.id), token: await cardToken(app, alpha, CARDS.visa) }, c.bearer)).json().errors[0].extensions.code, 'NotFound');
    // A card of alpha under another alpha member's id.
    const adaCard = await db.selectFrom('saved_payments').select('id').where('user_id', '=', ada.id).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
    t.equal((await gql('/graphqlAdmin', A_DELETE, { id: String(adaCard.id), u: String(alan.id) }, c.bearer)).json().errors[0].extensions.code, 'NotFound');
    // Beta's admin sees Grace's log, not Ada's.
    const bb = await clients(betaBoss, beta, ['ADMIN', 'MEMBER'], 'beta.test');
    t.equal((await gql('/graphqlAdmin', A_LOG, { id: graceCard.id }, bb.bearer)).json().data.cardAuthLog.length, 1);
    t.equal((await gql('/graphqlAdmin', A_LOG, { id: String(adaCard.id) }, bb.bearer)).json().errors[0].extensions.code, 'NotFound');
  });

  await t.test('hostile ids and tokens are 4xx, never 5xx', async (t) => {
    const c = await clients(boss, alpha, ['ADMIN', 'MEMBER']);
    for (const id of ['-1', '0', '1e3', 'abc', '99999999999', '1\u0000', ' 1']) {
      const res = await gql('/graphqlAdmin', A_LOG, { id }, c.bearer);
      t.equal(res.json().errors?.[0]?.extensions?.code, 'NotFound', `cardAuthLog(${JSON.stringify(id)})`);
      const del = await gql('/graphqlAdmin', A_DELETE, { id, u: String(alan.id) }, c.bearer);
      t.equal(del.json().errors?.[0]?.extensions?.code, 'NotFound', `delete ${JSON.stringify(id)}`);
    }
    const m = await clients(ada);
    for (const token of ['', 'x'.repeat(5000), 'tok\u0000en', 'tok_unknown_123']) {
      const res = await gql('/graphql', ADD, { userId: String(ada.id), token }, m.bearer);
      t.ok(res.statusCode < 500, `token ${JSON.stringify(token.slice(0, 12))}: ${res.statusCode}`);
      t.ok(res.json().errors, 'refused');
    }
    const malformed = await app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...m.bearer }, payload: '{"query": "query { payments { id } "' });
    t.ok(malformed.statusCode >= 400 && malformed.statusCode < 500, `malformed JSON: ${malformed.statusCode}`);
  });
});
