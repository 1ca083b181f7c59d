import { sql } from 'kysely';
import type { Clock } from '#src/core/clock.ts';
import type { Db } from '#src/db/index.ts';
import type { ArticleStatusValue, Community } from '#src/db/types.ts';
import { newestPublished, onTheirWayOf } from '#src/features/articles/index.ts';
import { memberFeedJson, memberFeedOf } from '#src/features/feeds/index.ts';
import { forumNewsJson, forumNewsOf, NEWS_CAP, newestPosts, waitingPostsOf } from '#src/features/forum/index.ts';
import { activeMembersOf, listedMemberIds, pendingIntroductionsOf, snapshotJson, snapshotOfJson, SNAPSHOT_COLUMNS, toSnapshot } from '#src/features/members/index.ts';
import type { MemberSnapshot } from '#src/features/members/index.ts';
import type { HomeArticle, HomeMember, HomePost, NewsTile, OpenItem, WhatsNew } from './types.ts';
import { jsonValue } from '#src/lib/json-value.ts';

/**
 * "What is happening in the community" (issue 14, the home page): the newest forum posts (where the
 * community has a forum), the newest published articles, the members who joined lately, and the
 * member's own open items (an article on its way, a pending introduction request, a forum post
 * waiting for a moderator), and the member's feed from the team (announcements and featured items,
 * from the feeds area), and what is new for this member, counted. Four statements, each scoped to the
 * community (the feed and the forum's counts are read in the open items' statement: the page's budget
 * is five with the session's); every item carries the page it
 * leads to, and only to pages that exist for this member.
 */

export type HomeDeps = { db: Db; clock: Clock; community: Community; t: (key: string) => string };

export const HOME_POSTS = 5;
export const HOME_ARTICLES = 5;
export const HOME_MEMBERS = 6;
/** "Joined recently": within this many days (the directory's Discover uses the same span). */
export const HOME_NEW_MEMBER_DAYS = 90;

const STAGE: Partial<Record<ArticleStatusValue, Extract<OpenItem, { kind: 'article' }>['stage']>> = {
  DRAFT: 'draft',
  NEEDS_REVISION: 'revision',
  READY_TO_APPROVE: 'approval',
  READY_TO_PUBLISH: 'scheduled',
  SCHEDULED: 'scheduled',
};

export async function whatsNew(deps: HomeDeps, userId: number): Promise<WhatsNew> {
  const [forumPosts, articles, { members: newMembers, total: newMemberCount }, { openItems, feed, forumNews }] = await Promise.all([
    deps.community.forum_enabled ? newForumPosts(deps, userId) : Promise.resolve(null),
    newArticles(deps),
    newMembersOf(deps, userId),
    openItemsAndFeedOf(deps, userId),
  ]);
  const posts = forumPosts ?? [];
  // Each count as far as NEWS_CAP, and whether there are more; the faces of those behind the news
  // among the posts the page shows.
  const tile = (kind: NewsTile['kind'], n: number, faces: MemberSnapshot[], to: NewsTile['to']): NewsTile => ({ kind, count: Math.min(n, NEWS_CAP), over: n > NEWS_CAP, faces, to });
  const tiles = [
    tile('unread', forumNews?.unread ?? 0, distinct(posts.filter((p) => p.unread).map((p) => p.author)), '#home-forum'),
    tile('replies', forumNews?.newReplies ?? 0, distinct(posts.filter((p) => p.newReplyCount > 0).flatMap((p) => p.repliers)), '/forum'),
    tile('team', feed.unseen, [], '#feed'),
    tile('members', newMemberCount, newMembers, '#home-members'),
  ];
  return { news: tiles.filter((x) => x.count > 0), forumPosts, articles, newMembers, openItems, feed };
}

/** The distinct members among `people`, in order (one face each). */
function distinct(people: readonly MemberSnapshot[]): MemberSnapshot[] {
  const seen = new Set<number>();
  return people.filter((m) => !seen.has(m.id) && seen.add(m.id));
}

/** The newest published posts, from the forum, with the member's read state and the faces. */
async function newForumPosts({ db, community, t }: HomeDeps, userId: number): Promise<HomePost[]> {
  return newestPosts(db, community, { userId, formerMember: t('forum.formerMember') }, HOME_POSTS);
}

