import type { Area } from '#src/features/area.ts';
import { authNotificationKinds } from './notification-kinds.ts';
import { authMemberGraphQL } from './graphql.ts';
import { authJobs } from './jobs.ts';
import authRestRoutes from './rest.ts';
import authRoutes from './routes.tsx';

/** The sign-in area: its pages and REST calls, its GraphQL operations, the reset job. */
export const area: Area = {
  name: 'auth',
  notificationKinds: authNotificationKinds,
  routes: [authRoutes, authRestRoutes],
  jobs: authJobs,
  graphql: { member: [authMemberGraphQL] },
};
