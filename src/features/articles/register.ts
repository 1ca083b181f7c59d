import type { Area } from '#src/features/area.ts';
import { articleNotificationKinds } from './notification-kinds.ts';
import { articleErrors } from './errors.ts';
import articleRoutes from './routes.tsx';
import articleAdminRoutes from './admin-routes.tsx';
import { articleJobs } from './jobs.ts';
import { articleAdminGraphQL, articleMemberGraphQL } from './graphql.ts';
import { seedArticles, seedBlackoutWindows } from './seed.ts';

/** The articles area: the member's writing, the editors' board, the scheduled publishing and copy scans. */
export const area: Area = {
  name: 'articles',
  errors: articleErrors,
  notificationKinds: articleNotificationKinds,
  routes: [articleRoutes, articleAdminRoutes],
  jobs: articleJobs,
  graphql: { member: [articleMemberGraphQL], admin: [articleAdminGraphQL] },
  seed: async (trx, demo) => {
    await seedArticles(trx, { byCode: demo.byCode });
    // Until now inline in src/db/seed.ts (after the ads): the blackout windows of every demo community.
    await seedBlackoutWindows(trx, Object.values(demo.byCode));
  },
};
