import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';
import { CARDS, cardToken, enablePayments } from '#test/helpers/payments.ts';
import { createOnboarding } from '#src/features/payments/onboarding/progress.ts';
import type { Community } from '#src/db/types.ts';
import type { RawDb as Db } from '#src/db/index.ts';

const GOOD_PASSWORD = 'Onboard-Me-42';

/** A browser without JavaScript: keeps cookies, posts forms with the page's CSRF token. */
class FormBrowser {
  cookies = new Map<string, string>();
  token = '';
  constructor(
    readonly app: FastifyInstance,
    readonly host?: string,
  ) {}
  get jar() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  private keep(res: { cookies: Array<{ name: string; value: string; maxAge?: number; expires?: Date }> }) {
    for (const c of res.cookies) {
      if (c.value === '' || c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now())) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }
  async get(url: string) {
    const res = await this.app.inject({ url, headers: { cookie: this.jar, accept: 'text/html', ...(this.host ? { host: this.host } : {}) } });
    this.keep(res);
    const token = /<meta name="csrf-token" content="([^"]+)"/.exec(res.body)?.[1];
    if (token) this.token = token;
    return res;
  }
  async post(url: string, fields: Record<string, string>) {
    if (!this.token) await this.get('/');
    const res = await this.app.inject({
      method: 'POST',
      url,
      headers: { cookie: this.jar, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', ...(this.host ? { host: this.host } : {}) },
      payload: new URLSearchParams({ _csrf: this.token, ...fields }).toString(),
    });
    this.keep(res);
    return res;
  }
}

async function invite(db: Db, community: Community, plan: { id: number; deal_id: string }) {
  const member = await createMember(db, community, { gate: 'onboarding', firstName: 'Amara', lastName: 'Okafor' });
  const uid = await createOnboarding(db, community, member.id, plan.id);
  return { member, uid, dealId: plan.deal_id, link: `uid=${encodeURIComponent(uid)}&dealId=${encodeURIComponent(plan.deal_id)}` };
}

const charges = (db: Db, userId: number) => db.selectFrom('payment_ledger').selectAll().where('user_id', '=', userId).where('kind', '=', 'charge').execute();

