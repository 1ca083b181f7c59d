import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { hasForbiddenCharacters, INVALID_CHARACTERS_CODE, INVALID_CHARACTERS_KEY } from '#src/core/fields.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { ForumStatus } from '#src/db/types.ts';
import { cursorId } from './targets.ts';

/**
 * What the staff's forum area (/admin/forum) reads that the member-facing services do not: the
 * overview's counts, every post whatever its state (removed and rejected too) with a title search, the
 * community's moderators and the members one may appoint, and the "every post waits" switch as stored.
 * The actions themselves are the moderation services' (moderation.ts, reports.ts, topics-admin.ts);
 * appointing a moderator is the members area's setModerator (recorded in staff_actions).
 */

export type StaffForumDeps = { db: Db; community: Tenant };

export type ForumCounts = { pendingPosts: number; pendingReplies: number; openReports: number; /** The forum's own posts. */ posts: number; /** Posts of groups' discussions (listed on the staff's posts page too). */ groupPosts: number; topics: number; moderators: number; allPostsWait: boolean };

export const STAFF_POSTS_PAGE = 25;
export const STAFF_SEARCH_MAX = 200;
export const CANDIDATES_MAX = 20;
export const STAFF_POST_STATUSES = ['published', 'pending', 'rejected', 'removed'] as const satisfies readonly ForumStatus[];

export type StaffPostQuery = { q: string | null; status: ForumStatus | null; after: string | null; first?: number };

export type StaffPostRow = {
  id: number;
  title: string;
  authorId: number;
  authorName: string;
  status: ForumStatus;
  pinned: boolean;
  locked: boolean;
  replyCount: number;
  reportCount: number;
  createdAt: Date;
  lastActivityAt: Date;
  moderationNote: string | null;
};

export type StaffPostPage = { rows: StaffPostRow[]; next: string | null };

export type ModeratorRow = { userId: number; name: string; email: string; isActive: boolean; isModerator: boolean };

const count = (v: unknown) => Number(v ?? 0);

/** The overview: what waits, what is reported, how big the forum is, and the "every post waits" switch. */
export async function forumCounts(deps: StaffForumDeps): Promise<ForumCounts> {
  const c = deps.community;
  const [posts, replies, reports, topics, moderators, settings] = await Promise.all([
    selectInCommunity(deps.db, 'forum_posts', c)
      .select([sql<number>`count(*) filter (where status = 'pending')`.as('pending'), sql<number>`count(*) filter (where group_id is null)`.as('total'), sql<number>`count(*) filter (where group_id is not null)`.as('in_groups')])
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow(),
    selectInCommunity(deps.db, 'forum_replies', c).select(sql<number>`count(*)`.as('n')).where('status', '=', 'pending').where('deleted_at', 'is', null).executeTakeFirstOrThrow(),
    selectInCommunity(deps.db, 'forum_reports', c)
      .innerJoin('forum_posts as p', 'p.id', 'forum_reports.post_id')
      .leftJoin('forum_replies as r', (j) => j.onRef('r.id', '=', 'forum_reports.target_id').on('forum_reports.target_kind', '=', 'reply'))
      .select(sql<number>`count(*)`.as('n'))
      .where('forum_reports.resolved_at', 'is', null)
      .where('p.deleted_at', 'is', null)
      .where((eb) => eb.or([eb('forum_reports.target_kind', '=', 'post'), eb('r.deleted_at', 'is', null)]))
      .executeTakeFirstOrThrow(),
    selectInCommunity(deps.db, 'forum_topics', c).select(sql<number>`count(*)`.as('n')).where('archived_at', 'is', null).executeTakeFirstOrThrow(),
    selectInCommunity(deps.db, 'memberships', c).select(sql<number>`count(*)`.as('n')).where('is_moderator', '=', true).where('is_active', '=', true).executeTakeFirstOrThrow(),
    allPostsWaitOf(deps),
  ]);
  return {
    pendingPosts: count(posts.pending),
    pendingReplies: count(replies.n),
    openReports: count(reports.n),
    posts: count(posts.total),
    groupPosts: count(posts.in_groups),
    topics: count(topics.n),
    moderators: count(moderators.n),
    allPostsWait: settings,
  };
}

