import type { Area } from '#src/features/area.ts';
import messagesAdminRoutes from './admin-routes.tsx';
import { messagesErrors } from './errors.ts';
import { messagesAdminGraphQL, messagesMemberGraphQL } from './graphql.ts';
import { messageJobs } from './jobs.ts';
import { messageNotificationKinds } from './notification-kinds.ts';
import messagesRoutes from './routes.tsx';
import { seedMessages } from './seed.ts';

/** Messages from the community team: the members' "From the team", the staff's messages, their delivery jobs, GraphQL and demo. */
export const area: Area = {
  name: 'messages',
  errors: messagesErrors,
  notificationKinds: messageNotificationKinds,
  routes: [messagesRoutes, messagesAdminRoutes],
  graphql: { member: [messagesMemberGraphQL], admin: [messagesAdminGraphQL] },
  jobs: messageJobs,
  seed: async (trx, demo) => {
    await seedMessages(trx, demo);
  },
};
