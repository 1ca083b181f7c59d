import type { Db } from '#src/db/index.ts';
import { selectInCommunityAs, type Tenant } from '#src/db/tenancy.ts';
import type { ArticleStatusValue } from '#src/db/types.ts';
import type { LibraryFacts } from '#src/lib/library.ts';
import { plainText } from '#src/lib/plain-text.ts';
import { PUBLISHED } from './rules.ts';

/**
 * The articles in the community's library (the content bank): of `ids`, the published ones, with
 * their current revision's title and text, their author, their publication date and their live
 * address. One statement; an id that is not a published article of the community is left out.
 */
export async function publishedArticlesForLibrary(db: Db, community: Tenant, ids: readonly number[]): Promise<LibraryFacts[]> {
  if (ids.length === 0) return [];
  const rows = await selectInCommunityAs(db, 'articles', 'a', community)
    .leftJoin('article_revisions as r', 'r.id', 'a.current_revision_id')
    .leftJoin('users as u', 'u.id', 'a.author_id')
    .select(['a.id', 'a.author_id', 'a.published_date', 'a.status_updated_at', 'a.article_url', 'r.title', 'r.content', 'u.first_name', 'u.last_name'])
    .where('a.id', 'in', [...ids])
    .where('a.status', 'in', PUBLISHED as ArticleStatusValue[])
    .execute();
  return rows.map((r) => ({
    id: r.id,
    title: r.title?.trim() || `#${r.id}`,
    text: plainText(r.content ?? ''),
    html: r.content ?? '',
    authorId: r.author_id,
    authorName: r.first_name ? `${r.first_name} ${r.last_name}`.trim() : '',
    publishedAt: new Date(r.published_date ?? r.status_updated_at),
    url: r.article_url,
    staffPath: `/admin/articles/${r.id}`,
  }));
}
