import { sql, type RawBuilder } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';

/**
 * What the forum tells pages that show what is happening in the community (the home page): its
 * newest posts, and a member's own posts waiting for a moderator. The forum's tables stay the forum's.
 */

export type NewestPost = { id: number; title: string; authorName: string; replyCount: number; createdAt: Date };

/** The newest published posts (not deleted), newest first. */
export async function newestPosts(db: Db, community: Tenant, limit: number): Promise<NewestPost[]> {
  const rows = await selectInCommunity(db, 'forum_posts', community)
    .innerJoin('users', 'users.id', 'forum_posts.author_id')
    .select(['forum_posts.id', 'forum_posts.title', 'forum_posts.reply_count', 'forum_posts.created_at', 'users.first_name', 'users.last_name'])
    .where('forum_posts.status', '=', 'published')
    .where('forum_posts.deleted_at', 'is', null)
    .where('forum_posts.group_id', 'is', null)
    .orderBy('forum_posts.created_at', 'desc')
    .orderBy('forum_posts.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, title: r.title, authorName: `${r.first_name} ${r.last_name}`.trim(), replyCount: r.reply_count, createdAt: new Date(r.created_at) }));
}

/**
 * The member's own posts waiting for a moderator, as rows `(kind 'forumPost', id, title, status,
 * created_at)` for a caller's `union all` of open items (one statement for the home page).
 */
export function waitingPostsOf(community: Tenant, userId: number): RawBuilder<unknown> {
  return sql`select 'forumPost' as kind, p.id, p.title, p.status, p.created_at from forum_posts p
    where p.community_id = ${community.id} and p.author_id = ${userId} and p.status = 'pending' and p.deleted_at is null`;
}

/**
 * The forum's own published posts (not a group's, not deleted), as rows `(id, title, path, at)` for
 * the members' feed (the feeds area): searched when staff feature one, and checked each time the feed
 * is read, so a post removed since is no longer shown.
 */
export function featurablePosts(community: Tenant): RawBuilder<unknown> {
  return sql`select p.id, p.title, '/forum/post/' || p.id as path, p.created_at as at from forum_posts p
    where p.community_id = ${community.id} and p.status = 'published' and p.deleted_at is null and p.group_id is null`;
}
