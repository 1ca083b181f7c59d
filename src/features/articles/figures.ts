import { sql } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { dayOf, instantsOf, type DayCount, type DayRange, type MemberCount } from '#src/lib/figures.ts';
import type { ArticleStatus } from './rules.ts';

/**
 * The articles' figures for the staff's insights (issue 29): the review pipeline as a funnel. Each
 * stage counts the articles that reached it on a day (an article sent back and submitted again on
 * another day counts again there; twice the same day, once).
 */

/** The funnel's stages, in the pipeline's order, and the statuses whose arrival each counts. */
export const ARTICLE_FUNNEL: readonly { stage: ArticleFunnelStage; statuses: readonly ArticleStatus[] }[] = [
  { stage: 'started', statuses: [] },
  { stage: 'submitted', statuses: ['SUBMITTED_FOR_REVIEW'] },
  { stage: 'edited', statuses: ['FIRST_ROUND_EDIT'] },
  { stage: 'finalEdit', statuses: ['FINAL_EDIT'] },
  { stage: 'approved', statuses: ['READY_TO_PUBLISH'] },
  { stage: 'published', statuses: ['PUBLISHED', 'MANUALLY_PUBLISHED'] },
];
export type ArticleFunnelStage = 'started' | 'submitted' | 'edited' | 'finalEdit' | 'approved' | 'published';

/** Each stage of the funnel by day (UTC): articles started (created), then each stage reached. */
export async function articleFunnelByDay(db: Db, community: Tenant, range: DayRange): Promise<Record<ArticleFunnelStage, DayCount[]>> {
  const { start, end } = instantsOf(range);
  const createdDay = dayOf('articles.created_at');
  const movedDay = dayOf('article_status_events.created_at');
  const stageOf = new Map(ARTICLE_FUNNEL.flatMap((s) => s.statuses.map((status) => [status, s.stage] as const)));
  const [started, moves] = await Promise.all([
    selectInCommunity(db, 'articles', community)
      .select([createdDay.as('day'), sql<number>`count(*)::int`.as('n')])
      .where('articles.created_at', '>=', start)
      .where('articles.created_at', '<', end)
      .groupBy(createdDay)
      .execute(),
    selectInCommunity(db, 'article_status_events', community)
      .select([movedDay.as('day'), 'article_status_events.to_status', sql<number>`count(distinct article_status_events.article_id)::int`.as('n')])
      .where('article_status_events.created_at', '>=', start)
      .where('article_status_events.created_at', '<', end)
      .where('article_status_events.to_status', 'in', [...stageOf.keys()])
      .groupBy([movedDay, 'article_status_events.to_status'])
      .execute(),
  ]);
  const out = Object.fromEntries(ARTICLE_FUNNEL.map((s) => [s.stage, new Map<string, number>()])) as Record<ArticleFunnelStage, Map<string, number>>;
  for (const r of started) out.started.set(r.day, Number(r.n));
  for (const r of moves) {
    const stage = stageOf.get(r.to_status)!;
    out[stage].set(r.day, (out[stage].get(r.day) ?? 0) + Number(r.n));
  }
  return Object.fromEntries(
    Object.entries(out).map(([stage, days]) => [stage, [...days].sort(([a], [b]) => a.localeCompare(b)).map(([day, value]) => ({ day, value }))]),
  ) as Record<ArticleFunnelStage, DayCount[]>;
}

/** Each member's articles submitted for review since `since`. */
export async function articleSubmissionsByMember(db: Db, community: Tenant, since: Date): Promise<MemberCount[]> {
  const rows = await selectInCommunity(db, 'article_status_events', community)
    .innerJoin('articles', 'articles.id', 'article_status_events.article_id')
    .select(['articles.author_id', sql<number>`count(*)::int`.as('n')])
    .where('article_status_events.to_status', '=', 'SUBMITTED_FOR_REVIEW')
    .where('article_status_events.created_at', '>=', since)
    .groupBy('articles.author_id')
    .execute();
  return rows.map((r) => ({ userId: r.author_id, value: Number(r.n) }));
}
