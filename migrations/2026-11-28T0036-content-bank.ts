import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * The content bank (issue 29, decision 0061): the community's library. Its items are other areas'
 * rows (a published article, a published roundup, an accepted expert answer) and the staff's own
 * assets (images and PDFs), each named by (kind, item_id); tags, collections and usage name items the
 * same way and never copy them.
 *
 * - `bank_entries`: the search index of a community's items, one row per (kind, item_id): what a
 *   search shows and matches (title, a short summary, the author, the date, where it opens) and the
 *   two tiers of the members directory's search (a weighted tsvector, title A, author B, text C; and a
 *   trigram text of title and author). GIN indexes without a pending list, as the directory's
 *   (migration 0008: PGlite has no autovacuum).
 * - `bank_dirty`: which items changed since the index last read them. The triggers below add a mark
 *   in the transaction that changes a published article (or its current revision), a published
 *   roundup (and its answers) or an accepted answer (or one that stops being so); the bank reads the marks before it
 *   answers, takes each item's facts from its area's face, and updates or drops its entry. Marks are
 *   only (community, kind, id): the facts stay the other areas'.
 * - `bank_assets`: uploaded images (re-encoded by sharp) and PDFs (checked), stored in the database as
 *   the other uploads are, under a random key.
 * - `bank_tags`, `bank_item_tags`, `bank_collections`, `bank_collection_items` (ordered), and
 *   `bank_usage`: where an item was used (sent in a team message; featured and syndicated, reported by
 *   those areas when they land).
 */

