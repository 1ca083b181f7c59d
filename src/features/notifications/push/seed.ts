import type { RawDb } from '#src/db/index.ts';

/**
 * The demo's devices: one member of summit has an iPhone and an Android phone registered (made-up
 * tokens), so the devices page lists something and, in development, their pushes land in the local
 * outbox (/dev/outbox).
 */
export async function seedPush(trx: RawDb, ctx: { communityId: number; now?: Date }): Promise<void> {
  const now = ctx.now ?? new Date();
  const member = await trx.selectFrom('users').select('id').where('username', '=', 'amara.okafor').executeTakeFirst();
  if (!member) return;
  await trx
    .insertInto('push_tokens')
    .values([
      { community_id: ctx.communityId, user_id: member.id, token: 'demo-ios-device-token-0001', platform: 'ios', created_at: new Date(now.getTime() - 40 * 86_400_000) },
      { community_id: ctx.communityId, user_id: member.id, token: 'demo-fcm-registration-token-0001', platform: 'fcm', created_at: new Date(now.getTime() - 9 * 86_400_000) },
    ])
    .onConflict((oc) => oc.columns(['community_id', 'token']).doNothing())
    .execute();
}