t.test('onboarding', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha', link_terms: 'https://alpha.example.com/terms' });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'] });
  const { app } = await startApp(t, db, { clock });
  const { plans } = await enablePayments(db, alpha);
  const [twelve, twentyFour] = plans as [(typeof plans)[number], (typeof plans)[number]];
  const betaPlans = (await enablePayments(db, beta)).plans;

  await t.test('GET /rest/get-started with an invitation link answers the onboarding data in cents', async (t) => {
    const inv = await invite(db, alpha, twentyFour);
    const res = await app.inject({ url: `/rest/get-started?${inv.link}` });
    t.equal(res.statusCode, 200);
    const data = res.json();
    t.match(data, { hasPaid: false, hasCredentials: false, onboardingComplete: false, greetingName: 'Amara', email: inv.member.email, showAddressStep: false, disabled: false, userId: inv.member.id, clientToken: null, currentStep: 'payment' });
    t.match(data.payment, { name: '24-month membership', dues: 540000, initiationFee: 0, savings: 210000, amountDue: 540000, currency: 'USD', termMonths: 24, publicKey: 'pk_sandbox_alpha_test' });
    t.ok(data.payment.serverHost, 'the provider host');
    t.equal(data.payment.renewsAt, '2027-11-21T12:00:00.000Z', 'yearly dues: renews a year on');
  });

  await t.test('a bad, unknown or other community link is the invalid-membership answer (400), page and REST', async (t) => {
    const inv = await invite(db, alpha, twelve);
    for (const q of ['uid=nope&dealId=x', `uid=${inv.uid}&dealId=unknown-deal`, `uid=${inv.uid}&dealId=${betaPlans[0]!.deal_id}`, `uid=${'a'.repeat(30)}&dealId=${twelve.deal_id}`, `uid=${inv.uid}`]) {
      const rest = await app.inject({ url: `/rest/get-started?${q}` });
      t.equal(rest.statusCode, 400, `REST ${q}`);
      t.equal(rest.json().error.code, 'Payments.InvalidMembership');
      const page = await app.inject({ url: `/get-started?${q}`, headers: { accept: 'text/html' } });
      t.equal(page.statusCode, 400, `page ${q}`);
      t.match(page.body, 'This membership link is not valid');
    }
    const other = await app.inject({ url: `/rest/get-started?${inv.link}`, headers: { host: 'beta.test' } });
    t.equal(other.statusCode, 400, "another community's host does not know the link");
    const hostile = await app.inject({ url: `/rest/get-started?uid=%00%01&dealId=%00` });
    t.equal(hostile.statusCode, 400, 'control characters: 4xx');
    const none = await app.inject({ url: '/rest/get-started' });
    t.equal(none.statusCode, 401, 'neither a session nor a link');
  });

  await t.test('the gate: a member in onboarding is sent to /get-started, then resumes at the first unfinished step', async (t) => {
    const inv = await invite(db, alpha, twelve);
    const session = await signIn(app, inv.member, alpha, ['MEMBER'], 'onboarding');
    const members = await app.inject({ url: '/members', headers: { cookie: session.cookie, accept: 'text/html' } });
    t.equal(members.statusCode, 303);
    t.equal(members.headers.location, '/get-started');
    const start = await app.inject({ url: '/get-started', headers: { cookie: session.cookie, accept: 'text/html' } });
    t.equal(start.statusCode, 303);
    t.equal(start.headers.location, '/get-started/payment');
    const later = await app.inject({ url: '/get-started/profile', headers: { cookie: session.cookie, accept: 'text/html' } });
    t.equal(later.headers.location, '/get-started/payment', 'a later step sends back to the current one');
    const page = await app.inject({ url: '/get-started/payment', headers: { cookie: session.cookie, accept: 'text/html' } });
    t.equal(page.statusCode, 200);
    t.match(page.body, '12-month membership');
    t.match(page.body, '$6,000 per year', 'dues as a fee');
    t.match(page.body, '$1,500', 'initiation fee');
    t.match(page.body, '$7,500', 'amount due = dues + fee');
    t.match(page.body, 'Nov 21, 2027', 'renews a year on');
    t.match(page.body, 'href="https://alpha.example.com/terms"', 'the terms link');
    const data = await app.inject({ url: '/rest/get-started', headers: { cookie: session.cookie } });
    t.equal(data.statusCode, 200, 'cookie client');
    t.equal(data.json().userId, inv.member.id);
    const bearer = await app.inject({ url: '/rest/get-started', headers: { authorization: `Bearer ${session.token}` } });
    t.equal(bearer.statusCode, 200, 'bearer client');
    t.equal(bearer.json().currentStep, 'payment');
    const stranger = await createMember(db, alpha);
    const strangerSession = await signIn(app, stranger, alpha);
    const notMine = await app.inject({ url: `/rest/get-started?${inv.link}`, headers: { cookie: strangerSession.cookie } });
    t.equal(notMine.statusCode, 400, "a signed-in member cannot use someone else's link");
    const inApp = await app.inject({ url: '/get-started', headers: { cookie: strangerSession.cookie, accept: 'text/html' } });
    t.equal(inApp.headers.location, '/', 'a member already in the app has nothing to onboard');
  });

  await t.test('JS off, from the link to complete: terms, a declined card then a good one, password, skip, complete', async (t) => {
    const inv = await invite(db, alpha, twelve);
    const b = new FormBrowser(app);
    const first = await b.get(`/get-started?${inv.link}`);
    t.equal(first.statusCode, 303);
    t.equal(first.headers.location, `/get-started/payment?${inv.link}`);
    const payment = await b.get(first.headers.location as string);
    t.equal(payment.statusCode, 200);
    t.match(payment.body, /name="uid" value="[^"]+"/, 'the form carries the link');

    const noTerms = await b.post('/get-started/payment', { uid: inv.uid, dealId: inv.dealId, token: await cardToken(app, alpha, CARDS.visa) });
    t.equal(noTerms.statusCode, 400);
    t.match(noTerms.body, 'You Must Accept the Terms and Conditions');
    t.match(noTerms.body, 'aria-describedby="accepted-terms-error"');
    t.equal((await charges(db, inv.member.id)).length, 0, 'nothing charged without the terms');

    const declined = await b.post('/get-started/payment', { uid: inv.uid, dealId: inv.dealId, acceptedTerms: 'on', token: await cardToken(app, alpha, CARDS.chargeDecline) });
    t.equal(declined.statusCode, 400, 'a refused card is a 400');
    t.match(declined.body, 'Your card was declined. Please use another card.');
    t.match(declined.body, /id="accepted-terms"[^>]*checked=""/, 'the terms tick is kept');

    const good = await cardToken(app, alpha, CARDS.visa);
    const paid = await b.post('/get-started/payment', { uid: inv.uid, dealId: inv.dealId, acceptedTerms: 'on', token: good });
    t.equal(paid.statusCode, 303);
    t.equal(paid.headers.location, `/get-started/password?${inv.link}`);
    const again = await b.post('/get-started/payment', { uid: inv.uid, dealId: inv.dealId, acceptedTerms: 'on', token: await cardToken(app, alpha, CARDS.visa) });
    t.equal(again.statusCode, 303, 'paying again goes on to the next step');
    const rows = await charges(db, inv.member.id);
    t.equal(rows.filter((r) => r.status === 'succeeded').length, 1, 'one charge succeeded');
    t.equal(rows.filter((r) => r.status === 'declined').length, 1, 'the declined one is in the ledger');
    t.equal(rows.find((r) => r.status === 'succeeded')!.amount_cents, 750000, 'dues + initiation fee');
    const sub = await db.selectFrom('subscriptions').selectAll().where('user_id', '=', inv.member.id).executeTakeFirstOrThrow();
    t.match(sub, { status: 'active', plan_id: twelve.id, outstanding_cents: 0 });
    t.match(sub.id, /^sub_[A-Za-z0-9_-]{24}$/, 'an unguessable subscription id');
    t.equal(new Date(sub.renews_at!).toISOString(), '2027-11-21T12:00:00.000Z');
    const statement = await db.selectFrom('statements').selectAll().where('user_id', '=', inv.member.id).executeTakeFirstOrThrow();
    t.equal(statement.kind, 'dues');
    t.same(statement.items.map((i) => i.amountCents), [600000, 150000], 'items: dues and the initiation fee');

    const backToPayment = await b.get(`/get-started/payment?${inv.link}`);
    t.equal(backToPayment.headers.location, `/get-started/password?${inv.link}`, 'a finished payment cannot be redone');

    const weak = await b.post('/get-started/password', { uid: inv.uid, dealId: inv.dealId, username: 'amara.okafor', password: 'short', confirm: 'short' });
    t.equal(weak.statusCode, 400);
    t.match(weak.body, 'value="amara.okafor"', 'the username is kept');
    const other = await createMember(db, beta);
    await db.updateTable('users').set({ username: 'Taken.Name' }).where('id', '=', other.id).execute();
    const taken = await b.post('/get-started/password', { uid: inv.uid, dealId: inv.dealId, username: 'taken.name', password: GOOD_PASSWORD, confirm: GOOD_PASSWORD });
    t.equal(taken.statusCode, 409);
    t.match(taken.body, 'That username is taken.');
    const mismatch = await b.post('/get-started/password', { uid: inv.uid, dealId: inv.dealId, username: 'amara.okafor', password: GOOD_PASSWORD, confirm: 'Other-Pass-99' });
    t.equal(mismatch.statusCode, 400);
    const made = await b.post('/get-started/password', { uid: inv.uid, dealId: inv.dealId, username: 'amara.okafor', password: GOOD_PASSWORD, confirm: GOOD_PASSWORD });
    t.equal(made.statusCode, 303);
    t.equal(made.headers.location, '/get-started/profile', 'signed in: the link is no longer needed');
    t.ok(b.cookies.get('auth'), 'signed in');

    const profilePage = await b.get('/get-started/profile');
    t.equal(profilePage.statusCode, 200);
    t.match(profilePage.body, 'Skip for now');
    const badProfile = await b.post('/get-started/profile', { jobTitle: 'x'.repeat(200), companyName: 'Okafor Ventures', location: 'Lagos' });
    t.equal(badProfile.statusCode, 400);
    t.match(badProfile.body, 'value="Okafor Ventures"', 'typed values kept');
    const profile = await b.post('/get-started/profile', { jobTitle: 'Founder', companyName: 'Okafor Ventures', location: 'Lagos, Nigeria' });
    t.equal(profile.headers.location, '/get-started/contact');
    const m = await db.selectFrom('memberships').selectAll().where('user_id', '=', inv.member.id).executeTakeFirstOrThrow();
    t.equal(m.job_title, 'Founder');

    // Leaving and coming back resumes at the first unfinished step.
    const resume = await b.get('/get-started');
    t.equal(resume.headers.location, '/get-started/contact');

    const badPhone = await b.post('/get-started/contact', { countryCode: 'US', number: '123' });
    t.equal(badPhone.statusCode, 400);
    t.match(badPhone.body, 'Please enter a valid phone number.');
    const skipContact = await b.post('/get-started/contact/skip', {});
    t.equal(skipContact.headers.location, '/get-started/team');
    const team = await b.post('/get-started/team', { type: 'pr', name: 'Nadia Petrova', email: 'nadia@example.com', countryCode: 'US', number: '' });
    t.equal(team.statusCode, 303);
    t.equal(team.headers.location, '/get-started/complete');
    const contact = await db.selectFrom('support_contacts').selectAll().where('user_id', '=', inv.member.id).executeTakeFirstOrThrow();
    t.match(contact, { type: 'pr', name: 'Nadia Petrova', community_id: alpha.id });

    const complete = await b.get('/get-started/complete');
    t.equal(complete.statusCode, 200);
    t.notMatch(complete.body, /http-equiv="refresh"/, 'no redirect that cannot be stopped (WCAG 2.2.1): without JavaScript the links lead on');
    t.match(complete.body, 'Taking you to the home page in 5 seconds.');
    t.match(complete.body, 'href="/articles"');
    const row = await db.selectFrom('onboardings').selectAll().where('id', '=', inv.uid).executeTakeFirstOrThrow();
    t.ok(row.completed_at && row.paid_at && row.credentials_at && row.profile_at && row.contact_at && row.team_at, 'each step stamped');
    const gate = await db.selectFrom('memberships').select('gate').where('user_id', '=', inv.member.id).executeTakeFirstOrThrow();
    t.equal(gate.gate, 'app', 'the gate is open');
    const membersPage = await b.get('/members');
    t.equal(membersPage.statusCode, 200, 'the same session reaches the app at once');
    const onboardingAgain = await b.get('/get-started/payment');
    t.equal(onboardingAgain.headers.location, '/get-started/complete');
  });

  await t.test('REST: a cookie-less link client pays and creates its password; a double submit charges once', async (t) => {
    const inv = await invite(db, alpha, twentyFour);
    const pay = (token: string, extra: Record<string, unknown> = {}) =>
      app.inject({ method: 'POST', url: `/rest/get-started/payment?${inv.link}`, payload: { dealId: inv.dealId, planId: twentyFour.id, email: inv.member.email, paymentToken: token, paymentNonce: 'n-1', paymentEmail: inv.member.email, pricePointId: twentyFour.price_point_id, ...extra } });
    const declined = await pay(await cardToken(app, alpha, CARDS.decline));
    t.equal(declined.statusCode, 400);
    t.match(declined.json().error, { category: 'Payment' }, 'tagged as a payment error');
    const terms = await pay(await cardToken(app, alpha, CARDS.visa), { acceptedTerms: false });
    t.equal(terms.statusCode, 400);
    t.match(terms.json().error.fields.acceptedTerms, { code: 900 });
    const [a, b2] = await Promise.all([pay(await cardToken(app, alpha, CARDS.visa)), pay(await cardToken(app, alpha, CARDS.mastercard))]);
    t.equal(a.statusCode, 200);
    t.equal(b2.statusCode, 200);
    t.equal(a.json().onboarding.hasPaid, true);
    const succeeded = (await charges(db, inv.member.id)).filter((r) => r.status === 'succeeded');
    t.equal(succeeded.length, 1, 'two racing submits with two cards: one charge');
    t.equal(succeeded[0]!.amount_cents, 540000);

    const mismatch = await pay(await cardToken(app, alpha, CARDS.visa), { pricePointId: twelve.price_point_id });
    t.equal(mismatch.statusCode, 200, 'once paid, the call answers the paid onboarding');
    const hostile = await app.inject({ method: 'POST', url: '/rest/get-started/password', payload: { uid: inv.uid, dealId: inv.dealId, username: 'a\u0000b', password: GOOD_PASSWORD } });
    t.equal(hostile.statusCode, 400);
    const malformed = await app.inject({ method: 'POST', url: '/rest/get-started/password', headers: { 'content-type': 'application/json' }, payload: '{"uid":' });
    t.equal(malformed.statusCode, 400, 'malformed JSON');
    const huge = await app.inject({ method: 'POST', url: '/rest/get-started/password', payload: { uid: inv.uid, dealId: inv.dealId, username: 'x'.repeat(100_000), password: GOOD_PASSWORD } });
    t.equal(huge.statusCode, 400);
    const made = await app.inject({ method: 'POST', url: '/rest/get-started/password', payload: { uid: inv.uid, dealId: inv.dealId, username: 'rest.invitee', password: GOOD_PASSWORD } });
    t.equal(made.statusCode, 200);
    const login = made.json();
    t.ok(login.authToken, 'the bearer token for an API client');
    t.equal(login.onboarding.currentStep, 'profile');
    const twice = await app.inject({ method: 'POST', url: '/rest/get-started/password', payload: { uid: inv.uid, dealId: inv.dealId, username: 'rest.invitee2', password: GOOD_PASSWORD } });
    t.equal(twice.statusCode, 409, 'credentials once');
    t.equal(twice.json().error.category, 'Payment');
    const asBearer = await app.inject({ url: '/rest/get-started', headers: { authorization: `Bearer ${login.authToken}` } });
    t.equal(asBearer.statusCode, 200);
    t.equal(asBearer.json().hasCredentials, true);
  });

  await t.test('REST: a signed-in cookie client needs the CSRF token; a bearer client does not', async (t) => {
    const inv = await invite(db, alpha, twelve);
    const session = await signIn(app, inv.member, alpha, ['MEMBER'], 'onboarding');
    const payload = { paymentToken: await cardToken(app, alpha, CARDS.visa), acceptedTerms: true };
    const noCsrf = await app.inject({ method: 'POST', url: '/rest/get-started/payment', headers: { cookie: session.cookie }, payload });
    t.equal(noCsrf.statusCode, 403, 'cookie without CSRF refused');
    const jar = await csrfFor(app, session.cookie, '/get-started/payment');
    const withCsrf = await app.inject({ method: 'POST', url: '/rest/get-started/payment', headers: { cookie: jar.cookie, 'x-csrf-token': jar.token }, payload });
    t.equal(withCsrf.statusCode, 200, 'cookie + CSRF');
    t.equal(withCsrf.json().onboarding.currentStep, 'password');

    const inv2 = await invite(db, alpha, twelve);
    const s2 = await signIn(app, inv2.member, alpha, ['MEMBER'], 'onboarding');
    const bearer = await app.inject({ method: 'POST', url: '/rest/get-started/payment', headers: { authorization: `Bearer ${s2.token}` }, payload: { paymentToken: await cardToken(app, alpha, CARDS.amex), acceptedTerms: true } });
    t.equal(bearer.statusCode, 200, 'bearer');
    t.equal(bearer.json().onboarding.hasPaid, true);
  });

  await t.test('the address step when the community asks for it; the shutdown step when onboarding is off', async (t) => {
    const gamma = await createCommunity(db, { code: 'gamma', hosts: ['gamma.test'] });
    const gammaPlans = (await enablePayments(db, gamma, { showAddressStep: true })).plans;
    const inv = await invite(db, gamma, gammaPlans[0]!);
    const session = await signIn(app, inv.member, gamma, ['MEMBER'], 'onboarding');
    const b = new FormBrowser(app, 'gamma.test');
    b.cookies.set('auth', session.token.toString());
    await b.get('/get-started/payment');
    t.equal((await b.post('/get-started/payment', { acceptedTerms: 'on', token: await cardToken(app, gamma, CARDS.visa) })).headers.location, '/get-started/password');
    t.equal((await b.post('/get-started/password', { username: 'gamma.member', password: GOOD_PASSWORD, confirm: GOOD_PASSWORD })).headers.location, '/get-started/profile');
    for (const step of ['profile', 'contact', 'team']) await b.post(`/get-started/${step}/skip`, {});
    const address = await b.get('/get-started');
    t.equal(address.headers.location, '/get-started/address');
    const bad = await b.post('/get-started/address', { street: '1 Main St', city: '', region: '', postalCode: '78701', country: 'United States' });
    t.equal(bad.statusCode, 400);
    t.match(bad.body, 'Please enter your city.');
    t.match(bad.body, 'value="1 Main St"');
    const ok = await b.post('/get-started/address', { street: '1 Main St', city: 'Austin', region: 'TX', postalCode: '78701', country: 'United States' });
    t.equal(ok.headers.location, '/get-started/complete');
    const row = await db.selectFrom('onboardings').select(['address', 'completed_at']).where('id', '=', inv.uid).executeTakeFirstOrThrow();
    t.same(row.address, { street: '1 Main St', city: 'Austin', region: 'TX', postalCode: '78701', country: 'United States' });
    t.ok(row.completed_at);

    const delta = await createCommunity(db, { code: 'delta', hosts: ['delta.test'], concierge_email: 'help@delta.example.com' });
    const deltaPlans = (await enablePayments(db, delta, { onboardingDisabled: true })).plans;
    const closed = await invite(db, delta, deltaPlans[0]!);
    const start = await app.inject({ url: `/get-started?${closed.link}`, headers: { host: 'delta.test', accept: 'text/html' } });
    t.equal(start.headers.location, `/get-started/shutdown?${closed.link}`);
    const shutdown = await app.inject({ url: start.headers.location as string, headers: { host: 'delta.test', accept: 'text/html' } });
    t.equal(shutdown.statusCode, 200);
    t.match(shutdown.body, 'help@delta.example.com');
    const data = await app.inject({ url: `/rest/get-started?${closed.link}`, headers: { host: 'delta.test' } });
    t.equal(data.json().disabled, true);
    const pay = await app.inject({ method: 'POST', url: `/rest/get-started/payment?${closed.link}`, headers: { host: 'delta.test' }, payload: { paymentToken: await cardToken(app, delta, CARDS.visa) } });
    t.equal(pay.statusCode, 409, 'no payment while onboarding is off');
  });

  await t.test('tenancy: a link works only on its own community, and steps touch only its rows', async (t) => {
    const inv = await invite(db, alpha, twelve);
    const onBeta = await app.inject({ method: 'POST', url: `/rest/get-started/payment?${inv.link}`, headers: { host: 'beta.test' }, payload: { paymentToken: await cardToken(app, beta, CARDS.visa) } });
    t.equal(onBeta.statusCode, 400);
    t.equal((await charges(db, inv.member.id)).length, 0);
  });
});
