import type { Area } from '#src/features/area.ts';
import groupsAdminRoutes from './admin-routes.tsx';
import groupsRoutes from './routes.tsx';
import { groupsErrors } from './errors.ts';
import { groupsAdminGraphQL, groupsMemberGraphQL } from './graphql.ts';
import { groupsNotificationKinds } from './notification-kinds.ts';
import { seedGroups } from './seed.ts';

/** Groups (issue 28): the members' pages and discussion, the staff's groups, their GraphQL, the demo's groups. */
export const area: Area = {
  name: 'groups',
  errors: groupsErrors,
  notificationKinds: groupsNotificationKinds,
  routes: [groupsRoutes, groupsAdminRoutes],
  graphql: { member: [groupsMemberGraphQL], admin: [groupsAdminGraphQL] },
  seed: async (trx, demo) => {
    await seedGroups(trx, demo);
  },
};
