import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Groups (issue 28). A community's staff keep groups: a name, an about (rich text, sanitised), an image
 * (uploaded, stored in the database as partner logos are), a URL slug unique in the community, a
 * visibility (disabled: staff only; preview: its chairs only; private: its members only; public:
 * every member of the community), its chairs and its members (one row per person, role chair or
 * member). A member of the community asks to join a public group; a chair accepts or declines.
 * Every staff or chair change is one line of the group's log (group_actions).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('groups')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('about_html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('about_text', 'text', (c) => c.notNull().defaultTo(''))
    // A path under static/ (the demo's) or `upload:<key>` of an uploaded image (group_images).
    .addColumn('image', 'text')
    .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('preview').check(sql`visibility in ('disabled', 'preview', 'private', 'public')`))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index groups_slug on groups (community_id, slug)`.execute(db);
  await sql`create index groups_name on groups (community_id, lower(name), id)`.execute(db);

  await db.schema
    .createTable('group_images')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index group_images_group on group_images (community_id, group_id)`.execute(db);

  await db.schema
    .createTable('group_members')
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('member').check(sql`role in ('chair', 'member')`))
    .addColumn('added_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'user_id'])
    .execute();
  // "My groups" first: a member's groups in a community.
  await sql`create index group_members_user on group_members (community_id, user_id)`.execute(db);

  await db.schema
    .createTable('group_join_requests')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending', 'accepted', 'declined')`))
    .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decided_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One open request per member and group (holds under two presses at once).
  await sql`create unique index group_join_requests_open on group_join_requests (group_id, user_id) where status = 'pending'`.execute(db);
  await sql`create index group_join_requests_group on group_join_requests (community_id, group_id, status, id)`.execute(db);

  await db.schema
    .createTable('group_actions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index group_actions_group on group_actions (community_id, group_id, id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['group_actions', 'group_join_requests', 'group_members', 'group_images', 'groups']) await db.schema.dropTable(table).execute();
}
