import type { FastifyInstance } from 'fastify';
import type { JobDefinition } from '#src/lib/jobs/queue.ts';
import { INVITE_JOB, REMINDER_JOB, sendInvitations, sendReminders, type InviteJob } from './invitations.ts';

/**
 * The expert panels' invitation jobs: `expert-panels.invite` (enqueued by sending a batch, in that
 * transaction) tells the batch's members; `expert-panels.reminders` runs hourly, once across all
 * processes, and reminds members of open questions whose deadline is near. Both idempotent.
 */
export function inviteJobs(app: FastifyInstance): JobDefinition[] {
  const secret = app.config.cookieSecret;
  return [
    {
      name: INVITE_JOB,
      // A panel of thousands: each member is one short transaction; a retry goes on where it stopped.
      expireInSeconds: 30 * 60,
      handler: async (data: InviteJob) => {
        if (!Number.isSafeInteger(data?.communityId) || !Number.isSafeInteger(data?.batchId)) return; // not a job we make
        const community = await app.db.selectFrom('communities').selectAll().where('id', '=', data.communityId).executeTakeFirst();
        if (!community) return; // the community is gone: nobody to tell
        await sendInvitations({ db: app.db, clock: app.clock, community, t: app.t, notifier: app.notifications, secret }, data.batchId);
      },
    },
    {
      name: REMINDER_JOB,
      schedule: '40 * * * *',
      retry: { limit: 2, delaySeconds: 60, backoff: true },
      expireInSeconds: 30 * 60,
      handler: async () => {
        const n = await sendReminders({ db: app.db, clock: app.clock, t: app.t, notifier: app.notifications, secret }, app.clock.now());
        if (n) app.log.info({ reminders: n }, 'expert-panel reminders');
      },
    },
  ];
}
