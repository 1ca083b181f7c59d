import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import type { EpAnswerStatus } from '#src/db/types.ts';
import { LocalCopyScanner } from '#src/features/articles/index.ts';
import { plainText } from '#src/lib/plain-text.ts';
import { SNAPSHOT_COLUMNS, toSnapshot, unknownMember, type MemberSnapshot, type SnapshotRow } from '#src/features/members/index.ts';
import { epTransaction, type EpDeps, type EpViewer } from '../deps.ts';
import { ANSWER_HTML_MAX, countWords, DECISION_NOTE_MAX, isAnswerStatus, PAGE_SIZE, WORDS_CEILING } from '../rules.ts';
import { ANSWER_SORTS, type AnswerDetail, type AnswerFilters, type AnswerPage, type AnswerRow, type AnswerScan, type AnswerSort, type RevisionRow } from './admin-types.ts';
import { editorOnly, fieldError, likePattern, note, oneLine, richText } from './checks.ts';
import { parseId } from '#src/core/ids.ts';
import { insertInCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity } from '#src/db/tenancy.ts';

/**
 * The editors' review of answers (issue 15): the board of every answer (filters by status, panel and
 * question, a search in the member's name or the text, newest first or by word count, keyset pages,
 * CSV), one answer with its revisions, and the actions: start the review (the member can no longer
 * edit; the copy scan runs then), edit the text (a revision by the editor), accept or decline with a
 * note (declining needs one), which notifies the member in the same transaction (kind expert_answers).
 *
 * The copy scan is the articles' LocalCopyScanner run on the answer's plain text against the other
 * answers to the same question (the likely source of copying within a panel); its figures are
 * stored in ep_answers.scan.
 */

export const SEARCH_MAX = 200;
export const CSV_MAX_ROWS = 5000;

const formerMember = (id: number): MemberSnapshot => unknownMember(id);

/** The board's filters from a query string or GraphQL arguments (unknown values are ignored, a bad search is the field error `q`). */
export function answerFiltersOf(input: { status?: unknown; panelId?: unknown; questionId?: unknown; q?: unknown; sort?: unknown }): AnswerFilters {
  const id = parseId;
  const status = typeof input.status === 'string' && isAnswerStatus(input.status.toLowerCase()) ? (input.status.toLowerCase() as EpAnswerStatus) : null;
  const sort: AnswerSort = typeof input.sort === 'string' && (ANSWER_SORTS as readonly string[]).includes(input.sort.toLowerCase()) ? (input.sort.toLowerCase() as AnswerSort) : 'newest';
  const q = typeof input.q === 'string' && input.q.trim() ? oneLine('q', input.q, SEARCH_MAX) : null;
  return { status, panelId: id(input.panelId), questionId: id(input.questionId), q, sort };
}

function answerRows(deps: EpDeps) {
  return selectInCommunityAs(deps.db, 'ep_answers', 'a', deps.community)
    .innerJoin('ep_questions as q', 'q.id', 'a.question_id')
    .innerJoin('ep_panels as p', 'p.id', 'q.panel_id')
    .innerJoin('users', 'users.id', 'a.user_id')
    .leftJoin('memberships', (j) => j.onRef('memberships.user_id', '=', 'a.user_id').onRef('memberships.community_id', '=', 'a.community_id'))
    .leftJoin('users as r', 'r.id', 'a.reviewer_id')
    .select([
      'a.id',
      'a.question_id',
      'q.title as question_title',
      'q.closed_at',
      'p.id as panel_id',
      'p.name as panel_name',
      'p.min_words',
      'p.max_words',
      'a.user_id as answer_user_id',
      'a.status',
      'a.word_count',
      'a.body_html',
      'a.body_text',
      'a.sent_at',
      'a.submitted_at',
      'a.edited_at',
      'a.review_started_at',
      'a.decision_note',
      'a.decided_at',
      'a.scan',
      sql<string | null>`r.first_name || ' ' || r.last_name`.as('reviewer_name'),
      sql<string>`extract(epoch from coalesce(a.submitted_at, a.sent_at))::text`.as('sort_epoch'),
      ...SNAPSHOT_COLUMNS,
      'users.email',
    ]);
}

type AnswerRecord = Awaited<ReturnType<ReturnType<typeof answerRows>['executeTakeFirstOrThrow']>>;

