/**
 * What the insights area's views and other parts see (views import types only).
 */

/** Series from the other areas' faces, counted by day. */
export const AREA_SERIES = [
  'sign_ins',
  'new_members',
  'forum.posts',
  'forum.replies',
  'articles.started',
  'articles.submitted',
  'articles.edited',
  'articles.finalEdit',
  'articles.approved',
  'articles.published',
  'expert.answers',
  'expert.roundups',
  'offers.redeemed',
  'messages.read',
] as const;
/** The series the roll-up writes (insight_days.series). Weekly and monthly ones are keyed by the first day of their period. */
export const SERIES = ['page_views', 'events', 'active.day', 'active.week', 'active.month', ...AREA_SERIES] as const;
export type SeriesName = (typeof SERIES)[number];

/** How a chart's buckets are cut: by day (a range of a month or less), week (half a year or less) or month. */
export type Granularity = 'day' | 'week' | 'month';

/** The date range presets of the staff home. */
export const RANGE_PRESETS = ['4w', '12w', '6m', '12m', '24m'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

/** One bar of a chart: its period's first day, its label, and its value per series. */
export type Bucket = { start: string; values: number[] };

/** A chart of the staff home: what it draws (buckets of one or more series) and its table says. */
export type ChartData = {
  key: string;
  /** The series names it shows, in order (their labels are the view's). */
  series: string[];
  granularity: Granularity;
  buckets: Bucket[];
};

/** The funnel of the review pipeline: each stage's total over the range. */
export type FunnelData = { stages: { key: string; value: number }[] };

/** A community the staff may look at (the brand picker). */
export type InsightBrand = { code: string; name: string };

/** The range the staff asked for, as the form shows it again. */
export type RangeForm = { range: string; from: string; to: string; community: string };

export type StaffHomeView = {
  brand: InsightBrand;
  /** Other brands the staff administer (several: the picker is shown). */
  brands: InsightBrand[];
  /** The range shown: first and last day (included), and the preset (or 'custom'). */
  from: string;
  to: string;
  form: RangeForm;
  errors: Record<string, string>;
  charts: ChartData[];
  funnel: FunnelData;
  topEvents: { category: string; action: string; events: number }[];
  totals: { pageViews: number; events: number };
  /** When the roll-up last read the data (null: never yet). */
  rolledAt: Date | null;
};
