import type { FastifyInstance } from 'fastify';
import type { Db } from '#src/db/index.ts';
import type { JobDefinition } from '#src/lib/jobs/queue.ts';
import { DELIVER_JOB } from './notifier.ts';
import { choicesFor, wantsDigest } from './queries.ts';
import type { ChannelSender, Delivery } from './types.ts';
import { emailSender } from './email-delivery.ts';
import { pushSender } from './push-delivery.ts';

/** The channels, in the order a delivery job runs them. A new channel adds one line. */
const SENDERS: ((app: FastifyInstance) => ChannelSender)[] = [emailSender, pushSender];

/** Loads what a delivery needs; undefined when the notification or its member is gone (nothing to send). */
export async function loadDelivery(db: Db, id: number): Promise<Delivery | undefined> {
  const row = await db
    .selectFrom('notifications as n')
    .innerJoin('users as u', 'u.id', 'n.user_id')
    .innerJoin('memberships as m', (j) => j.onRef('m.user_id', '=', 'n.user_id').onRef('m.community_id', '=', 'n.community_id'))
    .innerJoin('communities as c', 'c.id', 'n.community_id')
    .selectAll('n')
    .select(['u.email', 'u.first_name', 'u.is_active as user_active', 'm.is_active as member_active'])
    .where('n.id', '=', id)
    .executeTakeFirst();
  if (!row || !row.user_active || !row.member_active) return undefined;
  const community = await db.selectFrom('communities').selectAll().where('id', '=', row.community_id).executeTakeFirstOrThrow();
  const member = { communityId: row.community_id, userId: row.user_id, email: row.email, firstName: row.first_name };
  const { email: _e, first_name: _f, user_active: _u, member_active: _m, ...notification } = row;
  return { notification, member, community, choices: await choicesFor(db, member, row.kind), emailDigest: await wantsDigest(db, member) };
}

/** The delivery job: each channel the member keeps on for the notification's kind, once each. */
export function deliveryJobs(app: FastifyInstance): JobDefinition[] {
  const senders = SENDERS.map((make) => make(app));
  return [
    {
      name: DELIVER_JOB,
      retry: { limit: 6, delaySeconds: 10, backoff: true },
      batchSize: 10,
      pollingIntervalSeconds: 0.5,
      handler: async ({ id }: { id: number }) => {
        const delivery = await loadDelivery(app.db, id);
        if (!delivery) return;
        for (const sender of senders) if (delivery.choices[sender.channel]) await sender.send(delivery);
      },
    },
  ];
}
