import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import type { Day } from '#src/lib/figures.ts';
import { addDays, daysBetween, isDay, minDay, mondayOf, monthStartOf, nextMonthStart } from './calendar.ts';
import type { InsightsDeps } from './deps.ts';
import { MAX_RANGE_DAYS } from './range.ts';
import { SERIES, type Bucket, type ChartData, type FunnelData, type Granularity, type SeriesName } from './types.ts';

/**
 * Reading the roll-up (never the raw events): the staff home's charts in two statements whatever the
 * events' volume or the range (the range's stored rows of insight_days at the charts' granularity,
 * and the top events of insight_event_counts), and one series for GraphQL.
 */

/** The staff home's charts, in the order it shows them, and the series each draws. */
export const CHARTS: readonly { key: string; series: readonly SeriesName[] }[] = [
  { key: 'active', series: ['active.week'] },
  { key: 'newMembers', series: ['new_members'] },
  { key: 'forum', series: ['forum.posts', 'forum.replies'] },
  { key: 'expert', series: ['expert.answers', 'expert.roundups'] },
  { key: 'offers', series: ['offers.redeemed'] },
  { key: 'messages', series: ['messages.read'] },
  { key: 'pageViews', series: ['page_views'] },
];

/** The funnel's stages, in the pipeline's order (the articles area's ARTICLE_FUNNEL, as series). */
export const FUNNEL_SERIES: readonly SeriesName[] = ['articles.started', 'articles.submitted', 'articles.edited', 'articles.finalEdit', 'articles.approved', 'articles.published'];

const PERIODIC: Partial<Record<SeriesName, 'week' | 'month'>> = { 'active.week': 'week', 'active.month': 'month' };

/** Bars by day up to a month, by week up to half a year, else by month. */
export function granularityOf(from: Day, to: Day): Granularity {
  const days = daysBetween(from, to) + 1;
  return days <= 31 ? 'day' : days <= 183 ? 'week' : 'month';
}

/** The first day of each bucket of the range. */
export function bucketStarts(from: Day, to: Day, granularity: Granularity): Day[] {
  const starts: Day[] = [];
  let d = bucketStartOf(from, granularity);
  while (d <= to) {
    starts.push(d);
    d = nextBucket(d, granularity);
  }
  return starts;
}

/** The bucket a day falls in: its own day, its week's Monday or its month's first day. */
const bucketStartOf = (day: Day, granularity: Granularity): Day => (granularity === 'day' ? day : granularity === 'week' ? mondayOf(day) : monthStartOf(day));
const nextBucket = (day: Day, granularity: Granularity): Day => (granularity === 'day' ? addDays(day, 1) : granularity === 'week' ? addDays(day, 7) : nextMonthStart(day));

/**
 * The range as the charts show it: whole buckets (a week from its Monday, a month from its first
 * day), ending at the asked last day's bucket's end or today, whichever is first.
 */
export function shownRange(from: Day, to: Day, today: Day): { from: Day; to: Day; granularity: Granularity } {
  const granularity = granularityOf(from, to);
  const lastEnd = addDays(nextBucket(bucketStartOf(to, granularity), granularity), -1);
  return { from: bucketStartOf(from, granularity), to: minDay(lastEnd, today), granularity };
}

/** The stored name of a series at a granularity: the daily one, or its weekly or monthly sum. */
const storedName = (series: SeriesName, granularity: Granularity): string => {
  if (PERIODIC[series]) return granularity === 'day' ? 'active.day' : granularity === 'week' ? 'active.week' : 'active.month';
  return granularity === 'day' ? series : `${series}@${granularity}`;
};

type Rows = Map<string, Map<Day, number>>;

/** The chart's buckets, each read as it is stored (a day, a week's or a month's sum, the active members of the period). */
function chartOf(rows: Rows, key: string, series: readonly SeriesName[], starts: readonly Day[], granularity: Granularity): ChartData {
  const columns = series.map((s) => starts.map((d) => rows.get(storedName(s, granularity))?.get(d) ?? 0));
  const buckets: Bucket[] = starts.map((start, i) => ({ start, values: columns.map((c) => c[i]!) }));
  return { key, series: [...series], granularity, buckets };
}

