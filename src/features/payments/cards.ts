import type { CardType, SavedPaymentStatus } from '#src/db/types.ts';

/** The accepted cards, in the order the card form shows their logos (spec section 9). */
export const CARD_TYPES: readonly CardType[] = ['VISA', 'MASTERCARD', 'AMERICAN_EXPRESS', 'DISCOVER', 'DINERS_CLUB', 'JCB'];

/** The form shows at most 3 logos, then 'and more...' (spec section 9). */
export const MAX_CARD_LOGOS = 3;

export const CARD_NAMES: Record<CardType, string> = {
  VISA: 'Visa',
  MASTERCARD: 'Mastercard',
  AMERICAN_EXPRESS: 'American Express',
  DISCOVER: 'Discover',
  DINERS_CLUB: 'Diners Club',
  JCB: 'JCB',
};

/** A card number as masks show it: padded to 15 characters for American Express, 16 otherwise (spec section 9). */
export function maskCard(cardType: CardType, last4: string): string {
  const length = cardType === 'AMERICAN_EXPRESS' ? 15 : 16;
  return last4.padStart(length, '*');
}

/** Expiry as a two-digit month plus year, e.g. "04/27" (spec section 9). */
export function formatExpiry(month: number, year: number): string {
  return `${String(month).padStart(2, '0')}/${String(year % 100).padStart(2, '0')}`;
}

/** The card form's accepted cards as it shows them: at most 3 logos (type and name), then whether 'and more...' follows. */
export type CardFormLogos = { logos: { type: CardType; className: string; name: string }[]; more: boolean };

/** What the card form shows of the site's accepted cards (spec section 9: at most 3 logos, then 'and more...'). */
export function cardFormLogos(acceptedCards: readonly CardType[]): CardFormLogos {
  return {
    logos: acceptedCards.slice(0, MAX_CARD_LOGOS).map((type) => ({ type, className: `card-logo-${type.toLowerCase().replace(/_/g, '-')}`, name: CARD_NAMES[type] })),
    more: acceptedCards.length > MAX_CARD_LOGOS,
  };
}

/** How a statement names the card that paid, e.g. "Visa ending 4242". */
export function paymentMethodLabel(cardType: CardType, last4: string): string {
  return `${CARD_NAMES[cardType]} ending ${last4}`;
}

/**
 * A card's status from its expiry, at `now`: EXPIRED after its month, EXPIRATION_PENDING within
 * its last month and the one before, VALID otherwise. A FAILED card stays FAILED until replaced.
 */
export function statusFromExpiry(current: SavedPaymentStatus, month: number, year: number, now: Date): SavedPaymentStatus {
  if (current === 'FAILED') return 'FAILED';
  const monthsLeft = (year - now.getUTCFullYear()) * 12 + (month - (now.getUTCMonth() + 1));
  if (monthsLeft < 0) return 'EXPIRED';
  if (monthsLeft <= 1) return 'EXPIRATION_PENDING';
  return 'VALID';
}
