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
export { featurablePosts, forumNewsJson, forumNewsOf, NEWS_CAP, newestPosts, waitingPostsOf, type NewestPost } from './activity.ts';

// A group's discussion (issue 28, decision 0056): the forum's own services in a scope the groups area
// decides (who reads, who posts, its chairs as moderators); the forum never imports the groups area.
export type { ForumScope, RepliesPage } from './types.ts';
export { forumDeps, forumViewer, type ForumDeps } from './deps.ts';
export { createPost, deletePost, editPost, getPost } from './posts.ts';
export { createReply, deleteReply, editReply, getReply, listReplies } from './replies.ts';
export { removeContent, restoreContent } from './moderation.ts';
export { listGroupPosts, serveGroupPostsAt, type GroupPostPath } from './group-discussion.ts';
export { mentionLinksUnder } from './mentions.ts';
export { readGroupsWith, type GroupReaders } from './scope.ts';
export { POST_MAX, REPLY_MAX, TITLE_MAX } from './rules.ts';

// The forum's figures for the staff's insights (issue 29).
export { forumContributionsByMember, forumFiguresByDay } from './figures.ts';
