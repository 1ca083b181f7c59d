import t from 'tap';
import { listDevices } from '#src/features/notifications/push/tokens.ts';
import { setupDatabase } from '#test/helpers/app.ts';

t.test('the demo: a Summit member with an iPhone and an Android phone registered', async (t) => {
  const db = await setupDatabase(t, { seeded: true });
  const summit = await db.selectFrom('communities').select('id').where('code', '=', 'summit').executeTakeFirstOrThrow();
  const amara = await db.selectFrom('users').select('id').where('username', '=', 'amara.okafor').executeTakeFirstOrThrow();
  const devices = await listDevices(db, { communityId: summit.id, userId: amara.id });
  t.same(devices.map((d) => d.platform), ['fcm', 'ios'], 'newest first');
});
