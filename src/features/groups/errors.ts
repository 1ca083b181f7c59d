import type { Codes, ErrorSpec } from '#src/core/errors.ts';

/** The groups area's error codes (issue 28): registered from src/features/areas.ts. */
export const groupsErrors = {
  // A missing group, another community's, or one the viewer may not see (disabled, preview, private): the same answer.
  'Groups.NotFound': { status: 404, key: 'groups.errors.notFound' },
  'Groups.Invalid': { status: 400, key: 'groups.errors.invalid' },
  // Only the group's chairs (and staff) decide on join requests and moderate its discussion.
  'Groups.NotChair': { status: 403, key: 'groups.errors.notChair' },
  // Joining: only a public group takes requests; already a member; a request already waiting.
  'Groups.NotOpen': { status: 409, key: 'groups.errors.notOpen' },
  'Groups.AlreadyMember': { status: 409, key: 'groups.errors.alreadyMember' },
  'Groups.RequestNotFound': { status: 404, key: 'groups.errors.requestNotFound' },
  // Leaving: not in the group; the last chair stays (staff name another first).
  'Groups.NotMember': { status: 409, key: 'groups.errors.notMember' },
  'Groups.LastChair': { status: 409, key: 'groups.errors.lastChair' },
  'Groups.Busy': { status: 409, key: 'groups.errors.busy' },
} as const satisfies Record<string, ErrorSpec>;

declare module '#src/core/errors.ts' {
  interface AreaErrorCodes extends Codes<typeof groupsErrors> {}
}
