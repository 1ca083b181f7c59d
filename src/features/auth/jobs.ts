import type { FastifyInstance } from 'fastify';
import type { JobDefinition } from '#src/lib/jobs/queue.ts';
import { authContextFor } from './http.ts';
import { deliverPasswordReset, PASSWORD_RESET_JOB } from './passwords.ts';

/** The sign-in area's jobs: a reset request's look-up, token and mail, after the answer. */
export function authJobs(app: FastifyInstance): JobDefinition[] {
  return [
    {
      name: PASSWORD_RESET_JOB,
      handler: async (data: { communityId: number; email: string }) => {
        const community = await app.db.selectFrom('communities').selectAll().where('id', '=', data.communityId).executeTakeFirst();
        if (!community) return; // the community is gone: nothing to send
        await deliverPasswordReset(authContextFor(app, community, ''), data.email);
      },
    },
  ];
}
