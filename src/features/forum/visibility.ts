import type { Db } from '#src/db/index.ts';
import { selectInCommunity, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { ForumStatus, ForumTargetKind } from '#src/db/types.ts';
import { tableOf } from './targets.ts';

/**
 * A post's or reply's state changes (published, pending, rejected, removed) with the counts that
 * depend on it, in the caller's transaction. A post's `reply_count` counts its published, undeleted
 * replies: a reply leaving 'published' takes one off, one coming back adds one. The row is locked
 * first, so two moderators at once cannot both move it (the second sees the new state). `counts:
 * false` leaves the counts to the caller (a first publication: effects.ts publishEffects).
 */

export type Moved = { id: number; postId: number; authorId: number; previous: ForumStatus };

export async function moveStatus(
  trx: Db,
  community: Tenant,
  kind: ForumTargetKind,
  id: number,
  change: { from: readonly ForumStatus[]; to: ForumStatus; moderation?: { note: string | null; by: number; at: Date }; counts?: boolean },
): Promise<Moved | null> {
  const current =
    kind === 'post'
      ? await selectInCommunity(trx, 'forum_posts', community)
          .select(['id', 'id as post_id', 'author_id', 'status'])
          .where('id', '=', id)
          .where('deleted_at', 'is', null)
          .forUpdate()
          .executeTakeFirst()
      : await lockReply(trx, community, id);
  if (!current || !change.from.includes(current.status)) return null;
  const m = change.moderation;
  await updateInCommunity(trx, tableOf(kind), community)
    .set({ status: change.to, ...(m ? { moderation_note: m.note, moderated_by: m.by, moderated_at: m.at } : {}) })
    .where('id', '=', id)
    .execute();
  if (kind === 'reply' && change.counts !== false) {
    const delta = (change.to === 'published' ? 1 : 0) - (current.status === 'published' ? 1 : 0);
    if (delta !== 0) {
      await updateInCommunity(trx, 'forum_posts', community)
        .set((eb) => ({ reply_count: eb.fn('greatest', [eb('reply_count', '+', delta), eb.lit(0)]) }))
        .where('id', '=', current.post_id)
        .execute();
    }
  }
  return { id: current.id, postId: current.post_id, authorId: current.author_id, previous: current.status };
}

/** Resolves the open reports of one item (in the transaction of the decision on it); its open-report count goes back to zero. */
export async function resolveReportsOf(trx: Db, community: Tenant, kind: ForumTargetKind, id: number, by: number, resolution: 'dismissed' | 'removed', at: Date): Promise<number> {
  const resolved = await updateInCommunity(trx, 'forum_reports', community)
    .set({ resolved_at: at, resolved_by: by, resolution })
    .where('target_kind', '=', kind)
    .where('target_id', '=', id)
    .where('resolved_at', 'is', null)
    .returning('id')
    .execute();
  if (resolved.length > 0) {
    await updateInCommunity(trx, tableOf(kind), community).set({ report_count: 0 }).where('id', '=', id).execute();
  }
  return resolved.length;
}

/** A reply's row locked for a change, its post's row locked first (the order every forum write keeps). */
async function lockReply(trx: Db, community: Tenant, id: number) {
  const found = await selectInCommunity(trx, 'forum_replies', community).select('post_id').where('id', '=', id).executeTakeFirst();
  if (!found) return undefined;
  await lockPost(trx, community, found.post_id);
  return selectInCommunity(trx, 'forum_replies', community)
    .select(['id', 'post_id', 'author_id', 'status'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

/** Locks a reply's row alone; the caller has locked its post's row first. */
export async function lockReplyRow(trx: Db, community: Tenant, id: number): Promise<void> {
  await selectInCommunity(trx, 'forum_replies', community).select('id').where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Locks a post's row (before any of its replies': the order every forum write keeps, so none deadlock). */
export async function lockPost(trx: Db, community: Tenant, postId: number): Promise<void> {
  await selectInCommunity(trx, 'forum_posts', community).select('id').where('id', '=', postId).forUpdate().executeTakeFirst();
}
