/**
 * The forum's public face: the only module other areas and views import from the forum. Types for
 * the views; the shared keyset cursors (src/lib/cursor.ts) that other lists reuse. Routes, GraphQL,
 * jobs and the demo seed are registered through register.ts, never imported from here.
 */

export type { ForumCounts, ModeratorRow, StaffPostQuery, StaffPostRow, StaffReplyRow } from './staff.ts';
export type {
  ForumAbilities,
  ForumActionView,
  ForumStatus,
  ForumTargetKind,
  PostSummary,
  PostView,
  QueueItem,
  ReactionCount,
  ReplyView,
  ReportReason,
  ReportView,
  TopicView,
} from './types.ts';
export { decodeActivityCursor, decodeIdCursor, encodeCursor, pageSize } from '#src/lib/cursor.ts';
export { newestPosts, waitingPostsOf, type NewestPost } from './activity.ts';
