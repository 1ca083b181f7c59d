/** What the offers pages show (types only: views import these, never the services). */
import type { OfferRedemption, OfferStatus, OfferTier } from '#src/db/types.ts';

export type { OfferRedemption, OfferStatus, OfferTier };

/** The categories an offer is filed under (fixed: each has its label in offers.json, `offers.categories.<key>`). */
export const OFFER_CATEGORIES = ['travel', 'software', 'finance', 'wellness', 'dining', 'events', 'learning', 'workspace', 'other'] as const;
export type OfferCategory = (typeof OFFER_CATEGORIES)[number];

/** Where a partner's logo is: a path under static/ (the demo's) or an uploaded logo's address. */
export type PartnerLogo = { kind: 'static'; path: string } | { kind: 'upload'; path: string } | null;

/** Whether the offer can be redeemed now, and if not, why. */
export type OfferAvailability = 'live' | 'upcoming' | 'expired' | 'withdrawn' | 'draft';

/** A card of the list. */
export type OfferCard = {
  id: number;
  title: string;
  valueLine: string;
  category: string;
  tier: OfferTier;
  featured: boolean;
  partnerId: number;
  partnerName: string;
  logo: PartnerLogo;
  endsAt: Date | null;
  cursor: string;
};

export type OfferListQuery = { category: string | null; q: string | null; after: string | null };

export type OfferListPage = {
  cards: OfferCard[];
  next: string | null;
  query: OfferListQuery;
  /** The viewer holds the executive tier (or is staff): EXEC offers are in the list. */
  exec: boolean;
};

/** What the member sees of how to redeem. */
export type OfferRedeemView =
  | { kind: 'code'; revealed: false }
  | { kind: 'code'; revealed: true; code: string; at: Date }
  | { kind: 'link'; link: string; redeemed: boolean }
  | { kind: 'concierge'; requested: false }
  | { kind: 'concierge'; requested: true; at: Date; conciergeEmail: string };

/** One offer's page. */
export type OfferView = {
  id: number;
  title: string;
  valueLine: string;
  descriptionHtml: string;
  category: string;
  tier: OfferTier;
  terms: string;
  startsAt: Date | null;
  endsAt: Date | null;
  featured: boolean;
  availability: OfferAvailability;
  partner: { id: number; name: string; website: string | null; logo: PartnerLogo };
  /** Null where the member may not redeem (EXEC reserved, or not available): `locked` says why. */
  redeem: OfferRedeemView | null;
  locked: 'exec' | null;
};

/** The EXEC page: the offers of the tier, or for a member without it, what EXEC is. */
export type ExecPageView = { hasTier: true; page: OfferListPage } | { hasTier: false; count: number };

// ---- Staff ----

export type StaffOfferRow = {
  id: number;
  title: string;
  partnerName: string;
  category: string;
  tier: OfferTier;
  status: OfferStatus;
  featured: boolean;
  position: number;
  startsAt: Date | null;
  endsAt: Date | null;
  redemptions: number;
};

export type StaffOfferForm = {
  partnerId: string;
  title: string;
  valueLine: string;
  description: string;
  category: string;
  tier: string;
  redemption: string;
  code: string;
  link: string;
  terms: string;
  startsAt: string;
  endsAt: string;
  featured: boolean;
  position: string;
};

export type StatusEventRow = { from: OfferStatus | null; to: OfferStatus; actorName: string | null; at: Date };

export type StaffOfferDetail = {
  id: number;
  status: OfferStatus;
  form: StaffOfferForm;
  events: StatusEventRow[];
  redemptions: { total: number; byWeek: { week: string; count: number }[]; recent: { name: string; email: string; at: Date }[] };
};

export type PartnerRow = { id: number; name: string; website: string | null; contact: string; logo: PartnerLogo; offers: number };

/** A staff form refused: which form, what was typed, the messages. */
export type OffersStaffForm = { key: string; values: Record<string, string>; errors: Record<string, string> };
