import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * The directory's typo search (issue 11) filters on pg_trgm's word similarity (`q <% search_text`).
 * pg_trgm declares those functions with the default cost (1, as cheap as an integer comparison), so
 * on a community of a few thousand members the planner prefers reading every row and computing the
 * similarity of each (hundreds of milliseconds at 10,000 members) to the trigram index (a few). Their
 * true cost, declared here, lets it choose the index. Changing an extension's functions needs their
 * owner: where the database refuses (a managed PostgreSQL whose extensions a superuser created), the
 * search still works, only slower, and the migration says so instead of failing.
 */
const FUNCTIONS = ['word_similarity(text, text)', 'word_similarity_op(text, text)', 'word_similarity_commutator_op(text, text)'];

async function setCost(db: Kysely<any>, cost: number): Promise<void> {
  await sql
    .raw(
      `do $$
      begin
        ${FUNCTIONS.map((f) => `alter function ${f} cost ${cost};`).join('\n        ')}
      exception when insufficient_privilege then
        raise notice 'pg_trgm function costs left as they are (not their owner)';
      end $$`,
    )
    .execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await setCost(db, 100);
}

export async function down(db: Kysely<any>): Promise<void> {
  await setCost(db, 1);
}
