import { parseId } from '#src/core/ids.ts';
import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import type { EpAnswerStatus } from '#src/db/types.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity } from '#src/db/tenancy.ts';
import { epTransaction, type EpDeps, type EpViewer } from '../deps.ts';
import { BATCH_TITLE_MAX, BRIEF_MAX, QUESTION_TITLE_MAX, QUESTIONS_PER_BATCH_MAX } from '../rules.ts';
import type { BatchDetail, BatchRow, QuestionRow } from './admin-types.ts';
import { dateTimeField, editorOnly, fieldError, oneLine, richText } from './checks.ts';

/**
 * Batches and their questions as editors write and send them (issue 15). A batch is written as a
 * draft (a panel, a title, a deadline in the future, up to QUESTIONS_PER_BATCH_MAX questions: title,
 * brief, guidelines as sanitised rich text). Sending it is one transaction: the batch is 'sent', each
 * question gets one 'open' answer row per active member of the panel (a second send finds nothing to
 * add), and the job INVITE_JOB is enqueued with those writes (slice C's handler tells the members).
 * A sent batch's questions can no longer change, but each can be closed and reopened.
 */

/** The job that tells the members of a sent batch (its handler is the invitations' area). */
export const INVITE_JOB = 'expert-panels.invite';
export type InviteJob = { communityId: number; batchId: number };

export type BatchInput = { panelId?: unknown; title?: unknown; deadline?: unknown };
export type QuestionInput = { title?: unknown; brief?: unknown; guidelines?: unknown };

function batchRows(deps: EpDeps) {
  return selectInCommunityAs(deps.db, 'ep_batches', 'b', deps.community)
    .innerJoin('ep_panels as p', 'p.id', 'b.panel_id')
    .select((eb) => [
      'b.id',
      'b.panel_id',
      'p.name as panel_name',
      'b.title',
      'b.deadline_at',
      'b.status',
      'b.sent_at',
      'b.created_at',
      eb.selectFrom('ep_questions as q').select(eb.fn.countAll<string>().as('n')).whereRef('q.batch_id', '=', 'b.id').as('question_count'),
    ]);
}

type BatchRecord = Awaited<ReturnType<ReturnType<typeof batchRows>['executeTakeFirstOrThrow']>>;

const batchRow = (r: BatchRecord): BatchRow => ({
  id: r.id,
  panelId: r.panel_id,
  panelName: r.panel_name,
  title: r.title,
  deadlineAt: new Date(r.deadline_at),
  status: r.status,
  sentAt: r.sent_at ? new Date(r.sent_at) : null,
  questionCount: Number(r.question_count ?? 0),
  createdAt: new Date(r.created_at),
});

/** The community's batches, newest first (at most 200). */
export async function listBatches(deps: EpDeps, viewer: EpViewer): Promise<BatchRow[]> {
  editorOnly(viewer);
  const rows = await batchRows(deps).orderBy('b.created_at', 'desc').orderBy('b.id', 'desc').limit(200).execute();
  return rows.map(batchRow);
}

