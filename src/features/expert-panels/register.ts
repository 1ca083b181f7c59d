import type { Area } from '#src/features/area.ts';
import { expertPanelNotificationKinds } from './notification-kinds.ts';
import { expertPanelErrors } from './errors.ts';
import expertPanelsAdminRoutes from './admin/admin-routes.tsx';
import expertPanelsBoardRoutes from './admin/board-routes.tsx';
import { expertPanelsAdminGraphQL } from './admin/graphql-admin.ts';
import { expertPanelsMemberGraphQL } from './graphql.ts';
import { inviteMemberGraphQL } from './invite/graphql-invite.ts';
import { inviteJobs } from './invite/jobs.ts';
import expertPanelsInviteRoutes from './invite/routes.tsx';
import roundupAdminRoutes from './roundups/admin-routes.tsx';
import { roundupAdminGraphQL, roundupMemberGraphQL } from './roundups/graphql-roundups.ts';
import roundupPublicRoutes from './roundups/routes.tsx';
import expertPanelRoutes from './routes.tsx';
import { seedExpertPanels } from './seed.ts';

/** Expert panels as one area: panels, batches and answers (staff), invitations, members' questions, roundups. */
export const area: Area = {
  name: 'expert-panels',
  errors: expertPanelErrors,
  notificationKinds: expertPanelNotificationKinds,
  routes: [expertPanelsAdminRoutes, expertPanelsBoardRoutes, expertPanelsInviteRoutes, expertPanelRoutes, roundupPublicRoutes, roundupAdminRoutes],
  graphql: {
    member: [inviteMemberGraphQL, expertPanelsMemberGraphQL, roundupMemberGraphQL],
    admin: [expertPanelsAdminGraphQL, roundupAdminGraphQL],
  },
  jobs: inviteJobs,
  seed: async (trx, demo) => {
    await seedExpertPanels(trx, { byCode: demo.byCode, adminId: demo.adminId });
  },
};
