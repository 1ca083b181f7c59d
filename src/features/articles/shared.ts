import { AppError } from '#src/core/errors.ts';
import { canActAsEditor } from './guardian.ts';
import { ensureText } from '#src/core/fields.ts';
import type { Db } from '#src/db/index.ts';
import { insertInCommunity, selectInCommunity, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { TITLE_MAX, type ArticleStatus } from './rules.ts';
import { countWords } from '#src/lib/plain-text.ts';
import { cleanRichText } from '#src/lib/rich-text.ts';
import type { ArticleDeps, ArticleRow, Person } from './queries.ts';

/** Only staff act as editors (the Guardian's canActAsEditor). */
export function ensureEditor(person: Person): void {
  if (!canActAsEditor(person)) throw new AppError('Forbidden');
}

export function invalid(field: string, key: string): AppError {
  return new AppError('Articles.Invalid', { fields: { [field]: { code: 'Articles.Invalid', key } } });
}

export function cleanDraft(input: { title?: unknown; content?: unknown }) {
  ensureText({ title: input.title, content: input.content }, ['content']);
  const title = typeof input.title === 'string' ? input.title.trim() : '';
  const content = cleanRichText(typeof input.content === 'string' ? input.content : '');
  if (title.length > TITLE_MAX) throw invalid('title', 'articles.errors.titleTooLong');
  return { title, content, wordCount: countWords(content) };
}

/** Steps that ask something of the author open the editor; the others the dashboard. */
const NOTIFICATION_URL: Partial<Record<string, string>> = { NEEDS_REVISION: '/articles/edit', READY_TO_APPROVE: '/articles/edit', feedback: '/articles/edit' };

/**
 * The author's notification record for a step that concerns them (spec section 3's Notification:
 * url, message, hasRead, createdAt). Written with the step itself where a transaction is given.
 */
export async function notifyAuthor(db: Db, deps: Pick<ArticleDeps, 'clock' | 't' | 'notifier'> & { community: Tenant }, article: Pick<ArticleRow, 'author_id' | 'title'>, key: string, values: Record<string, unknown> = {}) {
  const title = article.title?.trim() || deps.t('articles.notifications.untitled');
  await deps.notifier.notify(db, {
    communityId: deps.community.id,
    userId: article.author_id,
    kind: key === 'feedback' ? 'article_feedback' : 'article_progress',
    url: NOTIFICATION_URL[key] ?? '/articles',
    message: deps.t(`articles.notifications.${key}`, { title, ...values }),
    createdAt: deps.clock.now(),
  });
}

/** Postgres' unique_violation, as both drivers report it. */
export const isUniqueViolation = (e: unknown) => (e as { code?: unknown } | null)?.code === '23505';

/**
 * Saves a writer's text. The revision being written is updated in place until a status change seals
 * it (the text as it was handed over); then, or when someone else wrote the current one, a new
 * revision starts, so every round is kept.
 */
export async function writeRevision(deps: ArticleDeps, article: ArticleRow, authorId: number, draft: { title: string; content: string; wordCount: number }) {
  await deps.db.transaction().execute((trx) => writeRevisionIn(trx, deps, article, authorId, draft));
}

/** writeRevision inside the caller's transaction (submitting writes the text and moves it in one). */
export async function writeRevisionIn(trx: Db, deps: ArticleDeps, article: ArticleRow, authorId: number, draft: { title: string; content: string; wordCount: number }) {
  const now = deps.clock.now();
  const sealed =
    article.current_revision_id !== null &&
    (await selectInCommunity(trx, 'article_status_events', deps.community)
      .select('id')
      .where('article_id', '=', article.id)
      .where('revision_id', '=', article.current_revision_id)
      .executeTakeFirst()) !== undefined;
  const continuing = article.current_revision_id !== null && article.revision_author_id === authorId && !sealed;
  // Still in the status it was read in: a save that lands just after a move (the editors took the
  // article, or gave it back) must not change the text that was handed over. The row stays locked
  // until the transaction ends, so a concurrent save waits and then finds the new status.
  const still = await updateInCommunity(trx, 'articles', deps.community)
    .set({ updated_at: now })
    .where('id', '=', article.id)
    .where('status', '=', article.status)
    .executeTakeFirst();
  if (Number(still.numUpdatedRows) !== 1) throw new AppError('Articles.NotEditable');
  if (continuing) {
    await updateInCommunity(trx, 'article_revisions', deps.community)
      .set({ title: draft.title, content: draft.content, word_count: draft.wordCount, updated_at: now })
      .where('id', '=', article.current_revision_id!)
      .execute();
  } else {
    const revision = await insertInCommunity(trx, 'article_revisions', deps.community, {
      article_id: article.id,
      author_id: authorId,
      title: draft.title,
      content: draft.content,
      word_count: draft.wordCount,
      created_at: now,
      updated_at: now,
    })
      .returning('id')
      .executeTakeFirstOrThrow();
    await updateInCommunity(trx, 'articles', deps.community).set({ current_revision_id: revision.id }).where('id', '=', article.id).execute();
  }
}

export async function moveInTransaction(
  trx: Db,
  deps: Pick<ArticleDeps, 'clock'> & { community: Tenant },
  article: Pick<ArticleRow, 'id' | 'status' | 'current_revision_id'>,
  to: ArticleStatus,
  actorId: number | null,
  extra: { scheduledDate?: Date; articleUrl?: string; publishedDate?: Date; note?: string },
) {
  const now = deps.clock.now();
  // Only the request that still sees the status it read wins a race.
  const moved = await updateInCommunity(trx, 'articles', deps.community)
    .set({
      status: to,
      status_updated_at: now,
      updated_at: now,
      ...(extra.scheduledDate !== undefined ? { scheduled_date: extra.scheduledDate } : {}),
      ...(extra.articleUrl !== undefined ? { article_url: extra.articleUrl } : {}),
      ...(extra.publishedDate !== undefined ? { published_date: extra.publishedDate } : {}),
    })
    .where('id', '=', article.id)
    .where('status', '=', article.status)
    // ...and the text it read: the event names the revision that was handed over.
    .where((eb) => (article.current_revision_id === null ? eb('current_revision_id', 'is', null) : eb('current_revision_id', '=', article.current_revision_id)))
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw new AppError('Articles.TransitionRefused');
  await insertInCommunity(trx, 'article_status_events', deps.community, {
      article_id: article.id,
      from_status: article.status,
      to_status: to,
      actor_id: actorId,
      revision_id: article.current_revision_id,
      note: extra.note ?? null,
      created_at: now,
    }).execute();
}
