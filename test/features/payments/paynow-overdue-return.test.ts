import t from 'tap';
import type { SandboxProcessor } from '#src/features/payments/processor/sandbox/processor.ts';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';
import { cardToken, enablePayments } from '#test/helpers/payments.ts';
import { createSubscription } from '#test/helpers/paynow.ts';

t.test("the dunning page's hosted return pays only for the member who started it", async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha' });
  const { app } = await startApp(t, db);
  await enablePayments(db, alpha);
  const engine = (app.cardProcessor as SandboxProcessor).engine;
  const balance = (userId: number) => db.selectFrom('subscriptions').select(['status', 'outstanding_cents']).where('user_id', '=', userId).executeTakeFirstOrThrow();

  const ada = await createMember(db, alpha, { firstName: 'Ada' });
  await createSubscription(db, alpha, ada.id, { outstandingCents: 25000 });
  const bo = await createMember(db, alpha, { firstName: 'Bo' });
  await createSubscription(db, alpha, bo.id, { outstandingCents: 40000 });
  const adaSession = await signIn(app, ada, alpha);
  const boSession = await signIn(app, bo, alpha);

  // Ada posts the dunning page's form without a card: off to the hosted page.
  const jar = await csrfFor(app, adaSession.cookie, '/billing/overdue?next=%2Fsettings');
  const go = await app.inject({
    method: 'POST',
    url: '/billing/overdue',
    headers: { cookie: jar.cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    payload: new URLSearchParams({ _csrf: jar.token, idempotencyKey: 'overdue-key-0123456789', next: '/settings' }).toString(),
  });
  t.equal(go.statusCode, 303, 'to the hosted page');
  const hosted = new URL(go.headers.location as string);
  const state = hosted.searchParams.get('state')!;
  const back = new URL(hosted.searchParams.get('return')!);
  const token = await cardToken(app, alpha);
  back.searchParams.set('token', token);
  back.searchParams.set('state', state);
  back.searchParams.set('signature', engine.sign(token, state));
  const returnUrl = `${back.pathname}${back.search}`;

  const stolen = await app.inject({ url: returnUrl, headers: { cookie: boSession.cookie, accept: 'text/html' } });
  t.equal(stolen.statusCode, 400, "another member's session is refused");
  t.same(await balance(bo.id), { status: 'past_due', outstanding_cents: 40000 }, 'Bo is not charged');
  t.same(await balance(ada.id), { status: 'past_due', outstanding_cents: 25000 }, 'nor Ada');
  const none = await db.selectFrom('payment_ledger').select('id').where('kind', '=', 'charge').execute();
  t.equal(none.length, 0, 'no charge at all');

  const paid = await app.inject({ url: returnUrl, headers: { cookie: adaSession.cookie, accept: 'text/html' } });
  t.equal(paid.statusCode, 303, "Ada's own return pays");
  t.same(await balance(ada.id), { status: 'active', outstanding_cents: 0 });
});
