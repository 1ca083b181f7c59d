import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { Clock } from '#src/core/clock.ts';
import type { Db } from '#src/db/index.ts';
import type { CardType } from '#src/db/types.ts';
import type { Authorisation, CardSummary, ChargeLookup, ChargeOutcome, DeclineCode, ProfileOutcome, RefundOutcome } from '../types.ts';
import { cardTypeOf, luhnValid, RESPONSE_CODES, TEST_CARDS, type Behaviour } from './cards.ts';
import { jsonValue } from '#src/lib/json-value.ts';

/** The card form's fields, labelled as spec section 5 names them in the invalid-field message. */
export const CARD_FIELD_LABELS = {
  firstName: 'First name',
  lastName: 'Last name',
  number: 'Card number',
  cvv: 'CVV',
  month: 'Month',
  year: 'Year',
  zip: 'Zip code',
} as const;
export type CardField = keyof typeof CARD_FIELD_LABELS;

/** What the browser hands the provider (its script or its hosted page); never reaches our app. */
export type CardInput = { firstName: string; lastName: string; number: string; cvv: string; month: string; year: string; zip: string };

export type TokenizeResult =
  | { ok: true; token: string; challenge: boolean }
  | { ok: false; invalid: CardField[] };

/** Tokens live 30 minutes and serve once (a repeated idempotency key gets the first answer). */
const TOKEN_TTL_MS = 30 * 60_000;
const VERIFICATION_CENTS = 100;

const PUBLIC_KEY = /^pk_sandbox_[A-Za-z0-9_]{8,64}$/;
export const isSandboxPublicKey = (key: string): boolean => PUBLIC_KEY.test(key);

/** A call with a public key the sandbox does not know (the route answers 401). */
export class SandboxKeyError extends Error {
  constructor() {
    super('unknown public key');
  }
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url')}`;

/** A unique-violation: two calls with one idempotency key raced, and the other one won. */
const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === '23505';

/**
 * The sandbox card provider: the provider's own logic over its own tables. Its browser side (the
 * tokenising script and the hosted payment page) is in ./routes.ts; our app reaches it through
 * ./processor.ts, as it would reach the real one through ../maxio.ts.
 */
export class SandboxEngine {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly secret: string,
  ) {}

  /** Check the card and make a one-time token of it. Invalid fields are named; no card data is kept but what a saved card shows. */
  async tokenize(publicKey: string, card: CardInput): Promise<TokenizeResult> {
    if (!isSandboxPublicKey(publicKey)) throw new SandboxKeyError();
    const invalid = invalidFields(card, this.clock.now());
    if (invalid.length > 0) return { ok: false, invalid };
    const digits = card.number.replace(/[\s-]/g, '');
    const behaviour: Behaviour = TEST_CARDS[digits] ?? 'ok';
    const token = newId('tok');
    await this.db
      .insertInto('sandbox_tokens')
      .values({
        token,
        public_key: publicKey,
        first_name: card.firstName.trim(),
        last_name: card.lastName.trim(),
        last4: digits.slice(-4),
        card_type: cardTypeOf(digits)!,
        exp_month: Number(card.month),
        exp_year: fullYear(card.year),
        zip: card.zip.trim(),
        behaviour,
        status: behaviour === 'challenge' ? 'challenge' : 'ready',
        created_at: this.clock.now(),
      })
      .execute();
    return { ok: true, token, challenge: behaviour === 'challenge' };
  }

