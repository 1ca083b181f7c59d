import t from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixedClock } from '#src/core/clock.ts';
import type { RawDb as Db } from '#src/db/index.ts';
import { buildCardProcessor } from '#src/features/payments/processor/index.ts';
import { declineCodeOf, MaxioProcessor } from '#src/features/payments/processor/maxio.ts';
import { testConfig } from '../../helpers/app.ts';

const API_KEY = 'key_test_0123456789';
const SITE = { communityId: 1, publicKey: 'chjs_test_public', subDomain: 'acme' };

type Seen = { method: string; path: string; auth: string | undefined; key: string | undefined; body: unknown };

/**
 * A fake of the processor's REST API, answering as the real one does: Basic auth, JSON under a
 * resource key, 422 with `errors` for a refusal, and the first answer again for a repeated
 * Idempotency-Key (so a retry never charges twice).
 */
function fakeProcessor() {
  const seen: Seen[] = [];
  const answered = new Map<string, { status: number; body: unknown }>();
  let charges = 0;
  let next = 1;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? JSON.parse(raw) : null;
    const key = req.headers['idempotency-key'] as string | undefined;
    const path = req.url ?? '';
    seen.push({ method: req.method ?? '', path, auth: req.headers.authorization, key, body });
    const send = (status: number, payload: unknown) => {
      if (key) answered.set(`${req.method} ${path} ${key}`, { status, body: payload });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(payload === null ? '' : JSON.stringify(payload));
    };
    if (req.headers.authorization !== `Basic ${Buffer.from(`${API_KEY}:x`).toString('base64')}`) return send(401, { errors: ['Unauthorized'] });
    const earlier = key ? answered.get(`${req.method} ${path} ${key}`) : undefined;
    if (earlier) {
      res.writeHead(earlier.status, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(earlier.body));
    }
    if (req.method === 'POST' && path === '/acme/payment_profiles.json') {
      const token = body?.payment_profile?.chargify_token;
      if (token === 'tok_ok') return send(201, { payment_profile: { id: 9001, first_name: 'Amara', last_name: 'Okafor', masked_card_number: 'XXXX-XXXX-XXXX-1111', card_type: 'visa', expiration_month: 4, expiration_year: 2029, customer_reference: body.payment_profile.customer_reference } });
      if (token === 'tok_cvv') return send(422, { errors: ['Card verification value (CVV) did not match'], gateway_response_code: 82 });
      if (token === 'tok_expired') return send(422, { errors: ['Credit card has expired'] });
      if (token === 'tok_boom') return send(503, { errors: ['Service unavailable'] });
      return send(422, { errors: ['Invalid chargify_token'] });
    }
    if (req.method === 'POST' && path === '/acme/charges.json') {
      const profile = body?.charge?.payment_profile_id;
      if (profile === 'slow') return setTimeout(() => send(201, { charge: { id: 'late', success: true } }), 2500);
      if (profile === '9001') {
        charges++;
        return send(201, { charge: { id: `ch_${next++}`, success: true, amount_in_cents: body.charge.amount_in_cents } });
      }
      if (profile === 'in-flight') return send(409, { errors: ['A request with this idempotency key is already in progress'] });
      if (profile === 'garbled') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html>upstream proxy</html>');
      }
      if (profile === 'refusing') return send(201, { charge: { id: 'ch_refused', success: false } });
      if (profile === 'declining') return send(422, { errors: ['Transaction declined'], gateway_response_code: 5 });
      return send(500, { errors: ['Internal error'] });
    }
    // A charge by the key it was made under: the charge they answered, 404 when no request carried it.
    const lookup = /^\/acme\/charges\/lookup\.json\?idempotency_key=([^&]+)$/.exec(path);
    if (req.method === 'GET' && lookup) {
      const asked = decodeURIComponent(lookup[1]!);
      if (asked === 'charge:boom') return send(503, { errors: ['Service unavailable'] });
      const made = answered.get(`POST /acme/charges.json ${asked}`);
      if (!made) return send(404, { errors: ['Not found'] });
      const charge = (made.body as { charge?: Record<string, unknown> } | null)?.charge;
      return charge ? send(200, { charge: { ...charge, payment_profile_id: 9001 } }) : send(200, { charge: { id: `failed_${asked}`, success: false } });
    }
    const refund = /^\/acme\/payments\/([^/]+)\/refunds\.json$/.exec(path);
    if (req.method === 'POST' && refund) return refund[1]!.startsWith('ch_') ? send(201, { refund: { id: `re_${next++}`, success: true } }) : send(422, { errors: ['Payment not found'] });
    const del = /^\/acme\/payment_profiles\/([^/]+)\.json$/.exec(path);
    if (req.method === 'DELETE' && del) return del[1] === 'gone' ? send(404, { errors: ['Not found'] }) : send(200, {});
    send(404, { errors: ['Not found'] });
  });
  return { server, seen, charges: () => charges };
}