const scanOf = (v: unknown): AnswerScan | null => {
  const s = typeof v === 'string' ? (JSON.parse(v) as unknown) : v;
  return s && typeof s === 'object' ? (s as AnswerScan) : null;
};

const date = (v: unknown) => (v ? new Date(v as string) : null);

function answerRow(r: AnswerRecord): AnswerRow {
  const member = r.is_active === null ? formerMember(r.answer_user_id) : toSnapshot(r as unknown as SnapshotRow);
  return {
    id: r.id,
    questionId: r.question_id,
    questionTitle: r.question_title,
    panelId: r.panel_id,
    panelName: r.panel_name,
    member,
    status: r.status,
    wordCount: r.word_count,
    excerpt: r.body_text.length > 240 ? `${r.body_text.slice(0, 240)}…` : r.body_text,
    sentAt: new Date(r.sent_at),
    submittedAt: date(r.submitted_at),
    editedAt: date(r.edited_at),
    reviewStartedAt: date(r.review_started_at),
    reviewerName: r.reviewer_name?.trim() || null,
    decisionNote: r.decision_note,
    decidedAt: date(r.decided_at),
    scan: scanOf(r.scan),
  };
}

/** A cursor: the sort key and the id (`<key>_<id>`); anything else starts at the top. */
function cursorOf(after: string | null | undefined, sort: AnswerSort): { key: string; id: number } | null {
  if (typeof after !== 'string') return null;
  const m = sort === 'words' ? /^(\d{1,7})_([1-9]\d{0,9})$/.exec(after) : /^(\d{1,12}(?:\.\d{1,6})?)_([1-9]\d{0,9})$/.exec(after);
  if (!m || Number(m[2]) > 2_147_483_647) return null;
  return { key: m[1]!, id: Number(m[2]) };
}

function filtered(deps: EpDeps, f: AnswerFilters) {
  let qb = answerRows(deps);
  if (f.status) qb = qb.where('a.status', '=', f.status);
  if (f.panelId) qb = qb.where('p.id', '=', f.panelId);
  if (f.questionId) qb = qb.where('a.question_id', '=', f.questionId);
  if (f.q) {
    const pattern = likePattern(f.q);
    qb = qb.where((eb) => eb.or([eb(sql`users.first_name || ' ' || users.last_name`, 'ilike', pattern), eb('a.body_text', 'ilike', pattern)]));
  }
  return f.sort === 'words' ? qb.orderBy('a.word_count', 'desc').orderBy('a.id', 'desc') : qb.orderBy(sql`coalesce(a.submitted_at, a.sent_at)`, 'desc').orderBy('a.id', 'desc');
}

/** The board: one keyset page of the answers that match (PAGE_SIZE by default, at most 100). */
export async function answerBoard(deps: EpDeps, viewer: EpViewer, f: AnswerFilters, page: { first?: number; after?: string | null } = {}): Promise<AnswerPage> {
  editorOnly(viewer);
  const first = Math.min(Math.max(Math.trunc(page.first ?? PAGE_SIZE) || PAGE_SIZE, 1), 100);
  let qb = filtered(deps, f).limit(first + 1);
  const cursor = cursorOf(page.after, f.sort);
  if (cursor) {
    qb =
      f.sort === 'words'
        ? qb.where(sql<boolean>`(a.word_count, a.id) < (${Number(cursor.key)}, ${cursor.id})`)
        : qb.where(sql<boolean>`(extract(epoch from coalesce(a.submitted_at, a.sent_at)), a.id) < (${cursor.key}::numeric, ${cursor.id})`);
  }
  const rows = await qb.execute();
  const shown = rows.slice(0, first);
  const last = shown[shown.length - 1];
  return {
    rows: shown.map(answerRow),
    next: rows.length > first && last ? `${f.sort === 'words' ? String(last.word_count) : last.sort_epoch}_${last.id}` : null,
  };
}

/** Every answer that matches (at most CSV_MAX_ROWS), with the member's email, for the CSV export. */
export async function answersForExport(deps: EpDeps, viewer: EpViewer, f: AnswerFilters): Promise<Array<AnswerRow & { email: string; text: string }>> {
  editorOnly(viewer);
  const rows = await filtered(deps, f).limit(CSV_MAX_ROWS).execute();
  return rows.map((r) => ({ ...answerRow(r), email: r.email, text: r.body_text }));
}

