import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '#src/core/clock.ts';
import type { CardType } from '#src/db/types.ts';
import type { Authorisation, BrowserSettings, CardProcessor, CardSummary, ChargeLookup, ChargeOutcome, DeclineCode, ProcessorSite, ProfileOutcome, RefundOutcome } from './types.ts';

export type MaxioOptions = {
  /** The API's base address; `{subDomain}` in it is replaced by the community's site (https://{subDomain}.chargify.com). */
  url: string;
  apiKey: string;
  /** The secret the hosted page's return is signed with (PAYMENT_SIGNING_SECRET). */
  signingSecret: string;
  /** Each call gives up after this long (then 'processing': the caller retries under the same key). */
  timeoutMs?: number;
  /** Where the provider's tokenising script lives. */
  scriptUrl?: string;
};

/** The provider's card types, as its API writes them. */
const CARD_TYPES: Record<string, CardType> = {
  visa: 'VISA',
  master: 'MASTERCARD',
  mastercard: 'MASTERCARD',
  american_express: 'AMERICAN_EXPRESS',
  discover: 'DISCOVER',
  diners_club: 'DINERS_CLUB',
  jcb: 'JCB',
};

/**
 * What we read of the processor's answers (an edge too: their JSON is input). Each field is taken when
 * it has the shape we use and dropped otherwise, so an odd answer reads as one that says nothing (no
 * charge in it: not an answer, ask again), never as a crash.
 */
const loose = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
/** A resource's id, as their API writes it (a number, or text). */
const ref = z.union([z.string(), z.number()]);
const ErrorsAnswer = z.object({ errors: loose(z.union([z.string(), z.array(z.unknown())])) });
const CodeAnswer = z.object({ gateway_response_code: loose(z.union([z.number(), z.string()])) });
const ProfileAnswer = z.object({
  payment_profile: z.object({
    id: loose(ref),
    masked_card_number: loose(z.string()),
    card_type: loose(z.string()),
    expiration_month: loose(z.union([z.number(), z.string()])),
    expiration_year: loose(z.union([z.number(), z.string()])),
    first_name: loose(z.string()),
    last_name: loose(z.string()),
  }),
});
const ChargeAnswer = z.object({ charge: z.object({ id: loose(ref), success: loose(z.boolean()), payment_profile_id: loose(ref.nullable()) }) });
const RefundAnswer = z.object({ refund: z.object({ id: loose(ref), success: loose(z.boolean()) }) });
type Profile = z.infer<typeof ProfileAnswer>['payment_profile'];

/** An answer's body through its schema; undefined when it does not have that shape. */
const read = <T extends z.ZodType>(schema: T, body: unknown): z.infer<T> | undefined => {
  const result = schema.safeParse(body);
  return result.success ? result.data : undefined;
};

/** What a call came back with: the parsed JSON body, or the reason there is none. */
type Answer = { status: number; body: unknown } | { status: 0; body: null; failure: 'timeout' | 'network' };

/** Their refusal texts, as our decline codes (spec section 8's messages). */
export function declineCodeOf(status: number, body: unknown): DeclineCode {
  // 409: the same key is still being processed (an in-flight duplicate): not an answer yet, ask again.
  if (status === 0 || status >= 500 || status === 401 || status === 403 || status === 409 || status === 429) return 'processing';
  const errors = read(ErrorsAnswer, body)?.errors;
  const text = (Array.isArray(errors) ? errors : typeof errors === 'string' ? [errors] : []).filter((e) => typeof e === 'string').join(' ').toLowerCase();
  if (/cvv|cvc|security code|verification value/.test(text)) return 'cvv';
  if (/expired|expiration/.test(text)) return 'expired';
  if (/token/.test(text)) return 'invalid_token';
  if (/authenticat|3-?d ?secure|3ds/.test(text)) return 'authentication';
  if (status === 404) return 'invalid_token';
  return 'declined';
}

