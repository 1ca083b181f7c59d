import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { decodeActivityCursor as decodeSentCursor, encodeCursor, pageSize } from '#src/features/forum/index.ts';
import type { EpDeps, EpViewer } from './deps.ts';
import { memberAnswers, roundupFromJson, roundupJsonColumn, sentKeyColumn, tabCondition, tabCounts } from './queries.ts';
import { MEMBER_TABS, MEMBER_WRITABLE, PAGE_SIZE, type MemberTab } from './rules.ts';
import type { EditorRevision, MemberQuestionRow, MemberQuestionsPage, MemberQuestionView } from './types.ts';
import { requireId } from '#src/core/ids.ts';

/**
 * The member's expert-panel questions (issue 15): the questions sent to them by tab, newest sent
 * first, a keyset page at a time (one statement, and one for the tabs' counts), and one question as
 * the member it was sent to sees it (one statement). Anyone else, another community's question or a
 * missing id: 'ExpertPanels.QuestionNotFound'. All scoped to deps.community.
 */

export const isMemberTab = (v: unknown): v is MemberTab => typeof v === 'string' && (MEMBER_TABS as readonly string[]).includes(v);

/** A question id as pages and APIs pass it: malformed is the same as unknown (decision 0047), the question-not-found error. */
export const questionIdOf = (v: unknown): number => requireId(v, () => new AppError('ExpertPanels.QuestionNotFound'));

export type QuestionsQuery = { tab?: unknown; after?: unknown; first?: unknown };

/** The columns of a row of the member's questions (see memberAnswers for the joins). */
function rowQuery(deps: EpDeps, viewer: EpViewer) {
  return memberAnswers(deps.db, deps.community, viewer.userId).select([
    'q.id as question_id',
    'q.title',
    'q.closed_at',
    'p.name as panel_name',
    'b.deadline_at',
    'a.id as answer_id',
    'a.status',
    'a.sent_at',
    'a.submitted_at',
    'a.decision_note',
    sentKeyColumn().as('sent_key'),
    roundupJsonColumn(deps.community).as('roundup'),
  ]);
}

type RowRecord = Awaited<ReturnType<ReturnType<typeof rowQuery>['executeTakeFirstOrThrow']>>;

function toRow(r: RowRecord): MemberQuestionRow {
  const closed = r.closed_at != null;
  return {
    questionId: r.question_id,
    title: r.title,
    panelName: r.panel_name,
    deadlineAt: new Date(r.deadline_at),
    closed,
    status: r.status,
    markable: (r.status === 'open' || r.status === 'cant_answer' || r.status === 'ignored') && !closed,
    sentAt: new Date(r.sent_at),
    submittedAt: r.submitted_at ? new Date(r.submitted_at) : null,
    decisionNote: r.status === 'accepted' || r.status === 'declined' ? r.decision_note : null,
    roundup: r.status === 'accepted' ? roundupFromJson(r.roundup) : null,
    cursor: encodeCursor([r.sent_key, r.answer_id]),
  };
}

export async function listMemberQuestions(deps: EpDeps, viewer: EpViewer, q: QuestionsQuery = {}): Promise<MemberQuestionsPage> {
  const tab: MemberTab = q.tab == null || q.tab === '' ? 'open' : isMemberTab(q.tab) ? q.tab : invalidTab();
  const first = pageSize(q.first, PAGE_SIZE);
  const after = decodeSentCursor(q.after);
  let page = rowQuery(deps, viewer).where(tabCondition(tab, deps.community));
  // A row comparison: the index (community_id, user_id, status, sent_at desc, id desc) serves it.
  if (after) page = page.where(sql<boolean>`(a.sent_at, a.id) < (cast(${after.at} as timestamptz), ${after.id})`);
  const [rows, counts] = await Promise.all([page.orderBy('a.sent_at', 'desc').orderBy('a.id', 'desc').limit(first + 1).execute(), tabCounts(deps.db, deps.community, viewer.userId)]);
  const out = rows.slice(0, first).map(toRow);
  return { tab, rows: out, next: rows.length > first && out.length > 0 ? out[out.length - 1]!.cursor : null, counts };
}

