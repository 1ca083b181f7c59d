import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * A member has at most one article in flight per community (spec section 4). Two first autosaves at
 * once (a save on the wire and Save & exit) could otherwise both create one; the index makes the
 * second insert fail, and the service then returns the article the first created.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create unique index articles_one_in_flight on articles (community_id, author_id)
    where status in ('DRAFT', 'EDITING', 'SUBMITTED_FOR_REVIEW', 'UNASSIGNED', 'FIRST_ROUND_EDIT', 'NEEDS_REVISION', 'FINAL_EDIT', 'READY_TO_APPROVE', 'ON_HOLD')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index articles_one_in_flight`.execute(db);
}
