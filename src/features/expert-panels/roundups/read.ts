import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunityAs, type Tenant } from '#src/db/tenancy.ts';
import type { RoundupStatus } from '#src/db/types.ts';
import { snapshotsOf } from '#src/features/members/index.ts';
import { parseId } from '#src/core/ids.ts';
import { ensureEditor, type EpDeps, type EpViewer } from '../deps.ts';
import { PAGE_SIZE, roundupMovesFrom } from '../rules.ts';
import type { PublishedRoundup, RoundupAnswerView, RoundupDetail, RoundupPage, RoundupQuery, RoundupQuestionChoice, RoundupRow } from './types.ts';

/**
 * Reading roundups (issue 15): the editors' board (filters, search, newest first, keyset pages, the
 * CSV export), one roundup with its answers, the accepted answers that could join it and its moves,
 * the questions a roundup can be made of, and the public live page of a published (FINAL) one.
 * Every query is scoped to the deps' community.
 */

export type RoundupReadDeps = Pick<EpDeps, 'db' | 'community' | 't'>;

/** The live page of a published roundup (an application path: the caller adds the prefix). */
export const livePathOf = (slug: string) => `/expert-panels/roundups/${encodeURIComponent(slug)}`;

/** The most rows one CSV export carries. */
export const EXPORT_MAX = 5000;
export const SEARCH_MAX = 200;

/** The search words, checked (they reach SQL): no control character, at most SEARCH_MAX characters. */
export function searchWords(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  ensureText({ q: value });
  const q = value.replace(/\s+/g, ' ').trim().slice(0, SEARCH_MAX);
  return q || null;
}

