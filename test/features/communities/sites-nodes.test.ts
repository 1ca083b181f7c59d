import t from 'tap';
import { sql } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import { freshDatabase, usingPostgres } from '#test/helpers/db.ts';
import { GOOD_PASSWORD, setPassword } from '#test/helpers/auth.ts';
import { createCommunity, createMember } from '#test/helpers/factories.ts';
import { SITE_UPDATE, siteInput } from '#test/helpers/members-sites.ts';
import { startServerProcess } from '#test/helpers/server-process.ts';

const startNode = (databaseUrl: string) =>
  startServerProcess({
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    COOKIE_SECRET: 'sites-nodes-secret-0123456789-0123456789-abcdef',
    DEFAULT_COMMUNITY: 'alpha',
    SEED_DEMO: 'false',
    JOB_WORKERS: 'false',
    RATE_LIMIT_MAX: '100000',
  });

t.test('a site change on one node is seen at once on another (LISTEN/NOTIFY)', { skip: usingPostgres() ? false : 'needs PostgreSQL (DATABASE_URL): PGlite is one process' }, async (t) => {
  const { db, drop, url } = await freshDatabase();
  t.teardown(drop);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha App' });
  const admin = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'] });
  await setPassword(db, admin.id);

  const [a, b] = await Promise.all([startNode(url!), startNode(url!)]);
  t.teardown(async () => {
    for (const node of [a, b]) {
      node.proc.kill('SIGTERM');
      await node.exited;
    }
  });

  const login = await fetch(`${a.base}/rest/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: admin.email, password: GOOD_PASSWORD, targetCommunity: 'alpha' }),
  });
  t.equal(login.status, 200, 'the admin signs in');
  const { authToken } = (await login.json()) as { authToken: string };
  const titleOn = async (base: string) => /<title>([^<]*)<\/title>/.exec(await (await fetch(`${base}/login`)).text())?.[1];
  /** siteUpdate on node A's staff schema, as a bearer client (no cookie, no CSRF token). */
  const update = async (appName: string) => {
    const res = await fetch(`${a.base}/graphqlAdmin`, {
      method: 'POST',
      headers: { authorization: `Bearer ${authToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: SITE_UPDATE, variables: { code: 'alpha', input: siteInput('alpha', { appName, hosts: [] }) } }),
    });
    const body = (await res.json()) as { data?: { siteUpdate?: { appName: string } }; errors?: unknown };
    return body.data?.siteUpdate?.appName ?? JSON.stringify(body.errors);
  };
  /** How long node B takes to show this title (it caches communities for 10 s without the notification). */
  const seenOnB = async (title: string) => {
    const start = Date.now();
    while (Date.now() - start < 9000) {
      if ((await titleOn(b.base)) === title) return Date.now() - start;
      await sleep(50);
    }
    return Infinity;
  };
  const listeners = async () =>
    (await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database() and query ilike 'LISTEN communities_changed%'`.execute(db)).rows;

  await t.test('both nodes listen', async (t) => {
    let n = 0;
    for (let i = 0; i < 50 && n < 2; i++, await sleep(100)) n = (await listeners()).length;
    t.equal(n, 2, 'one listening connection per node');
  });

  await t.test('an update through node A shows on node B at once, though B had the community cached', async (t) => {
    t.equal(await titleOn(b.base), 'Sign In | Alpha App', 'B has cached it');
    t.equal(await update('Alpha Renamed'), 'Alpha Renamed', 'saved through A');
    const took = await seenOnB('Sign In | Alpha Renamed');
    t.ok(took < 2000, `B shows it after ${took} ms (the cache alone would take up to 10 s)`);
  });

  await t.test('after its listening connection is cut (as by a database restart), a node reconnects and still hears changes', async (t) => {
    const before = await listeners();
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'LISTEN communities_changed%'`.execute(db);
    let after: { pid: number }[] = [];
    for (let i = 0; i < 100; i++, await sleep(100)) {
      after = await listeners();
      if (after.length === 2 && after.every((r) => !before.some((x) => x.pid === r.pid))) break;
    }
    t.equal(after.length, 2, 'both nodes listen again, on new connections');
    t.equal(await titleOn(b.base), 'Sign In | Alpha Renamed');
    t.equal(await update('Alpha Again'), 'Alpha Again');
    const took = await seenOnB('Sign In | Alpha Again');
    t.ok(took < 2000, `B shows it after ${took} ms`);
    t.notMatch(a.output() + b.output(), /Error: |uncaught/i, 'no crash on either node');
  });
});
