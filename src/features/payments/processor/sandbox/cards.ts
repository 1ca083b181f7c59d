import type { CardType } from '#src/db/types.ts';

/**
 * The sandbox's test cards (issue 13), as a real provider's test mode has them. Any other number that
 * passes the Luhn check and has a known brand succeeds; the ones below behave as named.
 */
export type Behaviour =
  | 'ok' // verifies and charges
  | 'decline' // the issuer refuses the verification (and every charge)
  | 'cvv' // the CVV check fails at verification
  | 'expired' // the issuer says the card has expired
  | 'challenge' // needs the 3-D-Secure-style step before it becomes a token
  | 'charge_decline'; // verifies (can be saved) but every charge is declined: renewals and dunning

export const TEST_CARDS: Readonly<Record<string, Behaviour>> = {
  '4242424242424242': 'ok',
  '4111111111111111': 'ok',
  '5555555555554444': 'ok',
  '378282246310005': 'ok',
  '6011111111111117': 'ok',
  '30569309025904': 'ok',
  '3530111333300000': 'ok',
  '4000000000000002': 'decline',
  '4000000000000127': 'cvv',
  '4000000000000069': 'expired',
  '4000000000003220': 'challenge',
  '4000000000000341': 'charge_decline',
};

/** The issuer's answer per behaviour: 0 approved, above 0 refused (spec "Saved cards": auth log rules). */
export const RESPONSE_CODES = { approved: 0, declined: 5, expired: 54, cvv: 82, authentication: 65 } as const;

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** The brand from the number's prefix and length, or null. */
export function cardTypeOf(digits: string): CardType | null {
  const n = digits.length;
  if (/^4/.test(digits) && (n === 13 || n === 16 || n === 19)) return 'VISA';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits) && n === 16) return 'MASTERCARD';
  if (/^3[47]/.test(digits) && n === 15) return 'AMERICAN_EXPRESS';
  if (/^(6011|65|64[4-9])/.test(digits) && (n === 16 || n === 19)) return 'DISCOVER';
  if (/^(36|30[0-5]|38|39)/.test(digits) && n >= 14 && n <= 19) return 'DINERS_CLUB';
  if (/^35(2[89]|[3-8]\d)/.test(digits) && n >= 16 && n <= 19) return 'JCB';
  return null;
}
