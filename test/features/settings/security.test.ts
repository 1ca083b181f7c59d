import t from 'tap';
import { hashPassword } from '#src/core/passwords.ts';
import { deviceLabel } from '#src/features/settings/security.ts';
import { AUTH_COOKIE, cleanUserAgent } from '#src/features/auth/sessions.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';

const OLD = 'Old-password-1';
const NEW = 'New-password-2';
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IOS = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

t.test('device labels and stored user agents', async (t) => {
  t.equal(deviceLabel(CHROME_MAC), 'Chrome on macOS');
  t.equal(deviceLabel(FIREFOX_WIN), 'Firefox on Windows');
  t.equal(deviceLabel(SAFARI_IOS), 'Safari on iOS');
  t.equal(deviceLabel(null), null);
  t.equal(deviceLabel('curl/8.0'), null);
  t.equal(cleanUserAgent(`a\u0000b\u0007c${'x'.repeat(1000)}`)!.length, 512, 'control characters dropped, 512 at most');
  t.equal(cleanUserAgent(`a\u0000b`), 'ab');
  t.equal(cleanUserAgent(''), null);
});

t.test('settings → security', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'] });
  const { app } = await startApp(t, db, { clock });
  const html = { accept: 'text/html' };

  const member = async (community = alpha) => {
    const user = await createMember(db, community, { firstName: 'Sec', lastName: 'Urity' });
    await db.updateTable('users').set({ password_hash: await hashPassword(OLD) }).where('id', '=', user.id).execute();
    return user;
  };
  /** Signs in through the real form so the session records its user agent. */
  const signInForm = async (email: string, userAgent: string) => {
    const jar = await csrfFor(app, '', '/login');
    const res = await app.inject({
      method: 'POST',
      url: '/login/password',
      headers: { ...html, cookie: jar.cookie, 'user-agent': userAgent, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: jar.token, email, password: OLD }).toString(),
    });
    const auth = res.cookies.find((c) => c.name === AUTH_COOKIE);
    return auth ? `${AUTH_COOKIE}=${auth.value}` : null;
  };
  const post = (url: string, jar: { cookie: string; token: string }, fields: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url,
      headers: { ...html, cookie: jar.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: jar.token, ...fields }).toString(),
    });
  const isSignedIn = async (cookie: string) => (await app.inject({ url: '/settings/security', headers: { ...html, cookie } })).statusCode === 200;

  await t.test('the section: username with the concierge, masked password, phone not set, sessions', async (t) => {
    const u = await member();
    const { cookie } = await signIn(app, u, alpha);
    for (const url of ['/settings', '/settings/security']) {
      const res = await app.inject({ url, headers: { ...html, cookie } });
      t.equal(res.statusCode, 200, url);
      t.match(res.body, `member-`);
      t.match(res.body, 'To change your username, contact the concierge at concierge@alpha.example.com.');
      t.match(res.body, '••••••••');
      t.match(res.body, /href="\/settings\/security\/password" data-modal=""/);
      t.match(res.body, 'Not set');
      t.match(res.body, 'This device');
      t.match(res.body, 'Unknown device', 'a session without a user agent');
      t.match(res.body, 'data-island="ModalDialog"');
    }
    const frag = await app.inject({ url: '/settings/security/password?fragment=1', headers: { ...html, cookie } });
    t.equal(frag.statusCode, 200);
    t.notMatch(frag.body, '<html', 'the fragment alone');
    t.match(frag.body, 'data-modal-form');
    t.match(frag.body, 'Current password');
  });

  await t.test('change password without JavaScript: wrong current, weak, mismatch, success', async (t) => {
    const u = await member();
    const here = await signIn(app, u, alpha);
    const elsewhere = await signIn(app, u, alpha);
    const jar = await csrfFor(app, here.cookie, '/settings/security/password');

    const wrong = await post('/settings/security/password', jar, { oldPassword: 'nope', password: NEW, confirm: NEW });
    t.equal(wrong.statusCode, 400, 'not 401: the spec reads a 401 as signed out, and the member is not');
    t.match(wrong.body, /id="old-password-error">Current password incorrect</);
    t.ok(await isSignedIn(here.cookie), 'a typo in the current password keeps the member signed in');
    t.notMatch(wrong.body, 'Password is incorrect.', 'only the spec’s wording for a password change');
    t.notMatch(wrong.body, NEW, 'passwords are never sent back');

    const weak = await post('/settings/security/password', jar, { oldPassword: OLD, password: 'weak', confirm: 'weak' });
    t.equal(weak.statusCode, 400);
    t.match(weak.body, 'new-password-error');

    const mismatch = await post('/settings/security/password', jar, { oldPassword: OLD, password: NEW, confirm: `${NEW}x` });
    t.equal(mismatch.statusCode, 400);
    t.match(mismatch.body, 'confirm-password-error');

    const empty = await post('/settings/security/password', jar, { oldPassword: '', password: NEW, confirm: NEW });
    t.equal(empty.statusCode, 400, 'an empty current password is refused');
    t.match(empty.body, /id="old-password-error">This field is required.</, 'with the message by the field');

    // Every failing rule at once, each by its field.
    const everything = await post('/settings/security/password', jar, { oldPassword: 'nope', password: 'weak1', confirm: 'other' });
    t.match(everything.body, /id="old-password-error">Current password incorrect</, 'the current password');
    t.match(everything.body, /id="new-password-error">The password does not meet the requirements. Still needed: Upper and lower case; 8 characters.</, 'each strength rule the new one breaks');
    t.match(everything.body, /id="confirm-password-error"[^>]*>The passwords do not match.</, 'the mismatch');
    const weakAndMissing = await post('/settings/security/password', jar, { oldPassword: '', password: 'lowercase', confirm: 'lowercase' });
    t.match(weakAndMissing.body, /id="old-password-error">This field is required.</);
    t.match(weakAndMissing.body, /id="new-password-error">The password does not meet the requirements. Still needed: Upper and lower case; Numbers or symbols.</);
    t.notMatch(weakAndMissing.body, 'confirm-password-error', 'a matching confirmation has no message');

    const frag = await post('/settings/security/password?fragment=1', jar, { oldPassword: 'nope', password: NEW, confirm: NEW });
    t.equal(frag.statusCode, 200, 'the dialog gets its fragment with the message as a 200');
    t.match(frag.body, 'Current password incorrect');
    t.notMatch(frag.body, '<html');

    const ok = await post('/settings/security/password', jar, { oldPassword: OLD, password: NEW, confirm: NEW });
    t.equal(ok.statusCode, 303);
    t.equal(ok.headers.location, '/settings/security?alert=password-changed');
    const after = await app.inject({ url: ok.headers.location as string, headers: { ...html, cookie: here.cookie } });
    t.equal(after.statusCode, 200, 'this device stays signed in');
    t.match(after.body, 'Your password was changed. Your other devices are signed out.');
    t.notOk(await isSignedIn(elsewhere.cookie), 'the other session is signed out at once');
    const notes = await db.selectFrom('notifications').select(['kind', 'message', 'community_id']).where('user_id', '=', u.id).execute();
    t.equal(notes.length, 1);
    t.equal(notes[0]!.kind, 'account_security');
    t.equal(notes[0]!.community_id, alpha.id);
    t.equal(notes[0]!.message, "Your password was changed on 2026-11-21. If this wasn't you, contact the concierge.");
    t.ok((await app.jobs.drain(['notifications.deliver'])) >= 1, 'a delivery job was queued with it');
  });

  await t.test('mobile phone: invalid, valid, removed, hostile', async (t) => {
    const u = await member();
    const jar = await csrfFor(app, (await signIn(app, u, alpha)).cookie, '/settings/security/phone');
    const page = await app.inject({ url: '/settings/security/phone', headers: { ...html, cookie: jar.cookie } });
    t.match(page.body, /<option value="US" selected="">United States \(\+1\)<\/option>/, 'US by default');
    t.match(page.body, 'United Kingdom (+44)');

    const bad = await post('/settings/security/phone', jar, { countryCode: 'US', number: '12' });
    t.equal(bad.statusCode, 400);
    t.match(bad.body, /id="phone-number-error">Please enter a valid phone number.</);
    t.match(bad.body, /value="12"/, 'the typed number is kept');
    t.match(bad.body, 'Your mobile phone could not be saved.');

    const frag = await post('/settings/security/phone?fragment=1', jar, { countryCode: 'GB', number: 'abc' });
    t.equal(frag.statusCode, 200);
    t.match(frag.body, /<option value="GB" selected="">/);

    const ok = await post('/settings/security/phone', jar, { countryCode: 'GB', number: '07400 123456' });
    t.equal(ok.statusCode, 303);
    t.equal(ok.headers.location, '/settings/security?alert=phone-saved');
    const row = await db.selectFrom('users').select(['mobile_country_code', 'mobile_number']).where('id', '=', u.id).executeTakeFirstOrThrow();
    t.same(row, { mobile_country_code: 'GB', mobile_number: '7400123456' });
    const section = await app.inject({ url: '/settings/security', headers: { ...html, cookie: jar.cookie } });
    t.match(section.body, '+44 7400 123456');

    for (const fields of [{ countryCode: 'US', number: `202555\u00000142` }, { countryCode: 'US', number: '9'.repeat(100_000) }, { countryCode: 'ZZZ', number: '1' }]) {
      const res = await post('/settings/security/phone', jar, fields);
      t.ok(res.statusCode >= 400 && res.statusCode < 500, `hostile input is a 4xx (${res.statusCode})`);
    }

    const removed = await post('/settings/security/phone', jar, { countryCode: 'US', number: '' });
    t.equal(removed.headers.location, '/settings/security?alert=phone-removed');
    const gone = await db.selectFrom('users').select(['mobile_country_code', 'mobile_number']).where('id', '=', u.id).executeTakeFirstOrThrow();
    t.same(gone, { mobile_country_code: null, mobile_number: null });
    const kinds = await db.selectFrom('notifications').select('kind').where('user_id', '=', u.id).execute();
    t.equal(kinds.length, 2, 'notified on each change');
  });

  await t.test('sessions: devices, sign out one, everywhere else, this device; tenancy', async (t) => {
    const u = await member();
    const mac = await signInForm(u.email, CHROME_MAC);
    const win = await signInForm(u.email, FIREFOX_WIN);
    const ios = await signInForm(u.email, SAFARI_IOS);
    t.ok(mac && win && ios, 'three sign-ins through the form');
    const jar = await csrfFor(app, mac!, '/settings/security');
    const page = await app.inject({ url: '/settings/security', headers: { ...html, cookie: mac! } });
    t.match(page.body, 'Chrome on macOS');
    t.match(page.body, 'Firefox on Windows');
    t.match(page.body, 'Safari on iOS');
    const ids = [...page.body.matchAll(/name="session" value="([^"]+)"/g)].map((m) => m[1]!);
    t.equal(ids.length, 3);

    // Another member (here, and in another community) cannot end these sessions.
    const other = await member();
    const otherJar = await csrfFor(app, (await signIn(app, other, alpha)).cookie, '/settings/security');
    for (const id of ids) await post('/settings/security/sessions/sign-out', otherJar, { session: id });
    t.ok(await isSignedIn(win!), 'another member’s sign-out changed nothing');

    const winSession = await db.selectFrom('sessions').select('id').where('user_id', '=', u.id).where('user_agent', '=', FIREFOX_WIN).executeTakeFirstOrThrow();
    const one = await post('/settings/security/sessions/sign-out', jar, { session: winSession.id });
    t.equal(one.headers.location, '/settings/security?alert=session-ended');
    t.notOk(await isSignedIn(win!), 'the revoked cookie no longer works');
    t.ok(await isSignedIn(ios!));

    const bad = await post('/settings/security/sessions/sign-out', jar, { session: 'x\u0000y' });
    t.equal(bad.statusCode, 400, 'a hostile id is a 4xx');

    const others = await post('/settings/security/sessions/sign-out-others', jar, {});
    t.equal(others.headers.location, '/settings/security?alert=other-sessions-ended');
    t.notOk(await isSignedIn(ios!));
    t.ok(await isSignedIn(mac!));
    const now = await app.inject({ url: '/settings/security', headers: { ...html, cookie: mac! } });
    t.match(now.body, 'You&#x27;re not signed in anywhere else.');

    const macSession = await db.selectFrom('sessions').select('id').where('user_id', '=', u.id).where('user_agent', '=', CHROME_MAC).executeTakeFirstOrThrow();
    const self = await post('/settings/security/sessions/sign-out', jar, { session: macSession.id });
    t.equal(self.statusCode, 303);
    t.match(self.headers.location, /\/login$/);
    t.notOk(await isSignedIn(mac!), 'signing out this device signs out');

    const betaUser = await member(beta);
    const betaCookie = (await signIn(app, betaUser, beta)).cookie;
    const cross = await app.inject({ url: '/settings/security', headers: { ...html, cookie: betaCookie } });
    t.not(cross.statusCode, 200, 'a beta cookie is not signed in on alpha');
  });

  await t.test('twenty sessions: this device and the four most recent others are listed, the rest counted; Sign out everywhere else ends them all', async (t) => {
    const u = await member();
    const here = await signIn(app, u, alpha);
    const others = [];
    for (let i = 0; i < 19; i++) {
      clock.advance(60_000);
      others.push(await signIn(app, u, alpha));
    }
    const newest = await db.selectFrom('sessions').select('id').where('user_id', '=', u.id).orderBy('created_at', 'desc').limit(4).execute();
    const page = await app.inject({ url: '/settings/security', headers: { ...html, cookie: here.cookie } });
    const listed = [...page.body.matchAll(/name="session" value="([^"]+)"/g)].map((m) => m[1]!);
    t.equal(listed.length, 5, 'five sessions are listed, not twenty');
    t.same(listed.slice(1), newest.map((r) => r.id), 'after this device, the most recent others');
    t.match(page.body, /This device/);
    t.match(page.body, '15 older sessions are not listed. Sign out everywhere else ends them too.');
    t.match(page.body, /<button type="submit" class="button button-secondary button-compact">Sign out of this device/, 'signing a device out is a button');
    t.match(page.body, /<form action="\/settings\/security\/sessions\/sign-out-others" method="post"><input type="hidden" name="_csrf" value="[^"]+"\/><button type="submit" class="button button-secondary">Sign out everywhere else<\/button><\/form>/, 'a form that works without JavaScript, with its CSRF token');

    const jar = await csrfFor(app, here.cookie, '/settings/security');
    const ended = await post('/settings/security/sessions/sign-out-others', jar, {});
    t.equal(ended.headers.location, '/settings/security?alert=other-sessions-ended');
    for (const other of [others[0]!, others[18]!]) t.notOk(await isSignedIn(other.cookie), 'listed or not, every other session is ended');
    const left = await db.selectFrom('sessions').select((eb) => eb.fn.countAll<string>().as('n')).where('user_id', '=', u.id).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
    t.equal(Number(left.n), 1, 'only this device is still signed in');
    const after = await app.inject({ url: '/settings/security', headers: { ...html, cookie: here.cookie } });
    t.notMatch(after.body, 'not listed');
    t.match(after.body, 'You&#x27;re not signed in anywhere else.');
  });

  await t.test('GraphQL: passwordUpdate and myAccount with bearer and with cookie+CSRF', async (t) => {
    const u = await member();
    const bearer = await signIn(app, u, alpha);
    const elsewhere = await signIn(app, u, alpha);
    const gql = (query: string, variables: object, headers: Record<string, string>) =>
      app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });
    const auth = { authorization: `Bearer ${bearer.token}` };
    const UPDATE = 'mutation U($o: String!, $n: String!) { passwordUpdate(oldPassword: $o, newPassword: $n) }';
    const ACCOUNT = 'mutation A($p: MobilePhoneInput) { myAccount(mobilePhone: $p) { id username mobilePhone { countryCode number } } }';

    const wrong = await gql(UPDATE, { o: 'nope', n: NEW }, auth);
    t.equal(wrong.statusCode, 400, 'a wrong current password is not a 401 (a 401 marks the user as logged out)');
    t.equal(wrong.json().errors?.[0]?.message, 'Current password incorrect');
    t.equal(wrong.json().errors?.[0]?.extensions?.code, 'NotAuthorized.Password');
    t.equal((await gql('{ notifications(first: 1) { __typename } }', {}, auth)).statusCode, 200, 'the session stays valid');
    const weak = await gql(UPDATE, { o: OLD, n: 'weak' }, auth);
    t.equal(weak.json().errors?.[0]?.extensions?.code, '121');
    const missing = await gql(UPDATE, { o: '', n: 'weak' }, auth);
    t.equal(missing.json().errors?.[0]?.extensions?.code, '900', 'no current password: 900 missing input');
    t.match(missing.json().errors?.[0]?.extensions?.fields, { oldPassword: { code: 900 }, password: { code: 121 } }, 'every failing rule, by field');
    const ok = await gql(UPDATE, { o: OLD, n: NEW }, auth);
    t.equal(ok.json().data?.passwordUpdate, true);
    t.notOk(await isSignedIn(elsewhere.cookie), 'other sessions end');
    t.equal((await db.selectFrom('notifications').select('id').where('user_id', '=', u.id).execute()).length, 1, 'notified');

    const phone = await gql(ACCOUNT, { p: { countryCode: 'US', number: '(202) 555-0142' } }, auth);
    t.same(phone.json().data?.myAccount?.mobilePhone, { countryCode: 'US', number: '2025550142' });
    t.equal(phone.json().data?.myAccount?.username, (await db.selectFrom('users').select('username').where('id', '=', u.id).executeTakeFirstOrThrow()).username);
    const invalid = await gql(ACCOUNT, { p: { countryCode: 'US', number: '12' } }, auth);
    t.equal(invalid.json().errors?.[0]?.extensions?.code, '110');
    const hostile = await gql(ACCOUNT, { p: { countryCode: 'US', number: 'x\u0000' } }, auth);
    t.ok(hostile.json().errors?.length, 'a NUL byte is refused');
    const removed = await gql(ACCOUNT, { p: { countryCode: 'US', number: '' } }, auth);
    t.equal(removed.json().data?.myAccount?.mobilePhone, null);

    const anonymous = await gql(ACCOUNT, { p: { countryCode: 'US', number: '' } }, {});
    t.ok(anonymous.json().errors?.length, 'signed out: refused');

    const jar = await csrfFor(app, bearer.cookie, '/settings/security');
    const noCsrf = await gql(ACCOUNT, { p: { countryCode: 'US', number: '2025550142' } }, { cookie: jar.cookie });
    t.ok(noCsrf.statusCode >= 400 || noCsrf.json().errors?.length, 'cookie without CSRF: refused');
    const withCsrf = await gql(ACCOUNT, { p: { countryCode: 'US', number: '2025550142' } }, { cookie: jar.cookie, 'x-csrf-token': jar.token });
    t.equal(withCsrf.json().data?.myAccount?.mobilePhone?.number, '2025550142', 'cookie + CSRF works');
  });
});
