import { sql, type RawBuilder } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { SNAPSHOT_COLUMNS, type MemberSnapshot } from '#src/features/members/index.ts';
import { authorSnapshot, postsWithReads, readColumns, repliersOf, type AuthorRow } from './queries.ts';
import { jsonValue } from '#src/lib/json-value.ts';

/**
 * What the forum tells pages that show what is happening in the community (the home page): its
 * newest posts, what is new for a member, and a member's own posts waiting for a moderator. The
 * forum's tables stay the forum's.
 */

/**
 * A newest post as the home page shows it: its author's face, whether the viewer never opened it or
 * how many replies came since they did (decision 0065), and the faces of those who replied last.
 */
export type NewestPost = {
  id: number;
  title: string;
  authorName: string;
  author: MemberSnapshot;
  replyCount: number;
  createdAt: Date;
  unread: boolean;
  newReplyCount: number;
  repliers: MemberSnapshot[];
};

/**
 * The newest published posts of the forum (not a group's, not deleted), newest first, with the
 * viewer's read state and the faces in the same statement (readColumns). `formerMember`: the name of
 * an author whose membership is gone.
 */
export async function newestPosts(db: Db, community: Tenant, viewer: { userId: number; formerMember: string }, limit: number): Promise<NewestPost[]> {
  const rows = await postsWithReads(db, community, viewer.userId)
    .select(['forum_posts.id', 'forum_posts.title', 'forum_posts.reply_count', 'forum_posts.created_at', ...SNAPSHOT_COLUMNS, ...readColumns(community, viewer.userId)])
    .where('forum_posts.status', '=', 'published')
    .where('forum_posts.deleted_at', 'is', null)
    .where('forum_posts.group_id', 'is', null)
    .orderBy('forum_posts.created_at', 'desc')
    .orderBy('forum_posts.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => {
    const author = authorSnapshot(r as AuthorRow, viewer.formerMember);
    return {
      id: r.id,
      title: r.title,
      authorName: author.name,
      author,
      replyCount: r.reply_count,
      createdAt: new Date(r.created_at),
      unread: r.unread === true,
      newReplyCount: Number(r.new_reply_count ?? 0),
      repliers: repliersOf(r.repliers_json, viewer.formerMember),
    };
  });
}

/** Counts above this read as "99+": each count stops there (a bounded scan, whatever the forum's size). */
export const NEWS_CAP = 99;

/**
 * What is new in the forum for a member, as one SQL value (json) for a caller's statement (the home
 * page's): `unread`, the forum's published posts they never opened (not their own, written since the
 * community's read tracking began); `newReplies`, the replies by others posted since they last read
 * a thread they opened (as the list's "N new" counts them: past the highest reply they were shown;
 * one probe of the thread index per thread they opened). Each counted up to NEWS_CAP + 1.
 */
export function forumNewsJson(community: Tenant, userId: number): RawBuilder<unknown> {
  const cap = NEWS_CAP + 1;
  const unread = sql`select count(*)::int from (select 1 from forum_posts p
      where p.community_id = ${community.id} and p.status = 'published' and p.deleted_at is null and p.group_id is null
        and p.author_id <> ${userId}
        and p.created_at >= coalesce((select c.forum_reads_since from communities c where c.id = ${community.id}), '-infinity')
        and not exists (select 1 from forum_reads r where r.community_id = p.community_id and r.post_id = p.id and r.user_id = ${userId})
      limit ${cap}) u`;
  const newReplies = sql`select count(*)::int from (select 1 from forum_reads r
      join forum_posts p on p.id = r.post_id and p.community_id = r.community_id
      join forum_replies nr on nr.community_id = r.community_id and nr.post_id = r.post_id and nr.id > r.last_reply_id
      where r.community_id = ${community.id} and r.user_id = ${userId}
        and p.status = 'published' and p.deleted_at is null and p.group_id is null
        and nr.status = 'published' and nr.deleted_at is null and nr.author_id <> ${userId}
      limit ${cap}) n`;
  return sql`json_build_object('unread', (${unread}), 'newReplies', (${newReplies}))`;
}

/** forumNewsJson's value, read back. */
export function forumNewsOf(value: unknown): { unread: number; newReplies: number } {
  const json = jsonValue<{ unread?: number; newReplies?: number } | null>(value);
  return { unread: Number(json?.unread ?? 0), newReplies: Number(json?.newReplies ?? 0) };
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
