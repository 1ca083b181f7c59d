import t from 'tap';
import type { LightMyRequestResponse } from 'fastify';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { codeFrom, GOOD_PASSWORD, linkFrom, setPassword, setPhone } from '#test/helpers/auth.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';
import { REFRESH_GRACE_MS } from '#src/features/auth/sessions.ts';

const LOGIN = /* GraphQL */ `
  mutation Login($username: String!, $password: String!, $targetCommunity: String, $remember: Boolean) {
    login(username: $username, password: $password, targetCommunity: $targetCommunity, remember: $remember) {
      user { id email displayName } community { code name } authToken refreshToken roles
    }
  }
`;
const RESULT_FIELDS = 'user { id email displayName } community { code name } authToken refreshToken roles';

type Jar = { cookie?: string; token?: string; host?: string; ip?: string };
type GqlError = { message: string; extensions: { code: string } };

/** Cookies set by a response, as a Cookie header (cleared ones left out). */
const cookiesOf = (res: LightMyRequestResponse) =>
  (res.cookies as { name: string; value: string; maxAge?: number }[])
    .filter((c) => c.value !== '' && c.maxAge !== 0)
    .map((c) => `${c.name}=${c.value}`)
    .join('; ');

t.test('sign-in over GraphQL (/graphql)', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', name: 'Alpha Council' });
  const beta = await createCommunity(db, { code: 'beta', name: 'Beta Guild', hosts: ['beta.test'] });
  const clock = testClock();
  const { app } = await startApp(t, db, { clock });

  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  await setPassword(db, ada.id);
  await setPhone(db, ada.id);
  const codeOnly = await createMember(db, alpha, { firstName: 'Grace', lastName: 'Hopper' });
  const betaAdmin = await createMember(db, beta, { roles: ['ADMIN', 'MEMBER'], firstName: 'Alan', lastName: 'Turing' });
  await setPassword(db, betaAdmin.id);

  /** A POST to /graphql; with a cookie, the CSRF token goes along unless `token` is ''. */
  const gql = (query: string, variables: object = {}, jar: Jar = {}) =>
    app.inject({
      method: 'POST',
      url: '/graphql',
      remoteAddress: jar.ip,
      headers: {
        'content-type': 'application/json',
        ...(jar.host ? { host: jar.host } : {}),
        ...(jar.cookie ? { cookie: jar.cookie } : {}),
        ...(jar.token ? { 'x-csrf-token': jar.token } : {}),
      },
      payload: JSON.stringify({ query, variables }),
    });
  const errorOf = (res: LightMyRequestResponse) => (res.json().errors as GqlError[])[0]!;
  /** A browser signed in through the login mutation, with its CSRF token for the next POSTs. */
  const loggedIn = async (username = ada.email, extra: object = {}) => {
    const res = await gql(LOGIN, { username, password: GOOD_PASSWORD, ...extra });
    if (res.statusCode !== 200 || !res.json().data?.login) throw new Error(`login failed: ${res.body}`);
    return { res, ...(await csrfFor(app, cookiesOf(res))) };
  };
  const me = async (jar: Jar) => (await gql('{ me { id communityCode } }', {}, jar)).json().data.me as { id: string; communityCode: string } | null;

  await t.test('login answers the spec’s login result and sets the cookies; me then answers with that cookie', async (t) => {
    const res = await gql(LOGIN, { username: ada.email, password: GOOD_PASSWORD });
    t.equal(res.statusCode, 200);
    const result = res.json().data.login;
    const auth = res.cookies.find((c) => c.name === 'auth');
    const refresh = res.cookies.find((c) => c.name === 'refresh');
    t.same(result, {
      user: { id: String(ada.id), email: ada.email, displayName: 'Ada Lovelace' },
      community: { code: 'alpha', name: 'Alpha Council' },
      authToken: auth?.value,
      refreshToken: refresh?.value,
      roles: ['MEMBER'],
    });
    t.equal(auth?.httpOnly, true);
    const browser = await csrfFor(app, cookiesOf(res));
    t.same(await me(browser), { id: String(ada.id), communityCode: 'alpha' });
  });

  await t.test('login with a wrong password is NotAuthorized.Password (401) and sets no cookie', async (t) => {
    const res = await gql(LOGIN, { username: ada.email, password: 'Wrong-Password-1' });
    t.equal(res.statusCode, 401);
    t.equal(res.json().data, null);
    t.same(errorOf(res), { ...errorOf(res), message: 'Password is incorrect.', extensions: { code: 'NotAuthorized.Password' } });
    t.notOk(res.cookies.find((c) => c.name === 'auth'));
  });

  await t.test('five wrong passwords from one address are a lockout: BadRequest.MaxAttempts (429)', async (t) => {
    let res: LightMyRequestResponse | undefined;
    for (let i = 0; i < 5; i++) res = await gql(LOGIN, { username: ada.email, password: `Wrong-Password-${i}` }, { ip: '198.51.100.6' });
    t.equal(res!.statusCode, 429);
    t.equal(errorOf(res!).extensions.code, 'BadRequest.MaxAttempts');
  });

  await t.test('login with another community as target is the admin sign-in there', async (t) => {
    const res = await gql(LOGIN, { username: betaAdmin.email, password: GOOD_PASSWORD, targetCommunity: 'beta' });
    t.equal(res.statusCode, 200);
    t.match(res.json().data.login, { user: { displayName: 'Alan Turing' }, community: { code: 'beta', name: 'Beta Guild' }, roles: ['ADMIN', 'MEMBER'] });
    t.ok(res.cookies.find((c) => c.name === 'community')?.value.startsWith('beta.'), 'the chosen community is kept');
    const browser = await csrfFor(app, cookiesOf(res));
    t.same(await me(browser), { id: String(betaAdmin.id), communityCode: 'beta' });

    const notAdmin = await gql(LOGIN, { username: ada.email, password: GOOD_PASSWORD, targetCommunity: 'beta' });
    t.equal(notAdmin.statusCode, 403);
    t.equal(errorOf(notAdmin).extensions.code, 'Forbidden');
  });

  await t.test('a login that carries our cookies needs the CSRF token: BadRequest.Csrf', async (t) => {
    const { cookie } = await csrfFor(app);
    const res = await gql(LOGIN, { username: ada.email, password: GOOD_PASSWORD }, { cookie });
    t.equal(res.statusCode, 403);
    t.equal(errorOf(res).extensions.code, 'BadRequest.Csrf');
    t.notOk(res.cookies.find((c) => c.name === 'auth'));
  });

  await t.test('a cross-site HTML form cannot sign a browser in (only JSON bodies are read)', async (t) => {
    const query = `mutation { login(username: "${ada.email}", password: "${GOOD_PASSWORD}") { authToken } }`;
    for (const [type, payload] of [
      ['application/x-www-form-urlencoded', `query=${encodeURIComponent(query)}`],
      ['text/plain', JSON.stringify({ query })],
    ] as const) {
      const res = await app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': type }, payload });
      t.equal(res.statusCode, 415, `${type} is refused`);
      t.equal(errorOf(res).extensions.code, 'BadRequest.Validation');
      t.notOk(res.cookies.find((c) => c.name === 'auth'), 'no cookie');
    }
  });

  await t.test('a cookie for one community signs no one in on another', async (t) => {
    const alphaBrowser = await loggedIn();
    t.equal(await me({ ...alphaBrowser, host: 'beta.test' }), null, 'alpha’s cookie is signed out on beta.test');
    const refresh = await gql(`mutation { tokenRefresh { ${RESULT_FIELDS} } }`, {}, { ...alphaBrowser, host: 'beta.test' });
    t.equal(errorOf(refresh).extensions.code, 'NotAuthenticated');
    t.same(await me(alphaBrowser), { id: String(ada.id), communityCode: 'alpha' }, 'and still signed in on alpha');
  });

  await t.test('logout revokes the session and clears the cookies', async (t) => {
    const browser = await loggedIn();
    const res = await gql('mutation { logout }', {}, browser);
    t.equal(res.statusCode, 200);
    t.same(res.json().data, { logout: true });
    t.equal(res.cookies.find((c) => c.name === 'auth')?.maxAge, 0, 'auth is cleared');
    t.equal(res.cookies.find((c) => c.name === 'refresh')?.maxAge, 0, 'refresh is cleared');
    t.equal(await me(browser), null, 'the old cookie is signed out');
  });

  await t.test('tokenRefresh rotates the cookies; the old refresh cookie answers the same pair for the grace window, then is refused', async (t) => {
    const browser = await loggedIn();
    const oldRefresh = /refresh=([^;]+)/.exec(browser.cookie)![1]!;
    const res = await gql(`mutation { tokenRefresh { ${RESULT_FIELDS} } }`, {}, browser);
    t.equal(res.statusCode, 200);
    const result = res.json().data.tokenRefresh;
    t.match(result, { user: { id: String(ada.id), displayName: 'Ada Lovelace' }, community: { code: 'alpha' }, roles: ['MEMBER'] });
    t.equal(result.authToken, res.cookies.find((c) => c.name === 'auth')?.value, 'the new auth cookie is the answered token');
    t.not(result.refreshToken, oldRefresh, 'a new refresh token');
    t.equal(await me(browser), null, 'the old auth cookie stops working');
    const fresh = await csrfFor(app, cookiesOf(res));
    t.same(await me(fresh), { id: String(ada.id), communityCode: 'alpha' });

    const oldJar = { cookie: `refresh=${oldRefresh}; ${/_csrf=[^;]+/.exec(browser.cookie)![0]}`, token: browser.token };
    const retry = await gql(`mutation { tokenRefresh { authToken refreshToken } }`, {}, oldJar);
    t.same(retry.json().data.tokenRefresh, { authToken: result.authToken, refreshToken: result.refreshToken }, 'another tab refreshing at once gets the same pair');
    clock.advance(REFRESH_GRACE_MS + 1000);
    const replay = await gql(`mutation { tokenRefresh { authToken } }`, {}, oldJar);
    t.equal(replay.statusCode, 401);
    t.equal(errorOf(replay).extensions.code, 'NotAuthenticated');
    t.equal(await me(fresh), null, 'a replay after the grace window ends the session');
  });

  await t.test('tokenRefresh with only the refresh cookie still needs the CSRF token', async (t) => {
    const browser = await loggedIn();
    const refreshOnly = /refresh=[^;]+/.exec(browser.cookie)![0];
    const res = await gql(`mutation { tokenRefresh { authToken } }`, {}, { cookie: refreshOnly });
    t.equal(res.statusCode, 403);
    t.equal(errorOf(res).extensions.code, 'BadRequest.Csrf');
  });

  await t.test('authStrategies answers the strategies; unknown emails and staff elsewhere get their codes', async (t) => {
    const q = 'query S($to: String!, $channel: Channel) { authStrategies(to: $to, channel: $channel) { passwordStrategy otcSmsStrategy smsOptions { id maskedValue } } }';
    const res = await gql(q, { to: ada.email, channel: 'EMAIL' });
    t.same(res.json().data.authStrategies, { passwordStrategy: true, otcSmsStrategy: true, smsOptions: [{ id: `sms:${ada.id}`, maskedValue: '+1 ••••••0143' }] });
    const unknown = await gql(q, { to: 'nobody@example.com' });
    t.equal(unknown.statusCode, 404);
    t.same(errorOf(unknown), { ...errorOf(unknown), message: "We don't recognize that email address.", extensions: { code: 'Unrecognized.Email' } });
    const staff = await gql(q, { to: betaAdmin.email });
    t.equal(errorOf(staff).extensions.code, 'BadRequest.NoAdmins');
  });

  await t.test('authStrategies answers RateLimited (429) after 20 lookups a minute from one address', async (t) => {
    const q = 'query S($to: String!) { authStrategies(to: $to) { passwordStrategy } }';
    const codes = new Set<string>();
    for (let i = 0; i < 20; i++) codes.add(errorOf(await gql(q, { to: `guess-${i}@example.com` }, { ip: '192.0.2.90' })).extensions.code);
    t.same([...codes], ['Unrecognized.Email'], 'the first 20 are answered');
    const over = await gql(q, { to: ada.email }, { ip: '192.0.2.90' });
    t.equal(over.statusCode, 429);
    t.equal(errorOf(over).extensions.code, 'RateLimited');
    t.equal((await gql(q, { to: ada.email }, { ip: '192.0.2.91' })).statusCode, 200, 'another address is still answered');
  });

  await t.test('oneTimeCodeGenerate then oneTimeCodeVerify signs in once with the code from the message', async (t) => {
    const sent = await gql('mutation { oneTimeCodeGenerate(to: "' + codeOnly.email + '", channel: EMAIL) { channel maskedDestination } }');
    t.equal(sent.statusCode, 200);
    t.match(sent.json().data.oneTimeCodeGenerate, { channel: 'EMAIL', maskedDestination: /^m•+@example\.com$/ });
    const code = await codeFrom(app, codeOnly.email);
    const verify = `mutation V($to: String!, $code: String!) { oneTimeCodeVerify(to: $to, code: $code) { ${RESULT_FIELDS} } }`;

    const wrong = await gql(verify, { to: codeOnly.email, code: code === '00000' ? '11111' : '00000' });
    t.equal(wrong.statusCode, 400);
    t.same(errorOf(wrong), { ...errorOf(wrong), message: 'That code is invalid or expired, request a new code below.', extensions: { code: 'BadRequest.InvalidCode' } });

    const res = await gql(verify, { to: codeOnly.email, code });
    t.equal(res.statusCode, 200);
    t.match(res.json().data.oneTimeCodeVerify, { user: { id: String(codeOnly.id), displayName: 'Grace Hopper' }, community: { code: 'alpha' }, roles: ['MEMBER'] });
    t.same(await me(await csrfFor(app, cookiesOf(res))), { id: String(codeOnly.id), communityCode: 'alpha' });
    t.equal(errorOf(await gql(verify, { to: codeOnly.email, code })).extensions.code, 'BadRequest.InvalidCode', 'a code works once');
  });

  await t.test('oneTimeCodeGenerate by SMS, and for an unknown email Unrecognized.Email', async (t) => {
    const sms = await gql(`mutation { oneTimeCodeGenerate(to: "${ada.email}", channel: SMS) { channel maskedDestination } }`);
    t.same(sms.json().data.oneTimeCodeGenerate, { channel: 'SMS', maskedDestination: '+1 ••••••0143' });
    t.match(await codeFrom(app, '+12025550143', 'sms'), /^\d{5}$/);
    const unknown = await gql('mutation { oneTimeCodeGenerate(to: "nobody@example.com") { channel } }');
    t.equal(errorOf(unknown).extensions.code, 'Unrecognized.Email');
  });

  await t.test('passwordForgot, passwordTokenIsValid and passwordReset (121 when weak, the invalid link once spent)', async (t) => {
    const member = await createMember(db, alpha);
    await setPassword(db, member.id);
    t.same((await gql(`mutation { passwordForgot(username: "${member.email}") }`)).json().data, { passwordForgot: true });
    const stranger = (await gql('mutation { passwordForgot(username: "nobody-here@example.com") }')).json();
    t.equal(stranger.data, null, 'a stranger is refused');
    t.match(stranger.errors[0], { message: 'A member with that username could not be found', extensions: { code: 'Unrecognized.Email' } });
    await app.jobs.drain();
    t.equal(app.outbox.latestTo('nobody-here@example.com'), undefined, 'and nothing sent');
    const token = new URL(await linkFrom(app, member.email)).searchParams.get('token')!;
    const isValid = 'query V($token: String!) { passwordTokenIsValid(token: $token) }';
    t.same((await gql(isValid, { token })).json().data, { passwordTokenIsValid: true });

    const reset = 'mutation R($resetToken: String!, $newPassword: String!) { passwordReset(resetToken: $resetToken, newPassword: $newPassword) }';
    const weak = await gql(reset, { resetToken: token, newPassword: 'weak' });
    t.equal(weak.statusCode, 400);
    t.equal(errorOf(weak).extensions.code, '121');
    t.same((await gql(reset, { resetToken: token, newPassword: 'Another-Horse-7' })).json().data, { passwordReset: true });
    t.same((await gql(isValid, { token })).json().data, { passwordTokenIsValid: false }, 'the link is spent');
    const spent = errorOf(await gql(reset, { resetToken: token, newPassword: 'Yet-Another-8' }));
    t.equal(spent.extensions.code, 'BadRequest.InvalidLink');
    t.equal(spent.message, 'This link is invalid or has expired. Request a new one to reset your password.');
    t.equal((await gql(LOGIN, { username: member.email, password: 'Another-Horse-7' })).statusCode, 200, 'the new password signs in');
  });

  await t.test('passwordUpdate needs a signed-in member: NotAuthenticated otherwise', async (t) => {
    const res = await gql('mutation { passwordUpdate(oldPassword: "x", newPassword: "Another-Horse-7") }');
    t.equal(res.statusCode, 401);
    t.equal(errorOf(res).extensions.code, 'NotAuthenticated');
    t.equal(errorOf(res).message, 'Please sign in to continue.');
  });

  await t.test('passwordUpdate checks the current password, then ends the member’s other sessions only', async (t) => {
    const member = await createMember(db, alpha);
    await setPassword(db, member.id);
    const other = await csrfFor(app, (await signIn(app, member, alpha)).cookie);
    const browser = await loggedIn(member.email);
    const update = 'mutation U($old: String!, $new: String!) { passwordUpdate(oldPassword: $old, newPassword: $new) }';

    const wrong = await gql(update, { old: 'Not-The-Password-1', new: 'Another-Horse-7' }, browser);
    t.equal(wrong.statusCode, 400, 'not 401: a 401 from the API marks the user as logged out');
    t.equal(errorOf(wrong).extensions.code, 'NotAuthorized.Password');
    t.equal(errorOf(wrong).message, 'Current password incorrect', 'the spec’s message for a password change');
    const weak = await gql(update, { old: GOOD_PASSWORD, new: 'weak' }, browser);
    t.equal(errorOf(weak).extensions.code, '121');

    const ok = await gql(update, { old: GOOD_PASSWORD, new: 'Another-Horse-7' }, browser);
    t.same(ok.json().data, { passwordUpdate: true });
    t.same(await me(browser), { id: String(member.id), communityCode: 'alpha' }, 'this session goes on');
    t.equal(await me(other), null, 'the other session is ended');
    t.equal((await gql(LOGIN, { username: member.email, password: 'Another-Horse-7' })).statusCode, 200, 'the new password signs in');
  });
});
