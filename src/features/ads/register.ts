import type { Area } from '#src/features/area.ts';
import adAdminRoutes from './admin-routes.tsx';
import { adErrors } from './errors.ts';
import { adsAdminGraphQL } from './graphql.ts';
import adRoutes from './routes.ts';
import { seedAds } from './seed.ts';

/**
 * The community's ads: the page shell and the `ads` query show the live ones (service.ts), a click
 * is counted and redirected (routes.ts), impressions and clicks are tallied in memory and flushed
 * (counter.ts); the staff's tab of the marketplace (admin-routes.tsx); the demo's ads and their history.
 */
export const area: Area = {
  name: 'ads',
  routes: [adRoutes, adAdminRoutes],
  graphql: { admin: [adsAdminGraphQL] },
  errors: adErrors,
  seed: async (trx, demo) => {
    await seedAds(trx, Object.values(demo.byCode));
  },
};
