import type { CardType } from '#src/db/types.ts';

/**
 * The one interface behind which a card processor sits (issue 13). Two implement it: the sandbox
 * (./sandbox/, the default: a local provider that behaves like a Maxio/Chargify-style one, served
 * from its own path prefix as if it were another host) and the adapter for the real processor's REST
 * API (./maxio.ts). Which one runs is configuration (PAYMENT_PROCESSOR).
 *
 * Card data never reaches our handlers: the provider's script (or its hosted payment page, which
 * works without JavaScript) turns the card into a one-time token in the browser, and we only ever
 * hand tokens and profile references to the processor.
 *
 * Every call that moves money or stores a card takes an idempotency key: the processor answers a
 * repeated key with the first answer, so a retry after a crash never charges twice.
 */
export interface CardProcessor {
  readonly kind: 'sandbox' | 'maxio';

  /** What the browser needs to load the provider's script and its hosted page (spec "Payment processor"). */
  browserSettings(site: ProcessorSite): BrowserSettings;

  /**
   * Store the card behind a one-time token as a payment profile of the customer. The processor
   * verifies it with a small authorisation that it reverses; that attempt is in the answer.
   */
  createPaymentProfile(input: { site: ProcessorSite; customerRef: string; token: string; idempotencyKey: string }): Promise<ProfileOutcome>;

  /** Charge a stored payment profile. */
  charge(input: { site: ProcessorSite; profileRef: string; amountCents: number; currency: string; idempotencyKey: string; memo: string }): Promise<ChargeOutcome>;

  /** Refund (part of) a charge. */
  refund(input: { site: ProcessorSite; chargeRef: string; amountCents: number; currency: string; idempotencyKey: string; memo: string }): Promise<RefundOutcome>;

  /**
   * What became of a charge made (or not) under an idempotency key: for a ledger row left pending (a
   * crash, a timeout, a refusal before the call), so it can be settled as the processor knows it.
   */
  findCharge(input: { site: ProcessorSite; idempotencyKey: string }): Promise<ChargeLookup>;

  /** Forget a payment profile (the member removed the card). Unknown profiles are not an error. */
  deletePaymentProfile(input: { site: ProcessorSite; profileRef: string }): Promise<void>;

  /**
   * The hosted page's return to us carries the token and the processor's signature over it and our
   * own state (like Chargify Direct's signature): the token is only believed when this says so.
   */
  verifyReturn(site: ProcessorSite, params: { token: string; state: string; signature: string }): boolean;
}

/** A community's account at the processor (payment_settings). */
export type ProcessorSite = { communityId: number; publicKey: string; subDomain: string };

/** Spec "Payment processor" (id, publicKey, subDomain, serverHost), plus where the script and the hosted page are. */
export type BrowserSettings = {
  publicKey: string;
  subDomain: string;
  /** The processor's base address, e.g. "/sandbox-pay" for the sandbox (behind the path prefix). */
  serverHost: string;
  /** The tokenising script the card form island loads. */
  scriptUrl: string;
  /** The hosted payment page: a plain form that works without JavaScript and returns with a token. */
  hostedPageUrl: string;
};

/** A card as the processor describes it: never its number or CVV. */
export type CardSummary = {
  firstName: string;
  lastName: string;
  last4: string;
  cardType: CardType;
  expirationMonth: number;
  expirationYear: number;
};

/** One authorisation attempt (spec "Card auth log entry"): responseCode 0 success, above 0 failure, null none; reversal 200 done. */
export type Authorisation = {
  amountCents: number;
  attemptedAt: Date;
  responseCode: number | null;
  reversalHttpCode: number | null;
};

/** Why a processor said no, as our messages tell it (spec section 8). */
export type DeclineCode =
  | 'declined' // the issuer refused
  | 'cvv' // card verification failed
  | 'expired' // the card has expired
  | 'invalid_token' // the token is unknown, used or too old
  | 'authentication' // the 3-D-Secure-style step was failed
  | 'not_accepted' // a card type the community does not take (our check, after the processor made the profile)
  | 'processing'; // the processor could not be reached or failed

export type ProfileOutcome =
  | { ok: true; profileRef: string; card: CardSummary; authorisation: Authorisation | null }
  | { ok: false; code: DeclineCode; card: CardSummary | null; authorisation: Authorisation | null };

export type ChargeOutcome =
  | { ok: true; chargeRef: string; authorisation: Authorisation }
  | { ok: false; code: DeclineCode; authorisation: Authorisation | null };

export type RefundOutcome = { ok: true; refundRef: string } | { ok: false; code: DeclineCode };

/**
 * A charge looked up by its idempotency key: made (with its card when the processor says), refused,
 * never made under that key, or unknown (the processor could not be asked: ask again later).
 */
export type ChargeLookup =
  | { status: 'charged'; chargeRef: string; profileRef: string | null }
  | { status: 'refused'; code: DeclineCode }
  | { status: 'none' }
  | { status: 'unknown' };
