import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Insights: events by category and action summed by week and by month (insight_event_periods), as
 * insight_days keeps each series' weekly and monthly sums, so that the staff home's "top events" reads
 * at most about thirty periods' rows whatever its range (two years of daily rows made it grow with
 * the range). Rewritten by the roll-up from insight_event_counts, in the same transaction.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('insight_event_periods')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('period', 'text', (c) => c.notNull().check(sql`period in ('week', 'month')`))
    .addColumn('starts', 'date', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('events', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('insight_event_periods_pkey', ['community_id', 'period', 'starts', 'category', 'action'])
    .execute();
  // Filled for every period the daily rows already hold.
  await sql`insert into insight_event_periods (community_id, period, starts, category, action, events)
    select community_id, 'week', date_trunc('week', day::timestamp)::date, category, action, sum(events)::int from insight_event_counts group by 1, 3, 4, 5
    union all
    select community_id, 'month', date_trunc('month', day::timestamp)::date, category, action, sum(events)::int from insight_event_counts group by 1, 3, 4, 5`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('insight_event_periods').execute();
}
