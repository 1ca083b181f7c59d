// TODO(lead): replace with answers.ts submitAnswer/markAnswer after merging slice A
// (this whole file becomes: export { submitAnswer, markAnswer } from '../answers.ts';)
import { AppError, type ErrorCode } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import { plainText } from '#src/features/articles/rules.ts';
import { cleanRichText } from '#src/features/articles/service.ts';
import type { EpAnswerStatus } from '#src/db/types.ts';
import { epTransaction, type EpDeps, type EpViewer } from '../deps.ts';
import { ANSWER_HTML_MAX, checkAnswer, countWords, MEMBER_WRITABLE } from '../rules.ts';

/**
 * A minimal stand-in for slice A's answer service, with its exact signatures, so that the invitation
 * page can be written and tested before A is merged: the same writes (status 'submitted', the body
 * sanitised as the forum's and checked against the panel's word range, a revision with editor_id
 * null; a closed question is ExpertPanels.Closed; an answer an editor picked up is ExpertPanels.InReview).
 */

type Deps = Pick<EpDeps, 'db' | 'clock' | 'community'>;

const answerError = (code: ErrorCode & `ExpertPanels.${string}`, values: Record<string, unknown>) => {
  const key = code === 'ExpertPanels.AnswerRequired' ? 'expertPanels.errors.answerRequired' : code === 'ExpertPanels.AnswerTooLong' ? 'expertPanels.errors.answerTooLong' : 'expertPanels.errors.answerTooShort';
  return new AppError(code, { values, fields: { body: { code, key, values } } });
};

/** The member's answer row to a question of a sent batch, with its question and panel, for a write. */
async function writable(deps: Deps, viewer: EpViewer, questionId: number) {
  const row = await deps.db
    .selectFrom('ep_answers as a')
    .innerJoin('ep_questions as q', (j) => j.onRef('q.id', '=', 'a.question_id').onRef('q.community_id', '=', 'a.community_id'))
    .innerJoin('ep_batches as b', (j) => j.onRef('b.id', '=', 'q.batch_id').onRef('b.community_id', '=', 'q.community_id'))
    .innerJoin('ep_panels as p', (j) => j.onRef('p.id', '=', 'q.panel_id').onRef('p.community_id', '=', 'q.community_id'))
    .select(['a.id', 'a.status', 'a.review_started_at', 'a.submitted_at', 'q.closed_at', 'p.min_words', 'p.max_words'])
    .where('a.community_id', '=', deps.community.id)
    .where('a.question_id', '=', questionId)
    .where('a.user_id', '=', viewer.userId)
    .where('b.status', '=', 'sent')
    .executeTakeFirst();
  if (!row) throw new AppError('ExpertPanels.QuestionNotFound');
  if (row.closed_at) throw new AppError('ExpertPanels.Closed');
  if (row.review_started_at || !MEMBER_WRITABLE.includes(row.status)) throw new AppError('ExpertPanels.InReview');
  return row;
}

export async function submitAnswer(deps: Deps, viewer: EpViewer, questionId: number, input: { body: unknown }): Promise<{ id: number; status: EpAnswerStatus }> {
  const raw = input.body == null ? '' : input.body;
  if (typeof raw !== 'string') throw answerError('ExpertPanels.AnswerRequired', { words: 0 });
  ensureText({ body: raw }, ['body']);
  const row = await writable(deps, viewer, questionId);
  const range = { min: row.min_words, max: row.max_words };
  if (raw.length > ANSWER_HTML_MAX) throw answerError('ExpertPanels.AnswerTooLong', { words: countWords(raw), ...range });
  const html = cleanRichText(raw).trim();
  const verdict = checkAnswer(html, range);
  if (!verdict.ok) {
    const code = verdict.reason === 'required' ? 'ExpertPanels.AnswerRequired' : verdict.reason === 'tooLong' ? 'ExpertPanels.AnswerTooLong' : 'ExpertPanels.AnswerTooShort';
    throw answerError(code, { words: verdict.words, min: verdict.min, max: verdict.max });
  }
  const now = deps.clock.now();
  return epTransaction(deps.db, async (trx) => {
    const updated = await trx
      .updateTable('ep_answers')
      .set({ status: 'submitted', body_html: html, body_text: plainText(html).trim(), word_count: verdict.words, submitted_at: row.submitted_at ?? now, edited_at: row.submitted_at ? now : null, status_at: now })
      .where('id', '=', row.id)
      .where('community_id', '=', deps.community.id)
      .where('review_started_at', 'is', null)
      .where('status', 'in', MEMBER_WRITABLE)
      .returning(['id', 'status'])
      .executeTakeFirst();
    if (!updated) throw new AppError('ExpertPanels.InReview');
    await trx.insertInto('ep_answer_revisions').values({ community_id: deps.community.id, answer_id: row.id, editor_id: null, body_html: html, word_count: verdict.words, created_at: now }).execute();
    return updated;
  });
}

export async function markAnswer(deps: Deps, viewer: EpViewer, questionId: number, status: 'cant_answer' | 'ignored'): Promise<{ id: number; status: EpAnswerStatus }> {
  if (status !== 'cant_answer' && status !== 'ignored') throw new AppError('ExpertPanels.Invalid');
  const row = await writable(deps, viewer, questionId);
  const now = deps.clock.now();
  return epTransaction(deps.db, async (trx) => {
    const updated = await trx
      .updateTable('ep_answers')
      .set({ status, status_at: now })
      .where('id', '=', row.id)
      .where('community_id', '=', deps.community.id)
      .where('review_started_at', 'is', null)
      .where('status', 'in', MEMBER_WRITABLE)
      .returning(['id', 'status'])
      .executeTakeFirst();
    if (!updated) throw new AppError('ExpertPanels.InReview');
    return updated;
  });
}
