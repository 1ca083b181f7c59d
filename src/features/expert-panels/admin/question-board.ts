import { sql, type SqlBool } from 'kysely';
import { isAppError } from '#src/core/errors.ts';
import type { Translate } from '#src/core/i18n.ts';
import type { EpAnswerStatus } from '#src/db/types.ts';
import type { EpDeps, EpViewer } from '../deps.ts';
import { PAGE_SIZE } from '../rules.ts';
import {
  BATCH_STATES,
  QUESTION_SORTS,
  QUESTION_STATES,
  type BatchBoardRow,
  type BatchFilters,
  type BatchPage,
  type BatchState,
  type QuestionBoardRow,
  type QuestionFilters,
  type QuestionPage,
  type QuestionSort,
  type QuestionState,
} from './admin-types.ts';
import { editorOnly, likePattern, oneLine } from './checks.ts';
import { CSV_MAX_ROWS, SEARCH_MAX } from './review.ts';
import { parseId } from '#src/core/ids.ts';
import { selectInCommunity, selectInCommunityAs } from '#src/db/tenancy.ts';

/**
 * The editors' boards of questions and batches (issue 15: "board views with filters, search, sort,
 * keyset pages and CSV export, as the articles board has"). The questions' board spans every panel
 * and batch of the community: each question with its panel, batch, deadline, state and its answers
 * counted by status, in one statement (a lateral count per question, never a query per row). The
 * batches' list gets filters by panel and state, a search in titles and keyset pages.
 *
 * A question's state: 'draft' while its batch is not sent; else 'closed' once an editor closed it;
 * else 'past' when its batch's deadline has passed; else 'open'.
 */

const oneOf = <T extends string>(list: readonly T[], v: unknown): T | null => (typeof v === 'string' && (list as readonly string[]).includes(v.toLowerCase()) ? (v.toLowerCase() as T) : null);
/** A search in titles: the answers board's rules (one line, no control characters, at most SEARCH_MAX); a bad one is the field error `q`. */
const searchOf = (v: unknown) => (typeof v === 'string' && v.trim() ? oneLine('q', v, SEARCH_MAX) : null);

/** The questions board's filters from a query string or GraphQL arguments (unknown values are ignored; a bad search is the field error `q`). */
export function questionFiltersOf(input: { panelId?: unknown; batchId?: unknown; state?: unknown; status?: unknown; q?: unknown; sort?: unknown }): QuestionFilters {
  return {
    panelId: parseId(input.panelId),
    batchId: parseId(input.batchId),
    state: oneOf(QUESTION_STATES, input.state ?? input.status),
    q: searchOf(input.q),
    sort: oneOf(QUESTION_SORTS, input.sort) ?? 'newest',
  };
}

/** The batches list's filters (as questionFiltersOf). */
export function batchFiltersOf(input: { panelId?: unknown; state?: unknown; q?: unknown }): BatchFilters {
  return { panelId: parseId(input.panelId), state: oneOf(BATCH_STATES, input.state), q: searchOf(input.q) };
}

/** A refused search as the field shows it again: what was typed, without control characters, cut to a sane length. */
export const typedSearch = (v: unknown): string => (typeof v === 'string' ? v.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, SEARCH_MAX * 2) : '');

/** A page's cursor as a query string or a form gave it (anything odd is the first page). */
export const afterOf = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 && v.length <= 40 && /^[\d._]+$/.test(v) ? v : null);

/** The batches list's query string: its filters, a search that cannot be used as its message (and ignored), and the page. */
export function batchQueryOf(raw: Record<string, unknown>, t: Translate): { filters: BatchFilters; searchError?: string; searchTyped?: string; after: string | null } {
  try {
    return { filters: batchFiltersOf(raw), after: afterOf(raw.after) };
  } catch (e) {
    if (!isAppError(e) || !e.fields?.q) throw e;
    return { filters: batchFiltersOf({ ...raw, q: undefined }), searchError: t(e.fields.q.key, e.fields.q.values), searchTyped: typedSearch(raw.q), after: null };
  }
}

