import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { usingPostgres } from '#test/helpers/db.ts';
import { startServerProcess } from '#test/helpers/server-process.ts';

/**
 * Each area answers on the seeded demo: its member page and its staff page render, and a GraphQL
 * operation of each area answers for a bearer client signed in by `login` (the spec's name). The full
 * suite runs on PostgreSQL; this file is on the short PGlite list (scripts/test-pglite.mjs), so that
 * every area is seen to work on the embedded default too.
 */
t.test(`every area answers on the demo (${usingPostgres() ? 'PostgreSQL' : 'PGlite'})`, async (t) => {
  const db = await setupDatabase(t, { seeded: true });
  const { app } = await startApp(t, db, { env: { DEFAULT_COMMUNITY: 'summit' } });
  const host = 'summit.localhost';

  // A member signs in by the GraphQL `login`; the staff by REST `POST /rest/admin/login`.
  const memberLogin = await app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { host, 'content-type': 'application/json' },
    payload: { query: 'mutation($u: String!, $p: String!) { login(username: $u, password: $p) { authToken } }', variables: { u: 'amara.okafor@summit-demo.example.com', p: 'Demo-Member-2026!' } },
  });
  const member = memberLogin.json().data?.login?.authToken as string;
  t.ok(member, 'Amara signs in by GraphQL login', { body: memberLogin.body });
  const adminLogin = await app.inject({
    method: 'POST',
    url: '/rest/admin/login',
    headers: { host, 'content-type': 'application/json' },
    payload: { username: 'admin@example.com', password: 'Demo-Admin-2026!', targetCommunity: 'summit' },
  });
  const admin = adminLogin.json().authToken as string;
  t.ok(admin, 'the admin signs in by REST', { body: adminLogin.body });

  const page = (url: string, token: string) => app.inject({ url, headers: { host, cookie: `auth=${token}`, accept: 'text/html' } });
  const graphql = (schema: 'graphql' | 'graphqlAdmin', token: string, query: string) =>
    app.inject({ method: 'POST', url: `/${schema}`, headers: { host, authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: { query } });

  await t.test("a member's pages of each area", async (t) => {
    const pages: [string, string][] = [
      ['/', 'Amara'],
      ['/articles', 'Articles'],
      ['/members', 'Members'],
      ['/notifications', 'Notifications'],
      ['/settings', 'Settings'],
      ['/settings/billing', 'Billing'],
      ['/forum', 'Forum'],
      ['/expert-panels', 'Expert'],
    ];
    for (const [url, text] of pages) {
      const res = await page(url, member);
      t.equal(res.statusCode, 200, `${url} answers`);
      t.match(res.body, text, `${url} shows ${text}`);
    }
  });

  await t.test("the staff's pages of each area", async (t) => {
    for (const url of ['/admin', '/admin/articles', '/admin/members', '/admin/sites', '/admin/forum', '/admin/expert-panels', '/admin/feeds/syndication']) {
      const res = await page(url, admin);
      t.equal(res.statusCode, 200, `${url} answers`);
    }
  });

  await t.test('a GraphQL operation of each area, for a bearer client', async (t) => {
    type Operation = [query: string, holds: (data: any) => boolean];
    const check = async (schema: 'graphql' | 'graphqlAdmin', token: string, operations: Operation[]) => {
      for (const [query, holds] of operations) {
        const res = await graphql(schema, token, query);
        const body = res.json();
        t.equal(res.statusCode, 200, query);
        t.notOk(body.errors, `${query}: no errors`, { errors: body.errors });
        t.ok(body.data && holds(body.data), `${query}: the demo's data`);
      }
    };
    await check('graphql', member, [
      ['{ articlesPublished { id } }', (d) => d.articlesPublished.length > 0],
      ['{ members(first: 5) { edges { node { id name } } } }', (d) => d.members.edges.length === 5],
      ['{ notifications(first: 3) { edges { node { id } } } }', (d) => d.notifications.edges.length > 0],
      ['{ me { username statements(first: 3) { id } } }', (d) => d.me.username === 'amara.okafor' && d.me.statements.length > 0],
      ['{ forumPosts(first: 3) { posts { id title } } }', (d) => d.forumPosts.posts.length === 3],
      ['{ expertQuestions(first: 3) { edges { node { id } } } }', (d) => d.expertQuestions.edges.length > 0],
    ]);
    await check('graphqlAdmin', admin, [
      ['{ articleBoard { total } }', (d) => d.articleBoard.total > 0],
      ['{ members(first: 5) { total rows { id } } }', (d) => d.members.rows.length === 5],
      ['{ forumTopics { id name } }', (d) => d.forumTopics.length > 0],
      ['{ expertPanels { id name } }', (d) => d.expertPanels.length === 2],
      ['{ syndicationFeeds { slug } }', (d) => d.syndicationFeeds.length === 2],
    ]);
  });
});

t.test(
  "the README's first command: the server starts on the embedded default, migrates, seeds the demo and serves it",
  { skip: usingPostgres() ? 'the embedded default (PGlite) only: run on the PGlite list' : false, timeout: 180_000 },
  async (t) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'smoke-data-'));
    t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
    // As `npm start` runs it: no DATABASE_URL, an empty data directory, the demo seeded on first start.
    const server = await startServerProcess({ NODE_ENV: 'development', DATABASE_URL: '', DATA_DIR: dataDir, JOB_WORKERS: 'false' });
    t.teardown(async () => {
      server.proc.kill('SIGTERM');
      await server.exited;
    });
    t.match(server.output(), /PGlite in/, 'on PGlite');
    const health = await fetch(`${server.base}/health`);
    t.equal(health.status, 200, 'healthy');
    const login = await fetch(`${server.base}/login`);
    t.equal(login.status, 200, 'the sign-in page');
    t.match(await login.text(), 'Summit', "the demo's Summit");
  },
);
