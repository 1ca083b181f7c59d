import t from 'tap';
import { sql } from 'kysely';
import { safeRedirect } from '#src/features/auth/http.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { codeFrom, GOOD_PASSWORD, linkFrom, setPassword, setPhone } from '#test/helpers/auth.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';
import { FormBrowser as Browser } from '#test/helpers/form-browser.ts';

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/\s+/g, ' ');

t.test('the sign-in screens, as a browser without JavaScript uses them', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle', link_membership_info: 'https://example.com/join' });
  const { app } = await startApp(t, db, { clock });
  const member = await createMember(db, alpha, { firstName: 'Ada' });
  await setPassword(db, member.id);
  await setPhone(db, member.id);

  await t.test('email first, with a remember-me checkbox', async (t) => {
    const res = await new Browser(app).get('/login');
    t.equal(res.statusCode, 200);
    t.match(res.body, '<title>Sign In | Alpha Circle</title>');
    t.match(res.body, 'type="email"');
    t.match(res.body, 'name="remember"');
    t.notMatch(res.body, '<script', 'the email step ships no JavaScript');
  });

  await t.test('an unrecognised email changes the heading and links to membership info', async (t) => {
    const res = await new Browser(app).post('/login', { email: 'stranger@example.com' });
    t.equal(res.statusCode, 200);
    t.match(text(res.body), "We don't recognize that email");
    t.match(res.body, 'href="https://example.com/join"');
    t.match(res.body, 'value="stranger@example.com"', 'what was typed is kept');
  });

  await t.test('a bad email says so next to the field', async (t) => {
    const res = await new Browser(app).post('/login', { email: 'not-an-email' });
    t.equal(res.statusCode, 400);
    t.match(res.body, 'Please enter a valid email address.');
    t.match(res.body, 'aria-invalid="true"');
  });

  await t.test('password sign-in: empty, wrong, then right; then the redirect target', async (t) => {
    const b = new Browser(app);
    const step = await b.post('/login', { email: member.email, redirect: '/settings?tab=team' });
    t.match(step.body, 'type="password"');
    t.match(step.body, 'Forgot password?');
    t.match(text(step.body), 'Text a sign-in code to +1 ••••••0143');
    const empty = await b.post('/login/password', { email: member.email, password: '' });
    t.match(empty.body, 'Please input your password');
    const wrong = await b.post('/login/password', { email: member.email, password: 'Wrong-pass-1' });
    t.equal(wrong.statusCode, 401);
    t.match(wrong.body, 'Password is incorrect.');
    const ok = await b.post('/login/password', { email: member.email, password: GOOD_PASSWORD, redirect: '/settings?tab=team' });
    t.equal(ok.statusCode, 303);
    t.equal(ok.headers.location, '/settings?tab=team');
    const auth = ok.cookies.find((c) => c.name === 'auth')!;
    t.equal(auth.httpOnly, true);
    t.equal(auth.sameSite, 'Lax');
    t.notOk(auth.maxAge, 'without remember-me the cookie ends with the browser');
    const home = await b.get('/');
    t.match(home.body, 'Sign Out');
  });

  await t.test('remember-me keeps the cookie and the email', async (t) => {
    const b = new Browser(app);
    const ok = await b.post('/login/password', { email: member.email, password: GOOD_PASSWORD, remember: 'on' });
    t.ok(ok.cookies.find((c) => c.name === 'auth')!.maxAge! > 29 * 24 * 3600);
    t.equal(ok.cookies.find((c) => c.name === 'remember_email')!.value, member.email);
    await b.post('/logout', {}, '/');
    const again = await b.get('/login');
    t.match(again.body, `value="${member.email}"`, 'the email is filled in');
    t.match(again.body, /name="remember" checked=""/);
  });

  await t.test('after sign-in: never an open redirect', async (t) => {
    for (const target of ['https://evil.example/x', '//evil.example', '/\\evil.example', 'javascript:alert(1)', '/login', 'settings', '/\r\nSet-Cookie:x=y']) {
      t.equal(safeRedirect(target, ''), '/', JSON.stringify(target));
    }
    t.equal(safeRedirect('/members?x=1#top', ''), '/members?x=1#top');
    t.equal(safeRedirect('/v2/members', '/v2'), '/v2/members');
    t.equal(safeRedirect('/members', '/v2'), '/v2', 'outside the prefix');
    const b = new Browser(app);
    const res = await b.post('/login/password', { email: member.email, password: GOOD_PASSWORD, redirect: 'https://evil.example/' });
    t.equal(res.headers.location, '/');
  });

  await t.test("a sign-in or sign-out that fails without a mapped code says so on the sign-in page, not the generic error page", async (t) => {
    await setPassword(db, member.id);
    const b = new Browser(app, '198.51.100.77');
    const sign = app.sessionTokens.sign;
    app.sessionTokens.sign = async () => {
      throw new Error('signing key out of reach');
    };
    const res = await b.post('/login/password', { email: member.email, password: GOOD_PASSWORD, redirect: '/members' });
    app.sessionTokens.sign = sign;
    t.equal(res.statusCode, 500);
    t.match(text(res.body), "Hmm... That didn't work. Could not sign in. Something went wrong. Please try again.");
    t.match(res.body, `value="${member.email}"`, 'what was typed is kept: the password step again');
    t.match(res.body, 'name="redirect" value="/members"');
    t.notMatch(res.body, 'signing key', 'no details of the failure');
    t.notOk(res.cookies.some((c) => c.name === 'auth' && c.value), 'not signed in');

    const session = await signIn(app, member, alpha);
    const { token, cookie } = await csrfFor(app, session.cookie);
    await sql`create function test_refuse_revoke() returns trigger language plpgsql as $$ begin raise exception 'sessions are read-only'; end $$`.execute(db);
    await sql`create trigger test_refuse_revoke before update on sessions for each row when (new.revoked_at is not null and old.revoked_at is null) execute function test_refuse_revoke()`.execute(db);
    const out = await app.inject({ method: 'POST', url: '/logout', headers: { cookie, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' }, payload: `_csrf=${encodeURIComponent(token)}` });
    await sql`drop trigger test_refuse_revoke on sessions`.execute(db);
    await sql`drop function test_refuse_revoke()`.execute(db);
    t.equal(out.statusCode, 500);
    t.match(text(out.body), "Hmm... That didn't work. Could not sign out. Something went wrong. Please try again.");
    t.ok(out.cookies.some((c) => c.name === 'auth' && c.value === ''), 'on a logout error the auth cookie is cleared (spec section 7)');
    t.match(out.body, '>Sign In</a>', 'and the page is drawn signed out');
  });

  await t.test('one-time code: one five-digit field without JavaScript (the island’s 5 boxes post one digit each), resend, switch to password', async (t) => {
    const b = new Browser(app);
    const sent = await b.post('/login/code', { email: member.email, channel: 'EMAIL' });
    t.equal(sent.statusCode, 200);
    t.match(sent.body, 'data-island="OneTimeCodeBoxes"');
    const field = /<input[^>]*name="code"[^>]*>/.exec(sent.body)?.[0] ?? '';
    t.match(field, 'id="one-time-code"', 'one field for the whole code');
    t.match(field, 'inputMode="numeric"');
    t.match(field, 'autoComplete="one-time-code"');
    t.match(sent.body, '<label for="one-time-code">Sign-in code</label>', 'with a label');
    for (let i = 1; i <= 5; i++) t.notMatch(sent.body, `name="d${i}"`, 'no one-character boxes without JavaScript');
    t.match(sent.body, 'Use my password instead');
    const resent = await b.post('/login/code', { email: member.email, channel: 'EMAIL', resend: '1' });
    t.match(resent.body, 'Sent Code');
    t.match(resent.body, /data-island="AlertBanner" data-props="[^"]*Sent Code[^"]*&quot;ttl&quot;:5000/, "'Sent Code' is an alert: it leaves after its ttl");
    const code = await codeFrom(app, member.email);
    const wrongCode = code === '12345' ? '54321' : '12345';
    const wrong = await b.post('/login/code/verify', { email: member.email, channel: 'EMAIL', ...Object.fromEntries(wrongCode.split('').map((d, i) => [`d${i + 1}`, d])) });
    t.equal(wrong.statusCode, 400);
    t.match(wrong.body, 'That code is invalid or expired, request a new code below.');
    const pastedWrong = await b.post('/login/code/verify', { email: member.email, channel: 'EMAIL', code: wrongCode });
    t.equal(pastedWrong.statusCode, 400, 'the single field is checked as a whole');
    t.match(pastedWrong.body, 'That code is invalid or expired, request a new code below.');
    t.match(pastedWrong.body, /<input[^>]*aria-invalid="true"[^>]*name="code"|<input[^>]*name="code"[^>]*aria-invalid="true"/, 'the field is marked invalid');
    const digits = Object.fromEntries(code.split('').map((d, i) => [`d${i + 1}`, d]));
    const ok = await b.post('/login/code/verify', { email: member.email, channel: 'EMAIL', ...digits });
    t.equal(ok.statusCode, 303, 'the island’s five boxes are accepted');
    t.match((await b.get('/')).body, 'Sign Out');
  });

  await t.test('one-time code without JavaScript: the whole code typed or pasted into the one field signs in', async (t) => {
    clock.advance(11 * 60_000);
    const b = new Browser(app);
    await b.post('/login/code', { email: member.email, channel: 'EMAIL' });
    const code = await codeFrom(app, member.email);
    const ok = await b.post('/login/code/verify', { email: member.email, channel: 'EMAIL', code: ` ${code.slice(0, 2)} ${code.slice(2)} ` });
    t.equal(ok.statusCode, 303, 'a pasted code with spaces is accepted');
  });

  await t.test('a code by SMS keeps the channel and the masked destination', async (t) => {
    clock.advance(11 * 60_000);
    const b = new Browser(app);
    const sent = await b.post('/login/code', { email: member.email, channel: 'SMS' });
    t.match(text(sent.body), 'We sent a 5-digit code to +1 ••••••0143');
    t.match(sent.body, 'name="channel" value="SMS"');
    const code = await codeFrom(app, '+12025550143', 'sms');
    const ok = await b.post('/login/code/verify', { email: member.email, channel: 'SMS', code });
    t.equal(ok.statusCode, 303);
  });

  await t.test('a member without a password goes straight to a code by email', async (t) => {
    const codeOnly = await createMember(db, alpha);
    const res = await new Browser(app).post('/login', { email: codeOnly.email });
    t.match(res.body, 'data-island="OneTimeCodeBoxes"');
    t.notMatch(res.body, 'Use my password instead');
    t.ok(await codeFrom(app, codeOnly.email));
  });

  await t.test('too many wrong passwords show the lockout view, which returns to sign-in', async (t) => {
    clock.advance(11 * 60_000);
    const victim = await createMember(db, alpha);
    await setPassword(db, victim.id);
    const b = new Browser(app, '198.51.100.23');
    let last;
    for (let i = 0; i < 5; i++) last = await b.post('/login/password', { email: victim.email, password: `Wrong-${i}-pass` });
    t.equal(last!.statusCode, 429);
    t.match(last!.body, 'Try again in 10 minutes');
    t.match(last!.body, 'href="/login"');
  });

  await t.test('forgot password: a link (Check your inbox), then the reset page, then sign in', async (t) => {
    clock.advance(11 * 60_000);
    const who = await createMember(db, alpha);
    await setPassword(db, who.id);
    const b = new Browser(app);
    const forgot = await b.get(`/password/forgot?email=${encodeURIComponent(who.email)}`);
    t.match(forgot.body, 'Email me a reset link');
    t.match(forgot.body, 'Email me a sign-in code');
    t.match(forgot.body, '>Cancel</a>');
    const unknown = await b.post('/password/forgot', { email: 'No-Such-Member@example.com', method: 'link' });
    t.equal(unknown.statusCode, 404);
    t.match(unknown.body, 'A member with that username could not be found', 'the spec’s message');
    t.match(unknown.body, /<input[^>]*name="email"[^>]*value="No-Such-Member@example.com"|value="No-Such-Member@example.com"[^>]*name="email"/, 'the typed username is kept');
    t.match(unknown.body, /aria-describedby="[^"]*email/, 'the message belongs to the field');
    const sent = await b.post('/password/forgot', { email: who.email, method: 'link' });
    t.match(sent.body, 'Check your inbox');
    const link = new URL(await linkFrom(app, who.email));
    const form = await b.get(`${link.pathname}${link.search}`);
    t.equal(form.statusCode, 200);
    t.match(form.body, 'data-island="NewPasswordFields"');
    for (const criterion of ['Upper and lower case', '8 characters', 'Numbers or symbols']) t.match(form.body, criterion);
    const token = link.searchParams.get('token')!;
    const weak = await b.post('/password/reset', { token, password: 'alllowercase', confirm: 'alllowercase' }, `${link.pathname}${link.search}`);
    t.equal(weak.statusCode, 400);
    t.match(weak.body, 'The password does not meet the requirements.', 'without JavaScript the server says which rule failed');
    const mismatch = await b.post('/password/reset', { token, password: 'Strong-Pass-1', confirm: 'Strong-Pass-2' }, `${link.pathname}${link.search}`);
    t.match(mismatch.body, 'The passwords do not match.');
    const done = await b.post('/password/reset', { token, password: 'Strong-Pass-1', confirm: 'Strong-Pass-1' }, `${link.pathname}${link.search}`);
    t.equal(done.statusCode, 303);
    t.match(done.headers.location, /^\/login\?reset=1&email=/);
    const login = await b.get(String(done.headers.location));
    t.match(login.body, 'Your password has been saved. Sign in with it now.');
    const again = await b.get(`${link.pathname}${link.search}`);
    t.equal(again.statusCode, 400);
    t.match(again.body, 'This link is invalid or has expired.');
    t.match((await b.get('/password/setup?token=nonsense')).body, 'This link is invalid');
    t.match((await b.get('/password/reset')).body, 'This link is invalid', 'a missing token too');
  });

  await t.test('admin sign-in with the community picker', async (t) => {
    const beta = await createCommunity(db, { code: 'beta', name: 'Beta Guild' });
    const admin = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'] });
    await setPassword(db, admin.id);
    await db.insertInto('memberships').values({ community_id: beta.id, user_id: admin.id, roles: ['ADMIN', 'MEMBER'] }).execute();
    const b = new Browser(app);
    const form = await b.get('/login-admin');
    t.match(form.body, '<select');
    t.match(form.body, '<option value="alpha" selected="">', 'the community of the host the admin is on comes preselected');
    const signedIn = await b.post('/login-admin', { email: admin.email, password: GOOD_PASSWORD, community: 'beta' }, '/login-admin');
    t.equal(signedIn.statusCode, 303);
    t.equal(signedIn.headers.location, '/admin');
    const home = await b.get('/');
    t.match(home.body, '<title>Home | beta App</title>', 'the chosen community follows the admin');
    const other = new Browser(app);
    const refused = await other.post('/login-admin', { email: member.email, password: GOOD_PASSWORD, community: 'alpha' }, '/login-admin');
    t.equal(refused.statusCode, 403);
    t.match(refused.body, 'That account is not an admin of the chosen community.');
    const out = await b.post('/logout', {}, '/');
    t.equal(out.headers.location, '/login');
    t.notOk(b.cookies.has('community'), 'sign-out clears the stored community');
  });

  await t.test('signing in replaces any session the browser had (no fixation)', async (t) => {
    const planted = await signIn(app, member, alpha);
    const b = new Browser(app);
    b.cookies.set('auth', planted.token);
    await b.post('/login/password', { email: member.email, password: GOOD_PASSWORD }, '/');
    t.not(b.cookies.get('auth'), planted.token, 'a new cookie');
    const old = await app.inject({ url: '/', headers: { accept: 'text/html', cookie: planted.cookie } });
    t.match(old.body, '>Sign In</a>', 'the planted session is revoked');
  });

  await t.test('every sign-in form refuses a post without the CSRF token', async (t) => {
    const { cookie } = await csrfFor(app);
    for (const url of ['/login', '/login/password', '/login/code', '/login/code/verify', '/password/forgot', '/password/reset', '/login-admin', '/logout']) {
      const res = await app.inject({ method: 'POST', url, headers: { cookie, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' }, payload: `email=${encodeURIComponent(member.email)}&password=${GOOD_PASSWORD}` });
      t.equal(res.statusCode, 403, url);
    }
  });

  await t.test('a signed-in member visiting /login goes on to the app', async (t) => {
    const { cookie } = await signIn(app, member, alpha);
    const res = await app.inject({ url: '/login?redirect=%2Fmembers', headers: { accept: 'text/html', cookie } });
    t.equal(res.headers.location, '/members');
  });
});
