/**
 * The staff's forum area (/admin/forum): an overview and one page per task (waiting posts and
 * replies, reports, posts, topics, moderators, settings, the log). Every action is a plain form
 * (POST, then a redirect back with a notice); a refused one comes back with its message beside the
 * field and what was typed kept.
 */

export { FORUM_STAFF_TABS, ForumOff, ForumOverview, forumStaffPath, type ForumStaffTab, type StaffForm } from '#src/features/forum/views/admin/frame.tsx';
export { ForumQueue, ForumReports } from '#src/features/forum/views/admin/queue-reports.tsx';
export { ForumPostReplies, ForumPosts, postsParams } from '#src/features/forum/views/admin/posts.tsx';
export { ForumTopics } from '#src/features/forum/views/admin/topics.tsx';
export { ForumLog, ForumModerators, ForumSettings } from '#src/features/forum/views/admin/moderators-settings-log.tsx';
