import type { FastifyInstance } from 'fastify';
import type { JobDefinition } from '#src/lib/jobs/queue.ts';
import { jobDeps } from './deps.ts';
import { DUE_JOB, DUE_SWEEP_JOB, runDue, runSendBatch, SEND_JOB, sendDueMessages, sendJobOf } from './delivery.ts';

/**
 * The messages' jobs: `messages.send` (one batch of a message's sending; each batch queues the next)
 * and `messages.due` (a scheduled message's delayed job: it starts sending at its time); and
 * `messages.due-sweep`, every five minutes across all processes, each community in turn, for a due
 * message whose delayed job was lost. Job data carries the community; one that is gone has nobody to send to.
 */
export function messageJobs(app: FastifyInstance): JobDefinition[] {
  const communityOf = async (id: number) => app.db.selectFrom('communities').select('id').where('id', '=', id).executeTakeFirst();
  return [
    {
      name: SEND_JOB,
      retry: { limit: 10, delaySeconds: 5, backoff: true },
      expireInSeconds: 15 * 60,
      pollingIntervalSeconds: 0.5,
      handler: async (data: unknown) => {
        const job = sendJobOf(data);
        const community = job && (await communityOf(job.communityId));
        if (!job || !community) return;
        await runSendBatch(jobDeps(app, community), job.messageId);
      },
    },
    {
      name: DUE_JOB,
      retry: { limit: 10, delaySeconds: 10, backoff: true },
      handler: async (data: unknown) => {
        const job = sendJobOf(data);
        const community = job && (await communityOf(job.communityId));
        if (!job || !community) return;
        await runDue(jobDeps(app, community), job.messageId);
      },
    },
    {
      name: DUE_SWEEP_JOB,
      schedule: '*/5 * * * *',
      expireInSeconds: 10 * 60,
      handler: async () => {
        // Each community in turn (the communities table is outside every community), each within its own.
        const communities = await app.db.selectFrom('communities').select('id').orderBy('id').execute();
        for (const community of communities) {
          const started = await sendDueMessages(jobDeps(app, community));
          if (started) app.log.info({ community: community.id, started }, 'scheduled team messages started by the sweep');
        }
      },
    },
  ];
}
