import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { crossCommunity, selectInCommunityAs, type Tenant } from '#src/db/tenancy.ts';
import type { CommunityResolver } from '#src/features/communities/index.ts';
import type { JobDefinition } from '#src/lib/jobs/queue.ts';
import { DELIVER_JOB } from './notifier.ts';
import { choicesOf } from './queries.ts';
import type { ChannelSender, Delivery } from './types.ts';
import { emailSender } from './email-delivery.ts';
import { pushSender } from './push-delivery.ts';

/** The channels, in the order a delivery job runs them. A new channel adds one line. */
const SENDERS: ((app: FastifyInstance) => ChannelSender)[] = [emailSender, pushSender];

/**
 * Loads what a delivery needs in one statement (the notification, its member, their choices for its
 * kind and their email rhythm); undefined when the notification or its member is gone or deactivated
 * (nothing to send).
 */
export async function loadDelivery(db: Db, community: Tenant, id: number, communities: CommunityResolver): Promise<Delivery | undefined> {
  const row = await selectInCommunityAs(db, 'notifications', 'n', community)
    .innerJoin('users as u', 'u.id', 'n.user_id')
    .innerJoin('memberships as m', (j) => j.onRef('m.user_id', '=', 'n.user_id').onRef('m.community_id', '=', 'n.community_id'))
    .selectAll('n')
    .select((eb) => [
      'u.email',
      'u.first_name',
      'u.is_active as user_active',
      'm.is_active as member_active',
      eb
        .selectFrom('notification_settings as s')
        .select('s.email_digest')
        .whereRef('s.community_id', '=', 'n.community_id')
        .whereRef('s.user_id', '=', 'n.user_id')
        .as('email_digest'),
      sql<{ channel: string; selected: boolean }[] | null>`(select json_agg(json_build_object('channel', p.channel, 'selected', p.selected)) from notification_preferences p
        where p.community_id = n.community_id and p.user_id = n.user_id and p.option = n.kind)`.as('stored'),
    ])
    .where('n.id', '=', id)
    .executeTakeFirst();
  if (!row || !row.user_active || !row.member_active) return undefined;
  const resolved = await communities.resolveId(row.community_id);
  if (!resolved) return undefined;
  const member = { communityId: row.community_id, userId: row.user_id, email: row.email, firstName: row.first_name };
  const { email: _e, first_name: _f, user_active: _u, member_active: _m, email_digest, stored, ...notification } = row;
  return { notification, member, community: resolved, choices: choicesOf(row.kind, stored ?? []), emailDigest: email_digest ?? false };
}

/**
 * A delivery queued before its data carried the community (the queue keeps jobs across a deploy):
 * the notification's own row says which community it is in. The named cross-community query "A
 * notification queued without its community" (docs/architecture.md); new jobs never take this path.
 */
async function legacyCommunityOf(db: Db, notificationId: number): Promise<Tenant | undefined> {
  const row = await crossCommunity(db).selectFrom('notifications').select('community_id').where('id', '=', notificationId).executeTakeFirst();
  return row ? { id: row.community_id } : undefined;
}

/** The delivery job: each channel the member keeps on for the notification's kind, once each. */
export function deliveryJobs(app: FastifyInstance): JobDefinition[] {
  const senders = SENDERS.map((make) => make(app));
  return [
    {
      name: DELIVER_JOB,
      retry: { limit: 6, delaySeconds: 10, backoff: true },
      batchSize: 20,
      pollingIntervalSeconds: 0.5,
      handler: async ({ id, communityId }: { id: number; communityId?: number }) => {
        const community = communityId !== undefined ? { id: communityId } : await legacyCommunityOf(app.db, id);
        if (!community) return;
        const delivery = await loadDelivery(app.db, community, id, app.communities);
        if (!delivery) return;
        for (const sender of senders) if (delivery.choices[sender.channel]) await sender.send(delivery);
      },
    },
  ];
}
