import type { Codes, ErrorSpec } from '#src/core/errors.ts';

/** This area's error codes: registered from src/features/areas.ts. */
export const badgeErrors = {
  'Badges.Invalid': { status: 400, key: 'badges.errors.invalid' },
  'Badges.AlreadyHeld': { status: 409, key: 'badges.errors.alreadyHeld' },
  'Badges.NotHeld': { status: 409, key: 'badges.errors.notHeld' },
} as const satisfies Record<string, ErrorSpec>;

declare module '#src/core/errors.ts' {
  interface AreaErrorCodes extends Codes<typeof badgeErrors> {}
}
