import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * A browser's Web Push subscription belongs to the session that subscribed (the sessions row's id,
 * the hash of the session id): signing out deletes it, so that a shared computer stops showing the
 * previous member's notifications. Null for mobile tokens (the app removes its own token) and for
 * subscriptions stored before this column.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('push_tokens').addColumn('session_id', 'text').execute();
  await sql`create index push_tokens_session on push_tokens (session_id) where session_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists push_tokens_session`.execute(db);
  await db.schema.alterTable('push_tokens').dropColumn('session_id').execute();
}
