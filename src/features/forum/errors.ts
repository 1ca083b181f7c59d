import type { Codes, ErrorSpec } from '#src/core/errors.ts';

/** This area's error codes (spec section 8 and ours): registered from src/features/areas.ts. */
export const forumErrors = {
  // The forum (issue 14). 'Post not found' covers a missing, removed or other community's post.
  'Forum.PostNotFound': { status: 404, key: 'forum.errors.postNotFound' },
  'Forum.ReplyNotFound': { status: 404, key: 'forum.errors.replyNotFound' },
  'Forum.Invalid': { status: 400, key: 'forum.errors.invalid' },
  'Forum.Locked': { status: 409, key: 'forum.errors.locked' },
  'Forum.NotYours': { status: 403, key: 'forum.errors.notYours' },
  'Forum.UseRemove': { status: 403, key: 'forum.errors.useRemove' },
  'Forum.EditWindowClosed': { status: 409, key: 'forum.errors.editWindowClosed' },
  'Forum.AlreadyModerated': { status: 409, key: 'forum.errors.alreadyModerated' },
  'Forum.Busy': { status: 409, key: 'forum.errors.busy' },
  'Forum.AlreadyReported': { status: 409, key: 'forum.errors.alreadyReported' },
  'Forum.NotModerator': { status: 403, key: 'forum.errors.notModerator' },
  'Forum.LikeFailed': { status: 409, key: 'forum.errors.likeFailed' },
  'Forum.TopicNotFound': { status: 404, key: 'forum.errors.topicNotFound' },
} as const satisfies Record<string, ErrorSpec>;

declare module '#src/core/errors.ts' {
  interface AreaErrorCodes extends Codes<typeof forumErrors> {}
}