/** One row of the member's questions as the list shows it (after an action on it), or not found. */
export async function memberQuestionRow(deps: EpDeps, viewer: EpViewer, questionId: unknown): Promise<MemberQuestionRow> {
  const id = questionIdOf(questionId);
  const r = await rowQuery(deps, viewer).where('q.id', '=', id).executeTakeFirst();
  if (!r) throw new AppError('ExpertPanels.QuestionNotFound');
  return toRow(r);
}

function invalidTab(): never {
  throw new AppError('ExpertPanels.Invalid', { fields: { tab: { code: 'ExpertPanels.Invalid', key: 'expertPanels.errors.invalid' } } });
}

type RevisionJson = { html: string; words: number; at: string; id: number };
const revisionFromJson = (v: RevisionJson | string | null | undefined): RevisionJson | null => (v == null ? null : typeof v === 'string' ? (JSON.parse(v) as RevisionJson) : v);

/** The latest revision of answer `a` by an editor (`editor`) or by the member (`own`), as JSON. */
const revisionColumn = (who: 'editor' | 'own', communityId: number) =>
  sql<RevisionJson | string | null>`(select json_build_object('html', v.body_html, 'words', v.word_count, 'at', v.created_at, 'id', v.id)
    from ep_answer_revisions v where v.answer_id = a.id and v.community_id = ${communityId}
    and v.editor_id is ${who === 'editor' ? sql`not null` : sql`null`} order by v.id desc limit 1)`;

/** One question as the member it was sent to sees it, in one statement; else 'ExpertPanels.QuestionNotFound'. */
export async function getQuestion(deps: EpDeps, viewer: EpViewer, questionId: unknown): Promise<MemberQuestionView> {
  const id = questionIdOf(questionId);
  const row = await memberAnswers(deps.db, deps.community, viewer.userId)
    .select([
      'q.id',
      'q.title',
      'q.brief_html',
      'q.guidelines_html',
      'q.closed_at',
      'p.id as panel_id',
      'p.name as panel_name',
      'p.min_words',
      'p.max_words',
      'b.deadline_at',
      'a.status',
      'a.body_html',
      'a.word_count',
      'a.submitted_at',
      'a.edited_at',
      'a.review_started_at',
      'a.decision_note',
      'a.decided_at',
      revisionColumn('editor', deps.community.id).as('editor_rev'),
      revisionColumn('own', deps.community.id).as('own_rev'),
      roundupJsonColumn(deps.community).as('roundup'),
    ])
    .where('q.id', '=', id)
    .executeTakeFirst();
  if (!row) throw new AppError('ExpertPanels.QuestionNotFound');
  const closed = row.closed_at != null;
  const editorRev = revisionFromJson(row.editor_rev);
  const ownRev = revisionFromJson(row.own_rev);
  // The editor's edits show when an editor changed the text after the member's own last version.
  const edited = editorRev && (!ownRev || editorRev.id > ownRev.id) ? editorRev : null;
  const editorRevision: EditorRevision | null = edited ? { bodyHtml: edited.html, wordCount: Number(edited.words), at: new Date(edited.at) } : null;
  const decided = row.status === 'accepted' || row.status === 'declined';
  return {
    id: row.id,
    title: row.title,
    briefHtml: row.brief_html,
    guidelinesHtml: row.guidelines_html,
    panel: { id: row.panel_id, name: row.panel_name, minWords: row.min_words, maxWords: row.max_words },
    deadlineAt: new Date(row.deadline_at),
    closed,
    answer: {
      status: row.status,
      bodyHtml: row.body_html,
      wordCount: row.word_count,
      submittedAt: row.submitted_at ? new Date(row.submitted_at) : null,
      editedAt: row.edited_at ? new Date(row.edited_at) : null,
      editable: MEMBER_WRITABLE.includes(row.status) && row.review_started_at == null && !closed,
      markable: (row.status === 'open' || row.status === 'cant_answer' || row.status === 'ignored') && !closed,
      ownHtml: edited && ownRev ? ownRev.html : null,
      editorRevision,
      decisionNote: decided ? row.decision_note : null,
      decidedAt: decided && row.decided_at ? new Date(row.decided_at) : null,
    },
    roundup: row.status === 'accepted' ? roundupFromJson(row.roundup) : null,
  };
}
