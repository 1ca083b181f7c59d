import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { fixedClock } from '#src/core/clock.ts';
import { setActive } from '#src/features/members/admin-actions.ts';
import { saveCard } from '#src/features/payments/ledger.ts';
import { runDunning } from '#src/features/payments/renewals/dunning.ts';
import { addMonths, renewalKey, runRenewals, type RenewalApp } from '#src/features/payments/renewals/renewals.ts';
import type { CardProcessor } from '#src/features/payments/processor/types.ts';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { createCommunity, createMember } from '#test/helpers/factories.ts';
import { cardToken, enablePayments } from '#test/helpers/payments.ts';
import { createSubscription } from '#test/helpers/paynow.ts';

/** The processor, but its charge could not reach it (a timeout, a 5xx): `{ ok: false, code: 'processing' }`. */
function unreachableCharges(real: CardProcessor): CardProcessor {
  return new Proxy(real, {
    get(target, prop) {
      if (prop === 'charge') return async () => ({ ok: false, code: 'processing', authorisation: null });
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

t.test('renewals and dunning leave deactivated members alone; an unreachable processor is retried', async (t) => {
  const db = await setupDatabase(t);
  const clock = fixedClock('2026-11-26T09:00:00Z');
  const alpha = await createCommunity(db, { code: 'alpha' });
  const { app } = await startApp(t, db, { clock });
  const { plans } = await enablePayments(db, alpha);
  const plan12 = plans[0]!;
  const due = new Date('2026-11-25T00:00:00Z');
  const admin = await createMember(db, alpha, { roles: ['ADMIN'] });
  const deps = { db, clock, jobs: app.jobs };
  const staffCommunity = { id: alpha.id, code: alpha.code, name: alpha.name };

  const withCard = async (application: FastifyInstance = app) => {
    const m = await createMember(db, alpha, { firstName: 'Nia' });
    const saved = await saveCard(application, { community: alpha, userId: m.id, actorId: m.id, token: await cardToken(application, alpha), idempotencyKey: `save-${m.id}-card` });
    if (!saved.ok) throw new Error('card not saved');
    return m;
  };
  const sub = (id: string) => db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const chargesOf = (id: string) => db.selectFrom('payment_ledger').selectAll().where('subscription_id', '=', id).where('kind', '=', 'charge').execute();
  const mailsTo = (email: string) => app.outbox.messages.filter((x) => x.to === email && x.channel === 'email');

  await t.test('a deactivated membership or account is not charged; reactivated, the renewal goes through', async (t) => {
    const off = await withCard();
    const offId = await createSubscription(db, alpha, off.id, { status: 'active', planId: plan12.id, renewsAt: due });
    await setActive(deps, { userId: admin.id }, staffCommunity, off.id, false);
    const locked = await withCard();
    const lockedId = await createSubscription(db, alpha, locked.id, { status: 'active', planId: plan12.id, renewsAt: due });
    await db.updateTable('users').set({ is_active: false }).where('id', '=', locked.id).execute();

    await runRenewals(app, clock.now());
    for (const id of [offId, lockedId]) {
      t.match(await sub(id), { status: 'active', outstanding_cents: 0 }, 'not past due');
      t.equal((await sub(id)).renews_at!.toISOString(), due.toISOString(), 'renews_at unmoved');
      t.equal((await chargesOf(id)).length, 0, 'no charge');
    }

    await setActive(deps, { userId: admin.id }, staffCommunity, off.id, true);
    await runRenewals(app, clock.now());
    t.equal((await sub(offId)).renews_at!.toISOString(), addMonths(due, 12).toISOString(), 'reactivated: renewed');
    t.match(await chargesOf(offId), [{ status: 'succeeded', purpose: 'renewal' }]);
    t.equal((await chargesOf(lockedId)).length, 0, 'the inactive account still is not charged');
  });

  await t.test('dunning mails no deactivated member; staff deactivating clears next_dunning_at; reactivating resumes', async (t) => {
    const m = await createMember(db, alpha);
    const id = await createSubscription(db, alpha, m.id, { status: 'past_due', outstandingCents: 5000, pastDueSince: clock.now(), nextDunningAt: clock.now() });
    await setActive(deps, { userId: admin.id }, staffCommunity, m.id, false);
    t.match(await sub(id), { status: 'past_due', outstanding_cents: 5000, next_dunning_at: null, dunning_count: 0 }, 'dunning stopped, the balance kept');

    // An account switched off (users.is_active), its dunning still scheduled: no mail either.
    const locked = await createMember(db, alpha);
    const lockedId = await createSubscription(db, alpha, locked.id, { status: 'past_due', outstandingCents: 5000, pastDueSince: clock.now(), nextDunningAt: clock.now() });
    await db.updateTable('users').set({ is_active: false }).where('id', '=', locked.id).execute();
    // A deactivated membership whose next_dunning_at is still set (deactivated some other way).
    const other = await createMember(db, alpha, { active: false });
    const otherId = await createSubscription(db, alpha, other.id, { status: 'past_due', outstandingCents: 5000, pastDueSince: clock.now(), nextDunningAt: clock.now() });

    await runDunning(app, clock.now());
    await app.jobs.drain();
    t.equal(mailsTo(m.email).length, 0, 'no mail to the deactivated member');
    t.equal(mailsTo(locked.email).length, 0, 'no mail to the inactive account');
    t.equal(mailsTo(other.email).length, 0, 'no mail to the inactive membership');
    t.equal((await sub(lockedId)).dunning_count, 0);
    t.equal((await sub(otherId)).dunning_count, 0);

    await setActive(deps, { userId: admin.id }, staffCommunity, m.id, true);
    t.ok((await sub(id)).next_dunning_at, 'reactivated: dunning resumes');
    await runDunning(app, clock.now());
    await app.jobs.drain();
    t.equal(mailsTo(m.email).length, 1, 'the next dunning mail is sent');
    t.equal((await sub(id)).dunning_count, 1);
  });

  await t.test('an unreachable processor leaves the renewal due (not past due), to be retried under the same key', async (t) => {
    const m = await withCard();
    const id = await createSubscription(db, alpha, m.id, { status: 'active', planId: plan12.id, renewsAt: due });
    const stubbed: RenewalApp = { db: app.db, clock: app.clock, t: app.t, log: app.log, cardProcessor: unreachableCharges(app.cardProcessor) };
    const run = await runRenewals(stubbed, clock.now());
    t.equal(run.pastDue, 0, 'nothing past due');
    t.equal(run.retry, 1, 'one to retry');
    const after = await sub(id);
    t.match(after, { status: 'active', outstanding_cents: 0, past_due_since: null, next_dunning_at: null });
    t.equal(after.renews_at!.toISOString(), due.toISOString(), 'renews_at unmoved: the next run retries');
    const rows = await chargesOf(id);
    t.equal(rows.length, 1, 'one ledger row, under the period key');
    t.equal(rows[0]!.idempotency_key, `charge:${renewalKey(id, due)}`);
    const card = await db.selectFrom('saved_payments').select('status').where('user_id', '=', m.id).executeTakeFirstOrThrow();
    t.equal(card.status, 'VALID', 'the card is not marked failed');
  });
});
