import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Notifications, their delivery and the member's settings (issue 12): each notification's kind (the
 * preference option it belongs to) and whether it shows in the list (the web channel), the member's
 * choices per kind and channel, the email digest choice, one row per delivery made (so that a retried
 * worker sends nothing twice), push tokens and Web Push subscriptions, the team contacts (executive
 * assistant, PR/marketing), and the device of each session.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('notifications')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('general'))
    .addColumn('shown', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  // The list (newest first, keyset on id) and the bell's poll (one index probe for an unviewed row).
  await sql`drop index if exists notifications_member`.execute(db);
  await sql`create index notifications_list on notifications (community_id, user_id, id desc) where shown`.execute(db);
  await sql`create index notifications_unviewed on notifications (community_id, user_id) where shown and viewed_at is null`.execute(db);
  await sql`create index notifications_unread on notifications (community_id, user_id, id) where shown and read_at is null`.execute(db);

  // Only the choices a member changed are stored; the catalogue's defaults fill the rest.
  await db.schema
    .createTable('notification_preferences')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('option', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('email', 'web', 'push')`))
    .addColumn('selected', 'boolean', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('notification_preferences_pk', ['community_id', 'user_id', 'option', 'channel'])
    .execute();

  // The member's email rhythm: each notification at once, or gathered into one daily digest.
  await db.schema
    .createTable('notification_settings')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email_digest', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('digest_sent_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('notification_settings_pk', ['community_id', 'user_id'])
    .execute();

  // One row per (notification, channel, target) delivered or waiting for the digest: the claim that
  // keeps a retried job from sending twice.
  await db.schema
    .createTable('notification_deliveries')
    .addColumn('notification_id', 'integer', (c) => c.notNull().references('notifications.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('community_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('sent', 'digest', 'failed')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .addPrimaryKeyConstraint('notification_deliveries_pk', ['notification_id', 'channel', 'target'])
    .execute();
  await sql`create index notification_deliveries_digest on notification_deliveries (community_id, user_id, created_at) where status = 'digest'`.execute(db);

  // Mobile push tokens (iOS / FCM) and browsers' Web Push subscriptions (their endpoint is the token).
  await db.schema
    .createTable('push_tokens')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('platform', 'text', (c) => c.notNull().check(sql`platform in ('ios', 'fcm', 'web')`))
    .addColumn('keys', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .execute();
  await sql`create unique index push_tokens_token on push_tokens (community_id, token)`.execute(db);
  await sql`create index push_tokens_member on push_tokens (community_id, user_id)`.execute(db);

  // Team contacts: the executive assistant ('ea') and the PR/marketing contact ('pr').
  await db.schema
    .createTable('support_contacts')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('ea', 'pr')`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('mobile_country_code', 'text')
    .addColumn('mobile_number', 'text')
    .addColumn('office_country_code', 'text')
    .addColumn('office_number', 'text')
    .addColumn('office_extension', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index support_contacts_member_type on support_contacts (community_id, user_id, type)`.execute(db);

  // The device a session signed in from, for the member's list of active sessions.
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('user_agent').execute();
  for (const t of ['support_contacts', 'push_tokens', 'notification_deliveries', 'notification_settings', 'notification_preferences']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
  await sql`drop index if exists notifications_list`.execute(db);
  await sql`drop index if exists notifications_unviewed`.execute(db);
  await sql`drop index if exists notifications_unread`.execute(db);
  await db.schema.createIndex('notifications_member').on('notifications').columns(['community_id', 'user_id', 'id']).execute();
  await db.schema.alterTable('notifications').dropColumn('kind').dropColumn('shown').execute();
}
