import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * The members' feed (issue 29): the staff's announcements and the items they feature, shown on the
 * signed-in home page.
 *
 * An announcement has a title, a short rich-text body (sanitised), an optional image (uploaded,
 * stored in the database as groups' images are), an optional link, an audience (everyone, or one
 * group: when the group is deleted the announcement reaches nobody), a pin, and its times: a draft
 * until published (published_at), shown from starts_at (or from publishing), until ends_at. Its
 * state (DRAFT, SCHEDULED, LIVE, EXPIRED) is derived from those times and the clock, never stored,
 * so nothing has to run for an announcement to go live or expire. `shown_from` is when it went (or
 * goes) live: the feed's order.
 *
 * A featured item points at another area's row by kind and id (no foreign key: the owning area says,
 * through its face, whether the item is still there to be seen), or is an event link of its own.
 * Members mark announcements seen (one row per member and announcement). Every change of either is
 * a line of feed_events, kept when the thing itself is deleted (its title is copied there).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('feed_announcements')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text', (c) => c.notNull().defaultTo(''))
    // `upload:<key>` of feed_images, or a path under static/ (the demo's).
    .addColumn('image', 'text')
    .addColumn('image_alt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('link_url', 'text')
    .addColumn('link_label', 'text')
    .addColumn('audience', 'text', (c) => c.notNull().defaultTo('everyone').check(sql`audience in ('everyone', 'group')`))
    .addColumn('group_id', 'integer', (c) => c.references('groups.id').onDelete('set null'))
    .addColumn('pinned', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('published_at', 'timestamptz')
    .addColumn('starts_at', 'timestamptz')
    .addColumn('ends_at', 'timestamptz')
    .addColumn('shown_from', 'timestamptz', (c) => c.generatedAlwaysAs(sql`coalesce(starts_at, published_at)`).stored())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('feed_announcements_times', sql`ends_at is null or starts_at is null or ends_at > starts_at`)
    .execute();
  // The members' feed: published announcements, pinned first, newest first.
  await sql`create index feed_announcements_feed on feed_announcements (community_id, pinned desc, shown_from desc, id desc) where published_at is not null`.execute(db);
  // The staff's list, newest first.
  await sql`create index feed_announcements_list on feed_announcements (community_id, id desc)`.execute(db);
  await sql`create index feed_announcements_group on feed_announcements (group_id) where group_id is not null`.execute(db);

  await db.schema
    .createTable('feed_images')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('announcement_id', 'integer', (c) => c.notNull().references('feed_announcements.id').onDelete('cascade'))
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index feed_images_announcement on feed_images (community_id, announcement_id)`.execute(db);

  await db.schema
    .createTable('feed_seen')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('announcement_id', 'integer', (c) => c.notNull().references('feed_announcements.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('feed_seen_pkey', ['announcement_id', 'user_id'])
    .execute();
  await sql`create index feed_seen_user on feed_seen (community_id, user_id)`.execute(db);

  await db.schema
    .createTable('feed_featured')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('article', 'roundup', 'offer', 'forum_post', 'event')`))
    // The featured row of its area (none for an event link).
    .addColumn('item_id', 'integer')
    // The item's title when it was featured (an event link's own title).
    .addColumn('title', 'text', (c) => c.notNull())
    // An event link's address, date (its first instant) and place.
    .addColumn('url', 'text')
    .addColumn('event_at', 'timestamptz')
    .addColumn('place', 'text')
    .addColumn('pinned', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('ends_at', 'timestamptz')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('feed_featured_item', sql`(kind = 'event') = (item_id is null) and (kind = 'event') = (url is not null)`)
    .execute();
  // An item is featured once.
  await sql`create unique index feed_featured_once on feed_featured (community_id, kind, item_id) where item_id is not null`.execute(db);
  await sql`create index feed_featured_feed on feed_featured (community_id, pinned desc, created_at desc, id desc)`.execute(db);

  await db.schema
    .createTable('feed_events')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('subject', 'text', (c) => c.notNull().check(sql`subject in ('announcement', 'featured')`))
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index feed_events_subject on feed_events (community_id, subject, subject_id, id desc)`.execute(db);
  await sql`create index feed_events_list on feed_events (community_id, id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['feed_events', 'feed_featured', 'feed_seen', 'feed_images', 'feed_announcements']) await db.schema.dropTable(table).execute();
}
