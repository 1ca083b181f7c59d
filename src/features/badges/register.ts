import type { Area } from '#src/features/area.ts';
import badgeAdminRoutes from './admin-routes.tsx';
import { badgeErrors } from './errors.ts';
import { badgeAdminGraphQL, badgeMemberGraphQL } from './graphql.ts';
import { badgeJobs } from './jobs.ts';
import { badgeNotificationKinds } from './notification-kinds.ts';
import badgeRoutes from './routes.tsx';
import { seedBadges } from './seed.ts';

/**
 * Badges (issue 27): earned from the member's history (jobs queued by the events, a daily sweep),
 * awarded by staff; /badges, the staff's marketplace tab, `badges` on Me and User. After the areas
 * whose events it reads (members, articles, expert panels), so its demo reads their demo.
 */
export const area: Area = {
  name: 'badges',
  errors: badgeErrors,
  notificationKinds: badgeNotificationKinds,
  routes: [badgeRoutes, badgeAdminRoutes],
  graphql: { member: [badgeMemberGraphQL], admin: [badgeAdminGraphQL] },
  jobs: badgeJobs,
  seed: seedBadges,
};
