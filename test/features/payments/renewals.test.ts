import t from 'tap';
import { fixedClock } from '#src/core/clock.ts';
import { saveCard } from '#src/features/payments/ledger.ts';
import { DUNNING_DAYS, runDunning } from '#src/features/payments/renewals/dunning.ts';
import { DUNNING_JOB, RENEWAL_JOB, STALE_CHARGES_JOB } from '#src/features/payments/renewals/jobs.ts';
import { addMonths, renewalKey, runRenewals } from '#src/features/payments/renewals/renewals.ts';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { createCommunity, createMember } from '#test/helpers/factories.ts';
import { CARDS, cardToken, enablePayments } from '#test/helpers/payments.ts';
import { createSubscription } from '#test/helpers/paynow.ts';

const DAY = 24 * 60 * 60 * 1000;

t.test('renewals and dunning', async (t) => {
  const db = await setupDatabase(t);
  const clock = fixedClock('2026-11-26T09:00:00Z');
  const alpha = await createCommunity(db, { code: 'alpha' });
  const summit = await createCommunity(db, { code: 'summit', hosts: ['summit.example.org'] });
  const { app } = await startApp(t, db, { clock, env: { PUBLIC_URL: 'https://app.example.org' } });
  const { plans } = await enablePayments(db, alpha);
  const summitPlans = (await enablePayments(db, summit)).plans;
  const plan12 = plans[0]!;
  const due = new Date('2026-11-25T00:00:00Z');

  const withCard = async (community = alpha, number: string = CARDS.visa) => {
    const m = await createMember(db, community, { firstName: 'Nia' });
    const saved = await saveCard(app, { community: community, userId: m.id, actorId: m.id, token: await cardToken(app, community, number), idempotencyKey: `save-${m.id}-card` });
    if (!saved.ok) throw new Error('card not saved');
    return m;
  };
  const sub = (id: string) => db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  // The processor's key names the community and the member before the ledger's key (ledger.ts processorChargeKey).
  const processorCharges = (key: string) => db.selectFrom('sandbox_transactions').select('id').where('kind', '=', 'charge').where('idempotency_key', 'like', `charge:%:%:${key}`).execute();

  await t.test('the jobs are scheduled', async (t) => {
    t.ok(app.jobs.names().includes(RENEWAL_JOB));
    t.ok(app.jobs.names().includes(DUNNING_JOB));
    t.ok(app.jobs.names().includes(STALE_CHARGES_JOB), 'the stale pending charges job is registered');
  });

  await t.test('a due renewal charges the default card once and moves renews_at on a year', async (t) => {
    const m = await withCard();
    const id = await createSubscription(db, alpha, m.id, { status: 'active', planId: plan12.id, renewsAt: due });
    const notYet = await createSubscription(db, alpha, (await withCard()).id, { status: 'active', planId: plan12.id, renewsAt: new Date('2026-12-01T00:00:00Z') });
    const run = await runRenewals(app, clock.now());
    t.ok(run.renewed >= 1);
    const after = await sub(id);
    t.match(after, { status: 'active', outstanding_cents: 0 });
    t.same(new Date(after.renews_at!).toISOString(), addMonths(due, 12).toISOString());
    t.same(new Date(after.period_started_at!).toISOString(), due.toISOString());
    const ledger = await db.selectFrom('payment_ledger').selectAll().where('subscription_id', '=', id).where('kind', '=', 'charge').execute();
    t.equal(ledger.length, 1);
    t.match(ledger[0], { purpose: 'renewal', status: 'succeeded', amount_cents: plan12.dues_cents, idempotency_key: `charge:${renewalKey(id, due)}` });
    const statement = await db.selectFrom('statements').selectAll().where('ledger_id', '=', ledger[0]!.id).executeTakeFirstOrThrow();
    t.equal(statement.kind, 'dues');
    t.equal((await sub(notYet)).renews_at!.toISOString(), '2026-12-01T00:00:00.000Z', 'a renewal not due yet is left alone');

    const again = await runRenewals(app, clock.now());
    t.equal(again.renewed, 0, 'a second run finds nothing due');
    t.equal((await processorCharges(renewalKey(id, due))).length, 1, 'one charge at the processor');
  });

  await t.test('a retried job after a crash between charge and settle never charges twice', async (t) => {
    const m = await withCard();
    const id = await createSubscription(db, alpha, m.id, { status: 'active', planId: plan12.id, renewsAt: due });
    await runRenewals(app, clock.now());
    // The crash: the processor charged, but nothing settled (the row pending, renews_at unmoved).
    const key = renewalKey(id, due);
    const row = await db.selectFrom('payment_ledger').select('id').where('idempotency_key', '=', `charge:${key}`).executeTakeFirstOrThrow();
    await db.updateTable('payment_ledger').set({ status: 'pending', settled_at: null }).where('id', '=', row.id).execute();
    await db.deleteFrom('statements').where('ledger_id', '=', row.id).execute();
    await db.updateTable('subscriptions').set({ renews_at: due, period_started_at: null }).where('id', '=', id).execute();
    await Promise.all([runRenewals(app, clock.now()), runRenewals(app, clock.now())]);
    t.equal((await processorCharges(key)).length, 1, 'still one charge at the processor');
    t.equal((await sub(id)).renews_at!.toISOString(), addMonths(due, 12).toISOString(), 'the retry settled it');
    const statements = await db.selectFrom('statements').select('id').where('ledger_id', '=', row.id).execute();
    t.equal(statements.length, 1, 'one statement');
  });

  await t.test('a refused renewal marks the subscription past due, with dunning from now', async (t) => {
    const m = await withCard(alpha, CARDS.chargeDecline);
    const id = await createSubscription(db, alpha, m.id, { status: 'active', planId: plan12.id, renewsAt: due });
    await runRenewals(app, clock.now());
    const after = await sub(id);
    t.match(after, { status: 'past_due', outstanding_cents: plan12.dues_cents, dunning_count: 0 });
    t.equal(after.past_due_since!.toISOString(), clock.now().toISOString());
    t.equal(after.next_dunning_at!.toISOString(), clock.now().toISOString());
    t.equal(after.renews_at!.toISOString(), addMonths(due, 12).toISOString(), 'the period owed has begun');
    const ledger = await db.selectFrom('payment_ledger').selectAll().where('subscription_id', '=', id).where('kind', '=', 'charge').execute();
    t.match(ledger, [{ status: 'declined', purpose: 'renewal' }]);
    await runRenewals(app, clock.now());
    t.equal((await processorCharges(renewalKey(id, due))).length, 1, 'not charged again');
  });

  await t.test('no card on file: past due without any charge', async (t) => {
    const m = await createMember(db, alpha);
    const id = await createSubscription(db, alpha, m.id, { status: 'active', planId: plan12.id, renewsAt: due });
    await runRenewals(app, clock.now());
    t.match(await sub(id), { status: 'past_due', outstanding_cents: plan12.dues_cents });
    const ledger = await db.selectFrom('payment_ledger').select('id').where('subscription_id', '=', id).execute();
    t.equal(ledger.length, 0);
  });

  await t.test('dunning: one mail per step on days 0, 3, 7 and 14, each with the pay-now link', async (t) => {
    t.same(DUNNING_DAYS, [0, 3, 7, 14]);
    // Only this test's subscription is due: the earlier ones are set aside.
    await db.updateTable('subscriptions').set({ next_dunning_at: null }).where('status', '=', 'past_due').execute();
    const m = await createMember(db, summit, { firstName: 'Jonah' });
    const start = clock.now();
    const id = await createSubscription(db, summit, m.id, { status: 'active', planId: summitPlans[0]!.id, renewsAt: due });
    await runRenewals(app, start);
    const mailsTo = () => app.outbox.messages.filter((x) => x.to === m.email && x.channel === 'email');
    const sentAt: number[] = [];
    for (let hour = 0; hour <= 20 * 24; hour += 6) {
      clock.set(new Date(start.getTime() + hour * 60 * 60 * 1000));
      const before = mailsTo().length;
      await Promise.all([runDunning(app, clock.now()), runDunning(app, clock.now())]);
      await app.jobs.drain();
      if (mailsTo().length > before) sentAt.push(hour / 24);
      t.ok(mailsTo().length - before <= 1, `at most one mail at hour ${hour}`);
    }
    t.same(sentAt, [0, 3, 7, 14], 'the schedule');
    const mails = mailsTo().reverse(); // the outbox keeps the newest first
    t.equal(mails.length, 4);
    const link = /(https?:\/\/\S+)/.exec(mails[0]!.text)?.[1];
    t.equal(link, `https://summit.example.org/pay-now?userId=${m.id}&subscriptionId=${encodeURIComponent(id)}`, 'the absolute pay-now link, on the community’s own host');
    t.match(mails[0]!.subject, /didn’t go through/, 'the first mail says what happened');
    t.match(mails.at(-1)!.subject, /overdue/, 'the others remind');
    const after = await sub(id);
    t.match(after, { dunning_count: 4, next_dunning_at: null });
    const notes = await db.selectFrom('notifications').selectAll().where('user_id', '=', m.id).where('kind', '=', 'payments').execute();
    t.equal(notes.length, 4, 'a notification per step');
    t.equal(notes[0]!.url, '/billing/overdue');
    clock.set(start);
  });

  await t.test('paying stops dunning', async (t) => {
    const m = await createMember(db, alpha);
    const id = await createSubscription(db, alpha, m.id, { status: 'past_due', outstandingCents: 5000, pastDueSince: clock.now(), nextDunningAt: clock.now() });
    const res = await app.inject({
      method: 'POST',
      url: '/rest/payment/pay-balance',
      remoteAddress: '192.0.2.200',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ token: await cardToken(app, alpha), userId: m.id, subscriptionId: id }),
    });
    t.equal(res.statusCode, 200);
    t.equal(await runDunning(app, new Date(clock.now().getTime() + 30 * DAY)), 0, 'nothing to mail');
    t.match(await sub(id), { status: 'active', next_dunning_at: null, dunning_count: 0 });
  });
});
