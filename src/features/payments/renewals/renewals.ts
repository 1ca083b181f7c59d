import type { FastifyInstance } from 'fastify';
import type { Db } from '#src/db/index.ts';
import { crossCommunity, selectInCommunityAs, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { chargeOnce } from '../ledger.ts';
import { findDefaultPayment } from '../queries.ts';

export type RenewalApp = Pick<FastifyInstance, 'db' | 'clock' | 'cardProcessor' | 't' | 'log'>;
type Trx = Db;

/**
 * Dues are billed yearly (the plans say so: "billed yearly"), whatever the commitment (12 or 24
 * months): a renewal moves renews_at on by twelve months.
 */
export const BILLING_PERIOD_MONTHS = 12;

/** Subscriptions read per batch (keyset on renews_at, id through the subscriptions_renewals index). */
export const RENEWAL_BATCH = 100;

export function addMonths(date: Date, months: number): Date {
  const d = new Date(date);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  // 31 January + 1 month is the last day of February, not 3 March.
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/** The idempotency key of one period's renewal: a retried or repeated job never charges it twice. */
export const renewalKey = (subscriptionId: string, renewsAt: Date) => `renewal:${subscriptionId}:${new Date(renewsAt).toISOString()}`;

/** A due subscription; its community is the tenant value built once at the job's edge. */
type Due = { id: string; community: Tenant; user_id: number; renews_at: Date; dues_cents: number; plan_name: string };

export type RenewalRun = { renewed: number; pastDue: number; errors: number; retry: number };

/**
 * Renews every active subscription whose renews_at has passed: charges the plan's dues to the member's
 * default saved card (purpose 'renewal', statement kind 'dues') under `renewal:<id>:<renews_at>`.
 * Success moves renews_at on by the billing period; a refused charge, a processor failure or no card
 * on file marks the subscription past_due: the dues are outstanding, dunning starts now (dunning.ts).
 * Both happen in the transaction that settles the charge (chargeOnce's onSettled / onRefused), only
 * while renews_at is still the period charged, so a repeated run changes nothing twice.
 *
 * A processor that could not be reached (`failed`, code 'processing') is not a refusal: the
 * subscription is left as it is (renews_at unmoved), so the next hourly run asks again under the same
 * key. Only members whose membership and account are active renew: a deactivated member is not
 * charged (reactivated, their renewal is due again at the next run).
 */
export async function runRenewals(app: RenewalApp, now: Date, batchSize = RENEWAL_BATCH): Promise<RenewalRun> {
  const run: RenewalRun = { renewed: 0, pastDue: 0, errors: 0, retry: 0 };
  let after: { renews_at: Date; id: string } | undefined;
  for (;;) {
    const from = after;
    // Named cross-community query: a scheduled job scanning the due rows of every community (each
    // subscription is then renewed within its own community).
    const due: Due[] = await crossCommunity(app.db)
      .selectFrom('subscriptions as s')
      .innerJoin('membership_plans as p', (j) => j.onRef('p.id', '=', 's.plan_id').onRef('p.community_id', '=', 's.community_id'))
      .innerJoin('memberships as ms', (j) => j.onRef('ms.user_id', '=', 's.user_id').onRef('ms.community_id', '=', 's.community_id'))
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.id', 's.community_id', 's.user_id', 's.renews_at', 'p.dues_cents', 'p.name as plan_name'])
      .where('s.status', '=', 'active')
      .where('ms.is_active', '=', true)
      .where('u.is_active', '=', true)
      .where('s.renews_at', '<=', now)
      .$if(from !== undefined, (q) => q.where((eb) => eb(eb.refTuple('s.renews_at', 's.id'), '>', eb.tuple(from!.renews_at, from!.id))))
      .orderBy('s.renews_at')
      .orderBy('s.id')
      .limit(batchSize)
      .execute()
      .then((rows) => rows.map(({ community_id, ...r }) => ({ ...r, community: { id: community_id }, renews_at: new Date(r.renews_at!) })));
    for (const sub of due) {
      try {
        const outcome = await renewOne(app, sub, now);
        if (outcome === 'renewed') run.renewed += 1;
        else if (outcome === 'past_due') run.pastDue += 1;
        else if (outcome === 'retry') run.retry += 1;
      } catch (err) {
        // One subscription's trouble (a key reused for another amount after the plan changed, the
        // database) does not hold the others up; the next run tries it again.
        run.errors += 1;
        app.log.error({ err, subscriptionId: sub.id }, 'renewal failed');
      }
    }
    if (due.length < batchSize) return run;
    const last = due[due.length - 1]!;
    after = { renews_at: last.renews_at, id: last.id };
  }
}

/** Whether the member may still be billed: membership and account active (checked again just before charging). */
export async function isActiveMember(db: RenewalApp['db'], community: Tenant, userId: number): Promise<boolean> {
  const row = await selectInCommunityAs(db, 'memberships', 'ms', community)
    .innerJoin('users as u', 'u.id', 'ms.user_id')
    .select('ms.id')
    .where('ms.user_id', '=', userId)
    .where('ms.is_active', '=', true)
    .where('u.is_active', '=', true)
    .executeTakeFirst();
  return row !== undefined;
}

async function renewOne(app: RenewalApp, sub: Due, now: Date): Promise<'renewed' | 'past_due' | 'unchanged' | 'retry'> {
  // Deactivated since the batch was read: not charged, left as is.
  if (!(await isActiveMember(app.db, sub.community, sub.user_id))) return 'unchanged';
  const next = addMonths(sub.renews_at, BILLING_PERIOD_MONTHS);
  if (sub.dues_cents <= 0) {
    return (await advance(app.db, sub, next, now)) ? 'renewed' : 'unchanged';
  }
  const card = await findDefaultPayment(app.db, sub.community, sub.user_id);
  if (!card) {
    const marked = await app.db.transaction().execute((trx) => markPastDue(trx, sub, next, now));
    return marked ? 'past_due' : 'unchanged';
  }
  const label = app.t('paynow.statement.renewal', { plan: sub.plan_name });
  const result = await chargeOnce(app, {
    community: sub.community,
    userId: sub.user_id,
    actorId: null,
    idempotencyKey: renewalKey(sub.id, sub.renews_at),
    amountCents: sub.dues_cents,
    purpose: 'renewal',
    description: label,
    items: [{ label, amountCents: sub.dues_cents }],
    statement: { kind: 'dues', name: label },
    subscriptionId: sub.id,
    source: { savedPaymentId: card.id },
    onSettled: async (trx) => void (await advance(trx, sub, next, now)),
    // An unreachable processor is no refusal: the period stays due and the next run retries the key.
    onRefused: async (trx, refused) => {
      if (refused.code !== 'processing') await markPastDue(trx, sub, next, now);
    },
  });
  if (result.status === 'succeeded') return 'renewed';
  if (result.code === 'processing') return 'retry';
  return 'past_due';
}

/** The period is paid: renews_at moves on, only if it is still the period charged. */
async function advance(db: RenewalApp['db'] | Trx, sub: Due, next: Date, now: Date): Promise<boolean> {
  const r = await updateInCommunity(db, 'subscriptions', sub.community)
    .set({ renews_at: next, period_started_at: sub.renews_at, updated_at: now })
    .where('id', '=', sub.id)
    .where('status', '=', 'active')
    .where('renews_at', '=', sub.renews_at)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * The period's dues went unpaid: they are outstanding, the subscription is past_due, and dunning
 * starts at once (its first mail on the dunning job's next run). The period still starts (renews_at
 * moves on): what is owed is this period, which the pay-now page settles.
 */
export async function markPastDue(trx: Trx, sub: Pick<Due, 'id' | 'community' | 'renews_at' | 'dues_cents'>, next: Date, now: Date): Promise<boolean> {
  const r = await updateInCommunity(trx, 'subscriptions', sub.community)
    .set((eb) => ({
      status: 'past_due',
      outstanding_cents: eb('outstanding_cents', '+', sub.dues_cents),
      past_due_since: now,
      dunning_count: 0,
      next_dunning_at: now,
      renews_at: next,
      period_started_at: sub.renews_at,
      updated_at: now,
    }))
    .where('id', '=', sub.id)
    .where('status', '=', 'active')
    .where('renews_at', '=', sub.renews_at)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
