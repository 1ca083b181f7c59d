import { AppError } from '#src/core/errors.ts';
import { canEditorEditText } from './guardian.ts';
import { formatDate } from '#shared/format.ts';
import { ensureText } from '#src/core/fields.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, updateInCommunity } from '#src/db/tenancy.ts';
import { canMove, nextStatuses, PUBLISHED, TITLE_MAX, type ArticleStatus } from './rules.ts';
import { enqueueBadgeCheck } from '#src/features/badges/index.ts';
import { countWords } from '#src/lib/plain-text.ts';
import { cleanRichText } from '#src/lib/rich-text.ts';
import { getArticle, loadArticle, type ArticleDeps, type ArticleRow, type Person } from './queries.ts';
import { cleanDraft, ensureEditor, invalid, isUniqueViolation, moveInTransaction, notifyAuthor, writeRevision } from './shared.ts';

const NOTIFY_AUTHOR_ON: readonly ArticleStatus[] = ['FIRST_ROUND_EDIT', 'NEEDS_REVISION', 'FINAL_EDIT', 'READY_TO_APPROVE', 'SCHEDULED', 'MANUALLY_PUBLISHED', 'PUBLISHED', 'ON_HOLD', 'TRASHED'];

/** An editor moves an article along an allowed transition; each move is recorded with who and when. */
export async function moveArticle(
  deps: ArticleDeps,
  person: Person,
  input: { articleId: number; to: ArticleStatus; scheduledDate?: unknown; articleUrl?: unknown; note?: string },
): Promise<ArticleRow> {
  ensureEditor(person);
  ensureText({ scheduledDate: input.scheduledDate, articleUrl: input.articleUrl, note: input.note }, ['note']);
  const article = await loadArticle(deps, input.articleId);
  if (!canMove('editor', article.status, input.to, await heldFrom(deps, article))) throw new AppError('Articles.TransitionRefused');
  const extra: { scheduledDate?: Date; articleUrl?: string; publishedDate?: Date; note?: string } = { note: input.note };
  const now = deps.clock.now();
  if (input.to === 'SCHEDULED') {
    const when = input.scheduledDate instanceof Date ? input.scheduledDate : new Date(String(input.scheduledDate ?? ''));
    if (Number.isNaN(when.getTime()) || when <= now) throw invalid('scheduledDate', 'articles.errors.scheduleInPast');
    extra.scheduledDate = when;
  }
  if (input.to === 'MANUALLY_PUBLISHED') {
    const url = typeof input.articleUrl === 'string' ? input.articleUrl.trim() : '';
    if (!/^https?:\/\/\S+$/.test(url) || !URL.canParse(url)) throw invalid('articleUrl', 'articles.errors.articleUrl');
    extra.articleUrl = url;
    extra.publishedDate = now;
  }
  if (input.to === 'PUBLISHED') extra.publishedDate = now;
  try {
    await deps.db.transaction().execute(async (trx) => {
      await moveInTransaction(trx, deps, article, input.to, person.userId, extra);
      if (NOTIFY_AUTHOR_ON.includes(input.to)) {
        await notifyAuthor(trx, deps, article, input.to, input.to === 'SCHEDULED' ? { date: formatDate(extra.scheduledDate!) } : {});
      }
      // Published: the author may have earned an article badge (checked by its job once this commits).
      if (deps.jobs && PUBLISHED.includes(input.to)) await enqueueBadgeCheck(deps.jobs, trx, deps.community, [article.author_id]);
    });
  } catch (e) {
    // Back in flight (out of the trash, back to proofreading after approval) while the member has begun another.
    if (isUniqueViolation(e)) throw new AppError('Articles.OtherInFlight', { cause: e });
    throw e;
  }
  return loadArticle(deps, article.id);
}

/** For an article ON_HOLD: the status it was held from (its last move into ON_HOLD), else null. */
export async function heldFrom(deps: Pick<ArticleDeps, 'db' | 'community'>, article: Pick<ArticleRow, 'id' | 'status'>): Promise<ArticleStatus | null> {
  if (article.status !== 'ON_HOLD') return null;
  const row = await selectInCommunity(deps.db, 'article_status_events', deps.community)
    .select('from_status')
    .where('article_id', '=', article.id)
    .where('to_status', '=', 'ON_HOLD')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return (row?.from_status as ArticleStatus | undefined) ?? null;
}

/** The moves an editor may make now (the board offers exactly these). */
export async function editorMoves(deps: ArticleDeps, person: Person, article: Pick<ArticleRow, 'id' | 'status'>): Promise<readonly ArticleStatus[]> {
  ensureEditor(person);
  return nextStatuses('editor', article.status, await heldFrom(deps, article));
}