/** One answer with its text, its question's state and word range, and its revisions; or NotFound. */
export async function getAnswer(deps: EpDeps, viewer: EpViewer, id: number): Promise<AnswerDetail> {
  editorOnly(viewer);
  const r = await answerRows(deps).where('a.id', '=', id).executeTakeFirst();
  if (!r) throw new AppError('ExpertPanels.NotFound');
  const revisions = await selectInCommunityAs(deps.db, 'ep_answer_revisions', 'v', deps.community)
    .leftJoin('users as e', 'e.id', 'v.editor_id')
    .select(['v.id', 'v.editor_id', 'v.body_html', 'v.word_count', 'v.created_at', sql<string | null>`e.first_name || ' ' || e.last_name`.as('editor_name')])
    .where('v.answer_id', '=', id)
    .orderBy('v.id', 'desc')
    .limit(100)
    .execute();
  return {
    ...answerRow(r),
    bodyHtml: r.body_html,
    questionClosed: r.closed_at !== null,
    minWords: r.min_words,
    maxWords: r.max_words,
    revisions: revisions.map(
      (v): RevisionRow => ({ id: v.id, editorName: v.editor_name?.trim() || null, byEditor: v.editor_id !== null, wordCount: v.word_count, bodyHtml: v.body_html, createdAt: new Date(v.created_at) }),
    ),
  };
}

