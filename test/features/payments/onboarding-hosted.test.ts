import t from 'tap';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';
import { CARDS, cardToken, enablePayments } from '#test/helpers/payments.ts';
import { createOnboarding } from '#src/features/payments/onboarding/progress.ts';
import { SandboxProcessor } from '#src/features/payments/processor/sandbox/processor.ts';
import { sealState } from '#src/features/payments/checkout.ts';

/**
 * The payment step without JavaScript: the form posts without a token, the handler checks the terms
 * and sends the browser to the provider's hosted page, which returns to /get-started/payment/return
 * with a token, our sealed state and the provider's signature.
 */
t.test('onboarding payment through the hosted page', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'] });
  const { app } = await startApp(t, db, { clock });
  const { plans } = await enablePayments(db, alpha);
  await enablePayments(db, beta);
  const engine = (app.cardProcessor as SandboxProcessor).engine;

  const invitee = async () => {
    const member = await createMember(db, alpha, { gate: 'onboarding', firstName: 'Lena' });
    const uid = await createOnboarding(db, alpha, member.id, plans[1]!.id);
    return { member, uid, dealId: plans[1]!.deal_id, link: `uid=${uid}&dealId=${plans[1]!.deal_id}` };
  };
  const form = async (url: string, cookie: string, fields: Record<string, string>, token: string) =>
    app.inject({ method: 'POST', url, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }, payload: new URLSearchParams({ _csrf: token, ...fields }).toString() });
  /** What the hosted page does once the card is taken: back to our return address, signed. */
  const returnFrom = async (hosted: string, number: string) => {
    const address = new URL(hosted);
    const state = address.searchParams.get('state')!;
    const back = new URL(address.searchParams.get('return')!);
    const token = await cardToken(app, alpha, number);
    back.searchParams.set('token', token);
    back.searchParams.set('state', state);
    back.searchParams.set('signature', engine.sign(token, state));
    return `${back.pathname}${back.search}`;
  };

  await t.test('a form without a token goes to the hosted page once the terms are accepted; the return pays', async (t) => {
    const inv = await invitee();
    const jar = await csrfFor(app, '', `/get-started/payment?${inv.link}`);
    const page = await app.inject({ url: `/get-started/payment?${inv.link}`, headers: { cookie: jar.cookie, accept: 'text/html' } });
    t.match(page.body, 'data-card-form', 'the shared card form');
    t.notMatch(page.body, /name="(number|cvv)"/, 'no card inputs on our page');
    t.match(page.body, 'Pay $5,400');

    const noTerms = await form('/get-started/payment', jar.cookie, { uid: inv.uid, dealId: inv.dealId, token: '' }, jar.token);
    t.equal(noTerms.statusCode, 400);
    t.match(noTerms.body, 'You Must Accept the Terms and Conditions');

    // Should the provider return a card taken without the terms (a state sealed unticked), the page it
    // returns to says so by the checkbox, keeps the plan, and charges nothing.
    const unticked = sealState(app, {
      communityId: alpha.id,
      purpose: 'onboarding',
      idempotencyKey: `onboarding:${inv.uid}:0`,
      returnPath: '/get-started/payment/return',
      data: { uid: inv.uid, dealId: inv.dealId, planId: String(plans[1]!.id), acceptedTerms: '0' },
    });
    const cardTaken = await cardToken(app, alpha, CARDS.visa);
    const untickedBack = await app.inject({
      url: `/get-started/payment/return?${new URLSearchParams({ token: cardTaken, state: unticked, signature: engine.sign(cardTaken, unticked) })}`,
      headers: { cookie: jar.cookie, accept: 'text/html' },
    });
    t.equal(untickedBack.statusCode, 400);
    t.match(untickedBack.body, /<input type="checkbox" id="accepted-terms"[^>]*aria-invalid="true" aria-describedby="accepted-terms-error"/);
    t.match(untickedBack.body, '<p class="field-error" id="accepted-terms-error">You Must Accept the Terms and Conditions</p>');
    t.match(untickedBack.body, `name="planId" value="${plans[1]!.id}"`, 'the plan is kept');
    t.match(untickedBack.body, 'Pay $5,400');
    t.equal((await db.selectFrom('payment_ledger').select('id').where('user_id', '=', inv.member.id).execute()).length, 0, 'nothing charged');

    const go = await form('/get-started/payment', jar.cookie, { uid: inv.uid, dealId: inv.dealId, acceptedTerms: 'on', token: '' }, jar.token);
    t.equal(go.statusCode, 303, 'to the hosted page');
    const hosted = go.headers.location as string;
    t.match(hosted, /state=/);
    t.match(new URL(hosted).searchParams.get('return'), /\/get-started\/payment\/return$/);

    // A refused card comes back to the step with the card error, the terms still ticked.
    const refused = await app.inject({ url: await returnFrom(hosted, CARDS.chargeDecline), headers: { cookie: jar.cookie, accept: 'text/html' } });
    t.equal(refused.statusCode, 400);
    t.match(refused.body, 'Your card was declined. Please use another card.');
    t.match(refused.body, /id="accepted-terms"[^>]*checked=""/);

    const again = await form('/get-started/payment', jar.cookie, { uid: inv.uid, dealId: inv.dealId, acceptedTerms: 'on', token: '' }, jar.token);
    const back = await returnFrom(again.headers.location as string, CARDS.visa);
    const paid = await app.inject({ url: back, headers: { cookie: jar.cookie, accept: 'text/html' } });
    t.equal(paid.statusCode, 303);
    t.equal(paid.headers.location, `/get-started/password?${inv.link}`);
    // The same return again (a reload, the back button) charges nothing more.
    const reload = await app.inject({ url: back, headers: { cookie: jar.cookie, accept: 'text/html' } });
    t.equal(reload.statusCode, 303);
    const rows = await db.selectFrom('payment_ledger').select(['status', 'amount_cents']).where('user_id', '=', inv.member.id).where('kind', '=', 'charge').execute();
    t.same(rows.filter((r) => r.status === 'succeeded').map((r) => r.amount_cents), [540000], 'one charge of the 24-month dues');
  });

  await t.test('a forged, altered or other community return is refused (400) and charges nothing', async (t) => {
    const inv = await invitee();
    const session = await signIn(app, inv.member, alpha, ['MEMBER'], 'onboarding');
    const jar = await csrfFor(app, session.cookie, '/get-started/payment');
    const go = await form('/get-started/payment', jar.cookie, { acceptedTerms: 'on' }, jar.token);
    t.equal(go.statusCode, 303);
    const good = new URL(`http://x${await returnFrom(go.headers.location as string, CARDS.visa)}`);
    const forged = new URL(good);
    forged.searchParams.set('signature', 'AAAA');
    const res = await app.inject({ url: `${forged.pathname}${forged.search}`, headers: { cookie: jar.cookie, accept: 'text/html' } });
    t.equal(res.statusCode, 400, 'a wrong signature');
    const onBeta = await app.inject({ url: `${good.pathname}${good.search}`, headers: { host: 'beta.test', accept: 'text/html' } });
    t.equal(onBeta.statusCode, 400, 'on another community');
    const hostile = await app.inject({ url: '/get-started/payment/return?token=%00&state=%00.%00&signature=x', headers: { accept: 'text/html' } });
    t.equal(hostile.statusCode, 400, 'hostile values');
    t.equal((await db.selectFrom('payment_ledger').select('id').where('user_id', '=', inv.member.id).where('kind', '=', 'charge').execute()).length, 0);
    const ok = await app.inject({ url: `${good.pathname}${good.search}`, headers: { cookie: jar.cookie, accept: 'text/html' } });
    t.equal(ok.statusCode, 303, 'the genuine return pays');
    t.equal(ok.headers.location, '/get-started/password', 'a signed-in member needs no link');
  });

  await t.test('hostile form input on the steps is a 4xx with the message, never a 5xx', async (t) => {
    const inv = await invitee();
    const session = await signIn(app, inv.member, alpha, ['MEMBER'], 'onboarding');
    const jar = await csrfFor(app, session.cookie, '/get-started/payment');
    const pay = await form('/get-started/payment', jar.cookie, { acceptedTerms: 'on', token: await cardToken(app, alpha, CARDS.visa) }, jar.token);
    t.equal(pay.headers.location, '/get-started/password');
    const nul = await form('/get-started/password', jar.cookie, { username: 'bad\u0000name', password: 'Onboard-Me-42', confirm: 'Onboard-Me-42' }, jar.token);
    t.equal(nul.statusCode, 400, 'a NUL byte in the username');
    t.match(nul.body, 'field-error');
    const huge = await form('/get-started/password', jar.cookie, { username: 'u'.repeat(500_000), password: 'Onboard-Me-42', confirm: 'Onboard-Me-42' }, jar.token);
    t.ok(huge.statusCode >= 400 && huge.statusCode < 500, `a huge username is a 4xx (${huge.statusCode})`);
    const badToken = await form('/get-started/payment', jar.cookie, { acceptedTerms: 'on', token: 'tok\u0001' }, jar.token);
    t.ok(badToken.statusCode >= 300 && badToken.statusCode < 500, `a hostile token after paying is not a 5xx (${badToken.statusCode})`);
    const made = await form('/get-started/password', jar.cookie, { username: `hostile.${inv.member.id}`, password: 'Onboard-Me-42', confirm: 'Onboard-Me-42' }, jar.token);
    t.equal(made.statusCode, 303);
    // The password step started a new session (the old one ended): the browser keeps the new cookie.
    const cookie = `${/_csrf=[^;]+/.exec(jar.cookie)![0]}; auth=${made.cookies.find((c) => c.name === 'auth')!.value}`;
    const profile = await form('/get-started/profile', cookie, { jobTitle: 'CEO\u0000', companyName: 'x'.repeat(100_000), location: '' }, jar.token);
    t.equal(profile.statusCode, 400);
    t.match(profile.body, 'field-error');
    const ep = await app.inject({ url: '/get-started/ep-landing', headers: { cookie, accept: 'text/html' } });
    t.equal(ep.headers.location, '/get-started/profile', 'no expert panels: their steps send on to the current step');
    const unknown = await app.inject({ url: '/get-started/nope', headers: { cookie, accept: 'text/html' } });
    t.equal(unknown.statusCode, 404);
    const address = await form('/get-started/address', cookie, { street: '1 Main St', city: 'Austin', postalCode: '78701', country: 'US' }, jar.token);
    t.equal(address.headers.location, '/get-started/profile', 'no address step in this community');
  });
});
