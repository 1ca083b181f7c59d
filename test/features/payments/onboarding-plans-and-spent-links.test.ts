import t from 'tap';
import { PUBLIC_IDENTITY } from '#src/core/identity.ts';
import { submitPayment } from '#src/features/payments/onboarding/payment.ts';
import { createOnboarding, loadOnboarding } from '#src/features/payments/onboarding/progress.ts';
import type { Community } from '#src/db/types.ts';
import type { RawDb as Db } from '#src/db/index.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember } from '#test/helpers/factories.ts';
import { CARDS, cardToken, enablePayments } from '#test/helpers/payments.ts';

const GOOD_PASSWORD = 'Onboard-Me-42';

async function invite(db: Db, community: Community, plan: { id: number; deal_id: string }) {
  const member = await createMember(db, community, { gate: 'onboarding', firstName: 'Amara', lastName: 'Okafor' });
  const uid = await createOnboarding(db, community, member.id, plan.id);
  return { member, uid, dealId: plan.deal_id, link: `uid=${encodeURIComponent(uid)}&dealId=${encodeURIComponent(plan.deal_id)}` };
}

t.test('onboarding fixes: one charge across plans, a retired plan, a spent link', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const { app } = await startApp(t, db, { clock });
  const { plans } = await enablePayments(db, alpha);
  const [twelve, twentyFour] = plans as [(typeof plans)[number], (typeof plans)[number]];
  const charges = (userId: number) => db.selectFrom('payment_ledger').selectAll().where('user_id', '=', userId).where('kind', '=', 'charge').execute();
  const payRest = async (link: string, planId: number, number: string = CARDS.visa) =>
    app.inject({ method: 'POST', url: `/rest/get-started/payment?${link}`, payload: { planId, paymentToken: await cardToken(app, alpha, number), acceptedTerms: true } });

  await t.test('a request that loaded the onboarding before another plan was paid charges nothing', async (t) => {
    const inv = await invite(db, alpha, twelve);
    // Tab two (the 24-month link) loaded before tab one paid.
    const stale = await loadOnboarding(app, alpha, { identity: PUBLIC_IDENTITY, uid: inv.uid, dealId: twentyFour.deal_id });
    t.equal((await payRest(inv.link, twelve.id)).statusCode, 200, 'tab one pays the 12-month plan');
    const outcome = await submitPayment(app, stale, { token: await cardToken(app, alpha, CARDS.mastercard), planId: twentyFour.id, acceptedTerms: true, actorId: null });
    t.equal(outcome.status, 'paid', 'already paid');
    const rows = await charges(inv.member.id);
    t.equal(rows.length, 1, 'one charge in all');
    t.match(rows[0], { status: 'succeeded', amount_cents: twelve.dues_cents + twelve.initiation_fee_cents, idempotency_key: `charge:onboarding:${inv.uid}:0` }, 'the key names no plan');
    const sub = await db.selectFrom('subscriptions').selectAll().where('user_id', '=', inv.member.id).executeTakeFirstOrThrow();
    t.equal(sub.plan_id, twelve.id, 'the plan paid for');
  });

  await t.test('another plan while a charge is under way meets Payments.KeyReused (409)', async (t) => {
    const inv = await invite(db, alpha, twelve);
    // Tab one's 12-month charge, started and not settled yet.
    await db
      .insertInto('payment_ledger')
      .values({
        community_id: alpha.id,
        user_id: inv.member.id,
        kind: 'charge',
        purpose: 'dues',
        status: 'pending',
        amount_cents: twelve.dues_cents + twelve.initiation_fee_cents,
        currency: 'USD',
        idempotency_key: `charge:onboarding:${inv.uid}:0`,
        description: 'in flight',
        items: JSON.stringify([]),
        actor_id: null,
      })
      .execute();
    const res = await payRest(inv.link, twentyFour.id);
    t.equal(res.statusCode, 409);
    t.equal(res.json().error.code, 'Payments.KeyReused');
    t.equal((await charges(inv.member.id)).length, 1, 'no second charge');
  });

  await t.test('two racing submits for two plans: one charge', async (t) => {
    const inv = await invite(db, alpha, twelve);
    const [a, b] = await Promise.all([payRest(inv.link, twelve.id), payRest(`uid=${encodeURIComponent(inv.uid)}&dealId=${twentyFour.deal_id}`, twentyFour.id, CARDS.mastercard)]);
    t.ok([a.statusCode, b.statusCode].includes(200), 'one pays');
    t.ok([a.statusCode, b.statusCode].every((s) => s === 200 || s === 409), `the other is told (${a.statusCode}, ${b.statusCode})`);
    const succeeded = (await charges(inv.member.id)).filter((r) => r.status === 'succeeded');
    t.equal(succeeded.length, 1, 'one charge succeeded');
    const sub = await db.selectFrom('subscriptions').selectAll().where('user_id', '=', inv.member.id).executeTakeFirstOrThrow();
    t.equal(sub.plan_id === twelve.id ? twelve.dues_cents + twelve.initiation_fee_cents : twentyFour.dues_cents + twentyFour.initiation_fee_cents, succeeded[0]!.amount_cents, 'the subscription is the plan charged');
  });

  await t.test('a paid invitee whose plan was retired can still set their password', async (t) => {
    const inv = await invite(db, alpha, twelve);
    t.equal((await payRest(inv.link, twelve.id)).statusCode, 200);
    await db.updateTable('membership_plans').set({ active: false }).where('id', '=', twelve.id).execute();
    t.teardown(() => db.updateTable('membership_plans').set({ active: true }).where('id', '=', twelve.id).execute());
    const data = await app.inject({ url: `/rest/get-started?${inv.link}` });
    t.equal(data.statusCode, 200, 'the link still works');
    t.equal(data.headers['cache-control'], 'no-store', 'the invitee’s data is never stored');
    t.match(data.json(), { hasPaid: true, hasCredentials: false, currentStep: 'password', payment: { planId: twelve.id } });
    const page = await app.inject({ url: `/get-started/password?${inv.link}`, headers: { accept: 'text/html' } });
    t.equal(page.statusCode, 200, 'the password page');
    const made = await app.inject({ method: 'POST', url: '/rest/get-started/password', payload: { uid: inv.uid, dealId: inv.dealId, username: `retired.${inv.member.id}`, password: GOOD_PASSWORD } });
    t.equal(made.statusCode, 200, 'the password is made');
    // Not yet paid, a retired plan's link is still no offer.
    const late = await invite(db, alpha, twelve);
    t.equal((await app.inject({ url: `/rest/get-started?${late.link}` })).statusCode, 400, 'unpaid: a retired deal is refused');
  });

  await t.test('once the invitee has credentials, the link alone says nothing about them', async (t) => {
    const inv = await invite(db, alpha, twentyFour);
    t.equal((await payRest(inv.link, twentyFour.id)).statusCode, 200);
    const before = await app.inject({ url: `/rest/get-started?${inv.link}` });
    t.equal(before.statusCode, 200, 'before the password, the link answers');
    const made = await app.inject({ method: 'POST', url: '/rest/get-started/password', payload: { uid: inv.uid, dealId: inv.dealId, username: `spent.${inv.member.id}`, password: GOOD_PASSWORD } });
    t.equal(made.statusCode, 200);
    const token = made.json().authToken as string;

    const rest = await app.inject({ url: `/rest/get-started?${inv.link}` });
    t.equal(rest.statusCode, 400, 'the invalid-membership answer');
    t.equal(rest.json().error.code, 'Payments.InvalidMembership');
    t.notMatch(rest.body, inv.member.email);
    t.notMatch(rest.body, 'Amara');
    const page = await app.inject({ url: `/get-started?${inv.link}`, headers: { accept: 'text/html' } });
    t.equal(page.statusCode, 303);
    t.equal(page.headers.location, '/login?redirect=%2Fget-started', 'the page sends to sign-in');
    const step = await app.inject({ url: `/get-started/password?${inv.link}`, headers: { accept: 'text/html' } });
    t.equal(step.headers.location, '/login?redirect=%2Fget-started');
    t.notMatch(step.body, inv.member.email);

    const mine = await app.inject({ url: `/rest/get-started?${inv.link}`, headers: { authorization: `Bearer ${token}` } });
    t.equal(mine.statusCode, 200, 'signed in as the member, the link still answers');
    t.equal(mine.json().email, inv.member.email);
  });
});
