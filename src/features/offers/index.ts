/**
 * The offers area's public face: the types its views read, and the offers the members' feed may
 * feature. Routes, GraphQL, the demo seed and its errors are registered through register.ts, never
 * imported from here.
 */
export { featurableOffers } from './featurable.ts';
export type {
  ExecPageView,
  OfferAvailability,
  OfferCard,
  OfferCategory,
  OfferListPage,
  OfferListQuery,
  OfferRedeemView,
  OfferView,
  OffersStaffForm,
  PartnerLogo,
  PartnerRow,
  StaffOfferDetail,
  StaffOfferForm,
  StaffOfferRow,
  StatusEventRow,
} from './types.ts';
export type { OfferRedemption, OfferStatus, OfferTier } from './types.ts';
// Redemptions by day, for the staff's insights (issue 29).
export { redemptionsByDay } from './figures.ts';
