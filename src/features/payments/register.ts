import type { Area } from '#src/features/area.ts';
import { paymentNotificationKinds } from './notification-kinds.ts';
import { paymentErrors } from './errors.ts';
import amplifyRoutes from './amplify-routes.tsx';
import billingRoutes from './billing-routes.tsx';
import { billingMemberGraphQL } from './billing-graphql.ts';
import paymentErrorLogRoutes from './error-log-routes.ts';
import onboardingRoutes from './onboarding/routes.tsx';
import { restRoutes as onboardingRestRoutes } from './onboarding/rest.ts';
import dunningGate from './paynow/gate.ts';
import { payNowMemberGraphQL } from './paynow/graphql.ts';
import payNowRestRoutes from './paynow/rest.ts';
import payNowRoutes from './paynow/routes.tsx';
import sandboxPayRoutes from './processor/sandbox/routes.tsx';
import { renewalJobs } from './renewals/jobs.ts';
import savedCardsRoutes from './saved-cards/routes.tsx';
import { savedCardsAdminGraphQL, savedCardsMemberGraphQL } from './saved-cards/graphql.ts';
import { seedPayments } from './seed.ts';

/**
 * Payments as one area: the sandbox processor's pages and the client error log, statements and
 * amplification, saved cards, onboarding, pay-now with the dunning gate; the renewal, dunning and
 * stale-charge jobs; the demo's plans, cards, statements and invitee. Only src/features/areas.ts
 * imports this file; other areas use the face, ./index.ts.
 */
export const area: Area = {
  name: 'payments',
  errors: paymentErrors,
  notificationKinds: paymentNotificationKinds,
  routes: [sandboxPayRoutes, paymentErrorLogRoutes, billingRoutes, amplifyRoutes, savedCardsRoutes, onboardingRoutes, onboardingRestRoutes, dunningGate, payNowRoutes, payNowRestRoutes],
  graphql: {
    // billingMemberGraphQL carries amplification's part too (billing-graphql.ts).
    member: [billingMemberGraphQL, savedCardsMemberGraphQL, payNowMemberGraphQL],
    admin: [savedCardsAdminGraphQL],
  },
  jobs: renewalJobs,
  seed: async (trx, demo) => {
    await seedPayments(trx, { byCode: demo.byCode });
  },
};
