import { randomBytes } from 'node:crypto';
import type { RawDb as Db } from '#src/db/index.ts';
import type { Community, SubscriptionStatus } from '#src/db/types.ts';

/** A member's subscription (its id random, as the pay-now link's subscriptionId is). */
export async function createSubscription(
  db: Db,
  community: Community,
  userId: number,
  options: { planId?: number | null; status?: SubscriptionStatus; outstandingCents?: number; renewsAt?: Date | null; pastDueSince?: Date | null; nextDunningAt?: Date | null } = {},
) {
  const id = `sub_${randomBytes(18).toString('base64url')}`;
  const status = options.status ?? 'past_due';
  await db
    .insertInto('subscriptions')
    .values({
      id,
      community_id: community.id,
      user_id: userId,
      plan_id: options.planId ?? null,
      status,
      outstanding_cents: options.outstandingCents ?? (status === 'past_due' ? 600000 : 0),
      renews_at: options.renewsAt === undefined ? new Date('2027-06-01T00:00:00Z') : options.renewsAt,
      past_due_since: options.pastDueSince ?? (status === 'past_due' ? new Date('2026-11-01T00:00:00Z') : null),
      next_dunning_at: options.nextDunningAt ?? null,
    })
    .execute();
  return id;
}
