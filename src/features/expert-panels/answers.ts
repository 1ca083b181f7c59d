import { AppError, type ErrorCode } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import { insertInCommunity, selectInCommunity, updateInCommunity } from '#src/db/tenancy.ts';
import { plainText } from '#src/lib/plain-text.ts';
import { cleanRichText } from '#src/lib/rich-text.ts';
import { epTransaction, type EpDeps, type EpViewer } from './deps.ts';
import { memberAnswers } from './queries.ts';
import { getQuestion, questionIdOf } from './questions.ts';
import { ANSWER_HTML_MAX, checkAnswer, MEMBER_WRITABLE } from './rules.ts';
import type { AnswerMark, EpAnswerStatus, MemberQuestionView } from './types.ts';

/**
 * A member answers a question sent to them (issue 15), or marks it "can't answer" or ignores it. The
 * text is rich text stored as sanitised HTML exactly as forum posts are (decision 0033): the pages
 * turn the plain field's light formatting into HTML (lib/rich-text.ts), the service sanitises it
 * with the shared cleanRichText and keeps it to the panel's word range. Submitting puts the answer
 * in review; the member may change it until an editor picks it up (review_started_at) or the question
 * closes. Each submit keeps a revision (editor_id null: the member's own text).
 */

export type AnswerInput = { body: unknown };

/** A message about the answer's text, on the field `body` (pages) and in extensions (GraphQL). */
function bodyError(code: ErrorCode, key: string, values: Record<string, unknown>): AppError {
  return new AppError(code, { values, fields: { body: { code, key, values } } });
}

/** The answer row of this member for this question, with what decides whether they may write it. */
function answerState(deps: EpDeps, viewer: EpViewer, questionId: number) {
  return memberAnswers(deps.db, deps.community, viewer.userId)
    .select(['a.id', 'a.status', 'a.review_started_at', 'q.closed_at', 'p.min_words', 'p.max_words'])
    .where('q.id', '=', questionId)
    .executeTakeFirst();
}

type Locked = { id: number; status: EpAnswerStatus; review_started_at: Date | string | null; submitted_at: Date | string | null };

/** Inside the write's transaction: the answer row locked, and the question still open; else the right refusal. */
async function lockAnswer(trx: EpDeps['db'], deps: EpDeps, answerId: number, questionId: number): Promise<Locked> {
  const row = await selectInCommunity(trx, 'ep_answers', deps.community)
    .select(['id', 'status', 'review_started_at', 'submitted_at'])
    .where('id', '=', answerId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw new AppError('ExpertPanels.QuestionNotFound');
  const question = await selectInCommunity(trx, 'ep_questions', deps.community).select('closed_at').where('id', '=', questionId).executeTakeFirst();
  if (!question) throw new AppError('ExpertPanels.QuestionNotFound');
  if (question.closed_at != null) throw new AppError('ExpertPanels.Closed');
  return row;
}

const writable = (row: { status: EpAnswerStatus; review_started_at: unknown }) => MEMBER_WRITABLE.includes(row.status) && row.review_started_at == null;

/** A rough count of a huge text's words (it is refused before it is sanitised). */
const roughWords = (s: string) => s.split(/\s+/).filter(Boolean).length;

/**
 * The member submits (or changes) their answer: 'submitted' (in review). Refused when the question is
 * closed ('ExpertPanels.Closed'), when an editor has picked it up or decided ('ExpertPanels.InReview'),
 * and when the text is empty, too short or too long for the panel (the spec's messages, on `body`).
 */
export async function submitAnswer(deps: EpDeps, viewer: EpViewer, questionId: unknown, input: AnswerInput): Promise<MemberQuestionView> {
  const id = questionIdOf(questionId);
  ensureText({ body: input.body }, ['body']);
  const state = await answerState(deps, viewer, id);
  if (!state) throw new AppError('ExpertPanels.QuestionNotFound');
  if (state.closed_at != null) throw new AppError('ExpertPanels.Closed');
  if (!writable(state)) throw new AppError('ExpertPanels.InReview');
  const range = { min: state.min_words, max: state.max_words };
  const raw = typeof input.body === 'string' ? input.body : '';
  if (raw.length > ANSWER_HTML_MAX) throw bodyError('ExpertPanels.AnswerTooLong', 'expertPanels.errors.answerTooLong', { words: Math.max(roughWords(raw), range.max + 1), ...range });
  const html = cleanRichText(raw).trim();
  const verdict = checkAnswer(html, range);
  if (!verdict.ok) {
    const { words, min, max } = verdict;
    if (verdict.reason === 'required') throw bodyError('ExpertPanels.AnswerRequired', 'expertPanels.errors.answerRequired', { words, min, max });
    if (verdict.reason === 'tooLong') throw bodyError('ExpertPanels.AnswerTooLong', 'expertPanels.errors.answerTooLong', { words, min, max });
    throw bodyError('ExpertPanels.AnswerTooShort', 'expertPanels.errors.answerTooShort', { words, min, max });
  }
  const text = plainText(html).replace(/\s+/g, ' ').trim();
  await epTransaction(deps.db, async (trx) => {
    const row = await lockAnswer(trx, deps, state.id, id);
    if (!writable(row)) throw new AppError('ExpertPanels.InReview');
    const now = deps.clock.now();
    const again = row.status === 'submitted';
    await updateInCommunity(trx, 'ep_answers', deps.community)
      .set({
        status: 'submitted',
        body_html: html,
        body_text: text,
        word_count: verdict.words,
        submitted_at: again && row.submitted_at ? row.submitted_at : now,
        edited_at: again ? now : null,
        ...(again ? {} : { status_at: now }),
      })
      .where('id', '=', row.id)
      .execute();
    await insertInCommunity(trx, 'ep_answer_revisions', deps.community, { answer_id: row.id, editor_id: null, body_html: html, word_count: verdict.words, created_at: now }).execute();
  });
  return getQuestion(deps, viewer, id);
}

const MARKS: readonly AnswerMark[] = ['cant_answer', 'ignored'];
export const isAnswerMark = (v: unknown): v is AnswerMark => typeof v === 'string' && (MARKS as readonly string[]).includes(v);

/**
 * The member marks a question "can't answer" or ignores it: only while it is not answered
 * (open, can't answer, ignored) and the question is open. They may still answer it later.
 */
export async function markAnswer(deps: EpDeps, viewer: EpViewer, questionId: unknown, mark: unknown): Promise<MemberQuestionView> {
  const id = questionIdOf(questionId);
  if (!isAnswerMark(mark)) throw new AppError('ExpertPanels.Invalid', { fields: { mark: { code: 'ExpertPanels.Invalid', key: 'expertPanels.errors.invalid' } } });
  const state = await answerState(deps, viewer, id);
  if (!state) throw new AppError('ExpertPanels.QuestionNotFound');
  await epTransaction(deps.db, async (trx) => {
    const row = await lockAnswer(trx, deps, state.id, id);
    if (row.status !== 'open' && row.status !== 'cant_answer' && row.status !== 'ignored') throw new AppError('ExpertPanels.InReview');
    if (row.status === mark) return;
    await updateInCommunity(trx, 'ep_answers', deps.community).set({ status: mark, status_at: deps.clock.now() }).where('id', '=', row.id).execute();
  });
  return getQuestion(deps, viewer, id);
}
