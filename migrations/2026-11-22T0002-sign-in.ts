import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

export async function up(db: Kysely<any>): Promise<void> {
  // Refresh tokens belong to sessions (stored hashed, rotated on every refresh).
  await db.schema.alterTable('sessions').addColumn('refresh_token_hash', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('refreshed_at', 'timestamptz').execute();
  await sql`create unique index sessions_refresh_token on sessions (refresh_token_hash) where refresh_token_hash is not null`.execute(db);

  // One-time sign-in codes: stored hashed, bound to a user, a community, a channel and a destination.
  await db.schema
    .createTable('one_time_codes')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addCheckConstraint('one_time_codes_channel', sql`channel in ('EMAIL', 'SMS')`)
    .execute();
  await db.schema.createIndex('one_time_codes_user').on('one_time_codes').columns(['community_id', 'user_id', 'created_at']).execute();

  // Password reset and first-password setup links: single use, expiring, stored hashed.
  await db.schema
    .createTable('password_tokens')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addCheckConstraint('password_tokens_purpose', sql`purpose in ('reset', 'setup')`)
    .execute();

  // Failed attempts and sends, counted per key (account, IP) in a sliding window; shared by all processes.
  await db.schema
    .createTable('auth_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_events_key').on('auth_events').columns(['key', 'kind', 'occurred_at']).execute();

  await db.schema
    .createTable('auth_lockouts')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('until', 'timestamptz', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('auth_lockouts').execute();
  await db.schema.dropTable('auth_events').execute();
  await db.schema.dropTable('password_tokens').execute();
  await db.schema.dropTable('one_time_codes').execute();
  await sql`drop index sessions_refresh_token`.execute(db);
  await db.schema.alterTable('sessions').dropColumn('refreshed_at').execute();
  await db.schema.alterTable('sessions').dropColumn('refresh_token_hash').execute();
}
