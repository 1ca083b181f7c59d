import type { Area } from '#src/features/area.ts';
import { notificationErrors } from './errors.ts';
import { deliveryJobs } from './delivery.ts';
import { preferenceJobs } from './digest.ts';
import { notificationMemberGraphQL } from './graphql.ts';
import { preferenceMemberGraphQL } from './preferences-graphql.ts';
import preferenceRoutes from './preferences-routes.tsx';
import { pushMemberGraphQL } from './push/graphql.ts';
import pushRoutes from './push/routes.tsx';
import { seedPush } from './push/seed.ts';
import notificationRoutes from './routes.tsx';
import { seedNotifications } from './seed-notifications.ts';
import { seedPreferences } from './seed-preferences.ts';

/**
 * The notifications area as one entry: the list, the bell and its polling; the preferences page and
 * the daily digest; mobile and Web Push; the delivery job that sends email and push.
 */
export const area: Area = {
  name: 'notifications',
  errors: notificationErrors,
  routes: [preferenceRoutes, pushRoutes, notificationRoutes],
  graphql: { member: [preferenceMemberGraphQL, pushMemberGraphQL, notificationMemberGraphQL] },
  jobs: (app) => [...deliveryJobs(app), ...preferenceJobs(app)],
  seed: async (trx, demo) => {
    await seedPreferences(trx, { communityId: demo.byCode.summit! });
    await seedPush(trx, { communityId: demo.byCode.summit! });
    await seedNotifications(trx, { communityIds: [demo.byCode.summit!, demo.byCode.harbor!] });
  },
};
