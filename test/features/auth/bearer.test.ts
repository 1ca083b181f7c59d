import t from 'tap';
import type { LightMyRequestResponse } from 'fastify';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { codeFrom, GOOD_PASSWORD, linkFrom, setPassword } from '#test/helpers/auth.ts';
import { createCommunity, createMember, csrfFor } from '#test/helpers/factories.ts';
import { REFRESH_GRACE_MS, SHORT_SESSION_TTL_MS } from '#src/features/auth/sessions.ts';

/**
 * Clients that are not our pages (issue 10, section 2): they keep no cookies, sign in with JSON
 * without loading a page first, and then carry `Authorization: Bearer <authToken>`.
 */

type Pair = { authToken: string; refreshToken: string };
const JSON_TYPE = { 'content-type': 'application/json' };
const errorOf = (res: LightMyRequestResponse) => res.json().error as { code: string; message: string };
const gqlErrorOf = (res: LightMyRequestResponse) => (res.json().errors as { message: string; extensions: { code: string } }[])[0]!;

t.test('an API client with a bearer token', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', name: 'Alpha Council' });
  const beta = await createCommunity(db, { code: 'beta', name: 'Beta Guild', hosts: ['beta.test'] });
  const clock = testClock();
  const { app } = await startApp(t, db, { clock });

  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  await setPassword(db, ada.id);
  const betaAdmin = await createMember(db, beta, { roles: ['ADMIN', 'MEMBER'], firstName: 'Alan', lastName: 'Turing' });
  await setPassword(db, betaAdmin.id);

  /** A JSON POST with no cookie at all: what curl or a mobile app sends. */
  const post = (url: string, payload: object | undefined, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, headers: { ...(payload ? JSON_TYPE : {}), ...headers }, payload: payload ? JSON.stringify(payload) : undefined });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const gql = (query: string, variables: object = {}, headers: Record<string, string> = {}, url = '/graphql') => post(url, { query, variables }, headers);
  const meWith = async (token: string) => (await gql('{ me { id } }', {}, bearer(token))).json().data?.me?.id ?? null;
  const signIn = async (username = ada.email, extra: object = {}): Promise<Pair> => {
    const res = await post('/rest/login', { username, password: GOOD_PASSWORD, ...extra });
    if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.body}`);
    return res.json();
  };
  const refresh = (refreshToken: string) => post('/rest/token-refresh', { refreshToken });

  await t.test('POST /rest/login works with no page loaded first and answers the tokens with the display name', async (t) => {
    const res = await post('/rest/login', { username: ada.email, password: GOOD_PASSWORD });
    t.equal(res.statusCode, 200);
    const body = res.json();
    t.match(body, {
      displayName: 'Ada Lovelace',
      user: { id: ada.id, email: ada.email, displayName: 'Ada Lovelace' },
      community: { code: 'alpha', name: 'Alpha Council' },
      authToken: String,
      refreshToken: String,
      roles: ['MEMBER'],
    });
    t.equal(body.authToken, res.cookies.find((c) => c.name === 'auth')?.value, 'the authToken is the auth cookie’s value');
  });

  await t.test('answers that carry tokens or a member’s data are never stored: Cache-Control no-store on sign-in, refresh and GraphQL', async (t) => {
    const login = await post('/rest/login', { username: ada.email, password: GOOD_PASSWORD });
    t.equal(login.statusCode, 200);
    t.equal(login.headers['cache-control'], 'no-store', '/rest/login');
    const refreshed = await refresh(login.json().refreshToken);
    t.equal(refreshed.statusCode, 200);
    t.equal(refreshed.headers['cache-control'], 'no-store', '/rest/token-refresh');
    const me = await gql('{ me { id } }', {}, bearer(refreshed.json().authToken));
    t.equal(me.json().data.me.id, String(ada.id));
    t.equal(me.headers['cache-control'], 'no-store', '/graphql');
    const gqlLogin = await gql('mutation L($u: String!, $p: String!, $c: String) { login(username: $u, password: $p, targetCommunity: $c) { authToken } }', { u: betaAdmin.email, p: GOOD_PASSWORD, c: 'beta' });
    t.equal(gqlLogin.headers['cache-control'], 'no-store', 'the GraphQL sign-in');
    const admin = await gql('{ me { id } }', {}, bearer(gqlLogin.json().data.login.authToken), '/graphqlAdmin');
    t.equal(admin.statusCode, 200);
    t.equal(admin.headers['cache-control'], 'no-store', '/graphqlAdmin');
    const getQuery = await app.inject({ url: `/graphql?query=${encodeURIComponent('{ me { id } }')}`, headers: bearer(refreshed.json().authToken) });
    t.equal(getQuery.headers['cache-control'], 'no-store', 'a GraphQL GET too');
    const refused = await post('/rest/login', { username: ada.email, password: 'wrong-password' });
    t.equal(refused.headers['cache-control'], 'no-store', 'an error answer too');
  });

  await t.test('the authToken as a bearer signs the member in on /graphql, for queries and for mutations without a CSRF token', async (t) => {
    const { authToken } = await signIn();
    t.equal(await meWith(authToken), String(ada.id));
    const get = await app.inject({ url: `/graphql?query=${encodeURIComponent('{ me { id } }')}`, headers: bearer(authToken) });
    t.equal(get.json().data.me.id, String(ada.id), 'a GET query too');
    const update = await gql('mutation { passwordUpdate(oldPassword: "Wrong-Password-1", newPassword: "Another-Horse-7") }', {}, bearer(authToken));
    t.equal(gqlErrorOf(update).extensions.code, 'NotAuthorized.Password', 'the mutation ran as Ada (no BadRequest.Csrf, no NotAuthenticated)');
    t.equal(await meWith('not-a-token'), null, 'a made-up bearer is nobody');
  });

  await t.test("a bearer is enough even when the client's cookie jar sends our cookies back; a cookie alone still needs the token", async (t) => {
    // Mobile HTTP stacks keep cookies by default: the sign-in's Set-Cookie comes back with every call.
    // No browser adds an Authorization header by itself (cross-site it needs a preflight we never
    // grant), so a request that carries one is the client's own doing, cookies or not.
    const { authToken } = await signIn();
    const cookieOnly = await post('/rest/logout', undefined, { cookie: `auth=${authToken}` });
    t.equal(cookieOnly.statusCode, 403, 'a cookie with no token is refused as before');
    t.equal(errorOf(cookieOnly).code, 'BadRequest.Csrf');
    t.equal(await meWith(authToken), String(ada.id), 'the session survives it');
    const { cookie } = await csrfFor(app);
    const res = await gql('mutation { logout }', {}, { ...bearer(authToken), cookie: `${cookie}; auth=${authToken}` });
    t.equal(res.statusCode, 200, 'the bearer with cookies beside it signs out, no CSRF token asked');
    t.equal(await meWith(authToken), null, 'and the session is over');
  });

  await t.test('a bearer on a page counts for nothing: only the API reads it', async (t) => {
    const { authToken } = await signIn();
    const page = await app.inject({ url: '/articles', headers: { ...bearer(authToken), accept: 'text/html' } });
    t.equal(page.statusCode, 303);
    t.match(page.headers.location, /^\/login\?redirect=/);
  });

  await t.test('an admin’s bearer works on /graphqlAdmin for the community chosen at sign-in; a member’s is refused there', async (t) => {
    const login = await gql(
      'mutation L($u: String!, $p: String!, $c: String) { login(username: $u, password: $p, targetCommunity: $c) { authToken roles } }',
      { u: betaAdmin.email, p: GOOD_PASSWORD, c: 'beta' },
    );
    t.equal(login.statusCode, 200, 'the admin sign-in works with no page loaded either');
    const { authToken } = login.json().data.login;
    const admin = await gql('{ me { id communityCode } }', {}, bearer(authToken), '/graphqlAdmin');
    t.same(admin.json().data, { me: { id: String(betaAdmin.id), communityCode: 'beta' } });
    const member = await gql('{ me { id } }', {}, bearer((await signIn()).authToken), '/graphqlAdmin');
    t.equal(member.statusCode, 403);
    t.equal(gqlErrorOf(member).extensions.code, 'Forbidden');
    const nobody = await gql('{ me { id } }', {}, {}, '/graphqlAdmin');
    t.equal(nobody.statusCode, 401);
  });

  await t.test('POST /rest/logout with the bearer ends the session: the bearer and its refresh token are refused after', async (t) => {
    const { authToken, refreshToken } = await signIn();
    const res = await post('/rest/logout', undefined, bearer(authToken));
    t.equal(res.statusCode, 204);
    t.equal(await meWith(authToken), null, 'the bearer no longer signs anyone in');
    const after = await refresh(refreshToken);
    t.equal(after.statusCode, 401);
    t.equal(errorOf(after).code, 'NotAuthenticated');
  });

  await t.test('GraphQL logout with the bearer ends the session too', async (t) => {
    const { authToken } = await signIn();
    const res = await gql('mutation { logout }', {}, bearer(authToken));
    t.same(res.json().data, { logout: true });
    t.equal(await meWith(authToken), null);
  });

  await t.test('a bearer expires with its session (12 hours without remember-me)', async (t) => {
    const { authToken } = await signIn();
    clock.advance(SHORT_SESSION_TTL_MS - 60_000);
    t.equal(await meWith(authToken), String(ada.id), 'still signed in a minute before');
    clock.advance(2 * 60_000);
    t.equal(await meWith(authToken), null, 'signed out a minute after');
    const update = await gql('mutation { passwordUpdate(oldPassword: "x", newPassword: "y") }', {}, bearer(authToken));
    t.equal(update.statusCode, 401);
    t.equal(gqlErrorOf(update).extensions.code, 'NotAuthenticated');
  });

  await t.test('POST /rest/token-refresh takes the refresh token in the body and rotates the pair', async (t) => {
    const first = await signIn();
    clock.advance(1000);
    const res = await refresh(first.refreshToken);
    t.equal(res.statusCode, 200);
    const next = res.json() as Pair;
    t.match(next, { user: { id: ada.id }, community: { code: 'alpha' }, roles: ['MEMBER'] });
    t.not(next.authToken, first.authToken);
    t.not(next.refreshToken, first.refreshToken);
    t.equal(await meWith(next.authToken), String(ada.id), 'the new bearer works');
    t.equal(await meWith(first.authToken), null, 'the old bearer does not');
    const third = await refresh(next.refreshToken);
    t.equal(third.statusCode, 200, 'the new refresh token rotates again');
  });

  await t.test('two refreshes racing with one token both get the same new pair, and the session lives on', async (t) => {
    const first = await signIn();
    clock.advance(1000);
    const [a, b] = await Promise.all([refresh(first.refreshToken), refresh(first.refreshToken)]);
    t.equal(a.statusCode, 200);
    t.equal(b.statusCode, 200);
    t.same(b.json(), a.json(), 'the very same pair');
    clock.advance(REFRESH_GRACE_MS - 2000);
    const retry = await refresh(first.refreshToken);
    t.equal(retry.statusCode, 200, 'a retry within the grace window');
    t.same(retry.json(), a.json(), 'answers the same pair again');
    const pair = a.json() as Pair;
    t.equal(await meWith(pair.authToken), String(ada.id), 'the pair works');
    t.equal((await refresh(pair.refreshToken)).statusCode, 200, 'and its refresh token rotates');
  });

  await t.test('the old refresh token replayed after the grace window ends the session', async (t) => {
    const first = await signIn();
    const next = (await refresh(first.refreshToken)).json() as Pair;
    clock.advance(REFRESH_GRACE_MS + 1000);
    const replay = await refresh(first.refreshToken);
    t.equal(replay.statusCode, 401);
    t.equal(errorOf(replay).code, 'NotAuthenticated');
    t.equal(await meWith(next.authToken), null, 'the pair it was exchanged for is revoked too');
    t.equal((await refresh(next.refreshToken)).statusCode, 401, 'so is its refresh token');
  });

  await t.test('tokenRefresh(refreshToken:) on GraphQL rotates the pair, with the same grace', async (t) => {
    const first = await signIn();
    const mutation = 'mutation R($t: String) { tokenRefresh(refreshToken: $t) { authToken refreshToken user { id } } }';
    const res = await gql(mutation, { t: first.refreshToken });
    t.equal(res.statusCode, 200);
    const next = res.json().data.tokenRefresh;
    t.equal(next.user.id, String(ada.id));
    t.equal(await meWith(next.authToken), String(ada.id));
    t.same((await gql(mutation, { t: first.refreshToken })).json().data.tokenRefresh, next, 'a retry gets the same pair');
    clock.advance(REFRESH_GRACE_MS + 1000);
    t.equal(gqlErrorOf(await gql(mutation, { t: first.refreshToken })).extensions.code, 'NotAuthenticated');
    t.equal(await meWith(next.authToken), null);
    t.equal(gqlErrorOf(await gql(mutation, {})).extensions.code, 'NotAuthenticated', 'no token at all');
  });

  await t.test('a refresh token of another community buys nothing here', async (t) => {
    const { refreshToken } = await signIn();
    const res = await post('/rest/token-refresh', { refreshToken }, { host: 'beta.test' });
    t.equal(res.statusCode, 401);
    t.equal(errorOf(res).code, 'NotAuthenticated');
  });

  await t.test('every cookie-less sign-in call works without a page first', async (t) => {
    const grace = await createMember(db, alpha, { firstName: 'Grace', lastName: 'Hopper' });
    await setPassword(db, grace.id);
    const strategies = await post('/rest/login/auth-strategies', { channel: 'EMAIL', to: grace.email });
    t.same(strategies.json(), { passwordStrategy: true, otcSmsStrategy: false, smsOptions: [] });
    const sent = await post('/rest/login/one-time', { channel: 'EMAIL', to: grace.email });
    t.equal(sent.statusCode, 200);
    const redeemed = await post('/rest/login/one-time-redeem', { to: grace.email, code: await codeFrom(app, grace.email) });
    t.equal(redeemed.statusCode, 200);
    t.equal(await meWith(redeemed.json().authToken), String(grace.id));

    t.same((await post('/rest/password-forgot', { username: grace.email })).json(), {});
    const token = new URL(await linkFrom(app, grace.email)).searchParams.get('token')!;
    t.same((await app.inject({ url: `/rest/validate-reset-token?token=${encodeURIComponent(token)}` })).json(), { isValid: true });
    const reset = await post('/rest/reset-password', { resetToken: token, newPassword: 'Another-Horse-7' });
    t.equal(reset.statusCode, 200);

    const gqlCode = await gql('mutation G($to: String!) { oneTimeCodeGenerate(to: $to) { channel } }', { to: grace.email });
    t.same(gqlCode.json().data, { oneTimeCodeGenerate: { channel: 'EMAIL' } }, 'and the GraphQL ones');
    const verified = await gql('mutation V($to: String!, $code: String!) { oneTimeCodeVerify(to: $to, code: $code) { authToken } }', { to: grace.email, code: await codeFrom(app, grace.email) });
    t.equal(await meWith(verified.json().data.oneTimeCodeVerify.authToken), String(grace.id));
  });

  await t.test('POST /rest/reset-password with a bad token answers the invalid-link message, not code 100', async (t) => {
    const res = await post('/rest/reset-password', { resetToken: 'made-up-token-made-up-token', newPassword: 'Another-Horse-7' });
    t.equal(res.statusCode, 400);
    t.match(errorOf(res), { code: 'BadRequest.InvalidLink', message: 'This link is invalid or has expired. Request a new one to reset your password.' });
    const gqlRes = await gql('mutation { passwordReset(resetToken: "made-up-token-made-up-token", newPassword: "Another-Horse-7") }');
    t.equal(gqlErrorOf(gqlRes).extensions.code, 'BadRequest.InvalidLink');
    t.equal(gqlErrorOf(gqlRes).message, 'This link is invalid or has expired. Request a new one to reset your password.');
  });

  await t.test('login CSRF stays closed: a cookie-less sign-in must be JSON and not cross-site', async (t) => {
    const credentials = { username: ada.email, password: GOOD_PASSWORD };
    const refused = async (res: LightMyRequestResponse, what: string) => {
      t.equal(res.statusCode, 403, what);
      t.equal(errorOf(res).code, 'BadRequest.Csrf', what);
      t.notOk(res.cookies.find((c) => c.name === 'auth'), `${what}: no session`);
    };
    const form = new URLSearchParams(credentials).toString();
    await refused(await app.inject({ method: 'POST', url: '/rest/login', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form }), 'a form post');
    await refused(await app.inject({ method: 'POST', url: '/rest/login', headers: { 'content-type': 'text/plain' }, payload: JSON.stringify(credentials) }), 'JSON sent as text/plain');
    await refused(await post('/rest/login', credentials, { 'sec-fetch-site': 'cross-site' }), 'Sec-Fetch-Site: cross-site');
    await refused(await post('/rest/login', credentials, { origin: 'https://evil.example' }), 'another origin');
    await refused(await post('/rest/login', credentials, { origin: 'null' }), 'an opaque origin');
    await refused(await post('/rest/login', credentials, { origin: 'http://beta.test' }), 'the origin of another community');
    await refused(await post('/rest/password-forgot', { username: ada.email }, { 'sec-fetch-site': 'cross-site' }), 'the other sign-in calls too');

    const ours = await post('/rest/login', credentials, { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' });
    t.equal(ours.statusCode, 200, 'our own origin is welcome');
    const gqlCross = await gql('mutation L($u: String!, $p: String!) { login(username: $u, password: $p) { authToken } }', { u: ada.email, p: GOOD_PASSWORD }, { origin: 'https://evil.example' });
    t.equal(gqlCross.statusCode, 403, 'the GraphQL login as well');
    t.equal(gqlErrorOf(gqlCross).extensions.code, 'BadRequest.Csrf');
  });

  await t.test('a form that carries our cookies keeps needing its token', async (t) => {
    const { cookie } = await csrfFor(app);
    const res = await post('/rest/login', { username: ada.email, password: GOOD_PASSWORD }, { cookie });
    t.equal(res.statusCode, 403);
    t.equal(errorOf(res).code, 'BadRequest.Csrf');
  });
});

t.test('GraphQL introspection in production', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', name: 'Alpha Council' });
  const { app } = await startApp(t, db, { env: { NODE_ENV: 'production', PAYMENT_PROCESSOR: 'sandbox', LOG_LEVEL: 'silent' } });
  const ada = await createMember(db, alpha);
  await setPassword(db, ada.id);
  const introspect = (headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/graphql', headers: { ...JSON_TYPE, ...headers }, payload: JSON.stringify({ query: '{ __schema { queryType { name } } }' }) });

  await t.test('is refused to a caller who is not signed in', async (t) => {
    const res = await introspect();
    t.equal(res.statusCode, 400);
    t.equal(gqlErrorOf(res).extensions.code, 'BadRequest.Validation');
    t.match(gqlErrorOf(res).message, /introspection/);
    const typename = await app.inject({ method: 'POST', url: '/graphql', headers: JSON_TYPE, payload: JSON.stringify({ query: '{ __typename }' }) });
    t.same(typename.json().data, { __typename: 'Query' }, 'ordinary queries still work');
  });

  await t.test('answers a signed-in member', async (t) => {
    const login = await app.inject({ method: 'POST', url: '/rest/login', headers: JSON_TYPE, payload: JSON.stringify({ username: ada.email, password: GOOD_PASSWORD }) });
    const res = await introspect({ authorization: `Bearer ${login.json().authToken}` });
    t.equal(res.statusCode, 200);
    t.same(res.json().data, { __schema: { queryType: { name: 'Query' } } });
  });
});
