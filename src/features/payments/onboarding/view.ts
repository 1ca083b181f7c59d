import type { FastifyInstance } from 'fastify';
import { formatDate } from '#shared/format.ts';
import { formatFee } from '../money.ts';
import { onboardingData, type Onboarding } from './progress.ts';
import type { StepName, StepView } from './types.ts';

type App = Pick<FastifyInstance, 'db' | 'clock' | 'cardProcessor'>;

/** What a step page renders: the onboarding data, and the offer's amounts as text (fees without ".00"). */
export function stepView(app: App, o: Onboarding, step: StepName): StepView {
  const data = onboardingData(app, o);
  const p = data.payment;
  return {
    data,
    step,
    // Once signed in as the member, the link is not needed (nor shown) any more.
    link: o.signedIn ? null : o.link,
    concierge: { email: o.community.concierge_email, phone: o.community.concierge_phone },
    termsLink: o.community.link_terms,
    fees: {
      dues: formatFee(p.dues, p.currency),
      initiationFee: formatFee(p.initiationFee, p.currency),
      savings: formatFee(p.savings, p.currency),
      amountDue: formatFee(p.amountDue, p.currency),
      renewsAt: formatDate(p.renewsAt),
    },
  };
}
