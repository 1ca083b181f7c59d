import t from 'tap';
import type { Test } from 'tap';
import { AppError } from '#src/core/errors.ts';
import { sendOneTimeCode, verifyOneTimeCode } from '#src/features/auth/codes.ts';
import { passwordTokenIsValid, requestPasswordReset, resetPassword, updatePassword } from '#src/features/auth/passwords.ts';
import { authStrategies, loginAsAdmin, loginWithPassword } from '#src/features/auth/service.ts';
import { deriveIdentity, REFRESH_GRACE_MS, refreshSession } from '#src/features/auth/sessions.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { codeFrom, ctxFor, GOOD_PASSWORD, linkFrom, setPassword, setPhone } from '#test/helpers/auth.ts';
import { createCommunity, createMember } from '#test/helpers/factories.ts';

const code = (e: unknown) => (e instanceof AppError ? e.code : e);

t.test('sign-in services', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha', name: 'Alpha Council' });
  const beta = await createCommunity(db, { code: 'beta' });
  const { app } = await startApp(t, db, { clock });
  const ctx = (ip?: string) => ctxFor(app, alpha, ip);
  const rejects = async (t: Test, p: Promise<unknown>, expected: unknown, message?: string) => {
    const e = await p.then(() => 'resolved', (err) => code(err));
    t.equal(e, expected, message ?? String(expected));
  };

  const member = await createMember(db, alpha, { firstName: 'Ada' });
  await setPassword(db, member.id);
  await setPhone(db, member.id);
  const codeOnly = await createMember(db, alpha);

  await t.test('strategies for an email', async (t) => {
    t.same(await authStrategies(ctx(), member.email.toUpperCase()), {
      passwordStrategy: true,
      otcSmsStrategy: true,
      otcEmailStrategy: true,
      smsOptions: [{ id: `sms:${member.id}`, maskedValue: '+1 ••••••0143' }],
    });
    t.match(await authStrategies(ctx(), codeOnly.email), { passwordStrategy: false, otcSmsStrategy: false, smsOptions: [] });
    await rejects(t, authStrategies(ctx(), 'nobody@example.com'), 'Unrecognized.Email');
    await rejects(t, authStrategies(ctx(), 'not an email'), 'Invalid.Email');
    const staff = await createMember(db, beta, { roles: ['ADMIN', 'MEMBER'] });
    await rejects(t, authStrategies(ctx(), staff.email), 'BadRequest.NoAdmins', 'an admin of another community only is sent to the admin sign-in');
  });

  await t.test('password sign-in', async (t) => {
    const result = await loginWithPassword(ctx(), { email: ` ${member.email.toUpperCase()} `, password: GOOD_PASSWORD });
    t.match(result, { user: { id: member.id }, community: { code: 'alpha' }, roles: ['MEMBER'] });
    const identity = await deriveIdentity(db, app.sessionTokens, clock, result.authToken, alpha, '');
    t.equal(identity.user?.id, member.id);
    await rejects(t, loginWithPassword(ctx(), { email: member.email, password: 'wrong-Password-1' }), 'NotAuthorized.Password');
    await rejects(t, loginWithPassword(ctx(), { email: member.email, password: '' }), 900);
    await rejects(t, loginWithPassword(ctx(), { email: 'nobody@example.com', password: 'whatever-1A' }), 'NotAuthorized.Password', 'an unknown email reads like a wrong password');
    await rejects(t, loginWithPassword(ctxFor(app, beta), { email: member.email, password: GOOD_PASSWORD }), 'NotAuthorized.Password', 'not a member of beta');
  });

  await t.test('guessing passwords: locked per account and address, not from elsewhere, and it ends', async (t) => {
    const victim = await createMember(db, alpha);
    await setPassword(db, victim.id);
    const attacker = ctx('198.51.100.66');
    for (let i = 0; i < 4; i++) await rejects(t, loginWithPassword(attacker, { email: victim.email, password: `guess-Nr-${i}` }), 'NotAuthorized.Password');
    await rejects(t, loginWithPassword(attacker, { email: victim.email, password: 'guess-Nr-5' }), 'BadRequest.MaxAttempts', 'the fifth failure locks');
    await rejects(t, loginWithPassword(attacker, { email: victim.email, password: GOOD_PASSWORD }), 'BadRequest.MaxAttempts', 'checked before the hash: even the right password is refused');
    const own = await loginWithPassword(ctx('192.0.2.10'), { email: victim.email, password: GOOD_PASSWORD });
    t.ok(own.authToken, 'the member signs in from their own address meanwhile');
    clock.advance(10 * 60_000 + 1000);
    t.ok((await loginWithPassword(attacker, { email: victim.email, password: GOOD_PASSWORD })).authToken, 'the lockout ends after 10 minutes');
  });

  await t.test('at most 100 failed attempts per account per hour, from any number of addresses', async (t) => {
    const target = await createMember(db, alpha);
    await setPassword(db, target.id);
    // 100 failures recorded directly (the per-address limits would stop a single address sooner).
    await db.insertInto('auth_events').values(Array.from({ length: 100 }, (_, i) => ({ key: target.email, kind: 'password-failure', occurred_at: new Date(clock.now().getTime() - i * 1000) }))).execute();
    await rejects(t, loginWithPassword(ctx('192.0.2.99'), { email: target.email, password: GOOD_PASSWORD }), 'BadRequest.TooManyRequests');
    const sent = await sendOneTimeCode(ctx('192.0.2.99'), { email: target.email });
    t.equal(sent.channel, 'EMAIL', 'code sign-in stays open');
    clock.advance(61 * 60_000);
    t.ok((await loginWithPassword(ctx('192.0.2.99'), { email: target.email, password: GOOD_PASSWORD })).authToken, 'the ceiling lifts after the hour');
  });

  await t.test('one-time codes: 5 digits, 10 minutes, once, bound to the email', async (t) => {
    const sent = await sendOneTimeCode(ctx(), { email: member.email, channel: 'EMAIL' });
    t.same(sent, { channel: 'EMAIL', masked: `m${'•'.repeat(member.email.split('@')[0]!.length - 1)}@example.com` });
    const first = await codeFrom(app, member.email);
    t.match(first, /^\d{5}$/);
    t.match(app.outbox.latestTo(member.email)!.subject, 'Alpha Council');
    await rejects(t, verifyOneTimeCode(ctx(), { email: codeOnly.email, code: first }), 'BadRequest.InvalidCode', "a member's code does not work for another email");
    const result = await verifyOneTimeCode(ctx(), { email: member.email, code: first });
    t.equal(result.user.id, member.id);
    await rejects(t, verifyOneTimeCode(ctx(), { email: member.email, code: first }), 'BadRequest.InvalidCode', 'single use');

    await sendOneTimeCode(ctx(), { email: member.email });
    const second = await codeFrom(app, member.email);
    clock.advance(10 * 60_000 + 1);
    await rejects(t, verifyOneTimeCode(ctx(), { email: member.email, code: second }), 'BadRequest.InvalidCode', 'expired after 10 minutes');

    await sendOneTimeCode(ctx(), { email: member.email });
    const third = await codeFrom(app, member.email);
    await sendOneTimeCode(ctx(), { email: member.email });
    const fourth = await codeFrom(app, member.email);
    if (third !== fourth) await rejects(t, verifyOneTimeCode(ctx(), { email: member.email, code: third }), 'BadRequest.InvalidCode', 'a new code replaces the old');
    t.ok((await verifyOneTimeCode(ctx(), { email: member.email, code: fourth })).authToken);
  });

  await t.test('codes by SMS go to the member’s phone', async (t) => {
    clock.advance(11 * 60_000);
    const sent = await sendOneTimeCode(ctx(), { email: member.email, channel: 'SMS' });
    t.same(sent, { channel: 'SMS', masked: '+1 ••••••0143' });
    const sms = await codeFrom(app, '+12025550143', 'sms');
    t.ok((await verifyOneTimeCode(ctx(), { email: member.email, code: sms })).authToken);
    await rejects(t, sendOneTimeCode(ctx(), { email: codeOnly.email, channel: 'SMS' }), 110, 'no phone, no SMS');
  });

  await t.test('too many wrong codes or sends lead to the lockout for 10 minutes', async (t) => {
    clock.advance(11 * 60_000);
    const who = await createMember(db, alpha);
    await sendOneTimeCode(ctx(), { email: who.email });
    const right = await codeFrom(app, who.email);
    const wrong = right === '00000' ? '11111' : '00000';
    for (let i = 0; i < 4; i++) await rejects(t, verifyOneTimeCode(ctx(), { email: who.email, code: wrong }), 'BadRequest.InvalidCode');
    await rejects(t, verifyOneTimeCode(ctx(), { email: who.email, code: wrong }), 'BadRequest.MaxAttempts');
    await rejects(t, verifyOneTimeCode(ctx(), { email: who.email, code: right }), 'BadRequest.MaxAttempts', 'locked even for the right code');
    clock.advance(10 * 60_000 + 1000);
    const sender = await createMember(db, alpha);
    for (let i = 0; i < 5; i++) await sendOneTimeCode(ctx(), { email: sender.email });
    await rejects(t, sendOneTimeCode(ctx(), { email: sender.email }), 'BadRequest.MaxSendAttempts');
  });

  await t.test('forgot and reset: a single-use, expiring link; the other sessions end', async (t) => {
    clock.advance(61 * 60_000);
    const who = await createMember(db, alpha, { firstName: 'Rita' });
    await setPassword(db, who.id);
    const before = await loginWithPassword(ctx(), { email: who.email, password: GOOD_PASSWORD });
    await requestPasswordReset(ctx(), { email: who.email });
    const link = new URL(await linkFrom(app, who.email));
    t.equal(link.pathname, '/password/reset');
    const token = link.searchParams.get('token')!;
    t.ok(await passwordTokenIsValid(ctx(), token));
    t.notOk(await passwordTokenIsValid(ctxFor(app, beta), token), 'a token of one community is no good on another');
    await rejects(t, resetPassword(ctx(), { token, password: 'weakpass', confirm: 'weakpass' }), 121);
    await rejects(t, resetPassword(ctx(), { token, password: 'Strong-Pass-1', confirm: 'Strong-Pass-2' }), 120);
    t.ok(await passwordTokenIsValid(ctx(), token), 'a refused attempt does not spend the link');
    await resetPassword(ctx(), { token, password: 'Strong-Pass-1', confirm: 'Strong-Pass-1' });
    t.notOk(await passwordTokenIsValid(ctx(), token), 'spent');
    await rejects(t, resetPassword(ctx(), { token, password: 'Strong-Pass-3', confirm: 'Strong-Pass-3' }), 'BadRequest.InvalidLink', 'a spent link is the invalid-link error');
    t.equal((await deriveIdentity(db, app.sessionTokens, clock, before.authToken, alpha, '')).loggedIn, false, 'other sessions ended');
    t.ok((await loginWithPassword(ctx(), { email: who.email, password: 'Strong-Pass-1' })).authToken);

    const outboxSize = app.outbox.messages.length;
    // Spec section 8: 'A member with that username could not be found' (decision 0042).
    await rejects(t, requestPasswordReset(ctx(), { email: 'stranger@example.com' }), 'Unrecognized.Email', 'a stranger is told no member has that username');
    await app.jobs.drain();
    t.equal(app.outbox.messages.length, outboxSize, 'and no mail is sent');

    await requestPasswordReset(ctx(), { email: who.email });
    const late = new URL(await linkFrom(app, who.email)).searchParams.get('token')!;
    clock.advance(60 * 60_000 + 1);
    t.notOk(await passwordTokenIsValid(ctx(), late), 'a reset link expires after an hour');
  });

  await t.test('changing the password needs the current one and ends the other sessions', async (t) => {
    const who = await createMember(db, alpha);
    await setPassword(db, who.id);
    const mine = await loginWithPassword(ctx(), { email: who.email, password: GOOD_PASSWORD });
    const other = await loginWithPassword(ctx(), { email: who.email, password: GOOD_PASSWORD });
    const identity = await deriveIdentity(db, app.sessionTokens, clock, mine.authToken, alpha, '');
    await rejects(t, updatePassword(ctx(), { userId: who.id, sessionId: identity.sessionId!, oldPassword: 'nope-Nope-1', newPassword: 'New-Pass-42' }), 'NotAuthorized.Password');
    await updatePassword(ctx(), { userId: who.id, sessionId: identity.sessionId!, oldPassword: GOOD_PASSWORD, newPassword: 'New-Pass-42' });
    t.equal((await deriveIdentity(db, app.sessionTokens, clock, mine.authToken, alpha, '')).loggedIn, true, 'this session stays');
    t.equal((await deriveIdentity(db, app.sessionTokens, clock, other.authToken, alpha, '')).loggedIn, false, 'the other one ends');
  });

  await t.test('admin sign-in needs the ADMIN role in the chosen community', async (t) => {
    const admin = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'] });
    await setPassword(db, admin.id);
    await db.insertInto('memberships').values({ community_id: beta.id, user_id: admin.id, roles: ['MEMBER'] }).execute();
    const result = await loginAsAdmin(ctx(), { email: admin.email, password: GOOD_PASSWORD, targetCommunity: 'alpha' });
    t.same(result.roles, ['ADMIN', 'MEMBER']);
    await rejects(t, loginAsAdmin(ctx(), { email: admin.email, password: GOOD_PASSWORD, targetCommunity: 'beta' }), 'Forbidden');
    await rejects(t, loginAsAdmin(ctx(), { email: member.email, password: GOOD_PASSWORD, targetCommunity: 'alpha' }), 'Forbidden');
    await rejects(t, loginAsAdmin(ctx(), { email: admin.email, password: GOOD_PASSWORD, targetCommunity: '' }), 900);
    await rejects(t, loginAsAdmin(ctx(), { email: admin.email, password: 'Wrong-pass-1', targetCommunity: 'alpha' }), 'NotAuthorized.Password');
  });

  await t.test('refresh tokens rotate; a used one is refused', async (t) => {
    const result = await loginWithPassword(ctx('192.0.2.50'), { email: member.email, password: GOOD_PASSWORD });
    const next = await refreshSession(db, app.sessionTokens, clock, { refreshToken: result.refreshToken, community: alpha, basePath: '' });
    t.ok(next);
    t.not(next!.refreshToken, result.refreshToken);
    t.equal((await deriveIdentity(db, app.sessionTokens, clock, result.authToken, alpha, '')).loggedIn, false, 'the old cookie stops working');
    t.equal((await deriveIdentity(db, app.sessionTokens, clock, next!.token, alpha, '')).user?.id, member.id);
    t.equal(await refreshSession(db, app.sessionTokens, clock, { refreshToken: next!.refreshToken, community: beta, basePath: '' }), null, 'not on another community');
  });
});

t.test('a replayed refresh token ends the session for everyone holding it', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const { app } = await startApp(t, db, { clock });
  const member = await createMember(db, alpha);
  await setPassword(db, member.id);
  const first = await loginWithPassword(ctxFor(app, alpha), { email: member.email, password: GOOD_PASSWORD });
  const owner = await refreshSession(db, app.sessionTokens, clock, { refreshToken: first.refreshToken, community: alpha, basePath: '' });
  t.ok(owner, 'the owner refreshes');
  clock.advance(REFRESH_GRACE_MS + 1);
  t.equal(await refreshSession(db, app.sessionTokens, clock, { refreshToken: first.refreshToken, community: alpha, basePath: '' }), null, 'a thief replays the old token after the grace window');
  t.equal((await deriveIdentity(db, app.sessionTokens, clock, owner!.token, alpha, '')).loggedIn, false, 'the session is over');
  t.equal(await refreshSession(db, app.sessionTokens, clock, { refreshToken: owner!.refreshToken, community: alpha, basePath: '' }), null, 'and cannot be refreshed any more');
});
