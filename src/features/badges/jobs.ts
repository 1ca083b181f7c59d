import type { FastifyInstance } from 'fastify';
import type { JobDefinition } from '#src/lib/jobs/queue.ts';
import { evaluateCommunity, evaluateMembers, EVALUATE_JOB, SWEEP_JOB, type BadgeDeps, type EvaluateJob } from './evaluate.ts';

/**
 * The badges' jobs: `badges.evaluate` (members named by an event), and `badges.sweep`, once a day
 * across all processes, every member of every community (years of membership; anything missed).
 */
export function badgeJobs(app: FastifyInstance): JobDefinition[] {
  const depsIn = (community: { id: number }): BadgeDeps => ({ db: app.db, clock: app.clock, community, t: app.t, notifier: app.notifications });
  return [
    {
      name: EVALUATE_JOB,
      handler: async (data: EvaluateJob) => {
        const community = await app.db.selectFrom('communities').select('id').where('id', '=', data.communityId).executeTakeFirst();
        if (!community || !Array.isArray(data.userIds)) return; // the community is gone: nobody to tell
        await evaluateMembers(depsIn(community), data.userIds.filter((id) => Number.isSafeInteger(id)));
      },
    },
    {
      name: SWEEP_JOB,
      schedule: '17 4 * * *',
      expireInSeconds: 30 * 60,
      handler: async () => {
        // Each community in turn (the communities table is outside every community), each within its own.
        const communities = await app.db.selectFrom('communities').select('id').orderBy('id').execute();
        for (const community of communities) {
          const given = await evaluateCommunity(depsIn(community));
          if (given) app.log.info({ community: community.id, given }, 'badges given by the daily sweep');
        }
      },
    },
  ];
}
