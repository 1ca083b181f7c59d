import { parseId } from '#src/core/ids.ts';
import type { FastifyInstance } from 'fastify';
import { AppError } from '#src/core/errors.ts';
import { hasForbiddenCharacters } from '#src/core/fields.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, selectInCommunityAs, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { CardType, Community } from '#src/db/types.ts';
import { chargeOnce, declineError, type ChargeResult, type PaymentSource } from '../ledger.ts';
import { loadPaymentSite } from '../queries.ts';
import type { BrowserSettings, DeclineCode } from '../processor/types.ts';

export type PayNowApp = Pick<FastifyInstance, 'db' | 'clock' | 'cardProcessor' | 't'>;
type Trx = Db;

/**
 * Spec section 3, "Subscription balance". Money is integer cents (the team's rule): `outstandingBalance`
 * is cents of `currency`; `renewalDate` an ISO date-time or null.
 */
export type SubscriptionBalance = {
  subscriptionId: string;
  userId: number;
  memberName: string;
  publicKey: string;
  serverHost: string;
  outstandingBalance: number;
  currency: string;
  /** Nothing is due and nothing was paid lately: the no-balance view. */
  showNoBalanceDue: boolean;
  renewalDate: string | null;
};

/** A balance paid on this page within this long shows as paid (the complete view) when the link is opened again. */
export const PAID_VIEW_MS = 24 * 60 * 60 * 1000;

/** The idempotency key a client may send (Idempotency-Key header, the form's hidden field). */
export const KEY_PATTERN = /^[\x21-\x7e]{8,150}$/;

/** A pay-now link's two parameters, checked: anything malformed is the same answer as an unknown pair. */
export type BalanceRef = { subscriptionId: string; userId: number };

/**
 * The pair as given by a link, a form, REST or GraphQL. A subscription id is random text (a few dozen
 * printable characters); a user id a positive integer. Anything else is the invalid-membership answer,
 * exactly as an unknown or mismatched pair is (no way to tell which part was wrong).
 */
export function parseBalanceRef(input: { subscriptionId?: unknown; userId?: unknown }): BalanceRef {
  const sid = input.subscriptionId;
  const uid = input.userId;
  const userId = parseId(uid);
  if (typeof sid !== 'string' || sid.length < 8 || sid.length > 100 || hasForbiddenCharacters(sid) || !/^[\x21-\x7e]+$/.test(sid)) {
    throw new AppError('Payments.InvalidMembership');
  }
  if (userId === null) throw new AppError('Payments.InvalidMembership');
  return { subscriptionId: sid, userId };
}

type SubscriptionRow = {
  id: string;
  user_id: number;
  status: string;
  outstanding_cents: number;
  currency: string;
  renews_at: Date | null;
  past_due_since: Date | null;
  first_name: string;
  last_name: string;
};

/** The subscription of the pair in this community, or null. One indexed read (primary key). */
async function findSubscription(db: PayNowApp['db'] | Trx, community: Tenant, ref: BalanceRef): Promise<SubscriptionRow | null> {
  const row = await selectInCommunityAs(db, 'subscriptions', 's', community)
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id', 's.user_id', 's.status', 's.outstanding_cents', 's.currency', 's.renews_at', 's.past_due_since', 'u.first_name', 'u.last_name'])
    .where('s.id', '=', ref.subscriptionId)
    .where('s.user_id', '=', ref.userId)
    .where('s.status', '!=', 'canceled')
    .executeTakeFirst();
  return row ?? null;
}

