import t from 'tap';
import sharp from 'sharp';
import { fixedClock } from '#src/core/clock.ts';
import type { RawDb } from '#src/db/index.ts';
import type { Community } from '#src/db/types.ts';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';

const html = { accept: 'text/html' };
const DAY = 86_400_000;

t.test('offers and benefits: members, staff, GraphQL, tenancy', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle', exec_link: 'https://example.com/exec' });
  const beta = await createCommunity(db, { code: 'beta', app_name: 'Beta Guild', hosts: ['beta.test'] });
  const clock = fixedClock('2026-11-21T12:00:00Z');
  const { app } = await startApp(t, db, { clock });
  const now = clock.now().getTime();

  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Standard' });
  const eve = await createMember(db, alpha, { firstName: 'Eve', lastName: 'Exec', companyName: 'Exec Co' });
  await db.updateTable('memberships').set({ membership_tier: 'Executive' }).where('user_id', '=', eve.id).execute();
  const staff = await createMember(db, alpha, { firstName: 'Sam', lastName: 'Staff', roles: ['ADMIN'] });
  const bea = await createMember(db, beta, { firstName: 'Bea', lastName: 'Beta' });

  const partner = async (c: Community, name: string) => (await db.insertInto('partners').values({ community_id: c.id, name, website: `https://example.com/${name.toLowerCase()}` }).returning('id').executeTakeFirstOrThrow()).id;
  type OfferOverrides = Partial<Parameters<ReturnType<RawDb['insertInto']>['values']>[0]> & Record<string, unknown>;
  const offer = async (c: Community, partnerId: number, values: OfferOverrides = {}) =>
    (
      await db
        .insertInto('offers')
        .values({ community_id: c.id, partner_id: partnerId, title: 'An offer', value_line: '10% off', category: 'software', redemption: 'code', code: 'CODE10', status: 'published', ...values } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  const ledgerly = await partner(alpha, 'Ledgerly');
  const skyway = await partner(alpha, 'Skyway');
  const betaPartner = await partner(beta, 'Betaco');
  const featured = await offer(alpha, ledgerly, { title: 'Featured bookkeeping', featured: true, position: 5, category: 'finance', code: 'LEDGER20' });
  const fillers: number[] = [];
  for (let i = 0; i < 13; i++) fillers.push(await offer(alpha, skyway, { title: `Flight perk ${i}`, category: 'travel', position: i }));
  const concierge = await offer(alpha, skyway, { title: 'Lounge access', redemption: 'concierge', code: null, category: 'travel', position: 50 });
  const link = await offer(alpha, ledgerly, { title: 'Bank link', redemption: 'link', code: null, link: 'https://example.com/bank', category: 'finance', position: 51 });
  const exec = await offer(alpha, skyway, { title: 'Platinum status', tier: 'exec', code: 'EXEC-PLAT', category: 'travel' });
  const expired = await offer(alpha, ledgerly, { title: 'Old dinner', starts_at: new Date(now - 30 * DAY), ends_at: new Date(now - DAY), code: 'OLD' });
  const upcoming = await offer(alpha, ledgerly, { title: 'Next month', starts_at: new Date(now + 2 * DAY), code: 'SOON' });
  const withdrawn = await offer(alpha, ledgerly, { title: 'Gone offer', status: 'withdrawn', code: 'GONE' });
  const draft = await offer(alpha, ledgerly, { title: 'Secret draft', status: 'draft', code: 'DRAFTY' });
  const betaOffer = await offer(beta, betaPartner, { title: 'Beta only perk', code: 'BETACODE' });

  const adaSession = await signIn(app, ada, alpha);
  const eveSession = await signIn(app, eve, alpha);
  const staffSession = await signIn(app, staff, alpha, ['ADMIN']);
  const get = (url: string, cookie: string, host?: string) => app.inject({ url, headers: { ...html, cookie, ...(host ? { host } : {}) } });
  const post = async (url: string, cookie: string, form: Record<string, string>) => {
    const c = await csrfFor(app, cookie, '/offers');
    return app.inject({ method: 'POST', url, headers: { ...html, cookie: c.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ ...form, _csrf: c.token }).toString() });
  };
  const gql = (url: string, query: string, variables: object, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  await t.test('the list: featured first, twelve a page, categories, search; EXEC only with the tier; never another community', async (t) => {
    const first = await get('/offers', adaSession.cookie);
    t.equal(first.statusCode, 200);
    t.same([...first.body.matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]), ['NotificationBell', 'Tracker'], "no island of the page's own (the shell's bell and page views only)");
    const titles = [...first.body.matchAll(/<h2 class="offer-title"><a href="\/offers\/(\d+)">([^<]+)<\/a>/g)].map((m) => m[2]);
    t.equal(titles[0], 'Featured bookkeeping', 'featured first');
    t.equal(titles.length, 12, 'twelve a page');
    t.notOk(titles.includes('Platinum status'), 'no EXEC offer for a member without the tier');
    for (const hidden of ['Old dinner', 'Next month', 'Gone offer', 'Secret draft', 'Beta only perk']) t.notMatch(first.body, hidden);
    const next = /href="(\/offers\?after=[^"]+)" rel="next"/.exec(first.body)?.[1];
    t.ok(next, 'a next page');
    const second = await get(next!.replace(/&amp;/g, '&'), adaSession.cookie);
    const more = [...second.body.matchAll(/<h2 class="offer-title"><a href="\/offers\/\d+">([^<]+)<\/a>/g)].map((m) => m[1]);
    t.same(more.filter((x) => titles.includes(x)), [], 'no offer twice');
    t.equal(titles.length + more.length, 16, 'every live offer once');
    t.match(second.body, 'Back to the first offers');

    const finance = await get('/offers?category=finance', adaSession.cookie);
    t.match(finance.body, 'Featured bookkeeping');
    t.match(finance.body, 'Bank link');
    t.notMatch(finance.body, 'Flight perk');
    const search = await get('/offers?q=lounge', adaSession.cookie);
    t.match(search.body, 'Lounge access');
    t.notMatch(search.body, 'Flight perk');
    const byPartner = await get('/offers?q=Ledger', adaSession.cookie);
    t.match(byPartner.body, 'Bank link', 'search finds the partner name');
    const wild = await get('/offers?q=_', adaSession.cookie);
    t.match(wild.body, 'No offers match', 'a _ is taken literally');

    const eveList = await get('/offers', eveSession.cookie);
    t.match(eveList.body, 'Platinum status', 'a member of the executive tier sees EXEC offers');
    const betaList = await get('/offers', (await signIn(app, bea, beta)).cookie, 'beta.test');
    t.match(betaList.body, 'Beta only perk');
    t.notMatch(betaList.body, 'Featured bookkeeping');
  });

  await t.test('hostile input is a 4xx, never a 500', async (t) => {
    t.equal((await get('/offers?after=not-a-cursor', adaSession.cookie)).statusCode, 400);
    t.equal((await get(`/offers?after=${Buffer.from('[1,2]').toString('base64url')}`, adaSession.cookie)).statusCode, 400);
    const long = await get(`/offers?q=${'x'.repeat(101)}`, adaSession.cookie);
    t.equal(long.statusCode, 400);
    t.match(long.body, 'Search with at most 100 characters', 'the message beside the search');
    t.match(long.body, `value="${'x'.repeat(101)}"`, 'what was typed is kept');
    t.equal((await get('/offers?category=nonsense', adaSession.cookie)).statusCode, 200, 'an unknown category shows everything');
    for (const id of ['abc', '0', '-1', '99999999999', '1.5']) t.equal((await get(`/offers/${id}`, adaSession.cookie)).statusCode, 404, `/offers/${id}`);
    t.equal((await get('/offers', '')).statusCode, 303, 'signed out: to sign-in');
    const noCsrf = await app.inject({ method: 'POST', url: `/offers/${featured}/redeem`, headers: { ...html, cookie: adaSession.cookie } });
    t.equal(noCsrf.statusCode, 403, 'a cookie POST without the CSRF token is refused');
  });

  await t.test('an offer: code revealed on a press (JS off), once per member even under concurrent presses', async (t) => {
    const page = await get(`/offers/${featured}`, adaSession.cookie);
    t.equal(page.statusCode, 200);
    t.match(page.body, 'Reveal the code');
    t.notMatch(page.body, 'LEDGER20', 'the code is not on the page before the press');
    const presses = await Promise.all([1, 2, 3, 4, 5].map(() => post(`/offers/${featured}/redeem`, adaSession.cookie, {})));
    t.same(presses.map((p) => p.statusCode), [303, 303, 303, 303, 303]);
    t.equal(presses[0]!.headers.location, `/offers/${featured}#redeem`);
    const rows = await db.selectFrom('offer_redemptions').select('id').where('offer_id', '=', featured).execute();
    t.equal(rows.length, 1, 'one redemption for five presses');
    const after = await get(`/offers/${featured}`, adaSession.cookie);
    t.match(after.body, '<code>LEDGER20</code>');
    t.match(after.body, 'Revealed on');

    const out = await post(`/offers/${link}/redeem`, adaSession.cookie, {});
    t.equal(out.statusCode, 303);
    t.equal(out.headers.location, 'https://example.com/bank', 'a link offer goes out to the partner');
  });

  await t.test('a concierge request mails the concierge once with the member details, and says what happens next', async (t) => {
    await Promise.all([1, 2, 3].map(() => post(`/offers/${concierge}/redeem`, eveSession.cookie, {})));
    await app.jobs.drain();
    const mails = app.outbox.messages.filter((m) => m.to === alpha.concierge_email);
    t.equal(mails.length, 1, 'one mail for three presses');
    t.match(mails[0]!.subject, 'Lounge access');
    t.match(mails[0]!.text, eve.email);
    t.match(mails[0]!.text, 'Exec Co');
    const page = await get(`/offers/${concierge}`, eveSession.cookie);
    t.match(page.body, 'The concierge has your details and will contact you');
  });

  await t.test('validity: expired, upcoming and withdrawn say so and refuse; a draft or another community’s offer is a 404', async (t) => {
    const old = await get(`/offers/${expired}`, adaSession.cookie);
    t.match(old.body, 'This offer ended on');
    t.notMatch(old.body, 'Reveal the code');
    t.match((await get(`/offers/${upcoming}`, adaSession.cookie)).body, 'This offer starts on');
    t.match((await get(`/offers/${withdrawn}`, adaSession.cookie)).body, 'withdrawn');
    const refused = await post(`/offers/${expired}/redeem`, adaSession.cookie, {});
    t.equal(refused.statusCode, 409);
    t.match(refused.body, 'cannot be redeemed now');
    t.notMatch(refused.body, '<code>OLD</code>');
    t.equal((await get(`/offers/${draft}`, adaSession.cookie)).statusCode, 404);
    t.equal((await get(`/offers/${betaOffer}`, adaSession.cookie)).statusCode, 404);
    t.equal((await post(`/offers/${betaOffer}/redeem`, adaSession.cookie, {})).statusCode, 404);
    t.equal((await get(`/offers/${draft}`, staffSession.cookie)).statusCode, 200, 'staff preview a draft');
    // Time moves: an offer past its last day can no longer be redeemed.
    clock.advance(3 * DAY);
    t.match((await get(`/offers/${upcoming}`, adaSession.cookie)).body, 'Reveal the code', 'an upcoming offer opens on its day');
    clock.set(new Date(now));
  });

  await t.test('EXEC: a member without the tier sees what it is and how to reach the concierge, never the code', async (t) => {
    const about = await get('/offers/exec', adaSession.cookie);
    t.equal(about.statusCode, 200);
    t.match(about.body, 'EXEC is the executive tier');
    t.match(about.body, alpha.concierge_email);
    t.notMatch(about.body, 'Platinum status');
    const page = await get(`/offers/${exec}`, adaSession.cookie);
    t.match(page.body, 'reserved for members of the executive tier');
    t.notMatch(page.body, 'EXEC-PLAT');
    const refused = await post(`/offers/${exec}/redeem`, adaSession.cookie, {});
    t.equal(refused.statusCode, 403);
    t.notMatch(refused.body, 'EXEC-PLAT');
    const member = await get('/offers/exec', eveSession.cookie);
    t.match(member.body, 'Platinum status');
    t.notMatch(member.body, 'Flight perk', 'only EXEC offers');
    await post(`/offers/${exec}/redeem`, eveSession.cookie, {});
    t.match((await get(`/offers/${exec}`, eveSession.cookie)).body, '<code>EXEC-PLAT</code>');
    const nav = await get('/offers', adaSession.cookie);
    t.match(nav.body, '<a href="/offers/exec">EXEC</a>', 'the nav says EXEC where the community has an exec link');
  });

  await t.test('GraphQL: list, read and redeem with a bearer token or the cookie and CSRF token; tenancy on every field', async (t) => {
    const LIST = 'query ($category: String, $query: String, $first: Int, $after: String) { offers(category: $category, query: $query, first: $first, after: $after) { edges { cursor node { id title tier partner { name logoUrl } redemption { code } } } pageInfo { hasNextPage endCursor } } }';
    const ONE = 'query ($id: ID!) { offer(id: $id) { id title availability execOnly redemption { kind redeemed code link conciergeEmail } partner { id name } } }';
    const REDEEM = 'mutation ($id: ID!) { offerRedeem(id: $id) { id redemption { kind redeemed code } } }';
    const asBob = bearer((await signIn(app, await createMember(db, alpha, { firstName: 'Bob' }), alpha)).token);
    const list = await gql('/graphql', LIST, { first: 2 }, asBob);
    const conn = list.json().data?.offers;
    t.equal(conn?.edges.length, 2, list.body);
    t.equal(conn.edges[0].node.title, 'Featured bookkeeping');
    t.equal(conn.edges[0].node.redemption, null, 'no code in a list');
    t.equal(conn.pageInfo.hasNextPage, true);
    const next = await gql('/graphql', LIST, { first: 2, after: conn.pageInfo.endCursor }, asBob);
    t.notSame(next.json().data.offers.edges[0].node.id, conn.edges[0].node.id);
    const one = await gql('/graphql', ONE, { id: String(featured) }, asBob);
    t.same(one.json().data.offer.redemption, { kind: 'CODE', redeemed: false, code: null, link: null, conciergeEmail: null });
    const redeemed = await gql('/graphql', REDEEM, { id: String(featured) }, asBob);
    t.same(redeemed.json().data.offerRedeem.redemption, { kind: 'CODE', redeemed: true, code: 'LEDGER20' });
    const execOne = await gql('/graphql', ONE, { id: String(exec) }, asBob);
    t.equal(execOne.json().data.offer.execOnly, true);
    t.equal(execOne.json().data.offer.redemption, null, 'no EXEC code without the tier');
    const execRedeem = await gql('/graphql', REDEEM, { id: String(exec) }, asBob);
    t.equal(execRedeem.json().errors?.[0]?.extensions?.code, 'Offers.ExecOnly', execRedeem.body);
    for (const id of [String(betaOffer), String(draft), 'abc']) {
      const res = await gql('/graphql', ONE, { id }, asBob);
      t.equal(res.json().errors?.[0]?.extensions?.code, 'Offers.NotFound', `offer(${id})`);
      const r = await gql('/graphql', REDEEM, { id }, asBob);
      t.equal(r.json().errors?.[0]?.extensions?.code, 'Offers.NotFound', `offerRedeem(${id})`);
    }
    const bad = await gql('/graphql', LIST, { after: 'garbage!' }, asBob);
    t.equal(bad.json().errors?.[0]?.extensions?.code, 'BadRequest.Validation');
    const browser = await csrfFor(app, adaSession.cookie, '/');
    t.equal((await gql('/graphql', REDEEM, { id: String(concierge) }, { cookie: browser.cookie })).statusCode, 403, 'a cookie without CSRF is refused');
    const viaCookie = await gql('/graphql', REDEEM, { id: String(concierge) }, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.equal(viaCookie.json().data?.offerRedeem.redemption.kind, 'CONCIERGE', viaCookie.body);
    const asBea = bearer((await signIn(app, bea, beta)).token);
    const betaSees = await gql('/graphql', LIST, {}, { ...asBea, host: 'beta.test' });
    t.same(betaSees.json().data.offers.edges.map((e: { node: { title: string } }) => e.node.title), ['Beta only perk']);
  });

  await t.test('staff: offers and partners with JS-off forms; refused forms keep what was typed; publish, log, count, CSV', async (t) => {
    const cookie = staffSession.cookie;
    t.equal((await get('/admin/marketplace', adaSession.cookie)).statusCode, 303, 'a member is sent to the admin sign-in');
    const list = await get('/admin/marketplace', cookie);
    t.equal(list.statusCode, 200);
    t.match(list.body, 'Featured bookkeeping');
    t.notMatch(list.body, 'Beta only perk');

    const refused = await post('/admin/marketplace/offers', cookie, { partnerId: String(ledgerly), title: 'Tax review', valueLine: '', category: 'finance', tier: 'everyone', redemption: 'link', link: 'javascript:alert(1)', terms: 'Read me', description: 'Typed **text**' });
    t.equal(refused.statusCode, 400);
    t.match(refused.body, 'Say in one line what the member gets');
    t.match(refused.body, 'Enter a full https:// address.');
    t.match(refused.body, 'value="Tax review"', 'the title is kept');
    t.match(refused.body, 'Typed **text**', 'the description is kept');
    const foreign = await post('/admin/marketplace/offers', cookie, { partnerId: String(betaPartner), title: 'X', valueLine: 'Y', category: 'finance', tier: 'everyone', redemption: 'code', code: 'X1' });
    t.equal(foreign.statusCode, 400, "another community's partner is refused");
    t.match(foreign.body, 'Choose one of the community');

    const created = await post('/admin/marketplace/offers', cookie, { partnerId: String(ledgerly), title: 'Tax review', valueLine: 'Free review', category: 'finance', tier: 'everyone', redemption: 'code', code: 'TAX1', description: 'A **free** review <script>alert(1)</script>', startsAt: '2026-11-01', endsAt: '2026-12-31', featured: 'on', position: '2' });
    t.equal(created.statusCode, 303, created.body.slice(0, 300));
    const id = Number(/offers\/(\d+)/.exec(created.headers.location as string)![1]);
    const row = await db.selectFrom('offers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    t.equal(row.status, 'draft');
    t.equal(row.description_html.includes('<script'), false, 'sanitised');
    t.match(row.description_html, '<strong>free</strong>');
    t.equal(row.ends_at?.toISOString(), '2027-01-01T00:00:00.000Z', 'the last day is inclusive');
    t.equal((await get(`/offers/${id}`, adaSession.cookie)).statusCode, 404, 'a draft is not for members');

    const published = await post(`/admin/marketplace/offers/${id}/status`, cookie, { to: 'published' });
    t.equal(published.statusCode, 303);
    t.equal((await post(`/admin/marketplace/offers/${id}/status`, cookie, { to: 'published' })).statusCode, 409, 'a move that is not allowed');
    t.equal((await post(`/admin/marketplace/offers/${id}/status`, cookie, { to: 'nonsense' })).statusCode, 400);
    await post(`/offers/${id}/redeem`, adaSession.cookie, {});
    await post(`/offers/${id}/redeem`, eveSession.cookie, {});
    const edit = await get(`/admin/marketplace/offers/${id}`, cookie);
    t.match(edit.body, '2 members have redeemed this offer.');
    t.match(edit.body, 'Draft → Published');
    t.match(edit.body, 'Sam Staff');
    const csv = await get(`/admin/marketplace/offers/${id}/redemptions.csv`, cookie);
    t.equal(csv.headers['content-type'], 'text/csv; charset=utf-8');
    t.match(csv.body, ada.email);
    t.match(csv.body, eve.email);
    t.equal((await get(`/admin/marketplace/offers/${betaOffer}`, cookie)).statusCode, 404, "another community's offer");
    t.equal((await get(`/admin/marketplace/offers/${betaOffer}/redemptions.csv`, cookie)).statusCode, 404);
    t.equal((await post(`/admin/marketplace/offers/${betaOffer}/status`, cookie, { to: 'withdrawn' })).statusCode, 404);

    const saved = await post(`/admin/marketplace/offers/${id}`, cookie, { ...Object.fromEntries(Object.entries({ partnerId: String(ledgerly), title: 'Tax review 2027', valueLine: 'Free review', category: 'finance', tier: 'exec', redemption: 'code', code: 'TAX2', position: '3' })) });
    t.equal(saved.statusCode, 303);
    t.equal((await db.selectFrom('offers').select('tier').where('id', '=', id).executeTakeFirstOrThrow()).tier, 'exec');

    const p = await post('/admin/marketplace/partners', cookie, { name: 'Calmly', website: 'https://example.com/calmly', contact: 'teams@calmly.example.com' });
    t.equal(p.statusCode, 303);
    const dup = await post('/admin/marketplace/partners', cookie, { name: 'calmly', website: 'not a url', contact: '' });
    t.equal(dup.statusCode, 400);
    t.match(dup.body, 'Enter a full https:// address');
    t.match(dup.body, 'value="calmly"');
    const calmly = (await db.selectFrom('partners').select('id').where('name', '=', 'Calmly').executeTakeFirstOrThrow()).id;
    const png = await sharp({ create: { width: 300, height: 120, channels: 3, background: '#336699' } }).png().toBuffer();
    const c = await csrfFor(app, cookie, '/admin/marketplace/partners');
    const boundary = '----offers';
    const multipart = (bytes: Buffer) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${c.token}\r\n--${boundary}\r\nContent-Disposition: form-data; name="logo"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    const upload = (bytes: Buffer, pid = calmly) => app.inject({ method: 'POST', url: `/admin/marketplace/partners/${pid}/logo`, headers: { ...html, cookie: c.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: multipart(bytes) });
    const ok = await upload(png);
    t.equal(ok.statusCode, 303, ok.body.slice(0, 300));
    const logo = (await db.selectFrom('partners').select('logo').where('id', '=', calmly).executeTakeFirstOrThrow()).logo!;
    const served = await app.inject({ url: `/offers/logos/${logo.slice(7)}.webp`, headers: { cookie: adaSession.cookie } });
    t.equal(served.headers['content-type'], 'image/webp');
    t.equal((await sharp(served.rawPayload).metadata()).width, 240, 'fitted into the 240 px box');
    const notImage = await upload(Buffer.from('<svg onload="alert(1)"></svg>'));
    t.equal(notImage.statusCode, 400);
    t.match(notImage.body, 'not a JPEG, PNG or WebP');
    t.equal((await upload(png, betaPartner)).statusCode, 404, "another community's partner");
    t.equal((await app.inject({ url: `/offers/logos/${logo.slice(7)}.webp`, headers: { cookie: (await signIn(app, bea, beta)).cookie, host: 'beta.test' } })).statusCode, 404, "another community's logo");
    t.equal((await post(`/admin/marketplace/partners/${ledgerly}/delete`, cookie, {})).statusCode, 409, 'a partner with offers stays');
  });

  await t.test('staff GraphQL: partners and offers, create, move and read the count; members refused', async (t) => {
    const asStaff = bearer(staffSession.token);
    const partners = await gql('/graphqlAdmin', '{ marketplacePartners { id name offerCount } }', {}, asStaff);
    t.ok(partners.json().data.marketplacePartners.some((p: { name: string }) => p.name === 'Ledgerly'), partners.body);
    t.notOk(partners.json().data.marketplacePartners.some((p: { name: string }) => p.name === 'Betaco'));
    const input = { partnerId: String(skyway), title: 'API perk', valueLine: '1 month free', descriptionHtml: '<p>Hi<img src=x onerror=alert(1)></p>', category: 'travel', tier: 'everyone', redemption: 'code', code: 'API1' };
    const created = await gql('/graphqlAdmin', 'mutation ($input: MarketplaceOfferInput!) { marketplaceOfferCreate(input: $input) { id status description } }', { input }, asStaff);
    const offerId = created.json().data?.marketplaceOfferCreate.id;
    t.equal(created.json().data?.marketplaceOfferCreate.status, 'DRAFT', created.body);
    const moved = await gql('/graphqlAdmin', 'mutation ($id: ID!) { marketplaceOfferMove(id: $id, to: PUBLISHED) { status events { from to actorName } redemptionCount } }', { id: offerId }, asStaff);
    t.same(moved.json().data.marketplaceOfferMove.events[0], { from: 'DRAFT', to: 'PUBLISHED', actorName: 'Sam Staff' });
    const bad = await gql('/graphqlAdmin', 'mutation ($input: MarketplaceOfferInput!) { marketplaceOfferCreate(input: $input) { id } }', { input: { ...input, title: '', partnerId: String(betaPartner) } }, asStaff);
    t.equal(bad.json().errors?.[0]?.extensions?.code, 'Offers.Invalid');
    const foreign = await gql('/graphqlAdmin', 'query ($id: ID!) { marketplaceOffer(id: $id) { id } }', { id: String(betaOffer) }, asStaff);
    t.equal(foreign.json().errors?.[0]?.extensions?.code, 'Offers.NotFound');
    const asMember = await gql('/graphqlAdmin', '{ marketplacePartners { id } }', {}, bearer(adaSession.token));
    t.ok(asMember.json().errors?.length || asMember.statusCode >= 400, 'a member cannot use the staff schema');
  });
});
