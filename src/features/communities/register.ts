import type { Area } from '#src/features/area.ts';
import siteAdminRoutes from './admin-routes.tsx';
import { siteAdminGraphQL } from './admin-graphql.ts';
import communityChanges from './changes.ts';

/** The communities area: the sites staff administer, and every node hearing of their changes. */
export const area: Area = {
  name: 'communities',
  routes: [siteAdminRoutes, communityChanges],
  graphql: { admin: [siteAdminGraphQL] },
};
