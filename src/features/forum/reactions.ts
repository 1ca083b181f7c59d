import { AppError, isAppError } from '#src/core/errors.ts';
import type { Db } from '#src/db/index.ts';
import type { ForumTargetKind } from '#src/db/types.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { ensureForumOn, forumTransaction, type ForumDeps, type ForumViewer } from './deps.ts';
import { reactionsOf } from './queries.ts';
import { isReaction } from './rules.ts';
import { forumFieldError, loadPublicTarget, loadTarget, missing, tableOf } from './targets.ts';
import type { ReactionCount } from './types.ts';

/**
 * Likes, reactions and follows (issue 14, "A post"). Each is one row per member (the table's primary
 * key), written with `insert ... on conflict do nothing` or a delete, and the like count on the post
 * or reply changes only when a row was really inserted or deleted, in the same transaction: twenty
 * clicks at once like once and count one.
 */

export type LikeResult = { likeCount: number; likedByMe: boolean };

async function likeCountOf(trx: Db, community: Tenant, kind: ForumTargetKind, id: number): Promise<number> {
  const row = await selectInCommunity(trx, tableOf(kind), community).select('like_count').where('id', '=', id).executeTakeFirstOrThrow();
  return row.like_count;
}

async function setLike(deps: ForumDeps, viewer: ForumViewer, kind: ForumTargetKind, id: number, on: boolean): Promise<LikeResult> {
  ensureForumOn(deps.community);
  const c = deps.community;
  await loadPublicTarget(deps.db, c, kind, id);
  try {
    return await forumTransaction(deps.db, async (trx) => {
      if (on) {
        const inserted = await insertInCommunity(trx, 'forum_likes', c, { target_kind: kind, target_id: id, user_id: viewer.userId, created_at: deps.clock.now() })
          .onConflict((oc) => oc.columns(['target_kind', 'target_id', 'user_id']).doNothing())
          .returning('user_id')
          .executeTakeFirst();
        if (!inserted) return { likeCount: await likeCountOf(trx, c, kind, id), likedByMe: true };
        const row = await updateInCommunity(trx, tableOf(kind), c)
          .set((eb) => ({ like_count: eb('like_count', '+', 1) }))
          .where('id', '=', id)
          .returning('like_count')
          .executeTakeFirstOrThrow();
        return { likeCount: row.like_count, likedByMe: true };
      }
      const deleted = await deleteInCommunity(trx, 'forum_likes', c)
        .where('target_kind', '=', kind)
        .where('target_id', '=', id)
        .where('user_id', '=', viewer.userId)
        .returning('user_id')
        .executeTakeFirst();
      if (!deleted) return { likeCount: await likeCountOf(trx, c, kind, id), likedByMe: false };
      const row = await updateInCommunity(trx, tableOf(kind), c)
        .set((eb) => ({ like_count: eb.fn('greatest', [eb('like_count', '-', 1), eb.lit(0)]) }))
        .where('id', '=', id)
        .returning('like_count')
        .executeTakeFirstOrThrow();
      return { likeCount: row.like_count, likedByMe: false };
    });
  } catch (e) {
    // A deadlock, a serialisation failure, a dropped connection: the member sees the spec's message
    // ('Failed to like, please try again shortly') and may click again; nothing was half done.
    if (isAppError(e)) throw e;
    throw new AppError('Forum.LikeFailed', { cause: e });
  }
}

export const likePost = (deps: ForumDeps, viewer: ForumViewer, postId: number) => setLike(deps, viewer, 'post', postId, true);
export const unlikePost = (deps: ForumDeps, viewer: ForumViewer, postId: number) => setLike(deps, viewer, 'post', postId, false);
export const likeReply = (deps: ForumDeps, viewer: ForumViewer, replyId: number) => setLike(deps, viewer, 'reply', replyId, true);
export const unlikeReply = (deps: ForumDeps, viewer: ForumViewer, replyId: number) => setLike(deps, viewer, 'reply', replyId, false);

/** Gives (`on`) or takes back one reaction of the fixed set on a post or reply; returns the new counts. */
export async function react(deps: ForumDeps, viewer: ForumViewer, kind: ForumTargetKind, id: number, reaction: unknown, on: boolean): Promise<ReactionCount[]> {
  ensureForumOn(deps.community);
  const c = deps.community;
  if (!isReaction(reaction)) throw forumFieldError('reaction', 'forumAdmin.errors.unknownReaction');
  await loadPublicTarget(deps.db, c, kind, id);
  if (on) {
    await insertInCommunity(deps.db, 'forum_reactions', c, { target_kind: kind, target_id: id, user_id: viewer.userId, reaction, created_at: deps.clock.now() })
      .onConflict((oc) => oc.columns(['target_kind', 'target_id', 'user_id', 'reaction']).doNothing())
      .execute();
  } else {
    await deleteInCommunity(deps.db, 'forum_reactions', c)
      .where('target_kind', '=', kind)
      .where('target_id', '=', id)
      .where('user_id', '=', viewer.userId)
      .where('reaction', '=', reaction)
      .execute();
  }
  return (await reactionsOf(deps.db, c, kind, [id], viewer.userId)).get(id) ?? [];
}

/** Follows (`on`) or stops following a post: followers hear of new replies. */
export async function followPost(deps: ForumDeps, viewer: ForumViewer, postId: number, on: boolean): Promise<{ followedByMe: boolean }> {
  ensureForumOn(deps.community);
  const c = deps.community;
  // One may stop following a post that has since been hidden; following needs a post everyone sees.
  // A group's post is neither followed nor unfollowed here (its authors follow it by writing): the
  // same 404 as every other forum action on a group's post, so nobody learns it exists (decision 0056).
  if (on) await loadPublicTarget(deps.db, c, 'post', postId);
  else if ((await loadTarget(deps.db, c, 'post', postId)).groupId != null) throw missing('post');
  if (on) {
    await insertInCommunity(deps.db, 'forum_follows', c, { post_id: postId, user_id: viewer.userId, created_at: deps.clock.now() })
      .onConflict((oc) => oc.columns(['post_id', 'user_id']).doNothing())
      .execute();
  } else {
    await deleteInCommunity(deps.db, 'forum_follows', c).where('post_id', '=', postId).where('user_id', '=', viewer.userId).execute();
  }
  return { followedByMe: on };
}