const pageSize = (first: number | undefined) => Math.min(Math.max(Math.trunc(first ?? PAGE_SIZE) || PAGE_SIZE, 1), 100);

/** A cursor `<key>_<id>`: an epoch (with microseconds) or a count, then the row's id; anything else starts at the top. */
function cursorOf(after: unknown, countKey: boolean): { key: string; id: number } | null {
  if (typeof after !== 'string' || after.length > 40) return null;
  const m = countKey ? /^(\d{1,9})_([1-9]\d{0,9})$/.exec(after) : /^(\d{1,12}(?:\.\d{1,6})?)_([1-9]\d{0,9})$/.exec(after);
  if (!m || Number(m[2]) > 2_147_483_647) return null;
  return { key: m[1]!, id: Number(m[2]) };
}

function questionRows(deps: EpDeps) {
  const c = deps.community.id;
  return selectInCommunityAs(deps.db, 'ep_questions', 'q', { id: c })
    .innerJoin('ep_batches as b', (j) => j.onRef('b.id', '=', 'q.batch_id').onRef('b.community_id', '=', 'q.community_id'))
    .innerJoin('ep_panels as p', (j) => j.onRef('p.id', '=', 'q.panel_id').onRef('p.community_id', '=', 'q.community_id'))
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('ep_answers as a')
          .select([
            sql<string>`count(*) filter (where a.status = 'open')`.as('n_open'),
            sql<string>`count(*) filter (where a.status = 'submitted')`.as('n_submitted'),
            sql<string>`count(*) filter (where a.status = 'accepted')`.as('n_accepted'),
            sql<string>`count(*) filter (where a.status = 'declined')`.as('n_declined'),
            sql<string>`count(*) filter (where a.status = 'cant_answer')`.as('n_cant_answer'),
            sql<string>`count(*) filter (where a.status = 'ignored')`.as('n_ignored'),
            // Answers written (in review, accepted or declined): the "most answers" sort.
            sql<number>`(count(*) filter (where a.status in ('submitted', 'accepted', 'declined')))::int`.as('answered'),
          ])
          .whereRef('a.question_id', '=', 'q.id')
          .where('a.community_id', '=', c)
          .as('n'),
      (j) => j.onTrue(),
    )
    .select([
      'q.id',
      'q.title',
      'q.panel_id',
      'p.name as panel_name',
      'q.batch_id',
      'b.title as batch_title',
      'b.deadline_at',
      'b.status as batch_status',
      'q.closed_at',
      'q.created_at',
      'n.n_open',
      'n.n_submitted',
      'n.n_accepted',
      'n.n_declined',
      'n.n_cant_answer',
      'n.n_ignored',
      'n.answered',
      sql<string>`extract(epoch from q.created_at)::text`.as('created_epoch'),
      sql<string>`extract(epoch from b.deadline_at)::text`.as('deadline_epoch'),
    ]);
}

type QuestionRecord = Awaited<ReturnType<ReturnType<typeof questionRows>['executeTakeFirstOrThrow']>>;

function stateOf(r: { batch_status: string; closed_at: unknown; deadline_at: unknown }, now: Date): QuestionState {
  if (r.batch_status === 'draft') return 'draft';
  if (r.closed_at) return 'closed';
  return new Date(r.deadline_at as string).getTime() <= now.getTime() ? 'past' : 'open';
}

