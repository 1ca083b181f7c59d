import type { Db } from '#src/db/index.ts';
import { insertInCommunity, selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { ForumDeps } from './deps.ts';
import { replyPath } from './paths.ts';
import { resolveMentions } from './mentions.ts';
import { readsGroup } from './scope.ts';

/**
 * The notices of a published reply: the post's followers hear that someone replied, the members it
 * mentions (who do not follow) that they were mentioned; its author never. publishEffects enqueues
 * REPLY_NOTICES_JOB in the transaction that publishes the reply (the job exists exactly when the
 * reply does); the job makes the notifications, one transaction for all of them.
 *
 * Idempotent: each (reply, member) is written to forum_reply_notices in the transaction of that
 * member's notification, so a job run again (a retry after a crash, a second copy) tells nobody twice.
 */

export const REPLY_NOTICES_JOB = 'forum.reply-notices';
export type ReplyNoticesJob = { communityId: number; replyId: number };

export type NoticeDeps = Pick<ForumDeps, 'db' | 'clock' | 'community' | 't' | 'notifier'>;

/**
 * Notifies the followers and the mentioned members of a reply that is still published (not deleted,
 * its post not deleted), in the deps' community only. Answers the members notified now, in order.
 */
export async function deliverReplyNotices(deps: NoticeDeps, replyId: number): Promise<number[]> {
  const community = deps.community;
  return deps.db.transaction().execute(async (trx) => {
    const reply = await selectInCommunity(trx, 'forum_replies', community)
      .innerJoin('users', 'users.id', 'forum_replies.author_id')
      .innerJoin('forum_posts', (j) => j.onRef('forum_posts.id', '=', 'forum_replies.post_id').onRef('forum_posts.community_id', '=', 'forum_replies.community_id'))
      .select(['forum_replies.id', 'forum_replies.post_id', 'forum_replies.author_id', 'forum_replies.body_text', 'forum_posts.title', 'forum_posts.group_id', 'users.first_name', 'users.last_name'])
      .where('forum_replies.id', '=', replyId)
      .where('forum_replies.status', '=', 'published')
      .where('forum_replies.deleted_at', 'is', null)
      .where('forum_posts.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!reply) return []; // gone, removed or rejected since: nobody is told
    let followersQuery = selectInCommunity(trx, 'forum_follows', community)
      .innerJoin('memberships', (j) => j.onRef('memberships.user_id', '=', 'forum_follows.user_id').onRef('memberships.community_id', '=', 'forum_follows.community_id'))
      .select('forum_follows.user_id')
      .where('forum_follows.post_id', '=', reply.post_id)
      .where('forum_follows.user_id', '!=', reply.author_id)
      .where('memberships.is_active', '=', true);
    // A group's discussion: only those of its people who may still read it hear of it (the groups area's rule).
    if (reply.group_id != null) followersQuery = followersQuery.where(readsGroup(community, reply.group_id, 'forum_follows.user_id'));
    const followers = await followersQuery.orderBy('forum_follows.user_id').execute();
    const mentioned = await resolveMentions(trx, community, reply.body_text, reply.group_id);
    // Who hears, and of what: a follower that the reply mentions hears once, as a follower.
    const targets = new Map<number, 'forum.notify.replied' | 'forum.notify.mentioned'>();
    for (const f of followers) targets.set(f.user_id, 'forum.notify.replied');
    for (const m of mentioned.values()) if (m.id !== reply.author_id && !targets.has(m.id)) targets.set(m.id, 'forum.notify.mentioned');
    if (targets.size === 0) return [];
    const now = deps.clock.now();
    const fresh = await insertInCommunity(
      trx,
      'forum_reply_notices',
      community,
      [...targets.keys()].map((userId) => ({ reply_id: reply.id, user_id: userId, created_at: now })),
    )
      .onConflict((oc) => oc.columns(['reply_id', 'user_id']).doNothing())
      .returning('user_id')
      .execute();
    const toTell = new Set(fresh.map((r) => r.user_id));
    const values = { name: `${reply.first_name} ${reply.last_name}`.trim(), title: reply.title };
    const url = replyPath(reply.post_id, reply.id);
    const told: number[] = [];
    for (const [userId, key] of targets) {
      if (!toTell.has(userId)) continue;
      await deps.notifier.notify(trx, { communityId: community.id, userId, kind: 'forum', url, message: deps.t(key, values), createdAt: now });
      told.push(userId);
    }
    return told;
  });
}

/**
 * Records that these members heard of the reply by other means (an edit's new mentions, told in the
 * edit's transaction): a notices job still queued for it then tells them nothing more.
 */
export async function markNoticed(trx: Db, community: Tenant, replyId: number, userIds: readonly number[], at: Date): Promise<void> {
  if (userIds.length === 0) return;
  await insertInCommunity(
    trx,
    'forum_reply_notices',
    community,
    userIds.map((userId) => ({ reply_id: replyId, user_id: userId, created_at: at })),
  )
    .onConflict((oc) => oc.columns(['reply_id', 'user_id']).doNothing())
    .execute();
}