function boardBase(db: Db, community: Tenant, query: Pick<RoundupQuery, 'status' | 'q'>) {
  let q = selectInCommunityAs(db, 'ep_roundups', 'r', community)
    .innerJoin('ep_questions as q', (j) => j.onRef('q.id', '=', 'r.question_id').onRef('q.community_id', '=', 'r.community_id'))
    .select([
      'r.id',
      'r.title',
      'r.intro_html',
      'r.status',
      'r.question_id',
      'q.title as question_title',
      'r.slug',
      'r.published_at',
      'r.created_at',
      'r.updated_at',
      (eb) =>
        eb
          .selectFrom('ep_roundup_answers as ra')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('ra.roundup_id', '=', 'r.id')
          .as('answer_count'),
    ]);
  if (query.status) q = q.where('r.status', '=', query.status);
  const words = searchWords(query.q);
  if (words) q = q.where('r.title', 'ilike', `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  return q;
}

type BoardDbRow = {
  id: number;
  title: string;
  intro_html: string;
  status: RoundupStatus;
  question_id: number;
  question_title: string;
  slug: string | null;
  published_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  answer_count: number | null;
};

const rowOf = (r: BoardDbRow): RoundupRow => ({
  id: r.id,
  title: r.title,
  introHtml: r.intro_html,
  status: r.status,
  questionId: r.question_id,
  questionTitle: r.question_title,
  answerCount: Number(r.answer_count ?? 0),
  slug: r.slug,
  publishedAt: r.published_at === null ? null : new Date(r.published_at),
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** The board: newest first, PAGE_SIZE a page (or `first`, at most 100), after a row's id. */
export async function listRoundups(deps: RoundupReadDeps, viewer: EpViewer, query: RoundupQuery, first = PAGE_SIZE): Promise<RoundupPage> {
  ensureEditor(viewer);
  const size = Math.min(Math.max(Math.trunc(first) || PAGE_SIZE, 1), 100);
  let q = boardBase(deps.db, deps.community, query);
  if (query.after !== null && query.after !== '') {
    const after = parseId(query.after);
    if (after === null) throw new AppError('BadRequest.Validation');
    q = q.where('r.id', '<', after);
  }
  const rows = await q.orderBy('r.id', 'desc').limit(size + 1).execute();
  const page = rows.slice(0, size).map(rowOf);
  return { rows: page, next: rows.length > size ? String(page.at(-1)!.id) : null };
}

/** The board's rows for the CSV export: the same filters and order, every row up to EXPORT_MAX. */
export async function exportRoundups(deps: RoundupReadDeps, viewer: EpViewer, query: RoundupQuery): Promise<{ rows: RoundupRow[]; truncated: boolean }> {
  ensureEditor(viewer);
  const rows = await boardBase(deps.db, deps.community, query).orderBy('r.id', 'desc').limit(EXPORT_MAX + 1).execute();
  return { rows: rows.slice(0, EXPORT_MAX).map(rowOf), truncated: rows.length > EXPORT_MAX };
}

/** Answer rows with their members (as they are now), in one query for the rows and one for the members. */
async function answerViews(db: Db, community: Tenant, rows: { id: number; user_id: number; body_html: string; word_count: number; position: number }[]): Promise<RoundupAnswerView[]> {
  const member = await snapshotsOf(db, community, rows.map((r) => r.user_id));
  return rows.map((r) => ({ answerId: r.id, position: r.position, member: member(r.user_id), bodyHtml: r.body_html, wordCount: r.word_count }));
}

/** A roundup's answers in order. */
async function roundupAnswers(db: Db, community: Tenant, roundupId: number) {
  return selectInCommunityAs(db, 'ep_roundup_answers', 'ra', community)
    .innerJoin('ep_answers as a', (j) => j.onRef('a.id', '=', 'ra.answer_id').onRef('a.community_id', '=', 'ra.community_id'))
    .select(['a.id', 'a.user_id', 'a.body_html', 'a.word_count', 'ra.position'])
    .where('ra.roundup_id', '=', roundupId)
    .orderBy('ra.position')
    .orderBy('a.id')
    .execute();
}

/** One roundup of the community for its editors (else ExpertPanels.NotFound). */
export async function getRoundup(deps: RoundupReadDeps, viewer: EpViewer, id: number): Promise<RoundupDetail> {
  ensureEditor(viewer);
  const { db, community } = deps;
  const row = await boardBase(db, community, { status: null, q: null })
    .select('q.brief_html')
    .where('r.id', '=', id)
    .executeTakeFirst();
  if (!row) throw new AppError('ExpertPanels.NotFound');
  const [inRoundup, accepted, moves] = await Promise.all([
    roundupAnswers(db, community, id),
    selectInCommunityAs(db, 'ep_answers', 'a', community)
      .select(['a.id', 'a.user_id', 'a.body_html', 'a.word_count', sql<number>`0`.as('position')])
      .where('a.question_id', '=', row.question_id)
      .where('a.status', '=', 'accepted')
      .where((eb) => eb.not(eb.exists(eb.selectFrom('ep_roundup_answers as ra').select('ra.answer_id').whereRef('ra.answer_id', '=', 'a.id').where('ra.roundup_id', '=', id))))
      .orderBy('a.decided_at')
      .orderBy('a.id')
      .limit(500)
      .execute(),
    selectInCommunityAs(db, 'ep_roundup_moves', 'm', community)
      .leftJoin('users as u', 'u.id', 'm.actor_id')
      .select(['m.id', 'm.from_status', 'm.to_status', 'm.created_at', 'u.first_name', 'u.last_name'])
      .where('m.roundup_id', '=', id)
      .orderBy('m.id', 'desc')
      .limit(200)
      .execute(),
  ]);
  const views = await answerViews(db, community, [...inRoundup, ...accepted]);
  const base = rowOf(row);
  return {
    ...base,
    questionBriefHtml: row.brief_html,
    answers: views.slice(0, inRoundup.length),
    candidates: views.slice(inRoundup.length),
    moves: moves.map((m) => ({
      id: m.id,
      from: m.from_status,
      to: m.to_status,
      actorName: m.first_name === null ? null : `${m.first_name} ${m.last_name ?? ''}`.trim(),
      at: new Date(m.created_at),
    })),
    allowedMoves: [...roundupMovesFrom(base.status)],
    livePath: base.status === 'FINAL' && base.slug ? livePathOf(base.slug) : null,
  };
}

/** The questions a roundup can be made of: those with accepted answers, newest first. */
export async function roundupQuestionChoices(deps: RoundupReadDeps, viewer: EpViewer): Promise<RoundupQuestionChoice[]> {
  ensureEditor(viewer);
  const rows = await selectInCommunityAs(deps.db, 'ep_questions', 'q', deps.community)
    .innerJoin('ep_panels as p', (j) => j.onRef('p.id', '=', 'q.panel_id').onRef('p.community_id', '=', 'q.community_id'))
    .innerJoin('ep_answers as a', (j) => j.onRef('a.question_id', '=', 'q.id').onRef('a.community_id', '=', 'q.community_id'))
    .select(['q.id', 'q.title', 'p.name as panel_name', sql<number>`count(*)::int`.as('n')])
    .where('a.status', '=', 'accepted')
    .groupBy(['q.id', 'q.title', 'p.name'])
    .orderBy('q.id', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => ({ id: r.id, title: r.title, panelName: r.panel_name, acceptedCount: Number(r.n) }));
}

/** A slug as an address carries it: anything else finds nothing (and never reaches SQL). */
const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The live page of a published (FINAL) roundup of this community, or null: for anyone, signed in or not. */
export async function publishedRoundup(deps: RoundupReadDeps, slug: unknown): Promise<PublishedRoundup | null> {
  if (typeof slug !== 'string' || slug.length > 120 || !SLUG_RE.test(slug)) return null;
  const { db, community } = deps;
  const row = await selectInCommunityAs(db, 'ep_roundups', 'r', community)
    .innerJoin('ep_questions as q', (j) => j.onRef('q.id', '=', 'r.question_id').onRef('q.community_id', '=', 'r.community_id'))
    .select(['r.id', 'r.title', 'r.slug', 'r.intro_html', 'r.published_at', 'q.title as question_title', 'q.brief_html'])
    .where('r.slug', '=', slug)
    .where('r.status', '=', 'FINAL')
    .executeTakeFirst();
  if (!row || !row.slug || !row.published_at) return null;
  const answers = await answerViews(db, community, await roundupAnswers(db, community, row.id));
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    introHtml: row.intro_html,
    questionTitle: row.question_title,
    questionBriefHtml: row.brief_html,
    publishedAt: new Date(row.published_at),
    answers,
  };
}

/** A published roundup as the community's syndication feeds carry it: its live page's path (the caller adds the address). */
export type PublicRoundup = { id: number; title: string; slug: string; path: string; introHtml: string; questionTitle: string; publishedAt: Date; updatedAt: Date };

/**
 * The newest published (FINAL) roundups of this community, newest publication first, at most
 * `limit`: the public work the community's feeds syndicate, each at its public live page. With
 * `ids`, only those of these roundups.
 */
export async function publicRoundups(db: Db, community: Tenant, limit: number, ids?: readonly number[]): Promise<PublicRoundup[]> {
  if (ids && ids.length === 0) return [];
  let q = selectInCommunityAs(db, 'ep_roundups', 'r', community);
  // Only these roundups (a feed by the content bank's tags or collections), when given.
  if (ids) q = q.where('r.id', 'in', [...ids]);
  const rows = await q
    .innerJoin('ep_questions as q', (j) => j.onRef('q.id', '=', 'r.question_id').onRef('q.community_id', '=', 'r.community_id'))
    .select(['r.id', 'r.title', 'r.slug', 'r.intro_html', 'r.published_at', 'r.updated_at', 'q.title as question_title'])
    .where('r.status', '=', 'FINAL')
    .where('r.slug', 'is not', null)
    .where('r.published_at', 'is not', null)
    .orderBy('r.published_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(Math.max(1, Math.min(Math.trunc(limit) || 1, 100)))
    .execute();
  return rows.map((r) => {
    const publishedAt = new Date(r.published_at!);
    const updated = new Date(r.updated_at);
    return {
      id: r.id,
      title: r.title,
      slug: r.slug!,
      path: livePathOf(r.slug!),
      introHtml: r.intro_html,
      questionTitle: r.question_title,
      publishedAt,
      updatedAt: updated > publishedAt ? updated : publishedAt,
    };
  });
}
