import type { RawDb } from '#src/db/index.ts';
import type { CardType, LedgerPurpose, LineItem, SavedPaymentStatus, StatementKind } from '#src/db/types.ts';
import { paymentMethodLabel } from './cards.ts';

/**
 * Payments demo data (issue 13), written as the ledger would have written it: each community's
 * sandbox account, plans and amplification packages; every demo member's paid membership with its
 * statements; Amara's saved cards in each status with their authorisation log; one overdue member
 * (with a pay-now link in the README); one invitee in onboarding (with an invitation link); one
 * published article of Amara's that was amplified. The saved cards are real profiles at the sandbox
 * (its own tables), so renewals and the admin's card screens work on them.
 */

/** Fixed, so that the README can give the links; in a real community these are random. */
export const DEMO_OVERDUE = { username: 'jonah.whitaker', subscriptionId: 'sub_demo_overdue_jW7q2Lk9Xs4v' };
export const DEMO_INVITEE = { email: 'elena.voss@summit-demo.example.com', uid: 'onb_demo_elena_Tq9m4Rz2Pw8c', dealId: 'deal-summit-12' };

const DAY = 86_400_000;

type Plan = { name: string; description: string; term: 12 | 24; dues: number; initiation: number; savings: number; suffix: string };

const PLANS: Record<string, Plan[]> = {
  summit: [
    { name: '12-month membership', description: 'A 12-month commitment with dues billed yearly. Memberships are non-transferable.', term: 12, dues: 600000, initiation: 150000, savings: 0, suffix: '12' },
    { name: '24-month membership', description: 'A 24-month commitment with dues billed yearly and no initiation fee. Memberships are non-transferable.', term: 24, dues: 540000, initiation: 0, savings: 270000, suffix: '24' },
  ],
  harbor: [
    { name: '12-month membership', description: 'A 12-month commitment with dues billed yearly. Memberships are non-transferable.', term: 12, dues: 240000, initiation: 50000, savings: 0, suffix: '12' },
    { name: '24-month membership', description: 'A 24-month commitment with dues billed yearly and no initiation fee. Memberships are non-transferable.', term: 24, dues: 216000, initiation: 0, savings: 98000, suffix: '24' },
  ],
};

const PACKAGES: Record<string, Array<{ name: string; description: string; price: number }>> = {
  summit: [
    { name: 'Social Spotlight', description: 'Your article shared on the council’s LinkedIn and X accounts, with a custom graphic.', price: 14900 },
    { name: 'Newsletter Feature', description: 'A featured slot in the weekly member newsletter, read by more than 12,000 executives.', price: 34900 },
    { name: 'Partner Syndication', description: 'Syndication to three partner publications, plus the Social Spotlight and the Newsletter Feature.', price: 79900 },
  ],
  harbor: [
    { name: 'Social Spotlight', description: 'Your article shared on the network’s social accounts, with a custom graphic.', price: 9900 },
    { name: 'Newsletter Feature', description: 'A featured slot in the monthly member newsletter.', price: 19900 },
  ],
};

type Card = { type: CardType; last4: string; month: number; year: number; status: SavedPaymentStatus; isDefault: boolean; behaviour: string };

