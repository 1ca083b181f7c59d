import type { Codes, ErrorSpec } from '#src/core/errors.ts';

/** The conversations area's error codes (issue 28): registered from src/features/areas.ts. */
export const conversationsErrors = {
  // No conversation of the viewer's, or a member they were not introduced to (or another community's,
  // or inactive, or no one): the same answer, so that nobody learns who exists.
  'Conversations.NotFound': { status: 404, key: 'conversations.errors.notFound' },
  // A message that is empty, too long or holds a control character: said next to the field.
  'Conversations.Invalid': { status: 400, key: 'conversations.errors.invalid' },
  // The other member blocked the conversation; or the viewer did (and may unblock).
  'Conversations.Blocked': { status: 409, key: 'conversations.errors.blocked' },
  'Conversations.BlockedByYou': { status: 409, key: 'conversations.errors.blockedByYou' },
  // Too many messages in a short while (all conversations together).
  'Conversations.TooMany': { status: 429, key: 'conversations.errors.tooMany' },
  'Conversations.Busy': { status: 409, key: 'conversations.errors.busy' },
} as const satisfies Record<string, ErrorSpec>;

declare module '#src/core/errors.ts' {
  interface AreaErrorCodes extends Codes<typeof conversationsErrors> {}
}
