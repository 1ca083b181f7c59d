import { sql } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { dayCounts, dayOf, instantsOf, type DayCount, type DayRange, type MemberCount } from '#src/lib/figures.ts';

/**
 * The expert panels' figures for the staff's insights (issue 29): answers submitted (by the day of
 * their last submission) and roundups published, by day.
 */
export async function expertFiguresByDay(db: Db, community: Tenant, range: DayRange): Promise<{ answers: DayCount[]; roundups: DayCount[] }> {
  const { start, end } = instantsOf(range);
  const answered = dayOf('ep_answers.submitted_at');
  const published = dayOf('ep_roundups.published_at');
  const [answers, roundups] = await Promise.all([
    selectInCommunity(db, 'ep_answers', community)
      .select([answered.as('day'), sql<number>`count(*)::int`.as('n')])
      .where('ep_answers.submitted_at', '>=', start)
      .where('ep_answers.submitted_at', '<', end)
      .where('ep_answers.status', 'in', ['submitted', 'accepted', 'declined'])
      .groupBy(answered)
      .orderBy(answered)
      .execute(),
    selectInCommunity(db, 'ep_roundups', community)
      .select([published.as('day'), sql<number>`count(*)::int`.as('n')])
      .where('ep_roundups.published_at', '>=', start)
      .where('ep_roundups.published_at', '<', end)
      .where('ep_roundups.status', '=', 'FINAL')
      .groupBy(published)
      .orderBy(published)
      .execute(),
  ]);
  return { answers: dayCounts(answers), roundups: dayCounts(roundups) };
}

/** Each member's answers submitted since `since`. */
export async function expertAnswersByMember(db: Db, community: Tenant, since: Date): Promise<MemberCount[]> {
  const rows = await selectInCommunity(db, 'ep_answers', community)
    .select(['ep_answers.user_id', sql<number>`count(*)::int`.as('n')])
    .where('ep_answers.submitted_at', '>=', since)
    .groupBy('ep_answers.user_id')
    .execute();
  return rows.map((r) => ({ userId: r.user_id, value: Number(r.n) }));
}
