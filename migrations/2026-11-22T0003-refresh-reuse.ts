import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/** Remember the refresh token a session had before its last rotation, to notice when it is replayed. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('previous_refresh_token_hash', 'text').execute();
  await sql`create index sessions_previous_refresh_token on sessions (previous_refresh_token_hash) where previous_refresh_token_hash is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index sessions_previous_refresh_token`.execute(db);
  await db.schema.alterTable('sessions').dropColumn('previous_refresh_token_hash').execute();
}
