/**
 * The staff's forum area (/admin/forum): an overview and one page per task (waiting posts and
 * replies, reports, posts, topics, moderators, settings, the log). Every action is a plain form
 * (POST, then a redirect back with a notice); a refused one comes back with its message beside the
 * field and what was typed kept.
 */

export { FORUM_STAFF_TABS, ForumOff, ForumOverview, forumStaffPath, type ForumStaffTab, type StaffForm } from './forum/frame.tsx';
export { ForumQueue, ForumReports } from './forum/queue-reports.tsx';
export { ForumPostReplies, ForumPosts, postsParams } from './forum/posts.tsx';
export { ForumTopics } from './forum/topics.tsx';
export { ForumLog, ForumModerators, ForumSettings } from './forum/moderators-settings-log.tsx';
