import type { Codes, ErrorSpec } from '#src/core/errors.ts';

/** The content bank's error codes (issue 29): registered from src/features/areas.ts. */
export const contentBankErrors = {
  // An item not in the library (unknown, unpublished since, another community's), a tag, a collection
  // or an asset of another community: the same answer.
  'ContentBank.NotFound': { status: 404, key: 'contentBank.errors.notFound' },
  'ContentBank.Invalid': { status: 400, key: 'contentBank.errors.invalid' },
  // An upload larger than the route reads (10 MB): the rest of it was not read.
  'ContentBank.TooLarge': { status: 413, key: 'contentBank.errors.tooLarge' },
  // A name already taken (a tag, a collection), an item already in a collection.
  'ContentBank.Taken': { status: 409, key: 'contentBank.errors.taken' },
  'ContentBank.Busy': { status: 409, key: 'contentBank.errors.busy' },
} as const satisfies Record<string, ErrorSpec>;

declare module '#src/core/errors.ts' {
  interface AreaErrorCodes extends Codes<typeof contentBankErrors> {}
}
