import type { Clock } from '#src/core/clock.ts';
import { AppError } from '#src/core/errors.ts';
import type { Translate } from '#src/core/i18n.ts';
import type { Db } from '#src/db/index.ts';
import { crossCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { Notifier } from '#src/features/notifications/index.ts';
import { enqueueBadgeCheck } from '#src/features/badges/index.ts';
import type { JobQueue } from '#src/lib/jobs/queue.ts';
import type { ArticleStatusValue } from '#src/db/types.ts';
import { PENDING_PUBLICATION, PUBLISHED } from './rules.ts';
import { articlesQuery, type ArticleDeps, type ArticleRow } from './queries.ts';
import { moveInTransaction, notifyAuthor } from './shared.ts';

export async function listPendingPublication(deps: ArticleDeps, userId: number): Promise<ArticleRow[]> {
  return articlesQuery(deps)
    .where('articles.author_id', '=', userId)
    .where('articles.status', 'in', PENDING_PUBLICATION as ArticleStatusValue[])
    .orderBy('articles.status_updated_at', 'desc')
    .execute();
}

export async function listPublished(deps: ArticleDeps, userId: number): Promise<ArticleRow[]> {
  return articlesQuery(deps)
    .where('articles.author_id', '=', userId)
    .where('articles.status', 'in', PUBLISHED as ArticleStatusValue[])
    .orderBy('articles.published_date', 'desc')
    .execute();
}

/**
 * The scheduler's job: every SCHEDULED article whose time has come becomes PUBLISHED, in every
 * community. Run by the job runner, never by a page load. Returns the ids it published.
 */
export async function publishDueArticles(db: Db, clock: Clock, t: Translate, notifier: Notifier, jobs?: JobQueue): Promise<number[]> {
  // Named cross-community query: a scheduled job scanning the due rows of every community (each then moves in its own).
  const due = await crossCommunity(db)
    .selectFrom('articles')
    .innerJoin('communities', 'communities.id', 'articles.community_id')
    .leftJoin('article_revisions', 'article_revisions.id', 'articles.current_revision_id')
    .select(['articles.id', 'articles.status', 'articles.author_id', 'articles.current_revision_id', 'article_revisions.title', 'articles.community_id'])
    .where('articles.status', '=', 'SCHEDULED')
    .where('articles.scheduled_date', '<=', clock.now())
    .orderBy('articles.id')
    .limit(500)
    .execute();
  const published: number[] = [];
  for (const article of due) {
    const community: Tenant = { id: article.community_id };
    try {
      await db.transaction().execute(async (trx) => {
        await moveInTransaction(trx, { community, clock }, article, 'PUBLISHED', null, { publishedDate: clock.now() });
        await notifyAuthor(trx, { clock, community, t, notifier }, article, 'PUBLISHED');
        // The author may have earned an article badge (checked by its job once this commits).
        if (jobs) await enqueueBadgeCheck(jobs, trx, community, [article.author_id]);
      });
    } catch (e) {
      if (e instanceof AppError && e.code === 'Articles.TransitionRefused') continue; // moved meanwhile
      throw e;
    }
    published.push(article.id);
  }
  return published;
}
