import type { FastifyInstance } from 'fastify';
import type { JobDefinition } from '#src/lib/jobs/queue.ts';
import { deliverReplyNotices, REPLY_NOTICES_JOB, type ReplyNoticesJob } from './notices.ts';

/** The forum's jobs: a published reply's notices to the post's followers and the members it mentions. */
export function forumJobs(app: FastifyInstance): JobDefinition[] {
  return [
    {
      name: REPLY_NOTICES_JOB,
      handler: async (data: ReplyNoticesJob) => {
        const community = await app.db.selectFrom('communities').selectAll().where('id', '=', data.communityId).executeTakeFirst();
        if (!community) return; // the community is gone: nobody to tell
        await deliverReplyNotices({ db: app.db, clock: app.clock, community, t: app.t, notifier: app.notifications }, data.replyId);
      },
    },
  ];
}
