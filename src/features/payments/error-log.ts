import type { Db } from '#src/db/index.ts';
import { insertInCommunity, selectInCommunity, type Tenant } from '#src/db/tenancy.ts';

/** Each stored field is cut to this many characters: the log is for reading, not for payloads. */
export const ERROR_LOG_FIELD_MAX = 500;

/**
 * A card number as someone may write it: 12 or more digits, with up to 3 of any characters that are not
 * letters or digits between them (spaces, dashes, dots, slashes, tabs, newlines...).
 */
const CARD_NUMBER = /\p{Nd}(?:[^\p{L}\p{N}]{0,3}\p{Nd}){11,}/gu;
/** The card's security code named next to it ("cvv: 123", "CVC=1234", "security code is 123"): the digits go. */
const CODE_AFTER_NAME = /\b(cvv2?|cvc2?|security[^\p{L}\p{N}]{0,3}code)((?:[^\p{L}\p{N}]{0,5}(?:is|was|number|no)\b)?[^\p{L}\p{N}]{0,5})\p{Nd}{3,4}(?!\p{N})/giu;
/** ...or just before it ("123 (cvv)", "1234 is the security code"). */
const CODE_BEFORE_NAME = /(?<!\p{N})\p{Nd}{3,4}(?=[^\p{L}\p{N}]{0,5}(?:(?:is|was)[^\p{L}\p{N}]{1,3}(?:the|my)?[^\p{L}\p{N}]{0,3})?(?:cvv|cvc|security[^\p{L}\p{N}]{0,3}code))/giu;
/** Control characters (C0, DEL, C1): tabs and newlines included. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Anything that could be card data is replaced before it is stored: a card number (see CARD_NUMBER)
 * and a 3-4 digit run next to "cvv", "cvc" or "security code". The log must never hold card data,
 * whatever a client sends.
 */
export function redactCardNumbers(text: string): string {
  return text.replace(CARD_NUMBER, '[redacted]').replace(CODE_AFTER_NAME, '$1$2[redacted]').replace(CODE_BEFORE_NAME, '[redacted]');
}

/** A client's text made safe to keep: control characters out (each becomes a space), no card data, bounded. */
export function boundedText(value: unknown, max = ERROR_LOG_FIELD_MAX): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = redactCardNumbers(String(value).replace(CONTROL, ' ')).trim();
  return text ? text.slice(0, max) : null;
}

export type ClientPaymentError = {
  source: 'client' | 'script';
  /** `error` or `errorMsg` of spec section 7's payload. */
  message: unknown;
  userId: unknown;
  category: unknown;
  email: unknown;
  value: unknown;
  uri: unknown;
};

/**
 * Stores one client payment error (spec section 7: logClientPaymentError and logPaymentScriptError)
 * in the request's community. The user is the signed-in one, else the claimed id only when it is a
 * member of this community (the call is public: it cannot name anyone else's account).
 */
export async function logClientPaymentError(db: Db, community: Tenant, signedInUserId: number | null, input: ClientPaymentError): Promise<void> {
  let userId = signedInUserId;
  if (userId === null && typeof input.userId !== 'undefined' && input.userId !== null) {
    const claimed = Number(input.userId);
    if (Number.isSafeInteger(claimed) && claimed > 0 && claimed <= 2_147_483_647) {
      const member = await selectInCommunity(db, 'memberships', community).select('user_id').where('user_id', '=', claimed).executeTakeFirst();
      userId = member?.user_id ?? null;
    }
  }
  await insertInCommunity(db, 'payment_error_logs', community, {
    user_id: userId,
    source: input.source,
    category: boundedText(input.category, 100),
    message: boundedText(input.message) ?? '(no message)',
    email: boundedText(input.email, 254),
    value: boundedText(input.value),
    uri: boundedText(input.uri, ERROR_LOG_FIELD_MAX),
  }).execute();
}
