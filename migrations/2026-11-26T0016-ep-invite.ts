import { Kysely } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Expert-panel invitations (issue 15, slice C). When a batch is sent, a job tells each member of the
 * panel, once, of the questions that went to them (one notification with a signed link). `invited_at`
 * is set in the transaction of that notification: a job run again (a retry after a crash, a second
 * copy) finds the member's answers marked and tells them nothing more. (`reminded_at`, from 0014,
 * plays the same part for the reminder before the deadline.)
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ep_answers').addColumn('invited_at', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ep_answers').dropColumn('invited_at').execute();
}
