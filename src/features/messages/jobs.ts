import type { FastifyInstance } from 'fastify';
import type { JobDefinition } from '#src/lib/jobs/queue.ts';
import { jobDeps } from './deps.ts';
import { DUE_JOB, runDue, runSendBatch, SEND_JOB, sendJobOf } from './delivery.ts';

/**
 * The messages' jobs: `messages.send` (one batch of a message's sending; each batch queues the next)
 * and `messages.due` (a scheduled message's delayed job: it starts sending at its time). Their data
 * carries the community; a community that is gone has nobody to send to.
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
  ];
}
