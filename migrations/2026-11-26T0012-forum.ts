import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * The forum (issue 14): topics, posts (each with one to a few topics), replies, likes, reactions,
 * follows, reports, and the log of moderators' and staff's actions. Counts (replies, likes) are kept on
 * the row and changed in the same transaction as what they count. A post's search vector is a stored
 * generated column (title weighted above the text) with a GIN index: PostgreSQL full-text search.
 *
 * A post or reply is 'published' (shown), 'pending' (waits for a moderator), 'rejected' (by a
 * moderator, with a reason) or 'removed' (by staff or a moderator, restorable); an author's own delete
 * sets deleted_at and hides it everywhere.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('communities')
    .addColumn('forum_all_posts_wait', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  await db.schema
    .createTable('forum_topics')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('archived_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index forum_topics_name on forum_topics (community_id, lower(name))`.execute(db);

  await db.schema
    .createTable('forum_posts')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text', (c) => c.notNull())
    .addColumn('body_text', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('published').check(sql`status in ('published', 'pending', 'rejected', 'removed')`))
    .addColumn('reply_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('like_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('report_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_activity_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('pinned_at', 'timestamptz')
    .addColumn('locked_at', 'timestamptz')
    .addColumn('moderation_note', 'text')
    .addColumn('moderated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('moderated_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('edited_at', 'timestamptz')
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('search', sql`tsvector`, (c) =>
      c.generatedAlwaysAs(sql`setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body_text), 'B')`).stored(),
    )
    .execute();
  // The list: newest activity first, keyset on (last_activity_at, id); pinned posts are read apart.
  await sql`create index forum_posts_list on forum_posts (community_id, last_activity_at desc, id desc) where status = 'published' and deleted_at is null`.execute(db);
  // Pinned posts, read apart above the list's first page: without it that read scans every post.
  await sql`create index forum_posts_pinned on forum_posts (community_id, pinned_at desc) where pinned_at is not null and status = 'published' and deleted_at is null`.execute(db);
  await sql`create index forum_posts_queue on forum_posts (community_id, id) where status = 'pending' and deleted_at is null`.execute(db);
  await sql`create index forum_posts_author on forum_posts (community_id, author_id, id desc)`.execute(db);
  await sql`create index forum_posts_search on forum_posts using gin (search)`.execute(db);

  await db.schema
    .createTable('forum_post_topics')
    .addColumn('post_id', 'integer', (c) => c.notNull().references('forum_posts.id').onDelete('cascade'))
    .addColumn('topic_id', 'integer', (c) => c.notNull().references('forum_topics.id').onDelete('cascade'))
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('forum_post_topics_pk', ['post_id', 'topic_id'])
    .execute();
  await sql`create index forum_post_topics_topic on forum_post_topics (community_id, topic_id, post_id)`.execute(db);

  await db.schema
    .createTable('forum_replies')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('post_id', 'integer', (c) => c.notNull().references('forum_posts.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('body_html', 'text', (c) => c.notNull())
    .addColumn('body_text', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('published').check(sql`status in ('published', 'pending', 'rejected', 'removed')`))
    .addColumn('like_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('report_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('moderation_note', 'text')
    .addColumn('moderated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('moderated_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('edited_at', 'timestamptz')
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  // A thread's replies in order, keyset on id.
  await sql`create index forum_replies_thread on forum_replies (community_id, post_id, id)`.execute(db);
  await sql`create index forum_replies_queue on forum_replies (community_id, id) where status = 'pending' and deleted_at is null`.execute(db);

  // Likes and reactions on a post or a reply: one row per member, so a like is idempotent.
  await db.schema
    .createTable('forum_likes')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('target_kind', 'text', (c) => c.notNull().check(sql`target_kind in ('post', 'reply')`))
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('forum_likes_pk', ['target_kind', 'target_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('forum_reactions')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('target_kind', 'text', (c) => c.notNull().check(sql`target_kind in ('post', 'reply')`))
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reaction', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('forum_reactions_pk', ['target_kind', 'target_id', 'user_id', 'reaction'])
    .execute();

  await db.schema
    .createTable('forum_follows')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('post_id', 'integer', (c) => c.notNull().references('forum_posts.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('forum_follows_pk', ['post_id', 'user_id'])
    .execute();

  // One report per member per post or reply; resolved by a moderator or staff.
  await db.schema
    .createTable('forum_reports')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('target_kind', 'text', (c) => c.notNull().check(sql`target_kind in ('post', 'reply')`))
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('post_id', 'integer', (c) => c.notNull().references('forum_posts.id').onDelete('cascade'))
    .addColumn('reporter_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('resolved_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('resolution', 'text')
    .execute();
  await sql`create unique index forum_reports_once on forum_reports (target_kind, target_id, reporter_id)`.execute(db);
  await sql`create index forum_reports_open on forum_reports (community_id, id) where resolved_at is null`.execute(db);

  // Who did what and when: approvals, rejections, removals, restores, locks, pins, topic changes.
  await db.schema
    .createTable('forum_actions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index forum_actions_list on forum_actions (community_id, id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['forum_actions', 'forum_reports', 'forum_follows', 'forum_reactions', 'forum_likes', 'forum_replies', 'forum_post_topics', 'forum_posts', 'forum_topics']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
  await db.schema.alterTable('communities').dropColumn('forum_all_posts_wait').execute();
}