/** The "every post waits for a moderator" switch as stored (the request's community may be cached). */
export async function allPostsWaitOf(deps: StaffForumDeps): Promise<boolean> {
  const row = await deps.db.selectFrom('communities').select('forum_all_posts_wait').where('id', '=', deps.community.id).executeTakeFirst();
  return row?.forum_all_posts_wait === true;
}

/** A search term: trimmed, at most STAFF_SEARCH_MAX characters, no control characters (field error `q`). */
export function searchTerm(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const q = value.trim();
  if (!q) return null;
  if (q.length > STAFF_SEARCH_MAX) throw new AppError('BadRequest.Validation', { fields: { q: { code: 'BadRequest.Validation', key: 'forumStaff.errors.searchTooLong', values: { max: STAFF_SEARCH_MAX } } } });
  if (hasForbiddenCharacters(q)) throw new AppError(INVALID_CHARACTERS_CODE, { fields: { q: { code: INVALID_CHARACTERS_CODE, key: INVALID_CHARACTERS_KEY } } });
  return q;
}

/** `%`, `_` and `\` match themselves in an ILIKE pattern. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/** The cursor of the staff's lists: the last row's id (targets.ts cursorId, the forum's one id-cursor parser). */
const afterId = (after: string | null): number | null => cursorId(after);

/** The posts staff see (every state, not those their authors deleted), with what a StaffPostRow shows. */
function staffPostRows(deps: StaffForumDeps) {
  return selectInCommunity(deps.db, 'forum_posts', deps.community)
    .innerJoin('users', 'users.id', 'forum_posts.author_id')
    .select([
      'forum_posts.id',
      'forum_posts.title',
      'forum_posts.author_id',
      'forum_posts.status',
      'forum_posts.pinned_at',
      'forum_posts.locked_at',
      'forum_posts.reply_count',
      'forum_posts.report_count',
      'forum_posts.created_at',
      'forum_posts.last_activity_at',
      'forum_posts.moderation_note',
      'users.first_name',
      'users.last_name',
    ])
    .where('forum_posts.deleted_at', 'is', null);
}

type StaffPostRecord = Awaited<ReturnType<ReturnType<typeof staffPostRows>['executeTakeFirstOrThrow']>>;

const staffPostRow = (r: StaffPostRecord): StaffPostRow => ({
  id: r.id,
  title: r.title,
  authorId: r.author_id,
  authorName: `${r.first_name} ${r.last_name}`.trim(),
  status: r.status,
  pinned: r.pinned_at !== null,
  locked: r.locked_at !== null,
  replyCount: r.reply_count,
  reportCount: r.report_count,
  createdAt: new Date(r.created_at),
  lastActivityAt: new Date(r.last_activity_at),
  moderationNote: r.moderation_note,
});

/** Every post of the community but those their authors deleted, newest first, any state; keyset on id. */
export async function staffPosts(deps: StaffForumDeps, query: StaffPostQuery): Promise<StaffPostPage> {
  const first = Math.min(Math.max(query.first ?? STAFF_POSTS_PAGE, 1), 100);
  const after = afterId(query.after);
  let qb = staffPostRows(deps)
    .orderBy('forum_posts.id', 'desc')
    .limit(first + 1);
  if (query.q) qb = qb.where('forum_posts.title', 'ilike', likePattern(query.q));
  if (query.status) qb = qb.where('forum_posts.status', '=', query.status);
  if (after !== null) qb = qb.where('forum_posts.id', '<', after);
  const rows = await qb.execute();
  const page = rows.slice(0, first);
  return {
    rows: page.map(staffPostRow),
    next: rows.length > first ? String(page[page.length - 1]!.id) : null,
  };
}

function memberRows(db: Db, community: Tenant) {
  return selectInCommunity(db, 'memberships', community)
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['memberships.user_id', 'memberships.is_active', 'memberships.is_moderator', 'users.first_name', 'users.last_name', 'users.email'])
    .orderBy('users.last_name')
    .orderBy('users.first_name')
    .orderBy('memberships.user_id');
}

