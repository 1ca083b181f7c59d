import type { Codes, ErrorSpec } from '#src/core/errors.ts';

/** The members' feed's error codes (issue 29): registered from src/features/areas.ts. */
export const feedsErrors = {
  // A missing announcement or featured item, another community's, or (to a member) one not live for them: the same answer.
  'Feeds.NotFound': { status: 404, key: 'feeds.errors.notFound' },
  'Feeds.Invalid': { status: 400, key: 'feeds.errors.invalid' },
  // The item is featured already (an item is featured once).
  'Feeds.AlreadyFeatured': { status: 409, key: 'feeds.errors.alreadyFeatured' },
  'Feeds.Busy': { status: 409, key: 'feeds.errors.busy' },
} as const satisfies Record<string, ErrorSpec>;

declare module '#src/core/errors.ts' {
  interface AreaErrorCodes extends Codes<typeof feedsErrors> {}
}
