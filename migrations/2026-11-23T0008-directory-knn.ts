import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * The directory's search at scale (issue 11). Its two GIN indexes (migration 0006: the weighted
 * tsvector and the trigram text) were made with GIN's default `fastupdate`: new entries go to a
 * pending list that every search reads in full, until a vacuum (or 4 MB of them) moves them into the
 * index. PGlite has no autovacuum, so on PGlite the pending list only grows: at 10,000 members every
 * search read all of it (15 ms for a full-text search that finds nothing, against 1 ms once it was
 * flushed), and the planner, seeing that cost, preferred reading the whole table. With `fastupdate`
 * off each new or changed profile goes into the index at once (a directory changes a few rows at a
 * time), and the pending list is flushed now.
 *
 * The full-text tier no longer scores every match: it shows the members with a word of the search in
 * their name first, then in their company, then anywhere else, each class alphabetical (decision
 * 0018). The first two classes are read from GIN indexes of the name's and the company's part of the
 * tsvector (`ts_filter`, immutable), a small set each, also without a pending list.
 *
 * The name keeps the plan's first idea (a GiST index ordering the typo tier by word-similarity
 * distance, KNN); measured, it was not faster, see decision 0018.
 */
const INDEXES = ['memberships_search_vector', 'memberships_search_trgm'];

export async function up(db: Kysely<any>): Promise<void> {
  for (const index of INDEXES) {
    await sql.raw(`alter index ${index} set (fastupdate = off)`).execute(db);
    await sql.raw(`select gin_clean_pending_list('${index}'::regclass)`).execute(db);
  }
  await sql`create index memberships_search_name on memberships using gin (ts_filter(search_vector, '{a}')) with (fastupdate = off) where is_active`.execute(db);
  await sql`create index memberships_search_company on memberships using gin (ts_filter(search_vector, '{b}')) with (fastupdate = off) where is_active`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists memberships_search_company`.execute(db);
  await sql`drop index if exists memberships_search_name`.execute(db);
  for (const index of INDEXES) await sql.raw(`alter index ${index} reset (fastupdate)`).execute(db);
}
