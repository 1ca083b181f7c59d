import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import type { Db } from '#src/db/index.ts';
import type { ForumStatus, ForumTargetKind } from '#src/db/types.ts';
import { selectInCommunity, selectInCommunityAs, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { COMMUNITIES_CHANNEL } from '#src/features/communities/index.ts';
import { logAction, type ForumActionName } from './actions-log.ts';
import { ensureForumOn, forumTransaction, type ForumDeps, type ForumViewer } from './deps.ts';
import { REPORTS_TO_QUEUE } from './rules.ts';
import { checkModerationNote, ensureModerator, ensureStaff, loadTarget, missing, snapshotsOf, type Target } from './targets.ts';
import type { ForumScope, QueueItem } from './types.ts';
import { moderatesIn } from './scope.ts';
import { moveStatus, resolveReportsOf } from './visibility.ts';
import { postPath, publishEffects, replyPath } from './effects.ts';

/**
 * Moderation (issue 14, "Moderation"): moderators (the membership's `is_moderator`, read from the
 * database) and staff approve or reject what waits, remove and restore posts and replies, and lock
 * posts; staff alone pin posts and make every post wait. Each decision is one transaction: the state
 * change with its counts, the reports it settles, the log entry, and the author's notification (kind
 * 'forum', with the reason).
 */

export const QUEUE_MAX = 200;

/** What waits for a moderator: pending posts and replies, oldest first. */
export async function moderationQueue(deps: ForumDeps, viewer: ForumViewer): Promise<QueueItem[]> {
  ensureForumOn(deps.community);
  await ensureModerator(deps, viewer);
  const c = deps.community;
  const [posts, replies] = await Promise.all([
    selectInCommunity(deps.db, 'forum_posts', c)
      .select(['id', 'id as post_id', 'title', 'body_html', 'author_id', 'created_at', 'report_count'])
      .where('status', '=', 'pending')
      .where('deleted_at', 'is', null)
      .where('group_id', 'is', null)
      .orderBy('id', 'asc')
      .limit(QUEUE_MAX)
      .execute(),
    selectInCommunityAs(deps.db, 'forum_replies', 'r', c)
      .innerJoin('forum_posts as p', 'p.id', 'r.post_id')
      .select(['r.id', 'r.post_id', 'p.title', 'r.body_html', 'r.author_id', 'r.created_at', 'r.report_count'])
      .where('r.status', '=', 'pending')
      .where('r.deleted_at', 'is', null)
      .where('p.deleted_at', 'is', null)
      .where('p.status', '=', 'published')
      .where('p.group_id', 'is', null)
      .orderBy('r.id', 'asc')
      .limit(QUEUE_MAX)
      .execute(),
  ]);
  const rows = [...posts.map((r) => ({ ...r, kind: 'post' as const })), ...replies.map((r) => ({ ...r, kind: 'reply' as const }))]
    .sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime() || a.id - b.id)
    .slice(0, QUEUE_MAX);
  const member = await snapshotsOf(deps.db, c, rows.map((r) => r.author_id));
  // Sent back by reports: the log says so (the open-report count may since have dropped by a dismissal).
  const reported = new Set<string>();
  if (rows.length > 0) {
    const queued = await selectInCommunity(deps.db, 'forum_actions', c)
      .select(['target_kind', 'target_id'])
      .where('action', '=', 'queue_reported')
      .where((eb) =>
        eb.or([
          ...(posts.length ? [eb.and([eb('target_kind', '=', 'post'), eb('target_id', 'in', posts.map((p) => p.id))])] : []),
          ...(replies.length ? [eb.and([eb('target_kind', '=', 'reply'), eb('target_id', 'in', replies.map((r) => r.id))])] : []),
        ]),
      )
      .execute();
    for (const q of queued) reported.add(`${q.target_kind}:${q.target_id}`);
  }
  return rows.map((r) => ({
    targetKind: r.kind,
    id: r.id,
    postId: r.post_id,
    postTitle: r.title,
    bodyHtml: r.body_html,
    author: member(r.author_id),
    createdAt: new Date(r.created_at),
    reportCount: r.report_count,
    why: reported.has(`${r.kind}:${r.id}`) || r.report_count >= REPORTS_TO_QUEUE ? 'reported' : c.forum_all_posts_wait ? 'all_wait' : 'new_member',
  }));
}

type Decision = {
  from: readonly ForumStatus[];
  to: ForumStatus;
  action: ForumActionName;
  note: string | null;
  /** How the item's open reports end, if they do. */
  reports: 'dismissed' | 'removed' | null;
  /** The author's notification: forumAdmin.notify.<key>. */
  notify: 'approved' | 'rejected' | 'removed' | 'restored';
};

/**
 * Whether a waiting item was public before: sent back to the queue by members' reports (the log
 * says so). Approving it again only puts it back; approving what never was public also runs its
 * deferred effects (CORE's publishEffects: counts, activity, followers, mentions).
 */
