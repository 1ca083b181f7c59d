import { sql, type Expression, type RawBuilder } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { ArticleStatusValue } from '#src/db/types.ts';
import { excerpt, plainText } from '#src/lib/plain-text.ts';
import { IN_FLIGHT, PENDING_PUBLICATION, PUBLISHED } from './rules.ts';

/**
 * What articles tell pages that show what is happening in the community (the home page): the newest
 * published articles, and a member's own articles on their way. The articles' tables stay theirs.
 */

/** A newest article; `author`: the caller's column about its author (see newestPublished), as selected. */
export type NewestArticle = { id: number; title: string; authorId: number; authorName: string; author: unknown; publishedDate: Date | null };

/**
 * The newest published articles whose authors are among `authors` (a subquery of user ids: the
 * members others may see, from the members area), newest publication first. `authorColumn`, given
 * the author's id column, is a column the caller wants about the author in the same statement (the
 * members area's snapshot, for their face), returned as `author`.
 */
export async function newestPublished(
  db: Db,
  community: Tenant,
  authors: Expression<unknown>,
  limit: number,
  authorColumn?: (authorId: RawBuilder<unknown>) => RawBuilder<unknown>,
): Promise<NewestArticle[]> {
  const rows = await selectInCommunity(db, 'articles', community)
    .innerJoin('users', 'users.id', 'articles.author_id')
    .innerJoin('article_revisions', 'article_revisions.id', 'articles.current_revision_id')
    .select(['articles.id', 'article_revisions.title', 'articles.published_date', 'users.id as author_id', 'users.first_name', 'users.last_name'])
    .select(sql<unknown>`${authorColumn ? authorColumn(sql.ref('articles.author_id')) : sql`null`}`.as('author'))
    .where('articles.status', 'in', PUBLISHED as ArticleStatusValue[])
    .where(sql<boolean>`articles.author_id in (${authors})`)
    .orderBy(sql`articles.published_date desc nulls last`)
    .orderBy('articles.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    title: r.title.trim(),
    authorId: r.author_id,
    authorName: `${r.first_name} ${r.last_name}`.trim(),
    author: r.author,
    publishedDate: r.published_date ? new Date(r.published_date) : null,
  }));
}

/**
 * The member's own articles on their way (in flight or waiting for publication), as rows
 * `(kind 'article', id, title, status, created_at)` for a caller's `union all` of open items.
 */
export function onTheirWayOf(community: Tenant, userId: number): RawBuilder<unknown> {
  const statuses = [...IN_FLIGHT, ...PENDING_PUBLICATION];
  return sql`select 'article' as kind, a.id, r.title, a.status, a.updated_at as created_at from articles a
    left join article_revisions r on r.id = a.current_revision_id
    where a.community_id = ${community.id} and a.author_id = ${userId} and a.status in (${sql.join(statuses)})`;
}

/**
 * The published articles whose authors are among `authors` (a subquery of user ids: the members
 * others may see), as rows `(id, title, path, at)` for the members' feed (the feeds area), which
 * searches them when staff feature one and checks there, each time the feed is read, that a featured
 * article is still published. `path` is where a member reads it: its author's articles on their profile.
 */
export function featurableArticles(community: Tenant, authors: Expression<unknown>): RawBuilder<unknown> {
  return sql`select a.id, trim(r.title) as title, '/profile/' || a.author_id || '#profile-articles' as path, a.published_date as at from articles a
    join article_revisions r on r.id = a.current_revision_id
    where a.community_id = ${community.id} and a.status in (${sql.join(PUBLISHED)}) and a.author_id in (${authors})`;
}

/** A published article at its public address, as the community's syndication feeds carry it. */
export type PublicArticle = { id: number; title: string; url: string; authorName: string; excerpt: string; publishedAt: Date; updatedAt: Date };

/** How much of an article's text a feed carries: its first words, up to this many characters. */
export const EXCERPT_MAX = 400;

/**
 * The newest published articles of the community that have a public address (articleUrl, where they
 * were published), newest publication first, at most `limit`: the public work the community's feeds
 * syndicate. An article published without an address has no public page, so no feed carries it.
 * With `ids`, only those of these articles.
 */
export async function publicArticles(db: Db, community: Tenant, limit: number, ids?: readonly number[]): Promise<PublicArticle[]> {
  if (ids && ids.length === 0) return [];
  let q = selectInCommunity(db, 'articles', community);
  // Only these articles (a feed by the content bank's tags or collections), when given.
  if (ids) q = q.where('articles.id', 'in', [...ids]);
  const rows = await q
    .innerJoin('users', 'users.id', 'articles.author_id')
    .innerJoin('article_revisions', 'article_revisions.id', 'articles.current_revision_id')
    .select(['articles.id', 'article_revisions.title', 'article_revisions.content', 'articles.article_url', 'articles.published_date', 'articles.updated_at', 'users.first_name', 'users.last_name'])
    .where('articles.status', 'in', PUBLISHED as ArticleStatusValue[])
    .where('articles.article_url', 'is not', null)
    .where('articles.published_date', 'is not', null)
    .orderBy('articles.published_date', 'desc')
    .orderBy('articles.id', 'desc')
    .limit(Math.max(1, Math.min(Math.trunc(limit) || 1, 100)))
    .execute();
  return rows.map((r) => {
    const publishedAt = new Date(r.published_date!);
    const updated = new Date(r.updated_at);
    return {
      id: r.id,
      title: r.title.trim(),
      url: r.article_url!,
      authorName: `${r.first_name} ${r.last_name}`.trim(),
      excerpt: excerpt(plainText(r.content), EXCERPT_MAX),
      publishedAt,
      updatedAt: updated > publishedAt ? updated : publishedAt,
    };
  });
}
