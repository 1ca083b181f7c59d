import { sql } from 'kysely';
import { AppError, type FieldErrors } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import type { Db } from '#src/db/index.ts';
import type { RoundupStatus } from '#src/db/types.ts';
import { plainText } from '#src/lib/plain-text.ts';
import { cleanRichText } from '#src/lib/rich-text.ts';
import { ensureEditor, epTransaction, type EpDeps, type EpViewer } from '../deps.ts';
import { ANSWER_HTML_MAX, BRIEF_MAX, canMoveRoundup, isRoundupStatus } from '../rules.ts';
import { livePathOf } from './read.ts';
import { slugify } from './slug.ts';
import { parseId } from '#src/core/ids.ts';
import { enqueueBadgeCheck } from '#src/features/badges/index.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, updateInCommunity } from '#src/db/tenancy.ts';

/**
 * Composing and moving roundups (issue 15; spec section 4): an editor makes a roundup of one
 * question (a title, an introduction), gathers accepted answers of THAT question in an order, and
 * moves it DRAFT → EDITOR_REVIEW → READY_FOR_PUBLISHING → FINAL along the moves rules.ts allows, each
 * move logged (who, when) in the same transaction. FINAL gives it a slug (unique in the community),
 * its publication time, and tells each contributor once; a FINAL roundup is frozen.
 */

export const ROUNDUP_TITLE_MAX = 200;
/** The most answers one roundup carries. */
export const ROUNDUP_ANSWERS_MAX = 100;

const field = (key: string, values?: Record<string, unknown>) => ({ code: 'ExpertPanels.Invalid' as const, key, values });
const invalid = (fields: FieldErrors) => new AppError('ExpertPanels.Invalid', { fields });

/** The title and the introduction (HTML, sanitised as articles are), or the fields' messages. */
function checkText(input: { title?: unknown; intro?: unknown }): { title: string; introHtml: string } {
  const title = typeof input.title === 'string' ? input.title : '';
  const intro = typeof input.intro === 'string' ? input.intro : '';
  ensureText({ title, intro }, ['intro']);
  const fields: FieldErrors = {};
  const cleanTitle = title.replace(/\s+/g, ' ').trim();
  if (!cleanTitle) fields.title = field('expertPanelsRoundups.errors.titleRequired');
  else if (cleanTitle.length > ROUNDUP_TITLE_MAX) fields.title = field('expertPanelsRoundups.errors.titleTooLong', { max: ROUNDUP_TITLE_MAX });
  let introHtml = '';
  if (intro.length > ANSWER_HTML_MAX) fields.intro = field('expertPanelsRoundups.errors.introTooLong', { max: BRIEF_MAX });
  else {
    introHtml = cleanRichText(intro).trim();
    if (plainText(introHtml).trim().length > BRIEF_MAX) fields.intro = field('expertPanelsRoundups.errors.introTooLong', { max: BRIEF_MAX });
    if (!plainText(introHtml).trim()) introHtml = '';
  }
  if (Object.keys(fields).length) throw invalid(fields);
  return { title: cleanTitle, introHtml };
}

type Locked = { id: number; question_id: number; status: RoundupStatus; title: string };

