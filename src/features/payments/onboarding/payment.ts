import type { FastifyInstance } from 'fastify';
import { AppError } from '#src/core/errors.ts';
import { randomToken } from '#src/core/ids.ts';
import { insertInCommunity, selectInCommunity, updateInCommunity } from '#src/db/tenancy.ts';
import { chargeOnce, type ChargeResult } from '../ledger.ts';
import { formatFee } from '../money.ts';
import { advance, findPlan, hasPaid, reload, renewalAfter, type Onboarding, type Plan } from './progress.ts';

type App = Pick<FastifyInstance, 'db' | 'clock' | 'cardProcessor'>;

/**
 * The payment step (spec sections 2, 3 "Submit payment input", 5 and 7): one service for the REST
 * call, the page's form and the hosted page's return. It charges the first year's dues and the
 * initiation fee through chargeOnce; when the charge settles, in the same transaction, the
 * subscription becomes active (period, renewal, plan, nothing outstanding) and the onboarding is paid.
 *
 * Charging twice is impossible by construction: the idempotency key is the onboarding's own
 * (`onboarding:<uid>:<refusals so far>`), not the form's nor the plan's, so a double click, two tabs
 * (even two tabs from the 12- and 24-month links), a retried request or the island and the hosted
 * page racing all charge under one key: a second plan's amount under it is Payments.KeyReused (409).
 * A refused card moves the count on, so the next card gets a fresh key. Just before charging, paid_at
 * is read again under the onboarding row's lock (a request that loaded the onboarding before another
 * paid finds it paid); once paid, the step answers "already paid". Settling marks the onboarding paid
 * only once, and only that first settlement sets the subscription (plan, period).
 */

export type PaymentInput = {
  /** The one-time token from the provider's script or hosted page. */
  token: unknown;
  /** Which offer: the plan's id, deal id or price point id (the first given wins); else the onboarding's. */
  planId?: unknown;
  dealId?: unknown;
  pricePointId?: unknown;
  /** The terms checkbox: refused when false. REST clients that check it themselves may leave it out. */
  acceptedTerms?: boolean;
  /** Who pressed pay. */
  actorId: number | null;
};

export type PaymentOutcome = { status: 'paid'; onboarding: Onboarding; ledgerId: number | null } | { status: 'refused'; result: Extract<ChargeResult, { status: 'declined' | 'failed' }> };

const TOKEN = /^[\x21-\x7e]{8,200}$/;

export function termsRequired(): AppError {
  return new AppError(900, { fields: { acceptedTerms: { code: 900, key: 'payments.fields.terms' } } });
}

/** Checks what the form brings before any card is asked for (the JS-off path checks this before the hosted page). */
export async function checkPaymentForm(app: App, o: Onboarding, input: Omit<PaymentInput, 'token' | 'actorId'>): Promise<Plan> {
  if (o.site.onboardingDisabled) throw new AppError('Onboarding.Disabled');
  if (input.acceptedTerms === false) throw termsRequired();
  return choosePlan(app, o, input);
}

async function choosePlan(app: App, o: Onboarding, input: { planId?: unknown; dealId?: unknown; pricePointId?: unknown }): Promise<Plan> {
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  const idText = text(input.planId) ?? (typeof input.planId === 'number' ? String(input.planId) : null);
  const dealId = text(input.dealId);
  const pricePointId = text(input.pricePointId);
  if (idText === null && dealId === null && pricePointId === null) return o.plan;
  if (idText !== null && !/^\d{1,9}$/.test(idText)) throw new AppError('Payments.InvalidMembership');
  for (const v of [dealId, pricePointId]) if (v !== null && (v.length > 100 || !/^[\x21-\x7e]+$/.test(v))) throw new AppError('Payments.InvalidMembership');
  const plan = await findPlan(app.db, o.community, { id: idText !== null ? Number(idText) : null, dealId, pricePointId });
  if (!plan) throw new AppError('Payments.InvalidMembership');
  // Names that disagree (a deal of one plan, the price point of another) are not an offer.
  if ((dealId !== null && plan.dealId !== dealId) || (pricePointId !== null && plan.pricePointId !== pricePointId)) throw new AppError('Payments.InvalidMembership');
  return plan;
}

