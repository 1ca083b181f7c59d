// The wrong-password flood (issue 10, "Faults"): p99 of a signed-in page alone, then during a flood of
// wrong-password sign-ins, and the ratio (budget 2x). Self-contained, runnable alone:
//
//   node --import tsx scripts/bench/flood.ts                   PGlite, and PostgreSQL if BENCH_PG or DATABASE_URL names one
//   node --import tsx scripts/bench/flood.ts --serve <target>  (the server, a child process: "pglite" or a postgres:// URL)
//
// Two floods, each from its own autocannon beside the page's:
//   - one address: every guess from one client address, for one member; the sign-in limits lock the
//     account after a few guesses, then the global limit (600 a minute per address, the production
//     default) refuses the rest (429) before any hash;
//   - many addresses: every guess from a new address for a new unknown email, so no limit applies and
//     each guess costs a password hash (the worst case, what the cap on concurrent hashes is for).
// The server runs in a child process (production mode, TRUST_PROXY so that X-Forwarded-For names the
// client); autocannon runs here. Every load is bounded in time. It measures and prints; it asserts nothing.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { BenchModule } from './lib.ts';

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SCRIPT), '../..');
const HOST = '127.0.0.1';
const DEMO_MEMBER_EMAIL = 'amara.okafor@summit-demo.example.com';
const FLOOD_MEMBER_EMAIL = 'daniel.reyes@summit-demo.example.com';
const DEMO_COMMUNITY = 'summit';
const WRONG_PASSWORD = 'Not-The-Password-2026!';
/** The page's load comes from this many addresses in turn, each well under the global limit of 600 a minute. */
const PAGE_ADDRESSES = 4096;
const LOAD = { pageConnections: 10, floodConnections: 10, warmupSeconds: 2, durationSeconds: 8 };
const BUDGET_RATIO = 2;
const SERVER_START_TIMEOUT_MS = 120_000;

export type Figure = { figure: string; value: string };

/** In `npm run bench`: once, with servers of its own (production mode, the real limits). */
export const floodModule: BenchModule = {
  name: 'flood',
  scope: 'process',
  describe: `a signed-in page's p99 alone and during wrong-password floods (budget ${BUDGET_RATIO}x), on PGlite and PostgreSQL`,
  async run(ctx) {
    const figures = await run(ctx.log);
    return {
      sections: [{ key: 'flood', title: `Wrong-password flood: a signed-in page's p99 alone and during the flood (budget ${BUDGET_RATIO}x)`, head: ['figure', 'value'], rows: figures.map((f) => [f.figure, f.value]) }],
      warnings: [],
      data: figures,
    };
  },
};

// ---- the server (child) ---------------------------------------------------------------------------

async function serve(target: string): Promise<void> {
  const [{ buildApp }, { loadConfig }, { createDatabase, migrateToLatest }, { seedDemo }, { AUTH_COOKIE }] = await Promise.all([
    import('#src/app.ts'),
    import('#src/config.ts'),
    import('#src/db/index.ts'),
    import('#src/features/seed.ts'),
    import('#src/features/auth/sessions.ts'),
  ]);
  const pgliteDir = target === 'pglite' ? mkdtempSync(path.join(os.tmpdir(), 'bench-flood-')) : undefined;
  process.once('exit', () => pgliteDir && rmSync(pgliteDir, { recursive: true, force: true }));
  const { db } = await createDatabase(pgliteDir ? { kind: 'pglite', dataDir: pgliteDir } : { kind: 'postgres', url: target, poolSize: 10 });
  await migrateToLatest(db);
  await seedDemo(db, { production: false });
  const config = loadConfig({
    NODE_ENV: 'production',
    // The bench pays with the sandbox's test cards, so it names it (production refuses it unnamed).
    PAYMENT_PROCESSOR: 'sandbox',
    HOST,
    PORT: '0',
    COOKIE_SECRET: randomBytes(32).toString('hex'),
    // The production default (600 a minute per address): the one-address flood meets it, as it
    // would in production; the page's load comes from many addresses (see measure) so it does not.
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    TRUST_PROXY: 'true',
    DEFAULT_COMMUNITY: DEMO_COMMUNITY,
    ...(pgliteDir ? { DATA_DIR: pgliteDir } : { DATABASE_URL: target }),
  });
  const app = await buildApp({ config, db, ownsDb: true });
  await app.listen({ host: HOST, port: 0 });
  const community = await db.selectFrom('communities').selectAll().where('code', '=', DEMO_COMMUNITY).executeTakeFirstOrThrow();
  const { sessionTokenFor } = await import('./sessions.ts');
  const token = await sessionTokenFor(app, community, DEMO_MEMBER_EMAIL);
  const shutdown = () => {
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.stdin.on('close', shutdown);
  process.stdin.resume();
  const address = app.server.address();
  const port = address && typeof address !== 'string' ? address.port : 0;
  process.stdout.write(`FLOOD_READY ${JSON.stringify({ port, cookie: `${AUTH_COOKIE}=${token}` })}\n`);
}

// ---- the load (parent) ----------------------------------------------------------------------------

type Histogram = { p50: number; p90: number; p99: number; max: number; average: number };
type AutocannonResult = { latency: Histogram; requests: { average: number; total: number }; errors: number; timeouts: number; statusCodeStats?: Record<string, { count: number }> };
type RequestSpec = { method?: string; path?: string; headers?: Record<string, string>; body?: string; setupRequest?: (req: RequestSpec) => RequestSpec };
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  timeout?: number;
  headers?: Record<string, string>;
  requests?: RequestSpec[];
}) => PromiseLike<AutocannonResult> & { stop(): void };
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