export type StaffFigures = {
  /** The range shown: whole buckets (see shownRange). */
  from: Day;
  to: Day;
  charts: ChartData[];
  funnel: FunnelData;
  totals: { pageViews: number; events: number };
  topEvents: { category: string; action: string; events: number }[];
  rolledAt: Date | null;
};

/**
 * The staff home's figures for the range (days included), from the roll-up only, in two statements:
 * at most about thirty stored rows per series whatever the range (days, weeks' or months' sums).
 */
export async function staffFigures(deps: InsightsDeps, asked: { from: Day; to: Day }, today: Day): Promise<StaffFigures> {
  const c = deps.community.id;
  const { from, to, granularity } = shownRange(asked.from, asked.to, today);
  const wanted = [...new Set([...CHARTS.flatMap((ch) => ch.series), ...FUNNEL_SERIES, 'events' as const].map((s) => storedName(s, granularity)))];
  const [days, top] = await Promise.all([
    sql<{ series: string; day: string; value: number }>`
      select series, to_char(day, 'YYYY-MM-DD') as day, value from insight_days
      where community_id = ${c} and series in (${sql.join(wanted)}) and day >= ${from}::date and day <= ${to}::date
      union all
      select '_rolled', to_char(rolled_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 0 from insight_rollups where community_id = ${c} and rolled_at is not null`.execute(deps.db),
    // By day from the daily rows, by week or month from their sums (the range is whole periods).
    granularity === 'day'
      ? sql<{ category: string; action: string; events: number }>`
      select category, action, sum(events)::int as events from insight_event_counts
      where community_id = ${c} and day >= ${from}::date and day <= ${to}::date and category <> 'page'
      group by category, action order by events desc, category, action limit 10`.execute(deps.db)
      : sql<{ category: string; action: string; events: number }>`
      select category, action, sum(events)::int as events from insight_event_periods
      where community_id = ${c} and period = ${granularity} and starts >= ${from}::date and starts <= ${to}::date and category <> 'page'
      group by category, action order by events desc, category, action limit 10`.execute(deps.db),
  ]);
  const rows: Rows = new Map();
  let rolledAt: Date | null = null;
  for (const r of days.rows) {
    if (r.series === '_rolled') {
      rolledAt = new Date(r.day);
      continue;
    }
    let m = rows.get(r.series);
    if (!m) rows.set(r.series, (m = new Map()));
    m.set(r.day, Number(r.value));
  }
  const starts = bucketStarts(from, to, granularity);
  const total = (series: SeriesName) => {
    let sum = 0;
    for (const value of rows.get(storedName(series, granularity))?.values() ?? []) sum += value;
    return sum;
  };
  return {
    from,
    to,
    charts: CHARTS.map((chart) => chartOf(rows, chart.key, chart.series, starts, granularity)),
    funnel: { stages: FUNNEL_SERIES.map((s) => ({ key: s.slice('articles.'.length), value: total(s) })) },
    totals: { pageViews: total('page_views'), events: total('events') },
    topEvents: top.rows.map((r) => ({ category: r.category, action: r.action, events: Number(r.events) })),
    rolledAt,
  };
}

export type SeriesPoint = { day: Day; value: number };

/** One series over a range (GraphQL): every day (or week, or month, for the periodic series) with its count, zeros included. */
export async function readSeries(deps: InsightsDeps, series: string, from: string, to: string): Promise<SeriesPoint[]> {
  if (!(SERIES as readonly string[]).includes(series)) throw new AppError('Insights.BadSeries');
  if (!isDay(from) || !isDay(to) || from > to || daysBetween(from, to) + 1 > MAX_RANGE_DAYS) throw new AppError('Insights.BadSeries');
  const name = series as SeriesName;
  const period = PERIODIC[name] ?? 'day';
  const starts = bucketStarts(from, to, period);
  const lo = starts[0] ?? from;
  const result = await sql<{ day: string; value: number }>`select to_char(day, 'YYYY-MM-DD') as day, value from insight_days
    where community_id = ${deps.community.id} and series = ${name} and day >= ${lo}::date and day <= ${to}::date`.execute(deps.db);
  const values = new Map(result.rows.map((r) => [r.day, Number(r.value)]));
  return starts.map((day) => ({ day, value: values.get(day) ?? 0 }));
}
