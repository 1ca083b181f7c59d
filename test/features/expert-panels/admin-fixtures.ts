import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Test } from 'tap';
import { buildApp } from '#src/app.ts';
import type { Clock } from '#src/core/clock.ts';
import type { Db } from '#src/db/index.ts';
import type { Community } from '#src/db/types.ts';
import type { EpDeps } from '#src/features/expert-panels/deps.ts';
import { INVITE_JOB } from '#src/features/expert-panels/admin/batches.ts';
import { testConfig } from '#test/helpers/app.ts';

/**
 * The editors' tests' app: the usual test app, and, where the invitations' area (slice C) has not
 * defined the invite job in this build, a stand-in definition that only counts its runs (sending a
 * batch enqueues it; the queue refuses unknown jobs).
 */
export async function startEpApp(t: Test, db: Db, clock: Clock): Promise<{ app: FastifyInstance; invites: Array<{ communityId: number; batchId: number }> }> {
  const config = testConfig({ DEFAULT_COMMUNITY: 'alpha' });
  const app = await buildApp({ config, db, clock });
  const invites: Array<{ communityId: number; batchId: number }> = [];
  if (!app.jobs.names().includes(INVITE_JOB)) app.jobs.define({ name: INVITE_JOB, handler: async (data: { communityId: number; batchId: number }) => void invites.push(data) });
  await app.ready();
  t.teardown(() => app.close());
  return { app, invites };
}

/** A service's dependencies for a community, as a request would have them. */
export function epDepsFor(app: FastifyInstance, community: Community): EpDeps {
  return { db: app.db, clock: app.clock, community, t: app.t, notifier: app.notifications, publicUrl: 'http://localhost', jobs: app.jobs };
}

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