export async function seedPayments(trx: RawDb, ctx: { byCode: Record<string, number>; now?: Date }): Promise<void> {
  const now = ctx.now ?? new Date();
  const year = now.getUTCFullYear();
  let serial = 0;
  const ref = (prefix: string) => `${prefix}_seed_${String(++serial).padStart(4, '0')}`;

  for (const [code, communityId] of Object.entries(ctx.byCode)) {
    const plans = PLANS[code];
    if (!plans) continue;
    await trx.insertInto('payment_settings').values({ community_id: communityId, public_key: `pk_sandbox_${code}_demo_2026`, sub_domain: code }).execute();
    const planRows = await trx
      .insertInto('membership_plans')
      .values(
        plans.map((p) => ({
          community_id: communityId,
          name: p.name,
          description: p.description,
          term_months: p.term,
          dues_cents: p.dues,
          initiation_fee_cents: p.initiation,
          savings_cents: p.savings,
          deal_id: `deal-${code}-${p.suffix}`,
          product_id: `prod-${code}-membership`,
          price_point_id: `pp-${code}-${p.suffix}`,
        })),
      )
      .returningAll()
      .execute();
    await trx
      .insertInto('amplification_packages')
      .values((PACKAGES[code] ?? []).map((p, i) => ({ community_id: communityId, name: p.name, description: p.description, price_cents: p.price, sort_order: i })))
      .execute();

    const members = await trx
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.id', 'users.username', 'users.first_name', 'users.last_name', 'memberships.joined_at', 'memberships.roles'])
      .where('memberships.community_id', '=', communityId)
      .orderBy('users.id')
      .execute();

    for (const [index, m] of members.entries()) {
      if (m.roles.includes('ADMIN')) continue;
      const plan = planRows[index % planRows.length]!;
      const overdue = m.username === DEMO_OVERDUE.username;
      const featured = m.username === 'amara.okafor';
      const joined = new Date(m.joined_at);
      // Yearly dues: the last renewal is the most recent anniversary of joining before today.
      let periodStart = new Date(joined);
      while (periodStart.getTime() + 365 * DAY <= now.getTime()) periodStart = new Date(periodStart.getTime() + 365 * DAY);
      const renewsAt = new Date(periodStart.getTime() + 365 * DAY);

      const cards: Card[] = featured
        ? [
            { type: 'VISA', last4: '4242', month: 8, year: year + 3, status: 'VALID', isDefault: true, behaviour: 'ok' },
            { type: 'MASTERCARD', last4: '4444', month: now.getUTCMonth() + 1, year, status: 'EXPIRATION_PENDING', isDefault: false, behaviour: 'ok' },
            { type: 'AMERICAN_EXPRESS', last4: '0005', month: 3, year: year - 1, status: 'EXPIRED', isDefault: false, behaviour: 'ok' },
            { type: 'DISCOVER', last4: '1117', month: 11, year: year + 2, status: 'FAILED', isDefault: false, behaviour: 'charge_decline' },
          ]
        : overdue
          ? [{ type: 'VISA', last4: '0341', month: 6, year: year + 2, status: 'FAILED', isDefault: true, behaviour: 'charge_decline' }]
          : [{ type: index % 3 === 0 ? 'MASTERCARD' : 'VISA', last4: index % 3 === 0 ? '4444' : '4242', month: 1 + (index % 12), year: year + 1 + (index % 3), status: 'VALID', isDefault: true, behaviour: 'ok' }];

      const cardIds: number[] = [];
      for (const card of cards) {
        const profileRef = ref('pp');
        const addedAt = new Date(joined.getTime() - DAY);
        const verification = { amountCents: 100, attemptedAt: addedAt.toISOString(), responseCode: 0, reversalHttpCode: 200 };
        await trx
          .insertInto('sandbox_profiles')
          .values({
            id: profileRef,
            sub_domain: code,
            customer_ref: `c${communityId}-u${m.id}`,
            idempotency_key: `seed:${profileRef}`,
            token: ref('tok'),
            first_name: m.first_name,
            last_name: m.last_name,
            last4: card.last4,
            card_type: card.type,
            exp_month: card.month,
            exp_year: card.year,
            behaviour: card.behaviour,
            outcome: JSON.stringify({ ok: true, profileRef, card: { firstName: m.first_name, lastName: m.last_name, last4: card.last4, cardType: card.type, expirationMonth: card.month, expirationYear: card.year }, authorisation: verification }),
            created_at: addedAt,
          })
          .execute();
        const saved = await trx
          .insertInto('saved_payments')
          .values({
            community_id: communityId,
            user_id: m.id,
            processor_ref: profileRef,
            first_name: m.first_name,
            last_name: m.last_name,
            expiration_month: card.month,
            expiration_year: card.year,
            last4: card.last4,
            card_type: card.type,
            status: card.status,
            is_default: card.isDefault,
            created_at: addedAt,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        cardIds.push(saved.id);
        await trx
          .insertInto('payment_ledger')
          .values({ community_id: communityId, user_id: m.id, kind: 'card_added', status: 'succeeded', saved_payment_id: saved.id, processor_ref: profileRef, description: `Card added: ${paymentMethodLabel(card.type, card.last4)}`, actor_id: m.id, created_at: addedAt, settled_at: addedAt })
          .execute();
        await trx
          .insertInto('card_auth_log')
          .values({ community_id: communityId, saved_payment_id: saved.id, attempt_amount_cents: 100, attempted_at: addedAt, auth_response_code: 0, reversal_http_code: 200 })
          .execute();
      }
      const payingCard = cards.findIndex((c) => c.behaviour === 'ok');
      const payingId = cardIds[payingCard === -1 ? 0 : payingCard]!;

      const subscriptionId = overdue ? DEMO_OVERDUE.subscriptionId : `sub_seed_${code}_${m.id}_${String(m.username).replace(/[^a-z0-9]/g, '')}`;
      await trx
        .insertInto('subscriptions')
        .values({
          id: subscriptionId,
          community_id: communityId,
          user_id: m.id,
          plan_id: plan.id,
          status: overdue ? 'past_due' : 'active',
          outstanding_cents: overdue ? plan.dues_cents : 0,
          currency: 'USD',
          period_started_at: overdue ? new Date(now.getTime() - 9 * DAY) : periodStart,
          renews_at: overdue ? new Date(now.getTime() - 9 * DAY) : renewsAt,
          processor_ref: `sub_${code}_${m.id}`,
          dunning_count: overdue ? 2 : 0,
          next_dunning_at: overdue ? new Date(now.getTime() + 5 * DAY) : null,
          past_due_since: overdue ? new Date(now.getTime() - 9 * DAY) : null,
        })
        .execute();

      // What they paid: dues at joining (with the initiation fee), each yearly renewal since, and
      // for Amara an amplification. The overdue member's renewal was refused nine days ago.
      const charge = async (at: Date, purpose: LedgerPurpose, kind: StatementKind, name: string, items: LineItem[], status: 'succeeded' | 'declined' = 'succeeded', cardId = payingId) => {
        const amount = items.reduce((s, i) => s + i.amountCents, 0);
        const chargeRef = ref('ch');
        const cardRow = cards[cardIds.indexOf(cardId)]!;
        const ledger = await trx
          .insertInto('payment_ledger')
          .values({
            community_id: communityId,
            user_id: m.id,
            kind: 'charge',
            purpose,
            status,
            amount_cents: amount,
            idempotency_key: `charge:seed-${chargeRef}`,
            subscription_id: subscriptionId,
            saved_payment_id: cardId,
            processor_ref: status === 'succeeded' ? chargeRef : null,
            error_code: status === 'succeeded' ? null : 'declined',
            description: name,
            items: JSON.stringify(items),
            created_at: at,
            settled_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('card_auth_log')
          .values({ community_id: communityId, saved_payment_id: cardId, ledger_id: ledger.id, attempt_amount_cents: amount, attempted_at: at, auth_response_code: status === 'succeeded' ? 0 : 5, reversal_http_code: null })
          .execute();
        if (status === 'succeeded') {
          await trx
            .insertInto('statements')
            .values({ community_id: communityId, user_id: m.id, ledger_id: ledger.id, name, kind, purchased_at: at, amount_cents: amount, currency: 'USD', items: JSON.stringify(items), payment_method: paymentMethodLabel(cardRow.type, cardRow.last4) })
            .execute();
        }
        return ledger.id;
      };
      const first = [{ label: `${plan.name}: first year’s dues`, amountCents: plan.dues_cents }];
      if (plan.initiation_fee_cents > 0) first.push({ label: 'Initiation fee', amountCents: plan.initiation_fee_cents });
      await charge(joined, 'dues', 'dues', 'Membership dues', first);
      for (let at = new Date(joined.getTime() + 365 * DAY); at.getTime() <= (overdue ? now.getTime() - 10 * DAY : now.getTime()); at = new Date(at.getTime() + 365 * DAY)) {
        await charge(at, 'renewal', 'dues', 'Membership renewal', [{ label: `${plan.name}: yearly dues`, amountCents: plan.dues_cents }]);
      }
      if (overdue) {
        await charge(new Date(now.getTime() - 9 * DAY), 'renewal', 'dues', 'Membership renewal', [{ label: `${plan.name}: yearly dues`, amountCents: plan.dues_cents }], 'declined', cardIds[0]!);
      }
      if (featured) {
        // A declined try on the Discover card, for the auth log.
        await charge(new Date(now.getTime() - 40 * DAY), 'amplification', 'amplification', 'Amplification', [{ label: 'Social Spotlight', amountCents: 14900 }], 'declined', cardIds[3]!);
        await seedAmplifiedArticle(trx, { communityId, userId: m.id, now, chargeWith: (name, items) => charge(new Date(now.getTime() - 39 * DAY), 'amplification', 'amplification', name, items) });
      }
    }

    if (code === 'summit') await seedInvitee(trx, { communityId, planId: planRows[0]!.id });
  }
}

/** Elena has been invited and has not paid yet: her link opens onboarding at the payment step. */
async function seedInvitee(trx: RawDb, ctx: { communityId: number; planId: number }): Promise<void> {
  const user = await trx
    .insertInto('users')
    .values({ email: DEMO_INVITEE.email, username: 'elena.voss', password_hash: null, first_name: 'Elena', last_name: 'Voss' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('memberships')
    .values({
      community_id: ctx.communityId,
      user_id: user.id,
      gate: 'onboarding',
      company_name: 'Voss Biotech',
      job_title: 'Founder & CEO',
      location_name: 'Raleigh, NC',
      location_familiar_name: 'Raleigh',
      industry: 'Biotechnology',
      company_description: 'Voss Biotech develops rapid diagnostic tests for veterinary clinics.',
      company_area_of_focus: 'Diagnostics',
      company_employee_count: 24,
      link_linkedin: 'https://www.linkedin.com/in/elena-voss',
      link_website: 'https://www.vossbiotech.example.com',
    })
    .execute();
  await trx.insertInto('onboardings').values({ id: DEMO_INVITEE.uid, community_id: ctx.communityId, user_id: user.id, plan_id: ctx.planId }).execute();
}

const ARTICLE_PARAGRAPHS = [
  'Every founder reaches the moment when the company outgrows the way decisions used to be made. In the early days, everyone sat within earshot, and a quick conversation settled most questions before lunch. At forty people that stops working, and at a hundred it quietly becomes the reason good ideas die in meetings.',
  'When we crossed sixty employees at Lumen Analytics, I noticed that our weekly leadership meeting had turned into a status report. We were spending two hours hearing what had already happened and ten minutes deciding what should happen next. The fix was not another meeting or a new tool. It was a short written memo, sent the evening before, that framed the one or two decisions we needed to make.',
  'The memo format is simple. It states the decision, the options we considered, the option the author recommends, and what would change our mind. It fits on one page. Anyone in the company can read it, and anyone can reply in writing before the meeting starts. The meeting itself then becomes a conversation about the disagreements, not a recital of the facts.',
  'Three things surprised me. First, the quality of the recommendations went up, because writing forces a level of clarity that talking does not. Second, quieter members of the team began to shape decisions they would never have argued for out loud. Third, we had a record. Six months later, when a decision looked wrong, we could see what we knew at the time and learn from it instead of assigning blame.',
  'There are costs. Writing a good memo takes an hour or two, and some leaders resist it at first. We made it easier with a template and by reading the memos ourselves, visibly, and replying to them. Within a quarter the habit stuck, and the leadership meeting shrank from two hours to fifty minutes.',
  'The deeper lesson is that a growing company has to make its thinking visible. When the founder is in every room, the thinking lives in the founder. When the company is too big for that, the thinking has to live somewhere everyone can reach it. Written decisions are the cheapest way I know to put it there.',
  'If you are approaching that point, try it for one month. Pick the two most important decisions on your calendar, ask their owners to write one page each, and read them before you walk into the room. Ask what would change their minds. You may find, as we did, that the meeting you dreaded becomes the most useful hour of your week.',
  'Scaling is rarely about working harder. It is about building the habits that let other people make the calls you used to make, and make them well. A one-page memo is a small habit, but it carries a large idea: that good decisions come from clear thinking shared early, not from the loudest voice in the room.',
];

async function seedAmplifiedArticle(
  trx: RawDb,
  ctx: { communityId: number; userId: number; now: Date; chargeWith: (name: string, items: LineItem[]) => Promise<number> },
): Promise<void> {
  const published = new Date(ctx.now.getTime() - 45 * DAY);
  const title = 'Why Our Leadership Meeting Now Starts the Night Before';
  const content = ARTICLE_PARAGRAPHS.map((p) => `<p>${p}</p>`).join('');
  const words = ARTICLE_PARAGRAPHS.join(' ').split(/\s+/).length;
  const article = await trx
    .insertInto('articles')
    .values({ community_id: ctx.communityId, author_id: ctx.userId, status: 'PUBLISHED', status_updated_at: published, published_date: published, article_url: 'https://example.com/summit/insights/leadership-meeting-memo', created_at: new Date(published.getTime() - 30 * DAY), updated_at: published })
    .returning('id')
    .executeTakeFirstOrThrow();
  const revision = await trx
    .insertInto('article_revisions')
    .values({ community_id: ctx.communityId, article_id: article.id, author_id: ctx.userId, title, content, word_count: words, created_at: published, updated_at: published })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx.updateTable('articles').set({ current_revision_id: revision.id }).where('id', '=', article.id).execute();
  const pkg = await trx.selectFrom('amplification_packages').select(['id', 'name', 'price_cents']).where('community_id', '=', ctx.communityId).orderBy('sort_order').executeTakeFirstOrThrow();
  const ledgerId = await ctx.chargeWith(`Amplification: ${pkg.name} for “${title}”`, [{ label: pkg.name, amountCents: pkg.price_cents }]);
  await trx.insertInto('amplification_orders').values({ community_id: ctx.communityId, user_id: ctx.userId, article_id: article.id, package_id: pkg.id, ledger_id: ledgerId, created_at: new Date(ctx.now.getTime() - 39 * DAY) }).execute();
}