async function wasQueuedByReports(trx: Db, community: Tenant, kind: ForumTargetKind, id: number): Promise<boolean> {
  const row = await selectInCommunity(trx, 'forum_actions', community)
    .select('id')
    .where('action', '=', 'queue_reported')
    .where('target_kind', '=', kind)
    .where('target_id', '=', id)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * How a removed item was last removed: 'remove_waiting' when it was taken down while waiting for its
 * first approval (never public), so that a restore puts it back in the queue, not on the forum.
 */
async function lastRemoval(trx: Db, community: Tenant, kind: ForumTargetKind, id: number): Promise<ForumActionName | null> {
  const row = await selectInCommunity(trx, 'forum_actions', community)
    .select('action')
    .where('action', 'in', ['remove', 'remove_waiting'])
    .where('target_kind', '=', kind)
    .where('target_id', '=', id)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return (row?.action as ForumActionName | undefined) ?? null;
}

async function decide(deps: ForumDeps, viewer: ForumViewer, kind: ForumTargetKind, id: number, d: Decision, scope?: ForumScope): Promise<void> {
  ensureForumOn(deps.community);
  // In a group's discussion its chairs moderate (and staff); in the forum its moderators.
  if (scope) {
    if (!scope.canRead) throw missing(kind);
    if (!moderatesIn(viewer, scope, false)) throw new AppError('Forum.NotModerator');
  } else await ensureModerator(deps, viewer);
  const c = deps.community;
  const target = await loadTarget(deps.db, c, kind, id);
  if (target.deleted || (kind === 'reply' && target.postDeleted)) throw missing(kind);
  // A group's post is moderated in its group (staff may also act on it from the forum's staff pages).
  if (scope ? target.groupId !== scope.groupId : target.groupId != null && !viewer.isStaff) throw missing(kind);
  // No one judges their own waiting post or reply.
  if ((d.action === 'approve' || d.action === 'reject') && target.authorId === viewer.userId) throw new AppError('Forum.NotModerator');
  const now = deps.clock.now();
  await forumTransaction(deps.db, async (trx) => {
    let to = d.to;
    let action = d.action;
    // What was removed while waiting for its first approval goes back to the queue, not on the forum.
    if (d.action === 'restore' && (await lastRemoval(trx, c, kind, id)) === 'remove_waiting') to = 'pending';
    // A first publication's counts are publishEffects' to change; every other move keeps them here.
    const firstPublication = d.action === 'approve' && !(await wasQueuedByReports(trx, c, kind, id));
    const moved = await moveStatus(trx, c, kind, id, { from: d.from, to, moderation: { note: d.note, by: viewer.userId, at: now }, counts: !firstPublication });
    if (!moved) throw new AppError('Forum.AlreadyModerated');
    // A reply goes public only under a public post (checked under the post's lock, which moveStatus took).
    if (kind === 'reply' && to === 'published') {
      const post = await selectInCommunity(trx, 'forum_posts', c).select(['status', 'deleted_at']).where('id', '=', moved.postId).executeTakeFirst();
      if (!post || post.status !== 'published' || post.deleted_at != null) throw new AppError('Forum.PostNotFound');
    }
    // Waiting and not sent back by reports: it never was public (a restore puts it back in the queue).
    if (d.action === 'remove' && moved.previous === 'pending' && !(await wasQueuedByReports(trx, c, kind, id))) action = 'remove_waiting';
    if (d.reports) await resolveReportsOf(trx, c, kind, id, viewer.userId, d.reports, now);
    await logAction(trx, c, { actorId: viewer.userId, action, targetKind: kind, targetId: id, note: d.note, at: now });
    if (firstPublication) await publishEffects(trx, deps, kind, id);
    if (moved.authorId !== viewer.userId) await notifyAuthor(trx, deps, target, d, now);
  });
}

async function notifyAuthor(trx: Db, deps: ForumDeps, target: Target, d: Decision, at: Date): Promise<void> {
  await deps.notifier.notify(trx, {
    communityId: deps.community.id,
    userId: target.authorId,
    kind: 'forum',
    url: target.kind === 'reply' ? replyPath(target.postId, target.id) : postPath(target.postId),
    message: deps.t(`forumAdmin.notify.${d.notify}`, { kind: target.kind, title: target.title, reason: d.note ?? '', hasReason: d.note ? 'yes' : 'no' }),
    createdAt: at,
  });
}

/** Publishes a waiting post or reply (with an optional note to its author); anything else is 'Forum.AlreadyModerated'. */
export async function approve(deps: ForumDeps, viewer: ForumViewer, kind: ForumTargetKind, id: number, note?: unknown): Promise<void> {
  const n = checkModerationNote(note, { required: false, field: 'note' });
  await decide(deps, viewer, kind, id, { from: ['pending'], to: 'published', action: 'approve', note: n, reports: 'dismissed', notify: 'approved' });
}

/** Refuses a waiting post or reply; the reason is required and sent to its author. */
export async function reject(deps: ForumDeps, viewer: ForumViewer, kind: ForumTargetKind, id: number, reason: unknown): Promise<void> {
  const n = checkModerationNote(reason, { required: true });
  await decide(deps, viewer, kind, id, { from: ['pending'], to: 'rejected', action: 'reject', note: n, reports: 'removed', notify: 'rejected' });
}

/** Takes a published or waiting post or reply down (restorable); the author is told why. */
export async function removeContent(deps: ForumDeps, viewer: ForumViewer, kind: ForumTargetKind, id: number, reason: unknown, scope?: ForumScope): Promise<void> {
  const n = checkModerationNote(reason, { required: true });
  await decide(deps, viewer, kind, id, { from: ['published', 'pending'], to: 'removed', action: 'remove', note: n, reports: 'removed', notify: 'removed' }, scope);
}

/** Puts a removed post or reply back; the author is told. */
export async function restoreContent(deps: ForumDeps, viewer: ForumViewer, kind: ForumTargetKind, id: number, scope?: ForumScope): Promise<void> {
  await decide(deps, viewer, kind, id, { from: ['removed'], to: 'published', action: 'restore', note: null, reports: null, notify: 'restored' }, scope);
}

async function livePost(deps: ForumDeps, viewer: ForumViewer, postId: number): Promise<void> {
  const post = await loadTarget(deps.db, deps.community, 'post', postId);
  // A group's post is its chairs' to moderate: to the forum's moderators it does not exist (staff may act from the forum's staff pages).
  if (post.deleted || (post.groupId != null && !viewer.isStaff)) throw missing('post');
}

/**
 * Sets (now) or clears a live post's lock or pin; only a change is logged (as `action`). The caller
 * checks who may.
 */
async function setPostFlag(deps: ForumDeps, viewer: ForumViewer, postId: number, column: 'locked_at' | 'pinned_at', action: 'lock' | 'unlock' | 'pin' | 'unpin', on: boolean): Promise<void> {
  await livePost(deps, viewer, postId);
  const now = deps.clock.now();
  const at = on ? now : null;
  await forumTransaction(deps.db, async (trx) => {
    const changed = await updateInCommunity(trx, 'forum_posts', deps.community)
      .set(column === 'locked_at' ? { locked_at: at } : { pinned_at: at })
      .where('id', '=', postId)
      .where(column, on ? 'is' : 'is not', null)
      .returning('id')
      .executeTakeFirst();
    if (changed) await logAction(trx, deps.community, { actorId: viewer.userId, action, targetKind: 'post', targetId: postId, at: now });
  });
}

/** Locks (no new replies) or unlocks a post; moderators and staff. */
export async function setLocked(deps: ForumDeps, viewer: ForumViewer, postId: number, on: boolean): Promise<{ locked: boolean }> {
  ensureForumOn(deps.community);
  await ensureModerator(deps, viewer);
  await setPostFlag(deps, viewer, postId, 'locked_at', on ? 'lock' : 'unlock', on);
  return { locked: on };
}

/** Pins a post above the list (or unpins it); staff only. */
export async function setPinned(deps: ForumDeps, viewer: ForumViewer, postId: number, on: boolean): Promise<{ pinned: boolean }> {
  ensureForumOn(deps.community);
  ensureStaff(viewer);
  await setPostFlag(deps, viewer, postId, 'pinned_at', on ? 'pin' : 'unpin', on);
  return { pinned: on };
}

/**
 * Makes every new post wait for a moderator (or not); staff only. Communities are cached by every
 * node: the change is announced in its transaction (communities_changed) and the caller empties its
 * own process's cache (`app.communities.invalidate()`).
 */
export async function setAllPostsWait(deps: ForumDeps, viewer: ForumViewer, on: boolean): Promise<{ allPostsWait: boolean }> {
  ensureForumOn(deps.community);
  ensureStaff(viewer);
  const now = deps.clock.now();
  await forumTransaction(deps.db, async (trx) => {
    const changed = await trx
      .updateTable('communities')
      .set({ forum_all_posts_wait: on })
      .where('id', '=', deps.community.id)
      .where('forum_all_posts_wait', '=', !on)
      .returning('id')
      .executeTakeFirst();
    if (!changed) return;
    await logAction(trx, deps.community, { actorId: viewer.userId, action: on ? 'all_posts_wait_on' : 'all_posts_wait_off', targetKind: 'community', targetId: deps.community.id, at: now });
    await sql`select pg_notify(${COMMUNITIES_CHANNEL}, '')`.execute(trx);
  });
  return { allPostsWait: on };
}
