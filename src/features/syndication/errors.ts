import type { Codes, ErrorSpec } from '#src/core/errors.ts';

/** The syndication area's error codes (issue 29): registered from src/features/areas.ts. */
export const syndicationErrors = {
  // A missing feed, another community's, a disabled one at its public address, an unknown format: the same answer.
  'Syndication.NotFound': { status: 404, key: 'syndication.errors.notFound' },
  'Syndication.Invalid': { status: 400, key: 'syndication.errors.invalid' },
  'Syndication.Busy': { status: 409, key: 'syndication.errors.busy' },
} as const satisfies Record<string, ErrorSpec>;

declare module '#src/core/errors.ts' {
  interface AreaErrorCodes extends Codes<typeof syndicationErrors> {}
}
