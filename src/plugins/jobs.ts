import fp from 'fastify-plugin';
import type { Area } from '#src/features/area.ts';
import { messageJobs } from '#src/lib/messaging/outgoing.ts';

/**
 * The durable queue's jobs: the platform's messages (mail, SMS) and each area's own. The queue starts
 * when the app is ready (workers and schedules only where config.jobWorkers says so) and stops, letting
 * running jobs finish, before the database closes.
 */
export default fp(
  async (app, opts: { areas: readonly Area[] }) => {
    app.jobs.define(...messageJobs(app), ...opts.areas.flatMap((area) => area.jobs?.(app) ?? []));
    app.addHook('onReady', async () => app.jobs.start());
    app.addHook('onClose', async () => {
      await app.jobs.stop();
      app.mailer.close?.();
    });
  },
  { name: 'jobs' },
);
