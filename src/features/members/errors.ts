import type { Codes, ErrorSpec } from '#src/core/errors.ts';

/** This area's error codes (spec section 8 and ours): registered from src/features/areas.ts. */
export const memberErrors = {
  'Introductions.Invalid': { status: 400, key: 'introductions.errors.invalid' },
  'Introductions.Self': { status: 400, key: 'introductions.errors.self' },
  'Introductions.OpenRequest': { status: 409, key: 'introductions.errors.openRequest' },
  'Introductions.DailyCap': { status: 429, key: 'introductions.errors.dailyCap' },
  'Introductions.AlreadyReviewed': { status: 409, key: 'introductions.errors.alreadyReviewed' },
  'Introductions.MemberInactive': { status: 409, key: 'introductions.errors.memberInactive' },
} as const satisfies Record<string, ErrorSpec>;

declare module '#src/core/errors.ts' {
  interface AreaErrorCodes extends Codes<typeof memberErrors> {}
}
