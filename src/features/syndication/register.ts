import type { Area } from '#src/features/area.ts';
import syndicationAdminRoutes from './admin-routes.tsx';
import syndicationRoutes from './routes.tsx';
import { syndicationErrors } from './errors.ts';
import { syndicationAdminGraphQL } from './graphql.ts';
import { seedSyndication } from './seed.ts';

/** Syndication (issue 29): the community's public feeds (RSS, Atom, JSON Feed), the staff's tab, their GraphQL, the demo's feeds. */
export const area: Area = {
  name: 'syndication',
  errors: syndicationErrors,
  routes: [syndicationRoutes, syndicationAdminRoutes],
  graphql: { admin: [syndicationAdminGraphQL] },
  seed: async (trx, demo) => {
    await seedSyndication(trx, demo);
  },
};
