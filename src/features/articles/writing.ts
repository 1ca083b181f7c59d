import { AppError } from '#src/core/errors.ts';
import { canApproveArticle, canEditArticle } from './guardian.ts';
import { insertInCommunity, updateInCommunity } from '#src/db/tenancy.ts';
import { AUTHOR_EDITABLE, blackoutDays, canMove, checkBody, checkTitle } from './rules.ts';
import { findArticleInFlight, loadArticle, type ArticleDeps, type ArticleRow } from './queries.ts';
import { cleanDraft, isUniqueViolation, moveInTransaction, notifyAuthor, writeRevision, writeRevisionIn } from './shared.ts';
import { getByline, productAgreementStatus } from './byline-terms.ts';
import { blackoutNow } from './blackouts.ts';

async function ensureProductAgreement(deps: ArticleDeps, userId: number) {
  if (!(await productAgreementStatus(deps, userId))) throw new AppError('Articles.AgreementRequired');
}

/** articleCreate: the member's new draft (one in flight at a time). */
export async function createArticle(deps: ArticleDeps, userId: number): Promise<ArticleRow> {
  await ensureProductAgreement(deps, userId);
  const existing = await findArticleInFlight(deps, userId);
  if (existing) return existing;
  // A community that takes new articles through an external application form (spec section 4).
  if (deps.community.article_application_url) throw new AppError('Articles.ApplicationRequired');
  const now = deps.clock.now();
  let id: number;
  try {
    id = await insertDraft(deps, userId, now);
  } catch (e) {
    // Another request created the member's draft a moment ago (articles_one_in_flight): that one it is.
    if (!isUniqueViolation(e)) throw e;
    const created = await findArticleInFlight(deps, userId);
    if (!created) throw e;
    return created;
  }
  return loadArticle(deps, id);
}

