import t from 'tap';
import { setupDatabase, startApp } from '../../helpers/app.ts';
import { createCommunity, createMember } from '../../helpers/factories.ts';
import { CARDS, cardToken, enablePayments } from '../../helpers/payments.ts';
import { chargeOnce, saveCard, type ChargeRequest } from '#src/features/payments/ledger.ts';

t.test('the ledger', async (t) => {
  const db = await setupDatabase(t);
  const { app } = await startApp(t, db);
  const community = await createCommunity(db, { code: 'ledger-a' });
  const other = await createCommunity(db, { code: 'ledger-b' });
  await enablePayments(db, community);
  await enablePayments(db, other);
  const member = await createMember(db, community);

  const request = (key: string, source: ChargeRequest['source'], amountCents = 12345): ChargeRequest => ({
    communityId: community.id,
    userId: member.id,
    actorId: member.id,
    idempotencyKey: key,
    amountCents,
    purpose: 'balance',
    description: 'Membership balance',
    items: [{ label: 'Membership dues', amountCents }],
    statement: { kind: 'dues', name: 'Membership dues' },
    source,
  });

  await t.test('a double submit charges once: every caller gets the one charge', async (t) => {
    const token = await cardToken(app, community);
    const results = await Promise.all(Array.from({ length: 5 }, () => chargeOnce(app, request('double-submit-1', { token }))));
    t.ok(results.every((r) => r.status === 'succeeded'), 'all succeed');
    t.equal(new Set(results.map((r) => r.ledgerId)).size, 1, 'one ledger row');
    const charges = await db.selectFrom('sandbox_transactions').selectAll().where('kind', '=', 'charge').where('sub_domain', '=', community.code).execute();
    t.equal(charges.length, 1, 'one charge at the processor');
    const statements = await db.selectFrom('statements').selectAll().where('user_id', '=', member.id).execute();
    t.equal(statements.length, 1, 'one statement');
    t.equal(statements[0]!.payment_method, 'Visa ending 4242');
    const cards = await db.selectFrom('saved_payments').selectAll().where('user_id', '=', member.id).execute();
    t.equal(cards.length, 1, 'the token made one saved card');
    t.equal(cards[0]!.is_default, true, 'the new card is the default');
  });

  await t.test('a charge left pending by a crash is finished by the retry, not charged again', async (t) => {
    const [card] = await db.selectFrom('saved_payments').select('id').where('user_id', '=', member.id).execute();
    // The crash: the pending row was written and the processor charged, but nothing settled.
    const first = await chargeOnce(app, request('crash-retry-1', { savedPaymentId: card!.id }, 500));
    await db.updateTable('payment_ledger').set({ status: 'pending', settled_at: null }).where('id', '=', first.ledgerId).execute();
    await db.deleteFrom('statements').where('ledger_id', '=', first.ledgerId).execute();
    const retried = await chargeOnce(app, request('crash-retry-1', { savedPaymentId: card!.id }, 500));
    t.equal(retried.status, 'succeeded');
    t.equal(retried.ledgerId, first.ledgerId);
    const charges = await db.selectFrom('sandbox_transactions').select('id').where('idempotency_key', '=', 'charge:crash-retry-1').execute();
    t.equal(charges.length, 1, 'the processor charged once');
  });

  await t.test('a key reused for another amount is refused', async (t) => {
    const [card] = await db.selectFrom('saved_payments').select('id').where('user_id', '=', member.id).execute();
    await t.rejects(chargeOnce(app, request('crash-retry-1', { savedPaymentId: card!.id }, 501)), { code: 'Payments.KeyReused' });
  });

  await t.test('a declined card is declined, recorded, and saves no card', async (t) => {
    const token = await cardToken(app, community, CARDS.decline);
    const result = await chargeOnce(app, request('declined-1', { token }));
    t.match(result, { status: 'declined', code: 'declined' });
    const row = await db.selectFrom('payment_ledger').selectAll().where('id', '=', result.ledgerId).executeTakeFirstOrThrow();
    t.equal(row.status, 'declined');
    const cards = await db.selectFrom('saved_payments').select('id').where('user_id', '=', member.id).execute();
    t.equal(cards.length, 1, 'still one card');
  });

  await t.test('a charge refused on a saved card marks it FAILED and logs the authorisation', async (t) => {
    const saved = await saveCard(app, { communityId: community.id, userId: member.id, actorId: member.id, token: await cardToken(app, community, CARDS.chargeDecline), idempotencyKey: 'save-charge-decline' });
    t.ok(saved.ok);
    if (!saved.ok) return;
    const result = await chargeOnce(app, request('refused-saved-1', { savedPaymentId: saved.savedPayment.id }));
    t.match(result, { status: 'declined', code: 'declined' });
    const card = await db.selectFrom('saved_payments').selectAll().where('id', '=', saved.savedPayment.id).executeTakeFirstOrThrow();
    t.equal(card.status, 'FAILED');
    const log = await db.selectFrom('card_auth_log').selectAll().where('saved_payment_id', '=', card.id).orderBy('id').execute();
    t.equal(log.length, 2, 'the verification and the charge');
    t.equal(log[0]!.auth_response_code, 0);
    t.equal(log[0]!.reversal_http_code, 200, 'the verification was reversed');
    t.ok(log[1]!.auth_response_code! > 0, 'the refused charge');
  });

  await t.test('a token of one community cannot pay in another', async (t) => {
    const token = await cardToken(app, other);
    const result = await chargeOnce(app, request('cross-community-1', { token }));
    t.match(result, { status: 'declined', code: 'invalid_token' });
  });

  await t.test("another member's card cannot be charged", async (t) => {
    const stranger = await createMember(db, community);
    const [card] = await db.selectFrom('saved_payments').select('id').where('user_id', '=', member.id).execute();
    await t.rejects(chargeOnce(app, { ...request('stranger-1', { savedPaymentId: card!.id }), userId: stranger.id }), { code: 'NotFound' });
  });
});
