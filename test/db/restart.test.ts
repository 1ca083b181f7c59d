import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import t from 'tap';
import { sha256 } from '#src/core/ids.ts';
import { DEMO_MEMBER_PASSWORD } from '#src/features/seed.ts';
import { usingPostgres } from '#test/helpers/db.ts';
import { startServerProcess } from '#test/helpers/server-process.ts';

const MEMBERS = ['amara.okafor', 'daniel.reyes', 'priya.raman', 'marcus.lindqvist'].map((m) => `${m}@summit-demo.example.com`);

type Answer = { kind: string; status: number; type: string; body: string; cookies: string[] };

function call(port: number, agent: http.Agent, kind: string, method: string, urlPath: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, agent, headers: { ...headers, ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) }, timeout: 15_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ kind, status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: text, cookies: res.headers['set-cookie'] ?? [] }));
      res.on('error', (e) => resolve({ kind, status: 0, type: '', body: `response error: ${e.message}`, cookies: [] }));
    });
    // No answer at all (a dead process, a reset connection) is status 0: never acceptable.
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (e) => resolve({ kind, status: 0, type: '', body: `no answer: ${e.message}`, cookies: [] }));
    req.end(body);
  });
}

/** The session id inside an auth cookie (a JWT: its payload is readable). */
function sessionOf(cookies: string[]): string | undefined {
  const jwt = cookies.map((c) => c.split(';')[0]!).find((c) => c.startsWith('auth='))?.slice('auth='.length);
  if (!jwt) return undefined;
  return (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as { sid?: string }).sid;
}

