import { Kysely } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Onboarding's expert-panel steps (issue 15, decision 0036): ep-landing keeps `expert_panel_at`;
 * ep-question gets its own stamp, so that leaving after joining a panel and coming back resumes at
 * the question, and answering or skipping it is remembered.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('onboardings').addColumn('expert_question_at', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('onboardings').dropColumn('expert_question_at').execute();
}
