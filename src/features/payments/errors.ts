import type { Codes, ErrorSpec } from '#src/core/errors.ts';

/** This area's error codes (spec section 8 and ours): registered from src/features/areas.ts. */
export const paymentErrors = {
  // Payments (issue 13). A card the processor refused is a 400: pay-now shows it inline as the card error.
  'Payments.KeyReused': { status: 409, key: 'payments.errors.keyReused' },
  'Payments.NotConfigured': { status: 404, key: 'payments.errors.notConfigured' },
  'Payments.Declined': { status: 400, key: 'payments.errors.declined' },
  'Payments.Cvv': { status: 400, key: 'payments.errors.cvv' },
  'Payments.Expired': { status: 400, key: 'payments.errors.expired' },
  'Payments.InvalidToken': { status: 400, key: 'payments.errors.invalidToken' },
  'Payments.Authentication': { status: 400, key: 'payments.errors.authentication' },
  'Payments.Processing': { status: 502, key: 'payments.errors.processing' },
  'Payments.NotAccepted': { status: 400, key: 'payments.errors.notAccepted' },
  'Payments.DefaultCardRemoval': { status: 409, key: 'payments.errors.defaultCannotBeRemoved' },
  'Payments.InvalidMembership': { status: 400, key: 'payments.errors.invalidMembership' },
  'Payments.NoBalanceDue': { status: 409, key: 'payments.errors.noBalanceDue' },
  'Billing.StatementsUnavailable': { status: 503, key: 'billing.statements.error' },
  'Amplify.NotPublished': { status: 409, key: 'amplify.errors.notPublished' },
  'Amplify.UnknownPackage': { status: 400, key: 'amplify.errors.unknownPackage' },
  'SavedCards.VerificationFailed': { status: 400, key: 'savedCards.errors.verification' },
  'SavedCards.AddFailed': { status: 400, key: 'savedCards.errors.add' },
  'SavedCards.DeleteFailed': { status: 502, key: 'savedCards.errors.delete' },
  'SavedCards.ChangeDefaultFailed': { status: 409, key: 'savedCards.errors.changeDefault' },
  'Onboarding.Disabled': { status: 409, key: 'onboarding.errors.disabled' },
  'Onboarding.PaymentFirst': { status: 409, key: 'onboarding.errors.paymentFirst' },
  'Onboarding.CredentialsExist': { status: 409, key: 'onboarding.errors.credentialsExist' },
  'Onboarding.UsernameTaken': { status: 409, key: 'onboarding.password.usernameTaken' },
  'Onboarding.StepUnavailable': { status: 409, key: 'onboarding.errors.stepUnavailable' },
} as const satisfies Record<string, ErrorSpec>;

declare module '#src/core/errors.ts' {
  interface AreaErrorCodes extends Codes<typeof paymentErrors> {}
}
