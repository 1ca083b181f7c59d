import { formatDate } from '#shared/format.ts';
import type { SavedPaymentStatus } from '#src/db/types.ts';
import { CARD_NAMES, formatExpiry, maskCard } from '../cards.ts';
import { formatMoney } from '../money.ts';
import { needsUpdate, responseOutcome, reversalOutcome, type AuthLogEntry, type SavedCard } from './service.ts';

/** What the saved-cards views show: plain, already formatted (views import types only). */
export type CardView = {
  id: number;
  typeName: string;
  last4: string;
  /** Padded to 15 for American Express, 16 otherwise (spec section 9). */
  mask: string;
  holder: string;
  /** Two-digit month and year. */
  expiry: string;
  isDefault: boolean;
  status: SavedPaymentStatus;
  /** Expired, failed or expiring: the update-card prompt shows when the default is one of these. */
  needsAttention: boolean;
};

export type AuthLogRow = {
  id: number;
  amount: string;
  time: string;
  response: 'none' | 'success' | 'failure';
  responseCode: number | null;
  reversal: 'notApplicable' | 'success' | 'failure';
  reversalCode: number | null;
};

export function cardView(c: SavedCard): CardView {
  return {
    id: c.id,
    typeName: CARD_NAMES[c.cardType],
    last4: c.last4Digits,
    mask: maskCard(c.cardType, c.last4Digits),
    holder: `${c.firstName} ${c.lastName}`.trim(),
    expiry: formatExpiry(c.expirationMonth, c.expirationYear),
    isDefault: c.isDefault,
    status: c.status,
    needsAttention: c.status !== 'VALID',
  };
}

export const cardsView = (cards: readonly SavedCard[]) => ({ cards: cards.map(cardView), updatePrompt: needsUpdate(cards) });

/** "Nov 23, 2026, 18:40 UTC". */
const dateTime = (d: Date) => `${formatDate(d)}, ${d.toISOString().slice(11, 16)} UTC`;

export function authLogRow(e: AuthLogEntry): AuthLogRow {
  return {
    id: e.id,
    amount: formatMoney(e.attemptAmountCents, e.currency),
    time: dateTime(e.attemptedAt),
    response: responseOutcome(e.authResponseCode),
    responseCode: e.authResponseCode,
    reversal: reversalOutcome(e.reversalHttpCode),
    reversalCode: e.reversalHttpCode,
  };
}
