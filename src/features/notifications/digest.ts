import type { FastifyInstance } from 'fastify';
import type { Db } from '#src/db/index.ts';
import type { JobDefinition } from '#src/lib/jobs/queue.ts';
import { kindOf } from './kinds.ts';
import { digestMail, mailContext, type DigestItem, type MailContext } from './email-delivery.ts';

export const DIGEST_JOB = 'notifications.digest';
export const DIGEST_INTERVAL_MS = 24 * 60 * 60 * 1000;

type Pending = {
  notification_id: number;
  community_id: number;
  user_id: number;
  target: string;
  kind: string;
  message: string;
  url: string;
  created_at: Date;
  first_name: string;
  community_name: string;
};

/**
 * The daily digest: every notification email waiting as a 'digest' claim, for each member whose last
 * digest went out 24 hours ago or more (or never), becomes ONE email listing them newest first. One
 * query gathers every such row of every member (joins, no query per row); then, per member, one
 * transaction marks exactly the rows it gathered 'sent' (only those still waiting: a second runner
 * that got there first leaves this one nothing to send), records digest_sent_at and enqueues the mail.
 * Run hourly: a member's digest goes out within the hour after their 24 hours are up.
 */
export async function sendDigests(db: Db, ctx: MailContext, enqueue: (trx: Db, mail: Awaited<ReturnType<typeof digestMail>>) => Promise<void>, now: Date): Promise<number> {
  const due = new Date(now.getTime() - DIGEST_INTERVAL_MS);
  const rows: Pending[] = await db
    .selectFrom('notification_deliveries as d')
    .innerJoin('notifications as n', 'n.id', 'd.notification_id')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .innerJoin('memberships as m', (j) => j.onRef('m.user_id', '=', 'd.user_id').onRef('m.community_id', '=', 'd.community_id'))
    .innerJoin('communities as c', 'c.id', 'd.community_id')
    .leftJoin('notification_settings as s', (j) => j.onRef('s.user_id', '=', 'd.user_id').onRef('s.community_id', '=', 'd.community_id'))
    .select(['d.notification_id', 'd.community_id', 'd.user_id', 'd.target', 'n.kind', 'n.message', 'n.url', 'n.created_at', 'u.first_name', 'c.name as community_name'])
    .where('d.status', '=', 'digest')
    .where('d.channel', '=', 'email')
    .where('u.is_active', '=', true)
    .where('m.is_active', '=', true)
    .where((eb) => eb.or([eb('s.digest_sent_at', 'is', null), eb('s.digest_sent_at', '<=', due)]))
    .orderBy('d.community_id')
    .orderBy('d.user_id')
    .orderBy('n.created_at', 'desc')
    .execute();

  // Email turned off for a kind since its row began to wait (an unsubscribe link, the settings): that
  // row is dropped, not sent. One query for every member's stored email choices.
  const userIds = [...new Set(rows.map((r) => r.user_id))];
  const prefs = userIds.length
    ? await db.selectFrom('notification_preferences').select(['community_id', 'user_id', 'option', 'selected']).where('channel', '=', 'email').where('user_id', 'in', userIds).execute()
    : [];
  const stored = new Map(prefs.map((p) => [`${p.community_id}:${p.user_id}:${p.option}`, p.selected]));
  const wanted = (r: Pending) => stored.get(`${r.community_id}:${r.user_id}:${r.kind}`) ?? kindOf(r.kind)?.defaults.email ?? false;

  const members = new Map<string, Pending[]>();
  for (const r of rows) {
    const key = `${r.community_id}:${r.user_id}:${r.target}`;
    members.set(key, [...(members.get(key) ?? []), r]);
  }

  let sent = 0;
  for (const group of members.values()) {
    const first = group[0]!;
    await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('notification_deliveries')
        .set({ status: 'sent', sent_at: now })
        .where('channel', '=', 'email')
        .where('target', '=', first.target)
        .where('status', '=', 'digest')
        .where('community_id', '=', first.community_id)
        .where('notification_id', 'in', group.map((r) => r.notification_id))
        .returning('notification_id')
        .execute();
      const ids = new Set(claimed.map((c) => c.notification_id));
      const unwanted = group.filter((r) => ids.has(r.notification_id) && !wanted(r)).map((r) => r.notification_id);
      if (unwanted.length) {
        await trx.deleteFrom('notification_deliveries').where('channel', '=', 'email').where('target', '=', first.target).where('notification_id', 'in', unwanted).execute();
      }
      const items: DigestItem[] = group.filter((r) => ids.has(r.notification_id) && wanted(r)).map((r) => ({ kind: r.kind, message: r.message, url: r.url, createdAt: new Date(r.created_at) }));
      if (items.length === 0) return;
      await trx
        .insertInto('notification_settings')
        .values({ community_id: first.community_id, user_id: first.user_id, digest_sent_at: now, updated_at: now })
        .onConflict((oc) => oc.columns(['community_id', 'user_id']).doUpdateSet({ digest_sent_at: now }))
        .execute();
      const mail = await digestMail(
        ctx,
        { communityId: first.community_id, userId: first.user_id, email: first.target, firstName: first.first_name, communityName: first.community_name },
        items,
      );
      await enqueue(trx as unknown as Db, mail);
      sent += 1;
    });
  }
  return sent;
}

/** The area's jobs: the hourly digest run (once across all processes; the next hour is its retry). */
export function preferenceJobs(app: FastifyInstance): JobDefinition[] {
  return [
    {
      name: DIGEST_JOB,
      schedule: '5 * * * *',
      retry: { limit: 2, delaySeconds: 60, backoff: true },
      expireInSeconds: 600,
      handler: async () => {
        const n = await sendDigests(app.db, mailContext(app), (trx, mail) => app.messages.mail(trx, mail), app.clock.now());
        if (n) app.log.info({ digests: n }, 'sent notification digests');
      },
    },
  ];
}

