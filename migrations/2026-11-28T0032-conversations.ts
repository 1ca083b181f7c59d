import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Conversations (issue 28): members whose introduction the staff approved write to each other.
 * `conversations` holds one pair per community, stored ordered (member_low < member_high) so that a
 * pair has one row whichever of the two started it, with what its list needs (the last message's
 * time, id and sender). `conversation_members` holds each member's own state: how far they have read
 * (the id of the last message they saw) and whether they blocked the conversation.
 * `conversation_messages` holds the messages, plain text of at most 4,000 characters.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('conversations')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('member_low', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('member_high', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_message_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_message_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_sender_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addCheckConstraint('conversations_ordered', sql`member_low < member_high`)
    .addUniqueConstraint('conversations_pair', ['community_id', 'member_low', 'member_high'])
    .execute();

  await db.schema
    .createTable('conversation_members')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('conversation_id', 'integer', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('read_message_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('blocked_at', 'timestamptz')
    .addPrimaryKeyConstraint('conversation_members_pk', ['conversation_id', 'user_id'])
    .execute();
  // A member's list: their conversations in this community.
  await sql`create index conversation_members_user on conversation_members (community_id, user_id)`.execute(db);

  await db.schema
    .createTable('conversation_messages')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('conversation_id', 'integer', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('sender_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull().check(sql`char_length(body) between 1 and 4000`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // A thread's pages (by id), its unread count, and a member's recent sends (the rate limit).
  await sql`create index conversation_messages_thread on conversation_messages (conversation_id, id)`.execute(db);
  await sql`create index conversation_messages_sender on conversation_messages (community_id, sender_id, created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('conversation_messages').ifExists().execute();
  await db.schema.dropTable('conversation_members').ifExists().execute();
  await db.schema.dropTable('conversations').ifExists().execute();
}
