import t from 'tap';
import { selectInCommunity } from '#src/db/tenancy.ts';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';

t.test('a member of one community cannot see the data of another', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle' });
  const beta = await createCommunity(db, { code: 'beta', app_name: 'Beta Guild', hosts: ['beta.test'] });
  await db.insertInto('ads').values([
    { community_id: alpha.id, shape: 'MASTHEAD', image_url: 'img/a.svg', link: 'https://example.com/a', alt_text: 'Alpha ad' },
    { community_id: beta.id, shape: 'MASTHEAD', image_url: 'img/b.svg', link: 'https://example.com/b', alt_text: 'Beta ad' },
  ]).execute();
  const { app } = await startApp(t, db);
  const alice = await createMember(db, alpha, { firstName: 'Alice' });
  const { cookie } = await signIn(app, alice, alpha);

  await t.test('the tenancy helper scopes every read to one community', async (t) => {
    const rows = await selectInCommunity(db, 'ads', alpha).select('alt_text').execute();
    t.same(rows.map((r) => r.alt_text), ['Alpha ad']);
  });

  await t.test('the host name picks the community, else the configured default', async (t) => {
    const a = await app.inject({ url: '/', headers: { accept: 'text/html' } });
    t.match(a.body, 'Alpha Circle');
    const b = await app.inject({ url: '/', headers: { accept: 'text/html', host: 'BETA.test:3000' } });
    t.match(b.body, 'Beta Guild');
  });

  await t.test('pages show only the community’s own ads', async (t) => {
    const res = await app.inject({ url: '/', headers: { accept: 'text/html', cookie } });
    t.match(res.body, 'Alpha ad');
    t.notMatch(res.body, 'Beta ad');
  });

  await t.test('GraphQL answers with the community of the request only', async (t) => {
    const { token, cookie: jar } = await csrfFor(app, cookie);
    const res = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { cookie: jar, 'x-csrf-token': token, 'content-type': 'application/json' },
      payload: { query: '{ community { code } ads { imageUrl } }' },
    });
    t.equal(res.statusCode, 200);
    t.same(res.json().data, { community: { code: 'alpha' }, ads: [{ imageUrl: 'img/a.svg' }] });
  });

  await t.test('the same member cookie sent to the other community is a visitor there', async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { host: 'beta.test', cookie, 'content-type': 'application/json' },
      payload: { query: '{ me { id } }' },
    });
    // The cookie is not valid for beta, but it is still a cookie: the CSRF check applies first.
    t.equal(res.statusCode, 403);
    const anonymous = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { host: 'beta.test', 'content-type': 'application/json' },
      payload: { query: '{ me { id } community { code } }' },
    });
    t.same(anonymous.json().data, { me: null, community: { code: 'beta' } });
  });
});
