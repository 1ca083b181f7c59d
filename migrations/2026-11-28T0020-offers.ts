import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Offers and benefits (issue 27). A community's staff keep partners (a name, a logo, a website, a
 * contact) and the offers each partner makes to members: a title, a one-line value ("3 months
 * free"), a description (rich text, sanitised as articles are), a category, a tier (everyone, or the
 * executive tier: EXEC), how a member redeems it (a code revealed on a press, a link out, or a request
 * through the concierge), terms, the dates it runs between, featured and an order. An offer moves
 * draft → published → withdrawn (and back to published), each move logged with who and when.
 *
 * A redemption is a member's reveal of the code, follow of the link or request to the concierge:
 * recorded once per member and offer (the unique key holds under concurrent presses), so the
 * partner's report counts members, not clicks. A partner's uploaded logo is stored in the database
 * (WebP, made by sharp), so every app node serves it without a shared disk.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('partners')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('website', 'text')
    .addColumn('contact', 'text', (c) => c.notNull().defaultTo(''))
    // A path under static/ (the demo's) or the key of an uploaded logo (partner_logos).
    .addColumn('logo', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index partners_name on partners (community_id, lower(name))`.execute(db);

  await db.schema
    .createTable('partner_logos')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('partner_id', 'integer', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index partner_logos_partner on partner_logos (community_id, partner_id)`.execute(db);

  await db.schema
    .createTable('offers')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('partner_id', 'integer', (c) => c.notNull().references('partners.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('value_line', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description_html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('tier', 'text', (c) => c.notNull().defaultTo('everyone').check(sql`tier in ('everyone', 'exec')`))
    .addColumn('redemption', 'text', (c) => c.notNull().check(sql`redemption in ('code', 'link', 'concierge')`))
    .addColumn('code', 'text')
    .addColumn('link', 'text')
    .addColumn('terms', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('starts_at', 'timestamptz')
    .addColumn('ends_at', 'timestamptz')
    .addColumn('featured', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft').check(sql`status in ('draft', 'published', 'withdrawn')`))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('offers_dates', sql`ends_at is null or starts_at is null or ends_at > starts_at`)
    .execute();
  // The members' list: published offers of a tier, featured first, then the staff's order, newest first.
  await sql`create index offers_list on offers (community_id, status, tier, featured desc, position, id desc)`.execute(db);
  await sql`create index offers_category on offers (community_id, status, category, featured desc, position, id desc)`.execute(db);
  // A member of the executive tier (and staff) sees both tiers: the same order without the tier.
  await sql`create index offers_all on offers (community_id, status, featured desc, position, id desc)`.execute(db);
  await sql`create index offers_partner on offers (partner_id)`.execute(db);

  await db.schema
    .createTable('offer_status_events')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('offer_id', 'integer', (c) => c.notNull().references('offers.id').onDelete('cascade'))
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index offer_status_events_offer on offer_status_events (community_id, offer_id, created_at)`.execute(db);

  await db.schema
    .createTable('offer_redemptions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('offer_id', 'integer', (c) => c.notNull().references('offers.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('offer_redemptions_once', ['offer_id', 'user_id'])
    .execute();
  await sql`create index offer_redemptions_offer on offer_redemptions (community_id, offer_id, created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['offer_redemptions', 'offer_status_events', 'offers', 'partner_logos', 'partners']) await db.schema.dropTable(table).execute();
}