/** A batch with its questions (and their answers by status), or NotFound. */
export async function getBatch(deps: EpDeps, viewer: EpViewer, id: number): Promise<BatchDetail> {
  editorOnly(viewer);
  const row = await batchRows(deps).where('b.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('ExpertPanels.NotFound');
  const questions = await selectInCommunity(deps.db, 'ep_questions', deps.community)
    .selectAll()
    .where('batch_id', '=', id)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const counts = questions.length
    ? await selectInCommunity(deps.db, 'ep_answers', deps.community)
        .select(['question_id', 'status', sql<string>`count(*)`.as('n')])
        .where(
          'question_id',
          'in',
          questions.map((q) => q.id),
        )
        .groupBy(['question_id', 'status'])
        .execute()
    : [];
  const countsOf = (qid: number) => {
    const out: Partial<Record<EpAnswerStatus, number>> = {};
    for (const c of counts) if (c.question_id === qid) out[c.status] = Number(c.n);
    return out;
  };
  return {
    ...batchRow(row),
    questions: questions.map(
      (q): QuestionRow => ({
        id: q.id,
        batchId: q.batch_id,
        panelId: q.panel_id,
        title: q.title,
        briefHtml: q.brief_html,
        guidelinesHtml: q.guidelines_html,
        position: q.position,
        closedAt: q.closed_at ? new Date(q.closed_at) : null,
        counts: countsOf(q.id),
      }),
    ),
  };
}

/** Creates a draft batch for an open (not archived) panel of the community, deadline in the future. */
export async function createBatch(deps: EpDeps, viewer: EpViewer, input: BatchInput): Promise<number> {
  editorOnly(viewer);
  const panelId = parseId(input.panelId);
  if (panelId === null) throw fieldError('panelId', 'panelRequired');
  const title = oneLine('title', input.title, BATCH_TITLE_MAX);
  const now = deps.clock.now();
  const deadline = dateTimeField('deadline', input.deadline, now);
  const panel = await selectInCommunity(deps.db, 'ep_panels', deps.community)
    .select('id')
    .where('id', '=', panelId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  if (!panel) throw fieldError('panelId', 'panelRequired');
  const row = await insertInCommunity(deps.db, 'ep_batches', deps.community, { panel_id: panelId, title, deadline_at: deadline, status: 'draft', created_by: viewer.userId, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A batch of this community, or NotFound; with `draft`, a sent one is 'ExpertPanels.BatchSent'. */
async function ownBatch(db: EpDeps['db'], deps: EpDeps, id: number, { draft = false, lock = false } = {}) {
  let q = selectInCommunity(db, 'ep_batches', deps.community).select(['id', 'panel_id', 'status', 'deadline_at']).where('id', '=', id);
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw new AppError('ExpertPanels.NotFound');
  if (draft && row.status !== 'draft') throw new AppError('ExpertPanels.BatchSent');
  return row;
}

function checkQuestion(input: QuestionInput) {
  const title = oneLine('title', input.title, QUESTION_TITLE_MAX);
  const brief = richText('brief', input.brief, BRIEF_MAX);
  const guidelines = richText('guidelines', input.guidelines, BRIEF_MAX);
  return { title, brief_html: brief.html, guidelines_html: guidelines.html };
}

/** Adds a question to a draft batch (at most QUESTIONS_PER_BATCH_MAX: the field error `title`). */
export async function addQuestion(deps: EpDeps, viewer: EpViewer, batchId: number, input: QuestionInput): Promise<number> {
  editorOnly(viewer);
  const clean = checkQuestion(input);
  return epTransaction(deps.db, async (trx) => {
    const batch = await ownBatch(trx, deps, batchId, { draft: true, lock: true });
    const { n, top } = await selectInCommunity(trx, 'ep_questions', deps.community)
      .select([sql<string>`count(*)`.as('n'), sql<number | null>`max(position)`.as('top')])
      .where('batch_id', '=', batchId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= QUESTIONS_PER_BATCH_MAX) throw fieldError('title', 'tooManyQuestions', { max: QUESTIONS_PER_BATCH_MAX });
    const row = await insertInCommunity(trx, 'ep_questions', deps.community, { batch_id: batchId, panel_id: batch.panel_id, ...clean, position: Number(top ?? -1) + 1, created_at: deps.clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
}

/** A question of this community with its batch's status, or NotFound. */
async function ownQuestion(deps: EpDeps, id: number) {
  const row = await selectInCommunityAs(deps.db, 'ep_questions', 'q', deps.community)
    .innerJoin('ep_batches as b', 'b.id', 'q.batch_id')
    .select(['q.id', 'q.batch_id', 'b.status', 'q.closed_at'])
    .where('q.id', '=', id)
    .executeTakeFirst();
  if (!row) throw new AppError('ExpertPanels.NotFound');
  return row;
}

/** Changes a question of a draft batch; returns its batch id. */
export async function updateQuestion(deps: EpDeps, viewer: EpViewer, questionId: number, input: QuestionInput): Promise<number> {
  editorOnly(viewer);
  const clean = checkQuestion(input);
  const q = await ownQuestion(deps, questionId);
  return epTransaction(deps.db, async (trx) => {
    await ownBatch(trx, deps, q.batch_id, { draft: true, lock: true });
    await updateInCommunity(trx, 'ep_questions', deps.community).set(clean).where('id', '=', questionId).execute();
    return q.batch_id;
  });
}

/** Removes a question of a draft batch; returns its batch id. */
export async function removeQuestion(deps: EpDeps, viewer: EpViewer, questionId: number): Promise<number> {
  editorOnly(viewer);
  const q = await ownQuestion(deps, questionId);
  return epTransaction(deps.db, async (trx) => {
    await ownBatch(trx, deps, q.batch_id, { draft: true, lock: true });
    await deleteInCommunity(trx, 'ep_questions', deps.community).where('id', '=', questionId).execute();
    return q.batch_id;
  });
}

/**
 * Sends a draft batch (the contract's transaction): 'sent' and sent_at; one 'open' answer row per
 * question × active member of the panel (on conflict nothing); INVITE_JOB enqueued in the same
 * transaction. A batch without questions, a panel without active members, or a deadline already
 * past is a field error `form`; a batch already sent is 'ExpertPanels.BatchSent'. Returns how many
 * answer rows were made.
 */
export async function sendBatch(deps: EpDeps, viewer: EpViewer, batchId: number): Promise<{ answers: number; members: number }> {
  editorOnly(viewer);
  const c = deps.community;
  const now = deps.clock.now();
  return epTransaction(deps.db, async (trx) => {
    const batch = await ownBatch(trx, deps, batchId, { draft: true, lock: true });
    if (new Date(batch.deadline_at).getTime() <= now.getTime()) throw fieldError('form', 'deadlinePast');
    // The panel FOR UPDATE: a member joining it by themselves (join.ts holds it FOR SHARE) commits
    // before the members are read here, or joins after this commits and finds the batch sent.
    await selectInCommunity(trx, 'ep_panels', c).select('id').where('id', '=', batch.panel_id).forUpdate().execute();
    const questions = await selectInCommunity(trx, 'ep_questions', c).select('id').where('batch_id', '=', batchId).execute();
    if (questions.length === 0) throw fieldError('form', 'noQuestions');
    const members = await selectInCommunityAs(trx, 'ep_panel_members', 'pm', c)
      .innerJoin('memberships as m', (j) => j.onRef('m.user_id', '=', 'pm.user_id').onRef('m.community_id', '=', 'pm.community_id'))
      .innerJoin('users as u', 'u.id', 'pm.user_id')
      .select('pm.user_id')
      .where('pm.panel_id', '=', batch.panel_id)
      .where('m.is_active', '=', true)
      .where('u.is_active', '=', true)
      .execute();
    if (members.length === 0) throw fieldError('form', 'noMembers');
    await updateInCommunity(trx, 'ep_batches', c).set({ status: 'sent', sent_at: now }).where('id', '=', batchId).execute();
    const values = questions.flatMap((q) => members.map((m) => ({ question_id: q.id, user_id: m.user_id, status: 'open' as const, sent_at: now, status_at: now })));
    let made = 0;
    for (let i = 0; i < values.length; i += 1000) {
      const rows = await insertInCommunity(trx, 'ep_answers', c, values.slice(i, i + 1000))
        .onConflict((oc) => oc.columns(['question_id', 'user_id']).doNothing())
        .returning('id')
        .execute();
      made += rows.length;
    }
    const job: InviteJob = { communityId: c.id, batchId };
    await deps.jobs.enqueue(trx, INVITE_JOB, job);
    return { answers: made, members: members.length };
  });
}

/** Closes a question (no new answers or edits); closing a closed one changes nothing. Returns its batch id. */
export async function closeQuestion(deps: EpDeps, viewer: EpViewer, questionId: number): Promise<number> {
  editorOnly(viewer);
  const q = await ownQuestion(deps, questionId);
  await updateInCommunity(deps.db, 'ep_questions', deps.community)
    .set({ closed_at: deps.clock.now(), closed_by: viewer.userId })
    .where('id', '=', questionId)
    .where('closed_at', 'is', null)
    .execute();
  return q.batch_id;
}

/** Opens a closed question again. Returns its batch id. */
export async function reopenQuestion(deps: EpDeps, viewer: EpViewer, questionId: number): Promise<number> {
  editorOnly(viewer);
  const q = await ownQuestion(deps, questionId);
  await updateInCommunity(deps.db, 'ep_questions', deps.community).set({ closed_at: null, closed_by: null }).where('id', '=', questionId).execute();
  return q.batch_id;
}

/** A question's title and state, for the answers' pages (NotFound when not this community's). */
export async function questionSummary(deps: EpDeps, viewer: EpViewer, questionId: number): Promise<{ id: number; title: string; batchId: number; closed: boolean }> {
  editorOnly(viewer);
  const row = await selectInCommunity(deps.db, 'ep_questions', deps.community).select(['id', 'title', 'batch_id', 'closed_at']).where('id', '=', questionId).executeTakeFirst();
  if (!row) throw new AppError('ExpertPanels.NotFound');
  return { id: row.id, title: row.title, batchId: row.batch_id, closed: row.closed_at !== null };
}
