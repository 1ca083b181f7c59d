import type { Area } from '#src/features/area.ts';
import insightsAdminRoutes from './admin-routes.tsx';
import { insightsErrors } from './errors.ts';
import { insightsAdminGraphQL, insightsMemberGraphQL } from './graphql.ts';
import { insightsJobs } from './jobs.ts';
import insightsRoutes from './routes.tsx';
import { seedInsights } from './seed.ts';

/**
 * Insights: members' events in (trackEvent, page views), their roll-up with the other areas' figures,
 * members' health, the staff home's charts (/admin), the community's Google tags after consent, and
 * the demo's six months of events.
 */
export const area: Area = {
  name: 'insights',
  errors: insightsErrors,
  routes: [insightsRoutes, insightsAdminRoutes],
  graphql: { member: [insightsMemberGraphQL], admin: [insightsAdminGraphQL] },
  jobs: insightsJobs,
  seed: async (trx, demo) => {
    await seedInsights(trx, demo);
  },
};
