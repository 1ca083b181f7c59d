import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { registerErrorCodes, type ErrorSpec } from '#src/core/errors.ts';
import { articleErrors } from './articles/errors.ts';
import { memberErrors } from './members/errors.ts';
import { notificationErrors } from './notifications/errors.ts';
import { paymentErrors } from './payments/errors.ts';
import { forumErrors } from './forum/errors.ts';
import { expertPanelErrors } from './expert-panels/errors.ts';
import type { JobDefinition } from '#src/lib/jobs/queue.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import systemRoutes from './system/routes.ts';
import homeRoutes from './home/routes.tsx';
import authRoutes from './auth/routes.tsx';
import authRestRoutes from './auth/rest.ts';
import { authJobs } from './auth/jobs.ts';
import { authResolvers, authTypeDefs } from './auth/graphql.ts';
import { articleAdminResolvers, articleAdminTypeDefs, articleMemberResolvers, articleMemberTypeDefs } from './articles/graphql.ts';
import devRoutes from './dev/routes.tsx';
import adminRoutes from './admin/routes.tsx';
import articleRoutes from './articles/routes.tsx';
import articleAdminRoutes from './articles/admin-routes.tsx';
import { articleJobs } from './articles/jobs.ts';
import settingsRoutes from './settings/routes.tsx';
import { settingsMemberGraphQL } from './settings/graphql.ts';
import siteAdminRoutes from './communities/admin-routes.tsx';
import communityChanges from './communities/changes.ts';
import { siteAdminResolvers, siteAdminTypeDefs } from './communities/admin-graphql.ts';
import introductionRoutes from './members/introduction-routes.tsx';
import { introductionAdminGraphQL, introductionMemberGraphQL } from './members/introduction-graphql.ts';
import profileRoutes from './members/profile-routes.tsx';
import { profileMemberResolvers, profileMemberTypeDefs } from './members/profile-graphql.ts';
import adminMembersRoutes from './members/admin-routes.tsx';
import { adminMembersResolvers, adminMembersTypeDefs } from './members/admin-graphql.ts';
import directoryRoutes from './members/directory-routes.tsx';
import { directoryMemberResolvers, directoryMemberTypeDefs } from './members/directory-graphql.ts';
import { deliveryJobs } from './notifications/delivery.ts';
import preferenceRoutes from './notifications/preferences-routes.tsx';
import { preferenceMemberGraphQL } from './notifications/preferences-graphql.ts';
import { preferenceJobs } from './notifications/digest.ts';
import pushRoutes from './notifications/push/routes.tsx';
import { pushMemberGraphQL } from './notifications/push/graphql.ts';
import notificationRoutes from './notifications/routes.tsx';
import { notificationMemberGraphQL } from './notifications/graphql.ts';
import teamRoutes from './settings/team-routes.tsx';
import { teamMemberResolvers, teamMemberTypeDefs } from './settings/team-graphql.ts';
import billingRoutes from './payments/billing-routes.tsx';
import amplifyRoutes from './payments/amplify-routes.tsx';
import { billingMemberGraphQL } from './payments/billing-graphql.ts';
import savedCardsRoutes from './payments/saved-cards/routes.tsx';
import { savedCardsAdminGraphQL, savedCardsMemberGraphQL } from './payments/saved-cards/graphql.ts';
import onboardingRoutes from './payments/onboarding/routes.tsx';
import payNowRestRoutes from './payments/paynow/rest.ts';
import payNowRoutes from './payments/paynow/routes.tsx';
import dunningGate from './payments/paynow/gate.ts';
import { payNowMemberGraphQL } from './payments/paynow/graphql.ts';
import { renewalJobs } from './payments/renewals/jobs.ts';
import sandboxPayRoutes from './payments/processor/sandbox/routes.tsx';
import paymentErrorLogRoutes from './payments/error-log-routes.ts';
import forumRoutes from './forum/routes.tsx';
import forumAdminRoutes from './forum/admin-routes.tsx';
import { forumActionsAdminGraphQL, forumActionsMemberGraphQL } from './forum/graphql-actions.ts';
import { forumMemberGraphQL } from './forum/graphql.ts';
import { forumJobs } from './forum/jobs.ts';
import expertPanelsAdminRoutes from './expert-panels/admin/admin-routes.tsx';
import expertPanelsBoardRoutes from './expert-panels/admin/board-routes.tsx';
import { expertPanelsAdminGraphQL } from './expert-panels/admin/graphql-admin.ts';
import expertPanelsInviteRoutes from './expert-panels/invite/routes.tsx';
import { inviteMemberGraphQL } from './expert-panels/invite/graphql-invite.ts';
import { inviteJobs } from './expert-panels/invite/jobs.ts';
import expertPanelRoutes from './expert-panels/routes.tsx';
import { expertPanelsMemberGraphQL } from './expert-panels/graphql.ts';
import roundupAdminRoutes from './expert-panels/roundups/admin-routes.tsx';
import roundupPublicRoutes from './expert-panels/roundups/routes.tsx';
import { roundupAdminGraphQL, roundupMemberGraphQL } from './expert-panels/roundups/graphql-roundups.ts';

