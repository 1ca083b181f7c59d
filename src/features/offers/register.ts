import type { Area } from '#src/features/area.ts';
import offersAdminRoutes from './admin-routes.tsx';
import { offersErrors } from './errors.ts';
import { offersAdminGraphQL, offersMemberGraphQL } from './graphql.ts';
import offersRoutes from './routes.tsx';
import { seedOffers } from './seed.ts';

/** Offers and benefits: the members' pages, the staff's marketplace offers and partners, their GraphQL, the demo's offers. */
export const area: Area = {
  name: 'offers',
  errors: offersErrors,
  routes: [offersRoutes, offersAdminRoutes],
  graphql: { member: [offersMemberGraphQL], admin: [offersAdminGraphQL] },
  seed: async (trx, demo) => {
    await seedOffers(trx, demo);
  },
};