function questionRow(r: QuestionRecord, now: Date): QuestionBoardRow {
  const counts: Record<EpAnswerStatus, number> = {
    open: Number(r.n_open ?? 0),
    submitted: Number(r.n_submitted ?? 0),
    accepted: Number(r.n_accepted ?? 0),
    declined: Number(r.n_declined ?? 0),
    cant_answer: Number(r.n_cant_answer ?? 0),
    ignored: Number(r.n_ignored ?? 0),
  };
  return {
    id: r.id,
    title: r.title,
    panelId: r.panel_id,
    panelName: r.panel_name,
    batchId: r.batch_id,
    batchTitle: r.batch_title,
    deadlineAt: new Date(r.deadline_at),
    state: stateOf(r, now),
    closedAt: r.closed_at ? new Date(r.closed_at) : null,
    createdAt: new Date(r.created_at),
    counts,
    answered: Number(r.answered ?? 0),
  };
}

function filteredQuestions(deps: EpDeps, f: QuestionFilters) {
  const now = deps.clock.now();
  let qb = questionRows(deps);
  if (f.panelId) qb = qb.where('q.panel_id', '=', f.panelId);
  if (f.batchId) qb = qb.where('q.batch_id', '=', f.batchId);
  if (f.state === 'draft') qb = qb.where('b.status', '=', 'draft');
  if (f.state === 'closed') qb = qb.where('b.status', '=', 'sent').where('q.closed_at', 'is not', null);
  if (f.state === 'open') qb = qb.where('b.status', '=', 'sent').where('q.closed_at', 'is', null).where('b.deadline_at', '>', now);
  if (f.state === 'past') qb = qb.where('b.status', '=', 'sent').where('q.closed_at', 'is', null).where('b.deadline_at', '<=', now);
  if (f.q) qb = qb.where('q.title', 'ilike', likePattern(f.q));
  return qb;
}

const ordered = <Q extends ReturnType<typeof filteredQuestions>>(qb: Q, sort: QuestionSort): Q =>
  (sort === 'deadline'
    ? qb.orderBy('b.deadline_at', 'asc').orderBy('q.id', 'asc')
    : sort === 'answers'
      ? qb.orderBy(sql`n.answered`, 'desc').orderBy('q.id', 'desc')
      : qb.orderBy('q.created_at', 'desc').orderBy('q.id', 'desc')) as Q;

/** The key of a row in this sort, for the next page's cursor. */
const keyOf = (r: QuestionRecord, sort: QuestionSort) => (sort === 'deadline' ? r.deadline_epoch : sort === 'answers' ? String(r.answered ?? 0) : r.created_epoch);

/** The questions' board: one keyset page of the community's questions that match (PAGE_SIZE by default, at most 100). */
export async function questionBoard(deps: EpDeps, viewer: EpViewer, f: QuestionFilters, page: { first?: number; after?: string | null } = {}): Promise<QuestionPage> {
  editorOnly(viewer);
  const first = pageSize(page.first);
  let qb = ordered(filteredQuestions(deps, f), f.sort).limit(first + 1);
  const cursor = cursorOf(page.after, f.sort === 'answers');
  if (cursor) {
    if (f.sort === 'deadline') qb = qb.where(sql<SqlBool>`(extract(epoch from b.deadline_at), q.id) > (${cursor.key}::numeric, ${cursor.id})`);
    else if (f.sort === 'answers') qb = qb.where(sql<SqlBool>`(coalesce(n.answered, 0), q.id) < (${Number(cursor.key)}, ${cursor.id})`);
    else qb = qb.where(sql<SqlBool>`(extract(epoch from q.created_at), q.id) < (${cursor.key}::numeric, ${cursor.id})`);
  }
  const rows = await qb.execute();
  const more = rows.length > first;
  const shown = more ? rows.slice(0, first) : rows;
  const last = shown[shown.length - 1];
  const now = deps.clock.now();
  return { rows: shown.map((r) => questionRow(r, now)), next: more && last ? `${keyOf(last, f.sort)}_${last.id}` : null };
}

/** Every question that matches, for the CSV (at most CSV_MAX_ROWS, in the board's order). */
export async function questionsForExport(deps: EpDeps, viewer: EpViewer, f: QuestionFilters): Promise<QuestionBoardRow[]> {
  editorOnly(viewer);
  const rows = await ordered(filteredQuestions(deps, f), f.sort).limit(CSV_MAX_ROWS).execute();
  const now = deps.clock.now();
  return rows.map((r) => questionRow(r, now));
}

