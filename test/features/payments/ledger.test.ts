import t from 'tap';
import { setupDatabase, startApp } from '../../helpers/app.ts';
import { createCommunity, createMember } from '../../helpers/factories.ts';
import { CARDS, cardToken, enablePayments } from '../../helpers/payments.ts';
import { sql } from 'kysely';
import { chargeOnce, declineError, processorChargeKey, saveCard, type ChargeRequest } from '#src/features/payments/ledger.ts';
import { cardErrorMessage } from '#src/features/payments/checkout.ts';
import type { CardProcessor } from '#src/features/payments/processor/types.ts';
import { SandboxProcessor } from '#src/features/payments/processor/sandbox/processor.ts';
import { resolveStaleCharges, STALE_PENDING_MS } from '#src/features/payments/stale-charges.ts';

t.test('the ledger', async (t) => {
  const db = await setupDatabase(t);
  const { app } = await startApp(t, db);
  const community = await createCommunity(db, { code: 'ledger-a' });
  const other = await createCommunity(db, { code: 'ledger-b' });
  await enablePayments(db, community);
  await enablePayments(db, other);
  const member = await createMember(db, community);

  const request = (key: string, source: ChargeRequest['source'], amountCents = 12345): ChargeRequest => ({
    community: community,
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
    const charges = await db.selectFrom('sandbox_transactions').select('id').where('idempotency_key', '=', processorChargeKey(community, member.id, 'crash-retry-1')).execute();
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
    const saved = await saveCard(app, { community: community, userId: member.id, actorId: member.id, token: await cardToken(app, community, CARDS.chargeDecline), idempotencyKey: 'save-charge-decline' });
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
    const rows = await db.selectFrom('payment_ledger').select('id').where('user_id', '=', stranger.id).execute();
    t.equal(rows.length, 0, 'the refusal comes before any ledger row: nothing is left pending');
    await t.rejects(chargeOnce(app, request('removed-card-1', { savedPaymentId: 2_000_000_000 })), { code: 'NotFound' });
    t.equal((await db.selectFrom('payment_ledger').select('id').where('idempotency_key', '=', 'charge:removed-card-1').execute()).length, 0, 'nor for an unknown card');
  });

  /** The app with another processor in front of the sandbox (what a flaky network or a confused processor does). */
  const withProcessor = (override: Partial<CardProcessor>) => ({ db: app.db, clock: app.clock, cardProcessor: Object.assign(Object.create(app.cardProcessor), override) as CardProcessor });
  const engine = (app.cardProcessor as SandboxProcessor).engine;

  await t.test("a key another member used never answers with that member's card", async (t) => {
    const ada = await createMember(db, community, { firstName: 'Ada' });
    const eve = await createMember(db, community, { firstName: 'Eve' });
    const adas = await saveCard(app, { community: community, userId: ada.id, actorId: ada.id, token: await cardToken(app, community), idempotencyKey: 'shared-key-123' });
    t.ok(adas.ok, 'Ada saved her card');
    const eves = await saveCard(app, { community: community, userId: eve.id, actorId: eve.id, token: 'tok_junk_junk_junk', idempotencyKey: 'shared-key-123' });
    t.match(eves, { ok: false, code: 'invalid_token' }, 'Eve gets a refusal, not Ada’s card');
    const evesCards = await db.selectFrom('saved_payments').select('id').where('user_id', '=', eve.id).execute();
    t.equal(evesCards.length, 0, 'Eve has no card');
    const keys = await db.selectFrom('sandbox_profiles').select('idempotency_key').where('customer_ref', '=', `c${community.id}-u${ada.id}`).execute();
    t.match(keys[0]!.idempotency_key, new RegExp(`^card:${community.id}:${ada.id}:shared-key-123:`), 'the processor key names the community and the member');

    // The sandbox itself refuses a replayed key with another customer or another token.
    const adaKey = keys[0]!.idempotency_key;
    const site = { subDomain: community.code, publicKey: `pk_sandbox_${community.code.replace(/-/g, '_')}_test`, idempotencyKey: adaKey };
    t.match(await engine.createProfile({ ...site, customerRef: `c${community.id}-u${eve.id}`, token: 'tok_junk_junk_junk' }), { ok: false, code: 'invalid_token', card: null });
    const adaToken = (await db.selectFrom('sandbox_profiles').select('token').where('idempotency_key', '=', adaKey).executeTakeFirstOrThrow()).token;
    t.match(await engine.createProfile({ ...site, customerRef: `c${community.id}-u${ada.id}`, token: 'tok_other_other' }), { ok: false, code: 'invalid_token' }, 'another token under the key');
    t.match(await engine.createProfile({ ...site, customerRef: `c${community.id}-u${ada.id}`, token: adaToken }), { ok: true }, 'the same request gets its first answer');

    // A processor that answers with another member's profile anyway: the ledger refuses it.
    if (!adas.ok) return;
    const confused = withProcessor({
      createPaymentProfile: async () => ({ ok: true, profileRef: adas.savedPayment.processorRef, card: { firstName: 'Ada', lastName: 'X', last4: '4242', cardType: 'VISA', expirationMonth: 12, expirationYear: 2030 }, authorisation: null }),
    });
    await t.rejects(saveCard(confused, { community: community, userId: eve.id, actorId: eve.id, token: 'tok_junk_junk_junk', idempotencyKey: 'shared-key-123' }), { code: 'Payments.KeyReused' });
    // Nor does a card the member removed come back.
    await db.updateTable('saved_payments').set({ deleted_at: new Date() }).where('id', '=', adas.savedPayment.id).execute();
    await t.rejects(saveCard(confused, { community: community, userId: ada.id, actorId: ada.id, token: 'tok_junk_junk_junk', idempotencyKey: 'shared-key-123' }), { code: 'Payments.KeyReused' });
  });

  await t.test('a processor timeout leaves the charge pending: the retry with the key asks again and charges once', async (t) => {
    const payer = await createMember(db, community);
    const req = { ...request('timeout-1', { token: await cardToken(app, community) }, 4321), userId: payer.id, actorId: payer.id };
    // The processor charged, but its answer never arrived.
    const flaky = withProcessor({
      charge: async (input) => {
        await app.cardProcessor.charge(input);
        return { ok: false, code: 'processing', authorisation: null };
      },
    });
    const first = await chargeOnce(flaky, req);
    t.match(first, { status: 'failed', code: 'processing' });
    const row = await db.selectFrom('payment_ledger').selectAll().where('id', '=', first.ledgerId).executeTakeFirstOrThrow();
    t.equal(row.status, 'pending', 'not settled');
    t.equal(row.error_code, 'processing', 'the error is recorded');
    t.equal(row.settled_at, null);
    const card = await db.selectFrom('saved_payments').selectAll().where('user_id', '=', payer.id).executeTakeFirstOrThrow();
    t.equal(card.status, 'VALID', 'the card is not marked');
    const retried = await chargeOnce(app, req);
    t.match(retried, { status: 'succeeded', ledgerId: first.ledgerId });
    const charges = await db.selectFrom('sandbox_transactions').select('id').where('idempotency_key', '=', processorChargeKey(community, payer.id, 'timeout-1')).execute();
    t.equal(charges.length, 1, 'one charge at the processor');
    const statements = await db.selectFrom('statements').select('id').where('user_id', '=', payer.id).execute();
    t.equal(statements.length, 1, 'one statement');
  });

  await t.test('a job settles charges left pending for a day as the processor knows their keys', async (t) => {
    const payer = await createMember(db, community);
    const saved = await saveCard(app, { community: community, userId: payer.id, actorId: payer.id, token: await cardToken(app, community), idempotencyKey: 'stale-card-1' });
    if (!saved.ok) throw new Error('card');
    const req = (key: string, purpose: ChargeRequest['purpose'] = 'balance') => ({ ...request(key, { savedPaymentId: saved.savedPayment.id }, 2500), userId: payer.id, actorId: payer.id, purpose });
    // Crashes: after the processor charged; before it was asked; and a renewal (its own job retries it).
    const chargedThenCrashed = withProcessor({
      charge: async (input) => {
        await app.cardProcessor.charge(input);
        throw new Error('crash after the charge');
      },
    });
    const crashedBefore = withProcessor({
      charge: async () => {
        throw new Error('crash before the charge');
      },
    });
    await t.rejects(chargeOnce(chargedThenCrashed, req('stale-paid-1')));
    await t.rejects(chargeOnce(crashedBefore, req('stale-void-1')));
    await t.rejects(chargeOnce(crashedBefore, req('stale-renewal-1', 'renewal')));
    await t.rejects(chargeOnce(crashedBefore, req('fresh-key-1')));
    const keys = ['stale-paid-1', 'stale-void-1', 'stale-renewal-1', 'fresh-key-1'].map((k) => `charge:${k}`);
    const rows = () => db.selectFrom('payment_ledger').select(['idempotency_key', 'status', 'processor_ref', 'settled_at']).where('idempotency_key', 'in', keys).orderBy('id').execute();
    t.same((await rows()).map((r) => r.status), ['pending', 'pending', 'pending', 'pending']);
    const now = new Date();
    const dayAgo = new Date(now.getTime() - STALE_PENDING_MS - 60_000);
    await db.updateTable('payment_ledger').set({ created_at: dayAgo }).where('idempotency_key', 'in', keys.slice(0, 3)).execute();

    // The processor cannot be asked: nothing changes, the next run asks again.
    const unreachable = { ...withProcessor({ findCharge: async () => ({ status: 'unknown' }) }), log: app.log };
    t.match(await resolveStaleCharges(unreachable, now), { paid: 0, voided: 0 });
    t.same((await rows()).map((r) => r.status), ['pending', 'pending', 'pending', 'pending'], 'unknown: left pending');

    const run = await resolveStaleCharges(app, now);
    t.ok(run.paid >= 1 && run.voided >= 1, JSON.stringify(run));
    const after = await rows();
    t.same(after.map((r) => [r.idempotency_key, r.status]), [
      ['charge:stale-paid-1', 'succeeded'],
      ['charge:stale-void-1', 'failed'],
      ['charge:stale-renewal-1', 'pending'],
      ['charge:fresh-key-1', 'pending'],
    ]);
    t.match(after[0]!.processor_ref, /^ch_/, 'the processor’s charge is recorded');
    t.ok(after[0]!.settled_at && after[1]!.settled_at, 'both settled');
    const statement = await db.selectFrom('statements').select(['amount_cents', 'payment_method']).where('user_id', '=', payer.id).executeTakeFirstOrThrow();
    t.match(statement, { amount_cents: 2500, payment_method: /4242/ }, 'the paid one has its statement');
    t.match(await chargeOnce(app, req('stale-void-1')), { status: 'failed' }, 'a retry of the voided key gets its answer, and is not charged');
    const charged = await db.selectFrom('sandbox_transactions').select('idempotency_key').where('idempotency_key', 'like', `charge:${community.id}:${payer.id}:%`).execute();
    t.same(charged.map((c) => c.idempotency_key), [processorChargeKey(community, payer.id, 'stale-paid-1')], 'one charge at the processor in all');
    t.same(await resolveStaleCharges(app, now), { paid: 0, refused: 0, voided: 0, unknown: 0 }, 'a second run has nothing to do');
  });

  await t.test('the auth log carries the community’s currency', async (t) => {
    await db.updateTable('payment_settings').set({ currency: 'EUR' }).where('community_id', '=', other.id).execute();
    const otherMember = await createMember(db, other);
    const saved = await saveCard(app, { community: other, userId: otherMember.id, actorId: otherMember.id, token: await cardToken(app, other), idempotencyKey: 'eur-card-1' });
    t.ok(saved.ok);
    if (!saved.ok) return;
    const charged = await chargeOnce(app, { ...request('eur-charge-1', { savedPaymentId: saved.savedPayment.id }, 700), community: other, userId: otherMember.id, actorId: otherMember.id });
    t.equal(charged.status, 'succeeded');
    const log = await db.selectFrom('card_auth_log').select('currency').where('saved_payment_id', '=', saved.savedPayment.id).execute();
    t.equal(log.length, 2, 'the verification and the charge');
    t.ok(log.every((l) => l.currency === 'EUR'), 'both in EUR');
  });

  await t.test('a card type the community does not accept is refused and its profile deleted', async (t) => {
    await db.updateTable('payment_settings').set({ accepted_cards: sql`array['VISA']::text[]` as never }).where('community_id', '=', other.id).execute();
    const otherMember = await createMember(db, other);
    const saved = await saveCard(app, { community: other, userId: otherMember.id, actorId: otherMember.id, token: await cardToken(app, other, CARDS.mastercard), idempotencyKey: 'not-accepted-1' });
    t.match(saved, { ok: false, code: 'not_accepted' });
    t.equal((await db.selectFrom('saved_payments').select('id').where('user_id', '=', otherMember.id).execute()).length, 0, 'no card saved');
    const profiles = await db.selectFrom('sandbox_profiles').select('deleted_at').where('customer_ref', '=', `c${other.id}-u${otherMember.id}`).execute();
    t.equal(profiles.length, 1);
    t.not(profiles[0]!.deleted_at, null, 'the processor’s profile was deleted');
    const charged = await chargeOnce(app, { ...request('not-accepted-charge', { token: await cardToken(app, other, CARDS.mastercard) }, 700), community: other, userId: otherMember.id, actorId: otherMember.id });
    t.match(charged, { status: 'declined', code: 'not_accepted' });
    t.equal(declineError('not_accepted').code, 'Payments.NotAccepted');
    t.equal(cardErrorMessage(app.t, 'not_accepted', 'member'), 'We don’t accept this type of card. Please use another card.');
    const visa = await saveCard(app, { community: other, userId: otherMember.id, actorId: otherMember.id, token: await cardToken(app, other), idempotencyKey: 'accepted-visa-1' });
    t.ok(visa.ok, 'a Visa is still taken');
  });
});