/** What an area adds to the app. */
export type Area = {
  name: string;
  /** Route plugins, registered under the path prefix in this order. */
  routes: FastifyPluginAsync[];
  /** Its operations on the member schema (/graphql) and the staff schema (/graphqlAdmin). */
  graphql?: { member?: GraphQLPart; admin?: GraphQLPart };
  /** The area's durable jobs (src/lib/jobs/queue.ts): handlers, schedules, retries. */
  jobs?: (app: FastifyInstance) => JobDefinition[];
  errors?: Record<string, ErrorSpec>;
};

/** The one list of areas: adding an area adds one line here. */
export const AREAS: readonly Area[] = [
  { name: 'system', routes: [systemRoutes] },
  { name: 'home', routes: [homeRoutes] },
  { name: 'auth', routes: [authRoutes, authRestRoutes], jobs: authJobs, graphql: { member: { typeDefs: authTypeDefs, resolvers: authResolvers } } },
  { name: 'dev', routes: [devRoutes] },
  { name: 'admin', routes: [adminRoutes] },
  {
    name: 'articles',
    errors: articleErrors,
    routes: [articleRoutes, articleAdminRoutes],
    jobs: articleJobs,
    graphql: {
      member: { typeDefs: articleMemberTypeDefs, resolvers: articleMemberResolvers },
      admin: { typeDefs: articleAdminTypeDefs, resolvers: articleAdminResolvers },
    },
  },
  { name: 'settings', routes: [settingsRoutes], graphql: { member: settingsMemberGraphQL } },
  { name: 'admin-sites', routes: [siteAdminRoutes, communityChanges], graphql: { admin: { typeDefs: siteAdminTypeDefs, resolvers: siteAdminResolvers } } },
  { name: 'members-introductions', errors: memberErrors, routes: [introductionRoutes], graphql: { member: introductionMemberGraphQL, admin: introductionAdminGraphQL } },
  { name: 'members-profiles', routes: [profileRoutes], graphql: { member: { typeDefs: profileMemberTypeDefs, resolvers: profileMemberResolvers } } },
  { name: 'admin-members', routes: [adminMembersRoutes], graphql: { admin: { typeDefs: adminMembersTypeDefs, resolvers: adminMembersResolvers } } },
  { name: 'notifications-delivery', routes: [], jobs: deliveryJobs },
  { name: 'notification-preferences', routes: [preferenceRoutes], graphql: { member: preferenceMemberGraphQL }, jobs: preferenceJobs },
  { name: 'notification-push', routes: [pushRoutes], graphql: { member: pushMemberGraphQL } },
  { name: 'notifications', errors: notificationErrors, routes: [notificationRoutes], graphql: { member: notificationMemberGraphQL } },
  { name: 'members-directory', routes: [directoryRoutes], graphql: { member: { typeDefs: directoryMemberTypeDefs, resolvers: directoryMemberResolvers } } },
  { name: 'payments-provider', errors: paymentErrors, routes: [sandboxPayRoutes, paymentErrorLogRoutes] },
  { name: 'settings-team', routes: [teamRoutes], graphql: { member: { typeDefs: teamMemberTypeDefs, resolvers: teamMemberResolvers } } },
  { name: 'payments-billing', routes: [billingRoutes, amplifyRoutes], graphql: { member: billingMemberGraphQL } },
  { name: 'payments-saved-cards', routes: [savedCardsRoutes], graphql: { member: savedCardsMemberGraphQL, admin: savedCardsAdminGraphQL } },
  { name: 'payments-onboarding', routes: [onboardingRoutes] },
  { name: 'forum-pages', routes: [forumRoutes] },
  { name: 'payments-paynow', routes: [dunningGate, payNowRoutes, payNowRestRoutes], graphql: { member: payNowMemberGraphQL }, jobs: renewalJobs },
  { name: 'forum-admin', routes: [forumAdminRoutes] },
  { name: 'forum-actions', routes: [], graphql: { member: forumActionsMemberGraphQL, admin: forumActionsAdminGraphQL } },
  { name: 'forum', errors: forumErrors, routes: [], graphql: { member: forumMemberGraphQL }, jobs: forumJobs },
  { name: 'expert-panels-admin', routes: [expertPanelsAdminRoutes, expertPanelsBoardRoutes], graphql: { admin: expertPanelsAdminGraphQL } },
  { name: 'expert-panels-invite', routes: [expertPanelsInviteRoutes], graphql: { member: inviteMemberGraphQL }, jobs: inviteJobs },
  { name: 'expert-panels', errors: expertPanelErrors, routes: [expertPanelRoutes], graphql: { member: expertPanelsMemberGraphQL } },
  { name: 'expert-panels-roundups', routes: [roundupPublicRoutes, roundupAdminRoutes], graphql: { admin: roundupAdminGraphQL, member: roundupMemberGraphQL } },
];

for (const area of AREAS) if (area.errors) registerErrorCodes(area.errors);
