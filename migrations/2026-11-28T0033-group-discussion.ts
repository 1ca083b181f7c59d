import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * A group's discussion is the forum's posts and replies scoped to the group (issue 28): a post of a
 * group carries its group; the forum's own lists, search, home and feeds keep `group_id is null`.
 * A group's page lists its posts by last activity (the index below).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('forum_posts')
    .addColumn('group_id', 'integer', (c) => c.references('groups.id').onDelete('cascade'))
    .execute();
  await sql`create index forum_posts_group on forum_posts (community_id, group_id, last_activity_at desc, id desc) where group_id is not null and deleted_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('forum_posts').dropColumn('group_id').execute();
}
