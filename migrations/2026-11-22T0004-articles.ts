import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

export async function up(db: Kysely<any>): Promise<void> {
  // Per-community article settings: the product terms members accept, guidelines, and an optional
  // external application form for members with no article in flight.
  await db.schema.alterTable('communities').addColumn('article_terms', 'text').execute();
  await db.schema.alterTable('communities').addColumn('article_guidelines', 'text').execute();
  await db.schema.alterTable('communities').addColumn('article_application_url', 'text').execute();

  await db.schema
    .createTable('articles')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('editor_id', 'integer', (c) => c.references('users.id'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('DRAFT'))
    .addColumn('status_updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('current_revision_id', 'integer')
    .addColumn('scheduled_date', 'timestamptz')
    .addColumn('published_date', 'timestamptz')
    .addColumn('article_url', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint(
      'articles_status',
      sql`status in ('DRAFT','EDITING','SUBMITTED_FOR_REVIEW','FIRST_ROUND_EDIT','NEEDS_REVISION','FINAL_EDIT','READY_TO_APPROVE','READY_TO_PUBLISH','MANUALLY_PUBLISHED','SCHEDULED','PUBLISHED','TRASHED','UNASSIGNED','ON_HOLD')`,
    )
    .execute();
  await db.schema.createIndex('articles_community_status').on('articles').columns(['community_id', 'status', 'status_updated_at']).execute();
  await db.schema.createIndex('articles_author').on('articles').columns(['community_id', 'author_id']).execute();

  await db.schema
    .createTable('article_revisions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('article_id', 'integer', (c) => c.notNull().references('articles.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('word_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('article_revisions_article').on('article_revisions').columns(['article_id', 'id']).execute();

  await db.schema
    .createTable('article_status_events')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('article_id', 'integer', (c) => c.notNull().references('articles.id').onDelete('cascade'))
    .addColumn('from_status', 'text', (c) => c.notNull())
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'integer', (c) => c.references('users.id'))
    // The revision that was current when the status changed: it is sealed from then on.
    .addColumn('revision_id', 'integer', (c) => c.references('article_revisions.id').onDelete('set null'))
    .addColumn('note', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('article_status_events_article').on('article_status_events').columns(['article_id', 'id']).execute();

  await db.schema
    .createTable('article_feedback')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('article_id', 'integer', (c) => c.notNull().references('articles.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('remark', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('read_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('article_feedback_article').on('article_feedback').columns(['article_id', 'id']).execute();

  await db.schema
    .createTable('article_user_settings')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('byline', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('article_user_settings_member', ['community_id', 'user_id'])
    .execute();

  // Accepted agreements: the product agreement gate, and the per-article submission and approval ones.
  await db.schema
    .createTable('article_agreements')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('article_id', 'integer', (c) => c.references('articles.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('article_agreements_kind', sql`kind in ('PRODUCT', 'SUBMISSION', 'APPROVAL')`)
    .execute();
  await db.schema.createIndex('article_agreements_member').on('article_agreements').columns(['community_id', 'user_id', 'kind']).execute();

  await db.schema
    .createTable('blackout_windows')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('starts_on', 'date', (c) => c.notNull())
    .addColumn('ends_before', 'date', (c) => c.notNull())
    .addCheckConstraint('blackout_windows_order', sql`starts_on < ends_before`)
    .execute();

  await db.schema
    .createTable('copy_scans')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('article_id', 'integer', (c) => c.notNull().references('articles.id').onDelete('cascade'))
    .addColumn('revision_id', 'integer', (c) => c.notNull().references('article_revisions.id').onDelete('cascade'))
    .addColumn('export_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('identical_words', 'integer')
    .addColumn('minor_changed_words', 'integer')
    .addColumn('related_meaning_words', 'integer')
    .addColumn('aggregated_score', 'real')
    .addColumn('ai_probability', 'real')
    .addColumn('total_words', 'integer')
    .addColumn('total_excluded', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('read_at', 'timestamptz')
    .addColumn('viewed_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('notifications_member').on('notifications').columns(['community_id', 'user_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['notifications', 'copy_scans', 'blackout_windows', 'article_agreements', 'article_user_settings', 'article_feedback', 'article_status_events', 'article_revisions', 'articles']) {
    await db.schema.dropTable(t).execute();
  }
  for (const c of ['article_application_url', 'article_guidelines', 'article_terms']) {
    await db.schema.alterTable('communities').dropColumn(c).execute();
  }
}
