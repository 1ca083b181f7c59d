import t from 'tap';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';

t.test('GraphQL: /graphql for members, /graphqlAdmin for admins', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, {
    code: 'alpha',
    app_name: 'Alpha Circle',
    forum_enabled: true,
    exec_link: 'https://example.com/exec',
    nav_more: JSON.stringify([{ label: 'Events', link: 'https://example.com/events' }]),
  });
  const beta = await createCommunity(db, { code: 'beta', name: 'Beta Guild' });
  const { app } = await startApp(t, db);
  const member = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace', companyName: 'Engines Ltd' });
  const admin = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Alan', lastName: 'Turing' });
  await db.insertInto('memberships').values({ community_id: beta.id, user_id: admin.id, roles: ['MEMBER'] }).execute();
  const m = await csrfFor(app, (await signIn(app, member, alpha)).cookie);
  const a = await csrfFor(app, (await signIn(app, admin, alpha, ['ADMIN', 'MEMBER'])).cookie);

  const gql = (path: string, query: string, who?: { token: string; cookie: string }, variables?: object) =>
    app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json', ...(who ? { cookie: who.cookie, 'x-csrf-token': who.token } : {}) },
      payload: { query, variables },
    });

  await t.test('a visitor gets the community and no me', async (t) => {
    const res = await gql('/graphql', '{ me { id } community { code appName navMore { label link } products { forum { enabled } } execLink conciergeEmail links { terms } auth { slug } } }');
    t.equal(res.statusCode, 200);
    const data = res.json().data;
    t.equal(data.me, null);
    t.match(data.community, { code: 'alpha', appName: 'Alpha Circle', navMore: [{ label: 'Events' }], products: { forum: { enabled: true } }, execLink: 'https://example.com/exec' });
  });

  await t.test('a member gets me with the spec fields', async (t) => {
    const res = await gql('/graphql', '{ me { id email name { first formatted } profile { companyName location { name familiarName } } roles communityCode mobilePhone { number } } }', m);
    const me = res.json().data.me;
    t.match(me, { id: String(member.id), name: { first: 'Ada', formatted: 'Ada Lovelace' }, profile: { companyName: 'Engines Ltd', location: { name: 'Austin, TX', familiarName: 'Austin' } }, roles: ['MEMBER'], communityCode: 'alpha', mobilePhone: null });
  });

  await t.test('availableCommunities is one answer for every caller: the list GET /rest/admin/available-communities gives the admin sign-in picker', async (t) => {
    const rest = await app.inject({ url: '/rest/admin/available-communities' });
    const picker = rest.json().availableCommunities;
    t.ok(picker.some((c: { code: string }) => c.code === 'beta'), 'every brand is listed');
    const visitor = await gql('/graphql', '{ availableCommunities { code name familiarName } }');
    t.equal(visitor.statusCode, 200);
    t.same(visitor.json().data.availableCommunities, picker, 'a visitor (the admin sign-in page) gets the picker');
    const member = await gql('/graphql', '{ availableCommunities { code name familiarName } }', m);
    t.same(member.json().data.availableCommunities, picker, 'a member the same');
    const adminRes = await gql('/graphqlAdmin', '{ me { id } availableCommunities { code name familiarName } }', a);
    t.equal(adminRes.statusCode, 200);
    t.same(adminRes.json().data, { me: { id: String(admin.id) }, availableCommunities: picker }, 'and the admin schema the same');
  });

  await t.test('the admin schema refuses members and visitors', async (t) => {
    const asMember = await gql('/graphqlAdmin', '{ availableCommunities { code } }', m);
    t.equal(asMember.statusCode, 403);
    t.equal(asMember.json().errors[0].extensions.code, 'Forbidden');
    const asVisitor = await gql('/graphqlAdmin', '{ availableCommunities { code } }');
    t.equal(asVisitor.statusCode, 401);
    t.equal(asVisitor.json().errors[0].extensions.code, 'NotAuthenticated');
  });

  await t.test('a cookie-authenticated request without the CSRF token is refused', async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', cookie: m.cookie },
      payload: { query: '{ me { id } }' },
    });
    t.equal(res.statusCode, 403);
    t.equal(res.json().errors[0].extensions.code, 'BadRequest.Csrf');
  });

  await t.test('a resolver that needs sign-in answers with the catalogue code', async (t) => {
    const res = await gql('/graphql', '{ ads { id } }');
    t.equal(res.json().errors[0].extensions.code, 'NotAuthenticated');
    t.equal(res.json().errors[0].message, 'Please sign in to continue.');
  });

  await t.test('queries deeper or costlier than the limits are refused', async (t) => {
    const deep = await gql('/graphql', '{ community { auth { slug } } me { profile { location { name } } } __schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } }');
    t.match(deep.json().errors[0].message, /depth/);
    t.equal(deep.statusCode, 400);
    const fields = Array.from({ length: 320 }, (_, i) => `f${i}: community { code }`).join(' ');
    const costly = await gql('/graphql', `{ ${fields} }`);
    t.equal(costly.statusCode, 400);
    t.match(costly.json().errors[0].message, /too complex/);
  });

  await t.test('GraphiQL is served outside production only', async (t) => {
    t.equal((await app.inject({ url: '/graphiql' })).statusCode, 200);
    const prod = await startApp(t, db, { env: { NODE_ENV: 'production', PAYMENT_PROCESSOR: 'sandbox', COOKIE_SECRET: 'a-production-secret-of-sufficient-length-42' } });
    t.equal((await prod.app.inject({ url: '/graphiql', headers: { accept: 'text/html' } })).statusCode, 404);
  });
});
