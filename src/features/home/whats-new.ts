import { sql } from 'kysely';
import type { Clock } from '#src/core/clock.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity } from '#src/db/tenancy.ts';
import type { ArticleStatusValue, Community } from '#src/db/types.ts';
import { IN_FLIGHT, PENDING_PUBLICATION, PUBLISHED } from '#src/features/articles/index.ts';
import { activeMembersOf, SNAPSHOT_COLUMNS, toSnapshot } from '#src/features/members/index.ts';
import type { HomeArticle, HomeMember, HomePost, OpenItem, WhatsNew } from './types.ts';

/**
 * "What is happening in the community" (issue 14, the home page): the newest forum posts (where the
 * community has a forum), the newest published articles, the members who joined lately, and the
 * member's own open items (an article on its way, a pending introduction request, a forum post
 * waiting for a moderator). Four statements, each scoped to the community; every item carries the
 * page it leads to, and only to pages that exist for this member.
 */

export type HomeDeps = { db: Db; clock: Clock; community: Community };

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
  const [forumPosts, articles, newMembers, openItems] = await Promise.all([
    deps.community.forum_enabled ? newForumPosts(deps) : Promise.resolve(null),
    newArticles(deps),
    newMembersOf(deps, userId),
    openItemsOf(deps, userId),
  ]);
  return { forumPosts, articles, newMembers, openItems };
}

/** The newest published posts (not deleted), newest first. */
async function newForumPosts({ db, community }: HomeDeps): Promise<HomePost[]> {
  const rows = await selectInCommunity(db, 'forum_posts', community)
    .innerJoin('users', 'users.id', 'forum_posts.author_id')
    .select(['forum_posts.id', 'forum_posts.title', 'forum_posts.reply_count', 'forum_posts.created_at', 'users.first_name', 'users.last_name'])
    .where('forum_posts.status', '=', 'published')
    .where('forum_posts.deleted_at', 'is', null)
    .orderBy('forum_posts.created_at', 'desc')
    .orderBy('forum_posts.id', 'desc')
    .limit(HOME_POSTS)
    .execute();
  return rows.map((r) => ({ id: r.id, title: r.title, authorName: `${r.first_name} ${r.last_name}`.trim(), replyCount: r.reply_count, createdAt: new Date(r.created_at) }));
}

/**
 * The newest published articles of members others may see (their profile, where each tile leads,
 * exists), newest publication first.
 */
async function newArticles({ db, community }: HomeDeps): Promise<HomeArticle[]> {
  const rows = await activeMembersOf(db, community)
    .innerJoin('articles', (join) => join.onRef('articles.author_id', '=', 'users.id').on('articles.community_id', '=', community.id))
    .innerJoin('article_revisions', 'article_revisions.id', 'articles.current_revision_id')
    .select(['articles.id', 'article_revisions.title', 'articles.published_date', 'users.id as author_id', 'users.first_name', 'users.last_name'])
    .where('articles.status', 'in', PUBLISHED as ArticleStatusValue[])
    .where('memberships.gate', '=', 'app')
    .orderBy(sql`articles.published_date desc nulls last`)
    .orderBy('articles.id', 'desc')
    .limit(HOME_ARTICLES)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    title: r.title.trim(),
    authorName: `${r.first_name} ${r.last_name}`.trim(),
    publishedDate: r.published_date ? new Date(r.published_date) : null,
    path: `/profile/${r.author_id}`,
  }));
}

/** Active members past onboarding (not staff) who joined lately, newest first, not the viewer. */
async function newMembersOf({ db, community, clock }: HomeDeps, userId: number): Promise<HomeMember[]> {
  const since = new Date(clock.now().getTime() - HOME_NEW_MEMBER_DAYS * 86_400_000);
  const rows = await activeMembersOf(db, community)
    .select([...SNAPSHOT_COLUMNS, 'memberships.joined_at'])
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
  return rows.map((r) => ({ ...toSnapshot(r), joinedAt: new Date(r.joined_at) }));
}

type OpenRow = { kind: OpenItem['kind']; id: number; title: string | null; status: string; created_at: Date | string };

/** The member's own open items, in one statement: articles on their way, introductions, waiting posts. */
async function openItemsOf({ db, community }: HomeDeps, userId: number): Promise<OpenItem[]> {
  const statuses = [...IN_FLIGHT, ...PENDING_PUBLICATION];
  const forum = community.forum_enabled
    ? sql`union all
      select 'forumPost', p.id, p.title, p.status, p.created_at from forum_posts p
      where p.community_id = ${community.id} and p.author_id = ${userId} and p.status = 'pending' and p.deleted_at is null`
    : sql``;
  const { rows } = await sql<OpenRow>`
    select 'article' as kind, a.id, r.title, a.status, a.updated_at as created_at from articles a
    left join article_revisions r on r.id = a.current_revision_id
    where a.community_id = ${community.id} and a.author_id = ${userId} and a.status in (${sql.join(statuses)})
    union all
    select 'introduction', i.id, u.first_name || ' ' || u.last_name, i.status, i.created_at from introduction_requests i
    join users u on u.id = i.target_id
    where i.community_id = ${community.id} and i.requester_id = ${userId} and i.status = 'PENDING'
    ${forum}
    order by created_at desc, id desc
    limit 20`.execute(db);
  return rows.map((r): OpenItem => {
    const createdAt = new Date(r.created_at);
    if (r.kind === 'article') return { kind: 'article', id: r.id, title: r.title?.trim() ?? '', stage: STAGE[r.status as ArticleStatusValue] ?? 'review', path: '/articles' };
    if (r.kind === 'introduction') return { kind: 'introduction', id: r.id, targetName: r.title ?? '', createdAt, path: '/members/introductions' };
    return { kind: 'forumPost', id: r.id, title: r.title ?? '', createdAt, path: `/forum/post/${r.id}` };
  });
}
