/**
 * Types the forum area shares with its views, its GraphQL and other areas (types only: no code). The
 * services (posts.ts, replies.ts, reactions.ts, reports.ts, moderation.ts, topics.ts) return these;
 * views get them as plain data (HTML already sanitised, decisions already made).
 */
import type { ForumStatus, ForumTargetKind } from '#src/db/types.ts';
import type { MemberSnapshot } from '#src/features/members/index.ts';

export type { ForumStatus, ForumTargetKind };

/** The small fixed set of reactions besides the like (rules.ts REACTIONS; labels `forum.reactions.<id>`). */
export type Reaction = 'insightful' | 'celebrate' | 'support' | 'curious';

export type TopicView = { id: number; name: string; position: number; archived: boolean; postCount?: number };

/** One reaction's count on a post or reply and whether the viewer gave it. */
export type ReactionCount = { reaction: Reaction; count: number; mine: boolean };

/** What the viewer may do with a post or reply (decided in the service, shown by the view). */
export type ForumAbilities = {
  canEdit: boolean;
  /** The author, within the edit window. */
  canDelete: boolean;
  /** A moderator or staff, on someone else's published or waiting item: remove with a reason. */
  canRemove: boolean;
  canReport: boolean;
  /** A moderator or staff: approve, reject, remove, restore. */
  canModerate: boolean;
};

/** A row of the list (`/forum`). */
export type PostSummary = {
  id: number;
  title: string;
  /** Plain text, cut to about 200 characters. */
  excerpt: string;
  author: MemberSnapshot;
  topics: TopicView[];
  replyCount: number;
  likeCount: number;
  lastActivityAt: Date;
  createdAt: Date;
  pinned: boolean;
  locked: boolean;
  status: ForumStatus;
  /** The viewer never opened it (and did not write it): read tracking, decision 0065. */
  unread: boolean;
  /**
   * Published replies by others since the viewer's last visit (after the highest reply they were
   * shown); 0 on a post they never opened (`unread` says it: every reply is new).
   */
  newReplyCount: number;
  /** Up to three who replied most recently (not the author), newest first: faces on the list's rows. */
  repliers: MemberSnapshot[];
};

export type ForumListQuery = {
  topicId?: number | null;
  /** Full-text search (PostgreSQL websearch syntax), trimmed; empty means none. */
  q?: string | null;
  /** Opaque keyset cursor from the previous page's `next`. */
  after?: string | null;
  first?: number;
};

export type ForumListPage = {
  /** Pinned posts, on the first page of the unfiltered list only. */
  pinned: PostSummary[];
  posts: PostSummary[];
  /** The cursor of the next page, or null on the last. */
  next: string | null;
};

export type ReplyView = {
  id: number;
  postId: number;
  author: MemberSnapshot;
  /** Sanitised HTML, mentions already turned into profile links. */
  bodyHtml: string;
  createdAt: Date;
  editedAt: Date | null;
  status: ForumStatus;
  moderationNote: string | null;
  likeCount: number;
  likedByMe: boolean;
  reactions: ReactionCount[];
  reportedByMe: boolean;
  abilities: ForumAbilities;
};

export type PostView = PostSummary & {
  bodyHtml: string;
  editedAt: Date | null;
  moderationNote: string | null;
  likedByMe: boolean;
  followedByMe: boolean;
  reportedByMe: boolean;
  reactions: ReactionCount[];
  abilities: ForumAbilities & { canReply: boolean; canLock: boolean; canPin: boolean };
};

export type RepliesPage = { replies: ReplyView[]; next: string | null };

/** A report as moderators and staff see it. */
export type ReportView = {
  id: number;
  targetKind: ForumTargetKind;
  targetId: number;
  postId: number;
  postTitle: string;
  /** Plain-text excerpt of what was reported. */
  excerpt: string;
  author: MemberSnapshot;
  reporter: MemberSnapshot;
  reason: ReportReason;
  description: string;
  createdAt: Date;
  resolvedAt: Date | null;
  resolution: string | null;
};

/** rules.ts REPORT_REASONS; labels `forum.reportReasons.<id>`. */
export type ReportReason = 'spam' | 'harassment' | 'off_topic' | 'confidential' | 'other';

/** An item waiting in the moderation queue. */
export type QueueItem = {
  targetKind: ForumTargetKind;
  id: number;
  postId: number;
  postTitle: string;
  bodyHtml: string;
  author: MemberSnapshot;
  createdAt: Date;
  reportCount: number;
  /** Why it waits: a new member's post, every post waits, or reported by several members. */
  why: 'new_member' | 'all_wait' | 'reported';
};

/**
 * A discussion scoped to a group (issue 28, decision 0056): the groups area decides who reads, who
 * posts and who moderates, and hands the forum this scope; the forum never reads the groups' rules.
 * Posts of a group appear only where the scope is given (never in the forum's own list, search, home
 * or feeds); its chairs moderate its posts and replies (staff always do).
 */
export type ForumScope = { groupId: number; canRead: boolean; canPost: boolean; moderators: readonly number[] };

export type ForumActionView = {
  id: number;
  actor: { id: number; name: string } | null;
  action: string;
  targetKind: string;
  targetId: number;
  note: string | null;
  createdAt: Date;
};