/** Assigns (or clears) the editor of an article; the editor must be staff of the community. */
export async function assignEditor(deps: ArticleDeps, person: Person, input: { articleId: number; editorId: number | null }): Promise<ArticleRow> {
  ensureEditor(person);
  const article = await loadArticle(deps, input.articleId);
  if (input.editorId !== null) {
    const editor = await selectInCommunity(deps.db, 'memberships', deps.community).select('roles').where('user_id', '=', input.editorId).where('is_active', '=', true).executeTakeFirst();
    if (!editor?.roles.includes('ADMIN')) throw invalid('editorId', 'articles.errors.editorNotStaff');
  }
  await updateInCommunity(deps.db, 'articles', deps.community).set({ editor_id: input.editorId, updated_at: deps.clock.now() }).where('id', '=', article.id).execute();
  return loadArticle(deps, article.id);
}

/** Editors edit the text while the article is in their hands; every editor round is its own revision. */
export async function editArticleText(deps: ArticleDeps, person: Person, input: { articleId: number; title?: unknown; content?: unknown }): Promise<ArticleRow> {
  const article = await articleForEditorText(deps, person, input.articleId);
  await writeRevision(deps, article, person.userId, cleanDraft(input));
  return loadArticle(deps, article.id);
}

/** The article an editor is about to correct: staff only, and only in EDITOR_EDITABLE statuses. */
async function articleForEditorText(deps: ArticleDeps, person: Person, articleId: number): Promise<ArticleRow> {
  ensureEditor(person);
  const article = await loadArticle(deps, articleId);
  if (!canEditorEditText(person, article)) throw new AppError('Articles.NotEditable');
  return article;
}

/** Every revision of an article, oldest first (editors compare any two). */
export async function listRevisions(deps: ArticleDeps, person: Person, articleId: number) {
  await getArticle(deps, person, articleId);
  return selectInCommunity(deps.db, 'article_revisions', deps.community)
    .select(['id', 'author_id', 'title', 'content', 'word_count', 'created_at', 'updated_at'])
    .where('article_id', '=', articleId)
    .orderBy('id')
    .execute();
}

/** The article's history: every move with who (null: the scheduler) and when, oldest first. */
export async function listStatusEvents(deps: ArticleDeps, person: Person, articleId: number) {
  await getArticle(deps, person, articleId);
  return selectInCommunity(deps.db, 'article_status_events', deps.community)
    .leftJoin('users as actor', 'actor.id', 'article_status_events.actor_id')
    .select([
      'article_status_events.id',
      'article_status_events.from_status',
      'article_status_events.to_status',
      'article_status_events.actor_id',
      'article_status_events.note',
      'article_status_events.created_at',
      'actor.first_name as actor_first',
      'actor.last_name as actor_last',
    ])
    .where('article_status_events.article_id', '=', articleId)
    .orderBy('article_status_events.id')
    .execute();
}

/**
 * The editors' text form: a round of editing keeps a title and a body (the member's draft may be
 * empty, an article in the editors' hands may not), then editArticleText records the revision.
 */
export async function editArticleTextFromBoard(
  deps: ArticleDeps,
  person: Person,
  input: { articleId: number; title: unknown; content: unknown; baseRevisionId?: number | null },
): Promise<ArticleRow> {
  const article = await articleForEditorText(deps, person, input.articleId);
  ensureText({ title: input.title, content: input.content }, ['content']);
  const fields: Record<string, { code: 'Articles.Invalid'; key: string }> = {};
  // The revision the editor corrected: if the member resubmitted, or another editor saved, since the
  // page was opened, saving would silently replace that text. The form comes back to compare first.
  if (input.baseRevisionId != null && input.baseRevisionId !== article.current_revision_id) {
    throw new AppError('Articles.Invalid', { fields: { content: { code: 'Articles.Invalid', key: 'admin.articles.text.changedSince' } } });
  }
  const title = typeof input.title === 'string' ? input.title.trim() : '';
  if (!title) fields.title = { code: 'Articles.Invalid', key: 'articles.errors.titleRequired' };
  else if (title.length > TITLE_MAX) fields.title = { code: 'Articles.Invalid', key: 'articles.errors.titleTooLong' };
  if (countWords(cleanRichText(typeof input.content === 'string' ? input.content : '')) === 0) fields.content = { code: 'Articles.Invalid', key: 'admin.articles.text.bodyRequired' };
  if (Object.keys(fields).length) throw new AppError('Articles.Invalid', { fields });
  await writeRevision(deps, article, person.userId, cleanDraft(input));
  return loadArticle(deps, article.id);
}
