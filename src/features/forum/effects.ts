import { AppError } from '#src/core/errors.ts';
import type { Db } from '#src/db/index.ts';
import type { ForumTargetKind } from '#src/db/types.ts';
import { insertInCommunity, selectInCommunity, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { ForumDeps, ForumViewer } from './deps.ts';
import { notifyMentions } from './mentions.ts';
import { REPLY_NOTICES_JOB, type ReplyNoticesJob } from './notices.ts';
import { postPath } from './paths.ts';
import { recountReplies } from './queries.ts';
import { NEW_MEMBER_MS } from './rules.ts';

/**
 * What happens when a post or reply becomes visible: counts, activity, notifications. Run at once for
 * what is published on creation, and by moderation's approve() for what waited.
 */

export { postPath, replyPath } from './paths.ts';

/** The author as posting needs them: active member of the community, whether they must wait, their name. */
export type Author = { id: number; name: string; waits: boolean };

/**
 * The acting member's membership (authoritative, from the database): an inactive or absent one is
 * Forbidden. A new member's (joined less than NEW_MEMBER_MS ago) posts and replies wait for a
 * moderator, and so do everyone's posts (not replies) where the community has every post wait
 * (decision 0031); staff and moderators never wait.
 */
export async function authorOf(deps: ForumDeps, viewer: ForumViewer, kind: ForumTargetKind, scope?: { groupId: number }): Promise<Author> {
  const row = await selectInCommunity(deps.db, 'memberships', deps.community)
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.first_name', 'users.last_name', 'memberships.joined_at', 'memberships.is_moderator'])
    .where('memberships.user_id', '=', viewer.userId)
    .where('memberships.is_active', '=', true)
    .where('users.is_active', '=', true)
    .executeTakeFirst();
  if (!row) throw new AppError('Forbidden');
  const trusted = viewer.isStaff || row.is_moderator;
  const isNew = deps.clock.now().getTime() - new Date(row.joined_at).getTime() < NEW_MEMBER_MS;
  const allWait = kind === 'post' && deps.community.forum_all_posts_wait;
  // In a group's discussion nothing waits: its chairs moderate what is published (decision 0056).
  return { id: viewer.userId, name: `${row.first_name} ${row.last_name}`.trim(), waits: !scope && !trusted && (allWait || isNew) };
}

/**
 * The effects of a post or reply becoming published: **call it in the transaction that sets its
 * status to 'published'** (createPost/createReply do so for what is published at once; moderation's
 * approve() for what waited). For a post: its @mentions are notified. For a reply: the post's
 * last activity moves to now and its reply_count is recounted (published, not deleted replies; the
 * update locks the post row), and REPLY_NOTICES_JOB is enqueued in the same transaction: the job tells
 * the post's followers (the replier never) and the members it mentions, each once (notices.ts).
 * Reads the item itself; does not check its status.
 */
export async function publishEffects(trx: Db, deps: ForumDeps, kind: ForumTargetKind, id: number): Promise<void> {
  const community = deps.community;
  if (kind === 'post') {
    const post = await selectInCommunity(trx, 'forum_posts', community)
      .innerJoin('users', 'users.id', 'forum_posts.author_id')
      .select(['forum_posts.id', 'forum_posts.author_id', 'forum_posts.title', 'forum_posts.body_text', 'forum_posts.group_id', 'users.first_name', 'users.last_name'])
      .where('forum_posts.id', '=', id)
      .executeTakeFirst();
    if (!post) throw new AppError('Forum.PostNotFound');
    await notifyMentions(trx, deps, {
      authorId: post.author_id,
      authorName: `${post.first_name} ${post.last_name}`.trim(),
      title: post.title,
      url: postPath(post.id),
      text: `${post.title}\n${post.body_text}`,
      groupId: post.group_id,
    });
    return;
  }
  const reply = await selectInCommunity(trx, 'forum_replies', community)
    .select(['forum_replies.id', 'forum_replies.post_id'])
    .where('forum_replies.id', '=', id)
    .executeTakeFirst();
  if (!reply) throw new AppError('Forum.ReplyNotFound');
  const post = await updateInCommunity(trx, 'forum_posts', community)
    .set({ last_activity_at: deps.clock.now() })
    .where('id', '=', reply.post_id)
    .returning(['id'])
    .executeTakeFirst();
  if (!post) throw new AppError('Forum.PostNotFound');
  // Counted, not incremented: right whatever path led here (a new reply, an approval, a re-approval).
  await recountReplies(trx, community, post.id);
  const job: ReplyNoticesJob = { communityId: community.id, replyId: reply.id };
  await deps.jobs.enqueue(trx, REPLY_NOTICES_JOB, job);
}

/** The author follows what they write or reply to (idempotent). */
export async function follow(trx: Db, community: Tenant, postId: number, userId: number, now: Date): Promise<void> {
  await insertInCommunity(trx, 'forum_follows', community, { post_id: postId, user_id: userId, created_at: now })
    .onConflict((oc) => oc.columns(['post_id', 'user_id']).doNothing())
    .execute();
}
