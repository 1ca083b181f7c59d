import type { Area } from '#src/features/area.ts';
import settingsRoutes from './routes.tsx';
import { settingsMemberGraphQL } from './graphql.ts';
import teamRoutes from './team-routes.tsx';
import { teamMemberGraphQL } from './team-graphql.ts';
import { seedTeam } from './seed-team.ts';

/** The settings area: security (password, phone, sessions) and the member's team. */
export const area: Area = {
  name: 'settings',
  routes: [settingsRoutes, teamRoutes],
  graphql: { member: [settingsMemberGraphQL, teamMemberGraphQL] },
  seed: async (trx, demo) => {
    await seedTeam(trx, { byCode: demo.byCode });
  },
};
