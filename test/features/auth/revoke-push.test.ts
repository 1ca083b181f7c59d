import t from 'tap';
import { sha256 } from '#src/core/ids.ts';
import { revokeOtherSessions, revokeSessions } from '#src/features/auth/sessions.ts';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

/** A session's stored id (sessions.id), as push_tokens.session_id keeps it. */
const stored = sha256;

t.test('every way a session ends takes its browser push subscriptions with it', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha' });
  const { app } = await startApp(t, db);
  const ann = await createMember(db, alpha);
  const here = await signIn(app, ann, alpha);
  const laptop = await signIn(app, ann, alpha);
  const phone = await signIn(app, ann, alpha);
  const subscribe = (sessionId: string, n: number) =>
    db
      .insertInto('push_tokens')
      .values({ community_id: alpha.id, user_id: ann.id, token: `https://push.example/${n}`, platform: 'web', keys: JSON.stringify({ p256dh: 'k', auth: 'a' }), session_id: stored(sessionId) })
      .execute();
  await subscribe(here.sessionId, 1);
  await subscribe(laptop.sessionId, 2);
  await subscribe(phone.sessionId, 3);
  await db.insertInto('push_tokens').values({ community_id: alpha.id, user_id: ann.id, token: 'ios-token', platform: 'ios' }).execute();
  const left = async () => (await db.selectFrom('push_tokens').select('token').where('user_id', '=', ann.id).orderBy('token').execute()).map((r) => r.token);

  await revokeSessions(db, app.clock, { id: stored(laptop.sessionId), userId: ann.id, communityId: alpha.id });
  t.same(await left(), ['https://push.example/1', 'https://push.example/3', 'ios-token'], 'signing one device out from the list');
  await revokeOtherSessions(db, app.clock, ann.id, here.sessionId);
  t.same(await left(), ['https://push.example/1', 'ios-token'], 'everywhere else: this browser and the phone app stay');
});
