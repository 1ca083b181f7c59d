import t from 'tap';
import { SignJWT } from 'jose';
import { PUBLIC_IDENTITY } from '#src/core/identity.ts';
import { AUTH_COOKIE, deriveIdentity, revokeSession, SESSION_TTL_MS } from '#src/features/auth/sessions.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

t.test('identity derivation (spec section 6)', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'] });
  const { app } = await startApp(t, db, { clock });
  const derive = (cookie: string | undefined, community = alpha) =>
    deriveIdentity(db, app.sessionTokens, clock, cookie, community, app.config.basePath);
  const member = await createMember(db, alpha, { firstName: 'Grace', lastName: 'Hopper' });

  await t.test('a missing or invalid cookie is public and logged out', async (t) => {
    t.same(await derive(undefined), PUBLIC_IDENTITY);
    t.same(await derive('not-a-jwt'), PUBLIC_IDENTITY);
    const { token } = await signIn(app, member, alpha);
    const [h, p, s] = token.split('.');
    t.same(await derive(`${h}.${p}.${s!.slice(0, -2)}AA`), PUBLIC_IDENTITY, 'a tampered signature');
    const forged = JSON.parse(Buffer.from(p!, 'base64url').toString());
    forged.sub = 'u:999999';
    t.same(await derive(`${h}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${s}`), PUBLIC_IDENTITY, 'a tampered subject');
  });

  await t.test('a member cookie gives a logged-in MEMBER with the profile', async (t) => {
    const { token } = await signIn(app, member, alpha);
    const identity = await derive(token);
    t.equal(identity.kind, 'MEMBER');
    t.equal(identity.loggedIn, true);
    t.equal(identity.user?.id, member.id);
    t.equal(identity.user?.firstName, 'Grace');
  });

  await t.test('an admin cookie gives ADMIN only while the membership still holds the ADMIN role', async (t) => {
    const admin = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'] });
    const { token } = await signIn(app, admin, alpha, ['ADMIN', 'MEMBER']);
    t.equal((await derive(token)).kind, 'ADMIN');
    await db.updateTable('memberships').set({ roles: ['MEMBER'] }).where('user_id', '=', admin.id).execute();
    t.equal((await derive(token)).kind, 'MEMBER', 'demoted: the cookie no longer grants ADMIN');
    const { token: memberToken } = await signIn(app, member, alpha, ['MEMBER']);
    const claims = await app.sessionTokens.verify(memberToken);
    t.same(claims?.aud, ['/graphql'], 'a member audience includes only the member GraphQL path');
  });

  await t.test('logged in only when the subject starts with u:', async (t) => {
    const { token, sessionId } = await signIn(app, member, alpha);
    const claims = (await app.sessionTokens.verify(token))!;
    const other = await app.sessionTokens.sign({ ...claims, sub: String(member.id), sid: sessionId }, new Date(clock.now().getTime() + 60_000));
    t.same(await derive(other), PUBLIC_IDENTITY);
  });

  await t.test('a revoked session is public: sign-out truly revokes', async (t) => {
    const { token, sessionId } = await signIn(app, member, alpha);
    t.equal((await derive(token)).loggedIn, true);
    await revokeSession(db, clock, sessionId);
    t.same(await derive(token), PUBLIC_IDENTITY);
  });

  await t.test('an expired cookie is public', async (t) => {
    const { token } = await signIn(app, member, alpha);
    clock.advance(SESSION_TTL_MS + 1000);
    t.same(await derive(token), PUBLIC_IDENTITY);
    clock.set('2026-11-21T12:00:00Z');
  });

  await t.test('a cookie of one community is public on another', async (t) => {
    await db.insertInto('memberships').values({ community_id: beta.id, user_id: member.id }).execute();
    const { token } = await signIn(app, member, alpha);
    t.same(await derive(token, beta), PUBLIC_IDENTITY);
    const res = await app.inject({ url: '/', headers: { host: 'beta.test', cookie: `${AUTH_COOKIE}=${token}`, accept: 'text/html' } });
    t.match(res.body, '>Sign In</a>', 'the other community shows the signed-out page');
  });

  await t.test('a deactivated user or membership is public', async (t) => {
    const { token } = await signIn(app, member, alpha);
    await db.updateTable('memberships').set({ is_active: false }).where('user_id', '=', member.id).where('community_id', '=', alpha.id).execute();
    t.same(await derive(token), PUBLIC_IDENTITY);
    await db.updateTable('memberships').set({ is_active: true }).where('user_id', '=', member.id).execute();
    await db.updateTable('users').set({ is_active: false }).where('id', '=', member.id).execute();
    t.same(await derive(token), PUBLIC_IDENTITY);
    await db.updateTable('users').set({ is_active: true }).where('id', '=', member.id).execute();
  });

  await t.test('a token signed with another key is public', async (t) => {
    const foreign = await new SignJWT({ brand: 'alpha', community: String(alpha.id), location: '/', gate: 'app', sid: 'x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(['/graphql', '/graphqlAdmin'])
      .setSubject(`u:${member.id}`)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    t.same(await derive(foreign), PUBLIC_IDENTITY);
  });

  await t.test('the cookie carries the spec claims', async (t) => {
    const { token } = await signIn(app, member, alpha);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    t.match(claims, { aud: ['/graphql'], sub: `u:${member.id}`, brand: 'alpha', community: String(alpha.id), location: '/', gate: 'app' });
    t.type(claims.sid, 'string');
  });
});
