import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Insights (issue 29): the community's own analytics, first-party.
 *
 * - insight_events: the raw events members' pages and apps send (trackEvent and the page view on
 *   each route change), per community and member, WITHOUT an IP address or a user-agent string (only
 *   a coarse device class). Kept a set number of days (INSIGHTS_RETENTION_DAYS), then deleted by a
 *   durable job; the roll-up keeps their counts.
 * - insight_days: the roll-up, one number per community, series and day (a weekly or monthly series
 *   keyed by the first day of its week or month). Recomputed, never incremented: a day is replaced
 *   whole in one transaction, so a roll-up run twice, or on two processes at once, gives the same rows.
 * - insight_event_counts: events per day by category and action (what trackEvent was asked to count).
 * - insight_member_days: who was active on which day (a page view or a sign-in), the ground of the
 *   active members per week and month and of each member's health; kept as long as the raw events.
 * - insight_rollups: per community, when the last roll-up read the data (the next one recomputes from
 *   the day before), and when members' health was last computed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('insight_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    // A member who is removed takes their events with them.
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('device', 'text', (c) => c.notNull().defaultTo('unknown').check(sql`device in ('desktop', 'mobile', 'tablet', 'app', 'unknown')`))
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // The roll-up reads a community's days; the retention job deletes a community's oldest.
  await sql`create index insight_events_time on insight_events (community_id, occurred_at)`.execute(db);

  await db.schema
    .createTable('insight_days')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('series', 'text', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('value', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('insight_days_pkey', ['community_id', 'series', 'day'])
    .execute();
  // The staff home reads every series of a range at once.
  await sql`create index insight_days_range on insight_days (community_id, day)`.execute(db);

  await db.schema
    .createTable('insight_event_counts')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('events', 'integer', (c) => c.notNull())
    .addColumn('members', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('insight_event_counts_pkey', ['community_id', 'day', 'category', 'action'])
    .execute();

  await db.schema
    .createTable('insight_member_days')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('insight_member_days_pkey', ['community_id', 'day', 'user_id'])
    .execute();

  await db.schema
    .createTable('insight_rollups')
    .addColumn('community_id', 'integer', (c) => c.primaryKey().references('communities.id').onDelete('cascade'))
    .addColumn('rolled_at', 'timestamptz')
    .addColumn('health_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('insight_rollups').execute();
  await db.schema.dropTable('insight_member_days').execute();
  await db.schema.dropTable('insight_event_counts').execute();
  await db.schema.dropTable('insight_days').execute();
  await db.schema.dropTable('insight_events').execute();
}