/** An answer of this community, locked for the change; NotFound otherwise. */
async function lockAnswer(trx: EpDeps['db'], deps: EpDeps, id: number) {
  const row = await selectInCommunity(trx, 'ep_answers', deps.community)
    .select(['id', 'question_id', 'user_id', 'status', 'body_text', 'review_started_at'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw new AppError('ExpertPanels.NotFound');
  return row;
}

/** What an editor may review: a submitted answer (or one already decided, to edit). */
const REVIEWABLE: readonly EpAnswerStatus[] = ['submitted', 'accepted', 'declined'];

/** The copy scan's figures of `text` against the other answers to the question. */
async function scanAnswer(trx: EpDeps['db'], deps: EpDeps, answer: { id: number; question_id: number; body_text: string }, at: Date): Promise<AnswerScan> {
  const others = await selectInCommunity(trx, 'ep_answers', deps.community)
    .select(['id', 'body_text'])
    .where('question_id', '=', answer.question_id)
    .where('id', '!=', answer.id)
    .where('body_text', '!=', '')
    .limit(500)
    .execute();
  const report = new LocalCopyScanner().scanSync({ text: answer.body_text, corpus: others.map((o) => ({ id: o.id, text: o.body_text })) });
  return {
    identicalWords: report.identicalWords,
    minorChangedWords: report.minorChangedWords,
    relatedMeaningWords: report.relatedMeaningWords,
    aggregatedScore: report.aggregatedScore,
    totalWords: report.totalWords,
    scannedAt: at.toISOString(),
  };
}

/**
 * Starts the review of a submitted answer: review_started_at and reviewer_id are set (the member can
 * no longer change it) and the copy scan runs. Starting one already started changes nothing; an
 * answer not submitted is 'ExpertPanels.NotInReview'.
 */
export async function startReview(deps: EpDeps, viewer: EpViewer, id: number): Promise<void> {
  editorOnly(viewer);
  const now = deps.clock.now();
  await epTransaction(deps.db, async (trx) => {
    const a = await lockAnswer(trx, deps, id);
    if (!REVIEWABLE.includes(a.status)) throw new AppError('ExpertPanels.NotInReview');
    if (a.review_started_at) return;
    const scan = await scanAnswer(trx, deps, a, now);
    await updateInCommunity(trx, 'ep_answers', deps.community)
      .set({ review_started_at: now, reviewer_id: viewer.userId, scan: JSON.stringify(scan) })
      .where('id', '=', id)
      .execute();
  });
}

/**
 * An editor's edit of the text (HTML, sanitised as the member's): a revision with the editor's id,
 * and the answer's body, word count and edited_at. Required, at most WORDS_CEILING words (editors may
 * shorten below the panel's minimum). Starts the review if it was not. Refused once the answer is in
 * a published roundup ('ExpertPanels.RoundupPublished').
 */
export async function editAnswer(deps: EpDeps, viewer: EpViewer, id: number, input: { body?: unknown }): Promise<void> {
  editorOnly(viewer);
  if (typeof input.body === 'string' && input.body.length > ANSWER_HTML_MAX) throw fieldError('body', 'tooLong', { max: ANSWER_HTML_MAX });
  const clean = richText('body', input.body, ANSWER_HTML_MAX, true);
  const words = countWords(clean.html);
  if (words > WORDS_CEILING) throw fieldError('body', 'tooManyWords', { max: WORDS_CEILING, words });
  const now = deps.clock.now();
  await epTransaction(deps.db, async (trx) => {
    const a = await lockAnswer(trx, deps, id);
    if (!REVIEWABLE.includes(a.status)) throw new AppError('ExpertPanels.NotInReview');
    // A published roundup shows its answers' text as it is now: once live, that text is final.
    const published = await selectInCommunityAs(trx, 'ep_roundup_answers', 'ra', deps.community)
      .innerJoin('ep_roundups as r', (j) => j.onRef('r.id', '=', 'ra.roundup_id').onRef('r.community_id', '=', 'ra.community_id'))
      .select('r.id')
      .where('ra.answer_id', '=', id)
      .where('r.status', '=', 'FINAL')
      .executeTakeFirst();
    if (published) throw new AppError('ExpertPanels.RoundupPublished');
    await insertInCommunity(trx, 'ep_answer_revisions', deps.community, { answer_id: id, editor_id: viewer.userId, body_html: clean.html, word_count: words, created_at: now }).execute();
    await updateInCommunity(trx, 'ep_answers', deps.community)
      .set({
        body_html: clean.html,
        body_text: plainText(clean.html).trim(),
        word_count: words,
        edited_at: now,
        review_started_at: sql<Date>`coalesce(review_started_at, ${now})`,
        reviewer_id: sql<number>`coalesce(reviewer_id, ${viewer.userId})`,
      })
      .where('id', '=', id)
      .execute();
  });
}

export type Decision = 'accept' | 'decline';

export const decisionOf = (v: unknown): Decision | null => {
  const s = typeof v === 'string' ? v.toLowerCase() : '';
  return s === 'accept' || s === 'decline' ? s : null;
};

/**
 * Accepts or declines a submitted answer with a note (at most DECISION_NOTE_MAX; declining needs
 * one): status, decision_note, decided_at, reviewer_id (and the review started), and the member is
 * notified (kind expert_answers, their question's page) in the same transaction. An answer already
 * decided, or not submitted, is 'ExpertPanels.NotInReview'.
 */
export async function decideAnswer(deps: EpDeps, viewer: EpViewer, id: number, decision: Decision | null, noteInput: unknown): Promise<EpAnswerStatus> {
  editorOnly(viewer);
  if (!decision) throw fieldError('decision', 'decision');
  const text = note('note', noteInput, DECISION_NOTE_MAX);
  if (decision === 'decline' && !text) throw fieldError('note', 'noteRequired');
  const now = deps.clock.now();
  const status: EpAnswerStatus = decision === 'accept' ? 'accepted' : 'declined';
  return epTransaction(deps.db, async (trx) => {
    const a = await lockAnswer(trx, deps, id);
    if (a.status !== 'submitted') throw new AppError('ExpertPanels.NotInReview');
    await updateInCommunity(trx, 'ep_answers', deps.community)
      .set({
        status,
        status_at: now,
        decision_note: text || null,
        decided_at: now,
        reviewer_id: viewer.userId,
        review_started_at: sql<Date>`coalesce(review_started_at, ${now})`,
      })
      .where('id', '=', id)
      .execute();
    const q = await selectInCommunity(trx, 'ep_questions', deps.community).select('title').where('id', '=', a.question_id).executeTakeFirstOrThrow();
    await deps.notifier.notify(trx, {
      communityId: deps.community.id,
      userId: a.user_id,
      kind: 'expert_answers',
      url: `/expert-panels/${a.question_id}`,
      message: deps.t(`expertPanelsAdmin.notify.${status}`, { question: q.title, note: text, hasNote: text ? 'yes' : 'no' }),
      createdAt: now,
    });
    return status;
  });
}
