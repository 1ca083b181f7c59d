import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Messages from the community team (issue 28). Staff write a message (a subject and a rich-text body,
 * sanitised as articles are) to an audience kept on the message as a tagged value (jsonb: the whole
 * community, a group, a filter of the staff's member search, or a pasted list of emails; no foreign
 * key to groups). A message moves DRAFT → SCHEDULED → SENDING → SENT (or CANCELLED, FAILED), each
 * move logged in message_events with who and when.
 *
 * Delivery is exactly once per member: when a message starts sending, its audience is written once as
 * message_recipients rows (unique per message and member) in 'pending'; each batch takes pending rows,
 * notifies each member and marks the row 'delivered' in the same transaction as the notification, so
 * a crash mid-send leaves either both or neither and the next batch picks up where it stopped.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('team_messages')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('sender_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('audience', 'jsonb', (c) => c.notNull())
    // The audience as last counted (a draft), then the recipients written when it started sending.
    .addColumn('audience_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('DRAFT').check(sql`status in ('DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED', 'FAILED')`),
    )
    .addColumn('scheduled_at', 'timestamptz')
    // Set once the audience is written as recipients (the first batch of a send).
    .addColumn('recipients_ready', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('sent_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index team_messages_list on team_messages (community_id, id desc)`.execute(db);

  await db.schema
    .createTable('message_recipients')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('message_id', 'integer', (c) => c.notNull().references('team_messages.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending').check(sql`state in ('pending', 'delivered', 'skipped')`))
    .addColumn('notification_id', 'integer')
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('read_at', 'timestamptz')
    .addPrimaryKeyConstraint('message_recipients_pkey', ['message_id', 'user_id'])
    .execute();
  // The batches: a message's pending recipients in user order.
  await sql`create index message_recipients_pending on message_recipients (message_id, user_id) where state = 'pending'`.execute(db);
  // A member's inbox: their delivered messages, newest first (the keyset is the delivery time and the message).
  await sql`create index message_recipients_inbox on message_recipients (community_id, user_id, delivered_at desc, message_id desc) where state = 'delivered'`.execute(db);
  await sql`create index message_recipients_unread on message_recipients (community_id, user_id) where state = 'delivered' and read_at is null`.execute(db);

  await db.schema
    .createTable('message_events')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('message_id', 'integer', (c) => c.notNull().references('team_messages.id').onDelete('cascade'))
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index message_events_message on message_events (community_id, message_id, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('message_events').execute();
  await db.schema.dropTable('message_recipients').execute();
  await db.schema.dropTable('team_messages').execute();
}
