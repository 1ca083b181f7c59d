import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { selectInCommunity } from '#src/db/tenancy.ts';
import { ensureForumOn, type ForumDeps, type ForumViewer } from './deps.ts';
import { activityKeyColumn, decodeActivityCursor, encodeCursor, excerptColumn, pageSize, postsWithReads, readColumns, SUMMARY_COLUMNS, toSummary, topicsFromJson, topicsJsonColumn, type SummaryRow } from './queries.ts';
import { LIST_PAGE_SIZE } from './rules.ts';
import type { ForumScope, PostSummary } from './types.ts';

/**
 * A group's discussion as the forum serves it (decision 0056): the group's posts, newest activity
 * first, keyset pages as the forum's list (the same PostSummary), in the scope the groups area gives.
 * Writing, reading one post and its replies, and moderation are the forum's own services with that
 * scope (posts.ts, replies.ts, moderation.ts).
 */

/** A page of a group's published posts (and the viewer's own waiting ones, and every one for its moderators). */
export async function listGroupPosts(deps: ForumDeps, viewer: ForumViewer, scope: ForumScope, q: { after?: string | null; first?: number } = {}): Promise<{ posts: PostSummary[]; next: string | null }> {
  ensureForumOn(deps.community);
  if (!scope.canRead) throw new AppError('Forum.PostNotFound');
  const first = pageSize(q.first, LIST_PAGE_SIZE);
  const after = decodeActivityCursor(q.after);
  let page = postsWithReads(deps.db, deps.community, viewer.userId)
    .select((eb) => [...SUMMARY_COLUMNS, excerptColumn(eb), activityKeyColumn(), topicsJsonColumn(deps.community, 'forum_posts.id').as('topics_json'), ...readColumns(deps.community, viewer.userId)])
    .where('forum_posts.group_id', '=', scope.groupId)
    .where('forum_posts.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('forum_posts.status', '=', 'published'), eb.and([eb('forum_posts.status', 'in', ['pending', 'removed', 'rejected']), eb('forum_posts.author_id', '=', viewer.userId)])]));
  if (after) page = page.where(sql<boolean>`(forum_posts.last_activity_at, forum_posts.id) < (cast(${after.at} as timestamptz), ${after.id})`);
  const rows = await page.orderBy('forum_posts.last_activity_at', 'desc').orderBy('forum_posts.id', 'desc').limit(first + 1).execute();
  const shown = rows.slice(0, first);
  const last = shown[shown.length - 1];
  const formerMember = deps.t('forum.formerMember');
  return {
    posts: shown.map((r) => toSummary(r as SummaryRow, topicsFromJson(r.topics_json), formerMember)),
    next: rows.length > first && last ? encodeCursor([last.activity_key, last.id]) : null,
  };
}

/** The group of a post (for the forum's own page to send a group's post to its group), or null. */
export async function groupOfPost(deps: Pick<ForumDeps, 'db' | 'community'>, postId: number): Promise<number | null> {
  const row = await selectInCommunity(deps.db, 'forum_posts', deps.community).select('group_id').where('id', '=', postId).where('deleted_at', 'is', null).executeTakeFirst();
  return row?.group_id ?? null;
}

/**
 * Where the forum's own post page (/forum/post/{id}) sends a group's post: the groups area registers
 * the path of its post page (which checks the group's visibility itself and answers 404 to anyone who
 * may not read it). Registered once per process by the groups area's routes; the forum never imports
 * the groups area.
 */
export type GroupPostPath = (deps: Pick<ForumDeps, 'db' | 'community'>, viewer: ForumViewer, groupId: number, postId: number) => Promise<string | null>;
let groupPostPath: GroupPostPath | null = null;
export function serveGroupPostsAt(path: GroupPostPath): void {
  groupPostPath = path;
}

/** The group's own page of a post for this viewer, or null (not a group's post, or they may not read it: the same 404). */
export async function groupPostPathFor(deps: Pick<ForumDeps, 'db' | 'community'>, viewer: ForumViewer, postId: number): Promise<string | null> {
  if (!groupPostPath) return null;
  const groupId = await groupOfPost(deps, postId);
  return groupId == null ? null : groupPostPath(deps, viewer, groupId, postId);
}
