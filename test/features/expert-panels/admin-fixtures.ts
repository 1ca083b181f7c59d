import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Test } from 'tap';
import type { Clock } from '#src/core/clock.ts';
import type { RawDb as Db } from '#src/db/index.ts';
import { INVITE_JOB } from '#src/features/expert-panels/admin/batches.ts';
import { startApp } from '#test/helpers/app.ts';

/** The editors' tests' app: the usual test app with this clock, on this database. */
export async function startEpApp(t: Test, db: Db, clock: Clock): Promise<{ app: FastifyInstance }> {
  const { app } = await startApp(t, db, { clock });
  return { app };
}

/** A service's dependencies for a community, as a request would have them. */
export { epDepsFor } from './base-world.ts';

/** Invite jobs queued (pg-boss's table, any state; their data is sealed, so all of them). */
export async function queuedInvites(db: Db): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*)::text as n from pgboss.job where name = ${INVITE_JOB}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** A member's answer as if they had submitted it (the member side is another slice's). */
export async function submitAs(db: Db, answerId: number, html: string, words: number, at: Date) {
  await db.updateTable('ep_answers').set({ status: 'submitted', body_html: html, body_text: html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim(), word_count: words, submitted_at: at, status_at: at }).where('id', '=', answerId).execute();
  const a = await db.selectFrom('ep_answers').select('community_id').where('id', '=', answerId).executeTakeFirstOrThrow();
  await db.insertInto('ep_answer_revisions').values({ community_id: a.community_id, answer_id: answerId, editor_id: null, body_html: html, word_count: words, created_at: at }).execute();
}