/** The last balance payment made on this subscription (its ledger id), if it settled within `since`. */
async function recentBalancePayment(app: PayNowApp, community: Tenant, subscriptionId: string, since: Date): Promise<number | null> {
  const row = await selectInCommunity(app.db, 'payment_ledger', community)
    .select('id')
    .where('subscription_id', '=', subscriptionId)
    .where('kind', '=', 'charge')
    .where('purpose', '=', 'balance')
    .where('status', '=', 'succeeded')
    .where('settled_at', '>=', since)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** What the page needs beside the balance: the processor's browser settings and the accepted cards. */
export type BalanceView = { balance: SubscriptionBalance; browser: BrowserSettings; acceptedCards: CardType[] };

/** The balance behind a pair, with what the card form needs. Unknown pair: Payments.InvalidMembership. */
export async function loadBalance(app: PayNowApp, community: Community, input: { subscriptionId?: unknown; userId?: unknown }): Promise<BalanceView> {
  const ref = parseBalanceRef(input);
  const sub = await findSubscription(app.db, community, ref);
  if (!sub) throw new AppError('Payments.InvalidMembership');
  const site = await loadPaymentSite(app.db, community);
  if (!site) throw new AppError('Payments.NotConfigured');
  const browser = app.cardProcessor.browserSettings(site);
  const paidLately = sub.outstanding_cents === 0 ? (await recentBalancePayment(app, community, sub.id, new Date(app.clock.now().getTime() - PAID_VIEW_MS))) !== null : false;
  return {
    browser,
    acceptedCards: site.acceptedCards,
    balance: {
      subscriptionId: sub.id,
      userId: sub.user_id,
      memberName: `${sub.first_name} ${sub.last_name}`.trim(),
      publicKey: browser.publicKey,
      serverHost: browser.serverHost,
      outstandingBalance: sub.outstanding_cents,
      currency: sub.currency,
      showNoBalanceDue: sub.outstanding_cents === 0 && !paidLately,
      renewalDate: sub.renews_at ? new Date(sub.renews_at).toISOString() : null,
    },
  };
}

/** Spec section 7, `POST /rest/payment/check-balance` and `subscriptionBalance`. */
export async function checkBalance(app: PayNowApp, community: Community, input: { subscriptionId?: unknown; userId?: unknown }): Promise<SubscriptionBalance> {
  return (await loadBalance(app, community, input)).balance;
}

export type PayInput = {
  ref: BalanceRef;
  /** Who pressed pay: the member signed in, or null for the anonymous page. */
  actorId: number | null;
  /**
   * The form's hidden key, the Idempotency-Key header, or one derived from the token: checked, but it
   * does not decide the charge's key (balanceKey does, from the subscription's period).
   */
  idempotencyKey: string;
  source: PaymentSource;
};

export type PayOutcome = { status: 'paid'; id: number } | { status: 'refused'; code: DeclineCode; error: AppError };

/** The key derived from a token when the client sends none: a token serves once, so it is a safe key. */
export const keyFromToken = (token: string) => `tok:${token}`;

/** The idempotency key a client sent, checked (a header, a hidden field); undefined when absent. */
export function clientKey(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !KEY_PATTERN.test(value)) throw new AppError('BadRequest.Validation');
  return value;
}

/** A one-time token from the provider: short printable text. */
export function parseToken(value: unknown): string {
  if (typeof value !== 'string' || value.length < 8 || value.length > 150 || !/^[\x21-\x7e]+$/.test(value)) throw new AppError('Payments.InvalidToken');
  return value;
}

/**
 * Pays the outstanding balance of a subscription (spec "Pay-now flow"; `POST /rest/payment/pay-balance`,
 * `paySubscriptionByToken`). One charge per key (chargeOnce). Settling it, in the same transaction,
 * clears the subscription: outstanding 0, active, dunning stopped. A balance already at 0 is marked
 * paid: the answer is the last balance payment (a second submit after the first settled, under
 * another key, is told the first one's id and charges nothing). A refused card is `refused` (a 400
 * for the caller to show inline); a processor that failed throws Payments.Processing (502).
 */
