import type { FastifyInstance } from 'fastify';
import type { Db } from '#src/db/index.ts';
import { formatMoney } from '../money.ts';
import { payNowPath } from '../paynow/links.ts';
import { crossCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';

export type DunningApp = Pick<FastifyInstance, 'db' | 'clock' | 't' | 'config' | 'messages' | 'notifications' | 'log'>;

/**
 * The dunning schedule: a pay-now mail on these days after the subscription fell past due (day 0 is
 * the first run of the dunning job after the renewal failed), four in all; then no more mail (the
 * dunning page at sign-in and the concierge take over). A job that was down does not catch up in a
 * burst: each next mail is at least a day after the one before.
 */
export const DUNNING_DAYS: readonly number[] = [0, 3, 7, 14];
const DAY_MS = 24 * 60 * 60 * 1000;
export const DUNNING_BATCH = 100;

/** When mail number `step` (0-based) is due, or null after the last. */
export function dunningAt(pastDueSince: Date, step: number): Date | null {
  const days = DUNNING_DAYS[step];
  return days === undefined ? null : new Date(pastDueSince.getTime() + days * DAY_MS);
}

/**
 * The address pay-now links are mailed with: the community's own host when it has one (the page
 * belongs to the host's community), in the scheme and port of PUBLIC_URL; else PUBLIC_URL itself.
 */
export async function siteUrlFor(app: Pick<FastifyInstance, 'config'>, db: Db, community: Tenant): Promise<string> {
  const base = new URL(app.config.publicUrl);
  const host = await selectInCommunity(db, 'community_hosts', community).select('host').orderBy('host').limit(1).executeTakeFirst();
  if (host) base.hostname = host.host;
  return `${base.origin}${app.config.basePath}`;
}

/**
 * Mails every past-due member (membership and account active) whose next dunning mail is due: the pay-now link (absolute, with userId
 * and subscriptionId), the balance; and notifies them (kind 'payments', the web and push channels).
 * Per subscription, one transaction locks its row, checks again that a mail is due (a second runner
 * waits on the lock, then finds it sent), enqueues the mail and the notification and moves
 * dunning_count and next_dunning_at on: a crash sends the step's mail once or, rolled back, not yet.
 */
export async function runDunning(app: DunningApp, now: Date, batchSize = DUNNING_BATCH): Promise<number> {
  let sent = 0;
  let after: { at: Date; id: string } | undefined;
  for (;;) {
    const from = after;
    // Named cross-community query: a scheduled job scanning the due rows of every community (each
    // subscription is then dunned within its own community).
    const due = await crossCommunity(app.db)
      .selectFrom('subscriptions as s')
      .innerJoin('memberships as ms', (j) => j.onRef('ms.user_id', '=', 's.user_id').onRef('ms.community_id', '=', 's.community_id'))
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.id', 's.community_id', 's.next_dunning_at'])
      .where('s.status', '=', 'past_due')
      .where('s.next_dunning_at', '<=', now)
      .where('ms.is_active', '=', true)
      .where('u.is_active', '=', true)
      .$if(from !== undefined, (q) => q.where((eb) => eb(eb.refTuple('s.next_dunning_at', 's.id'), '>', eb.tuple(from!.at, from!.id))))
      .orderBy('s.next_dunning_at')
      .orderBy('s.id')
      .limit(batchSize)
      .execute();
    for (const row of due) {
      try {
        if (await dunOne(app, row.id, { id: row.community_id }, now)) sent += 1;
      } catch (err) {
        app.log.error({ err, subscriptionId: row.id }, 'dunning mail failed');
      }
    }
    if (due.length < batchSize) return sent;
    const last = due[due.length - 1]!;
    after = { at: new Date(last.next_dunning_at!), id: last.id };
  }
}

async function dunOne(app: DunningApp, subscriptionId: string, community: Tenant, now: Date): Promise<boolean> {
  const siteUrl = await siteUrlFor(app, app.db, community);
  return app.db.transaction().execute(async (trx) => {
    const s = await selectInCommunityAs(trx, 'subscriptions', 's', community)
      .innerJoin('users as u', 'u.id', 's.user_id')
      .innerJoin('memberships as ms', (j) => j.onRef('ms.user_id', '=', 's.user_id').onRef('ms.community_id', '=', 's.community_id'))
      .innerJoin('communities as c', 'c.id', 's.community_id')
      .select([
        's.id',
        's.user_id',
        's.outstanding_cents',
        's.currency',
        's.past_due_since',
        's.dunning_count',
        's.next_dunning_at',
        's.status',
        'u.email',
        'u.first_name',
        'c.name as community_name',
        'c.concierge_email',
        'c.concierge_phone',
        'ms.is_active as membership_active',
        'u.is_active as user_active',
      ])
      .where('s.id', '=', subscriptionId)
      .forUpdate('s')
      .executeTakeFirst();
    // A member deactivated since the batch was read gets no mail (staff clear their dunning too).
    if (!s || !s.membership_active || !s.user_active || s.status !== 'past_due' || !s.next_dunning_at || new Date(s.next_dunning_at).getTime() > now.getTime()) return false;
    const step = s.dunning_count;
    const since = new Date(s.past_due_since ?? now);
    const amount = formatMoney(s.outstanding_cents, s.currency);
    const link = `${siteUrl}${payNowPath(s.user_id, s.id)}`;
    const values = {
      firstName: s.first_name,
      community: s.community_name,
      amount,
      link,
      conciergeEmail: s.concierge_email,
      conciergePhone: s.concierge_phone,
      step: step + 1,
      steps: DUNNING_DAYS.length,
    };
    await app.messages.mail(trx, {
      to: s.email,
      from: `"${s.community_name.replace(/["\\\r\n]/g, '')}" <${app.config.mailFrom}>`,
      subject: app.t(step === 0 ? 'paynow.dunning.subjectFirst' : 'paynow.dunning.subject', values),
      text: app.t('paynow.dunning.text', values),
    });
    await app.notifications.notify(trx, {
      communityId: community.id,
      userId: s.user_id,
      kind: 'payments',
      url: '/billing/overdue',
      message: app.t('paynow.dunning.notification', values),
      createdAt: now,
    });
    const scheduled = dunningAt(since, step + 1);
    const next = scheduled ? new Date(Math.max(scheduled.getTime(), now.getTime() + DAY_MS)) : null;
    await updateInCommunity(trx, 'subscriptions', community)
      .set({ dunning_count: step + 1, next_dunning_at: next, updated_at: now })
      .where('id', '=', s.id)
      .execute();
    return true;
  });
}