function cannon(opts: Parameters<Autocannon>[0]) {
  const instance = autocannon({ timeout: 10, ...opts });
  const guard = setTimeout(() => instance.stop(), (opts.duration + 15) * 1000);
  return { done: Promise.resolve(instance).finally(() => clearTimeout(guard)), stop: () => instance.stop() };
}

const statuses = (r: AutocannonResult) => Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));

function request(port: number, method: string, urlPath: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: HOST, port, path: urlPath, method, headers, agent: false, timeout: 10_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${urlPath} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

async function csrfPair(port: number) {
  const res = await request(port, 'GET', '/login', { accept: 'text/html', 'x-forwarded-for': '192.0.2.1' });
  const token = /<meta name="csrf-token" content="([^"]+)"/.exec(res.body)?.[1];
  const cookie = (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!).find((c) => c.startsWith('_csrf='));
  if (!token || !cookie) throw new Error(`GET /login gave no CSRF token (status ${res.status})`);
  return { token, cookie };
}

type Flood = { label: string; requests: RequestSpec[] };

function floods(csrf: { token: string; cookie: string }): Flood[] {
  const headers = { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', cookie: csrf.cookie };
  const body = (email: string) => new URLSearchParams({ email, password: WRONG_PASSWORD, _csrf: csrf.token }).toString();
  let n = 0;
  return [
    { label: 'one address, one member', requests: [{ method: 'POST', path: '/login/password', headers: { ...headers, 'x-forwarded-for': '203.0.113.9' }, body: body(FLOOD_MEMBER_EMAIL) }] },
    {
      label: 'a new address and unknown email per guess',
      requests: [
        {
          method: 'POST',
          path: '/login/password',
          setupRequest: (req) => {
            n += 1;
            return { ...req, headers: { ...headers, 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` }, body: body(`nobody-${n}@flood.invalid`) };
          },
        },
      ],
    },
  ];
}

async function measure(port: number, cookie: string, log: (s: string) => void): Promise<Figure[]> {
  const pageUrl = `http://${HOST}:${port}/`;
  const pageHeaders = { accept: 'text/html', cookie };
  const check = await request(port, 'GET', '/', { ...pageHeaders, 'x-forwarded-for': '198.51.100.1' });
  if (check.status !== 200 || !check.body.includes('user-menu')) throw new Error(`the signed-in page answered ${check.status}${check.body.includes('user-menu') ? '' : ', not signed in'}`);
  let turn = 0;
  const pageRequest: RequestSpec = {
    method: 'GET',
    path: '/',
    setupRequest: (req) => {
      turn = (turn + 1) % PAGE_ADDRESSES;
      return { ...req, headers: { ...pageHeaders, 'x-forwarded-for': `172.16.${turn >> 8}.${turn & 255}` } };
    },
  };
  const page = (seconds: number) => cannon({ url: pageUrl, connections: LOAD.pageConnections, duration: seconds, requests: [pageRequest] }).done;
  await page(LOAD.warmupSeconds);
  // The page alone is measured before the floods and again after them; the ratios divide by the
  // better p99 of the two (a machine shared with other work makes single runs noisy; this errs on the
  // side of a larger ratio).
  const aloneRuns = [await page(LOAD.durationSeconds)];
  const figures: Figure[] = [];
  const during: Array<{ flood: Flood; r: AutocannonResult; f: AutocannonResult }> = [];
  for (const flood of floods(await csrfPair(port))) {
    log(`flood: ${flood.label}…`);
    const run = cannon({ url: `http://${HOST}:${port}`, connections: LOAD.floodConnections, duration: LOAD.warmupSeconds + LOAD.durationSeconds + 5, requests: flood.requests });
    let withFlood: AutocannonResult;
    try {
      await page(LOAD.warmupSeconds);
      withFlood = await page(LOAD.durationSeconds);
    } finally {
      run.stop();
    }
    during.push({ flood, r: withFlood, f: await run.done });
  }
  await page(LOAD.warmupSeconds);
  aloneRuns.push(await page(LOAD.durationSeconds));
  const alone = aloneRuns.reduce((a, b) => (b.latency.p99 < a.latency.p99 ? b : a));
  for (const [i, r] of aloneRuns.entries()) {
    figures.push({ figure: `signed-in page / alone, ${i ? 'after' : 'before'} the floods: p99 (p50), req/s`, value: `${r.latency.p99} ms (${r.latency.p50} ms), ${Math.round(r.requests.average)}/s ${JSON.stringify(statuses(r))}` });
  }
  for (const { flood, r, f } of during) {
    const ratio = r.latency.p99 / Math.max(1, alone.latency.p99);
    figures.push(
      { figure: `signed-in page / flood (${flood.label}): p99 (p50), req/s`, value: `${r.latency.p99} ms (${r.latency.p50} ms), ${Math.round(r.requests.average)}/s ${JSON.stringify(statuses(r))}` },
      { figure: `  p99 ratio flood/alone (budget ${BUDGET_RATIO}x)`, value: `${ratio.toFixed(2)}x ${ratio <= BUDGET_RATIO ? 'within budget' : 'OVER BUDGET'}` },
      { figure: `  the flood: req/s, p99, answers`, value: `${Math.round(f.requests.average)}/s, p99 ${f.latency.p99} ms, ${JSON.stringify(statuses(f))}${f.errors ? `, ${f.errors} errors` : ''}` },
    );
  }
  return figures;
}

async function startServer(target: string): Promise<{ child: ChildProcess; port: number; cookie: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, '--serve', target], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let errText = '';
  child.stderr!.on('data', (d: Buffer) => (errText = (errText + d.toString()).slice(-4000)));
  const info = await new Promise<{ port: number; cookie: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start\n${errText}`)), SERVER_START_TIMEOUT_MS);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('FLOOD_READY ')) return;
      clearTimeout(timer);
      resolve(JSON.parse(line.slice('FLOOD_READY '.length)));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code})\n${errText}`));
    });
  });
  return { child, ...info };
}

function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function onBackend(label: string, target: string, log: (s: string) => void): Promise<Figure[]> {
  log(`[${label}] starting the server…`);
  const server = await startServer(target);
  try {
    return (await measure(server.port, server.cookie, (s) => log(`[${label}] ${s}`))).map((f) => ({ figure: `${label}: ${f.figure}`, value: f.value }));
  } finally {
    await stopServer(server.child);
  }
}

/** The flood's figures, on PGlite and, when BENCH_PG or DATABASE_URL names a server, on a fresh PostgreSQL database. */
export async function run(log: (s: string) => void = (s) => console.error(s)): Promise<Figure[]> {
  const figures = await onBackend('PGlite', 'pglite', log);
  const adminUrl = process.env.BENCH_PG ?? process.env.DATABASE_URL;
  if (!adminUrl) return [...figures, { figure: 'PostgreSQL', value: 'skipped (set BENCH_PG or DATABASE_URL)' }];
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await admin.connect();
  const name = `bench_flood_${randomBytes(4).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    await admin.query(`create database ${name}`);
    figures.push(...(await onBackend('PostgreSQL', url.toString(), log)));
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end();
  }
  return figures;
}

if (process.argv[1] === SCRIPT) {
  if (process.argv[2] === '--serve') {
    await serve(process.argv[3]!);
  } else {
    const figures = await run();
    const width = Math.max(...figures.map((f) => f.figure.length));
    console.log(figures.map((f) => `${f.figure.padEnd(width)}  ${f.value}`).join('\n'));
  }
}
