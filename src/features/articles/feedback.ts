import { AppError } from '#src/core/errors.ts';
import { canJoinFeedback } from './guardian.ts';
import { ensureText } from '#src/core/fields.ts';
import { insertInCommunity, selectInCommunity, updateInCommunity } from '#src/db/tenancy.ts';
import { getArticle, type ArticleDeps, type Person } from './queries.ts';
import { invalid, notifyAuthor } from './shared.ts';

export const FEEDBACK_PAGE_SIZE = 20;
export const FEEDBACK_MAX_CHARS = 5000;

export async function listFeedback(deps: ArticleDeps, person: Person, input: { articleId: number; last?: number; before?: number | null }) {
  const article = await getArticle(deps, person, input.articleId);
  if (!canJoinFeedback(person, article)) throw new AppError('NotFound');
  const last = Math.min(Math.max(input.last ?? FEEDBACK_PAGE_SIZE, 1), 100);
  let q = selectInCommunity(deps.db, 'article_feedback', deps.community)
    .innerJoin('users', 'users.id', 'article_feedback.author_id')
    // The writer's picture in this community (an editor may be staff without a membership here).
    .leftJoin('memberships', (join) => join.onRef('memberships.user_id', '=', 'article_feedback.author_id').onRef('memberships.community_id', '=', 'article_feedback.community_id'))
    .select([
      'article_feedback.id',
      'article_feedback.remark',
      'article_feedback.created_at',
      'article_feedback.read_at',
      'article_feedback.author_id',
      'users.first_name',
      'users.last_name',
      'memberships.avatar_url',
    ])
    .where('article_feedback.article_id', '=', article.id)
    .orderBy('article_feedback.id', 'desc')
    .limit(last + 1);
  if (input.before) q = q.where('article_feedback.id', '<', input.before);
  const rows = await q.execute();
  const page = rows.slice(0, last).reverse();
  return {
    remarks: page.map((r) => ({
      id: r.id,
      remark: r.remark,
      createdAt: r.created_at,
      // Read marks are per side (author, editors): one's own side's remarks are never "new".
      hasRead: r.read_at !== null || r.author_id === person.userId || (article.author_id !== person.userId && r.author_id !== article.author_id),
      author: { id: r.author_id, snapshot: { id: r.author_id, name: `${r.first_name} ${r.last_name}`.trim(), avatar: r.avatar_url ?? null } },
      cursor: String(r.id),
    })),
    pageInfo: { hasPreviousPage: rows.length > last, startCursor: page[0] ? String(page[0].id) : null, endCursor: page.at(-1) ? String(page.at(-1)!.id) : null },
  };
}

export async function createFeedback(deps: ArticleDeps, person: Person, input: { articleId: number; feedback: unknown }) {
  const article = await getArticle(deps, person, input.articleId);
  if (!canJoinFeedback(person, article)) throw new AppError('NotFound');
  ensureText({ feedback: input.feedback }, ['feedback']);
  const remark = typeof input.feedback === 'string' ? input.feedback.trim() : '';
  if (!remark) throw invalid('feedback', 'articles.errors.feedbackEmpty');
  if (remark.length > FEEDBACK_MAX_CHARS) throw invalid('feedback', 'articles.errors.feedbackTooLong');
  const row = await deps.db.transaction().execute(async (trx) => {
    const written = await insertInCommunity(trx, 'article_feedback', deps.community, { article_id: article.id, author_id: person.userId, remark, created_at: deps.clock.now() })
      .returning(['id', 'created_at'])
      .executeTakeFirstOrThrow();
    if (person.userId !== article.author_id) await notifyAuthor(trx, deps, article, 'feedback');
    return written;
  });
  return { id: row.id, remark, createdAt: row.created_at };
}

/**
 * Read marks: the reader has seen everything the other side wrote. The two sides are the author and
 * the editors, so the author marks the editors' remarks and an editor marks the author's: one editor
 * opening the article does not mark another editor's remarks as read by the author.
 */
export async function markFeedbackRead(deps: ArticleDeps, person: Person, articleId: number): Promise<void> {
  const article = await getArticle(deps, person, articleId);
  if (!canJoinFeedback(person, article)) throw new AppError('NotFound');
  const isAuthor = article.author_id === person.userId;
  await updateInCommunity(deps.db, 'article_feedback', deps.community)
    .set({ read_at: deps.clock.now() })
    .where('article_id', '=', article.id)
    .where('author_id', isAuthor ? '!=' : '=', article.author_id)
    .where('read_at', 'is', null)
    .execute();
}
