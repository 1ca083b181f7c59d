import type { Db } from '#src/db/index.ts';
import { insertInCommunity, selectInCommunityAs, type Tenant } from '#src/db/tenancy.ts';
import { ensureForumOn, type ForumDeps, type ForumViewer } from './deps.ts';
import { cursorId, ensureStaff } from './targets.ts';
import type { ForumActionView } from './types.ts';

/**
 * The log of the forum's moderation and staff actions (issue 14: "each action recorded with who and
 * when"). Every action appends its row in the transaction of the change itself, so the log holds
 * exactly what happened.
 */

export type ForumActionName =
  | 'approve'
  | 'reject'
  | 'remove'
  | 'remove_waiting'
  | 'restore'
  | 'lock'
  | 'unlock'
  | 'pin'
  | 'unpin'
  | 'queue_reported'
  | 'report_dismissed'
  | 'report_removed'
  | 'topic_create'
  | 'topic_rename'
  | 'topic_move'
  | 'topic_archive'
  | 'topic_unarchive'
  | 'all_posts_wait_on'
  | 'all_posts_wait_off';

export type ForumActionEntry = {
  /** Null for what the forum did by itself (a post reported by several members goes back to the queue). */
  actorId: number | null;
  action: ForumActionName;
  targetKind: 'post' | 'reply' | 'topic' | 'report' | 'community';
  targetId: number;
  note?: string | null;
  at: Date;
};

/** Appends one entry; `trx` is the transaction of the action. */
export async function logAction(trx: Db, community: Tenant, entry: ForumActionEntry): Promise<void> {
  await insertInCommunity(trx, 'forum_actions', community, {
    actor_id: entry.actorId,
    action: entry.action,
    target_kind: entry.targetKind,
    target_id: entry.targetId,
    note: entry.note ?? null,
    created_at: entry.at,
  }).execute();
}

export const ACTIONS_PAGE_SIZE = 50;

/** The log, newest first, keyset on id (`next` is the cursor of the next page); staff only. */
export async function listActions(deps: ForumDeps, viewer: ForumViewer, { after, first }: { after?: unknown; first?: number } = {}): Promise<{ actions: ForumActionView[]; next: string | null }> {
  ensureForumOn(deps.community);
  ensureStaff(viewer);
  const before = cursorId(after);
  const size = Math.min(Math.max(Math.trunc(first ?? ACTIONS_PAGE_SIZE) || ACTIONS_PAGE_SIZE, 1), 100);
  let q = selectInCommunityAs(deps.db, 'forum_actions', 'a', deps.community)
    .leftJoin('users as u', 'u.id', 'a.actor_id')
    .select(['a.id', 'a.actor_id', 'u.first_name', 'u.last_name', 'a.action', 'a.target_kind', 'a.target_id', 'a.note', 'a.created_at'])
    .orderBy('a.id', 'desc')
    .limit(size + 1);
  if (before != null) q = q.where('a.id', '<', before);
  const rows = await q.execute();
  const page = rows.slice(0, size);
  return {
    actions: page.map((r) => ({
      id: r.id,
      actor: r.actor_id != null ? { id: r.actor_id, name: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() } : null,
      action: r.action,
      targetKind: r.target_kind,
      targetId: r.target_id,
      note: r.note,
      createdAt: new Date(r.created_at),
    })),
    next: rows.length > size ? String(page[page.length - 1]!.id) : null,
  };
}
