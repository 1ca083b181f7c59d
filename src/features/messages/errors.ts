import type { Codes, ErrorSpec } from '#src/core/errors.ts';

/** The team messages area's error codes (issue 28): registered from src/features/areas.ts. */
export const messagesErrors = {
  // A missing message, another community's, or (to a member) one not sent to them: the same answer.
  'Messages.NotFound': { status: 404, key: 'messages.errors.notFound' },
  'Messages.Invalid': { status: 400, key: 'messages.errors.invalid' },
  // A status move that is not allowed (a sent message cancelled, a draft edited after it went out).
  'Messages.BadMove': { status: 409, key: 'messages.errors.badMove' },
  'Messages.Busy': { status: 409, key: 'messages.errors.busy' },
} as const satisfies Record<string, ErrorSpec>;

declare module '#src/core/errors.ts' {
  interface AreaErrorCodes extends Codes<typeof messagesErrors> {}
}
