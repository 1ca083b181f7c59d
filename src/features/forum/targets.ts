import { AppError } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import { parseId } from '#src/core/ids.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, selectInCommunityAs, type Tenant } from '#src/db/tenancy.ts';
import type { ForumStatus, ForumTargetKind } from '#src/db/types.ts';
import { isModerator, type ForumDeps, type ForumViewer } from './deps.ts';
import { MODERATION_NOTE_MAX } from './rules.ts';

/**
 * The small shared reads of the forum's actions (likes, reactions, follows, reports, moderation): the
 * post or reply acted on, loaded in the community; who may moderate; the members shown with an item.
 * Kept apart from the reading services (queries.ts) so that the actions depend on them for nothing.
 */

/** A post or reply as the actions see it: its state, its author, its post. */
export type Target = {
  kind: ForumTargetKind;
  id: number;
  postId: number;
  authorId: number;
  status: ForumStatus;
  deleted: boolean;
  /** The post's title (of the reply's post for a reply). */
  title: string;
  bodyText: string;
  bodyHtml: string;
  createdAt: Date;
  reportCount: number;
  /** The post's own state, for a reply: a reply of a hidden post is hidden too. */
  postStatus: ForumStatus;
  postDeleted: boolean;
  postLocked: boolean;
  /** The group whose discussion it is in (its post's), or null: the forum's own. */
  groupId: number | null;
};

/** A target kind from a transport ('post' | 'reply', any case); anything else is NotFound. */
export function targetKindOf(v: unknown): ForumTargetKind {
  const s = typeof v === 'string' ? v.toLowerCase() : '';
  if (s === 'post' || s === 'reply') return s;
  throw new AppError('NotFound');
}

/** The table of a post or reply. */
export const tableOf = (kind: ForumTargetKind) => (kind === 'post' ? ('forum_posts' as const) : ('forum_replies' as const));

export const missing = (kind: ForumTargetKind) => new AppError(kind === 'post' ? 'Forum.PostNotFound' : 'Forum.ReplyNotFound');

/** The post or reply in this community, whatever its state; 'Forum.PostNotFound' / 'Forum.ReplyNotFound' when there is none. */
export async function loadTarget(db: Db, community: Tenant, kind: ForumTargetKind, id: number): Promise<Target> {
  // A post is its own post: its columns stand for the post's too (post_id, post_status, post_deleted_at).
  const row =
    kind === 'post'
      ? await selectInCommunity(db, 'forum_posts', community)
          .select([
            'id',
            'id as post_id',
            'author_id',
            'status',
            'deleted_at',
            'body_text',
            'body_html',
            'created_at',
            'report_count',
            'title',
            'status as post_status',
            'deleted_at as post_deleted_at',
            'locked_at',
            'group_id',
          ])
          .where('id', '=', id)
          .executeTakeFirst()
      : await selectInCommunityAs(db, 'forum_replies', 'r', community)
          .innerJoin('forum_posts as p', 'p.id', 'r.post_id')
          .select([
            'r.id',
            'r.post_id',
            'r.author_id',
            'r.status',
            'r.deleted_at',
            'r.body_text',
            'r.body_html',
            'r.created_at',
            'r.report_count',
            'p.title',
            'p.status as post_status',
            'p.deleted_at as post_deleted_at',
            'p.locked_at',
            'p.group_id',
          ])
          .where('p.community_id', '=', community.id)
          .where('r.id', '=', id)
          .executeTakeFirst();
  if (!row) throw missing(kind);
  return {
    kind,
    id: row.id,
    postId: row.post_id,
    authorId: row.author_id,
    status: row.status,
    deleted: row.deleted_at != null,
    title: row.title,
    bodyText: row.body_text,
    bodyHtml: row.body_html,
    createdAt: new Date(row.created_at),
    reportCount: row.report_count,
    postStatus: row.post_status,
    postDeleted: row.post_deleted_at != null,
    postLocked: row.locked_at != null,
    groupId: row.group_id ?? null,
  };
}

/** Whether every member sees it: published and not deleted, and so is its post. */
export const isPublic = (t: Target) => t.status === 'published' && !t.deleted && t.postStatus === 'published' && !t.postDeleted;

/** The target as members act on it (like, react, follow, report): it must be public, else not found. */
export async function loadPublicTarget(db: Db, community: Tenant, kind: ForumTargetKind, id: number): Promise<Target> {
  const target = await loadTarget(db, community, kind, id);
  // A group's discussion has no likes, reactions, follows or reports of the forum (decision 0056).
  if (!isPublic(target) || target.groupId != null) throw missing(kind);
  return target;
}

/** Moderators (memberships.is_moderator, read from the database) and staff; else 'Forum.NotModerator'. */
export async function ensureModerator(deps: ForumDeps, viewer: ForumViewer): Promise<void> {
  if (!(await isModerator(deps, viewer))) throw new AppError('Forum.NotModerator');
}

/** Staff only (pins, topics, the every-post-waits setting, the log). */
export function ensureStaff(viewer: ForumViewer): void {
  if (!viewer.isStaff) throw new AppError('Forbidden');
}

const fieldError = (field: string, key: string, values?: Record<string, unknown>) =>
  new AppError('Forum.Invalid', { fields: { [field]: { code: 'Forum.Invalid', key, values } } });
export { fieldError as forumFieldError };

/** A moderator's note or reason: trimmed, at most MODERATION_NOTE_MAX characters, required when `required`. */
export function checkModerationNote(value: unknown, { required, field = 'reason' }: { required: boolean; field?: string }): string | null {
  if (value != null && typeof value !== 'string') throw fieldError(field, 'forum.errors.moderationReasonRequired');
  ensureText({ [field]: value }, [field]);
  const note = (value ?? '').trim();
  if (!note) {
    if (required) throw fieldError(field, 'forum.errors.moderationReasonRequired');
    return null;
  }
  if (note.length > MODERATION_NOTE_MAX) throw fieldError(field, 'forumAdmin.errors.noteTooLong', { max: MODERATION_NOTE_MAX });
  return note;
}

/** The snapshots of members by id in one query (the members area's, shared with introductions). */
export { snapshotsOf } from '#src/features/members/index.ts';

/** Whether a value is an id cursor: a database id (1..2147483647) as text, no leading zero. */
export const isIdCursor = (after: unknown): after is string => typeof after === 'string' && parseId(after) !== null;

/** A keyset cursor of these lists: the last id of the page, as text. Anything else is a 400. */
export function cursorId(after: unknown): number | null {
  if (after == null || after === '') return null;
  if (!isIdCursor(after)) throw new AppError('Forum.Invalid');
  return Number(after);
}
