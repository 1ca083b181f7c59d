import type { OnboardingStep } from '#src/db/types.ts';

/**
 * Onboarding (spec sections 2, 3 and 9; issue 13): the shared types of the services, the routes and
 * the views (views import these types only).
 *
 * Units: every amount is an integer number of cents with the plan's ISO 4217 currency beside it
 * (`currency`, e.g. "USD"); dates are ISO 8601 strings in JSON. Dues are yearly: the first payment is
 * one year's dues plus the one-time initiation fee (amountDue = dues + initiationFee), and the
 * membership renews (the next yearly dues) one year after the payment, whatever the commitment
 * (12 or 24 months, `termMonths`).
 */

/** The steps in order (spec section 2). The expert-panel steps show only when the community has expert panels. */
export const STEP_ORDER = ['payment', 'password', 'profile', 'contact', 'team', 'ep-landing', 'ep-question', 'address', 'complete'] as const;
export type FlowStep = (typeof STEP_ORDER)[number];
/** A step page: the flow's steps and the shutdown step (onboarding switched off). */
export type StepName = OnboardingStep;

/** The steps a member may skip ("Skip for now"): all but payment and password. */
export const SKIPPABLE: readonly StepName[] = ['profile', 'contact', 'team', 'ep-landing', 'ep-question', 'address'];

/** Spec section 3 "Onboarding data" → payment: the membership offer. Amounts in cents (see above). */
export type MembershipOffer = {
  publicKey: string;
  serverHost: string;
  dues: number;
  initiationFee: number;
  savings: number;
  amountDue: number;
  /** When the membership renews if paid now: ISO date-time. */
  renewsAt: string;
  name: string;
  description: string;
  /** Ours: what the amounts are counted in, and the plan as the processor names it. */
  currency: string;
  termMonths: number;
  planId: number;
  dealId: string;
  productId: string;
  pricePointId: string;
};

/** Spec section 3 "Onboarding data", plus the step to show (ours). */
export type OnboardingData = {
  hasPaid: boolean;
  hasCredentials: boolean;
  onboardingComplete: boolean;
  greetingName: string;
  email: string;
  showAddressStep: boolean;
  /** Ours (decision 0036): the community has an active expert panel, so the ep-landing step shows. */
  showExpertPanelStep: boolean;
  /** Ours: the member has an open expert-panel question, so the ep-question step shows (after ep-landing). */
  showExpertQuestionStep: boolean;
  disabled: boolean;
  userId: number;
  /** A client token for the card provider's script; the sandbox (and Maxio) need none: null. */
  clientToken: string | null;
  payment: MembershipOffer;
  currentStep: StepName;
};

/** The address step's fields (stored as onboardings.address). */
export const ADDRESS_FIELDS = ['street', 'city', 'region', 'postalCode', 'country'] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];
export type AddressDraft = Record<AddressField, string>;
export const ADDRESS_LIMITS: Record<AddressField, number> = { street: 200, city: 100, region: 100, postalCode: 20, country: 100 };

/** The username rules of the password step. */
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 40;
export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The link an invitee holds: /get-started?uid=&dealId= (kept on every step's form until signed in). */
export type InvitationLink = { uid: string; dealId: string };

/** What the step pages render from: plain data. */
export type StepView = {
  data: OnboardingData;
  step: StepName;
  /** The link's parameters to carry in forms and links, or null for a signed-in member. */
  link: InvitationLink | null;
  concierge: { email: string; phone: string };
  termsLink: string | null;
  /** The payment offer's amounts as text (formatFee). */
  fees: { dues: string; initiationFee: string; savings: string; amountDue: string; renewsAt: string };
};
