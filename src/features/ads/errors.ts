import type { Codes, ErrorSpec } from '#src/core/errors.ts';

/** This area's error codes: registered from src/features/areas.ts. */
export const adErrors = {
  // Another community's ad, or none: the same answer.
  'Ads.NotFound': { status: 404, key: 'ads.errors.notFound' },
  // A field refused (its message is beside it): the wrong size, not an image, a bad link or date.
  'Ads.Invalid': { status: 400, key: 'ads.errors.invalid' },
} as const satisfies Record<string, ErrorSpec>;

declare module '#src/core/errors.ts' {
  interface AreaErrorCodes extends Codes<typeof adErrors> {}
}