const moderatorRow = (r: { user_id: number; is_active: boolean; is_moderator: boolean; first_name: string; last_name: string; email: string }): ModeratorRow => ({
  userId: r.user_id,
  name: `${r.first_name} ${r.last_name}`.trim(),
  email: r.email,
  isActive: r.is_active,
  isModerator: r.is_moderator,
});

/** The community's moderators (deactivated ones too, marked: staff may still remove the flag). */
export async function listModerators(deps: StaffForumDeps): Promise<ModeratorRow[]> {
  const rows = await memberRows(deps.db, deps.community).where('memberships.is_moderator', '=', true).limit(500).execute();
  return rows.map(moderatorRow);
}

/** Active members, not moderators yet, whose name or email holds the term: the ones staff may appoint. */
export async function moderatorCandidates(deps: StaffForumDeps, q: string): Promise<ModeratorRow[]> {
  const pattern = likePattern(q);
  const rows = await memberRows(deps.db, deps.community)
    .where('memberships.is_moderator', '=', false)
    .where('memberships.is_active', '=', true)
    .where((eb) =>
      eb.or([
        eb(sql`users.first_name || ' ' || users.last_name`, 'ilike', pattern),
        eb('users.email', 'ilike', pattern),
        eb('users.username', 'ilike', pattern),
      ]),
    )
    .limit(CANDIDATES_MAX)
    .execute();
  return rows.map(moderatorRow);
}

/** What an open report is about (to remove it with the staff's own reason), or null when it is not an open report of the community. */
export async function openReportTarget(deps: StaffForumDeps, reportId: number): Promise<{ kind: 'post' | 'reply'; id: number } | null> {
  const row = await selectInCommunity(deps.db, 'forum_reports', deps.community)
    .select(['target_kind', 'target_id'])
    .where('id', '=', reportId)
    .where('resolved_at', 'is', null)
    .executeTakeFirst();
  return row ? { kind: row.target_kind, id: row.target_id } : null;
}

export const STAFF_REPLIES_PAGE = 50;

export type StaffReplyRow = { id: number; authorName: string; bodyText: string; status: ForumStatus; createdAt: Date; moderationNote: string | null; reportCount: number };

/** One post (any state) as staff see it, or 'Forum.PostNotFound' (missing, deleted by its author, another community's). */
export async function staffPost(deps: StaffForumDeps, postId: number): Promise<StaffPostRow> {
  const row = await staffPostRows(deps).where('forum_posts.id', '=', postId).executeTakeFirst();
  if (!row) throw new AppError('Forum.PostNotFound');
  return staffPostRow(row);
}

/** A post's replies in every state (not those their authors deleted), oldest first; keyset on id. */
export async function staffReplies(deps: StaffForumDeps, postId: number, after: string | null): Promise<{ rows: StaffReplyRow[]; next: string | null }> {
  const from = afterId(after);
  let qb = selectInCommunity(deps.db, 'forum_replies', deps.community)
    .innerJoin('users', 'users.id', 'forum_replies.author_id')
    .select([
      'forum_replies.id',
      'forum_replies.body_text',
      'forum_replies.status',
      'forum_replies.created_at',
      'forum_replies.moderation_note',
      'forum_replies.report_count',
      'users.first_name',
      'users.last_name',
    ])
    .where('forum_replies.post_id', '=', postId)
    .where('forum_replies.deleted_at', 'is', null)
    .orderBy('forum_replies.id')
    .limit(STAFF_REPLIES_PAGE + 1);
  if (from !== null) qb = qb.where('forum_replies.id', '>', from);
  const rows = await qb.execute();
  const page = rows.slice(0, STAFF_REPLIES_PAGE);
  return {
    rows: page.map((r) => ({
      id: r.id,
      authorName: `${r.first_name} ${r.last_name}`.trim(),
      bodyText: r.body_text.length > 600 ? `${r.body_text.slice(0, 600)}…` : r.body_text,
      status: r.status,
      createdAt: new Date(r.created_at),
      moderationNote: r.moderation_note,
      reportCount: r.report_count,
    })),
    next: rows.length > STAFF_REPLIES_PAGE ? String(page[page.length - 1]!.id) : null,
  };
}
