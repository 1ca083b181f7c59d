import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#src/app.ts';
import { fixedClock } from '#src/core/clock.ts';
import { hostedPageAddress, openState, readHostedReturn, sealState, type CheckoutState } from '#src/features/payments/checkout.ts';
import { loadPaymentSite } from '#src/features/payments/queries.ts';
import { SandboxProcessor } from '#src/features/payments/processor/sandbox/processor.ts';
import { setupDatabase, testConfig } from '../../helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '../../helpers/factories.ts';
import { CARDS, enablePayments } from '../../helpers/payments.ts';

/** A form's hidden CSRF field and the cookie that goes with it, from a page's HTML and its answer. */
function formCsrf(res: { body: string; cookies: { name: string; value: string }[] }, cookie = '') {
  const token = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1] ?? '';
  const set = res.cookies.find((c) => c.name === '_csrf');
  return { token, cookie: set ? `_csrf=${set.value}` : cookie };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const relative = (location: string) => {
  const u = new URL(location, 'http://localhost');
  return `${u.pathname}${u.search}`;
};

t.test('the sandbox provider, the hosted return and the error log', async (t) => {
  const db = await setupDatabase(t);
  const community = await createCommunity(db, { code: 'provider-a' });
  const other = await createCommunity(db, { code: 'provider-b', hosts: ['provider-b.test'] });
  await enablePayments(db, community);
  await enablePayments(db, other);
  const member = await createMember(db, community);
  const publicKey = 'pk_sandbox_provider_a_test';
  const clock = fixedClock('2026-11-21T12:00:00Z');

  await t.test('over HTTP', async (t) => {
    const app: FastifyInstance = await buildApp({ config: testConfig({ DEFAULT_COMMUNITY: 'provider-a' }), db, clock });
    // A handler of the contract's shape: a POST that sends the browser to the hosted page, and its return.
    await app.register(async (a) => {
      a.post('/test-checkout', { config: { access: 'public' } }, async (request, reply) => {
        const site = (await loadPaymentSite(a.db, request.community))!;
        const state: CheckoutState = { communityId: request.community.id, purpose: 'test', idempotencyKey: 'test-key-0001', returnPath: '/test-checkout/return', data: { plan: '12' } };
        return reply.redirect(hostedPageAddress(a, request, site, state), 303);
      });
      a.get('/test-checkout/return', { config: { access: 'public' } }, async (request, reply) => {
        const back = readHostedReturn(a, request);
        if (!back) return reply.code(400).send({ ok: false });
        return { ok: true, token: back.token, state: back.state };
      });
    });
    await app.ready();
    t.teardown(() => app.close());
    const engine = (app.cardProcessor as SandboxProcessor).engine;
    const year = String(clock.now().getUTCFullYear() + 2);
    const goodCard = { firstName: 'Amara', lastName: 'Okafor', number: CARDS.visa, cvv: '123', month: '12', year, zip: '10001' };

    /** Our form's POST without a token (JavaScript off): the address of the hosted page. */
    async function startCheckout(extra: Record<string, string> = {}) {
      const { token, cookie } = await csrfFor(app);
      const res = await app.inject({ method: 'POST', url: '/test-checkout', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: form({ _csrf: token, ...extra }) });
      t.equal(res.statusCode, 303);
      return { location: res.headers.location as string, cookie };
    }

    await t.test("the provider's script is plain JavaScript, cached, with its content type", async (t) => {
      const res = await app.inject({ method: 'GET', url: '/sandbox-pay/js/card.js' });
      t.equal(res.statusCode, 200);
      t.match(res.headers['content-type'], /^text\/javascript/);
      t.match(res.headers['cache-control'], /public, max-age=\d+/);
      t.match(res.body, /window\.SandboxPay = \{ mount: mount/);
      t.notMatch(res.body, /\.name\s*=/, 'the inputs get no name');
      const again = await app.inject({ method: 'GET', url: '/sandbox-pay/js/card.js', headers: { 'if-none-match': String(res.headers.etag) } });
      t.equal(again.statusCode, 304, 'revalidates by its etag');
    });

    await t.test('the tokens API: a token, the invalid fields, or an unknown key', async (t) => {
      const call = (payload: unknown, headers: Record<string, string> = {}) =>
        app.inject({ method: 'POST', url: '/sandbox-pay/v1/tokens', headers: { 'content-type': 'application/json', ...headers }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });
      const ok = await call({ publicKey, ...goodCard });
      t.equal(ok.statusCode, 200);
      t.match(ok.json(), { token: /^tok_/ });
      t.notOk(ok.json().challengeUrl);
      const challenge = await call({ publicKey, ...goodCard, number: CARDS.challenge });
      t.match(challenge.json(), { token: /^tok_/, challengeUrl: /^\/sandbox-pay\/challenge\/tok_/ });
      const invalid = await call({ publicKey, ...goodCard, firstName: '', number: '4242424242424241' });
      t.equal(invalid.statusCode, 422);
      t.same(invalid.json(), { invalid: ['firstName', 'number'] });
      const unknown = await call({ publicKey: 'pk_live_nope', ...goodCard });
      t.equal(unknown.statusCode, 401);
    });

    await t.test('the tokens API refuses hostile input with a 4xx, never a 5xx', async (t) => {
      const send = (payload: string, type = 'application/json') => app.inject({ method: 'POST', url: '/sandbox-pay/v1/tokens', headers: { 'content-type': type }, payload });
      for (const payload of ['{"publicKey":', '[]', '"text"', 'null', '42', JSON.stringify({ publicKey: { $ne: 1 }, number: [1] })]) {
        const res = await send(payload);
        t.ok(res.statusCode >= 400 && res.statusCode < 500, `${payload} is ${res.statusCode}`);
      }
      const nul = await send(JSON.stringify({ publicKey, ...goodCard, firstName: 'Am\u0000ara', number: `4242\u00004242` }));
      t.equal(nul.statusCode, 422);
      t.same(nul.json().invalid, ['firstName', 'number']);
      const huge = await send(JSON.stringify({ publicKey, ...goodCard, lastName: 'x'.repeat(200_000), zip: '9'.repeat(50_000) }));
      t.equal(huge.statusCode, 422);
      t.same(huge.json().invalid, ['lastName', 'zip']);
      const form = await send('publicKey=x', 'application/x-www-form-urlencoded');
      t.ok(form.statusCode >= 400 && form.statusCode < 500, 'a form post (no JSON) is refused');
    });

    await t.test('JavaScript off: our form, the hosted page, and back with a signed token', async (t) => {
      const { location } = await startCheckout();
      const hosted = new URL(location);
      t.equal(hosted.pathname, '/sandbox-pay/provider-a/hosted');
      t.equal(hosted.searchParams.get('key'), publicKey);
      t.equal(hosted.searchParams.get('return'), 'http://localhost/test-checkout/return');
      t.equal(hosted.searchParams.get('cancel'), 'http://localhost/test-checkout');
      t.ok(openState(app, hosted.searchParams.get('state')!), 'our sealed state travels');

      const page = await app.inject({ method: 'GET', url: relative(location) });
      t.equal(page.statusCode, 200);
      t.match(page.body, /<label for="sp-number">Card number<\/label>/);
      t.match(page.body, /autoComplete="cc-number"|autocomplete="cc-number"/i);
      t.match(page.body, /4000000000003220/, 'test-card hints');
      t.match(page.body, /href="http:\/\/localhost\/test-checkout"/, 'Cancel goes back to our form');
      t.notMatch(page.body, /<script/, 'no script needed');
      const csrf = formCsrf(page);

      const bad = await app.inject({
        method: 'POST',
        url: relative(location),
        headers: { cookie: csrf.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ _csrf: csrf.token, ...goodCard, firstName: ' ', number: '1234', lastName: 'Okafor <b>' }),
      });
      t.equal(bad.statusCode, 422);
      t.match(bad.body, 'Enter valid information for the following input(s): First name, Card number.');
      t.match(bad.body, /id="sp-number-error"/, 'the message next to the field');
      t.match(bad.body, /value="Okafor &lt;b&gt;"/, 'what was typed is kept');
      t.notMatch(bad.body, /value="1234"/, 'the number is not shown again');
      t.notMatch(bad.body, /value="123"/, 'nor the CVV');

      const good = await app.inject({ method: 'POST', url: relative(location), headers: { cookie: csrf.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: form({ _csrf: csrf.token, ...goodCard }) });
      t.equal(good.statusCode, 303);
      const back = new URL(good.headers.location as string);
      t.equal(back.pathname, '/test-checkout/return');
      const token = back.searchParams.get('token')!;
      const state = back.searchParams.get('state')!;
      t.ok(engine.verify(token, state, back.searchParams.get('signature')!), 'signed by the provider');
      const returned = await app.inject({ method: 'GET', url: relative(good.headers.location as string) });
      t.equal(returned.statusCode, 200);
      t.match(returned.json(), { ok: true, token, state: { communityId: community.id, purpose: 'test', idempotencyKey: 'test-key-0001', data: { plan: '12' } } });
      const site = (await loadPaymentSite(db, community))!;
      const profile = await app.cardProcessor.createPaymentProfile({ site, customerRef: 'c-test', token, idempotencyKey: 'provider-test-profile' });
      t.ok(profile.ok, 'the token is a usable card');
    });

    await t.test('a forged, tampered, expired or foreign return is refused', async (t) => {
      const seal = (over: Partial<CheckoutState> = {}) => sealState(app, { communityId: community.id, purpose: 'test', idempotencyKey: 'k-123456789', returnPath: '/test-checkout/return', data: {}, ...over });
      const token = 'tok_abcdefghijkl';
      const url = (state: string, signature = engine.sign(token, state), tok = token) => `/test-checkout/return?${new URLSearchParams({ token: tok, state, signature })}`;
      const good = seal();
      t.equal((await app.inject({ url: url(good) })).statusCode, 200, 'the genuine one passes');
      t.equal((await app.inject({ url: url(good, 'forged-signature') })).statusCode, 400, 'a forged signature');
      t.equal((await app.inject({ url: url(good, engine.sign('tok_other000000', good)) })).statusCode, 400, "another token's signature");
      const [iv, body] = good.split('.') as [string, string];
      const bytes = Buffer.from(body, 'base64url');
      bytes[0]! ^= 1;
      const tampered = `${iv}.${bytes.toString('base64url')}`;
      t.equal((await app.inject({ url: url(tampered) })).statusCode, 400, 'a state changed after sealing (signed by the provider anyway)');
      t.equal((await app.inject({ url: url(seal({ communityId: other.id })) })).statusCode, 400, "another community's state");
      t.equal((await app.inject({ url: url(seal({ returnPath: '/elsewhere/return' })) })).statusCode, 400, "another handler's state");
      t.equal((await app.inject({ url: '/test-checkout/return?token=x&state=y' })).statusCode, 400, 'missing signature');
      t.equal((await app.inject({ url: '/test-checkout/return?token=a&token=b&state=y&signature=z' })).statusCode, 400, 'repeated parameters');
      clock.advance(61 * 60_000);
      t.equal((await app.inject({ url: url(good) })).statusCode, 400, 'an hour later');
      clock.set('2026-11-21T12:00:00Z');
    });

    await t.test('the hosted page refuses to return anywhere but our own app', async (t) => {
      const { location } = await startCheckout();
      const state = new URL(location).searchParams.get('state')!;
      for (const to of ['https://evil.example/return', '//evil.example/return', '/\\evil.example', 'javascript:alert(1)', 'http://localhost@evil.example/', 'http://evil.example:80@localhost/x', 'ftp://localhost/x', '']) {
        const q = new URLSearchParams({ key: publicKey, state, return: to });
        const get = await app.inject({ url: `/sandbox-pay/provider-a/hosted?${q}` });
        const csrf = await csrfFor(app);
        const post = await app.inject({ method: 'POST', url: `/sandbox-pay/provider-a/hosted?${q}`, headers: { cookie: csrf.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: form({ _csrf: csrf.token, ...goodCard }) });
        t.equal(get.statusCode, 400, `${JSON.stringify(to)}: the page is refused`);
        t.equal(post.statusCode, 400, `${JSON.stringify(to)}: the post is refused`);
        t.notOk(post.headers.location, 'no redirect');
      }
      const cancelEvil = new URLSearchParams({ key: publicKey, state, return: '/test-checkout/return', cancel: 'https://evil.example/' });
      t.equal((await app.inject({ url: `/sandbox-pay/provider-a/hosted?${cancelEvil}` })).statusCode, 400, 'nor a Cancel link elsewhere');
      const ok = new URLSearchParams({ key: publicKey, state, return: '/test-checkout/return' });
      t.equal((await app.inject({ url: `/sandbox-pay/provider-a/hosted?${ok}` })).statusCode, 200, 'a path of ours is fine');
      for (const bad of [`/sandbox-pay/provider-a/hosted?${ok}&state=%00`, `/sandbox-pay/pro%00vider/hosted?${ok}`, `/sandbox-pay/provider-a/hosted?state=${state}&return=/x`, `/sandbox-pay/provider-a/hosted?${ok}&key=pk_sandbox_${'x'.repeat(500)}`]) {
        t.equal((await app.inject({ url: bad })).statusCode, 400, `${bad.slice(0, 60)}…`);
      }
    });

    await t.test('the challenge step: approve returns a signed token, fail goes back to the hosted page', async (t) => {
      for (const answer of ['approve', 'fail'] as const) {
        const { location } = await startCheckout();
        const page = await app.inject({ url: relative(location) });
        const csrf = formCsrf(page);
        const posted = await app.inject({ method: 'POST', url: relative(location), headers: { cookie: csrf.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: form({ _csrf: csrf.token, ...goodCard, number: CARDS.challenge }) });
        t.equal(posted.statusCode, 303);
        const challengeUrl = posted.headers.location as string;
        t.match(challengeUrl, /^\/sandbox-pay\/challenge\/tok_[^?]+\?state=/);
        const challenge = await app.inject({ url: challengeUrl });
        t.equal(challenge.statusCode, 200);
        t.match(challenge.body, />Approve</);
        t.match(challenge.body, />Fail</);
        const c = formCsrf(challenge, csrf.cookie);
        const done = await app.inject({ method: 'POST', url: challengeUrl, headers: { cookie: c.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: form({ _csrf: c.token, answer }) });
        t.equal(done.statusCode, 303);
        if (answer === 'approve') {
          const returned = await app.inject({ url: relative(done.headers.location as string) });
          t.equal(returned.statusCode, 200, 'approved: back to us, signed');
          t.equal(await engine.tokenStatus(returned.json().token), 'ready');
        } else {
          t.match(done.headers.location, /^\/sandbox-pay\/provider-a\/hosted\?.*error=authentication/);
          const again = await app.inject({ url: done.headers.location as string });
          t.match(again.body, 'Your bank could not confirm this payment.');
        }
        const twice = await app.inject({ method: 'POST', url: challengeUrl, headers: { cookie: c.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: form({ _csrf: c.token, answer: 'approve' }) });
        t.equal(twice.statusCode, 409, 'answered once only');
      }
    });

    await t.test('JavaScript on, a card that needs the challenge: our handler sends the browser to the challenge page', async (t) => {
      const tokenized = await engine.tokenize(publicKey, { ...goodCard, number: CARDS.challenge });
      t.ok(tokenized.ok);
      const token = (tokenized as { token: string }).token;
      const { location } = await startCheckout({ cardChallenge: token });
      const address = new URL(location);
      t.equal(address.pathname, `/sandbox-pay/challenge/${token}`);
      t.match(address.searchParams.get('hosted'), /^\/sandbox-pay\/provider-a\/hosted\?key=/);
      const challenge = await app.inject({ url: relative(location) });
      const c = formCsrf(challenge);
      const done = await app.inject({ method: 'POST', url: relative(location), headers: { cookie: c.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: form({ _csrf: c.token, answer: 'approve' }) });
      const returned = await app.inject({ url: relative(done.headers.location as string) });
      t.match(returned.json(), { ok: true, token });
    });

    await t.test('the client error logs: bounded, no card numbers, in the community, for cookie and bearer clients', async (t) => {
      const log = (url: string, payload: unknown, headers: Record<string, string> = {}, remoteAddress = '10.1.0.1') =>
        app.inject({ method: 'POST', url, remoteAddress, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(payload) });
      const res = await log('/rest/get-started/logClientPaymentError', {
        error: `tokenize: failed for 4242 4242 4242 4242 and 4000-0000-0000-0002 ${'x'.repeat(2000)}`,
        userId: member.id,
        category: 'Payment',
        email: member.email,
        value: '5555555555554444',
        uri: '/get-started?plan=12',
      });
      t.equal(res.statusCode, 204);
      const row = await db.selectFrom('payment_error_logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
      t.equal(row.community_id, community.id);
      t.equal(row.user_id, member.id);
      t.equal(row.source, 'client');
      t.equal(row.category, 'Payment');
      t.match(row.message, /^tokenize: failed for \[redacted\]/, 'the stage leads the error text');
      t.notMatch(row.message, /4242|0002/, 'no card number');
      t.match(row.message, /\[redacted\]/);
      t.equal(row.message.length, 500, 'bounded');
      t.equal(row.value, '[redacted]');

      const script = await log('/rest/payment/logPaymentScriptError', { errorMsg: 'load: card.js failed to load', userId: 999999, category: 'Payment' }, { host: 'provider-b.test' });
      t.equal(script.statusCode, 204);
      const scriptRow = await db.selectFrom('payment_error_logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
      t.equal(scriptRow.community_id, other.id, "the request's community");
      t.equal(scriptRow.user_id, null, 'an id that is no member of the community is not believed');
      t.equal(scriptRow.source, 'script');
      t.equal(scriptRow.category, 'Payment');
      t.equal(scriptRow.message, 'load: card.js failed to load');

      const session = await signIn(app, member, community);
      const withCookie = await csrfFor(app, session.cookie);
      const noToken = await log('/rest/get-started/logClientPaymentError', { error: 'x' }, { cookie: withCookie.cookie });
      t.equal(noToken.statusCode, 403, 'our cookies without the CSRF header are refused');
      const cookieClient = await log('/rest/get-started/logClientPaymentError', { error: 'from the page' }, { cookie: withCookie.cookie, 'x-csrf-token': withCookie.token });
      t.equal(cookieClient.statusCode, 204, 'cookie and CSRF header');
      const bearer = await log('/rest/payment/logPaymentScriptError', { error: 'from the app' }, { authorization: `Bearer ${session.token}` });
      t.equal(bearer.statusCode, 204, 'bearer');
      const rows = await db.selectFrom('payment_error_logs').select(['message', 'user_id']).where('message', 'in', ['from the page', 'from the app']).execute();
      t.same(rows.map((r) => r.user_id), [member.id, member.id], 'the signed-in member');

      for (const payload of ['{', '[]', '"x"', JSON.stringify({}), JSON.stringify({ error: '' }), JSON.stringify({ userId: 1 })]) {
        const bad = await app.inject({ method: 'POST', url: '/rest/get-started/logClientPaymentError', remoteAddress: '10.1.0.2', headers: { 'content-type': 'application/json' }, payload });
        t.equal(bad.statusCode, 400, `${payload} is refused`);
      }
      const nul = await log('/rest/get-started/logClientPaymentError', { error: 'a\u0000b', category: { nested: true }, userId: 'drop table' }, {}, '10.1.0.3');
      t.equal(nul.statusCode, 204, 'control characters and odd types are cleaned, not fatal');
    });

    await t.test('the error logs are rate limited per address', async (t) => {
      const send = (remoteAddress: string) =>
        app.inject({ method: 'POST', url: '/rest/get-started/logClientPaymentError', remoteAddress, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ error: 'flood' }) });
      const codes: number[] = [];
      for (let i = 0; i < 22; i++) codes.push((await send('10.9.9.9')).statusCode);
      t.equal(codes.filter((c) => c === 204).length, 20, 'twenty a minute');
      t.equal(codes.at(-1), 429);
      t.equal((await send('10.9.9.10')).statusCode, 204, 'another address is not affected');
    });
  });
});
