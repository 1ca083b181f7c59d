import type { Codes, ErrorSpec } from '#src/core/errors.ts';

/** The insights area's error codes (issue 29): registered from src/features/areas.ts. */
export const insightsErrors = {
  // An event batch that is not one (a category not allowed, a text too long, a control character, too many).
  'Insights.Invalid': { status: 400, key: 'insights.errors.invalid' },
  // A call from another site, or a beacon whose origin is not ours.
  'Insights.CrossSite': { status: 403, key: 'insights.errors.crossSite' },
  // A series that is not one, or a range that is not one (GraphQL).
  'Insights.BadSeries': { status: 400, key: 'insights.errors.badSeries' },
} as const satisfies Record<string, ErrorSpec>;

declare module '#src/core/errors.ts' {
  interface AreaErrorCodes extends Codes<typeof insightsErrors> {}
}
