import type { Area } from '#src/features/area.ts';
import { conversationsErrors } from './errors.ts';
import { conversationsMemberGraphQL } from './graphql.ts';
import { conversationNotificationKinds } from './notification-kinds.ts';
import conversationsRoutes from './routes.tsx';
import { seedConversations } from './seed.ts';

/** Conversations between members who were introduced (issue 28): the Conversations tab of /messages, its GraphQL, its notices, the demo's conversations. */
export const area: Area = {
  name: 'conversations',
  errors: conversationsErrors,
  notificationKinds: conversationNotificationKinds,
  routes: [conversationsRoutes],
  graphql: { member: [conversationsMemberGraphQL] },
  seed: async (trx, demo) => {
    await seedConversations(trx, demo);
  },
};
