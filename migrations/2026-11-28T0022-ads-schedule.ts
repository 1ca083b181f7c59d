import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Ads the staff manage (issue 27): a schedule on each ad (live while active and inside it), the
 * uploaded art stored in the database like the avatars (every app node serves it without a shared
 * disk), and the impressions and clicks per ad and day. The counts are added to by one upsert per ad
 * per flush of each process's in-memory tally (src/features/ads/counter.ts), never a write per page view.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('ads')
    .addColumn('starts_at', 'timestamptz')
    .addColumn('ends_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`alter table ads add constraint ads_schedule check (ends_at is null or starts_at is null or ends_at > starts_at)`.execute(db);

  await db.schema
    .createTable('ad_images')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('ad_images_pk', ['community_id', 'key'])
    .execute();

  await db.schema
    .createTable('ad_daily_counts')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('ad_id', 'integer', (c) => c.notNull().references('ads.id').onDelete('cascade'))
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('impressions', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('clicks', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('ad_daily_counts_pk', ['community_id', 'ad_id', 'day'])
    .execute();
  await db.schema.createIndex('ad_daily_counts_ad').on('ad_daily_counts').columns(['ad_id', 'day']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ad_daily_counts').execute();
  await db.schema.dropTable('ad_images').execute();
  await sql`alter table ads drop constraint ads_schedule`.execute(db);
  await db.schema.alterTable('ads').dropColumn('starts_at').dropColumn('ends_at').dropColumn('updated_at').execute();
}