async function insertDraft(deps: ArticleDeps, userId: number, now: Date): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    const article = await insertInCommunity(trx, 'articles', deps.community, { author_id: userId, status: 'DRAFT', status_updated_at: now, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const revision = await insertInCommunity(trx, 'article_revisions', deps.community, { article_id: article.id, author_id: userId, title: '', content: '', word_count: 0, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await updateInCommunity(trx, 'articles', deps.community).set({ current_revision_id: revision.id }).where('id', '=', article.id).execute();
    return article.id;
  });
}

async function authorsEditableArticle(deps: ArticleDeps, userId: number, articleId: number): Promise<ArticleRow> {
  const article = await loadArticle(deps, articleId);
  if (article.author_id !== userId) throw new AppError('NotFound');
  if (!canEditArticle({ userId, isStaff: false }, article)) throw new AppError('Articles.NotEditable');
  return article;
}

/** articleAutoSaveRevision: with no article in flight the first autosave creates one. */
export async function autosaveRevision(deps: ArticleDeps, userId: number, input: { articleId?: number | null; title?: unknown; content?: unknown }): Promise<ArticleRow> {
  const draft = cleanDraft(input);
  const article = input.articleId ? await authorsEditableArticle(deps, userId, input.articleId) : await createArticle(deps, userId);
  if (!input.articleId && !(AUTHOR_EDITABLE as readonly string[]).includes(article.status)) throw new AppError('Articles.NotEditable');
  await writeRevision(deps, article, userId, draft);
  return loadArticle(deps, article.id);
}

/** What stands between the author and Submit (spec section 5); empty when nothing does. */
export async function submitBlockers(deps: ArticleDeps, userId: number, draft: { title: string; content: string }): Promise<Record<string, string>> {
  const blockers: Record<string, string> = {};
  const title = checkTitle(draft.title);
  if (!title.ok) blockers.title = title.reason === 'required' ? 'articles.errors.titleRequired' : 'articles.errors.titleTooLong';
  const body = checkBody(draft.content);
  if (!body.ok) blockers.content = body.reason === 'tooShort' ? 'articles.errors.bodyTooShort' : 'articles.errors.bodyTooLong';
  if (!(await getByline(deps, userId))) blockers.byline = 'articles.errors.bylineMissing';
  return blockers;
}

/** articleSendForReview: the text, the article agreement, the rules, no blackout; then the copy scan. */
export async function submitForReview(
  deps: ArticleDeps,
  userId: number,
  input: { articleId: number; title?: unknown; content?: unknown; agreed?: boolean },
  afterCommit?: (article: ArticleRow) => Promise<void>,
): Promise<ArticleRow> {
  const article = await authorsEditableArticle(deps, userId, input.articleId);
  const draft = cleanDraft(input);
  // The notice names the community's own window (its days travel as the message's values).
  const blackout = await blackoutNow(deps);
  if (blackout) throw new AppError('Articles.Blackout', { values: blackoutDays(blackout) });
  const blockers = await submitBlockers(deps, userId, draft);
  if (Object.keys(blockers).length) {
    throw new AppError('Articles.Invalid', { fields: Object.fromEntries(Object.entries(blockers).map(([f, key]) => [f, { code: 'Articles.Invalid' as const, key }])) });
  }
  if (input.agreed !== true) throw new AppError('Articles.AgreementRequired', { fields: { agreed: { code: 'Articles.AgreementRequired', key: 'articles.errors.agreementRequired' } } });
  const now = deps.clock.now();
  // One transaction: the text submitted is the text handed over (a save from another tab waits for
  // it, then finds the article submitted), and the event names the revision it was written to.
  await deps.db.transaction().execute(async (trx) => {
    await writeRevisionIn(trx, deps, article, userId, draft);
    const written = await loadArticle({ db: trx, community: deps.community }, article.id);
    await insertInCommunity(trx, 'article_agreements', deps.community, { user_id: userId, kind: 'SUBMISSION', article_id: article.id, created_at: now }).execute();
    await moveInTransaction(trx, deps, written, 'SUBMITTED_FOR_REVIEW', userId, {});
    await notifyAuthor(trx, deps, written, 'SUBMITTED_FOR_REVIEW');
  });
  const submitted = await loadArticle(deps, article.id);
  if (afterCommit) await afterCommit(submitted);
  return submitted;
}

/** articleApproveForPublishing: READY_TO_APPROVE to READY_TO_PUBLISH, with the approval agreement. */
/**
 * articleApproveForPublishing: READY_TO_APPROVE to READY_TO_PUBLISH, with the approval agreement.
 * `revisionId` is the version the member read (the preview sends it): if the editors changed the
 * text since, the approval is refused, so a member never approves a text they have not seen.
 */
export async function approveForPublishing(
  deps: ArticleDeps,
  userId: number,
  input: { articleId: number; agreed?: boolean; revisionId?: number | null },
): Promise<ArticleRow> {
  const article = await loadArticle(deps, input.articleId);
  if (article.author_id !== userId) throw new AppError('NotFound');
  if (!canApproveArticle({ userId, isStaff: false }, article) || !canMove('author', article.status, 'READY_TO_PUBLISH')) throw new AppError('Articles.TransitionRefused');
  if (input.revisionId != null && input.revisionId !== article.current_revision_id) throw new AppError('Articles.ChangedSinceOpened');
  if (input.agreed !== true) throw new AppError('Articles.AgreementRequired', { fields: { agreed: { code: 'Articles.AgreementRequired', key: 'articles.errors.agreementRequired' } } });
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await insertInCommunity(trx, 'article_agreements', deps.community, { user_id: userId, kind: 'APPROVAL', article_id: article.id, created_at: now }).execute();
    // The guarded move also pins the revision: a text edit needs a status the move has just left.
    await moveInTransaction(trx, deps, article, 'READY_TO_PUBLISH', userId, {});
    await notifyAuthor(trx, deps, article, 'READY_TO_PUBLISH');
  });
  return loadArticle(deps, article.id);
}
