import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * The forum's notices of a published reply (to the post's followers and the members it mentions) are
 * made by a durable job after the reply commits. Each member hears of a reply once: the row for
 * (reply, member) is written in the transaction of their notification, so a retried job skips them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('forum_reply_notices')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('reply_id', 'integer', (c) => c.notNull().references('forum_replies.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('forum_reply_notices_pk', ['reply_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('forum_reply_notices').ifExists().execute();
}