// ---- Batches ----

/** A batch's title for the board narrowed to it (null when it is not this community's). */
export async function batchTitle(deps: EpDeps, viewer: EpViewer, id: number): Promise<{ id: number; title: string } | null> {
  editorOnly(viewer);
  const row = await selectInCommunity(deps.db, 'ep_batches', deps.community).select(['id', 'title']).where('id', '=', id).executeTakeFirst();
  return row ?? null;
}

function batchRows(deps: EpDeps) {
  const c = deps.community.id;
  return selectInCommunityAs(deps.db, 'ep_batches', 'b', { id: c })
    .innerJoin('ep_panels as p', (j) => j.onRef('p.id', '=', 'b.panel_id').onRef('p.community_id', '=', 'b.community_id'))
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('ep_questions as q')
          .select([sql<number>`count(*)::int`.as('questions'), sql<number>`(count(*) filter (where q.closed_at is not null))::int`.as('closed')])
          .whereRef('q.batch_id', '=', 'b.id')
          .where('q.community_id', '=', c)
          .as('n'),
      (j) => j.onTrue(),
    )
    .select(['b.id', 'b.panel_id', 'p.name as panel_name', 'b.title', 'b.deadline_at', 'b.status', 'b.sent_at', 'b.created_at', 'n.questions', 'n.closed', sql<string>`extract(epoch from b.created_at)::text`.as('created_epoch')]);
}

/** Closed: sent, with questions, every one of them closed. */
const ALL_CLOSED = sql<SqlBool>`(n.questions > 0 and n.closed = n.questions)`;

/** The batches' list: one keyset page, newest first, of the batches that match. */
export async function batchBoard(deps: EpDeps, viewer: EpViewer, f: BatchFilters, page: { first?: number; after?: string | null } = {}): Promise<BatchPage> {
  editorOnly(viewer);
  const first = pageSize(page.first);
  let qb = batchRows(deps).orderBy('b.created_at', 'desc').orderBy('b.id', 'desc').limit(first + 1);
  if (f.panelId) qb = qb.where('b.panel_id', '=', f.panelId);
  if (f.state === 'draft') qb = qb.where('b.status', '=', 'draft');
  if (f.state === 'sent') qb = qb.where('b.status', '=', 'sent').where(sql<SqlBool>`not ${ALL_CLOSED}`);
  if (f.state === 'closed') qb = qb.where('b.status', '=', 'sent').where(ALL_CLOSED);
  if (f.q) qb = qb.where('b.title', 'ilike', likePattern(f.q));
  const cursor = cursorOf(page.after, false);
  if (cursor) qb = qb.where(sql<SqlBool>`(extract(epoch from b.created_at), b.id) < (${cursor.key}::numeric, ${cursor.id})`);
  const rows = await qb.execute();
  const more = rows.length > first;
  const shown = more ? rows.slice(0, first) : rows;
  const last = shown[shown.length - 1];
  return {
    rows: shown.map((r): BatchBoardRow => {
      const questions = Number(r.questions ?? 0);
      const closed = Number(r.closed ?? 0);
      const state: BatchState = r.status === 'draft' ? 'draft' : questions > 0 && closed === questions ? 'closed' : 'sent';
      return {
        id: r.id,
        panelId: r.panel_id,
        panelName: r.panel_name,
        title: r.title,
        deadlineAt: new Date(r.deadline_at),
        status: r.status,
        sentAt: r.sent_at ? new Date(r.sent_at) : null,
        questionCount: questions,
        createdAt: new Date(r.created_at),
        state,
        closedCount: closed,
      };
    }),
    next: more && last ? `${last.created_epoch}_${last.id}` : null,
  };
}