t.test(
  'PostgreSQL goes away under load (every backend terminated, four times): the server lives, answers 503, recovers, and loses no acknowledged write',
  { skip: usingPostgres() ? false : 'PostgreSQL only (set DATABASE_URL): PGlite runs inside the process and has no server to lose', timeout: 240_000 },
  async (t) => {
    const adminUrl = process.env.DATABASE_URL!;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    const name = `test_restart_${randomBytes(4).toString('hex')}`;
    await admin.query(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    t.teardown(async () => {
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await admin.end();
    });

    const node = await startServerProcess({
      DATABASE_URL: url.toString(),
      SEED_DEMO: 'true',
      DEFAULT_COMMUNITY: 'summit',
      TRUST_PROXY: 'true',
      RATE_LIMIT_MAX: '1000000',
      LOG_LEVEL: 'error',
    });
    const { port, proc: server, exited } = node;
    t.teardown(() => {
      if (server.exitCode === null) server.kill('SIGKILL');
    });

    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    t.teardown(() => agent.destroy());
    const loginPage = await call(port, agent, 'login', 'GET', '/login', { accept: 'text/html', 'x-forwarded-for': '192.0.2.1' });
    const csrfToken = /<meta name="csrf-token" content="([^"]+)"/.exec(loginPage.body)?.[1];
    const csrfCookie = loginPage.cookies.map((c) => c.split(';')[0]!).find((c) => c.startsWith('_csrf='));
    t.ok(csrfToken && csrfCookie, 'the sign-in page gives a CSRF token');
    let n = 0;
    const signIn = (email: string) =>
      call(
        port,
        agent,
        'sign-in',
        'POST',
        '/rest/login',
        // A new address each time: sign-ins cut off by the outage stay counted, and must not trip the per-address limits.
        { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': csrfToken!, cookie: csrfCookie!, 'x-forwarded-for': `10.1.${(++n >> 8) & 255}.${n & 255}` },
        JSON.stringify({ username: email, password: DEMO_MEMBER_PASSWORD }),
      );
    const first = await signIn(MEMBERS[0]!);
    t.equal(first.status, 200, 'a member signs in before the outage');
    const memberCookie = first.cookies.map((c) => c.split(';')[0]!).join('; ');
    const page = () => call(port, agent, 'page', 'GET', '/', { accept: 'text/html', cookie: memberCookie, 'x-forwarded-for': '192.0.2.2' });
    const json = () => call(port, agent, 'json', 'GET', '/rest/admin/available-communities', { accept: 'application/json', 'x-forwarded-for': '192.0.2.3' });
    t.equal((await page()).status, 200, 'the signed-in page answers before the outage');

    // The load: more requests at once than the pool has connections (10), so clients are handed
    // from one request to the next while the backends die; 4 of the workers sign members in.
    const answers: Answer[] = [];
    let running = true;
    const worker = async (i: number) => {
      while (running) {
        const answer = i < 4 ? await signIn(MEMBERS[(i + n) % MEMBERS.length]!) : i % 3 === 0 ? await json() : await page();
        answers.push(answer);
      }
    };
    const workers = Array.from({ length: 24 }, (_, i) => worker(i));

    const killer = new pg.Client({ connectionString: adminUrl });
    await killer.connect();
    let terminated = 0;
    try {
      await sleep(1500);
      for (let round = 0; round < 4; round++) {
        // As in a restart, the database refuses new connections for a moment while its backends go:
        // without that the pool may reconnect between two queries and nobody notices the outage.
        await killer.query(`alter database ${name} allow_connections false`);
        const { rows } = await killer.query<{ n: number }>(
          'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [name],
        );
        terminated += rows[0]!.n;
        await sleep(400);
        await killer.query(`alter database ${name} allow_connections true`);
        await sleep(700);
      }
      await sleep(1500);
    } finally {
      running = false;
      await Promise.all(workers);
      await killer.end();
    }
    t.ok(terminated >= 4, `backends terminated: ${terminated}`);

    t.equal(server.exitCode, null, 'the server process is still alive');
    t.notMatch(node.output(), /Unhandled 'error' event|uncaughtException|ERR_UNHANDLED_ERROR/, 'no unhandled error');

    const byStatus = answers.reduce<Record<string, number>>((acc, a) => ({ ...acc, [`${a.kind} ${a.status}`]: (acc[`${a.kind} ${a.status}`] ?? 0) + 1 }), {});
    t.comment(`answers during the load: ${JSON.stringify(byStatus)}`);
    const unexpected = answers.filter((a) => a.status !== 200 && a.status !== 503);
    t.same(unexpected.map((a) => `${a.kind} ${a.status}: ${a.body.slice(0, 200)}`), [], 'every answer was 200 or 503: no 500, no dropped connection');
    const outage = answers.filter((a) => a.status === 503);
    t.ok(outage.length > 0, `the outage was felt: ${outage.length} answers 503`);
    const UNAVAILABLE = 'The service is briefly unavailable. Please try again in a few seconds.';
    const notErrorPage = outage.filter((a) => a.kind === 'page' && !(a.type.startsWith('text/html') && a.body.includes(UNAVAILABLE)));
    t.same(notErrorPage, [], 'a page during the outage is the HTML error page, saying the service is briefly unavailable');
    const notCatalogued = outage.filter((a) => a.kind !== 'page' && !(a.type.startsWith('application/json') && a.body.includes('"code":"ServiceUnavailable.Database"') && a.body.includes(UNAVAILABLE)));
    t.same(notCatalogued, [], 'a JSON call during the outage answers 503 ServiceUnavailable.Database');

    // Recovery, by itself.
    let ready = 0;
    for (let i = 0; i < 50 && ready !== 200; i++) {
      ready = (await call(port, agent, 'ready', 'GET', '/health/ready', {})).status;
      if (ready !== 200) await sleep(200);
    }
    t.equal(ready, 200, '/health/ready answers 200 again');
    t.equal((await call(port, agent, 'live', 'GET', '/health/live', {})).status, 200, '/health/live answers 200');
    const after = await page();
    t.equal(after.status, 200, 'the signed-in page answers again');
    t.match(after.body, 'user-menu', 'still signed in');
    t.equal((await signIn(MEMBERS[1]!)).status, 200, 'a member signs in again');

    // Every acknowledged sign-in left its session in the database.
    const acknowledged = answers.filter((a) => a.kind === 'sign-in' && a.status === 200).map((a) => sessionOf(a.cookies));
    t.ok(acknowledged.length > 0, `sign-ins acknowledged during the load: ${acknowledged.length}`);
    t.notOk(acknowledged.includes(undefined), 'each acknowledged sign-in carries its session cookie');
    const check = new pg.Client({ connectionString: url.toString() });
    await check.connect();
    const { rows } = await check.query<{ id: string }>('select id from sessions where id = any($1)', [acknowledged.map((sid) => sha256(sid!))]);
    await check.end();
    t.equal(rows.length, acknowledged.length, 'every acknowledged sign-in is in the database');

    server.kill('SIGTERM');
    t.equal(await exited, 0, 'and it shuts down cleanly');
  },
);