export async function payBalance(app: PayNowApp, community: Community, input: PayInput): Promise<PayOutcome> {
  const sub = await findSubscription(app.db, community, input.ref);
  if (!sub) throw new AppError('Payments.InvalidMembership');
  if (sub.outstanding_cents === 0) {
    // Paid already (a second submit, another tab): the answer is the payment that paid it.
    const last = await recentBalancePayment(app, community, sub.id, new Date(0));
    if (last !== null) return { status: 'paid', id: last };
    throw new AppError('Payments.NoBalanceDue');
  }
  const amount = sub.outstanding_cents;
  const label = app.t('paynow.statement.name');
  const result: ChargeResult = await chargeOnce(app, {
    community,
    userId: sub.user_id,
    actorId: input.actorId,
    idempotencyKey: await balanceKey(app, community, sub),
    amountCents: amount,
    purpose: 'balance',
    description: label,
    items: [{ label: app.t('paynow.statement.item'), amountCents: amount }],
    statement: { kind: 'dues', name: label },
    subscriptionId: sub.id,
    // Paid by someone else (the public page, an API client that is not the member): their card pays
    // this balance but does not become the member's default for renewals.
    source: 'token' in input.source ? { ...input.source, asDefault: input.actorId === sub.user_id } : input.source,
    onSettled: async (trx) => {
      await settleSubscription(trx, community, sub.id, amount, app.clock.now());
    },
  });
  if (result.status === 'succeeded') return { status: 'paid', id: result.ledgerId };
  if (result.code === 'processing') throw new AppError('Payments.Processing');
  return { status: 'refused', code: result.code, error: declineError(result.code) };
}

/**
 * The key a balance payment charges under, made on the server from the subscription's period, so that
 * two payments of one balance at once (two tabs, two clients, each with its own key) make one charge:
 * `paynow:balance:<subscription>:<past due since, or the renewal date>:<refused so far>`. A refused card
 * counts, so the next card gets a key of its own; a processing failure leaves its charge pending and
 * does not, so the retry asks the processor about the same charge.
 */
export async function balanceKey(app: Pick<PayNowApp, 'db'>, community: Tenant, sub: { id: string; past_due_since: Date | null; renews_at: Date | null }): Promise<string> {
  const since = sub.past_due_since ?? sub.renews_at;
  const prefix = `paynow:balance:${sub.id}:${since ? new Date(since).toISOString() : 'none'}:`;
  const refused = await selectInCommunity(app.db, 'payment_ledger', community)
    .select('idempotency_key')
    .where('subscription_id', '=', sub.id)
    .where('kind', '=', 'charge')
    .where('purpose', '=', 'balance')
    .where('status', 'in', ['declined', 'failed'])
    .execute();
  // Compared here, not with LIKE: a subscription id may hold LIKE's wildcards.
  const n = refused.filter((r) => r.idempotency_key?.startsWith(`charge:${prefix}`)).length;
  return `${prefix}${n}`;
}

/**
 * The balance is paid: nothing outstanding (less what was paid, should more have fallen due
 * meanwhile), active again, dunning stopped. Runs in the charge's settling transaction.
 */
export async function settleSubscription(trx: Trx, community: Tenant, subscriptionId: string, paidCents: number, now: Date): Promise<void> {
  const row = await selectInCommunity(trx, 'subscriptions', community)
    .select('outstanding_cents')
    .where('id', '=', subscriptionId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return;
  const left = Math.max(0, row.outstanding_cents - paidCents);
  await updateInCommunity(trx, 'subscriptions', community)
    .set(
      left === 0
        ? { outstanding_cents: 0, status: 'active', dunning_count: 0, next_dunning_at: null, past_due_since: null, updated_at: now }
        : { outstanding_cents: left, updated_at: now },
    )
    .where('id', '=', subscriptionId)
    .execute();
}

/** The member's own subscription in the community (me.subscription, the dunning page), or null. */
export async function memberSubscription(db: PayNowApp['db'], community: Tenant, userId: number) {
  const row = await selectInCommunity(db, 'subscriptions', community)
    .select(['id', 'status', 'outstanding_cents', 'currency', 'renews_at', 'past_due_since'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ?? null;
}
