import { sql } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { articleFunnelByDay } from '#src/features/articles/index.ts';
import { signedInMemberDays, signInsByDay } from '#src/features/auth/index.ts';
import { expertFiguresByDay } from '#src/features/expert-panels/index.ts';
import { forumFiguresByDay } from '#src/features/forum/index.ts';
import { newMembersByDay } from '#src/features/members/index.ts';
import { messagesReadByDay } from '#src/features/messages/index.ts';
import { redemptionsByDay } from '#src/features/offers/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { DayCount, DayRange } from '#src/lib/figures.ts';
import { addDays, DAY_MS, dayStart, dayString, maxDay, mondayOf, monthStartOf, nextMonthStart } from './calendar.ts';
import type { InsightsDeps } from './deps.ts';
import { EVENT_LIMITS } from './events.ts';
import { AREA_SERIES, type SeriesName } from './types.ts';

/**
 * The roll-up (a durable job, every ten minutes, and the demo seed): raw events and the other areas'
 * figures into daily counts per community and series (insight_days), events by category and action
 * (insight_event_counts by day, insight_event_periods by week and month), and who was active on which
 * day (insight_member_days).
 *
 * Exact and idempotent: each run recomputes whole days (from the day before the last run read the
 * data, to today), replacing their rows in one transaction; a transaction-level advisory lock per
 * community makes two runs at once (two processes) take turns, the second recomputing the same days
 * from the same data. Days whose raw events are already past the retention are never recomputed from
 * events (their counts stay as they were rolled up); the other areas' figures come from their own
 * tables and may be recomputed any time.
 */

/** A first run goes back this far for the other areas' figures (their rows are kept for ever). */
export const BACKFILL_DAYS = 731;
/** The advisory lock's first key (the second is the community): any constant of ours. */
const LOCK_KEY = 290_037;

/** Series from the raw events, by day. */
const EVENT_DAILY_SERIES: readonly SeriesName[] = ['page_views', 'events', 'active.day'];
/** The daily counts also summed by week and month (not the distinct active members: theirs are counted whole). */
export const SUMMED_SERIES: readonly SeriesName[] = [...AREA_SERIES, 'page_views', 'events'];

export type RollupResult = { from: string; eventsFrom: string | null; to: string };

/** Every area's figures for the days of `range`, as series rows. */
async function areaFigures(db: Db, community: Tenant, range: DayRange): Promise<{ series: SeriesName; day: string; value: number }[]> {
  const [signIns, members, forum, funnel, expert, offers, read] = await Promise.all([
    signInsByDay(db, community, range),
    newMembersByDay(db, community, range),
    forumFiguresByDay(db, community, range),
    articleFunnelByDay(db, community, range),
    expertFiguresByDay(db, community, range),
    redemptionsByDay(db, community, range),
    messagesReadByDay(db, community, range),
  ]);
  const all: [SeriesName, DayCount[]][] = [
    ['sign_ins', signIns],
    ['new_members', members],
    ['forum.posts', forum.posts],
    ['forum.replies', forum.replies],
    ['articles.started', funnel.started],
    ['articles.submitted', funnel.submitted],
    ['articles.edited', funnel.edited],
    ['articles.finalEdit', funnel.finalEdit],
    ['articles.approved', funnel.approved],
    ['articles.published', funnel.published],
    ['expert.answers', expert.answers],
    ['expert.roundups', expert.roundups],
    ['offers.redeemed', offers],
    ['messages.read', read],
  ];
  return all.flatMap(([series, counts]) => counts.filter((c) => c.value > 0).map((c) => ({ series, day: c.day, value: c.value })));
}

/** Rows into a table of the community, a thousand to a statement. */
async function insertRows(db: Db, table: 'insight_days' | 'insight_member_days', community: Tenant, rows: readonly Record<string, string | number>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  for (let i = 0; i < rows.length; i += 1000) {
    const values = sql.join(rows.slice(i, i + 1000).map((r) => sql`(${community.id}::int, ${sql.join(columns.map((c) => sql`${r[c]}`))})`));
    // Our own tables, each row given its community; a member already counted that day is kept once.
    await sql`insert into ${sql.table(table)} (community_id, ${sql.join(columns.map((c) => sql.ref(c)))}) values ${values} on conflict do nothing`.execute(db);
  }
}

/**
 * Rolls the community up to now. The window: from the day before the last run's data (less the
 * longest an event may say it waited), or, the first time, BACKFILL_DAYS back; events only from the
 * first day whose events are all still kept.
 */
export async function rollUp(deps: InsightsDeps): Promise<RollupResult> {
  return deps.db.transaction().execute((trx) => rollUpIn(trx, deps));
}