/** The roundup, locked for this transaction (else NotFound); `editable`: refused once FINAL. */
async function lockRoundup(trx: Db, deps: EpDeps, id: number, editable: boolean): Promise<Locked> {
  const row = await selectInCommunity(trx, 'ep_roundups', deps.community)
    .select(['id', 'question_id', 'status', 'title'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw new AppError('ExpertPanels.NotFound');
  if (editable && row.status === 'FINAL') throw new AppError('ExpertPanels.RoundupPublished');
  return row;
}

/** A new roundup (DRAFT) of a question of the community; answers its id. */
export async function createRoundup(deps: EpDeps, viewer: EpViewer, input: { questionId: unknown; title?: unknown; intro?: unknown }): Promise<{ id: number }> {
  ensureEditor(viewer);
  const questionId = typeof input.questionId === 'number' ? parseId(input.questionId) : null;
  let text: { title: string; introHtml: string } | null = null;
  const fields: FieldErrors = {};
  try {
    text = checkText(input);
  } catch (e) {
    if (!(e instanceof AppError) || e.code !== 'ExpertPanels.Invalid') throw e;
    Object.assign(fields, e.fields);
  }
  if (questionId === null) fields.questionId = field('expertPanelsRoundups.errors.questionRequired');
  if (Object.keys(fields).length || !text || questionId === null) throw invalid(fields);
  const question = await selectInCommunity(deps.db, 'ep_questions', deps.community).select('id').where('id', '=', questionId).executeTakeFirst();
  if (!question) throw invalid({ questionId: field('expertPanelsRoundups.errors.questionRequired') });
  const now = deps.clock.now();
  const row = await insertInCommunity(deps.db, 'ep_roundups', deps.community, { question_id: question.id, title: text.title, intro_html: text.introHtml, created_by: viewer.userId, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id };
}

/** A new title and introduction (an introduction left out: kept as it is). Refused once FINAL. */
export async function updateRoundup(deps: EpDeps, viewer: EpViewer, id: number, input: { title?: unknown; intro?: unknown }): Promise<void> {
  ensureEditor(viewer);
  const text = checkText(input);
  const changes = input.intro === undefined ? { title: text.title } : { title: text.title, intro_html: text.introHtml };
  await epTransaction(deps.db, async (trx) => {
    await lockRoundup(trx, deps, id, true);
    await updateInCommunity(trx, 'ep_roundups', deps.community).set({ ...changes, updated_at: deps.clock.now() }).where('id', '=', id).execute();
  });
}

/** Answer ids from any client: positive integers, at most ROUNDUP_ANSWERS_MAX, each once (else a field error). */
export function answerIdsOf(value: unknown): number[] {
  const list = Array.isArray(value) ? value : value == null ? [] : [value];
  if (list.length > ROUNDUP_ANSWERS_MAX) throw invalid({ answerIds: field('expertPanelsRoundups.errors.tooMany', { max: ROUNDUP_ANSWERS_MAX }) });
  const ids: number[] = [];
  for (const v of list) {
    const n = parseId(typeof v === 'string' ? v.trim() : v);
    if (n === null) throw invalid({ answerIds: field('expertPanelsRoundups.errors.notAccepted') });
    if (ids.includes(n)) throw invalid({ answerIds: field('expertPanelsRoundups.errors.duplicate') });
    ids.push(n);
  }
  return ids;
}

/** Within a locked roundup's transaction: its answers become `ids`, in that order (each an accepted answer of its question). */
async function writeAnswers(trx: Db, deps: EpDeps, roundup: Locked, ids: number[]): Promise<void> {
  if (ids.length > 0) {
    const found = await selectInCommunity(trx, 'ep_answers', deps.community)
      .select('id')
      .where('question_id', '=', roundup.question_id)
      .where('status', '=', 'accepted')
      .where('id', 'in', ids)
      .execute();
    if (found.length !== ids.length) throw invalid({ answerIds: field('expertPanelsRoundups.errors.notAccepted') });
  }
  await deleteInCommunity(trx, 'ep_roundup_answers', deps.community).where('roundup_id', '=', roundup.id).execute();
  if (ids.length > 0) {
    await insertInCommunity(trx, 'ep_roundup_answers', deps.community, ids.map((answerId, i) => ({ roundup_id: roundup.id, answer_id: answerId, position: i + 1 })))
      .execute();
  }
  await updateInCommunity(trx, 'ep_roundups', deps.community).set({ updated_at: deps.clock.now() }).where('id', '=', roundup.id).execute();
}

async function currentIds(trx: Db, deps: EpDeps, roundupId: number): Promise<number[]> {
  const rows = await selectInCommunity(trx, 'ep_roundup_answers', deps.community)
    .select('answer_id')
    .where('roundup_id', '=', roundupId)
    .orderBy('position')
    .orderBy('answer_id')
    .execute();
  return rows.map((r) => r.answer_id);
}

/** The roundup's answers are exactly these, in this order (the GraphQL operation, explicit positions). */
export async function setRoundupAnswers(deps: EpDeps, viewer: EpViewer, id: number, answerIds: unknown): Promise<void> {
  ensureEditor(viewer);
  const ids = answerIdsOf(answerIds);
  await epTransaction(deps.db, async (trx) => writeAnswers(trx, deps, await lockRoundup(trx, deps, id, true), ids));
}

/** Changes the list with `change` (given the current ids) inside one locked transaction. */
async function changeAnswers(deps: EpDeps, viewer: EpViewer, id: number, change: (ids: number[]) => number[]): Promise<void> {
  ensureEditor(viewer);
  await epTransaction(deps.db, async (trx) => {
    const roundup = await lockRoundup(trx, deps, id, true);
    await writeAnswers(trx, deps, roundup, change(await currentIds(trx, deps, id)));
  });
}

const notInRoundup = () => invalid({ answerIds: field('expertPanelsRoundups.errors.notInRoundup') });

/** Adds an accepted answer of the question at the end (already in: nothing changes). */
export const addRoundupAnswer = (deps: EpDeps, viewer: EpViewer, id: number, answerId: number) =>
  changeAnswers(deps, viewer, id, (ids) => {
    if (ids.length >= ROUNDUP_ANSWERS_MAX && !ids.includes(answerId)) throw invalid({ answerIds: field('expertPanelsRoundups.errors.tooMany', { max: ROUNDUP_ANSWERS_MAX }) });
    return ids.includes(answerId) ? ids : [...ids, answerId];
  });

export const removeRoundupAnswer = (deps: EpDeps, viewer: EpViewer, id: number, answerId: number) =>
  changeAnswers(deps, viewer, id, (ids) => {
    if (!ids.includes(answerId)) throw notInRoundup();
    return ids.filter((a) => a !== answerId);
  });

/** One place up or down (at either end: nothing changes). */
export const moveRoundupAnswer = (deps: EpDeps, viewer: EpViewer, id: number, answerId: number, direction: unknown) =>
  changeAnswers(deps, viewer, id, (ids) => {
    if (direction !== 'up' && direction !== 'down') throw new AppError('BadRequest.Validation');
    const at = ids.indexOf(answerId);
    if (at < 0) throw notInRoundup();
    const to = direction === 'up' ? at - 1 : at + 1;
    if (to < 0 || to >= ids.length) return ids;
    const next = [...ids];
    [next[at], next[to]] = [next[to]!, next[at]!];
    return next;
  });

/**
 * Explicit places (a form's numbers, answer id -> place from 1): the answers sorted by them, ties and
 * answers not given keeping their current order (the latter at the end).
 */
export const orderRoundupAnswers = (deps: EpDeps, viewer: EpViewer, id: number, places: Record<number, unknown>) =>
  changeAnswers(deps, viewer, id, (ids) =>
    ids
      .map((answerId, i) => {
        const raw = places[answerId];
        if (raw === undefined) return { answerId, n: Number.MAX_SAFE_INTEGER, i };
        const s = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
        if (!/^\d{1,4}$/.test(s) || Number(s) < 1) throw invalid({ answerIds: field('expertPanelsRoundups.errors.position') });
        return { answerId, n: Number(s), i };
      })
      .sort((a, b) => a.n - b.n || a.i - b.i)
      .map((k) => k.answerId),
  );

/** The first of `base`, `base-2`, `base-3`… that no roundup of the community has. */
async function freeSlug(trx: Db, deps: EpDeps, base: string): Promise<string> {
  const taken = await selectInCommunity(trx, 'ep_roundups', deps.community)
    .select('slug')
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
    .execute();
  const used = new Set(taken.map((r) => r.slug));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

const isSlugClash = (e: unknown) => {
  const err = e as { code?: string; constraint?: string; message?: string } | null;
  return err?.code === '23505' && (err.constraint === 'ep_roundups_slug' || String(err.message ?? '').includes('ep_roundups_slug'));
};

/**
 * Moves the roundup to `to` when rules.ts allows it from its status (else ExpertPanels.MoveNotAllowed),
 * logging the move; leaving DRAFT needs at least one answer. FINAL publishes: slug, published_at, and
 * one notification per contributor (kind expert_answers) naming the roundup, with its live address.
 */
export async function moveRoundup(deps: EpDeps, viewer: EpViewer, id: number, to: unknown): Promise<{ status: RoundupStatus; slug: string | null }> {
  ensureEditor(viewer);
  if (!isRoundupStatus(to)) throw new AppError('ExpertPanels.MoveNotAllowed');
  try {
    return await epTransaction(deps.db, async (trx) => {
      const roundup = await lockRoundup(trx, deps, id, false);
      if (!canMoveRoundup(roundup.status, to)) throw new AppError('ExpertPanels.MoveNotAllowed');
      const ids = await currentIds(trx, deps, id);
      // Leaving DRAFT, and publishing (answers may have been removed since), need at least one answer.
      if ((roundup.status === 'DRAFT' || to === 'FINAL') && ids.length === 0) throw new AppError('ExpertPanels.RoundupEmpty');
      const now = deps.clock.now();
      let slug: string | null = null;
      if (to === 'FINAL') {
        slug = await freeSlug(trx, deps, slugify(roundup.title));
        await updateInCommunity(trx, 'ep_roundups', deps.community).set({ status: to, slug, published_at: now, updated_at: now }).where('id', '=', id).execute();
      } else {
        await updateInCommunity(trx, 'ep_roundups', deps.community).set({ status: to, updated_at: now }).where('id', '=', id).execute();
      }
      await insertInCommunity(trx, 'ep_roundup_moves', deps.community, { roundup_id: id, from_status: roundup.status, to_status: to, actor_id: viewer.userId, created_at: now }).execute();
      if (slug !== null && ids.length > 0) {
        const contributors = await selectInCommunity(trx, 'ep_answers', deps.community)
          .select(sql<number>`distinct user_id`.as('user_id'))
          .where('id', 'in', ids)
          .execute();
        const message = deps.t('expertPanelsRoundups.notify.published', { title: roundup.title });
        for (const c of [...new Set(contributors.map((r) => r.user_id))].sort((a, b) => a - b)) {
          await deps.notifier.notify(trx, { communityId: deps.community.id, userId: c, kind: 'expert_answers', url: livePathOf(slug), message, createdAt: now });
        }
        // Each contributor may have earned the expert contributor badge (checked by its job once this commits).
        await enqueueBadgeCheck(deps.jobs, trx, deps.community, contributors.map((r) => r.user_id));
      }
      return { status: to, slug };
    });
  } catch (e) {
    // Two roundups of the same title published at the same moment: nothing was written, try again.
    if (isSlugClash(e)) throw new AppError('ExpertPanels.Busy');
    throw e;
  }
}
