import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Members (issue 11): the profile a community's members see (company profile, social links, industry),
 * what the directory searches (a weighted tsvector and a trigram text, kept by triggers so that a
 * name changed on `users` reaches every membership), stored avatars, introduction requests, member
 * notes, the record of staff actions, and the last access of each session.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);

  await db.schema
    .alterTable('memberships')
    .addColumn('industry', 'text')
    .addColumn('company_description', 'text')
    .addColumn('company_area_of_focus', 'text')
    .addColumn('company_employee_count', 'integer')
    .addColumn('link_linkedin', 'text')
    .addColumn('link_twitter', 'text')
    .addColumn('link_facebook', 'text')
    .addColumn('link_instagram', 'text')
    .addColumn('link_crunchbase', 'text')
    .addColumn('link_angellist', 'text')
    .addColumn('link_website', 'text')
    .addColumn('avatar_key', 'text')
    .addColumn('profile_updated_at', 'timestamptz')
    .addColumn('sort_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('search_vector', sql`tsvector`, (c) => c.notNull().defaultTo(sql`''::tsvector`))
    .execute();

  // The search columns follow the name (on users) and the profile (on memberships).
  await sql`
    create function memberships_search_refresh() returns trigger language plpgsql as $$
    declare
      fname text;
      lname text;
    begin
      select first_name, last_name into fname, lname from users where id = new.user_id;
      new.sort_name := lower(coalesce(lname, '') || ' ' || coalesce(fname, ''));
      new.search_text := lower(concat_ws(' ', fname, lname, new.company_name, new.job_title, new.location_name, new.industry));
      new.search_vector :=
        setweight(to_tsvector('simple', concat_ws(' ', fname, lname)), 'A') ||
        setweight(to_tsvector('simple', coalesce(new.company_name, '')), 'B') ||
        setweight(to_tsvector('simple', coalesce(new.job_title, '')), 'C') ||
        setweight(to_tsvector('simple', concat_ws(' ', new.location_name, new.industry)), 'D');
      return new;
    end $$`.execute(db);
  await sql`
    create trigger memberships_search before insert or update of company_name, job_title, location_name, industry, user_id
    on memberships for each row execute function memberships_search_refresh()`.execute(db);
  await sql`
    create function users_search_touch() returns trigger language plpgsql as $$
    begin
      if new.first_name is distinct from old.first_name or new.last_name is distinct from old.last_name then
        update memberships set user_id = user_id where user_id = new.id;
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger users_search after update of first_name, last_name on users for each row execute function users_search_touch()`.execute(db);
  await sql`update memberships set user_id = user_id`.execute(db);

  await sql`create index memberships_directory on memberships (community_id, sort_name, id) where is_active`.execute(db);
  await sql`create index memberships_joined on memberships (community_id, joined_at desc, id desc) where is_active`.execute(db);
  await sql`create index memberships_search_vector on memberships using gin (search_vector)`.execute(db);
  await sql`create index memberships_search_trgm on memberships using gin (search_text gin_trgm_ops)`.execute(db);

  // Avatars: every preset size of an upload, in the database so that every app node serves them.
  await db.schema
    .createTable('avatar_images')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('avatar_images_pk', ['key', 'size'])
    .execute();
  await db.schema.createIndex('avatar_images_user').on('avatar_images').columns(['community_id', 'user_id']).execute();

  await db.schema
    .createTable('introduction_requests')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('requester_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('target_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('PENDING'))
    .addColumn('reviewer_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('review_note', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('reviewed_at', 'timestamptz')
    .addCheckConstraint('introduction_requests_status', sql`status in ('PENDING', 'APPROVED', 'DECLINED')`)
    .addCheckConstraint('introduction_requests_two', sql`requester_id <> target_id`)
    .execute();
  // One open request per pair, whichever of the two asked.
  await sql`create unique index introduction_requests_open_pair on introduction_requests
    (community_id, least(requester_id, target_id), greatest(requester_id, target_id)) where status = 'PENDING'`.execute(db);
  await sql`create index introduction_requests_queue on introduction_requests (community_id, status, created_at, id)`.execute(db);
  await sql`create index introduction_requests_requester on introduction_requests (community_id, requester_id, created_at desc)`.execute(db);

  await db.schema
    .createTable('member_notes')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('member_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('member_notes_member').on('member_notes').columns(['community_id', 'member_id', 'created_at']).execute();

  // What staff did to a member or a community, by whom and when.
  await db.schema
    .createTable('staff_actions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('member_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('staff_actions_member').on('staff_actions').columns(['community_id', 'member_id', 'created_at']).execute();

  await db.schema.alterTable('sessions').addColumn('last_accessed_at', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('last_accessed_at').execute();
  for (const t of ['staff_actions', 'member_notes', 'introduction_requests', 'avatar_images']) await db.schema.dropTable(t).execute();
  await sql`drop trigger users_search on users`.execute(db);
  await sql`drop function users_search_touch()`.execute(db);
  await sql`drop trigger memberships_search on memberships`.execute(db);
  await sql`drop function memberships_search_refresh()`.execute(db);
  await db.schema
    .alterTable('memberships')
    .dropColumn('industry')
    .dropColumn('company_description')
    .dropColumn('company_area_of_focus')
    .dropColumn('company_employee_count')
    .dropColumn('link_linkedin')
    .dropColumn('link_twitter')
    .dropColumn('link_facebook')
    .dropColumn('link_instagram')
    .dropColumn('link_crunchbase')
    .dropColumn('link_angellist')
    .dropColumn('link_website')
    .dropColumn('avatar_key')
    .dropColumn('profile_updated_at')
    .dropColumn('sort_name')
    .dropColumn('search_text')
    .dropColumn('search_vector')
    .execute();
}