  /** The 3-D-Secure-style step: the cardholder approves (the token becomes usable) or fails it. */
  async completeChallenge(token: string, approved: boolean): Promise<boolean> {
    const result = await this.db
      .updateTable('sandbox_tokens')
      .set({ status: approved ? 'ready' : 'failed' })
      .where('token', '=', token)
      .where('status', '=', 'challenge')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async tokenStatus(token: string): Promise<'ready' | 'challenge' | 'failed' | null> {
    const row = await this.db.selectFrom('sandbox_tokens').select('status').where('token', '=', token).executeTakeFirst();
    return row?.status ?? null;
  }

  /** The signature on the hosted page's return (and on callbacks): HMAC-SHA256 over token and state. */
  sign(token: string, state: string): string {
    return createHmac('sha256', this.secret).update(`${token}.${state}`).digest('base64url');
  }

  verify(token: string, state: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(token, state));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  async createProfile(input: { subDomain: string; publicKey: string; customerRef: string; token: string; idempotencyKey: string }): Promise<ProfileOutcome> {
    const earlier = await this.profileByKey(input);
    if (earlier) return earlier;
    const now = this.clock.now();
    try {
      // Taking the token and recording the profile are one transaction: a racing call with the same
      // token waits on the token's row, then finds it used and reads the profile recorded under the key.
      const outcome = await this.db.transaction().execute(async (trx) => {
        const token = await trx
          .updateTable('sandbox_tokens')
          .set({ used_at: now })
          .where('token', '=', input.token)
          .where('public_key', '=', input.publicKey)
          .where('status', '=', 'ready')
          .where('used_at', 'is', null)
          .where('created_at', '>', new Date(now.getTime() - TOKEN_TTL_MS))
          .returningAll()
          .executeTakeFirst();
        if (!token) return null;
        const card: CardSummary = {
          firstName: token.first_name,
          lastName: token.last_name,
          last4: token.last4,
          cardType: token.card_type as CardType,
          expirationMonth: token.exp_month,
          expirationYear: token.exp_year,
        };
        const behaviour = token.behaviour as Behaviour;
        const refused: DeclineCode | null = behaviour === 'decline' ? 'declined' : behaviour === 'cvv' ? 'cvv' : behaviour === 'expired' ? 'expired' : null;
        const authorisation: Authorisation = {
          amountCents: VERIFICATION_CENTS,
          attemptedAt: now,
          responseCode: refused ? responseCodeOf(refused) : RESPONSE_CODES.approved,
          // An approved verification is reversed at once (HTTP 200); a refused one has nothing to reverse.
          reversalHttpCode: refused ? null : 200,
        };
        const profileId = newId('pp');
        const result: ProfileOutcome = refused ? { ok: false, code: refused, card, authorisation } : { ok: true, profileRef: profileId, card, authorisation };
        await trx
          .insertInto('sandbox_profiles')
          .values({
            id: profileId,
            sub_domain: input.subDomain,
            customer_ref: input.customerRef,
            idempotency_key: input.idempotencyKey,
            token: input.token,
            first_name: card.firstName,
            last_name: card.lastName,
            last4: card.last4,
            card_type: card.cardType,
            exp_month: card.expirationMonth,
            exp_year: card.expirationYear,
            behaviour,
            outcome: JSON.stringify(result),
            created_at: now,
            deleted_at: refused ? now : null,
          })
          .execute();
        await trx
          .insertInto('sandbox_transactions')
          .values({
            id: newId('ver'),
            sub_domain: input.subDomain,
            idempotency_key: `verification:${input.idempotencyKey}`,
            kind: 'verification',
            profile_id: profileId,
            related_id: null,
            amount_cents: VERIFICATION_CENTS,
            currency: 'USD',
            memo: 'Card verification',
            outcome: JSON.stringify(result),
            response_code: authorisation.responseCode,
            reversal_http_code: authorisation.reversalHttpCode,
            created_at: now,
          })
          .execute();
        return result;
      });
      if (outcome) return outcome;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    // The token was used, unknown or too old; or another call with this key recorded it: its answer is ours.
    return (await this.profileByKey(input)) ?? { ok: false, code: 'invalid_token', card: null, authorisation: null };
  }

  async charge(input: { subDomain: string; profileRef: string; amountCents: number; currency: string; idempotencyKey: string; memo: string }): Promise<ChargeOutcome> {
    const earlier = await this.chargeByKey(input);
    if (earlier) return earlier;
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) throw new RangeError('a charge is a positive whole number of cents');
    const now = this.clock.now();
    const profile = await this.db
      .selectFrom('sandbox_profiles')
      .select(['id', 'behaviour', 'exp_month', 'exp_year'])
      .where('id', '=', input.profileRef)
      .where('sub_domain', '=', input.subDomain)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    const expired = profile ? profile.exp_year * 12 + profile.exp_month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1 : false;
    const refused: DeclineCode | null = !profile
      ? 'invalid_token'
      : expired || profile.behaviour === 'expired'
        ? 'expired'
        : profile.behaviour === 'decline' || profile.behaviour === 'charge_decline'
          ? 'declined'
          : null;
    const id = newId('ch');
    const authorisation: Authorisation = { amountCents: input.amountCents, attemptedAt: now, responseCode: refused ? responseCodeOf(refused) : RESPONSE_CODES.approved, reversalHttpCode: null };
    const outcome: ChargeOutcome = refused ? { ok: false, code: refused, authorisation: profile ? authorisation : null } : { ok: true, chargeRef: id, authorisation };
    return this.record(input, { id, kind: 'charge', profileId: profile?.id ?? null, relatedId: null, outcome, responseCode: profile ? authorisation.responseCode : null, now });
  }

  async refund(input: { subDomain: string; chargeRef: string; amountCents: number; currency: string; idempotencyKey: string; memo: string }): Promise<RefundOutcome> {
    const earlier = await this.transactionByKey(input.subDomain, input.idempotencyKey);
    if (earlier) return earlier as RefundOutcome;
    const now = this.clock.now();
    const charge = await this.db
      .selectFrom('sandbox_transactions')
      .select(['id', 'profile_id', 'amount_cents', 'outcome'])
      .where('id', '=', input.chargeRef)
      .where('sub_domain', '=', input.subDomain)
      .where('kind', '=', 'charge')
      .executeTakeFirst();
    const refunded = charge
      ? await this.db
          .selectFrom('sandbox_transactions')
          .select(sql<number>`coalesce(sum(amount_cents), 0)::int`.as('total'))
          .where('related_id', '=', charge.id)
          .where('kind', '=', 'refund')
          .executeTakeFirstOrThrow()
      : { total: 0 };
    const ok = charge && (charge.outcome as ChargeOutcome).ok && refunded.total + input.amountCents <= charge.amount_cents && input.amountCents > 0;
    const id = newId('re');
    const outcome: RefundOutcome = ok ? { ok: true, refundRef: id } : { ok: false, code: 'processing' };
    return this.record(input, { id, kind: 'refund', profileId: charge?.profile_id ?? null, relatedId: charge?.id ?? null, outcome, responseCode: null, now });
  }

  /** A charge by its idempotency key, as the provider recorded it (or none under that key). */
  async findCharge(subDomain: string, idempotencyKey: string): Promise<ChargeLookup> {
    const row = await this.db
      .selectFrom('sandbox_transactions')
      .select(['id', 'kind', 'profile_id', 'outcome'])
      .where('sub_domain', '=', subDomain)
      .where('idempotency_key', '=', idempotencyKey)
      .executeTakeFirst();
    if (!row || row.kind !== 'charge') return { status: 'none' };
    const outcome = reviveDates(row.outcome) as ChargeOutcome;
    return outcome.ok ? { status: 'charged', chargeRef: outcome.chargeRef, profileRef: row.profile_id } : { status: 'refused', code: outcome.code };
  }

  async deleteProfile(subDomain: string, profileRef: string): Promise<void> {
    await this.db
      .updateTable('sandbox_profiles')
      .set({ deleted_at: this.clock.now() })
      .where('id', '=', profileRef)
      .where('sub_domain', '=', subDomain)
      .where('deleted_at', 'is', null)
      .execute();
  }

  /** The provider's own authorisation log of a profile, newest first. */
  async authLog(subDomain: string, profileRef: string): Promise<Authorisation[]> {
    const rows = await this.db
      .selectFrom('sandbox_transactions')
      .select(['amount_cents', 'created_at', 'response_code', 'reversal_http_code'])
      .where('sub_domain', '=', subDomain)
      .where('profile_id', '=', profileRef)
      .where('kind', 'in', ['charge', 'verification'])
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map((r) => ({ amountCents: r.amount_cents, attemptedAt: new Date(r.created_at), responseCode: r.response_code, reversalHttpCode: r.reversal_http_code }));
  }

  private async record<T extends ChargeOutcome | RefundOutcome>(
    input: { subDomain: string; amountCents: number; currency: string; idempotencyKey: string; memo: string },
    t: { id: string; kind: 'charge' | 'refund'; profileId: string | null; relatedId: string | null; outcome: T; responseCode: number | null; now: Date },
  ): Promise<T> {
    try {
      await this.db
        .insertInto('sandbox_transactions')
        .values({
          id: t.id,
          sub_domain: input.subDomain,
          idempotency_key: input.idempotencyKey,
          kind: t.kind,
          profile_id: t.profileId,
          related_id: t.relatedId,
          amount_cents: input.amountCents,
          currency: input.currency,
          memo: input.memo.slice(0, 200),
          outcome: JSON.stringify(t.outcome),
          response_code: t.responseCode,
          reversal_http_code: null,
          created_at: t.now,
        })
        .execute();
      return t.outcome;
    } catch (err) {
      // The same key raced in from another process: the first answer stands, for both.
      if (isUniqueViolation(err)) return (t.kind === 'charge' ? await this.chargeByKey({ ...input, profileRef: t.profileId }) : await this.transactionByKey(input.subDomain, input.idempotencyKey)) as T;
      throw err;
    }
  }

  /**
   * The first answer to a repeated key, if the request is the same one: the same customer and token.
   * A key reused with another body is refused (a real processor answers 422/409), never answered
   * with the first request's card.
   */
  private async profileByKey(input: { subDomain: string; customerRef: string; token: string; idempotencyKey: string }): Promise<ProfileOutcome | null> {
    const row = await this.db
      .selectFrom('sandbox_profiles')
      .select(['outcome', 'customer_ref', 'token'])
      .where('sub_domain', '=', input.subDomain)
      .where('idempotency_key', '=', input.idempotencyKey)
      .executeTakeFirst();
    if (!row) return null;
    if (row.customer_ref !== input.customerRef || row.token !== input.token) return { ok: false, code: 'invalid_token', card: null, authorisation: null };
    return reviveDates(row.outcome) as ProfileOutcome;
  }

  /** The first answer to a repeated charge key, if it is the same charge: the same customer's profile, the same amount. */
  private async chargeByKey(input: { subDomain: string; profileRef: string | null; amountCents: number; idempotencyKey: string }): Promise<ChargeOutcome | null> {
    const row = await this.db
      .selectFrom('sandbox_transactions as t')
      .leftJoin('sandbox_profiles as p', 'p.id', 't.profile_id')
      .select(['t.outcome', 't.kind', 't.amount_cents', 'p.customer_ref'])
      .where('t.sub_domain', '=', input.subDomain)
      .where('t.idempotency_key', '=', input.idempotencyKey)
      .executeTakeFirst();
    if (!row) return null;
    const asked = input.profileRef
      ? await this.db.selectFrom('sandbox_profiles').select('customer_ref').where('id', '=', input.profileRef).where('sub_domain', '=', input.subDomain).executeTakeFirst()
      : undefined;
    if (row.kind !== 'charge' || row.amount_cents !== input.amountCents || (row.customer_ref ?? null) !== (asked?.customer_ref ?? null)) {
      return { ok: false, code: 'declined', authorisation: null };
    }
    return reviveDates(row.outcome) as ChargeOutcome;
  }

  private async transactionByKey(subDomain: string, key: string): Promise<ChargeOutcome | RefundOutcome | null> {
    const row = await this.db.selectFrom('sandbox_transactions').select('outcome').where('sub_domain', '=', subDomain).where('idempotency_key', '=', key).executeTakeFirst();
    return row ? reviveDates(row.outcome) as ChargeOutcome | RefundOutcome : null;
  }
}

function responseCodeOf(code: DeclineCode): number {
  if (code === 'expired') return RESPONSE_CODES.expired;
  if (code === 'cvv') return RESPONSE_CODES.cvv;
  if (code === 'authentication') return RESPONSE_CODES.authentication;
  return RESPONSE_CODES.declined;
}

/** Stored outcomes are JSON: the authorisation's time comes back as a Date. */
function reviveDates(outcome: unknown): unknown {
  const o = jsonValue<{ authorisation?: { attemptedAt: string | Date } | null }>(outcome);
  if (o.authorisation) o.authorisation = { ...o.authorisation, attemptedAt: new Date(o.authorisation.attemptedAt) };
  return o;
}

const fullYear = (year: string) => {
  const n = Number(year.trim());
  return n < 100 ? 2000 + n : n;
};

/** Which fields of a card are not valid, in the form's order (spec section 5's labels). */
export function invalidFields(card: CardInput, now: Date): CardField[] {
  const invalid: CardField[] = [];
  const name = (v: string) => typeof v === 'string' && v.trim().length > 0 && v.trim().length <= 100 && !/[\u0000-\u001f\u007f]/.test(v);
  if (!name(card.firstName)) invalid.push('firstName');
  if (!name(card.lastName)) invalid.push('lastName');
  const digits = typeof card.number === 'string' ? card.number.replace(/[\s-]/g, '') : '';
  const type = /^\d{12,19}$/.test(digits) && luhnValid(digits) ? cardTypeOf(digits) : null;
  if (!type) invalid.push('number');
  const cvv = typeof card.cvv === 'string' ? card.cvv.trim() : '';
  if (!(type === 'AMERICAN_EXPRESS' ? /^\d{4}$/ : /^\d{3}$/).test(cvv)) invalid.push('cvv');
  const month = typeof card.month === 'string' && /^\d{1,2}$/.test(card.month.trim()) ? Number(card.month) : NaN;
  const year = typeof card.year === 'string' && /^(\d{2}|\d{4})$/.test(card.year.trim()) ? fullYear(card.year) : NaN;
  if (!(month >= 1 && month <= 12)) invalid.push('month');
  const thisYear = now.getUTCFullYear();
  if (!(year >= thisYear && year <= thisYear + 20)) invalid.push('year');
  else if (year === thisYear && month >= 1 && month < now.getUTCMonth() + 1) invalid.push('month');
  if (!(typeof card.zip === 'string' && /^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/.test(card.zip.trim()))) invalid.push('zip');
  return invalid;
}

/** Spec section 5: 'Enter valid information for the following input(s): ' + labels, commas, a period. */
export function invalidFieldsMessage(fields: readonly CardField[]): string {
  return `Enter valid information for the following input(s): ${fields.map((f) => CARD_FIELD_LABELS[f]).join(', ')}.`;
}
