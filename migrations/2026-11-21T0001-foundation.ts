import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('communities')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('app_name', 'text', (c) => c.notNull())
    .addColumn('familiar_name', 'text', (c) => c.notNull())
    .addColumn('icon', 'text')
    .addColumn('nav_more', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('forum_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('concierge_email', 'text', (c) => c.notNull())
    .addColumn('concierge_phone', 'text', (c) => c.notNull())
    .addColumn('exec_link', 'text')
    .addColumn('copyright_holder', 'text', (c) => c.notNull())
    .addColumn('link_terms', 'text')
    .addColumn('link_privacy', 'text')
    .addColumn('link_membership_info', 'text')
    .addColumn('google_analytics_id', 'text')
    .addColumn('google_tag_manager_id', 'text')
    .addColumn('auth_slug', 'text')
    .addColumn('auth_background_image', 'text')
    .addColumn('auth_play_store_link', 'text')
    .addColumn('auth_app_store_link', 'text')
    .addColumn('auth_logo', 'text')
    .addColumn('auth_text_color', 'text')
    .addColumn('color_primary', 'text', (c) => c.notNull().defaultTo('#1f4e79'))
    .addColumn('color_accent', 'text', (c) => c.notNull().defaultTo('#b5651d'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('communities_code_format', sql`code ~ '^[a-z0-9-]+$'`)
    .addCheckConstraint('communities_colors', sql`color_primary ~ '^#[0-9a-fA-F]{6}$' and color_accent ~ '^#[0-9a-fA-F]{6}$'`)
    .execute();

  await db.schema
    .createTable('community_hosts')
    .addColumn('host', 'text', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addCheckConstraint('community_hosts_lower', sql`host = lower(host)`)
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('mobile_country_code', 'text')
    .addColumn('mobile_number', 'text')
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index users_email_unique on users (lower(email))`.execute(db);
  await sql`create unique index users_username_unique on users (lower(username))`.execute(db);

  // A user's place in one community: roles, gate, and the profile that community's members see.
  await db.schema
    .createTable('memberships')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('roles', sql`text[]`, (c) => c.notNull().defaultTo(sql`array['MEMBER']::text[]`))
    .addColumn('gate', 'text', (c) => c.notNull().defaultTo('app'))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('is_moderator', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('company_name', 'text')
    .addColumn('job_title', 'text')
    .addColumn('location_name', 'text')
    .addColumn('location_familiar_name', 'text')
    .addColumn('avatar_url', 'text')
    .addColumn('public_url', 'text')
    .addColumn('pronouns', 'text')
    .addColumn('display_pronouns', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('health', 'text')
    .addColumn('standing', 'text')
    .addColumn('is_founding', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('vertical', 'text')
    .addColumn('membership_tier', 'text')
    .addColumn('joined_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_accessed_at', 'timestamptz')
    .addUniqueConstraint('memberships_community_user', ['community_id', 'user_id'])
    .addCheckConstraint('memberships_roles', sql`roles <@ array['ADMIN','MEMBER']::text[] and cardinality(roles) > 0`)
    .addCheckConstraint('memberships_gate', sql`gate in ('app', 'onboarding')`)
    .execute();
  await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute();

  // Server-side sessions: the signed cookie names one, and sign-out revokes it here.
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').columns(['user_id', 'community_id']).execute();

  await db.schema
    .createTable('ads')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('image_url', 'text', (c) => c.notNull())
    .addColumn('link', 'text', (c) => c.notNull())
    .addColumn('alt_text', 'text', (c) => c.notNull())
    .addColumn('shape', 'text', (c) => c.notNull())
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('ads_shape', sql`shape in ('MASTHEAD', 'MEDIUM_SQUARE')`)
    .execute();
  await db.schema.createIndex('ads_community').on('ads').columns(['community_id', 'shape']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['ads', 'sessions', 'memberships', 'users', 'community_hosts', 'communities']) {
    await db.schema.dropTable(t).execute();
  }
}
