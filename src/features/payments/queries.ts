import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { CardType, SavedPaymentStatus } from '#src/db/types.ts';
import type { ProcessorSite } from './processor/types.ts';

/** A community's processor account and currency, or null when it takes no payments. */
export type PaymentSite = ProcessorSite & { currency: string; acceptedCards: CardType[]; showAddressStep: boolean; onboardingDisabled: boolean };

export async function loadPaymentSite(db: Db, community: Tenant): Promise<PaymentSite | null> {
  const row = await selectInCommunity(db, 'payment_settings', community).selectAll().executeTakeFirst();
  if (!row) return null;
  return {
    communityId: community.id,
    publicKey: row.public_key,
    subDomain: row.sub_domain,
    currency: row.currency,
    acceptedCards: row.accepted_cards,
    showAddressStep: row.show_address_step,
    onboardingDisabled: row.onboarding_disabled,
  };
}

/** Spec "Saved payment". */
export type SavedPayment = {
  id: number;
  userId: number;
  firstName: string;
  lastName: string;
  expirationMonth: number;
  expirationYear: number;
  last4Digits: string;
  cardType: CardType;
  status: SavedPaymentStatus;
  isDefault: boolean;
  /** Ours, not the spec's: the processor's reference, for charging. Never shown. */
  processorRef: string;
};

const savedColumns = ['id', 'user_id', 'first_name', 'last_name', 'expiration_month', 'expiration_year', 'last4', 'card_type', 'status', 'is_default', 'processor_ref'] as const;

type SavedRow = { id: number; user_id: number; first_name: string; last_name: string; expiration_month: number; expiration_year: number; last4: string; card_type: CardType; status: SavedPaymentStatus; is_default: boolean; processor_ref: string };

export const toSavedPayment = (r: SavedRow): SavedPayment => ({
  id: r.id,
  userId: r.user_id,
  firstName: r.first_name,
  lastName: r.last_name,
  expirationMonth: r.expiration_month,
  expirationYear: r.expiration_year,
  last4Digits: r.last4,
  cardType: r.card_type,
  status: r.status,
  isDefault: r.is_default,
  processorRef: r.processor_ref,
});

/** A member's saved cards, the default first, then the newest. */
export async function listSavedPayments(db: Db, community: Tenant, userId: number): Promise<SavedPayment[]> {
  const rows = await selectInCommunity(db, 'saved_payments', community)
    .select(savedColumns)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('is_default', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toSavedPayment);
}

export async function findSavedPayment(db: Db, community: Tenant, userId: number, id: number): Promise<SavedPayment | null> {
  const row = await selectInCommunity(db, 'saved_payments', community)
    .select(savedColumns)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? toSavedPayment(row) : null;
}

export async function findDefaultPayment(db: Db, community: Tenant, userId: number): Promise<SavedPayment | null> {
  const row = await selectInCommunity(db, 'saved_payments', community)
    .select(savedColumns)
    .where('user_id', '=', userId)
    .where('is_default', '=', true)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? toSavedPayment(row) : null;
}
