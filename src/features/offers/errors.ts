import type { Codes, ErrorSpec } from '#src/core/errors.ts';

/** The offers area's error codes (issue 27): registered from src/features/areas.ts. */
export const offersErrors = {
  // A missing offer, another community's, a draft (to a member): the same answer.
  'Offers.NotFound': { status: 404, key: 'offers.errors.notFound' },
  'Offers.PartnerNotFound': { status: 404, key: 'offers.errors.partnerNotFound' },
  // Reserved for the executive tier: the member sees what EXEC is, never the code.
  'Offers.ExecOnly': { status: 403, key: 'offers.errors.execOnly' },
  // Not redeemable now: before its start, after its end, or withdrawn.
  'Offers.NotAvailable': { status: 409, key: 'offers.errors.notAvailable' },
  'Offers.Invalid': { status: 400, key: 'offers.errors.invalid' },
  // A status move that is not allowed (draft → withdrawn, or to the same status).
  'Offers.BadMove': { status: 409, key: 'offers.errors.badMove' },
  'Offers.PartnerInUse': { status: 409, key: 'offers.errors.partnerInUse' },
  'Offers.Busy': { status: 409, key: 'offers.errors.busy' },
} as const satisfies Record<string, ErrorSpec>;

declare module '#src/core/errors.ts' {
  interface AreaErrorCodes extends Codes<typeof offersErrors> {}
}
