import t from 'tap';
import { chargeOnce } from '#src/features/payments/ledger.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';
import { CARDS, cardToken, enablePayments } from '#test/helpers/payments.ts';
import { pdfText } from '#test/helpers/pdf.ts';

t.test('billing: statements and their PDFs', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha', name: 'Alpha Executive Council' });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'] });
  const { app } = await startApp(t, db, { clock });
  await enablePayments(db, alpha);
  await enablePayments(db, beta);
  const amara = await createMember(db, alpha, { firstName: 'Amara', lastName: 'Okafor' });
  const bob = await createMember(db, alpha, { firstName: 'Bob', lastName: 'Empty' });
  const bea = await createMember(db, beta, { firstName: 'Bea', lastName: 'Beta' });

  let n = 0;
  async function buy(community: typeof alpha, user: { id: number }, name: string, items: { label: string; amountCents: number }[], number: string = CARDS.visa) {
    const amountCents = items.reduce((s, i) => s + i.amountCents, 0);
    const result = await chargeOnce(app, {
      community: community,
      userId: user.id,
      actorId: user.id,
      idempotencyKey: `billing-test-${++n}`,
      amountCents,
      purpose: 'dues',
      description: name,
      items,
      statement: { kind: 'dues', name },
      source: { token: await cardToken(app, community, number) },
    });
    if (result.status !== 'succeeded') throw new Error(`charge ${result.status}`);
    clock.advance(60_000);
    return result.statementId!;
  }

  const first = await buy(alpha, amara, '12-month membership', [
    { label: 'Membership dues (12 months)', amountCents: 600000 },
    { label: 'Initiation fee', amountCents: 150000 },
  ]);
  const second = await buy(alpha, amara, 'Amplification: Spotlight for “Leading Through Change”', [{ label: 'Spotlight', amountCents: 49900 }], CARDS.mastercard);
  const foreign = await buy(beta, bea, '24-month membership', [{ label: 'Membership dues (24 months)', amountCents: 540000 }]);

  const as = async (user: { id: number }, community = alpha) => (await signIn(app, user, community)).cookie;
  const get = (url: string, cookie: string, host?: string) => app.inject({ url, headers: { cookie, accept: 'text/html', ...(host ? { host } : {}) } });

  await t.test('the list: newest first, name, date, amount and a PDF link each; no saved cards', async (t) => {
    const res = await get('/settings/billing', await as(amara));
    t.equal(res.statusCode, 200);
    const body = res.body;
    const a = body.indexOf('Amplification: Spotlight for “Leading Through Change”');
    const b = body.indexOf('12-month membership');
    t.ok(a > 0 && b > a, 'newest first');
    t.match(body, '$7,500.00');
    t.match(body, '$499.00');
    t.match(body, /Nov 21, 2026/);
    t.match(body, `href="/settings/billing/statements/${first}.pdf"`);
    t.match(body, `href="/settings/billing/statements/${second}.pdf"`);
    t.match(body, 'Download statement (PDF)');
    t.notMatch(body, `statements/${foreign}.pdf`, 'another community’s statement is not listed');
    t.notMatch(body, 'You have no statements yet.');
    t.notMatch(body, /ending 4242|Saved cards|saved-cards/i, 'no saved-cards section in the member view');
  });

  await t.test('the empty list shows the no-statements text', async (t) => {
    const res = await get('/settings/billing', await as(bob));
    t.equal(res.statusCode, 200);
    t.match(res.body, 'You have no statements yet.');
    t.notMatch(res.body, 'Download statement');
  });

  await t.test('signed out: sent to sign in', async (t) => {
    const res = await app.inject({ url: '/settings/billing', headers: { accept: 'text/html' } });
    t.ok([302, 303].includes(res.statusCode), `redirect (${res.statusCode})`);
    const pdf = await app.inject({ url: `/settings/billing/statements/${first}.pdf`, headers: { accept: 'text/html' } });
    t.not(pdf.statusCode, 200, 'no PDF without a session');
    t.notMatch(pdf.headers['content-type'] ?? '', 'application/pdf');
  });

  await t.test('keyset pagination, 20 a page', async (t) => {
    const many = await createMember(db, alpha, { firstName: 'Many', lastName: 'Purchases' });
    for (let i = 1; i <= 23; i++) {
      await db
        .insertInto('payment_ledger')
        .values({ community_id: alpha.id, user_id: many.id, kind: 'charge', status: 'succeeded', amount_cents: 100 * i, description: `Purchase ${i}` })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((l) =>
          db
            .insertInto('statements')
            .values({ community_id: alpha.id, user_id: many.id, ledger_id: l.id, name: `Purchase number ${i}`, kind: 'purchase', purchased_at: new Date(Date.UTC(2026, 0, i)), amount_cents: 100 * i, currency: 'USD', items: '[]', payment_method: 'Visa ending 4242' })
            .execute(),
        );
    }
    const cookie = await as(many);
    const page1 = await get('/settings/billing', cookie);
    t.equal((page1.body.match(/Download statement \(PDF\)<\/a>/g) ?? []).length, 20, '20 on the first page');
    t.match(page1.body, 'Purchase number 23<');
    t.notMatch(page1.body, 'Purchase number 3<');
    const older = /href="(\/settings\/billing\?after=[^"]+)"/.exec(page1.body)?.[1];
    t.ok(older, 'a link to older statements');
    const page2 = await get(older!.replace(/&amp;/g, '&'), cookie);
    t.equal((page2.body.match(/Download statement \(PDF\)<\/a>/g) ?? []).length, 3, 'the last 3');
    t.match(page2.body, 'Purchase number 1<');
    t.match(page2.body, 'Newest statements');
    t.notMatch(page2.body, 'Older statements');
    const hostile = await get('/settings/billing?after=%00%FF%3Cscript', cookie);
    t.equal(hostile.statusCode, 303, 'a cursor that is not ours goes back to the first page');
    const forged = await get(`/settings/billing?after=${Buffer.from('not|a cursor').toString('base64url')}`, cookie);
    t.equal(forged.statusCode, 303);
  });

  await t.test('the PDF: a real PDF with the community, member, items, total and card', async (t) => {
    const res = await app.inject({ url: `/settings/billing/statements/${first}.pdf`, headers: { cookie: await as(amara) } });
    t.equal(res.statusCode, 200);
    t.equal(res.headers['content-type'], 'application/pdf');
    t.equal(res.headers['content-disposition'], `attachment; filename="statement-alpha-${first}-2026-11-21.pdf"`);
    t.match(String(res.headers['cache-control']), /private/);
    const bytes = res.rawPayload;
    t.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-', 'starts with %PDF');
    t.match(bytes.subarray(-8).toString('latin1'), /%%EOF\s*$/, 'ends with %%EOF');
    const text = pdfText(bytes).join('\n');
    for (const expected of ['Alpha Executive Council', 'Amara Okafor', amara.email, `Statement ${first}`, 'Nov 21, 2026', 'Membership dues (12 months)', '$6,000.00', 'Initiation fee', '$1,500.00', 'Total', '$7,500.00', 'Visa ending 4242']) {
      t.ok(text.includes(expected), `shows ${expected}`);
    }
    const other = await app.inject({ url: `/settings/billing/statements/${second}.pdf`, headers: { cookie: await as(amara) } });
    const otherText = pdfText(other.rawPayload).join('\n');
    t.ok(otherText.includes('Amplification: Spotlight for “Leading Through Change”'), 'curly quotes survive (WinAnsi)');
    t.ok(otherText.includes('Mastercard ending 4444'), 'the card that paid');
  });

  await t.test('tenancy: another member’s and another community’s statements are 404', async (t) => {
    const bobCookie = await as(bob);
    t.equal((await get(`/settings/billing/statements/${first}.pdf`, bobCookie)).statusCode, 404, 'another member’s');
    t.equal((await get(`/settings/billing/statements/${foreign}.pdf`, await as(amara))).statusCode, 404, 'another community’s, by id');
    t.equal((await get(`/settings/billing/statements/${foreign}.pdf`, await as(bea, beta), 'beta.test')).statusCode, 200, 'its owner on its own host');
    t.equal((await get(`/settings/billing/statements/${first}.pdf`, await as(bea, beta), 'beta.test')).statusCode, 404, 'alpha’s statement from beta');
    for (const bad of ['abc.pdf', '0.pdf', '-1.pdf', '99999999999.pdf', `${first}`, `${first}.PDF`, `${first}.pdf%00`, '%00.pdf']) {
      const res = await get(`/settings/billing/statements/${bad}`, await as(amara));
      t.equal(res.statusCode, 404, `${bad}: 404`);
    }
    const huge = await get(`/settings/billing/statements/${'9'.repeat(400)}.pdf`, await as(amara));
    t.ok(huge.statusCode >= 400 && huge.statusCode < 500, `a huge id: 4xx (${huge.statusCode})`);
  });

  await t.test('GraphQL me.statements: bearer and cookie+CSRF', async (t) => {
    const gql = (query: string, variables: object, headers: Record<string, string>) =>
      app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });
    const Q = 'query S($first: Int, $after: String) { me { statements(first: $first, after: $after) { id name purchasedAt amount amountCents currency statementUrl cursor } } }';
    const bearer = { authorization: `Bearer ${(await signIn(app, amara, alpha)).token}` };
    const res = await gql(Q, {}, bearer);
    const list = res.json().data?.me?.statements;
    t.same(
      list?.map((s: Record<string, unknown>) => ({ ...s, cursor: undefined })),
      [
        { id: String(second), name: 'Amplification: Spotlight for “Leading Through Change”', purchasedAt: list?.[0]?.purchasedAt, amount: '$499.00', amountCents: 49900, currency: 'USD', statementUrl: `/rest/statements/${second}.pdf`, cursor: undefined },
        { id: String(first), name: '12-month membership', purchasedAt: '2026-11-21T12:00:00.000Z', amount: '$7,500.00', amountCents: 750000, currency: 'USD', statementUrl: `/rest/statements/${first}.pdf`, cursor: undefined },
      ],
      res.body,
    );
    const viaBearer = await app.inject({ url: list[1].statementUrl, headers: bearer });
    t.equal(viaBearer.statusCode, 200, 'a bearer client downloads the statementUrl');
    t.equal(viaBearer.rawPayload.subarray(0, 5).toString('latin1'), '%PDF-');
    const othersViaBearer = await app.inject({ url: `/rest/statements/${foreign}.pdf`, headers: bearer });
    t.equal(othersViaBearer.statusCode, 404, 'not another community’s');
    const noBearer = await app.inject({ url: list[1].statementUrl });
    t.ok(noBearer.statusCode === 401 || noBearer.statusCode === 403 || noBearer.statusCode === 404, `no token: refused (${noBearer.statusCode})`);
    const next = await gql(Q, { first: 1, after: list[0].cursor }, bearer);
    t.same(next.json().data.me.statements.map((s: { id: string }) => s.id), [String(first)], 'after a cursor');
    const bad = await gql(Q, { after: 'nonsense!' }, bearer);
    t.equal(bad.json().errors?.[0]?.extensions?.code, '900', 'a bad cursor is a 900');

    const browser = await csrfFor(app, await as(amara), '/settings/billing');
    const viaCookie = await gql(Q, { first: 1 }, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.same(viaCookie.json().data?.me?.statements?.map((s: { id: string }) => s.id), [String(second)], viaCookie.body);

    const fromBeta = await gql('{ me { statements { id } } }', {}, { host: 'beta.test', authorization: `Bearer ${(await signIn(app, bea, beta)).token}` });
    t.same(fromBeta.json().data.me.statements, [{ id: String(foreign) }], 'each community its own');
    const empty = await gql('{ me { statements { id } } }', {}, { authorization: `Bearer ${(await signIn(app, bob, alpha)).token}` });
    t.same(empty.json().data.me.statements, []);
    const anon = await gql('{ me { statements { id } } }', {}, {});
    t.equal(anon.json().data?.me, null, 'a visitor has no me');
  });
});
