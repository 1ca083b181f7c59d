import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Syndication (issue 29). A community publishes its public work (published articles with a public
 * address, published expert-panel roundups) as RSS 2.0, Atom and JSON Feed. Staff keep several feeds:
 * a slug unique in the community, a title, a description, how many items, enabled or not, and what
 * goes in as filter rows (kind 'type' now: article, roundup; kinds 'tag' and 'collection' are allowed
 * already, for the content bank's tags and collections a later step wires in). Every change is one
 * line of the log (syndication_feed_actions), kept after its feed is deleted (its slug is copied).
 *
 * A feed's validator: content_hash is the hash of what the feed last carried and content_changed_at
 * when that first changed, so Last-Modified is the same in every process and never goes back when an
 * item leaves the feed.
 *
 * communities.syndication_feeds is a copy of the community's enabled feeds (what the page head
 * advertises and what a feed address serves), rewritten with every change in the same transaction:
 * the community is cached by every process and its change announced (communities_changed), so no page
 * and no feed address reads the feeds' table.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('syndication_feeds')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('item_limit', 'integer', (c) => c.notNull().defaultTo(20).check(sql`item_limit between 1 and 100`))
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('content_hash', 'text')
    .addColumn('content_changed_at', 'timestamptz')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index syndication_feeds_slug on syndication_feeds (community_id, slug)`.execute(db);

  await db.schema
    .createTable('syndication_feed_filters')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('feed_id', 'integer', (c) => c.notNull().references('syndication_feeds.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('type', 'tag', 'collection')`))
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('syndication_feed_filters_pk', ['feed_id', 'kind', 'value'])
    .execute();
  // Which feeds take a tag or a collection (the content bank's "where it was syndicated").
  await sql`create index syndication_feed_filters_value on syndication_feed_filters (community_id, kind, value)`.execute(db);

  await db.schema
    .createTable('syndication_feed_actions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('feed_id', 'integer', (c) => c.references('syndication_feeds.id').onDelete('set null'))
    .addColumn('feed_slug', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index syndication_feed_actions_community on syndication_feed_actions (community_id, id desc)`.execute(db);

  await db.schema
    .alterTable('communities')
    .addColumn('syndication_feeds', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('communities').dropColumn('syndication_feeds').execute();
  for (const table of ['syndication_feed_actions', 'syndication_feed_filters', 'syndication_feeds']) await db.schema.dropTable(table).execute();
}
