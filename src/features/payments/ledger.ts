import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '#src/core/errors.ts';
import type { Db } from '#src/db/index.ts';
import type { CardType, LedgerPurpose, LineItem, StatementKind } from '#src/db/types.ts';
import { insertInCommunity, selectInCommunity, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { paymentMethodLabel, statusFromExpiry } from './cards.ts';
import { findSavedPayment, loadPaymentSite, toSavedPayment, type PaymentSite, type SavedPayment } from './queries.ts';
import type { Authorisation, DeclineCode } from './processor/types.ts';

type App = Pick<FastifyInstance, 'db' | 'clock' | 'cardProcessor'>;
/** A transaction on the tenant-safe database (the same guard inside). */
type Trx = Db;

/**
 * The ledger: the one place money moves (issue 13). Every charge, refund and card change is a row of
 * payment_ledger. A charge is idempotent on its key:
 *
 * 1. a pending row is written first, under the key (unique per community), and committed;
 * 2. the processor is called with the same key (it answers a repeated key with its first answer);
 * 3. one transaction settles the row, only while it is still pending, and writes what follows from
 *    it: the card's authorisation, the statement, the caller's own effects (`onSettled`).
 *
 * A double click, two racing requests, a retried job or a crash anywhere in between therefore makes
 * one charge at the processor and one settled row; every caller gets the same answer.
 */

/**
 * How a payment is made: a card already saved, or a one-time token from the provider, saved as the
 * member's new default unless `asDefault` is false (someone else paying for them: the card is kept
 * for the record but replaces nothing, and is the default only when the member has none).
 */
export type PaymentSource = { savedPaymentId: number } | { token: string; asDefault?: boolean };

export type ChargeRequest = {
  community: Tenant;
  /** Whose money, whose statement. */
  userId: number;
  /** Who pressed pay (the member, staff in admin mode), or null for a job. */
  actorId: number | null;
  /** From the form (a hidden field made when it was rendered), the job (its period), or the API client. */
  idempotencyKey: string;
  amountCents: number;
  purpose: LedgerPurpose;
  description: string;
  items: LineItem[];
  statement: { kind: StatementKind; name: string };
  subscriptionId?: string | null;
  source: PaymentSource;
  /** Runs in the settling transaction, once, only when the charge succeeded. */
  onSettled?: (trx: Trx, settled: { ledgerId: number; statementId: number; savedPaymentId: number }) => Promise<void>;
  /** Runs in the settling transaction, once, only when the charge was refused. */
  onRefused?: (trx: Trx, refused: { ledgerId: number; code: DeclineCode }) => Promise<void>;
};

export type ChargeResult =
  | { status: 'succeeded'; ledgerId: number; statementId: number | null; savedPaymentId: number | null }
  | { status: 'declined' | 'failed'; ledgerId: number; code: DeclineCode };

export type SaveCardResult = { ok: true; savedPayment: SavedPayment } | { ok: false; code: DeclineCode };

const MAX_KEY = 200;

/** An idempotency key is ours to read back: short, printable. */
function checkKey(key: string): void {
  if (typeof key !== 'string' || key.length < 8 || key.length > MAX_KEY || !/^[\x21-\x7e]+$/.test(key)) throw new AppError(900);
}

async function siteOrThrow(app: App, community: Tenant): Promise<PaymentSite> {
  const site = await loadPaymentSite(app.db, community);
  if (!site) throw new AppError('Payments.NotConfigured');
  return site;
}

/** The processor's customer for a member of a community. */
const customerRef = (community: Tenant, userId: number) => `c${community.id}-u${userId}`;

/** A short digest of a one-time token: part of a card's key, so one key and another token is another card. */
const tokenDigest = (token: string) => createHash('sha256').update(token).digest('base64url').slice(0, 16);

/**
 * The keys the processor sees name the community and the member (and, for a card, the token): a key a
 * client reuses, by mistake or on purpose, can never replay another member's card or charge.
 */
export const processorChargeKey = (community: Tenant, userId: number, key: string) => `charge:${community.id}:${userId}:${key}`;
const cardKey = (community: Tenant, userId: number, key: string, token: string) => `card:${community.id}:${userId}:${key}:${tokenDigest(token)}`;

/**
 * Save a card from a one-time token as the member's new default (spec "Saved cards": adding a card
 * makes it default and the others lose default). Idempotent on the key.
 */
export async function saveCard(
  app: App,
  input: { community: Tenant; userId: number; actorId: number | null; token: string; idempotencyKey: string; asDefault?: boolean },
): Promise<SaveCardResult> {
  checkKey(input.idempotencyKey);
  const site = await siteOrThrow(app, input.community);
  // The ledger's card rows are keyed as the processor's call is (unique per community, like a charge's).
  const key = cardKey(input.community, input.userId, input.idempotencyKey, input.token);
  const outcome = await app.cardProcessor.createPaymentProfile({ site, customerRef: customerRef(input.community, input.userId), token: input.token, idempotencyKey: key });
  const now = app.clock.now();
  // The processor could not be reached or failed: nothing is settled, the same key asks it again.
  if (!outcome.ok && outcome.code === 'processing') return { ok: false, code: 'processing' };
  // A card type the community does not take: the profile the processor made is deleted again.
  if (outcome.ok && !site.acceptedCards.includes(outcome.card.cardType)) {
    await app.cardProcessor.deletePaymentProfile({ site, profileRef: outcome.profileRef });
    return refuseCard(app, input, key, { code: 'not_accepted', card: outcome.card }, now);
  }
  if (!outcome.ok) return refuseCard(app, input, key, outcome, now);
  return app.db.transaction().execute(async (trx) => {
    const card = outcome.card;
    // One card change at a time per member: two racing saves (a double click) queue here, and the
    // second then finds the card the first one saved.
    await lockMember(trx, input.community, input.userId);
    // A repeated key finds the card the first call saved.
    const existing = await selectInCommunity(trx, 'saved_payments', input.community)
      .selectAll()
      .where('processor_ref', '=', outcome.profileRef)
      .executeTakeFirst();
    if (existing) {
      // Only this member's card, still saved, is the answer to a repeated key; anything else is a key misused.
      if (existing.user_id !== input.userId || existing.deleted_at !== null) throw new AppError('Payments.KeyReused');
      return { ok: true, savedPayment: toSavedPayment(existing) } as const;
    }
    let isDefault = true;
    if (input.asDefault === false) {
      const current = await selectInCommunity(trx, 'saved_payments', input.community)
        .select('id')
        .where('user_id', '=', input.userId)
        .where('is_default', '=', true)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      isDefault = !current;
    } else {
      await updateInCommunity(trx, 'saved_payments', input.community)
        .set({ is_default: false })
        .where('user_id', '=', input.userId)
        .where('is_default', '=', true)
        .execute();
    }
    const row = await insertInCommunity(trx, 'saved_payments', input.community, {
      user_id: input.userId,
      processor_ref: outcome.profileRef,
      first_name: card.firstName,
      last_name: card.lastName,
      expiration_month: card.expirationMonth,
      expiration_year: card.expirationYear,
      last4: card.last4,
      card_type: card.cardType,
      status: statusFromExpiry('VALID', card.expirationMonth, card.expirationYear, now),
      is_default: isDefault,
    })
      .returningAll()
      .executeTakeFirstOrThrow();
    await insertInCommunity(trx, 'payment_ledger', input.community, {
      user_id: input.userId,
      kind: 'card_added',
      status: 'succeeded',
      idempotency_key: key,
      saved_payment_id: row.id,
      processor_ref: outcome.profileRef,
      description: `Card added: ${paymentMethodLabel(card.cardType, card.last4)}`,
      actor_id: input.actorId,
      settled_at: now,
    })
      .onConflict((oc) => oc.doNothing())
      .execute();
    if (outcome.authorisation) await logAuthorisation(trx, input.community, row.id, null, outcome.authorisation, site.currency);
    return { ok: true, savedPayment: toSavedPayment(row) } as const;
  });
}

/** A card the processor (or the community's accepted types) refused: one declined row under the key. */
async function refuseCard(
  app: App,
  input: { community: Tenant; userId: number; actorId: number | null },
  key: string,
  refusal: { code: DeclineCode; card: { cardType: CardType; last4: string } | null },
  now: Date,
): Promise<SaveCardResult> {
  await insertInCommunity(app.db, 'payment_ledger', input.community, {
    user_id: input.userId,
    kind: 'card_added',
    status: 'declined',
    idempotency_key: key,
    error_code: refusal.code,
    description: refusal.card ? `Card refused: ${paymentMethodLabel(refusal.card.cardType, refusal.card.last4)}` : 'Card refused',
    actor_id: input.actorId,
    settled_at: now,
  })
    .onConflict((oc) => oc.doNothing())
    .execute();
  return { ok: false, code: refusal.code };
}

/** Serialises a member's card changes (saving, the default, removing): the membership row's lock. */
export async function lockMember(trx: Trx, community: Tenant, userId: number): Promise<void> {
  await selectInCommunity(trx, 'memberships', community).select('id').where('user_id', '=', userId).forUpdate().execute();
}

async function logAuthorisation(trx: Trx, community: Tenant, savedPaymentId: number, ledgerId: number | null, a: Authorisation, currency: string): Promise<void> {
  await insertInCommunity(trx, 'card_auth_log', community, {
    saved_payment_id: savedPaymentId,
    ledger_id: ledgerId,
    attempt_amount_cents: a.amountCents,
    currency,
    attempted_at: a.attemptedAt,
    auth_response_code: a.responseCode,
    reversal_http_code: a.reversalHttpCode,
  })
    .execute();
}

type LedgerRow = { id: number; status: string; error_code: string | null; saved_payment_id: number | null; user_id: number; amount_cents: number };

async function ledgerByKey(app: App, community: Tenant, key: string): Promise<LedgerRow | undefined> {
  return selectInCommunity(app.db, 'payment_ledger', community)
    .select(['id', 'status', 'error_code', 'saved_payment_id', 'user_id', 'amount_cents'])
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

async function resultOf(app: App, community: Tenant, row: LedgerRow): Promise<ChargeResult> {
  if (row.status === 'succeeded') {
    const statement = await selectInCommunity(app.db, 'statements', community).select('id').where('ledger_id', '=', row.id).executeTakeFirst();
    return { status: 'succeeded', ledgerId: row.id, statementId: statement?.id ?? null, savedPaymentId: row.saved_payment_id };
  }
  return { status: row.status === 'declined' ? 'declined' : 'failed', ledgerId: row.id, code: (row.error_code as DeclineCode | null) ?? 'processing' };
}

/** Charge once per key. See the comment at the top of this file. */
export async function chargeOnce(app: App, req: ChargeRequest): Promise<ChargeResult> {
  checkKey(req.idempotencyKey);
  if (!Number.isSafeInteger(req.amountCents) || req.amountCents <= 0) throw new AppError(900);
  const site = await siteOrThrow(app, req.community);
  const key = `charge:${req.idempotencyKey}`;

  // 0. What can be checked is checked before any row is written: a saved card must be this member's,
  // in this community, and not removed (a refused request leaves nothing behind). A repeated key
  // keeps its first answer, so only a new key is checked here.
  let checkedCard: SavedPayment | undefined;
  if ('savedPaymentId' in req.source && !(await ledgerByKey(app, req.community, key))) {
    checkedCard = (await findSavedPayment(app.db, req.community, req.userId, req.source.savedPaymentId)) ?? undefined;
    if (!checkedCard) throw new AppError('NotFound');
  }

  // 1. The pending row, under the key. A second call with the key finds the first one's row.
  const inserted = await insertInCommunity(app.db, 'payment_ledger', req.community, {
    user_id: req.userId,
    kind: 'charge',
    purpose: req.purpose,
    status: 'pending',
    amount_cents: req.amountCents,
    currency: site.currency,
    idempotency_key: key,
    subscription_id: req.subscriptionId ?? null,
    description: req.description,
    items: JSON.stringify(req.items),
    actor_id: req.actorId,
  })
    .onConflict((oc) => oc.doNothing())
    .returning(['id', 'status', 'error_code', 'saved_payment_id', 'user_id', 'amount_cents'])
    .executeTakeFirst();
  const row = inserted ?? (await ledgerByKey(app, req.community, key));
  if (!row) throw new AppError('UnknownError');
  // A key is one payment: reusing it for another member or amount is the client's mistake.
  if (row.user_id !== req.userId || row.amount_cents !== req.amountCents) throw new AppError('Payments.KeyReused');
  if (row.status !== 'pending') return resultOf(app, req.community, row);
  // Still pending: a first call in flight, crashed, or answered `processing`. The processor is asked
  // again under the same key and answers with the first charge if there was one.

  // 2. The card: a saved one of this member, or a new one from the token (the key makes it one card).
  let card: SavedPayment;
  if ('savedPaymentId' in req.source) {
    const found = checkedCard ?? (await findSavedPayment(app.db, req.community, req.userId, req.source.savedPaymentId));
    if (!found) throw new AppError('NotFound');
    card = found;
  } else {
    const saved = await saveCard(app, {
      community: req.community,
      userId: req.userId,
      actorId: req.actorId,
      token: req.source.token,
      idempotencyKey: req.idempotencyKey,
      asDefault: req.source.asDefault,
    });
    if (!saved.ok) return settle(app, req, row.id, site, null, { ok: false, code: saved.code, authorisation: null });
    card = saved.savedPayment;
  }

  // 3. The charge, under the same key at the processor.
  const outcome = await app.cardProcessor.charge({
    site,
    profileRef: card.processorRef,
    amountCents: req.amountCents,
    currency: site.currency,
    idempotencyKey: processorChargeKey(req.community, req.userId, req.idempotencyKey),
    memo: req.description,
  });
  return settle(app, req, row.id, site, card, outcome.ok ? { ok: true, chargeRef: outcome.chargeRef, authorisation: outcome.authorisation } : outcome);
}

/** 3. Settle the pending row once; whoever loses the race reads the winner's answer. */
async function settle(
  app: App,
  req: ChargeRequest,
  ledgerId: number,
  site: PaymentSite,
  card: SavedPayment | null,
  outcome: { ok: true; chargeRef: string; authorisation: Authorisation } | { ok: false; code: DeclineCode; authorisation: Authorisation | null },
): Promise<ChargeResult> {
  const now = app.clock.now();
  if (!outcome.ok && outcome.code === 'processing') {
    // The processor could not be reached or failed (a timeout, a 5xx): the charge may have happened.
    // The row stays pending, so the next call with this key asks the processor again (it answers a
    // repeated key with the first charge). Nothing is settled and the card is not marked.
    await updateInCommunity(app.db, 'payment_ledger', req.community)
      .set({ error_code: 'processing' })
      .where('id', '=', ledgerId)
      .where('status', '=', 'pending')
      .execute();
    return { status: 'failed', ledgerId, code: 'processing' };
  }
  const settled = await app.db.transaction().execute(async (trx): Promise<ChargeResult | null> => {
    const updated = await updateInCommunity(trx, 'payment_ledger', req.community)
      .set({
        status: outcome.ok ? 'succeeded' : 'declined',
        processor_ref: outcome.ok ? outcome.chargeRef : null,
        error_code: outcome.ok ? null : outcome.code,
        saved_payment_id: card?.id ?? null,
        settled_at: now,
      })
      .where('id', '=', ledgerId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return null;
    if (card && outcome.authorisation) await logAuthorisation(trx, req.community, card.id, ledgerId, outcome.authorisation, site.currency);
    if (!outcome.ok) {
      // A refused charge on a saved card marks it FAILED (spec "Saved cards"), until it is replaced.
      if (card) {
        await updateInCommunity(trx, 'saved_payments', req.community).set({ status: outcome.code === 'expired' ? 'EXPIRED' : 'FAILED' }).where('id', '=', card.id).execute();
      }
      await req.onRefused?.(trx, { ledgerId, code: outcome.code });
      return { status: 'declined', ledgerId, code: outcome.code };
    }
    const statement = await insertInCommunity(trx, 'statements', req.community, {
      user_id: req.userId,
      ledger_id: ledgerId,
      name: req.statement.name,
      kind: req.statement.kind,
      purchased_at: now,
      amount_cents: req.amountCents,
      currency: site.currency,
      items: JSON.stringify(req.items),
      payment_method: paymentMethodLabel(card!.cardType, card!.last4Digits),
    })
      .returning('id')
      .executeTakeFirstOrThrow();
    await req.onSettled?.(trx, { ledgerId, statementId: statement.id, savedPaymentId: card!.id });
    return { status: 'succeeded', ledgerId, statementId: statement.id, savedPaymentId: card!.id };
  });
  if (settled) return settled;
  const row = await selectInCommunity(app.db, 'payment_ledger', req.community)
    .select(['id', 'status', 'error_code', 'saved_payment_id', 'user_id', 'amount_cents'])
    .where('id', '=', ledgerId)
    .executeTakeFirstOrThrow();
  return resultOf(app, req.community, row);
}

/** A processor's refusal as the catalogue's error (a 400 but for an unreachable processor). */
export function declineError(code: DeclineCode): AppError {
  switch (code) {
    case 'declined':
      return new AppError('Payments.Declined');
    case 'cvv':
      return new AppError('Payments.Cvv');
    case 'expired':
      return new AppError('Payments.Expired');
    case 'invalid_token':
      return new AppError('Payments.InvalidToken');
    case 'authentication':
      return new AppError('Payments.Authentication');
    case 'not_accepted':
      return new AppError('Payments.NotAccepted');
    default:
      return new AppError('Payments.Processing');
  }
}
