import type { FastifyInstance } from 'fastify';
import type { JobDefinition } from '#src/lib/jobs/queue.ts';
import { refreshPendingScans } from './copy-scan/stored.ts';
import { publishDueArticles } from './publishing.ts';

export const PUBLISH_DUE_JOB = 'articles.publish-due';
export const POLL_SCANS_JOB = 'articles.poll-scans';

/**
 * Every minute, once across all processes: publish the scheduled articles whose time has come, and,
 * as a separate queue (a slow scanning service never delays publishing), ask a hosted copy-scan
 * service again for the scans it answered PENDING. Each article moves only once (the status guard).
 */
export function articleJobs(app: FastifyInstance): JobDefinition[] {
  return [
    {
      name: PUBLISH_DUE_JOB,
      schedule: '* * * * *',
      retry: { limit: 0, delaySeconds: 0, backoff: false }, // the next minute's run is the retry
      expireInSeconds: 120,
      handler: async () => {
        const ids = await publishDueArticles(app.db, app.clock, app.t, app.notifications, app.jobs);
        if (ids.length) app.log.info({ ids }, 'published scheduled articles');
      },
    },
    {
      name: POLL_SCANS_JOB,
      schedule: '* * * * *',
      retry: { limit: 0, delaySeconds: 0, backoff: false },
      expireInSeconds: 120,
      handler: async () => {
        const ids = await refreshPendingScans(app.db, app.copyScanner, { now: app.clock.now(), onError: (err) => app.log.warn({ err }, 'Copy scan poll failed') });
        if (ids.length) app.log.info({ ids }, 'finished pending copy scans');
      },
    },
  ];
}
