import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Badges (issue 27). `member_badges` holds what a member holds in a community: a badge's key (the
 * catalogue is in code, src/features/badges/catalogue.ts), its level (the years of membership; 0 for
 * a badge without levels), when it was earned, and who awarded it (a staff member; null when earned
 * from the member's own history). One row per member, badge and level: awarding twice inserts
 * nothing (ON CONFLICT DO NOTHING), so only the first award notifies. `badge_awards` logs every staff
 * award and revocation: who, when, whom, which badge and why.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('member_badges')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('badge', 'text', (c) => c.notNull().check(sql`badge ~ '^[a-z][a-z_]{1,39}$'`))
    .addColumn('level', 'integer', (c) => c.notNull().defaultTo(0).check(sql`level >= 0`))
    .addColumn('awarded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('awarded_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addUniqueConstraint('member_badges_once', ['community_id', 'user_id', 'badge', 'level'])
    .execute();

  await db.schema
    .createTable('badge_awards')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('badge', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('award', 'revoke')`))
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index badge_awards_log on badge_awards (community_id, created_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('badge_awards').ifExists().execute();
  await db.schema.dropTable('member_badges').ifExists().execute();
}
