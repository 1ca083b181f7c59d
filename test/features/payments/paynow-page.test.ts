import t from 'tap';
import { saveCard } from '#src/features/payments/ledger.ts';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { CARDS, cardToken, enablePayments } from '#test/helpers/payments.ts';
import { createSubscription } from '#test/helpers/paynow.ts';

t.test('the pay-now page and the dunning page', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', auth_background_image: 'img/summit-background.svg', auth_logo: 'img/summit-logo.svg' });
  const { app } = await startApp(t, db);
  await enablePayments(db, alpha);

  let n = 0;
  const ip = () => `198.51.100.${(n++ % 250) + 1}`;
  const open = (url: string, cookie = '', remoteAddress = ip()) => app.inject({ method: 'GET', url, remoteAddress, headers: { accept: 'text/html', cookie } });
  /** The page's form, posted as the browser would (its CSRF cookie and field). */
  async function submit(url: string, fields: Record<string, string>, cookie = '') {
    const page = await open(url, cookie);
    const token = /<meta name="csrf-token" content="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const csrf = page.cookies.find((c) => c.name === '_csrf');
    const jar = [cookie, csrf ? `_csrf=${csrf.value}` : ''].filter(Boolean).join('; ');
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    return app.inject({
      method: 'POST',
      url: fields.action ?? '/pay-now',
      remoteAddress: ip(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar, accept: 'text/html' },
      payload: new URLSearchParams({ _csrf: token, idempotencyKey: key, ...fields }).toString(),
    });
  }

  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Okafor' });
  const sub = await createSubscription(db, alpha, ada.id, { outstandingCents: 600000, renewsAt: new Date('2027-06-01T00:00:00Z') });
  const link = `/pay-now?userId=${ada.id}&subscriptionId=${encodeURIComponent(sub)}`;

  await t.test('the form view shows the community background and logo, and only the spec’s facts', async (t) => {
    const res = await open(link);
    t.equal(res.statusCode, 200);
    t.match(res.body, /class="paynow-bg" src="\/static\/img\/summit-background.svg" alt=""/);
    t.match(res.body, /class="paynow-logo" src="\/static\/img\/summit-logo.svg"/);
    t.match(res.body, 'Ada Okafor');
    t.match(res.body, '$6,000.00');
    t.match(res.body, 'Jun 1, 2027');
    t.notMatch(res.body, ada.email, 'no email address');
    t.match(res.body, `action="${link.replace(/&/g, '&amp;')}"`, 'the form posts to the link’s own address');
    t.match(res.body, `name="subscriptionId" value="${sub}"`);
    t.match(res.body, /name="idempotencyKey" value="[^"]{16,}"/, 'the idempotency key, hidden in the form');
    t.match(res.body, 'and more...', 'at most 3 card logos, then and more...');
    t.notMatch(res.body, 'class="menu user-menu"', 'no signed-in shell');
  });

  await t.test('a wrong pair and an unknown one are the same error view', async (t) => {
    const strip = (html: string) => html.replace(/content="[^"]*"/g, '').replace(/nonce="[^"]*"/g, '').replace(/value="[^"]*"/g, '');
    const wrong = await open(`/pay-now?userId=${ada.id + 1}&subscriptionId=${encodeURIComponent(sub)}`);
    const unknown = await open(`/pay-now?userId=${ada.id}&subscriptionId=sub_nothing_here_0000`);
    const malformed = await open('/pay-now?userId=%00&subscriptionId[]=1');
    t.equal(wrong.statusCode, 400);
    t.equal(unknown.statusCode, 400);
    t.equal(malformed.statusCode, 400, 'hostile query: a 4xx');
    t.equal(strip(wrong.body), strip(unknown.body), 'the same page');
    t.match(wrong.body, app.t('payments.errors.invalidMembership'));
    t.match(wrong.body, 'concierge@alpha.example.com', 'the concierge email');
    t.match(wrong.body, 'tel:+15550100000', 'and phone');
  });

  await t.test('a refused card comes back inline in the form, with what was there', async (t) => {
    const res = await submit(link, { token: await cardToken(app, alpha, CARDS.decline), userId: String(ada.id), subscriptionId: sub });
    t.equal(res.statusCode, 400);
    t.match(res.body, app.t('payments.errors.declined'));
    t.match(res.body, /role="alert"/);
    t.match(res.body, '$6,000.00', 'still the form');
  });

  await t.test('a processor failure is the error view with try again and the concierge', async (t) => {
    const processor = app.cardProcessor as unknown as { charge: (...a: unknown[]) => Promise<unknown> };
    const charge = processor.charge;
    processor.charge = async () => ({ ok: false, code: 'processing', authorisation: null });
    try {
      const res = await submit(link, { token: await cardToken(app, alpha), userId: String(ada.id), subscriptionId: sub });
      t.equal(res.statusCode, 502);
      t.match(res.body, app.t('paynow.error.heading'));
      t.match(res.body, `href="${link.replace(/&/g, '&amp;')}"`, 'try again: the page again');
      t.match(res.body, 'mailto:concierge@alpha.example.com');
    } finally {
      processor.charge = charge;
    }
    const row = await db.selectFrom('subscriptions').select(['status', 'outstanding_cents']).where('id', '=', sub).executeTakeFirstOrThrow();
    t.same(row, { status: 'past_due', outstanding_cents: 600000 });
  });

  await t.test('without a CSRF token the form post is refused', async (t) => {
    const res = await app.inject({ method: 'POST', url: '/pay-now', remoteAddress: ip(), headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `userId=${ada.id}&subscriptionId=${sub}&idempotencyKey=abcdefghijklmnop&token=tok_x` });
    t.equal(res.statusCode, 403);
  });

  await t.test('without JavaScript: the provider’s hosted page takes the card and returns to pay', async (t) => {
    const jo = await createMember(db, alpha, { firstName: 'Jo' });
    const joSub = await createSubscription(db, alpha, jo.id, { outstandingCents: 31000 });
    const joLink = `/pay-now?userId=${jo.id}&subscriptionId=${encodeURIComponent(joSub)}`;
    const page = await open(joLink);
    const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(page.body)![1]!;
    const jar = `_csrf=${page.cookies.find((c) => c.name === '_csrf')!.value}`;
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(page.body)![1]!;
    const form = { _csrf: csrf, idempotencyKey: key, userId: String(jo.id), subscriptionId: joSub };
    const post = () => app.inject({ method: 'POST', url: '/pay-now', remoteAddress: ip(), headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar }, payload: new URLSearchParams(form).toString() });
    const away = await post();
    t.equal(away.statusCode, 303);
    const hosted = new URL(String(away.headers.location));
    t.match(hosted.pathname, /^\/sandbox-pay\/alpha\/hosted$/, 'the provider’s hosted page');
    const hostedPage = await open(`${hosted.pathname}${hosted.search}`, jar);
    t.equal(hostedPage.statusCode, 200);
    const hostedCsrf = /name="_csrf" value="([^"]+)"/.exec(hostedPage.body)![1]!;
    const action = (/<form[^>]*action="([^"]+)"/.exec(hostedPage.body)?.[1] ?? '').replace(/&amp;/g, '&');
    t.match(action, /^\/sandbox-pay\//, 'the hosted page’s form');
    const card = { _csrf: hostedCsrf, firstName: 'Jo', lastName: 'Member', number: CARDS.visa, cvv: '123', month: '12', year: String(new Date().getUTCFullYear() + 2), zip: '10001' };
    const back = await app.inject({ method: 'POST', url: action, remoteAddress: ip(), headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar }, payload: new URLSearchParams(card).toString() });
    t.equal(back.statusCode, 303, 'the hosted page returns to us');
    const ret = new URL(String(back.headers.location), 'http://localhost');
    t.equal(ret.pathname, '/pay-now/return');
    const tampered = await open(`${ret.pathname}${ret.search.replace(/signature=[^&]+/, 'signature=forged')}`);
    t.equal(tampered.statusCode, 400, 'a forged return is refused');
    const paid = await open(`${ret.pathname}${ret.search}`);
    t.equal(paid.statusCode, 303);
    t.equal(paid.headers.location, joLink);
    const replay = await open(`${ret.pathname}${ret.search}`);
    t.equal(replay.statusCode, 303, 'the same return again: the same payment');
    const again = await post();
    t.equal(again.statusCode, 200, 'a double submit of the form after paying: marked paid');
    t.match(again.body, app.t('paynow.complete.heading'));
    const charges = await db.selectFrom('payment_ledger').select('id').where('subscription_id', '=', joSub).where('kind', '=', 'charge').where('status', '=', 'succeeded').execute();
    t.equal(charges.length, 1, 'one charge');
    t.match((await open(joLink)).body, app.t('paynow.complete.heading'));
  });

  await t.test('paying: 303 to the page, which shows payment complete with its two links', async (t) => {
    const res = await submit(link, { token: await cardToken(app, alpha), userId: String(ada.id), subscriptionId: sub });
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, link);
    const done = await open(link);
    t.equal(done.statusCode, 200);
    t.match(done.body, app.t('paynow.complete.heading'));
    t.match(done.body, 'href="/settings/billing"');
    t.match(done.body, /<a class="button" href="\/">/);
  });

  await t.test('no balance due', async (t) => {
    const cy = await createMember(db, alpha);
    const paid = await createSubscription(db, alpha, cy.id, { status: 'active', outstandingCents: 0 });
    const res = await open(`/pay-now?userId=${cy.id}&subscriptionId=${paid}`);
    t.equal(res.statusCode, 200);
    t.match(res.body, app.t('paynow.noBalance.heading'));
  });

  await t.test('the page is limited per address', async (t) => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await open(link, '', '203.0.113.50')).statusCode);
    t.equal(statuses.filter((s) => s === 200).length, 30);
    t.equal(statuses.at(-1), 429);
  });

  await t.test('a past-due member is shown the dunning page once per session after sign-in', async (t) => {
    const dee = await createMember(db, alpha, { firstName: 'Dee' });
    await createSubscription(db, alpha, dee.id, { outstandingCents: 25000 });
    const saved = await saveCard(app, { community: alpha, userId: dee.id, actorId: dee.id, token: await cardToken(app, alpha), idempotencyKey: `save-${dee.id}-default` });
    t.ok(saved.ok);
    const { cookie } = await signIn(app, dee, alpha);
    const first = await open('/settings', cookie);
    t.equal(first.statusCode, 303);
    t.equal(first.headers.location, '/billing/overdue?next=%2Fsettings');
    const mark = first.cookies.find((c) => c.name === 'dunning');
    t.ok(mark, 'the session is marked');
    const jar = `${cookie}; dunning=${mark!.value}`;
    const overdue = await open('/billing/overdue?next=%2Fsettings', jar);
    t.equal(overdue.statusCode, 200);
    t.match(overdue.body, '$250.00');
    t.match(overdue.body, 'Visa ending 4242', 'pay with the default card');
    t.match(overdue.body, /href="\/settings">/, 'remind me later: on to the page');
    const again = await open('/settings', jar);
    t.equal(again.statusCode, 200, 'not again in this session');
    const other = await open('/', (await signIn(app, dee, alpha)).cookie);
    t.equal(other.statusCode, 303, 'a new sign-in: shown again');

    const paid = await submit('/billing/overdue?next=%2Fsettings', { action: '/billing/overdue/default', next: '/settings' }, jar);
    t.equal(paid.statusCode, 303);
    t.equal(paid.headers.location, '/settings?alert=paynow-paid');
    const row = await db.selectFrom('subscriptions').select(['status', 'outstanding_cents']).where('user_id', '=', dee.id).executeTakeFirstOrThrow();
    t.same(row, { status: 'active', outstanding_cents: 0 });
    const after = await open('/', (await signIn(app, dee, alpha)).cookie);
    t.equal(after.statusCode, 200, 'paid: no more dunning page');
  });

  await t.test('a member in good standing is never sent there', async (t) => {
    const eve = await createMember(db, alpha);
    await createSubscription(db, alpha, eve.id, { status: 'active', outstandingCents: 0 });
    const res = await open('/settings', (await signIn(app, eve, alpha)).cookie);
    t.equal(res.statusCode, 200);
    const api = await app.inject({ method: 'GET', url: '/settings', headers: { accept: 'application/json', cookie: (await signIn(app, ada, alpha)).cookie } });
    t.not(api.headers.location, '/billing/overdue', 'JSON clients are never redirected');
  });
});