/**
 * The adapter for the real processor's REST API (Maxio / Chargify style): Basic auth with the API
 * key, JSON bodies under a resource key, the idempotency key in an `Idempotency-Key` header (a retry
 * gets the first answer), and a timeout on every call. Card data never passes through here: only
 * one-time tokens and profile ids. Bodies are never logged.
 */
export class MaxioProcessor implements CardProcessor {
  readonly kind = 'maxio' as const;
  private readonly auth: string;

  constructor(
    private readonly options: MaxioOptions,
    private readonly clock: Clock,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.auth = `Basic ${Buffer.from(`${options.apiKey}:x`).toString('base64')}`;
  }

  private base(site: ProcessorSite): string {
    return this.options.url.replace('{subDomain}', encodeURIComponent(site.subDomain)).replace(/\/$/, '');
  }

  browserSettings(site: ProcessorSite): BrowserSettings {
    const serverHost = this.base(site);
    return {
      publicKey: site.publicKey,
      subDomain: site.subDomain,
      serverHost,
      scriptUrl: this.options.scriptUrl ?? 'https://js.chargify.com/latest/chargify.js',
      hostedPageUrl: `${serverHost}/hosted?key=${encodeURIComponent(site.publicKey)}`,
    };
  }

  private async call(site: ProcessorSite, method: 'GET' | 'POST' | 'DELETE', path: string, body: unknown, idempotencyKey?: string): Promise<Answer> {
    const headers: Record<string, string> = { authorization: this.auth, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.base(site)}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
        redirect: 'error',
      });
    } catch (err) {
      const name = (err as { name?: string } | null)?.name;
      return { status: 0, body: null, failure: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network' };
    }
    const text = await res.text().catch(() => '');
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: res.status, body: parsed };
  }

  async createPaymentProfile(input: { site: ProcessorSite; customerRef: string; token: string; idempotencyKey: string }): Promise<ProfileOutcome> {
    const answer = await this.call(input.site, 'POST', '/payment_profiles.json', { payment_profile: { customer_reference: input.customerRef, chargify_token: input.token } }, input.idempotencyKey);
    const profile = read(ProfileAnswer, answer.body)?.payment_profile;
    const card = profile ? cardOf(profile) : null;
    const attemptedAt = this.clock.now();
    if ((answer.status === 200 || answer.status === 201) && profile && profile.id !== undefined && card) {
      return { ok: true, profileRef: String(profile.id), card, authorisation: { amountCents: 0, attemptedAt, responseCode: 0, reversalHttpCode: null } };
    }
    const code = answer.status >= 200 && answer.status < 300 ? 'processing' : declineCodeOf(answer.status, answer.body);
    return { ok: false, code, card, authorisation: code === 'processing' || code === 'invalid_token' ? null : { amountCents: 0, attemptedAt, responseCode: responseCodeOf(answer.body), reversalHttpCode: null } };
  }

  async charge(input: { site: ProcessorSite; profileRef: string; amountCents: number; currency: string; idempotencyKey: string; memo: string }): Promise<ChargeOutcome> {
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) throw new RangeError('a charge is a positive whole number of cents');
    const answer = await this.call(
      input.site,
      'POST',
      '/charges.json',
      { charge: { payment_profile_id: input.profileRef, amount_in_cents: input.amountCents, currency: input.currency, memo: input.memo.slice(0, 200) } },
      input.idempotencyKey,
    );
    const charge = read(ChargeAnswer, answer.body)?.charge;
    const authorisation: Authorisation = { amountCents: input.amountCents, attemptedAt: this.clock.now(), responseCode: 0, reversalHttpCode: null };
    if ((answer.status === 200 || answer.status === 201) && charge && charge.id !== undefined && charge.success !== false) return { ok: true, chargeRef: String(charge.id), authorisation };
    // A 2xx that says the charge failed is a refusal; one we cannot read (no charge in it) is not an
    // answer: the charge may have happened, so the same key must ask again.
    const code = answer.status >= 200 && answer.status < 300 ? (charge && charge.success === false ? 'declined' : 'processing') : declineCodeOf(answer.status, answer.body);
    return { ok: false, code, authorisation: code === 'processing' ? null : { ...authorisation, responseCode: responseCodeOf(answer.body) } };
  }

  async refund(input: { site: ProcessorSite; chargeRef: string; amountCents: number; currency: string; idempotencyKey: string; memo: string }): Promise<RefundOutcome> {
    const answer = await this.call(
      input.site,
      'POST',
      `/payments/${encodeURIComponent(input.chargeRef)}/refunds.json`,
      { refund: { amount_in_cents: input.amountCents, currency: input.currency, memo: input.memo.slice(0, 200) } },
      input.idempotencyKey,
    );
    const refund = read(RefundAnswer, answer.body)?.refund;
    if ((answer.status === 200 || answer.status === 201) && refund && refund.id !== undefined && refund.success !== false) return { ok: true, refundRef: String(refund.id) };
    return { ok: false, code: answer.status >= 200 && answer.status < 300 ? 'processing' : declineCodeOf(answer.status, answer.body) };
  }

  /**
   * A charge by the idempotency key it was made under: `GET /charges/lookup.json?idempotency_key=…`
   * answers the charge (200) or 404 when no request carried that key. Anything else is not an answer:
   * unknown, ask again later.
   */
  async findCharge(input: { site: ProcessorSite; idempotencyKey: string }): Promise<ChargeLookup> {
    const answer = await this.call(input.site, 'GET', `/charges/lookup.json?idempotency_key=${encodeURIComponent(input.idempotencyKey)}`, undefined);
    if (answer.status === 404) return { status: 'none' };
    const charge = read(ChargeAnswer, answer.body)?.charge;
    if (answer.status !== 200 || !charge || charge.id === undefined) return { status: 'unknown' };
    if (charge.success === false) return { status: 'refused', code: 'declined' };
    return { status: 'charged', chargeRef: String(charge.id), profileRef: charge.payment_profile_id === undefined || charge.payment_profile_id === null ? null : String(charge.payment_profile_id) };
  }

  async deletePaymentProfile(input: { site: ProcessorSite; profileRef: string }): Promise<void> {
    const answer = await this.call(input.site, 'DELETE', `/payment_profiles/${encodeURIComponent(input.profileRef)}.json`, undefined);
    // Unknown profiles are not an error (already gone); anything else is, so the caller can retry.
    if (answer.status === 404 || (answer.status >= 200 && answer.status < 300)) return;
    throw new Error(`the processor did not delete the payment profile (HTTP ${answer.status || ('failure' in answer ? answer.failure : 'error')})`);
  }

  /** The hosted page's return: HMAC-SHA256 over token and state with the shared signing secret. */
  verifyReturn(_site: ProcessorSite, params: { token: string; state: string; signature: string }): boolean {
    const expected = Buffer.from(createHmac('sha256', this.options.signingSecret).update(`${params.token}.${params.state}`).digest('base64url'));
    const given = Buffer.from(params.signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

/** The card as their profile describes it (a masked number, never the number). */
function cardOf(p: Profile): CardSummary | null {
  const last4 = /(\d{4})$/.exec(p.masked_card_number ?? '')?.[1];
  const cardType = p.card_type !== undefined ? CARD_TYPES[p.card_type.toLowerCase()] : undefined;
  const month = Number(p.expiration_month);
  const year = Number(p.expiration_year);
  if (!last4 || !cardType || !(month >= 1 && month <= 12) || !Number.isInteger(year)) return null;
  return { firstName: String(p.first_name ?? ''), lastName: String(p.last_name ?? ''), last4, cardType, expirationMonth: month, expirationYear: year };
}

/** Their gateway's response code when they give one; else 5 (declined), as the sandbox's codes go. */
function responseCodeOf(body: unknown): number {
  const code = Number(read(CodeAnswer, body)?.gateway_response_code);
  return Number.isInteger(code) && code > 0 ? code : 5;
}