const KINDS = `'article', 'roundup', 'answer', 'image', 'pdf'`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);

  await db.schema
    .createTable('bank_entries')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql.raw(`kind in (${KINDS})`)))
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('author_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('published_at', 'timestamptz', (c) => c.notNull())
    // Where a reader opens it: an absolute address (an article's live page) or an application path.
    .addColumn('url', 'text')
    // Where staff open it (an application path).
    .addColumn('staff_path', 'text', (c) => c.notNull())
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('search_vector', sql`tsvector`, (c) => c.notNull().defaultTo(sql`''::tsvector`))
    .addColumn('indexed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index bank_entries_item on bank_entries (community_id, kind, item_id)`.execute(db);
  await sql`create index bank_entries_newest on bank_entries (community_id, published_at desc, id desc)`.execute(db);
  await sql`create index bank_entries_author on bank_entries (community_id, author_id, published_at desc)`.execute(db);
  await sql`create index bank_entries_search_vector on bank_entries using gin (search_vector) with (fastupdate = off)`.execute(db);
  await sql`create index bank_entries_search_title on bank_entries using gin (ts_filter(search_vector, '{a}')) with (fastupdate = off)`.execute(db);
  await sql`create index bank_entries_search_trgm on bank_entries using gin (search_text gin_trgm_ops) with (fastupdate = off)`.execute(db);

  await db.schema
    .createTable('bank_dirty')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .execute();
  await sql`create index bank_dirty_community on bank_dirty (community_id, id)`.execute(db);

  // One function for every source: TG_ARGV[0] the kind, TG_ARGV[1] the column naming the item.
  await sql`
    create function bank_mark_dirty() returns trigger language plpgsql as $$
    declare
      r jsonb := case when tg_op = 'DELETE' then to_jsonb(old) else to_jsonb(new) end;
    begin
      insert into bank_dirty (community_id, kind, item_id) values ((r ->> 'community_id')::int, tg_argv[0], (r ->> tg_argv[1])::int);
      return null;
    end $$`.execute(db);
  // A revision counts only when its article is published (a draft's autosave is no library change).
  await sql`
    create function bank_mark_revision_dirty() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from articles a where a.id = new.article_id and a.status in ('PUBLISHED', 'MANUALLY_PUBLISHED')) then
        insert into bank_dirty (community_id, kind, item_id) values (new.community_id, 'article', new.article_id);
      end if;
      return null;
    end $$`.execute(db);

  // A roundup counts, and so do its answers: an accepted answer opens in its published roundup.
  await sql`
    create function bank_mark_roundup_dirty() returns trigger language plpgsql as $$
    declare
      cid int;
      rid int;
    begin
      if tg_op = 'DELETE' then cid := old.community_id; rid := old.id; else cid := new.community_id; rid := new.id; end if;
      insert into bank_dirty (community_id, kind, item_id) values (cid, 'roundup', rid);
      insert into bank_dirty (community_id, kind, item_id)
        select ra.community_id, 'answer', ra.answer_id from ep_roundup_answers ra where ra.community_id = cid and ra.roundup_id = rid;
      return null;
    end $$`.execute(db);

  const published = `('PUBLISHED', 'MANUALLY_PUBLISHED')`;
  await sql.raw(`create trigger bank_articles_insert after insert on articles for each row when (new.status in ${published}) execute function bank_mark_dirty('article', 'id')`).execute(db);
  await sql
    .raw(
      `create trigger bank_articles_update after update on articles for each row
       when (new.status in ${published} or old.status in ${published}) execute function bank_mark_dirty('article', 'id')`,
    )
    .execute(db);
  await sql.raw(`create trigger bank_articles_delete after delete on articles for each row when (old.status in ${published}) execute function bank_mark_dirty('article', 'id')`).execute(db);
  await sql.raw(`create trigger bank_article_revisions after insert or update on article_revisions for each row execute function bank_mark_revision_dirty()`).execute(db);

  await sql.raw(`create trigger bank_roundups_insert after insert on ep_roundups for each row when (new.status = 'FINAL') execute function bank_mark_roundup_dirty()`).execute(db);
  await sql.raw(`create trigger bank_roundups_update after update on ep_roundups for each row when (new.status = 'FINAL' or old.status = 'FINAL') execute function bank_mark_roundup_dirty()`).execute(db);
  await sql.raw(`create trigger bank_roundups_delete after delete on ep_roundups for each row when (old.status = 'FINAL') execute function bank_mark_roundup_dirty()`).execute(db);

  await sql.raw(`create trigger bank_answers_insert after insert on ep_answers for each row when (new.status = 'accepted') execute function bank_mark_dirty('answer', 'id')`).execute(db);
  await sql.raw(`create trigger bank_answers_update after update on ep_answers for each row when (new.status = 'accepted' or old.status = 'accepted') execute function bank_mark_dirty('answer', 'id')`).execute(db);
  await sql.raw(`create trigger bank_answers_delete after delete on ep_answers for each row when (old.status = 'accepted') execute function bank_mark_dirty('answer', 'id')`).execute(db);

  // What is already published is marked once: the first read of each community indexes it.
  await sql.raw(`insert into bank_dirty (community_id, kind, item_id) select community_id, 'article', id from articles where status in ${published} order by id`).execute(db);
  await sql.raw(`insert into bank_dirty (community_id, kind, item_id) select community_id, 'roundup', id from ep_roundups where status = 'FINAL' order by id`).execute(db);
  await sql.raw(`insert into bank_dirty (community_id, kind, item_id) select community_id, 'answer', id from ep_answers where status = 'accepted' order by id`).execute(db);

  await db.schema
    .createTable('bank_assets')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('image', 'pdf')`))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('byte_size', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index bank_assets_newest on bank_assets (community_id, id desc)`.execute(db);

  await db.schema
    .createTable('bank_tags')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index bank_tags_name on bank_tags (community_id, lower(name))`.execute(db);

  await db.schema
    .createTable('bank_item_tags')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('bank_tags.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql.raw(`kind in (${KINDS})`)))
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('tagged_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('bank_item_tags_pk', ['tag_id', 'kind', 'item_id'])
    .execute();
  await sql`create index bank_item_tags_item on bank_item_tags (community_id, kind, item_id)`.execute(db);

  await db.schema
    .createTable('bank_collections')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index bank_collections_name on bank_collections (community_id, lower(name))`.execute(db);

  await db.schema
    .createTable('bank_collection_items')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('collection_id', 'integer', (c) => c.notNull().references('bank_collections.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql.raw(`kind in (${KINDS})`)))
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('added_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('added_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('bank_collection_items_pk', ['collection_id', 'kind', 'item_id'])
    .execute();
  await sql`create index bank_collection_items_order on bank_collection_items (collection_id, position)`.execute(db);
  await sql`create index bank_collection_items_item on bank_collection_items (community_id, kind, item_id)`.execute(db);

  await db.schema
    .createTable('bank_usage')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql.raw(`kind in (${KINDS})`)))
    .addColumn('item_id', 'integer', (c) => c.notNull())
    // Which area reports it, how the item was used there ('sent', 'featured', 'syndicated'), and that
    // area's own reference (a message id, a featured item's id, a feed's id).
    .addColumn('area', 'text', (c) => c.notNull())
    .addColumn('what', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('path', 'text')
    .addColumn('used_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create unique index bank_usage_ref on bank_usage (community_id, area, ref, kind, item_id)`.execute(db);
  await sql`create index bank_usage_item on bank_usage (community_id, kind, item_id, used_at desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, triggers] of [
    ['articles', ['bank_articles_insert', 'bank_articles_update', 'bank_articles_delete']],
    ['article_revisions', ['bank_article_revisions']],
    ['ep_roundups', ['bank_roundups_insert', 'bank_roundups_update', 'bank_roundups_delete']],
    ['ep_answers', ['bank_answers_insert', 'bank_answers_update', 'bank_answers_delete']],
  ] as const) {
    for (const trigger of triggers) await sql.raw(`drop trigger if exists ${trigger} on ${table}`).execute(db);
  }
  await sql`drop function if exists bank_mark_roundup_dirty()`.execute(db);
  await sql`drop function if exists bank_mark_revision_dirty()`.execute(db);
  await sql`drop function if exists bank_mark_dirty()`.execute(db);
  for (const table of ['bank_usage', 'bank_collection_items', 'bank_collections', 'bank_item_tags', 'bank_tags', 'bank_assets', 'bank_dirty', 'bank_entries']) await db.schema.dropTable(table).execute();
}
