import t from 'tap';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { codeFrom, GOOD_PASSWORD, linkFrom, setPassword, setPhone } from '#test/helpers/auth.ts';
import { createCommunity, createMember, csrfFor } from '#test/helpers/factories.ts';
import { REFRESH_GRACE_MS } from '#src/features/auth/sessions.ts';

/** A browser for the REST calls: a cookie jar, and the page's CSRF token sent as `x-csrf-token`. */
class Browser {
  readonly cookies = new Map<string, string>();
  token = '';

  constructor(
    private readonly app: FastifyInstance,
    readonly options: { host?: string; ip?: string } = {},
  ) {}

  /** Opens a page once, as a browser does before any call: it gets the `_csrf` cookie and token. */
  static async open(app: FastifyInstance, options: { host?: string; ip?: string } = {}) {
    const browser = new Browser(app, options);
    const { token, cookie } = await csrfFor(app);
    browser.token = token;
    browser.cookies.set('_csrf', cookie.slice('_csrf='.length));
    return browser;
  }

  get cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  take(res: LightMyRequestResponse) {
    for (const c of res.cookies as { name: string; value: string; maxAge?: number }[]) {
      if (c.value === '' || c.maxAge === 0) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }

  private headers(extra: Record<string, string> = {}) {
    return {
      ...(this.options.host ? { host: this.options.host } : {}),
      ...(this.cookies.size ? { cookie: this.cookieHeader } : {}),
      ...extra,
    };
  }

  async post(url: string, payload?: object, options: { csrf?: boolean } = {}) {
    const res = await this.app.inject({
      method: 'POST',
      url,
      remoteAddress: this.options.ip,
      headers: this.headers({
        ...(payload ? { 'content-type': 'application/json' } : {}),
        ...(options.csrf === false ? {} : { 'x-csrf-token': this.token }),
      }),
      payload: payload ? JSON.stringify(payload) : undefined,
    });
    return this.take(res);
  }

  async get(url: string) {
    return this.take(await this.app.inject({ method: 'GET', url, remoteAddress: this.options.ip, headers: this.headers() }));
  }

  /** The signed-in member's id as the server sees it (GraphQL `me`; a GET needs no CSRF token). */
  async whoAmI(): Promise<string | null> {
    const res = await this.get(`/graphql?query=${encodeURIComponent('{ me { id } }')}`);
    return res.json().data.me?.id ?? null;
  }
}

const errorOf = (res: LightMyRequestResponse) => res.json().error as { code: string; message: string; fields?: Record<string, { code: unknown }> };

t.test('sign-in over REST (/rest/*)', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', name: 'Alpha Council', familiar_name: 'Alpha' });
  const beta = await createCommunity(db, { code: 'beta', name: 'Beta Guild', familiar_name: 'Beta', hosts: ['beta.test'] });
  const clock = testClock();
  const { app } = await startApp(t, db, { clock });
  const open = (options?: { host?: string; ip?: string }) => Browser.open(app, options);

  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  await setPassword(db, ada.id);
  await setPhone(db, ada.id);
  const codeOnly = await createMember(db, alpha, { firstName: 'Grace', lastName: 'Hopper' });
  const betaAdmin = await createMember(db, beta, { roles: ['ADMIN', 'MEMBER'], firstName: 'Alan', lastName: 'Turing' });
  await setPassword(db, betaAdmin.id);

  const signedIn = async (options?: { host?: string; ip?: string }) => {
    const browser = await open(options);
    const res = await browser.post('/rest/login', { username: ada.email, password: GOOD_PASSWORD });
    if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.body}`);
    return browser;
  };

  await t.test('POST /rest/login signs a member in with the form’s cookies and answers the display name and the login result', async (t) => {
    const browser = await open();
    const res = await browser.post('/rest/login', { username: ` ${ada.email.toUpperCase()} `, password: GOOD_PASSWORD });
    t.equal(res.statusCode, 200);
    const auth = res.cookies.find((c) => c.name === 'auth');
    const refresh = res.cookies.find((c) => c.name === 'refresh');
    t.same(res.json(), {
      displayName: 'Ada Lovelace',
      user: { id: ada.id, email: ada.email, displayName: 'Ada Lovelace' },
      community: { code: 'alpha', name: 'Alpha Council' },
      authToken: auth?.value,
      refreshToken: refresh?.value,
      roles: ['MEMBER'],
    });
    t.ok(auth?.value, 'the auth cookie is set');
    t.ok(refresh?.value, 'the refresh cookie is set');
    t.equal(auth?.httpOnly, true, 'HttpOnly');
    t.equal(auth?.sameSite, 'Lax', 'SameSite=Lax');
    t.equal(auth?.maxAge, undefined, 'without remember-me it ends with the browser session');
    t.equal(await browser.whoAmI(), String(ada.id), 'the cookie signs the member in');
  });

  await t.test('remember: true makes the cookies last 30 days and remembers the email', async (t) => {
    const browser = await open();
    const res = await browser.post('/rest/login', { username: ada.email, password: GOOD_PASSWORD, remember: true });
    t.equal(res.statusCode, 200);
    t.equal(res.cookies.find((c) => c.name === 'auth')?.maxAge, 30 * 24 * 3600);
    t.equal(res.cookies.find((c) => c.name === 'remember_email')?.value, ada.email);
  });

  await t.test('targetCommunity on /rest/login: this community is the member sign-in, another the admin sign-in there', async (t) => {
    const here = await open();
    const member = await here.post('/rest/login', { username: ada.email, password: GOOD_PASSWORD, targetCommunity: 'alpha' });
    t.match(member.json(), { displayName: 'Ada Lovelace', community: { code: 'alpha' } });
    t.notOk(member.cookies.find((c) => c.name === 'community' && c.value !== ''), 'no community is chosen for this community (an old choice is cleared)');
    const elsewhere = await (await open()).post('/rest/login', { username: ada.email, password: GOOD_PASSWORD, targetCommunity: 'beta' });
    t.equal(elsewhere.statusCode, 403, 'a member of alpha only is no admin of beta');
    t.equal(errorOf(elsewhere).code, 'Forbidden');
    const admin = await (await open()).post('/rest/login', { username: betaAdmin.email, password: GOOD_PASSWORD, targetCommunity: 'beta' });
    t.match(admin.json(), { displayName: 'Alan Turing', community: { code: 'beta' }, roles: ['ADMIN', 'MEMBER'] });
    t.ok(admin.cookies.find((c) => c.name === 'community')?.value.startsWith('beta.'));
  });

  await t.test('a new sign-in revokes the session the browser had', async (t) => {
    const browser = await signedIn();
    const before = browser.cookies.get('auth')!;
    await browser.post('/rest/login', { username: ada.email, password: GOOD_PASSWORD });
    const old = await app.inject({ url: `/graphql?query=${encodeURIComponent('{ me { id } }')}`, headers: { cookie: `auth=${before}` } });
    t.equal(old.json().data.me, null, 'the earlier cookie no longer signs anyone in');
  });

  await t.test('a wrong password is 401 NotAuthorized.Password and sets no cookie', async (t) => {
    const browser = await open();
    const res = await browser.post('/rest/login', { username: ada.email, password: 'Wrong-Password-1' });
    t.equal(res.statusCode, 401);
    t.same(errorOf(res), { code: 'NotAuthorized.Password', message: 'Password is incorrect.' });
    t.notOk(res.cookies.find((c) => c.name === 'auth'));
  });

  await t.test('five wrong passwords from one address lock it out with 429 BadRequest.MaxAttempts', async (t) => {
    const browser = await open({ ip: '198.51.100.5' });
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) codes.push(errorOf(await browser.post('/rest/login', { username: ada.email, password: `Wrong-Password-${i}` })).code);
    t.same(codes, ['NotAuthorized.Password', 'NotAuthorized.Password', 'NotAuthorized.Password', 'NotAuthorized.Password', 'BadRequest.MaxAttempts']);
    const right = await browser.post('/rest/login', { username: ada.email, password: GOOD_PASSWORD });
    t.equal(right.statusCode, 429, 'even the right password waits for the lockout');
    t.equal(errorOf(right).code, 'BadRequest.MaxAttempts');
    t.equal(errorOf(right).message, 'Try again in 10 minutes');
  });

  await t.test('a payload of the wrong shape is 400 with code 900 naming the field', async (t) => {
    const browser = await open();
    const missing = await browser.post('/rest/login', { username: ada.email });
    t.equal(missing.statusCode, 400);
    t.equal(errorOf(missing).code, '900');
    t.match(errorOf(missing).fields, { password: { code: 900 } });
    const wrongType = await browser.post('/rest/login', { username: ada.email, password: GOOD_PASSWORD, remember: 'yes' });
    t.equal(wrongType.statusCode, 400);
    t.match(errorOf(wrongType).fields, { remember: { code: 900 } });
    const badEmail = await browser.post('/rest/login', { username: 'not an email', password: GOOD_PASSWORD });
    t.equal(badEmail.statusCode, 400);
    t.equal(errorOf(badEmail).code, 'Invalid.Email');
  });

  await t.test('POST /rest/admin/login signs an admin into the chosen community and keeps it in the community cookie', async (t) => {
    const browser = await open();
    const res = await browser.post('/rest/admin/login', { username: betaAdmin.email, password: GOOD_PASSWORD, targetCommunity: 'beta' });
    t.equal(res.statusCode, 200);
    t.match(res.json(), { displayName: 'Alan Turing', community: { code: 'beta', name: 'Beta Guild' }, authToken: String, refreshToken: String });
    const community = res.cookies.find((c) => c.name === 'community');
    t.ok(community?.value.startsWith('beta.'), 'the chosen community, signed');
    const admin = await browser.get(`/graphqlAdmin?query=${encodeURIComponent('{ me { id communityCode } }')}`);
    t.same(admin.json().data, { me: { id: String(betaAdmin.id), communityCode: 'beta' } }, 'the admin schema answers for beta');
  });

  await t.test('POST /rest/admin/login without targetCommunity (optional, spec section 7) signs the admin into the community of the host', async (t) => {
    const onBeta = await open({ host: 'beta.test' });
    const res = await onBeta.post('/rest/admin/login', { username: betaAdmin.email, password: GOOD_PASSWORD });
    t.equal(res.statusCode, 200);
    t.match(res.json(), { displayName: 'Alan Turing', community: { code: 'beta' }, roles: ['ADMIN', 'MEMBER'] });
    t.ok(res.cookies.find((c) => c.name === 'community')?.value.startsWith('beta.'), 'the host’s community, signed');
    const onAlpha = await (await open()).post('/rest/admin/login', { username: betaAdmin.email, password: GOOD_PASSWORD });
    t.equal(onAlpha.statusCode, 403, 'on alpha’s host the same admin is no admin of alpha');
    t.equal(errorOf(onAlpha).code, 'Forbidden');
  });

  await t.test('the admin sign-in refuses a member who is not an admin there (403) and an unknown community (900)', async (t) => {
    const browser = await open();
    const member = await browser.post('/rest/admin/login', { username: ada.email, password: GOOD_PASSWORD, targetCommunity: 'alpha' });
    t.equal(member.statusCode, 403);
    t.equal(errorOf(member).code, 'Forbidden');
    t.notOk(member.cookies.find((c) => c.name === 'auth'));
    const unknown = await browser.post('/rest/admin/login', { username: betaAdmin.email, password: GOOD_PASSWORD, targetCommunity: 'nowhere' });
    t.match(errorOf(unknown), { code: '900', fields: { community: { code: 900 } } });
  });

  await t.test('POST /rest/logout revokes the session and clears the cookies (204)', async (t) => {
    const browser = await signedIn();
    const token = browser.cookies.get('auth')!;
    const res = await browser.post('/rest/logout');
    t.equal(res.statusCode, 204);
    t.equal(res.body, '');
    for (const name of ['auth', 'refresh', 'community']) {
      t.equal(res.cookies.find((c) => c.name === name)?.maxAge, 0, `${name} is cleared`);
    }
    const replay = await app.inject({ url: `/graphql?query=${encodeURIComponent('{ me { id } }')}`, headers: { cookie: `auth=${token}` } });
    t.equal(replay.json().data.me, null, 'a copy of the old cookie is signed out too');
  });

  await t.test('POST /rest/token-refresh rotates both cookies; the old refresh cookie is refused after the grace window', async (t) => {
    const browser = await signedIn();
    const oldAuth = browser.cookies.get('auth')!;
    const oldRefresh = browser.cookies.get('refresh')!;
    const res = await browser.post('/rest/token-refresh');
    t.equal(res.statusCode, 200);
    t.match(res.json(), { user: { id: ada.id }, authToken: res.cookies.find((c) => c.name === 'auth')?.value, refreshToken: res.cookies.find((c) => c.name === 'refresh')?.value });
    t.not(browser.cookies.get('auth'), oldAuth, 'a new auth cookie');
    t.not(browser.cookies.get('refresh'), oldRefresh, 'a new refresh cookie');
    t.equal(await browser.whoAmI(), String(ada.id), 'the new cookie signs the member in');
    const oldCookie = await app.inject({ url: `/graphql?query=${encodeURIComponent('{ me { id } }')}`, headers: { cookie: `auth=${oldAuth}` } });
    t.equal(oldCookie.json().data.me, null, 'the old auth cookie stops working');

    const otherTab = await open();
    otherTab.cookies.set('refresh', oldRefresh);
    const raced = await otherTab.post('/rest/token-refresh');
    t.equal(raced.statusCode, 200, 'another tab refreshing with the same cookie at once');
    t.equal(otherTab.cookies.get('refresh'), browser.cookies.get('refresh'), 'gets the same new pair');

    clock.advance(REFRESH_GRACE_MS + 1000);
    const thief = await open();
    thief.cookies.set('refresh', oldRefresh);
    const replay = await thief.post('/rest/token-refresh');
    t.equal(replay.statusCode, 401);
    t.equal(errorOf(replay).code, 'NotAuthenticated');
    t.notOk(replay.cookies.find((c) => c.name === 'auth'), 'no cookie for a spent refresh token');
    t.equal(await browser.whoAmI(), null, 'and the session it was stolen from ends');
  });

  await t.test('POST /rest/logout and /rest/token-refresh (payload: none) take Content-Type: application/json with an empty body', async (t) => {
    const browser = await signedIn();
    const empty = (url: string) =>
      app.inject({ method: 'POST', url, headers: { cookie: browser.cookieHeader, 'x-csrf-token': browser.token, 'content-type': 'application/json' }, payload: '' }).then((res) => browser.take(res));
    const refresh = await empty('/rest/token-refresh');
    t.equal(refresh.statusCode, 200, 'token-refresh');
    t.match(refresh.json(), { user: { id: ada.id }, authToken: String });
    const logout = await empty('/rest/logout');
    t.equal(logout.statusCode, 204, 'logout');
    t.equal(await browser.whoAmI(), null, 'signed out');
    const broken = await app.inject({ method: 'POST', url: '/rest/login', headers: { 'content-type': 'application/json' }, payload: '{"username":' });
    t.equal(broken.statusCode, 400, 'a body that is not JSON is still a 400');
    for (const url of ['/graphql', '/graphqlAdmin']) {
      const none = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: '' });
      t.ok(none.statusCode >= 400 && none.statusCode < 500, `${url} with an empty body: ${none.statusCode}`);
    }
  });

  await t.test('POST /rest/token-refresh without a refresh cookie is 401 NotAuthenticated', async (t) => {
    const res = await (await open()).post('/rest/token-refresh');
    t.equal(res.statusCode, 401);
    t.same(errorOf(res), { code: 'NotAuthenticated', message: 'Please sign in to continue.' });
  });

  await t.test('a refreshed remembered session keeps persistent cookies', async (t) => {
    const browser = await open();
    await browser.post('/rest/login', { username: ada.email, password: GOOD_PASSWORD, remember: true });
    const res = await browser.post('/rest/token-refresh');
    t.equal(res.cookies.find((c) => c.name === 'auth')?.maxAge, 30 * 24 * 3600);
  });

  await t.test('cookies issued for one community sign no one in on another', async (t) => {
    const browser = await signedIn();
    const onBeta = new Browser(app, { host: 'beta.test' });
    onBeta.token = browser.token;
    for (const [k, v] of browser.cookies) onBeta.cookies.set(k, v);
    t.equal(await onBeta.whoAmI(), null, 'alpha’s auth cookie is signed out on beta.test');
    const refresh = await onBeta.post('/rest/token-refresh');
    t.equal(refresh.statusCode, 401, 'alpha’s refresh cookie buys nothing on beta.test');
    t.equal(errorOf(refresh).code, 'NotAuthenticated');
    t.equal(await browser.whoAmI(), String(ada.id), 'and the member is still signed in on alpha');
  });

  await t.test('GET /rest/admin/available-communities lists every community for the admin picker', async (t) => {
    const res = await (await open()).get('/rest/admin/available-communities');
    t.equal(res.statusCode, 200);
    t.same(res.json(), {
      availableCommunities: [
        { code: 'alpha', name: 'Alpha Council', familiarName: 'Alpha' },
        { code: 'beta', name: 'Beta Guild', familiarName: 'Beta' },
      ],
    });
  });

  await t.test('POST /rest/login/auth-strategies answers the strategies of a member’s email', async (t) => {
    const browser = await open();
    const res = await browser.post('/rest/login/auth-strategies', { channel: 'EMAIL', to: ada.email });
    t.equal(res.statusCode, 200);
    t.same(res.json(), { passwordStrategy: true, otcSmsStrategy: true, smsOptions: [{ id: `sms:${ada.id}`, maskedValue: '+1 ••••••0143' }] });
    const codeOnlyRes = await browser.post('/rest/login/auth-strategies', { to: codeOnly.email });
    t.same(codeOnlyRes.json(), { passwordStrategy: false, otcSmsStrategy: false, smsOptions: [] });
  });

  await t.test('auth-strategies: an unknown email is 404 Unrecognized.Email; staff of another community BadRequest.NoAdmins', async (t) => {
    const browser = await open();
    const unknown = await browser.post('/rest/login/auth-strategies', { channel: 'EMAIL', to: 'nobody@example.com' });
    t.equal(unknown.statusCode, 404);
    t.same(errorOf(unknown), { code: 'Unrecognized.Email', message: "We don't recognize that email address." });
    const staff = await browser.post('/rest/login/auth-strategies', { channel: 'EMAIL', to: betaAdmin.email });
    t.equal(staff.statusCode, 400);
    t.equal(errorOf(staff).code, 'BadRequest.NoAdmins');
    const badChannel = await browser.post('/rest/login/auth-strategies', { channel: 'PIGEON', to: ada.email });
    t.match(errorOf(badChannel), { code: '900', fields: { channel: { code: 900 } } });
  });

  await t.test('auth-strategies answers 429 RateLimited after 20 calls a minute from one address', async (t) => {
    const browser = await open({ ip: '192.0.2.77' });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await browser.post('/rest/login/auth-strategies', { channel: 'EMAIL', to: `guess-${i}@example.com` })).statusCode);
    t.same(new Set(statuses), new Set([404]), 'the first 20 are answered');
    const over = await browser.post('/rest/login/auth-strategies', { channel: 'EMAIL', to: ada.email });
    t.equal(over.statusCode, 429);
    t.equal(errorOf(over).code, 'RateLimited');
    const elsewhere = await (await open({ ip: '192.0.2.78' })).post('/rest/login/auth-strategies', { channel: 'EMAIL', to: ada.email });
    t.equal(elsewhere.statusCode, 200, 'another address is still answered');
  });

  await t.test('one-time code by email: sent, redeemed once for the spec’s login result with cookies', async (t) => {
    const browser = await open();
    const sent = await browser.post('/rest/login/one-time', { channel: 'EMAIL', to: codeOnly.email });
    t.equal(sent.statusCode, 200);
    t.same(sent.json(), { channel: 'EMAIL', maskedDestination: `m${'•'.repeat(codeOnly.email.indexOf('@') - 1)}@example.com` });
    const code = await codeFrom(app, codeOnly.email);

    const wrong = await browser.post('/rest/login/one-time-redeem', { to: codeOnly.email, code: code === '00000' ? '11111' : '00000' });
    t.equal(wrong.statusCode, 400);
    t.same(errorOf(wrong), { code: 'BadRequest.InvalidCode', message: 'That code is invalid or expired, request a new code below.' });

    const res = await browser.post('/rest/login/one-time-redeem', { to: codeOnly.email, code });
    t.equal(res.statusCode, 200);
    const body = res.json();
    t.same(body, {
      user: { id: codeOnly.id, email: codeOnly.email, displayName: 'Grace Hopper' },
      community: { code: 'alpha', name: 'Alpha Council' },
      authToken: browser.cookies.get('auth'),
      refreshToken: browser.cookies.get('refresh'),
      roles: ['MEMBER'],
    });
    t.equal(await browser.whoAmI(), String(codeOnly.id));

    const again = await (await open()).post('/rest/login/one-time-redeem', { to: codeOnly.email, code });
    t.equal(again.statusCode, 400, 'a code works once');
    t.equal(errorOf(again).code, 'BadRequest.InvalidCode');
  });

  await t.test('one-time code by SMS goes to the member’s phone', async (t) => {
    const browser = await open();
    const sent = await browser.post('/rest/login/one-time', { channel: 'SMS', to: ada.email });
    t.same(sent.json(), { channel: 'SMS', maskedDestination: '+1 ••••••0143' });
    const res = await browser.post('/rest/login/one-time-redeem', { to: ada.email, code: await codeFrom(app, '+12025550143', 'sms') });
    t.equal(res.statusCode, 200);
    t.equal(res.json().user.id, ada.id);
  });

  await t.test('one-time code: an unknown email is 404 Unrecognized.Email; SMS without a phone is 110', async (t) => {
    const browser = await open();
    const unknown = await browser.post('/rest/login/one-time', { channel: 'EMAIL', to: 'nobody@example.com' });
    t.equal(unknown.statusCode, 404);
    t.equal(errorOf(unknown).code, 'Unrecognized.Email');
    const noPhone = await browser.post('/rest/login/one-time', { channel: 'SMS', to: codeOnly.email });
    t.equal(noPhone.statusCode, 400);
    t.equal(errorOf(noPhone).code, '110');
  });

  await t.test('password reset: forgot, validate the link’s token, reset (121 for a weak password, the invalid link once spent)', async (t) => {
    const member = await createMember(db, alpha, { firstName: 'Katherine', lastName: 'Johnson' });
    await setPassword(db, member.id);
    const browser = await open();
    const forgot = await browser.post('/rest/password-forgot', { username: member.email });
    t.equal(forgot.statusCode, 200);
    t.same(forgot.json(), {});
    const token = new URL(await linkFrom(app, member.email)).searchParams.get('token')!;

    const valid = await browser.get(`/rest/validate-reset-token?token=${encodeURIComponent(token)}`);
    t.equal(valid.statusCode, 200);
    t.same(valid.json(), { isValid: true });

    const weak = await browser.post('/rest/reset-password', { resetToken: token, newPassword: 'weak' });
    t.equal(weak.statusCode, 400);
    t.same(errorOf(weak).code, '121');
    t.equal(errorOf(weak).message, 'The password does not meet the requirements.');

    const newPassword = 'Another-Horse-7';
    const reset = await browser.post('/rest/reset-password', { resetToken: token, newPassword });
    t.equal(reset.statusCode, 200);
    t.same(reset.json(), {});
    t.same((await browser.get(`/rest/validate-reset-token?token=${encodeURIComponent(token)}`)).json(), { isValid: false }, 'the link is spent');
    const replay = await browser.post('/rest/reset-password', { resetToken: token, newPassword: 'Yet-Another-8' });
    t.equal(replay.statusCode, 400);
    t.same(errorOf(replay), {
      code: 'BadRequest.InvalidLink',
      message: 'This link is invalid or has expired. Request a new one to reset your password.',
      fields: { token: { code: 'BadRequest.InvalidLink', key: 'auth.reset.invalidLink' } },
    });

    const login = await browser.post('/rest/login', { username: member.email, password: newPassword });
    t.equal(login.statusCode, 200, 'the new password signs in');
  });

  await t.test('password-forgot for an unknown username is 404 Unrecognized.Email, "A member with that username could not be found", and sends nothing', async (t) => {
    const res = await (await open()).post('/rest/password-forgot', { username: 'nobody-at-all@example.com' });
    t.equal(res.statusCode, 404);
    t.same(errorOf(res), { code: 'Unrecognized.Email', message: 'A member with that username could not be found' });
    await app.jobs.drain();
    t.equal(app.outbox.latestTo('nobody-at-all@example.com'), undefined);
  });

  await t.test('validate-reset-token: a made-up token is not valid; a missing one is 400 with code 900', async (t) => {
    const browser = await open();
    t.same((await browser.get('/rest/validate-reset-token?token=made-up-token-made-up-token')).json(), { isValid: false });
    const missing = await browser.get('/rest/validate-reset-token');
    t.equal(missing.statusCode, 400);
    t.match(errorOf(missing), { code: '900', fields: { token: { code: 900 } } });
  });

  await t.test('every POST that carries our cookies needs the CSRF token, signed in or not: 403 BadRequest.Csrf', async (t) => {
    const browser = await signedIn();
    const logout = await browser.post('/rest/logout', undefined, { csrf: false });
    t.equal(logout.statusCode, 403);
    t.same(errorOf(logout), { code: 'BadRequest.Csrf', message: 'This form has expired. Please reload the page and try again.' });
    t.equal(await browser.whoAmI(), String(ada.id), 'the session survives the forged sign-out');

    const refresh = await browser.post('/rest/token-refresh', undefined, { csrf: false });
    t.equal(refresh.statusCode, 403);
    t.equal(errorOf(refresh).code, 'BadRequest.Csrf');

    // A page on another site can post without our cookies: as a form, or with a browser that says
    // where it comes from, the login is refused all the same (a cookie-less client is not: bearer.test.ts).
    const bare = await app.inject({
      method: 'POST',
      url: '/rest/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username: ada.email, password: GOOD_PASSWORD }).toString(),
    });
    t.equal(bare.statusCode, 403);
    t.equal(errorOf(bare).code, 'BadRequest.Csrf');
    t.notOk(bare.cookies.find((c) => c.name === 'auth'), 'no login CSRF');
    const crossSite = await app.inject({
      method: 'POST',
      url: '/rest/login',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      payload: JSON.stringify({ username: ada.email, password: GOOD_PASSWORD }),
    });
    t.equal(crossSite.statusCode, 403);
    t.equal(errorOf(crossSite).code, 'BadRequest.Csrf');

    const anonymous = await open();
    anonymous.token = (await csrfFor(app)).token; // a token minted for another browser's secret
    const mixed = await anonymous.post('/rest/login', { username: ada.email, password: GOOD_PASSWORD });
    t.equal(mixed.statusCode, 403);
    t.equal(errorOf(mixed).code, 'BadRequest.Csrf');
  });
});