t.test('the Maxio adapter against a local fake of its API', async (t) => {
  const fake = fakeProcessor();
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => fake.server.close(() => resolve())));
  const url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/{subDomain}`;
  const clock = fixedClock('2026-11-21T12:00:00Z');
  const maxio = new MaxioProcessor({ url, apiKey: API_KEY, signingSecret: 'signing-secret-0123456789-0123456789', timeoutMs: 10_000 }, clock);
  const last = () => fake.seen.at(-1)!;

  await t.test('PAYMENT_PROCESSOR=maxio selects it', async (t) => {
    const config = testConfig({ PAYMENT_PROCESSOR: 'maxio', MAXIO_URL: 'https://{subDomain}.example.test', MAXIO_API_KEY: API_KEY, PAYMENT_SIGNING_SECRET: 'x'.repeat(40) });
    const processor = buildCardProcessor(config, {} as Db, clock);
    t.ok(processor instanceof MaxioProcessor);
    t.equal(processor.kind, 'maxio');
    t.match(processor.browserSettings(SITE), { serverHost: 'https://acme.example.test', publicKey: 'chjs_test_public' });
  });

  await t.test('a card: Basic auth, the token in the body, the key in the header, the card as they describe it', async (t) => {
    const outcome = await maxio.createPaymentProfile({ site: SITE, customerRef: 'c1-u2', token: 'tok_ok', idempotencyKey: 'card:key-1' });
    t.match(outcome, { ok: true, profileRef: '9001', card: { last4: '1111', cardType: 'VISA', expirationMonth: 4, expirationYear: 2029, firstName: 'Amara' } });
    t.match(last(), { method: 'POST', path: '/acme/payment_profiles.json', key: 'card:key-1', body: { payment_profile: { customer_reference: 'c1-u2', chargify_token: 'tok_ok' } } });
    const cvv = await maxio.createPaymentProfile({ site: SITE, customerRef: 'c1-u2', token: 'tok_cvv', idempotencyKey: 'card:key-2' });
    t.match(cvv, { ok: false, code: 'cvv', authorisation: { responseCode: 82 } });
    t.match(await maxio.createPaymentProfile({ site: SITE, customerRef: 'c1-u2', token: 'tok_expired', idempotencyKey: 'card:key-3' }), { ok: false, code: 'expired' });
    t.match(await maxio.createPaymentProfile({ site: SITE, customerRef: 'c1-u2', token: 'tok_used', idempotencyKey: 'card:key-4' }), { ok: false, code: 'invalid_token' });
    t.match(await maxio.createPaymentProfile({ site: SITE, customerRef: 'c1-u2', token: 'tok_boom', idempotencyKey: 'card:key-5' }), { ok: false, code: 'processing', authorisation: null });
  });

  await t.test('a charge: success, 422 declined, 5xx processing, a repeated key the same answer and one charge', async (t) => {
    const before = fake.charges();
    const first = await maxio.charge({ site: SITE, profileRef: '9001', amountCents: 12345, currency: 'USD', idempotencyKey: 'charge:k-1', memo: 'Membership dues' });
    t.match(first, { ok: true, chargeRef: /^ch_/, authorisation: { amountCents: 12345, responseCode: 0 } });
    t.match(last(), { path: '/acme/charges.json', key: 'charge:k-1', body: { charge: { payment_profile_id: '9001', amount_in_cents: 12345, currency: 'USD', memo: 'Membership dues' } } });
    t.equal(last().auth, `Basic ${Buffer.from(`${API_KEY}:x`).toString('base64')}`);
    const again = await maxio.charge({ site: SITE, profileRef: '9001', amountCents: 12345, currency: 'USD', idempotencyKey: 'charge:k-1', memo: 'Membership dues' });
    t.same(again, first, 'a retry gets the first answer');
    t.equal(fake.charges() - before, 1, 'and the card is charged once');
    t.match(await maxio.charge({ site: SITE, profileRef: 'declining', amountCents: 500, currency: 'USD', idempotencyKey: 'charge:k-2', memo: 'x' }), { ok: false, code: 'declined', authorisation: { responseCode: 5 } });
    t.match(await maxio.charge({ site: SITE, profileRef: 'broken', amountCents: 500, currency: 'USD', idempotencyKey: 'charge:k-3', memo: 'x' }), { ok: false, code: 'processing', authorisation: null });
    await t.rejects(maxio.charge({ site: SITE, profileRef: '9001', amountCents: 0, currency: 'USD', idempotencyKey: 'charge:k-4', memo: 'x' }), RangeError);
  });

  await t.test('a charge looked up by its key: made, refused, never made, or unknown when they cannot answer', async (t) => {
    const made = await maxio.charge({ site: SITE, profileRef: '9001', amountCents: 700, currency: 'USD', idempotencyKey: 'charge:lookup-1', memo: 'x' });
    t.match(made, { ok: true });
    const found = await maxio.findCharge({ site: SITE, idempotencyKey: 'charge:lookup-1' });
    t.same(found, { status: 'charged', chargeRef: (made as { chargeRef: string }).chargeRef, profileRef: '9001' });
    t.match(last(), { method: 'GET', path: '/acme/charges/lookup.json?idempotency_key=charge%3Alookup-1', key: undefined });
    t.equal(last().auth, `Basic ${Buffer.from(`${API_KEY}:x`).toString('base64')}`, 'with their Basic auth');
    await maxio.charge({ site: SITE, profileRef: 'declining', amountCents: 700, currency: 'USD', idempotencyKey: 'charge:lookup-2', memo: 'x' });
    t.same(await maxio.findCharge({ site: SITE, idempotencyKey: 'charge:lookup-2' }), { status: 'refused', code: 'declined' });
    t.same(await maxio.findCharge({ site: SITE, idempotencyKey: 'charge:never-made' }), { status: 'none' });
    t.same(await maxio.findCharge({ site: SITE, idempotencyKey: 'charge:boom' }), { status: 'unknown' }, 'a 5xx is no answer');
    const wrongKey = new MaxioProcessor({ url, apiKey: 'wrong', signingSecret: 'signing-secret-0123456789-0123456789', timeoutMs: 10_000 }, clock);
    t.same(await wrongKey.findCharge({ site: SITE, idempotencyKey: 'charge:lookup-1' }), { status: 'unknown' }, 'nor is their 401');
  });

  await t.test('a call that takes too long is processing, not a hang', async (t) => {
    const impatient = new MaxioProcessor({ url, apiKey: API_KEY, signingSecret: 's'.repeat(32), timeoutMs: 500 }, clock);
    const started = Date.now();
    t.match(await impatient.charge({ site: SITE, profileRef: 'slow', amountCents: 500, currency: 'USD', idempotencyKey: 'charge:slow', memo: 'x' }), { ok: false, code: 'processing' });
    t.ok(Date.now() - started < 2000, 'gave up after its timeout');
  });

  await t.test('an in-flight duplicate (409) and an unreadable 2xx are processing, not a refusal; a 2xx saying no is declined', async (t) => {
    t.match(await maxio.charge({ site: SITE, profileRef: 'in-flight', amountCents: 500, currency: 'USD', idempotencyKey: 'charge:409', memo: 'x' }), { ok: false, code: 'processing', authorisation: null });
    t.match(await maxio.charge({ site: SITE, profileRef: 'garbled', amountCents: 500, currency: 'USD', idempotencyKey: 'charge:garbled', memo: 'x' }), { ok: false, code: 'processing', authorisation: null });
    t.match(await maxio.charge({ site: SITE, profileRef: 'refusing', amountCents: 500, currency: 'USD', idempotencyKey: 'charge:refusing', memo: 'x' }), { ok: false, code: 'declined' });
    t.equal(declineCodeOf(409, { errors: ['in progress'] }), 'processing');
  });

  await t.test('a wrong key is processing (their 401), and the key never travels in the address', async (t) => {
    const wrong = new MaxioProcessor({ url, apiKey: 'wrong', signingSecret: 's'.repeat(32) }, clock);
    t.match(await wrong.charge({ site: SITE, profileRef: '9001', amountCents: 100, currency: 'USD', idempotencyKey: 'charge:wrong', memo: 'x' }), { ok: false, code: 'processing' });
    t.notMatch(last().path, /wrong|key_test/);
  });

  await t.test('refunds and deleting a card', async (t) => {
    const charged = await maxio.charge({ site: SITE, profileRef: '9001', amountCents: 2000, currency: 'USD', idempotencyKey: 'charge:r-1', memo: 'x' });
    const chargeRef = (charged as { chargeRef: string }).chargeRef;
    const refund = await maxio.refund({ site: SITE, chargeRef, amountCents: 500, currency: 'USD', idempotencyKey: 'refund:r-1', memo: 'Goodwill' });
    t.match(refund, { ok: true, refundRef: /^re_/ });
    t.match(last(), { path: `/acme/payments/${chargeRef}/refunds.json`, key: 'refund:r-1', body: { refund: { amount_in_cents: 500, memo: 'Goodwill' } } });
    t.same(await maxio.refund({ site: SITE, chargeRef, amountCents: 500, currency: 'USD', idempotencyKey: 'refund:r-1', memo: 'Goodwill' }), refund, 'repeated key, same refund');
    t.match(await maxio.refund({ site: SITE, chargeRef: 'nope', amountCents: 500, currency: 'USD', idempotencyKey: 'refund:r-2', memo: 'x' }), { ok: false });
    await maxio.deletePaymentProfile({ site: SITE, profileRef: '9001' });
    t.match(last(), { method: 'DELETE', path: '/acme/payment_profiles/9001.json' });
    await maxio.deletePaymentProfile({ site: SITE, profileRef: 'gone' });
    t.pass('an unknown profile is not an error');
  });

  await t.test('no request ever carries a card number or CVV', async (t) => {
    for (const s of fake.seen) t.notMatch(JSON.stringify(s.body ?? {}), /\d{12,}|cvv"?:/i, `${s.method} ${s.path}`);
  });

  await t.test('the hosted return signature and the refusal mapping', async (t) => {
    const { createHmac } = await import('node:crypto');
    const signature = createHmac('sha256', 'signing-secret-0123456789-0123456789').update('tok_1.state').digest('base64url');
    t.ok(maxio.verifyReturn(SITE, { token: 'tok_1', state: 'state', signature }));
    t.notOk(maxio.verifyReturn(SITE, { token: 'tok_2', state: 'state', signature }));
    t.equal(declineCodeOf(422, { errors: 'This transaction requires 3D Secure authentication' }), 'authentication');
    t.equal(declineCodeOf(429, null), 'processing');
    t.equal(declineCodeOf(422, { errors: [{ odd: true }] }), 'declined');
  });
});
