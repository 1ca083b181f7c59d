import { selectInCommunity } from '#src/db/tenancy.ts';
import type { FastifyInstance } from 'fastify';
import type { RawDb as Db } from '#src/db/index.ts';
import type { Community } from '#src/db/types.ts';
import { SandboxProcessor } from '#src/features/payments/processor/sandbox/processor.ts';
import type { CardInput } from '#src/features/payments/processor/sandbox/engine.ts';

/** The sandbox's test cards by what they do (src/features/payments/processor/sandbox/cards.ts). */
export const CARDS = {
  visa: '4242424242424242',
  mastercard: '5555555555554444',
  amex: '378282246310005',
  decline: '4000000000000002',
  cvv: '4000000000000127',
  expired: '4000000000000069',
  challenge: '4000000000003220',
  chargeDecline: '4000000000000341',
} as const;

/** Turns on payments for a community: its sandbox account and a 12- and a 24-month plan. */
export async function enablePayments(db: Db, community: Community, options: { showAddressStep?: boolean; onboardingDisabled?: boolean } = {}) {
  await db
    .insertInto('payment_settings')
    .values({
      community_id: community.id,
      public_key: `pk_sandbox_${community.code.replace(/-/g, '_')}_test`,
      sub_domain: community.code,
      show_address_step: options.showAddressStep ?? false,
      onboarding_disabled: options.onboardingDisabled ?? false,
    })
    .execute();
  const plans = await db
    .insertInto('membership_plans')
    .values([
      { community_id: community.id, name: '12-month membership', description: 'A 12-month commitment, billed yearly. Non-transferable.', term_months: 12, dues_cents: 600000, initiation_fee_cents: 150000, savings_cents: 0, deal_id: `deal-${community.code}-12`, product_id: `prod-${community.code}`, price_point_id: `pp-${community.code}-12` },
      { community_id: community.id, name: '24-month membership', description: 'A 24-month commitment, billed yearly. Non-transferable.', term_months: 24, dues_cents: 540000, initiation_fee_cents: 0, savings_cents: 210000, deal_id: `deal-${community.code}-24`, product_id: `prod-${community.code}`, price_point_id: `pp-${community.code}-24` },
    ])
    .returningAll()
    .execute();
  return { plans };
}

/** What the provider's script would do in the browser: a one-time token for a card of the community. */
export async function cardToken(app: FastifyInstance, community: Community, number: string = CARDS.visa, overrides: Partial<CardInput> = {}): Promise<string> {
  const processor = app.cardProcessor;
  if (!(processor instanceof SandboxProcessor)) throw new Error('cardToken needs the sandbox processor');
  const settings = await selectInCommunity(app.db, 'payment_settings', community).select('public_key').executeTakeFirstOrThrow();
  const result = await processor.engine.tokenize(settings.public_key, { firstName: 'Amara', lastName: 'Okafor', number, cvv: number.length === 15 ? '1234' : '123', month: '12', year: String(app.clock.now().getUTCFullYear() + 2), zip: '10001', ...overrides });
  if (!result.ok) throw new Error(`card refused: ${result.invalid.join(', ')}`);
  if (result.challenge) await processor.engine.completeChallenge(result.token, true);
  return result.token;
}
