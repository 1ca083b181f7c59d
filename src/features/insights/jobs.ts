import type { FastifyInstance } from 'fastify';
import { selectInCommunity } from '#src/db/tenancy.ts';
import type { JobDefinition } from '#src/lib/jobs/queue.ts';
import { jobDeps } from './deps.ts';
import { computeHealth } from './health.ts';
import { deleteExpiredEvents } from './retention.ts';
import { rollUp } from './rollup.ts';

export const ROLLUP_JOB = 'insights.rollup';
export const RETENTION_JOB = 'insights.retention';
/** Members' health is computed again when it is older than this (the roll-up runs every ten minutes). */
const HEALTH_EVERY_MS = 60 * 60_000;

/**
 * The insights' jobs, each once across all processes (pg-boss's schedule) and each safe to run twice:
 * `insights.rollup` every ten minutes, each community in turn (the roll-up, then members' health when
 * it is an hour old), and `insights.retention` daily (raw events past the set number of days).
 */
export function insightsJobs(app: FastifyInstance): JobDefinition[] {
  // Each community in turn (the communities table is outside every community), each within its own.
  const communities = () => app.db.selectFrom('communities').select('id').orderBy('id').execute();
  return [
    {
      name: ROLLUP_JOB,
      schedule: '*/10 * * * *',
      expireInSeconds: 15 * 60,
      handler: async () => {
        for (const community of await communities()) await rollUpCommunity(app, community);
      },
    },
    {
      name: RETENTION_JOB,
      schedule: '40 3 * * *',
      expireInSeconds: 60 * 60,
      handler: async () => {
        for (const community of await communities()) {
          const deleted = await deleteExpiredEvents(jobDeps(app, community));
          if (deleted) app.log.info({ community: community.id, deleted }, 'insights: raw events past their retention deleted');
        }
      },
    },
  ];
}

/** One community's roll-up, then its members' health when that is an hour old. */
export async function rollUpCommunity(app: FastifyInstance, community: { id: number }): Promise<void> {
  const deps = jobDeps(app, community);
  await rollUp(deps);
  const state = await selectInCommunity(app.db, 'insight_rollups', community).select('health_at').executeTakeFirst();
  const healthAt = state?.health_at ? new Date(state.health_at).getTime() : 0;
  if (deps.clock.now().getTime() - healthAt >= HEALTH_EVERY_MS) await computeHealth(deps);
}
