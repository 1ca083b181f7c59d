import t from 'tap';
import { sql } from 'kysely';
import { chargeOnce } from '#src/features/payments/ledger.ts';
import { DEMO_INVITEE, DEMO_OVERDUE } from '#src/features/payments/seed.ts';
import { setupDatabase, startApp } from '#test/helpers/app.ts';

t.test('the payments demo: memberships, statements, saved cards in each status, an overdue member, an invitee', async (t) => {
  const db = await setupDatabase(t, { seeded: true });
  const { app } = await startApp(t, db, { env: { DEFAULT_COMMUNITY: 'summit' } });

  const summit = await db.selectFrom('communities').select('id').where('code', '=', 'summit').executeTakeFirstOrThrow();
  const amara = await db.selectFrom('users').select('id').where('username', '=', 'amara.okafor').executeTakeFirstOrThrow();
  const cards = await db.selectFrom('saved_payments').selectAll().where('user_id', '=', amara.id).where('community_id', '=', summit.id).execute();
  t.same(new Set(cards.map((c) => c.status)), new Set(['VALID', 'EXPIRATION_PENDING', 'EXPIRED', 'FAILED']), 'Amara has a card in each status');
  t.equal(cards.filter((c) => c.is_default).length, 1, 'one default');
  const log = await db.selectFrom('card_auth_log').select(['auth_response_code', 'reversal_http_code']).where('community_id', '=', summit.id).execute();
  t.ok(log.some((l) => l.auth_response_code === 0 && l.reversal_http_code === 200), 'an approved, reversed verification');
  t.ok(log.some((l) => l.auth_response_code! > 0), 'a refused attempt');

  await t.test('every member but staff and the invitee has a subscription; the overdue one owes its dues', async (t) => {
    const overdue = await db.selectFrom('subscriptions').selectAll().where('id', '=', DEMO_OVERDUE.subscriptionId).executeTakeFirstOrThrow();
    t.equal(overdue.status, 'past_due');
    t.ok(overdue.outstanding_cents > 0);
    const withoutSubscription = await db
      .selectFrom('memberships')
      .leftJoin('subscriptions', (j) => j.onRef('subscriptions.user_id', '=', 'memberships.user_id').onRef('subscriptions.community_id', '=', 'memberships.community_id'))
      .select('memberships.user_id')
      .where('subscriptions.id', 'is', null)
      .where(sql<boolean>`not ('ADMIN' = any(memberships.roles))`)
      .where('memberships.gate', '=', 'app')
      .execute();
    t.equal(withoutSubscription.length, 0);
  });

  await t.test('statements add up to the succeeded charges, per member', async (t) => {
    const mismatched = await sql<{ user_id: number }>`
      select l.user_id from payment_ledger l
      where l.kind = 'charge' and l.status = 'succeeded'
      group by l.community_id, l.user_id
      having sum(l.amount_cents) <> (select coalesce(sum(s.amount_cents), 0) from statements s where s.community_id = l.community_id and s.user_id = l.user_id)
    `.execute(db);
    t.same(mismatched.rows, []);
    const count = await db.selectFrom('statements').select(sql<number>`count(*)::int`.as('n')).where('user_id', '=', amara.id).executeTakeFirstOrThrow();
    t.ok(count.n >= 3, `Amara has ${count.n} statements`);
  });

  await t.test('the saved cards are real profiles at the sandbox: the default card can be charged', async (t) => {
    const card = cards.find((c) => c.is_default)!;
    const result = await chargeOnce(app, {
      communityId: summit.id,
      userId: amara.id,
      actorId: null,
      idempotencyKey: 'seed-test-charge-1',
      amountCents: 100,
      purpose: 'amplification',
      description: 'Test',
      items: [{ label: 'Test', amountCents: 100 }],
      statement: { kind: 'purchase', name: 'Test' },
      source: { savedPaymentId: card.id },
    });
    t.equal(result.status, 'succeeded');
  });

  await t.test("the README's links name these ids: Jonah Whitaker's pay-now, Amara Okafor's saved cards", async (t) => {
    const readme = (await import('node:fs')).readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const overdue = await db.selectFrom('subscriptions').select('user_id').where('id', '=', DEMO_OVERDUE.subscriptionId).executeTakeFirstOrThrow();
    t.ok(readme.includes(`/pay-now?userId=${overdue.user_id}&subscriptionId=${DEMO_OVERDUE.subscriptionId}`), 'the pay-now link');
    t.ok(readme.includes(`/admin/members/summit/${amara.id}/cards`), 'the saved cards link');
    t.ok(readme.includes(`/get-started?uid=${DEMO_INVITEE.uid}&dealId=${DEMO_INVITEE.dealId}`), 'the invitation link');
  });

  await t.test('the invitee is in onboarding with an invitation', async (t) => {
    const row = await db
      .selectFrom('onboardings')
      .innerJoin('memberships', (j) => j.onRef('memberships.user_id', '=', 'onboardings.user_id').onRef('memberships.community_id', '=', 'onboardings.community_id'))
      .select(['memberships.gate', 'onboardings.paid_at'])
      .where('onboardings.id', '=', DEMO_INVITEE.uid)
      .executeTakeFirstOrThrow();
    t.equal(row.gate, 'onboarding');
    t.equal(row.paid_at, null);
  });
});