/** The roll-up inside a transaction the caller holds (the demo seed's). */
export async function rollUpIn(trx: Db, deps: InsightsDeps): Promise<RollupResult> {
  const now = deps.clock.now();
  const today = dayString(now);
  const tomorrow = addDays(today, 1);
  const c = deps.community.id;
  await sql`select pg_advisory_xact_lock(${LOCK_KEY}, ${c})`.execute(trx);
  const state = await selectInCommunity(trx, 'insight_rollups', deps.community).select('rolled_at').executeTakeFirst();
  const from = state?.rolled_at
    ? addDays(dayString(new Date(new Date(state.rolled_at).getTime() - EVENT_LIMITS.age)), -1)
    : addDays(today, -BACKFILL_DAYS);
  // The first day all of whose events are still kept (the retention deletes older ones).
  const floor = addDays(dayString(new Date(now.getTime() - deps.retentionDays * DAY_MS)), 1);
  const eventsFrom = maxDay(from, floor);
  const evStart = dayStart(eventsFrom);
  const end = dayStart(tomorrow);

  // Who was active on which day: an event, or a sign-in.
  await sql`delete from insight_member_days where community_id = ${c} and day >= ${eventsFrom}::date and day < ${tomorrow}::date`.execute(trx);
  await sql`insert into insight_member_days (community_id, day, user_id)
    select distinct ${c}::int, (occurred_at at time zone 'UTC')::date, user_id from insight_events
    where community_id = ${c} and occurred_at >= ${evStart} and occurred_at < ${end}
    on conflict do nothing`.execute(trx);
  const signedIn = await signedInMemberDays(trx, deps.community, { from: eventsFrom, to: tomorrow });
  await insertRows(trx, 'insight_member_days', deps.community, signedIn.map((s) => ({ day: s.day, user_id: s.userId })));

  // Events by category and action.
  await sql`delete from insight_event_counts where community_id = ${c} and day >= ${eventsFrom}::date and day < ${tomorrow}::date`.execute(trx);
  await sql`insert into insight_event_counts (community_id, day, category, action, events, members)
    select ${c}::int, (occurred_at at time zone 'UTC')::date as day, category, action, count(*)::int, count(distinct user_id)::int from insight_events
    where community_id = ${c} and occurred_at >= ${evStart} and occurred_at < ${end}
    group by 2, 3, 4`.execute(trx);

  // The daily series: the events' from the tables just written, the other areas' from their faces.
  await sql`delete from insight_days where community_id = ${c} and day >= ${eventsFrom}::date and day < ${tomorrow}::date
    and series in (${sql.join(EVENT_DAILY_SERIES)})`.execute(trx);
  await sql`insert into insight_days (community_id, series, day, value)
    select ${c}::int, 'page_views', day, sum(events)::int from insight_event_counts
      where community_id = ${c} and day >= ${eventsFrom}::date and category = 'page' and action = 'view' group by day
    union all
    select ${c}::int, 'events', day, sum(events)::int from insight_event_counts
      where community_id = ${c} and day >= ${eventsFrom}::date group by day
    union all
    select ${c}::int, 'active.day', day, count(*)::int from insight_member_days
      where community_id = ${c} and day >= ${eventsFrom}::date group by day`.execute(trx);
  await sql`delete from insight_days where community_id = ${c} and day >= ${from}::date and day < ${tomorrow}::date
    and series in (${sql.join(AREA_SERIES)})`.execute(trx);
  await insertRows(trx, 'insight_days', deps.community, await areaFigures(trx, deps.community, { from, to: tomorrow }));

  // Active members per week and per month: whole periods, those whose first day is still kept.
  let week = mondayOf(eventsFrom);
  if (week < floor) week = addDays(week, 7);
  let month = monthStartOf(eventsFrom);
  if (month < floor) month = nextMonthStart(month);
  await sql`delete from insight_days where community_id = ${c} and ((series = 'active.week' and day >= ${week}::date) or (series = 'active.month' and day >= ${month}::date))`.execute(trx);
  await sql`insert into insight_days (community_id, series, day, value)
    select ${c}::int, 'active.week', date_trunc('week', day::timestamp)::date, count(distinct user_id)::int from insight_member_days
      where community_id = ${c} and day >= ${week}::date group by 3
    union all
    select ${c}::int, 'active.month', date_trunc('month', day::timestamp)::date, count(distinct user_id)::int from insight_member_days
      where community_id = ${c} and day >= ${month}::date group by 3`.execute(trx);

  // Each counted series by week and by month too (`<series>@week`, `<series>@month`, keyed by the
  // period's first day), summed from the daily rows: the staff home reads at most a month's worth of
  // rows per series whatever its range. Every period that holds a recomputed day, from the daily rows
  // (which stay when their raw events are gone).
  const weekFrom = mondayOf(from);
  const monthFrom = monthStartOf(from);
  await sql`delete from insight_days where community_id = ${c}
    and ((series like '%@week' and day >= ${weekFrom}::date) or (series like '%@month' and day >= ${monthFrom}::date))`.execute(trx);
  await sql`insert into insight_days (community_id, series, day, value)
    select ${c}::int, series || '@week', date_trunc('week', day::timestamp)::date, sum(value)::int from insight_days
      where community_id = ${c} and day >= ${weekFrom}::date and series in (${sql.join(SUMMED_SERIES)}) group by series, 3
    union all
    select ${c}::int, series || '@month', date_trunc('month', day::timestamp)::date, sum(value)::int from insight_days
      where community_id = ${c} and day >= ${monthFrom}::date and series in (${sql.join(SUMMED_SERIES)}) group by series, 3`.execute(trx);
  // The same periods of the events by category and action (the staff home's top events).
  await sql`delete from insight_event_periods where community_id = ${c}
    and ((period = 'week' and starts >= ${weekFrom}::date) or (period = 'month' and starts >= ${monthFrom}::date))`.execute(trx);
  await sql`insert into insight_event_periods (community_id, period, starts, category, action, events)
    select ${c}::int, 'week', date_trunc('week', day::timestamp)::date, category, action, sum(events)::int from insight_event_counts
      where community_id = ${c} and day >= ${weekFrom}::date group by 3, 4, 5
    union all
    select ${c}::int, 'month', date_trunc('month', day::timestamp)::date, category, action, sum(events)::int from insight_event_counts
      where community_id = ${c} and day >= ${monthFrom}::date group by 3, 4, 5`.execute(trx);

  await sql`insert into insight_rollups (community_id, rolled_at) values (${c}, ${now})
    on conflict (community_id) do update set rolled_at = excluded.rolled_at`.execute(trx);
  return { from, eventsFrom, to: today };
}
