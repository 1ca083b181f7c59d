import type { FastifyInstance } from 'fastify';
import type { JobDefinition } from '#src/lib/jobs/queue.ts';
import { runDunning } from './dunning.ts';
import { runRenewals } from './renewals.ts';
import { resolveStaleCharges } from '../stale-charges.ts';

export const RENEWAL_JOB = 'payments.renewals';
export const DUNNING_JOB = 'payments.dunning';
export const STALE_CHARGES_JOB = 'payments.stale-charges';

/**
 * Renewals, dunning and the stale pending charges: hourly, once across all processes (the queue's schedule), each run idempotent
 * (renewal keys per period; dunning steps under a row lock), so the next hour is also the retry.
 */
export function renewalJobs(app: FastifyInstance): JobDefinition[] {
  const retry = { limit: 2, delaySeconds: 60, backoff: true };
  return [
    {
      name: RENEWAL_JOB,
      schedule: '10 * * * *',
      retry,
      expireInSeconds: 900,
      handler: async () => {
        const run = await runRenewals(app, app.clock.now());
        if (run.renewed || run.pastDue || run.errors || run.retry) app.log.info(run, 'membership renewals');
      },
    },
    {
      name: DUNNING_JOB,
      schedule: '20 * * * *',
      retry,
      expireInSeconds: 900,
      handler: async () => {
        const n = await runDunning(app, app.clock.now());
        if (n) app.log.info({ mails: n }, 'dunning mails queued');
      },
    },
    {
      // Charges left pending for a day are settled as the processor knows their key (stale-charges.ts).
      name: STALE_CHARGES_JOB,
      schedule: '40 * * * *',
      retry,
      expireInSeconds: 900,
      handler: async () => {
        const run = await resolveStaleCharges(app, app.clock.now());
        if (run.paid || run.refused || run.voided || run.unknown) app.log.info(run, 'stale pending charges');
      },
    },
  ];
}
