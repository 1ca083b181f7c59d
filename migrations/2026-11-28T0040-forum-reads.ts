import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Read tracking in the forum (issue 30, decision 0065): per community, member and post, the highest
 * reply id the member was actually shown, reading on from what they had read before (0: the post,
 * none of its replies). The list reads it in its own statement (a left join on the key) to say which
 * posts the member never opened and how many replies came since; the thread page writes it in its
 * own statement (a data-modifying CTE beside the replies it renders). Gone with the post, the member
 * or the community.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('forum_reads')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('post_id', 'integer', (c) => c.notNull().references('forum_posts.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('last_reply_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('read_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // The list joins on all three (its community, its post, the viewer): the key serves that join.
    .addPrimaryKeyConstraint('forum_reads_pk', ['community_id', 'post_id', 'user_id'])
    .execute();
  // A post's or a member's removal finds their marks by these (the key leads with the community).
  await sql`create index forum_reads_post on forum_reads (post_id)`.execute(db);
  await sql`create index forum_reads_user on forum_reads (user_id)`.execute(db);
  // Posts written before read tracking began are not unread to everyone at once: a community that
  // exists when this runs counts as unread only the posts written from now on (null: every post, as
  // for a community made later).
  await db.schema.alterTable('communities').addColumn('forum_reads_since', 'timestamptz').execute();
  await sql`update communities set forum_reads_since = now()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('communities').dropColumn('forum_reads_since').execute();
  await db.schema.dropTable('forum_reads').ifExists().execute();
}