/** The key this onboarding charges under now, whatever the plan (see the comment at the top). */
export async function paymentKey(app: App, o: Onboarding, _plan?: Plan): Promise<string> {
  const refused = await selectInCommunity(app.db, 'payment_ledger', o.community)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', o.user.id)
    .where('kind', '=', 'charge')
    .where('purpose', '=', 'dues')
    .where('idempotency_key', 'like', `charge:onboarding:${o.row.id}:%`)
    .where('status', 'in', ['declined', 'failed'])
    .executeTakeFirstOrThrow();
  return `onboarding:${o.row.id}:${Number(refused.n)}`;
}

/** The member's subscription (one per member and community): made pending when there is none. */
async function subscriptionOf(app: App, o: Onboarding, plan: Plan): Promise<string> {
  const id = `sub_${randomToken(18)}`;
  await insertInCommunity(app.db, 'subscriptions', o.community, { id, user_id: o.user.id, plan_id: plan.id, currency: plan.currency })
    .onConflict((oc) => oc.columns(['community_id', 'user_id']).doNothing())
    .execute();
  const row = await selectInCommunity(app.db, 'subscriptions', o.community).select('id').where('user_id', '=', o.user.id).executeTakeFirstOrThrow();
  return row.id;
}

/** Pays the membership. See the comment at the top of this file. */
export async function submitPayment(app: App, o: Onboarding, input: PaymentInput): Promise<PaymentOutcome> {
  if (hasPaid(o)) return { status: 'paid', onboarding: o, ledgerId: null };
  const plan = await checkPaymentForm(app, o, input);
  if (typeof input.token !== 'string' || !TOKEN.test(input.token)) {
    throw new AppError(900, { fields: { token: { code: 900, key: 'onboarding.payment.cardRequired' } } });
  }
  // Paid meanwhile (another tab, another plan, the hosted page's return)? Read under the row's lock,
  // which waits for a settlement in flight to commit.
  const paidMeanwhile = await app.db.transaction().execute(async (trx) => {
    const row = await selectInCommunity(trx, 'onboardings', o.community).select('paid_at').where('id', '=', o.row.id).forUpdate().executeTakeFirst();
    return row?.paid_at != null;
  });
  if (paidMeanwhile) return { status: 'paid', onboarding: await advance(app, await reload(app, o)), ledgerId: null };
  const subscriptionId = await subscriptionOf(app, o, plan);
  const items = [{ label: `${plan.name}: yearly dues`, amountCents: plan.duesCents }];
  if (plan.initiationFeeCents > 0) items.push({ label: 'Initiation fee', amountCents: plan.initiationFeeCents });
  const amountCents = plan.duesCents + plan.initiationFeeCents;
  const result = await chargeOnce(app, {
    community: o.community,
    userId: o.user.id,
    actorId: input.actorId,
    idempotencyKey: await paymentKey(app, o, plan),
    amountCents,
    purpose: 'dues',
    description: `${plan.name} (${formatFee(amountCents, plan.currency)})`,
    items,
    statement: { kind: 'dues', name: plan.name },
    subscriptionId,
    source: { token: input.token },
    onSettled: async (trx) => {
      const now = app.clock.now();
      const paid = await updateInCommunity(trx, 'onboardings', o.community)
        .set({ paid_at: now, plan_id: plan.id, current_step: 'password', updated_at: now })
        .where('id', '=', o.row.id)
        .where('paid_at', 'is', null)
        .executeTakeFirst();
      // Already paid (it cannot be, by the key; but never let a second settlement move the plan or period).
      if (Number(paid.numUpdatedRows) !== 1) return;
      await updateInCommunity(trx, 'subscriptions', o.community)
        .set({ status: 'active', plan_id: plan.id, period_started_at: now, renews_at: renewalAfter(now), outstanding_cents: 0, currency: plan.currency, past_due_since: null, next_dunning_at: null, dunning_count: 0, updated_at: now })
        .where('id', '=', subscriptionId)
        .execute();
    },
  });
  if (result.status !== 'succeeded') return { status: 'refused', result };
  return { status: 'paid', onboarding: await advance(app, await reload(app, o)), ledgerId: result.ledgerId };
}
