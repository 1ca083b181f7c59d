import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Expert panels (issue 15). A community's editors keep panels (a name, a topic, the members who
 * belong, the word range an answer must keep to). A batch sends a set of questions to a panel's
 * members at once, with a deadline. Each member a question was sent to has one answer row, whatever
 * they do with it: 'open' (not yet acted on), 'cant_answer', 'ignored', 'submitted' (in review, still
 * editable by the member until an editor picks it up: review_started_at), 'accepted' or 'declined' (by
 * an editor, with a note). Published = accepted and in a roundup whose status is FINAL.
 *
 * An editor's edits of an answer are revisions (the member's own text is the first). A roundup
 * gathers accepted answers to one question (ordered, with an introduction) and moves DRAFT →
 * EDITOR_REVIEW → READY_FOR_PUBLISHING → FINAL along allowed moves only, each move logged with who
 * and when; FINAL gives it its live address (a slug).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ep_panels')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('topic', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('min_words', 'integer', (c) => c.notNull().defaultTo(50))
    .addColumn('max_words', 'integer', (c) => c.notNull().defaultTo(300))
    .addColumn('archived_at', 'timestamptz')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('ep_panels_words', sql`min_words >= 0 and max_words >= min_words`)
    .execute();
  await sql`create unique index ep_panels_name on ep_panels (community_id, lower(name))`.execute(db);

  await db.schema
    .createTable('ep_panel_members')
    .addColumn('panel_id', 'integer', (c) => c.notNull().references('ep_panels.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('added_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('added_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('ep_panel_members_pk', ['panel_id', 'user_id'])
    .execute();
  await sql`create index ep_panel_members_user on ep_panel_members (community_id, user_id)`.execute(db);

  await db.schema
    .createTable('ep_batches')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('panel_id', 'integer', (c) => c.notNull().references('ep_panels.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('deadline_at', 'timestamptz', (c) => c.notNull())
    // draft: being written; sent: its questions went to the panel's members (sent_at).
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft').check(sql`status in ('draft', 'sent')`))
    .addColumn('sent_at', 'timestamptz')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index ep_batches_list on ep_batches (community_id, created_at desc, id desc)`.execute(db);
  // The reminder job's scan: sent batches by deadline.
  await sql`create index ep_batches_deadline on ep_batches (deadline_at) where status = 'sent'`.execute(db);

  await db.schema
    .createTable('ep_questions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('batch_id', 'integer', (c) => c.notNull().references('ep_batches.id').onDelete('cascade'))
    .addColumn('panel_id', 'integer', (c) => c.notNull().references('ep_panels.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    // Sanitised HTML (the articles' rich-text subset), written by editors.
    .addColumn('brief_html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('guidelines_html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('closed_at', 'timestamptz')
    .addColumn('closed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index ep_questions_batch on ep_questions (batch_id, position, id)`.execute(db);
  await sql`create index ep_questions_board on ep_questions (community_id, created_at desc, id desc)`.execute(db);

  await db.schema
    .createTable('ep_answers')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('question_id', 'integer', (c) => c.notNull().references('ep_questions.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('open').check(sql`status in ('open', 'cant_answer', 'ignored', 'submitted', 'accepted', 'declined')`),
    )
    // The current text (the member's, or an editor's latest revision); empty until submitted.
    .addColumn('body_html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('body_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('word_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('submitted_at', 'timestamptz')
    .addColumn('edited_at', 'timestamptz')
    // An editor picked it up: the member can no longer edit it.
    .addColumn('review_started_at', 'timestamptz')
    .addColumn('reviewer_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decision_note', 'text')
    .addColumn('decided_at', 'timestamptz')
    // The copy scan's figures (the articles' scanner), once submitted.
    .addColumn('scan', 'jsonb')
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('reminded_at', 'timestamptz')
    .addColumn('status_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('ep_answers_one', ['question_id', 'user_id'])
    .execute();
  // The member's tabs: their questions by status, newest first.
  await sql`create index ep_answers_member on ep_answers (community_id, user_id, status, sent_at desc, id desc)`.execute(db);
  // The editors' answers of a question.
  await sql`create index ep_answers_question on ep_answers (question_id, status, id)`.execute(db);

  await db.schema
    .createTable('ep_answer_revisions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('answer_id', 'integer', (c) => c.notNull().references('ep_answers.id').onDelete('cascade'))
    // Null: the member's own text; else the editor who changed it.
    .addColumn('editor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('body_html', 'text', (c) => c.notNull())
    .addColumn('word_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index ep_answer_revisions_answer on ep_answer_revisions (answer_id, id)`.execute(db);

  await db.schema
    .createTable('ep_roundups')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('question_id', 'integer', (c) => c.notNull().references('ep_questions.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('intro_html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('DRAFT').check(sql`status in ('DRAFT', 'EDITOR_REVIEW', 'READY_FOR_PUBLISHING', 'FINAL')`),
    )
    // The live address once FINAL (under /expert-panels/roundups/{slug}).
    .addColumn('slug', 'text')
    .addColumn('published_at', 'timestamptz')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index ep_roundups_slug on ep_roundups (community_id, slug) where slug is not null`.execute(db);
  await sql`create index ep_roundups_board on ep_roundups (community_id, updated_at desc, id desc)`.execute(db);

  await db.schema
    .createTable('ep_roundup_answers')
    .addColumn('roundup_id', 'integer', (c) => c.notNull().references('ep_roundups.id').onDelete('cascade'))
    .addColumn('answer_id', 'integer', (c) => c.notNull().references('ep_answers.id').onDelete('cascade'))
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('ep_roundup_answers_pk', ['roundup_id', 'answer_id'])
    .execute();
  await sql`create index ep_roundup_answers_answer on ep_roundup_answers (answer_id)`.execute(db);

  await db.schema
    .createTable('ep_roundup_moves')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('roundup_id', 'integer', (c) => c.notNull().references('ep_roundups.id').onDelete('cascade'))
    .addColumn('from_status', 'text', (c) => c.notNull())
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index ep_roundup_moves_roundup on ep_roundup_moves (roundup_id, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['ep_roundup_moves', 'ep_roundup_answers', 'ep_roundups', 'ep_answer_revisions', 'ep_answers', 'ep_questions', 'ep_batches', 'ep_panel_members', 'ep_panels']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
