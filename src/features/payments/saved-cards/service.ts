import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '#src/core/errors.ts';
import { insertInCommunity, selectInCommunity, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { Staff, StaffCommunity } from '#src/lib/admin/staff.ts';
import { paymentMethodLabel, statusFromExpiry } from '../cards.ts';
import { lockMember, saveCard } from '../ledger.ts';
import { findSavedPayment, listSavedPayments, loadPaymentSite, type SavedPayment } from '../queries.ts';
import type { DeclineCode } from '../processor/types.ts';

/**
 * Saved cards (spec section 4 "Saved cards", section 6 admin mode). A member acts on their own cards
 * (member mode: member messages with the help-email line); staff act on a member of a community they
 * administer (admin mode: the admin messages, no help line, the auth log, every action recorded in
 * staff_actions). Rules:
 * - a card's status is recomputed from its expiry at every read (no job to forget, never stale);
 * - adding a card makes it the default and the others lose default (ledger.ts saveCard);
 * - changing the default makes only the chosen card default, in one transaction (ledger 'card_default');
 * - the default card cannot be removed; removing marks the card removed under the member lock first, then
 *   asks the processor to forget the profile (undoing the mark if it fails), then writes 'card_removed';
 * - the authorisation log of a card, newest first, is for admin mode only.
 */

type App = Pick<FastifyInstance, 'db' | 'clock' | 'cardProcessor'>;

export type CardsMode = 'member' | 'admin';

/** Whose cards, who acts, and how messages read. Made by memberScope or adminScope only. */
export type CardsScope = {
  community: Tenant;
  /** The cards' owner. */
  userId: number;
  /** Who acts: the member, or the staff member in admin mode. */
  actorId: number;
  mode: CardsMode;
  /** The concierge's email for the help line of member messages. */
  helpEmail: string;
};

/** Spec "Saved payment" as clients see it (no processor reference). */
export type SavedCard = Omit<SavedPayment, 'processorRef'>;

/** Spec "Card auth log entry". */
export type AuthLogEntry = { id: number; attemptAmountCents: number; currency: string; attemptedAt: Date; authResponseCode: number | null; reversalHttpCode: number | null };

/** At most this many auth log entries are read for one card (the newest). */
export const AUTH_LOG_LIMIT = 100;

/** Member mode: one's own cards. */
export function memberScope(community: { id: number; concierge_email: string }, userId: number): CardsScope {
  return { community, userId, actorId: userId, mode: 'member', helpEmail: community.concierge_email };
}

/**
 * Admin mode: the cards of `userId`, a member (any state) of a community the staff administer (the
 * caller got `community` from staffCommunity, which checked that). Anyone else is NotFound.
 */
export async function adminScope(app: Pick<App, 'db'>, staff: Staff, community: StaffCommunity, userId: number): Promise<CardsScope> {
  const row = await selectInCommunity(app.db, 'memberships', community)
    .innerJoin('communities', 'communities.id', 'memberships.community_id')
    .select(['communities.concierge_email'])
    .where('memberships.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new AppError('NotFound');
  return { community, userId, actorId: staff.userId, mode: 'admin', helpEmail: row.concierge_email };
}

/** The values every saved-card message takes: the mode picks the wording, member mode adds the help line. */
const messageValues = (scope: CardsScope) => ({ mode: scope.mode, email: scope.helpEmail });

const failure = (code: 'SavedCards.VerificationFailed' | 'SavedCards.AddFailed' | 'SavedCards.DeleteFailed' | 'SavedCards.ChangeDefaultFailed', scope: CardsScope, cause?: unknown) =>
  new AppError(code, { values: messageValues(scope), cause });

/** A card with its status as of now (EXPIRED / EXPIRATION_PENDING follow the calendar; FAILED stays). */
function current(card: SavedPayment, now: Date): SavedCard {
  const { processorRef: _ref, ...rest } = card;
  return { ...rest, status: statusFromExpiry(card.status, card.expirationMonth, card.expirationYear, now) };
}

export async function listCards(app: App, scope: CardsScope): Promise<SavedCard[]> {
  const now = app.clock.now();
  return (await listSavedPayments(app.db, scope.community, scope.userId)).map((c) => current(c, now));
}

/** The spec's update-card prompt: the default card is expired, failing or expiring. */
export function needsUpdate(cards: readonly SavedCard[]): boolean {
  const d = cards.find((c) => c.isDefault);
  return !!d && (d.status === 'EXPIRED' || d.status === 'FAILED' || d.status === 'EXPIRATION_PENDING');
}

async function cardOf(app: App, scope: CardsScope, paymentId: number): Promise<SavedPayment> {
  const card = await findSavedPayment(app.db, scope.community, scope.userId, paymentId);
  if (!card) throw new AppError('NotFound');
  return card;
}

async function recordStaff(db: App['db'], scope: CardsScope, action: 'card_added' | 'card_default_changed' | 'card_removed', detail: string, now: Date) {
  if (scope.mode !== 'admin') return;
  await insertInCommunity(db, 'staff_actions', scope.community, { actor_id: scope.actorId, member_id: scope.userId, action, detail, created_at: now }).execute();
}

/** A token is used once, so it is its own idempotency key when the client gives none. */
export function keyOfToken(token: string): string {
  return `tok-${createHash('sha256').update(token).digest('base64url').slice(0, 32)}`;
}

const TOKEN_MAX = 500;

/** Add a card from the provider's one-time token: it becomes the default. */
export async function addCard(app: App, scope: CardsScope, input: { token: unknown; idempotencyKey?: unknown }): Promise<SavedCard> {
  const token = typeof input.token === 'string' ? input.token.trim() : '';
  if (!token) throw new AppError(900, { fields: { token: { code: 900, key: 'errors.client.missingInput' } } });
  if (token.length > TOKEN_MAX || !/^[\x21-\x7e]+$/.test(token)) throw failure('SavedCards.AddFailed', scope);
  const key = typeof input.idempotencyKey === 'string' && input.idempotencyKey ? input.idempotencyKey : keyOfToken(token);
  if (key.length < 8 || key.length > 200 || !/^[\x21-\x7e]+$/.test(key)) throw new AppError(900);
  if (!(await loadPaymentSite(app.db, scope.community))) throw new AppError('Payments.NotConfigured');
  let saved;
  try {
    saved = await saveCard(app, { community: scope.community, userId: scope.userId, actorId: scope.actorId, token, idempotencyKey: key });
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw failure('SavedCards.AddFailed', scope, e);
  }
  if (!saved.ok) throw addRefusal(saved.code, scope);
  const now = app.clock.now();
  await recordStaff(app.db, scope, 'card_added', paymentMethodLabel(saved.savedPayment.cardType, saved.savedPayment.last4Digits), now);
  return current(saved.savedPayment, now);
}

/** The issuer's refusals are a failed verification; an unusable token or an unreachable processor a failed add. */
function addRefusal(code: DeclineCode, scope: CardsScope): AppError {
  if (code === 'not_accepted') return new AppError('Payments.NotAccepted');
  return code === 'invalid_token' || code === 'processing' ? failure('SavedCards.AddFailed', scope) : failure('SavedCards.VerificationFailed', scope);
}

/** Make one card the default: it alone (one transaction; a ledger row). Returns its id. */
export async function changeDefault(app: App, scope: CardsScope, paymentId: number): Promise<number> {
  const card = await cardOf(app, scope, paymentId);
  if (card.isDefault) return card.id;
  const now = app.clock.now();
  try {
    await app.db.transaction().execute(async (trx) => {
      // One card change at a time per member (saving, the default, removing queue on one lock).
      await lockMember(trx, scope.community, scope.userId);
      await updateInCommunity(trx, 'saved_payments', scope.community)
        .set({ is_default: false })
        .where('user_id', '=', scope.userId)
        .where('is_default', '=', true)
        .execute();
      const made = await updateInCommunity(trx, 'saved_payments', scope.community)
        .set({ is_default: true })
        .where('user_id', '=', scope.userId)
        .where('id', '=', card.id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      // Removed meanwhile: nothing changes (the transaction rolls back).
      if (Number(made.numUpdatedRows) !== 1) throw new AppError('NotFound');
      await insertInCommunity(trx, 'payment_ledger', scope.community, {
        user_id: scope.userId,
        kind: 'card_default',
        status: 'succeeded',
        saved_payment_id: card.id,
        processor_ref: card.processorRef,
        description: `Default card: ${paymentMethodLabel(card.cardType, card.last4Digits)}`,
        actor_id: scope.actorId,
        settled_at: now,
      })
        .execute();
      await recordStaff(trx, scope, 'card_default_changed', paymentMethodLabel(card.cardType, card.last4Digits), now);
    });
  } catch (e) {
    if (e instanceof AppError) throw e;
    // Two changes at once: the one-default index refuses the second.
    if ((e as { code?: string }).code === '23505') throw failure('SavedCards.ChangeDefaultFailed', scope, e);
    throw e;
  }
  return card.id;
}

/**
 * Remove a card that is not the default. Returns the removed id.
 *
 * Order (a card must never be the default while its profile is gone at the processor, or renewals fail):
 * 1. under the member lock, check it is not the default and mark it removed (deleted_at; is_default stays
 *    false), and commit: from then on changeDefault cannot pick it (it only takes cards not removed);
 * 2. ask the processor to forget the profile (outside any transaction: the sandbox shares the database's
 *    one connection under PGlite);
 * 3. success: the ledger row (and the staff action) are written; failure: the mark is undone (the card is
 *    back, still not the default, its profile kept at the processor) and the message says to try again.
 */
export async function deleteCard(app: App, scope: CardsScope, paymentId: number): Promise<number> {
  const card = await cardOf(app, scope, paymentId);
  if (card.isDefault) throw new AppError('Payments.DefaultCardRemoval');
  const site = await loadPaymentSite(app.db, scope.community);
  if (!site) throw new AppError('Payments.NotConfigured');
  const now = app.clock.now();
  await app.db.transaction().execute(async (trx) => {
    await lockMember(trx, scope.community, scope.userId);
    const removed = await updateInCommunity(trx, 'saved_payments', scope.community)
      .set({ deleted_at: now })
      .where('user_id', '=', scope.userId)
      .where('id', '=', card.id)
      .where('is_default', '=', false)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (Number(removed.numUpdatedRows) !== 1) {
      // Made the default, or removed, meanwhile.
      const again = await findSavedPayment(trx, scope.community, scope.userId, card.id);
      throw new AppError(again?.isDefault ? 'Payments.DefaultCardRemoval' : 'NotFound');
    }
  });
  try {
    await app.cardProcessor.deletePaymentProfile({ site, profileRef: card.processorRef });
  } catch (e) {
    // The card comes back as it was: not the default (it could not become one while marked).
    await updateInCommunity(app.db, 'saved_payments', scope.community)
      .set({ deleted_at: null })
      .where('user_id', '=', scope.userId)
      .where('id', '=', card.id)
      .where('deleted_at', '=', now)
      .where('is_default', '=', false)
      .execute();
    throw failure('SavedCards.DeleteFailed', scope, e);
  }
  await app.db.transaction().execute(async (trx) => {
    await insertInCommunity(trx, 'payment_ledger', scope.community, {
      user_id: scope.userId,
      kind: 'card_removed',
      status: 'succeeded',
      saved_payment_id: card.id,
      processor_ref: card.processorRef,
      description: `Card removed: ${paymentMethodLabel(card.cardType, card.last4Digits)}`,
      actor_id: scope.actorId,
      settled_at: now,
    })
      .execute();
    await recordStaff(trx, scope, 'card_removed', paymentMethodLabel(card.cardType, card.last4Digits), now);
  });
  return card.id;
}

/** A card's authorisation log, newest first: admin mode only (spec section 6: member mode has none). */
export async function authLog(app: App, scope: CardsScope, paymentId: number): Promise<AuthLogEntry[]> {
  if (scope.mode !== 'admin') throw new AppError('Forbidden');
  const card = await cardOf(app, scope, paymentId);
  const rows = await selectInCommunity(app.db, 'card_auth_log', scope.community)
    .select(['id', 'attempt_amount_cents', 'currency', 'attempted_at', 'auth_response_code', 'reversal_http_code'])
    .where('saved_payment_id', '=', card.id)
    .orderBy('attempted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(AUTH_LOG_LIMIT)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    attemptAmountCents: r.attempt_amount_cents,
    currency: r.currency,
    attemptedAt: new Date(r.attempted_at),
    authResponseCode: r.auth_response_code,
    reversalHttpCode: r.reversal_http_code,
  }));
}

/** The owner of a card of the community (admin schema's cardAuthLog takes the card id alone), or NotFound. */
export async function ownerOfCard(app: Pick<App, 'db'>, community: Tenant, paymentId: number): Promise<number> {
  const row = await selectInCommunity(app.db, 'saved_payments', community).select('user_id').where('id', '=', paymentId).where('deleted_at', 'is', null).executeTakeFirst();
  if (!row) throw new AppError('NotFound');
  return row.user_id;
}

/** Spec "Payment processor": what the card form needs (id, publicKey, subDomain, serverHost). */
export async function paymentProcessorFor(app: App, scope: CardsScope) {
  const site = await loadPaymentSite(app.db, scope.community);
  if (!site) throw new AppError('Payments.NotConfigured');
  const browser = app.cardProcessor.browserSettings(site);
  return { id: site.subDomain, publicKey: browser.publicKey, subDomain: browser.subDomain, serverHost: browser.serverHost };
}

/** Auth log rules (spec "Saved cards"): response null nothing, 0 success, above 0 failure; reversal null n/a, 200 done, else failed. */
export function responseOutcome(code: number | null): 'none' | 'success' | 'failure' {
  if (code === null) return 'none';
  return code === 0 ? 'success' : 'failure';
}

export function reversalOutcome(code: number | null): 'notApplicable' | 'success' | 'failure' {
  if (code === null) return 'notApplicable';
  return code === 200 ? 'success' : 'failure';
}
