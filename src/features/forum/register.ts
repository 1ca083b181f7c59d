import type { Area } from '#src/features/area.ts';
import { forumNotificationKinds } from './notification-kinds.ts';
import { forumErrors } from './errors.ts';
import forumAdminRoutes from './admin-routes.tsx';
import { forumActionsAdminGraphQL, forumActionsMemberGraphQL } from './graphql-actions.ts';
import { forumMemberGraphQL } from './graphql.ts';
import { forumJobs } from './jobs.ts';
import forumRoutes from './routes.tsx';
import { seedForum } from './seed.ts';

/** The forum: its pages and staff pages, its GraphQL (members' and staff's), its notices job, its demo threads. */
export const area: Area = {
  name: 'forum',
  errors: forumErrors,
  notificationKinds: forumNotificationKinds,
  routes: [forumRoutes, forumAdminRoutes],
  graphql: { member: [forumActionsMemberGraphQL, forumMemberGraphQL], admin: [forumActionsAdminGraphQL] },
  jobs: forumJobs,
  seed: async (trx, demo) => {
    await seedForum(trx, { byCode: demo.byCode, adminId: demo.adminId });
  },
};