/**
 * The newest published articles of members others may see (their profile, where each tile leads,
 * exists), newest publication first.
 */
async function newArticles({ db, community }: HomeDeps): Promise<HomeArticle[]> {
  // Each author's snapshot (their face) in the same statement, from the members area.
  const rows = await newestPublished(db, community, listedMemberIds(db, community), HOME_ARTICLES, (authorId) => snapshotJson(community, authorId));
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    authorName: r.authorName,
    author: snapshotOfJson(r.author, { id: r.authorId, name: r.authorName }),
    publishedDate: r.publishedDate,
    path: `/profile/${r.authorId}`,
  }));
}

/**
 * Active members past onboarding (not staff) who joined lately, newest first, not the viewer; and how
 * many joined in that span (a window count in the same statement).
 */
async function newMembersOf({ db, community, clock }: HomeDeps, userId: number): Promise<{ members: HomeMember[]; total: number }> {
  const since = new Date(clock.now().getTime() - HOME_NEW_MEMBER_DAYS * 86_400_000);
  const rows = await activeMembersOf(db, community)
    .select([...SNAPSHOT_COLUMNS, 'memberships.joined_at', sql<number | string>`count(*) over ()`.as('total')])
    .where('memberships.gate', '=', 'app')
    // Staff accounts are not members who joined.
    .where(sql<boolean>`not ('ADMIN' = any(memberships.roles))`)
    .where('memberships.joined_at', '>=', since)
    .where('memberships.joined_at', '<=', clock.now())
    .where('users.id', '<>', userId)
    .orderBy('memberships.joined_at', 'desc')
    .orderBy('users.id', 'desc')
    .limit(HOME_MEMBERS)
    .execute();
  return { members: rows.map((r) => ({ ...toSnapshot(r), joinedAt: new Date(r.joined_at) })), total: Number(rows[0]?.total ?? 0) };
}

type OpenRow = { kind: OpenItem['kind']; id: number; title: string | null; status: string; created_at: Date | string };

/**
 * The member's own open items, their feed and what is new for them in the forum, in one statement:
 * articles on their way, introductions, waiting posts (each area gives its part of the union,
 * aggregated as JSON), the feed (the feeds area gives it as one JSON value), and the forum's unread
 * and new-reply counts (the forum gives them as one JSON value).
 */
async function openItemsAndFeedOf(deps: HomeDeps, userId: number): Promise<Pick<WhatsNew, 'openItems' | 'feed'> & { forumNews: { unread: number; newReplies: number } | null }> {
  const { db, community } = deps;
  const parts = [onTheirWayOf(community, userId), pendingIntroductionsOf(community, userId), ...(community.forum_enabled ? [waitingPostsOf(community, userId)] : [])];
  const open = sql`select coalesce(json_agg(o order by o.created_at desc, o.id desc), '[]'::json) from (${sql.join(parts, sql` union all `)} order by created_at desc, id desc limit 20) o`;
  const forumNews = community.forum_enabled ? forumNewsJson(community, userId) : sql`null`;
  const { rows } = await sql<{ open: OpenRow[] | string; feed: unknown; forum_news: unknown }>`select (${open}) as open, ${memberFeedJson(deps, userId)} as feed, ${forumNews} as forum_news`.execute(db);
  const row = rows[0]!;
  const openRows = jsonValue<OpenRow[]>(row.open);
  return { openItems: openItemsOfRows(openRows), feed: memberFeedOf(row.feed), forumNews: community.forum_enabled ? forumNewsOf(row.forum_news) : null };
}

function openItemsOfRows(rows: OpenRow[]): OpenItem[] {
  return rows.map((r): OpenItem => {
    const createdAt = new Date(r.created_at);
    if (r.kind === 'article') return { kind: 'article', id: r.id, title: r.title?.trim() ?? '', stage: STAGE[r.status as ArticleStatusValue] ?? 'review', path: '/articles' };
    if (r.kind === 'introduction') return { kind: 'introduction', id: r.id, targetName: r.title ?? '', createdAt, path: '/members/introductions' };
    return { kind: 'forumPost', id: r.id, title: r.title ?? '', createdAt, path: `/forum/post/${r.id}` };
  });
}
