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
 * The name keeps the plan's first idea (a GiST index ordering the typo tier by word-similarity
 * distance, KNN); measured, it was slower, see decision 0018.
 */
const INDEXES = ['memberships_search_vector', 'memberships_search_trgm'];

export async function up(db: Kysely<any>): Promise<void> {
  for (const index of INDEXES) {
    await sql.raw(`alter index ${index} set (fastupdate = off)`).execute(db);
    await sql.raw(`select gin_clean_pending_list('${index}'::regclass)`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of INDEXES) await sql.raw(`alter index ${index} reset (fastupdate)`).execute(db);
}
