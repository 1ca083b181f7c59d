import type { Codes, ErrorSpec } from '#src/core/errors.ts';

/** This area's error codes (spec section 8 and ours): registered from src/features/areas.ts. */
export const articleErrors = {
  'Articles.AgreementRequired': { status: 403, key: 'articles.errors.agreementRequired' },
  'Articles.Blackout': { status: 409, key: 'articles.errors.blackout' },
  'Articles.Invalid': { status: 400, key: 'articles.errors.invalid' },
  'Articles.NotEditable': { status: 409, key: 'articles.errors.notEditable' },
  'Articles.TransitionRefused': { status: 409, key: 'articles.errors.transitionRefused' },
  'Articles.OtherInFlight': { status: 409, key: 'articles.errors.otherInFlight' },
  'Articles.ApplicationRequired': { status: 403, key: 'articles.errors.applicationRequired' },
  'Articles.ChangedSinceOpened': { status: 409, key: 'articles.errors.changedSinceOpened' },
} as const satisfies Record<string, ErrorSpec>;

declare module '#src/core/errors.ts' {
  interface AreaErrorCodes extends Codes<typeof articleErrors> {}
}
