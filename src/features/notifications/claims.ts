import type { Db } from '#src/db/index.ts';
import { deleteInCommunity, insertInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { DeliveryStatus } from '#src/db/types.ts';
import type { Delivery } from './types.ts';

/**
 * Claims one delivery (notification, channel, target): true if this call made the claim, false if a
 * earlier run already did. A sender claims before it sends, so a retried job never sends twice; a
 * sender whose send failed releases its claim (releaseDelivery) so that the retry sends it.
 */
export async function claimDelivery(
  db: Db,
  d: Pick<Delivery, 'notification'>,
  channel: string,
  target: string,
  status: DeliveryStatus,
  now: Date,
): Promise<boolean> {
  const n = d.notification;
  const row = await insertInCommunity(db, 'notification_deliveries', { id: n.community_id }, { notification_id: n.id, channel, target, user_id: n.user_id, status, created_at: now, sent_at: status === 'sent' ? now : null })
    .onConflict((oc) => oc.columns(['notification_id', 'channel', 'target']).doNothing())
    .returning('notification_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function releaseDelivery(db: Db, community: Tenant, notificationId: number, channel: string, target: string): Promise<void> {
  await deleteInCommunity(db, 'notification_deliveries', community).where('notification_id', '=', notificationId).where('channel', '=', channel).where('target', '=', target).execute();
}
