import t from 'tap';
import { buildApp } from '#src/app.ts';
import { setupDatabase, testConfig } from '#test/helpers/app.ts';
import { createCommunity } from '#test/helpers/factories.ts';

t.test('partial updates: htmx on the pages that ask for it, fragments, and the same form as a plain POST', async (t) => {
  const db = await setupDatabase(t);
  await createCommunity(db, { code: 'alpha' });
  const app = await buildApp({ config: testConfig({ DEFAULT_COMMUNITY: 'alpha' }), db });
  t.teardown(() => app.close());
  let count = 0;
  const Counter = () => <p id="count">Count: {count}</p>;
  app.get('/counter', { config: { access: 'public' } }, async (_req, reply) =>
    reply.page({
      title: 'Counter',
      htmx: true,
      body: (
        <form method="post" action="/counter" hx-post="/counter" hx-target="#count" hx-swap="outerHTML">
          <Counter />
          <button type="submit">Add</button>
        </form>
      ),
    }),
  );
  app.post('/counter', { config: { access: 'public' } }, async (request, reply) => {
    count += 1;
    if (request.headers['hx-request'] === 'true') return reply.fragment(<Counter />);
    return reply.redirect('/counter', 303);
  });
  await app.ready();

  const page = await app.inject({ url: '/counter', headers: { accept: 'text/html' } });
  const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(String(page.headers['content-security-policy']))![1];
  const htmxSrc = /<script defer nonce="([^"]+)" src="([^"]+htmx[^"]+)"/.exec(page.body);
  t.ok(htmxSrc, 'the page loads htmx');
  t.equal(htmxSrc![1], nonce, 'with the CSP nonce');
  t.match(page.body, '<meta name="htmx-config" content="{&quot;includeIndicatorStyles&quot;:false', 'no inline styles injected (CSP)');
  const token = /<meta name="csrf-token" content="([^"]+)"/.exec(page.body)![1]!;
  t.match(page.body, `hx-headers="{&quot;x-csrf-token&quot;:&quot;${token}&quot;}"`, 'htmx sends the CSRF token as a header');
  t.equal((await app.inject({ url: htmxSrc![2]! })).statusCode, 200, 'the htmx file is served');
  const cookie = `_csrf=${page.cookies.find((c) => c.name === '_csrf')!.value}`;

  const partial = await app.inject({ method: 'POST', url: '/counter', headers: { cookie, 'x-csrf-token': token, 'hx-request': 'true' } });
  t.equal(partial.statusCode, 200);
  t.equal(partial.body, '<p id="count">Count: 1</p>', 'only the fragment comes back');

  const plain = await app.inject({
    method: 'POST',
    url: '/counter',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `_csrf=${encodeURIComponent(token)}`,
  });
  t.equal(plain.statusCode, 303, 'without JavaScript the same form posts and redirects');
  const after = await app.inject({ url: '/counter', headers: { accept: 'text/html' } });
  t.match(after.body, 'Count: 2');

  const home = await app.inject({ url: '/', headers: { accept: 'text/html' } });
  t.notMatch(home.body, 'htmx', 'pages that do not ask for htmx do not load it');
});
