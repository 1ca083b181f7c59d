import type { Clock } from '#src/core/clock.ts';
import { AppError } from '#src/core/errors.ts';
import { canViewArticle, type ArticlePerson } from './guardian.ts';
import type { Translate } from '#src/core/i18n.ts';
import type { Db } from '#src/db/index.ts';
import type { Notifier } from '#src/features/notifications/index.ts';
import type { JobQueue } from '#src/lib/jobs/queue.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { ArticleStatusValue, Community } from '#src/db/types.ts';
import { IN_FLIGHT, PUBLISHED, type ArticleStatus } from './rules.ts';

/**
 * `jobs`: the queue, for the checks a publication queues (the author's badges); a service called
 * without it (a script, a test) leaves those to the badges' daily sweep.
 */
export type ArticleDeps = { db: Db; clock: Clock; community: Community; t: Translate; notifier: Notifier; jobs?: JobQueue };
/** Who acts: the member, and whether they are staff (ADMIN) of the community. */
export type Person = ArticlePerson;

const ARTICLE_COLUMNS = [
  'articles.id',
  'articles.community_id',
  'articles.author_id',
  'articles.editor_id',
  'articles.status',
  'articles.status_updated_at',
  'articles.current_revision_id',
  'articles.scheduled_date',
  'articles.published_date',
  'articles.article_url',
  'articles.created_at',
  'articles.updated_at',
  'article_revisions.title',
  'article_revisions.content',
  'article_revisions.word_count',
  'article_revisions.author_id as revision_author_id',
  'article_revisions.created_at as revision_created_at',
  'article_revisions.updated_at as revision_updated_at',
] as const;

export function articlesQuery(deps: Pick<ArticleDeps, 'db' | 'community'>) {
  return selectInCommunity(deps.db, 'articles', deps.community).leftJoin('article_revisions', 'article_revisions.id', 'articles.current_revision_id').select(ARTICLE_COLUMNS);
}

export type ArticleRow = NonNullable<Awaited<ReturnType<ReturnType<typeof articlesQuery>['executeTakeFirst']>>>;

/** The Guardian's canView (spec section 6), as the Article's `canView` field reports it. */
export const canView = (person: Person, article: Pick<ArticleRow, 'author_id' | 'status'>): boolean => canViewArticle(person, article);

/** The spec's Article (section 3) as clients see it. */
export function articleView(article: ArticleRow, person: Person) {
  return {
    id: article.id,
    status: article.status,
    statusUpdatedAt: article.status_updated_at,
    updatedAt: article.updated_at,
    canView: canView(person, article),
    currentRevision: article.current_revision_id
      ? { id: article.current_revision_id, title: article.title ?? '', content: article.content ?? '', updatedAt: article.revision_updated_at }
      : null,
    wordCount: article.word_count ?? 0,
    editor: article.editor_id ? { id: article.editor_id } : null,
    author: { id: article.author_id },
    scheduledDate: article.scheduled_date,
    publishedDate: article.published_date,
    articleUrl: article.article_url,
  };
}

export async function loadArticle(deps: Pick<ArticleDeps, 'db' | 'community'>, id: number): Promise<ArticleRow> {
  const row = await articlesQuery(deps).where('articles.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('NotFound');
  return row;
}

/** Loads an article the person may read (canView); others get NotFound, not a hint that it exists. */
export async function getArticle(deps: ArticleDeps, person: Person, id: number): Promise<ArticleRow> {
  const row = await loadArticle(deps, id);
  if (!canView(person, row)) throw new AppError('NotFound');
  return row;
}

export async function findArticleInFlight(deps: ArticleDeps, userId: number): Promise<ArticleRow | undefined> {
  return articlesQuery(deps)
    .where('articles.author_id', '=', userId)
    .where('articles.status', 'in', IN_FLIGHT as ArticleStatusValue[])
    .orderBy('articles.id', 'desc')
    .executeTakeFirst();
}

/** An article as other areas see it (amplification): who wrote it, where it stands, whether it is live. */
export type PublishedArticleFacts = {
  id: number;
  /** The current revision's title, trimmed ('' when it has none). */
  title: string;
  status: ArticleStatus;
  authorId: number;
  /** Live: one of the PUBLISHED statuses. */
  published: boolean;
  publishedDate: Date | null;
  articleUrl: string | null;
};

/** The community's article with this id (any status; `published` says whether it is live), or null. */
export async function publishedArticleOf(db: Db, community: Tenant, articleId: number): Promise<PublishedArticleFacts | null> {
  const row = await selectInCommunity(db, 'articles', community)
    .leftJoin('article_revisions', 'article_revisions.id', 'articles.current_revision_id')
    .select(['articles.id', 'articles.status', 'articles.author_id', 'articles.published_date', 'articles.article_url', 'article_revisions.title'])
    .where('articles.id', '=', articleId)
    .executeTakeFirst();
  if (!row) return null;
  const status = row.status as ArticleStatus;
  return {
    id: row.id,
    title: row.title?.trim() ?? '',
    status,
    authorId: row.author_id,
    published: PUBLISHED.includes(status),
    publishedDate: row.published_date,
    articleUrl: row.article_url,
  };
}
