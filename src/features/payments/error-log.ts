import type { Db } from '#src/db/index.ts';
import { selectInCommunity } from '#src/db/tenancy.ts';

/** Each stored field is cut to this many characters: the log is for reading, not for payloads. */
export const ERROR_LOG_FIELD_MAX = 500;

/**
 * Anything that could be a card number (a run of 12 or more digits, spaces or dashes between them
 * allowed) is replaced before it is stored: the log must never hold card data, whatever a client sends.
 */
export function redactCardNumbers(text: string): string {
  return text.replace(/\d(?:[ -]*\d){11,}/g, '[redacted]');
}

/** A client's text made safe to keep: no control characters, no card numbers, bounded. */
export function boundedText(value: unknown, max = ERROR_LOG_FIELD_MAX): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = redactCardNumbers(String(value).replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ')).trim();
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
export async function logClientPaymentError(db: Db, communityId: number, signedInUserId: number | null, input: ClientPaymentError): Promise<void> {
  let userId = signedInUserId;
  if (userId === null && typeof input.userId !== 'undefined' && input.userId !== null) {
    const claimed = Number(input.userId);
    if (Number.isSafeInteger(claimed) && claimed > 0 && claimed <= 2_147_483_647) {
      const member = await selectInCommunity(db, 'memberships', { id: communityId }).select('user_id').where('user_id', '=', claimed).executeTakeFirst();
      userId = member?.user_id ?? null;
    }
  }
  await db
    .insertInto('payment_error_logs')
    .values({
      community_id: communityId,
      user_id: userId,
      source: input.source,
      category: boundedText(input.category, 100),
      message: boundedText(input.message) ?? '(no message)',
      email: boundedText(input.email, 254),
      value: boundedText(input.value),
      uri: boundedText(input.uri, ERROR_LOG_FIELD_MAX),
    })
    .execute();
}
