import type { FastifyInstance } from 'fastify';
import type { Db } from '#src/db/index.ts';
import { crossCommunity, deleteInCommunity, insertInCommunity, selectInCommunityAs, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { JobDefinition } from '#src/lib/jobs/queue.ts';
import { kindOf } from '#src/lib/notification-kinds.ts';
import { digestMail, mailContext, type DigestItem, type MailContext } from './email-delivery.ts';

export const DIGEST_JOB = 'notifications.digest';
export const DIGEST_INTERVAL_MS = 24 * 60 * 60 * 1000;

/** Members read per batch: a bounded page of work, keyset on (community_id, user_id). */
export const DIGEST_BATCH = 500;

/**
 * The daily digest: every notification email waiting as a 'digest' claim, for each member whose last
 * digest went out 24 hours ago or more (or never), becomes ONE email listing them newest first, sent
 * to the member's address of today (users.email), whatever address they had when the rows were queued.
 * Due members are read in batches (DIGEST_BATCH, keyset on community and member: no query grows with
 * the number of members). Per member, one transaction locks their notification_settings row and checks
 * digest_sent_at again (a second runner, another process or a run that outlived its expiry, waits on
 * that lock and then finds the digest sent), marks every row still waiting 'sent' and reads those
 * notifications with the member's email choice for each kind in the same statement, drops the kinds
 * whose email was turned off since, records digest_sent_at and enqueues the mail.
 * Run hourly: a member's digest goes out within the hour after their 24 hours are up.
 */
export async function sendDigests(
  db: Db,
  ctx: MailContext,
  enqueue: (trx: Db, mail: Awaited<ReturnType<typeof digestMail>>) => Promise<void>,
  now: Date,
  batchSize = DIGEST_BATCH,
): Promise<number> {
  const due = new Date(now.getTime() - DIGEST_INTERVAL_MS);
  let sent = 0;
  let after: { community_id: number; user_id: number } | undefined;
  for (;;) {
    const from = after;
    // Named cross-community query: a scheduled job scanning the due rows of every community (each
    // member's digest is then sent within that member's community).
    const members = await crossCommunity(db)
      .selectFrom('notification_deliveries as d')
      .innerJoin('users as u', 'u.id', 'd.user_id')
      .innerJoin('memberships as m', (j) => j.onRef('m.user_id', '=', 'd.user_id').onRef('m.community_id', '=', 'd.community_id'))
      .leftJoin('notification_settings as s', (j) => j.onRef('s.user_id', '=', 'd.user_id').onRef('s.community_id', '=', 'd.community_id'))
      .select(['d.community_id', 'd.user_id'])
      .distinct()
      .where('d.status', '=', 'digest')
      .where('d.channel', '=', 'email')
      .where('u.is_active', '=', true)
      .where('m.is_active', '=', true)
      .where((eb) => eb.or([eb('s.digest_sent_at', 'is', null), eb('s.digest_sent_at', '<=', due)]))
      .$if(from !== undefined, (q) => q.where((eb) => eb(eb.refTuple('d.community_id', 'd.user_id'), '>', eb.tuple(from!.community_id, from!.user_id))))
      .orderBy('d.community_id')
      .orderBy('d.user_id')
      .limit(batchSize)
      .execute();
    for (const m of members) if (await sendDigest(db, ctx, enqueue, now, due, { id: m.community_id }, m.user_id)) sent += 1;
    if (members.length < batchSize) return sent;
    after = members[members.length - 1]!;
  }
}

/** One member's digest, in one transaction under the lock of their settings row; true if one was sent. */
async function sendDigest(
  db: Db,
  ctx: MailContext,
  enqueue: (trx: Db, mail: Awaited<ReturnType<typeof digestMail>>) => Promise<void>,
  now: Date,
  due: Date,
  community: Tenant,
  userId: number,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // The row to lock exists (a member with waiting digest rows chose the digest once, but be sure).
    await insertInCommunity(trx, 'notification_settings', community, { user_id: userId, updated_at: now })
      .onConflict((oc) => oc.columns(['community_id', 'user_id']).doNothing())
      .execute();
    const member = await selectInCommunityAs(trx, 'notification_settings', 's', community)
      .innerJoin('users as u', 'u.id', 's.user_id')
      .innerJoin('memberships as m', (j) => j.onRef('m.user_id', '=', 's.user_id').onRef('m.community_id', '=', 's.community_id'))
      .innerJoin('communities as c', 'c.id', 's.community_id')
      .select(['s.digest_sent_at', 'u.email', 'u.first_name', 'u.is_active as user_active', 'm.is_active as member_active', 'c.name as community_name'])
      .where('s.user_id', '=', userId)
      .forUpdate('s')
      .executeTakeFirst();
    if (!member || !member.user_active || !member.member_active) return false;
    if (member.digest_sent_at && new Date(member.digest_sent_at).getTime() > due.getTime()) return false;

    // Every row still waiting becomes 'sent' (whatever address it was queued for); the same statement
    // reads their notifications and the member's stored email choice for each one's kind.
    const rows = await trx
      .with('claimed', (q) =>
        q
          .updateTable('notification_deliveries')
          .set({ status: 'sent', sent_at: now })
          .where('channel', '=', 'email')
          .where('status', '=', 'digest')
          .where('community_id', '=', community.id)
          .where('user_id', '=', userId)
          .returning('notification_id'),
      )
      .selectFrom('claimed')
      .innerJoin('notifications as n', 'n.id', 'claimed.notification_id')
      .leftJoin('notification_preferences as p', (j) =>
        j.onRef('p.community_id', '=', 'n.community_id').onRef('p.user_id', '=', 'n.user_id').onRef('p.option', '=', 'n.kind').on('p.channel', '=', 'email'),
      )
      .select(['n.id', 'n.kind', 'n.message', 'n.url', 'n.created_at', 'p.selected'])
      .execute();
    const seen = new Set<number>();
    const unwanted: number[] = [];
    const items: DigestItem[] = [];
    for (const r of rows) {
      if (seen.has(r.id)) continue; // queued for two addresses: listed once
      seen.add(r.id);
      if (r.selected ?? kindOf(r.kind)?.defaults.email ?? false) items.push({ kind: r.kind, message: r.message, url: r.url, createdAt: new Date(r.created_at) });
      else unwanted.push(r.id);
    }
    // Email turned off for a kind since its row began to wait (an unsubscribe link, the settings): that
    // row is dropped, not sent.
    if (unwanted.length) {
      await deleteInCommunity(trx, 'notification_deliveries', community).where('channel', '=', 'email').where('user_id', '=', userId).where('notification_id', 'in', unwanted).execute();
    }
    if (items.length === 0) return false;
    await updateInCommunity(trx, 'notification_settings', community).set({ digest_sent_at: now }).where('user_id', '=', userId).execute();
    const mail = await digestMail(ctx, { communityId: community.id, userId, email: member.email, firstName: member.first_name, communityName: member.community_name }, items);
    await enqueue(trx as unknown as Db, mail);
    return true;
  });
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

