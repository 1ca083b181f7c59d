import type { Area } from '#src/features/area.ts';
import contentBankAdminRoutes from './admin-routes.tsx';
import { contentBankErrors } from './errors.ts';
import { contentBankAdminGraphQL } from './graphql.ts';
import contentBankRoutes from './routes.tsx';
import { seedContentBank } from './seed.ts';

/** The content bank (issue 29): the staff's library of published work and assets, its search, tags, collections, usage, exports and picker. */
export const area: Area = {
  name: 'contentBank',
  errors: contentBankErrors,
  routes: [contentBankRoutes, contentBankAdminRoutes],
  graphql: { admin: [contentBankAdminGraphQL] },
  seed: async (trx, demo) => {
    await seedContentBank(trx, demo);
  },
};
