import type { Area } from '#src/features/area.ts';
import feedsAdminRoutes from './admin-routes.tsx';
import { feedsErrors } from './errors.ts';
import { feedsAdminGraphQL, feedsMemberGraphQL } from './graphql.ts';
import feedsRoutes from './routes.tsx';
import { seedFeeds } from './seed.ts';

/** The members' feed: the staff's announcements and featured items (/admin/feeds), the member's feed on the home page, GraphQL and demo. */
export const area: Area = {
  name: 'feeds',
  errors: feedsErrors,
  routes: [feedsRoutes, feedsAdminRoutes],
  graphql: { member: [feedsMemberGraphQL], admin: [feedsAdminGraphQL] },
  seed: async (trx, demo) => {
    await seedFeeds(trx, demo);
  },
};
