// `npm run bench`: page weight, SQL queries per request, throughput, password hashing, sign-in
// throughput and responsiveness under a password-guessing flood. It measures and prints; it
// asserts nothing. Everything runs on 127.0.0.1 and every load loop is bounded in time.
//
// Two roles in one file:
//   node --import tsx scripts/bench.ts                   the bench (parent): measures, prints, writes JSON
//   node --import tsx scripts/bench.ts --serve <target>  a server (child) on PGlite ("pglite") or on
//                                                        the PostgreSQL database at <target>
// The server runs in a child process so that autocannon (in the parent) does not share an event loop
// with it. See docs/bench.md.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { ARGON2_OPTIONS, hashPassword, verifyPassword } from '#src/core/passwords.ts';
import { DEMO_MEMBER_PASSWORD } from '#src/db/seed.ts';

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SCRIPT), '..');
const RESULTS_DIR = path.join(ROOT, 'bench-results');

const HOST = '127.0.0.1';
const POSTGRES_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';
const DEMO_MEMBER_EMAIL = 'amara.okafor@summit-demo.example.com';
const DEMO_COMMUNITY = 'summit';
/** The member whose wrong passwords make the flood: not DEMO_MEMBER_EMAIL, whose sign-ins are measured first. */
const FLOOD_MEMBER_EMAIL = 'daniel.reyes@summit-demo.example.com';
const WRONG_PASSWORD = 'Not-The-Password-2026!';
/** OWASP's minimum for argon2id (Password Storage Cheat Sheet), which the issue requires. */
const OWASP_ARGON2ID_MIN = { memoryMiB: 19, timeCost: 2, parallelism: 1 };
const HASH_SAMPLES = 20;

const LOAD = { connections: 10, warmupSeconds: 2, durationSeconds: 8 };
const KIB = 1024;
const BUDGETS = { jsMaxBytes: 100 * KIB, htmlCssMaxBytes: 30 * KIB };
const SERVER_START_TIMEOUT_MS = 120_000;
const HTTP_TIMEOUT_MS = 10_000;
/** Whole-run watchdog: the bench is meant to take well under five minutes (about two on 2 cores). */
const WATCHDOG_MS = 6 * 60_000;

type ServerInfo = { probePort: number; loadPort: number; cookie: string; startupMs: number; signInEmails: string[] };

// ---------------------------------------------------------------------------------------------
// The server (child process)
// ---------------------------------------------------------------------------------------------

async function serve(target: string): Promise<void> {
  const started = performance.now();
  // Imported here so the parent does not load the application.
  const [{ buildApp }, { loadConfig }, { createDatabase, migrateToLatest }, { seedDemo }, { AUTH_COOKIE, startSession }] = await Promise.all([
    import('#src/app.ts'),
    import('#src/config.ts'),
    import('#src/db/index.ts'),
    import('#src/db/seed.ts'),
    import('#src/features/auth/sessions.ts'),
  ]);

  const pgliteDir = target === 'pglite' ? mkdtempSync(path.join(os.tmpdir(), 'bench-pglite-')) : undefined;
  const removeDir = () => {
    if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
  };
  process.once('exit', removeDir);

  const { db } = await createDatabase(pgliteDir ? { kind: 'pglite', dataDir: pgliteDir } : { kind: 'postgres', url: target, poolSize: 10 });
  await migrateToLatest(db);
  // The seed refuses production by design; this is a throwaway bench database, seeded before the
  // production-mode app exists.
  await seedDemo(db, { production: false });

  const config = loadConfig({
    NODE_ENV: 'production',
    HOST,
    PORT: '0',
    COOKIE_SECRET: process.env.BENCH_COOKIE_SECRET ?? randomBytes(32).toString('hex'),
    RATE_LIMIT_MAX: '100000000',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    DEFAULT_COMMUNITY: DEMO_COMMUNITY,
    ...(pgliteDir ? { DATA_DIR: pgliteDir } : { DATABASE_URL: target }),
  });

  // Two apps on the same database: the probe counts SQL statements (Server-Timing, which buildApp
  // enables in production only when BENCH_QUERY_COUNT=1 at build time); the load app is a plain
  // production app, so the throughput figures do not pay for the counting.
  const previous = process.env.BENCH_QUERY_COUNT;
  process.env.BENCH_QUERY_COUNT = '1';
  const probe = await buildApp({ config, db });
  if (previous === undefined) delete process.env.BENCH_QUERY_COUNT;
  else process.env.BENCH_QUERY_COUNT = previous;
  const load = await buildApp({ config, db, ownsDb: true });

  await probe.listen({ host: HOST, port: 0 });
  await load.listen({ host: HOST, port: 0 });
  const portOf = (app: typeof load) => {
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('The server has no TCP address');
    return address.port;
  };

  // The signed-in cookie, made the way test/helpers/factories.ts `signIn` makes it.
  const community = await db.selectFrom('communities').selectAll().where('code', '=', DEMO_COMMUNITY).executeTakeFirstOrThrow();
  const member = await db
    .selectFrom('users')
    .innerJoin('memberships', 'memberships.user_id', 'users.id')
    .select(['users.id', 'memberships.roles', 'memberships.gate'])
    .where('users.email', '=', DEMO_MEMBER_EMAIL)
    .where('memberships.community_id', '=', community.id)
    .executeTakeFirstOrThrow();
  const { token } = await startSession(db, load.sessionTokens, load.clock, {
    userId: member.id,
    community,
    roles: member.roles,
    gate: member.gate,
    basePath: config.basePath,
  });

  // The members whose sign-ins are measured, one per connection: DEMO_MEMBER_EMAIL first, then other
  // demo members of the community with the demo password; never the flood's member.
  const others = await db
    .selectFrom('users')
    .innerJoin('memberships', 'memberships.user_id', 'users.id')
    .select('users.email')
    .where('memberships.community_id', '=', community.id)
    .where('memberships.is_active', '=', true)
    .where('users.is_active', '=', true)
    .where('users.password_hash', 'is not', null)
    .where('users.email', 'like', `%@${DEMO_MEMBER_EMAIL.split('@')[1]}`)
    .where('users.email', 'not in', [DEMO_MEMBER_EMAIL, FLOOD_MEMBER_EMAIL])
    .orderBy('users.id')
    .limit(LOAD.connections - 1)
    .execute();
  const signInEmails = [DEMO_MEMBER_EMAIL, ...others.map((r) => r.email)];

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await probe.close();
      await load.close(); // destroys the database (ownsDb)
    } finally {
      removeDir();
      process.exit(0);
    }
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  // If the parent goes away, so do we.
  process.stdin.on('end', shutdown);
  process.stdin.on('close', shutdown);
  process.stdin.resume();

  const info: ServerInfo = {
    probePort: portOf(probe),
    loadPort: portOf(load),
    cookie: `${AUTH_COOKIE}=${token}`,
    startupMs: Math.round(performance.now() - started),
    signInEmails,
  };
  process.stdout.write(`BENCH_READY ${JSON.stringify(info)}\n`);
}

// ---------------------------------------------------------------------------------------------
// The bench (parent process)
// ---------------------------------------------------------------------------------------------

type Response = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

function get(port: number, urlPath: string, headers: Record<string, string> = {}): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: HOST, port, path: urlPath, method: 'GET', headers, agent: false, timeout: HTTP_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${urlPath} timed out after ${HTTP_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end();
  });
}

const gz = (b: Buffer) => gzipSync(b, { level: 9 }).length;

/** N from `server-timing: db;desc="SQL queries";dur=N`, or null when the header is missing. */
function sqlQueries(res: Response): number | null {
  const header = res.headers['server-timing'];
  const value = Array.isArray(header) ? header.join(',') : header;
  const match = value ? /(?:^|,)\s*db;[^,]*dur=([\d.]+)/.exec(value) : null;
  return match ? Number(match[1]) : null;
}

const decodeEntities = (s: string) =>
  s.replace(/&(amp|quot|lt|gt|#39|#x27);/g, (_, e: string) => ({ amp: '&', quot: '"', lt: '<', gt: '>', '#39': "'", '#x27': "'" })[e]!);

/** The attributes of each start tag `<name ...>` in the HTML (a small parser, enough for our markup). */
function tags(html: string, name: string): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  const tagRe = new RegExp(`<${name}\\b([^>]*)>`, 'gi');
  for (const m of html.matchAll(tagRe)) {
    const attrs: Record<string, string> = {};
    for (const a of m[1]!.matchAll(/([^\s"'=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
      attrs[a[1]!.toLowerCase()] = decodeEntities(a[2] ?? a[3] ?? a[4] ?? '');
    }
    out.push(attrs);
  }
  return out;
}

/** The shell shows the user menu only to a signed-in member. */
const isSignedInPage = (html: string) => html.includes('class="menu user-menu"');

type PageSpec = { key: string; label: string; path: string; signedIn: boolean; expectStatus: number };

const PAGES: PageSpec[] = [
  { key: 'home-signed-out', label: 'Home, signed out  /', path: '/', signedIn: false, expectStatus: 200 },
  { key: 'not-found', label: '404  /no-such-page', path: '/no-such-page', signedIn: false, expectStatus: 404 },
  { key: 'home-signed-in', label: 'Home, signed in  / (bell)', path: '/', signedIn: true, expectStatus: 200 },
];

type Asset = { url: string; rawBytes: number; gzipBytes: number; status: number };

type PageResult = {
  key: string;
  label: string;
  path: string;
  signedIn: boolean;
  status: number;
  expectedStatus: number;
  islands: string[];
  html: { rawBytes: number; gzipBytes: number };
  css: { rawBytes: number; gzipBytes: number; files: Asset[] };
  js: { rawBytes: number; gzipBytes: number; files: Asset[] };
  requests: { total: number; urls: string[]; external: string[] };
  sqlQueries: { steady: number | null; samples: (number | null)[]; communityCacheMiss: number | null };
  budgets: { jsZeroWithoutIsland: Verdict; jsMax: Verdict; htmlCssMax: Verdict };
  warnings: string[];
};

type Verdict = 'pass' | 'over' | 'n/a';

async function fetchAsset(port: number, url: URL): Promise<Asset> {
  const res = await get(port, url.pathname + url.search);
  return { url: url.pathname + url.search, rawBytes: res.body.length, gzipBytes: gz(res.body), status: res.status };
}

async function measurePage(port: number, cookie: string, spec: PageSpec, coldHost: string): Promise<PageResult> {
  const headers: Record<string, string> = { accept: 'text/html,application/xhtml+xml', 'accept-encoding': 'identity' };
  if (spec.signedIn) headers.cookie = cookie;
  // One request to warm the caches (community per host: 10 s; ads per community: 30 s), then samples.
  await get(port, spec.path, headers);
  const samples: Response[] = [];
  for (let i = 0; i < 3; i++) samples.push(await get(port, spec.path, headers));
  const res = samples[samples.length - 1]!;
  // The same page for a host name the community cache has not seen: what a cache miss costs.
  const cold = await get(port, spec.path, { ...headers, host: coldHost });

  const html = res.body.toString('utf8');
  const base = new URL(`http://${HOST}:${port}${spec.path}`);
  const sameOrigin = (u: URL) => u.origin === base.origin;
  const resolve = (href: string) => new URL(href, base);

  const links = tags(html, 'link');
  const rels = (l: Record<string, string>) => (l.rel ?? '').toLowerCase().split(/\s+/);
  const stylesheets = links.filter((l) => rels(l).includes('stylesheet') && l.href).map((l) => resolve(l.href!));
  const preloads = links.filter((l) => rels(l).includes('modulepreload') && l.href).map((l) => resolve(l.href!));
  const icons = links.filter((l) => rels(l).includes('icon') && l.href).map((l) => resolve(l.href!));
  const scripts = tags(html, 'script')
    .filter((s) => s.src)
    .map((s) => resolve(s.src!));
  const images = tags(html, 'img')
    .filter((i) => i.src)
    .map((i) => resolve(i.src!));
  const islands = [...html.matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]!);

  const distinct = (urls: URL[]) => [...new Map(urls.map((u) => [u.href, u])).values()];
  const cssFiles = await Promise.all(distinct(stylesheets).filter(sameOrigin).map((u) => fetchAsset(port, u)));
  const jsFiles = await Promise.all(distinct([...scripts, ...preloads]).filter(sameOrigin).map((u) => fetchAsset(port, u)));

  // What a browser would request: the document, then every distinct subresource URL (data: URLs are not requests).
  const subresources = distinct([...stylesheets, ...scripts, ...preloads, ...images, ...icons]).filter((u) => u.protocol !== 'data:');
  const sum = (files: Asset[], k: 'rawBytes' | 'gzipBytes') => files.reduce((n, f) => n + f[k], 0);
  const htmlGz = gz(res.body);
  const cssGz = sum(cssFiles, 'gzipBytes');
  const jsGz = sum(jsFiles, 'gzipBytes');
  const sqlSamples = samples.map(sqlQueries);
  const numeric = sqlSamples.filter((n): n is number => n !== null);
  const warnings: string[] = [];
  if (res.status !== spec.expectStatus) warnings.push(`status ${res.status}, expected ${spec.expectStatus}`);
  if (spec.signedIn !== isSignedInPage(html)) warnings.push(spec.signedIn ? 'the page did not render signed in' : 'the page rendered signed in');
  if (!numeric.length) warnings.push('no Server-Timing query count in the response');
  for (const f of [...cssFiles, ...jsFiles]) if (f.status !== 200) warnings.push(`${f.url} answered ${f.status}`);

  return {
    key: spec.key,
    label: spec.label,
    path: spec.path,
    signedIn: spec.signedIn,
    status: res.status,
    expectedStatus: spec.expectStatus,
    islands: [...new Set(islands)],
    html: { rawBytes: res.body.length, gzipBytes: htmlGz },
    css: { rawBytes: sum(cssFiles, 'rawBytes'), gzipBytes: cssGz, files: cssFiles },
    js: { rawBytes: sum(jsFiles, 'rawBytes'), gzipBytes: jsGz, files: jsFiles },
    requests: {
      total: 1 + subresources.length,
      urls: subresources.map((u) => (sameOrigin(u) ? u.pathname + u.search : u.href)),
      external: subresources.filter((u) => !sameOrigin(u)).map((u) => u.href),
    },
    sqlQueries: {
      steady: numeric.length ? Math.max(...numeric) : null,
      samples: sqlSamples,
      communityCacheMiss: sqlQueries(cold),
    },
    budgets: {
      jsZeroWithoutIsland: islands.length ? 'n/a' : jsGz === 0 ? 'pass' : 'over',
      jsMax: jsGz <= BUDGETS.jsMaxBytes ? 'pass' : 'over',
      htmlCssMax: htmlGz + cssGz <= BUDGETS.htmlCssMaxBytes ? 'pass' : 'over',
    },
    warnings,
  };
}

// autocannon ships no types; this is the part of its programmatic API the bench uses.
type Histogram = { average: number; mean: number; stddev: number; min: number; max: number; p50: number; p90: number; p99: number; total?: number };
type AutocannonResult = {
  requests: Histogram & { total: number };
  latency: Histogram;
  throughput: Histogram;
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats?: Record<string, { count: number }>;
};
type AutocannonInstance = PromiseLike<AutocannonResult> & { stop(): void };
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  timeout?: number;
  /** Called once per connection as it is made; `setBody` gives that connection its own body. */
  setupClient?: (client: { setBody(body: string): void }) => void;
}) => AutocannonInstance;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

type LoadRequest = { method?: 'GET' | 'POST'; body?: string; headers: Record<string, string>; bodies?: string[] };

/** Starts one autocannon run, stopped by a timer if it outlives its duration (plus slack); `stop` ends it early. */
function startCannon(url: string, seconds: number, request: LoadRequest): { done: Promise<AutocannonResult>; stop: () => void } {
  const { bodies, ...rest } = request;
  // With `bodies`, connection i sends bodies[i % bodies.length] for the whole run.
  let next = 0;
  const setupClient = bodies?.length ? (client: { setBody(body: string): void }) => client.setBody(bodies[next++ % bodies.length]!) : undefined;
  const instance = autocannon({ url, connections: LOAD.connections, duration: seconds, timeout: 10, ...rest, ...(setupClient ? { setupClient } : {}) });
  const guard = setTimeout(() => instance.stop(), (seconds + 15) * 1000);
  const done = Promise.resolve(instance).finally(() => clearTimeout(guard));
  return { done, stop: () => instance.stop() };
}

/** One autocannon run, bounded in time. */
const cannon = (url: string, seconds: number, headers: Record<string, string>): Promise<AutocannonResult> => startCannon(url, seconds, { headers }).done;

const statusCounts = (r: AutocannonResult): Record<string, number> =>
  Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, Number(v.count)]));

const latencyOf = (r: AutocannonResult) => ({
  p50: r.latency.p50,
  p90: r.latency.p90,
  p99: r.latency.p99,
  max: r.latency.max,
  average: Math.round(r.latency.average * 100) / 100,
});

type ThroughputResult = {
  target: string;
  path: string;
  signedIn: boolean;
  requestsPerSecond: number;
  totalRequests: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  durationSeconds: number;
  warnings: string[];
};

async function throughput(port: number, cookie: string, target: { label: string; path: string; signedIn: boolean }): Promise<ThroughputResult> {
  const url = `http://${HOST}:${port}${target.path}`;
  const headers: Record<string, string> = { accept: 'text/html' };
  if (target.signedIn) headers.cookie = cookie;
  // Check once that the target answers what we mean to measure (200; signed in when it should be).
  const warnings: string[] = [];
  const check = await get(port, target.path, headers);
  if (check.status !== 200) warnings.push(`answered ${check.status} before the load`);
  if (target.signedIn && !isSignedInPage(check.body.toString('utf8'))) warnings.push('did not render signed in before the load');
  await cannon(url, LOAD.warmupSeconds, headers);
  const r = await cannon(url, LOAD.durationSeconds, headers);
  return {
    target: target.label,
    path: target.path,
    signedIn: target.signedIn,
    requestsPerSecond: Math.round(r.requests.average),
    totalRequests: r.requests.total,
    latencyMs: latencyOf(r),
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes: statusCounts(r),
    durationSeconds: r.duration,
    warnings,
  };
}

// ---- password hashing, sign-in, and the guessing flood ------------------------------------------

/** Nearest-rank percentile of a sample (p in 0..100). */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
const round1 = (n: number) => Math.round(n * 10) / 10;
const availableCores = () => os.availableParallelism?.() ?? os.cpus().length;

type HashTiming = { samples: number; medianMs: number; p95Ms: number; minMs: number; maxMs: number };
type PasswordHashingResult = {
  algorithm: 'argon2id';
  memoryKiB: number;
  memoryMiB: number;
  timeCost: number;
  parallelism: number;
  owaspMinimum: typeof OWASP_ARGON2ID_MIN;
  meetsOwaspMinimum: boolean;
  hash: HashTiming;
  verify: HashTiming;
  /** Sign-ins per second that the CPUs could verify at most: cores × 1000 / verify median. A ceiling, not a measurement. */
  verifyCeilingPerSecond: number;
};

/** Sequential hashPassword and verifyPassword calls in this (the bench) process, before any server starts. */
async function measurePasswordHashing(): Promise<PasswordHashingResult> {
  const timing = (ms: number[]): HashTiming => ({
    samples: ms.length,
    medianMs: round1(percentile(ms, 50)),
    p95Ms: round1(percentile(ms, 95)),
    minMs: round1(Math.min(...ms)),
    maxMs: round1(Math.max(...ms)),
  });
  // One call of each first, discarded (loads the addon, warms the thread pool).
  const warm = await hashPassword(DEMO_MEMBER_PASSWORD);
  await verifyPassword(warm, DEMO_MEMBER_PASSWORD);
  const hashMs: number[] = [];
  let hash = warm;
  for (let i = 0; i < HASH_SAMPLES; i++) {
    const t = performance.now();
    hash = await hashPassword(DEMO_MEMBER_PASSWORD);
    hashMs.push(performance.now() - t);
  }
  const verifyMs: number[] = [];
  for (let i = 0; i < HASH_SAMPLES; i++) {
    const t = performance.now();
    const ok = await verifyPassword(hash, DEMO_MEMBER_PASSWORD);
    verifyMs.push(performance.now() - t);
    if (!ok) throw new Error('verifyPassword refused the password it had just hashed');
  }
  const memoryMiB = ARGON2_OPTIONS.memoryCost / 1024;
  const verify = timing(verifyMs);
  return {
    algorithm: 'argon2id',
    memoryKiB: ARGON2_OPTIONS.memoryCost,
    memoryMiB,
    timeCost: ARGON2_OPTIONS.timeCost,
    parallelism: ARGON2_OPTIONS.parallelism,
    owaspMinimum: OWASP_ARGON2ID_MIN,
    meetsOwaspMinimum:
      memoryMiB >= OWASP_ARGON2ID_MIN.memoryMiB && ARGON2_OPTIONS.timeCost >= OWASP_ARGON2ID_MIN.timeCost && ARGON2_OPTIONS.parallelism >= OWASP_ARGON2ID_MIN.parallelism,
    hash: timing(hashMs),
    verify,
    verifyCeilingPerSecond: Math.round((availableCores() * 1000) / verify.medianMs),
  };
}


function post(port: number, urlPath: string, body: string, headers: Record<string, string>): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: HOST, port, path: urlPath, method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: false, timeout: HTTP_TIMEOUT_MS },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`POST ${urlPath} timed out after ${HTTP_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** A CSRF token and its `_csrf` cookie, from one signed-out GET /login; a token stays valid for its cookie. */
async function csrfPair(port: number): Promise<{ token: string; cookie: string }> {
  const res = await get(port, '/login', { accept: 'text/html' });
  if (res.status !== 200) throw new Error(`GET /login answered ${res.status}`);
  const token = tags(res.body.toString('utf8'), 'meta').find((m) => m.name === 'csrf-token')?.content;
  const setCookie = res.headers['set-cookie'] ?? [];
  const cookie = setCookie.map((c) => c.split(';')[0]!.trim()).find((c) => c.startsWith('_csrf='));
  if (!token || !cookie) throw new Error(`GET /login gave no ${token ? '_csrf cookie' : 'csrf-token meta tag'}`);
  return { token, cookie };
}

/** The HTML sign-in form's POST: the fields the password step's form sends, with the token and its cookie. */
const signInBody = (csrf: { token: string }, email: string, password: string) => new URLSearchParams({ email, password, _csrf: csrf.token }).toString();
const signInHeaders = (csrf: { cookie: string }) => ({ accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', cookie: csrf.cookie });

type SignInResult = {
  path: string;
  /** One member per connection, in this order. */
  emails: string[];
  requestsPerSecond: number;
  totalRequests: number;
  latencyMs: ThroughputResult['latencyMs'];
  signedIn303: number;
  otherStatuses: Record<string, number>;
  errors: number;
  timeouts: number;
  durationSeconds: number;
  warnings: string[];
};

/**
 * Item 2 of issue 3: sign-ins per second with the right password, under LOAD.connections concurrent
 * connections, each signing in its own member (as many members signing in at once would): the
 * per-account-and-address limit counts an attempt as it begins, so more than five concurrent sign-ins
 * of one account from one address would trip it.
 */
async function signInThroughput(port: number, csrf: { token: string; cookie: string }, emails: string[]): Promise<SignInResult> {
  const headers = signInHeaders(csrf);
  const request: LoadRequest = { method: 'POST', headers, bodies: emails.map((e) => signInBody(csrf, e, DEMO_MEMBER_PASSWORD)) };
  const warnings: string[] = [];
  if (emails.length < LOAD.connections) warnings.push(`only ${emails.length} members for ${LOAD.connections} connections: some sign in on two at once`);
  // One sign-in per member before the load, one at a time: each must answer 303 with the session cookies.
  for (const [i, email] of emails.entries()) {
    const check = await post(port, '/login/password', request.bodies![i]!, headers);
    const setsSession = (check.headers['set-cookie'] ?? []).length > 0;
    if (check.status !== 303 || !setsSession) warnings.push(`${email} answered ${check.status}${setsSession ? '' : ' without a cookie'} before the load, not 303 with the session cookies`);
  }
  const url = `http://${HOST}:${port}/login/password`;
  await startCannon(url, LOAD.warmupSeconds, request).done;
  const r = await startCannon(url, LOAD.durationSeconds, request).done;
  const statuses = statusCounts(r);
  const { '303': signedIn303 = 0, ...otherStatuses } = statuses;
  if (Object.keys(otherStatuses).length) warnings.push(`answered other than 303: ${JSON.stringify(otherStatuses)}`);
  return {
    path: '/login/password',
    emails,
    requestsPerSecond: round1(r.requests.average),
    totalRequests: r.requests.total,
    latencyMs: latencyOf(r),
    signedIn303,
    otherStatuses,
    errors: r.errors,
    timeouts: r.timeouts,
    durationSeconds: r.duration,
    warnings,
  };
}

type PageUnderLoad = { requestsPerSecond: number; totalRequests: number; latencyMs: ThroughputResult['latencyMs']; statusCodes: Record<string, number>; errors: number; timeouts: number };
type FloodResult = {
  page: { path: string; alone: PageUnderLoad; withFlood: PageUnderLoad };
  flood: {
    path: string;
    email: string;
    requestsPerSecond: number;
    totalRequests: number;
    latencyMs: ThroughputResult['latencyMs'];
    wrongPassword401: number;
    lockedOut429: number;
    otherStatuses: Record<string, number>;
    errors: number;
    timeouts: number;
    durationSeconds: number;
  };
  warnings: string[];
};

/**
 * Item 3 of issue 3: the signed-in page alone (2 s warm-up + 8 s), then the same again while a second
 * autocannon floods POST /login/password with wrong passwords for FLOOD_MEMBER_EMAIL. All from
 * 127.0.0.1, so the per-address and per-account limits lock the account after a few tries and the
 * rest are refused with the 429 lockout page before any hash. The flood starts with the page's
 * warm-up and stops when the page's measured run ends.
 */
async function floodComparison(port: number, cookie: string, csrf: { token: string; cookie: string }): Promise<FloodResult> {
  const pageUrl = `http://${HOST}:${port}/`;
  const pageHeaders = { accept: 'text/html', cookie };
  const pageFigures = (r: AutocannonResult): PageUnderLoad => ({
    requestsPerSecond: Math.round(r.requests.average),
    totalRequests: r.requests.total,
    latencyMs: latencyOf(r),
    statusCodes: statusCounts(r),
    errors: r.errors,
    timeouts: r.timeouts,
  });
  const warnings: string[] = [];
  await cannon(pageUrl, LOAD.warmupSeconds, pageHeaders);
  const alone = pageFigures(await cannon(pageUrl, LOAD.durationSeconds, pageHeaders));

  const floodRun = startCannon(`http://${HOST}:${port}/login/password`, LOAD.warmupSeconds + LOAD.durationSeconds + 5, {
    method: 'POST',
    body: signInBody(csrf, FLOOD_MEMBER_EMAIL, WRONG_PASSWORD),
    headers: signInHeaders(csrf),
  });
  let withFlood: PageUnderLoad;
  try {
    await cannon(pageUrl, LOAD.warmupSeconds, pageHeaders);
    withFlood = pageFigures(await cannon(pageUrl, LOAD.durationSeconds, pageHeaders));
  } finally {
    floodRun.stop();
  }
  const f = await floodRun.done;
  const { '401': wrongPassword401 = 0, '429': lockedOut429 = 0, ...otherStatuses } = statusCounts(f);
  for (const [name, p] of [['alone', alone], ['with the flood', withFlood]] as const) {
    const bad = Object.entries(p.statusCodes).filter(([code]) => code !== '200');
    if (bad.length || p.errors || p.timeouts) warnings.push(`the page ${name}: ${JSON.stringify(Object.fromEntries(bad))}, ${p.errors} errors, ${p.timeouts} timeouts`);
  }
  if (Object.keys(otherStatuses).length) warnings.push(`the flood got other than 401/429: ${JSON.stringify(otherStatuses)}`);
  if (!lockedOut429) warnings.push('the flood was never locked out (no 429)');
  return {
    page: { path: '/', alone, withFlood },
    flood: {
      path: '/login/password',
      email: FLOOD_MEMBER_EMAIL,
      requestsPerSecond: Math.round(f.requests.average),
      totalRequests: f.requests.total,
      latencyMs: latencyOf(f),
      wrongPassword401,
      lockedOut429,
      otherStatuses,
      errors: f.errors,
      timeouts: f.timeouts,
      durationSeconds: f.duration,
    },
    warnings,
  };
}

const children = new Set<ChildProcess>();

async function startServer(target: string): Promise<{ child: ChildProcess; info: ServerInfo; stderr: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, '--serve', target], {
    cwd: ROOT,
    // NODE_ENV=production also selects React's production server renderer.
    env: { ...process.env, NODE_ENV: 'production', BENCH_COOKIE_SECRET: randomBytes(32).toString('hex') },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let errText = '';
  child.stderr!.on('data', (d: Buffer) => {
    errText = (errText + d.toString()).slice(-8000);
  });
  const info = await new Promise<ServerInfo>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The server did not start within ${SERVER_START_TIMEOUT_MS / 1000} s.\n${errText}`)), SERVER_START_TIMEOUT_MS);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (!line.startsWith('BENCH_READY ')) return;
      clearTimeout(timer);
      resolve(JSON.parse(line.slice('BENCH_READY '.length)) as ServerInfo);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`The server exited before it was ready (code ${code}, signal ${signal}).\n${errText}`));
    });
  });
  return { child, info, stderr: () => errText };
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

type BackendResult = {
  backend: 'pglite' | 'postgres';
  label: string;
  skipped?: string;
  database?: string;
  serverStartupMs?: number;
  pages?: PageResult[];
  throughput?: ThroughputResult[];
  signIn?: SignInResult;
  flood?: FloodResult;
  error?: string;
};

const THROUGHPUT_TARGETS = [
  { label: 'Home, signed in  /', path: '/', signedIn: true },
  { label: 'Bare route  /health/live', path: '/health/live', signedIn: false },
];

async function benchBackend(backend: 'pglite' | 'postgres', label: string, target: string, log: (s: string) => void): Promise<BackendResult> {
  log(`[${label}] starting the server (migrate, seed, production-mode app)…`);
  const { child, info } = await startServer(target);
  try {
    log(`[${label}] ready in ${(info.startupMs / 1000).toFixed(1)} s; measuring page weight and SQL queries…`);
    const pages: PageResult[] = [];
    for (const [i, spec] of PAGES.entries()) pages.push(await measurePage(info.probePort, info.cookie, spec, `bench-cold-${i}.invalid`));
    const results: ThroughputResult[] = [];
    for (const t of THROUGHPUT_TARGETS) {
      log(`[${label}] load on ${t.path}${t.signedIn ? ' (signed in)' : ''}: ${LOAD.warmupSeconds} s warm-up + ${LOAD.durationSeconds} s, ${LOAD.connections} connections…`);
      results.push(await throughput(info.loadPort, info.cookie, t));
    }
    const csrf = await csrfPair(info.loadPort);
    log(`[${label}] sign-in: POST /login/password, right password: ${LOAD.warmupSeconds} s warm-up + ${LOAD.durationSeconds} s, ${LOAD.connections} connections…`);
    const signIn = await signInThroughput(info.loadPort, csrf, info.signInEmails);
    log(`[${label}] signed-in page alone, then again under a flood of wrong passwords (${LOAD.connections} + ${LOAD.connections} connections)…`);
    const flood = await floodComparison(info.loadPort, info.cookie, csrf);
    return { backend, label, serverStartupMs: info.startupMs, pages, throughput: results, signIn, flood };
  } finally {
    await stopServer(child);
  }
}

async function withPostgres(log: (s: string) => void): Promise<BackendResult> {
  const label = 'PostgreSQL';
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (e) {
    await admin.end().catch(() => {});
    return { backend: 'postgres', label, skipped: `no PostgreSQL answered at ${POSTGRES_ADMIN_URL} (${(e as Error).message || (e as Error).name})` };
  }
  const name = `bench_${randomBytes(5).toString('hex')}`;
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    const version = (await admin.query<{ server_version: string }>('show server_version')).rows[0]?.server_version.split(' ')[0];
    await admin.query(`create database ${name}`);
    const result = await benchBackend('postgres', label, url.toString(), log);
    return { ...result, label: `PostgreSQL ${version ?? ''}`.trim(), database: name };
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch((e: Error) => log(`[${label}] could not drop ${name}: ${e.message}`));
    await admin.end().catch(() => {});
  }
}

// ---- the report --------------------------------------------------------------------------------

const kib = (bytes: number) => (bytes === 0 ? '0' : `${(bytes / KIB).toFixed(1)} KiB`);
const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);

function table(head: string[], rows: string[][], right: boolean[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (right[i] ? lpad(c, widths[i]!) : pad(c, widths[i]!))).join('  ').trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function report(run: RunResult): string {
  const out: string[] = [];
  out.push(`Bench ${run.date}  ·  ${run.machine.cpus} × ${run.machine.cpuModel}  ·  Node ${run.machine.node}  ·  ${run.machine.platform}`);
  const git = run.git ? `commit ${run.git.commit}${run.git.dirtyFiles ? ` + ${run.git.dirtyFiles} changed/untracked files` : ''}` : 'not a git checkout';
  out.push(`${git}  ·  load average at start ${run.machine.loadAverageAtStart.join(' / ')} (other processes skew the throughput figures)`);
  out.push('');
  const withPages = run.backends.filter((b) => b.pages);
  const first = withPages[0];
  if (first?.pages) {
    out.push(`Page weight (gzip -9 of what the server sends; production mode; from the ${first.label} run)`);
    out.push(`Budgets: 0 JS on pages without an island; JS ≤ ${kib(BUDGETS.jsMaxBytes)}; HTML + CSS ≤ ${kib(BUDGETS.htmlCssMaxBytes)}.`);
    const sqlHeads = withPages.map((b) => `SQL/req ${b.backend === 'pglite' ? 'PGlite' : 'PG'}`);
    const rows = first.pages.map((p, i) => {
      const verdicts = [
        p.budgets.jsZeroWithoutIsland === 'n/a' ? null : `JS=0 ${p.budgets.jsZeroWithoutIsland}`,
        `JS≤100K ${p.budgets.jsMax}`,
        `HTML+CSS≤30K ${p.budgets.htmlCssMax}`,
      ].filter(Boolean);
      return [
        p.label,
        String(p.status) + (p.status === p.expectedStatus ? '' : ` (expected ${p.expectedStatus})`),
        p.islands.length ? p.islands.join(',') : '-',
        kib(p.html.gzipBytes),
        kib(p.css.gzipBytes),
        kib(p.js.gzipBytes),
        kib(p.html.gzipBytes + p.css.gzipBytes),
        String(p.requests.total),
        ...withPages.map((b) => {
          const q = b.pages![i]!.sqlQueries;
          return `${q.steady ?? '?'} (miss ${q.communityCacheMiss ?? '?'})`;
        }),
        verdicts.join(' · '),
      ];
    });
    out.push(
      table(
        ['page', 'status', 'islands', 'HTML', 'CSS', 'JS', 'HTML+CSS', 'requests', ...sqlHeads, 'budgets'],
        rows,
        [false, false, false, true, true, true, true, true, ...sqlHeads.map(() => true), false],
      ),
    );
    out.push('SQL/req: statements per request with warm caches; "miss": the same page for a host the community cache has not seen.');
    for (const p of first.pages) {
      out.push(`  ${p.label}: ${p.requests.total} requests = document + ${p.requests.urls.join(', ') || 'nothing else'}`);
      for (const f of p.js.files) out.push(`      JS ${f.url}: ${kib(f.rawBytes)} raw, ${kib(f.gzipBytes)} gzipped`);
      if (p.requests.external.length) out.push(`      (external, not fetched: ${p.requests.external.join(', ')})`);
    }
    for (const b of withPages) for (const p of b.pages!) for (const w of p.warnings) out.push(`  WARNING ${b.label}, ${p.label}: ${w}`);
    out.push('');
  }

  out.push(
    `Throughput (production mode; autocannon in the bench process, server in a child process; ${LOAD.connections} connections, ` +
      `${LOAD.warmupSeconds} s warm-up then ${LOAD.durationSeconds} s per target; 127.0.0.1)`,
  );
  const rows: string[][] = [];
  for (const b of run.backends) {
    for (const t of b.throughput ?? []) {
      const bad = t.non2xx + t.errors + t.timeouts;
      rows.push([
        b.label,
        t.target,
        String(t.requestsPerSecond),
        String(t.latencyMs.p50),
        String(t.latencyMs.p99),
        String(t.totalRequests),
        bad ? `${t.non2xx} non-2xx, ${t.errors} errors, ${t.timeouts} timeouts` : 'none',
      ]);
    }
  }
  out.push(table(['database', 'target', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'failures'], rows, [false, false, true, true, true, true, false]));
  for (const b of run.backends) for (const t of b.throughput ?? []) for (const w of t.warnings) out.push(`WARNING ${b.label}, ${t.target}: ${w}`);
  out.push('');

  const ph = run.passwordHashing;
  out.push(`Password hashing (argon2id; ${ph ? ph.hash.samples : HASH_SAMPLES} sequential calls each, in the bench process before any server starts)`);
  if (ph) {
    const min = ph.owaspMinimum;
    out.push(
      `Parameters: m = ${ph.memoryMiB} MiB (${ph.memoryKiB} KiB), t = ${ph.timeCost}, p = ${ph.parallelism}; ` +
        `OWASP minimum m ≥ ${min.memoryMiB} MiB, t ≥ ${min.timeCost}, p ≥ ${min.parallelism}: ${ph.meetsOwaspMinimum ? 'pass' : 'BELOW'}`,
    );
    out.push(
      table(
        ['call', 'median ms', 'p95 ms', 'min ms', 'max ms'],
        [
          ['hashPassword', String(ph.hash.medianMs), String(ph.hash.p95Ms), String(ph.hash.minMs), String(ph.hash.maxMs)],
          ['verifyPassword', String(ph.verify.medianMs), String(ph.verify.p95Ms), String(ph.verify.minMs), String(ph.verify.maxMs)],
        ],
        [false, true, true, true, true],
      ),
    );
    out.push(`Ceiling for sign-ins: ${run.machine.cpus} cores × 1000 / ${ph.verify.medianMs} ms ≈ ${ph.verifyCeilingPerSecond} verifications/s, before any other work.`);
  } else out.push(`FAILED: ${run.passwordHashingError ?? 'not measured'}`);
  out.push('');

  out.push(
    `Sign-in (POST /login/password, the HTML form with the right password; ${LOAD.connections} connections, each signing in its own demo member ` +
      `from ${DEMO_MEMBER_EMAIL} on; ${LOAD.warmupSeconds} s warm-up then ${LOAD.durationSeconds} s)`,
  );
  const signInRows = run.backends
    .filter((b) => b.signIn)
    .map((b) => {
      const s = b.signIn!;
      const others = Object.entries(s.otherStatuses).map(([k, v]) => `${v} × ${k}`);
      if (s.errors) others.push(`${s.errors} errors`);
      if (s.timeouts) others.push(`${s.timeouts} timeouts`);
      return [b.label, String(s.requestsPerSecond), String(s.latencyMs.p50), String(s.latencyMs.p99), String(s.totalRequests), String(s.signedIn303), others.join(', ') || 'none'];
    });
  out.push(table(['database', 'sign-ins/s', 'p50 ms', 'p99 ms', 'requests', '303', 'other'], signInRows, [false, true, true, true, true, true, false]));
  for (const b of run.backends) for (const w of b.signIn?.warnings ?? []) out.push(`WARNING ${b.label}, sign-in: ${w}`);
  out.push('');

  out.push(
    `Password-guessing flood (signed-in page / with ${LOAD.connections} connections, measured alone and then while ${LOAD.connections} more connections ` +
      `POST wrong passwords for ${FLOOD_MEMBER_EMAIL} from 127.0.0.1; ${LOAD.warmupSeconds} s warm-up then ${LOAD.durationSeconds} s each)`,
  );
  const floodRows = run.backends
    .filter((b) => b.flood)
    .map((b) => {
      const f = b.flood!;
      const others = Object.entries(f.flood.otherStatuses).map(([k, v]) => `${v} × ${k}`);
      return [
        b.label,
        String(f.page.alone.requestsPerSecond),
        String(f.page.alone.latencyMs.p99),
        String(f.page.withFlood.requestsPerSecond),
        String(f.page.withFlood.latencyMs.p99),
        String(f.flood.requestsPerSecond),
        String(f.flood.latencyMs.p99),
        String(f.flood.wrongPassword401),
        String(f.flood.lockedOut429),
        others.join(', ') || 'none',
      ];
    });
  out.push(
    table(
      ['database', 'page req/s alone', 'p99 ms', 'page req/s flooded', 'p99 ms', 'flood req/s', 'flood p99 ms', '401', '429', 'other'],
      floodRows,
      [false, true, true, true, true, true, true, true, true, false],
    ),
  );
  out.push('401: a wrong password, checked with argon2 (the first few); 429: the lockout page, refused before any hash.');
  for (const b of run.backends) for (const w of b.flood?.warnings ?? []) out.push(`WARNING ${b.label}, flood: ${w}`);
  for (const b of run.backends) {
    if (b.skipped) out.push(`${b.label} half SKIPPED: ${b.skipped}.`);
    if (b.error) out.push(`${b.label} half FAILED: ${b.error.split('\n')[0]}`);
    if (b.serverStartupMs !== undefined) out.push(`${b.label}: server started (migrations + demo seed + two apps) in ${(b.serverStartupMs / 1000).toFixed(1)} s.`);
  }
  out.push('');
  out.push(`Total ${(run.totalSeconds).toFixed(0)} s. JSON: ${path.relative(process.cwd(), path.join(RESULTS_DIR, 'latest.json')) || 'bench-results/latest.json'}`);
  return out.join('\n');
}

type RunResult = {
  date: string;
  machine: { cpus: number; cpuModel: string; node: string; platform: string; totalMemoryGiB: number; loadAverageAtStart: number[] };
  git: { commit: string; dirtyFiles: number } | null;
  settings: typeof LOAD & { budgets: typeof BUDGETS; hashSamples: number; signInEmail: string; floodEmail: string };
  passwordHashing?: PasswordHashingResult;
  passwordHashingError?: string;
  backends: BackendResult[];
  totalSeconds: number;
};

/** The commit measured, and how many files differ from it (the bench measures the working tree). */
function gitState(): RunResult['git'] {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8', timeout: 5000 }).trim();
    const status = execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8', timeout: 5000 });
    return { commit, dirtyFiles: status.split('\n').filter(Boolean).length };
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const watchdog = setTimeout(() => {
    console.error(`The bench ran for more than ${WATCHDOG_MS / 60_000} minutes: stopping.`);
    for (const c of children) c.kill('SIGKILL');
    process.exit(1);
  }, WATCHDOG_MS);
  watchdog.unref();
  const cleanup = () => {
    for (const c of children) c.kill('SIGTERM');
    process.exit(130);
  };
  process.once('SIGINT', cleanup);
  process.once('SIGTERM', cleanup);

  const log = (s: string) => console.error(s);
  const cpus = os.cpus();
  const run: RunResult = {
    date: new Date().toISOString(),
    machine: {
      cpus: availableCores(),
      cpuModel: cpus[0]?.model.trim() ?? 'unknown CPU',
      node: process.version,
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      totalMemoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
      loadAverageAtStart: os.loadavg().map((n) => Math.round(n * 100) / 100),
    },
    git: gitState(),
    settings: { ...LOAD, budgets: BUDGETS, hashSamples: HASH_SAMPLES, signInEmail: DEMO_MEMBER_EMAIL, floodEmail: FLOOD_MEMBER_EMAIL },
    backends: [],
    totalSeconds: 0,
  };

  const attempt = async (label: string, backend: 'pglite' | 'postgres', fn: () => Promise<BackendResult>) => {
    try {
      run.backends.push(await fn());
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      log(`[${label}] failed: ${message}`);
      run.backends.push({ backend, label, error: message });
    }
  };
  log(`argon2id: ${HASH_SAMPLES} hashPassword then ${HASH_SAMPLES} verifyPassword calls in this process…`);
  try {
    run.passwordHashing = await measurePasswordHashing();
  } catch (e) {
    run.passwordHashingError = e instanceof Error ? e.message : String(e);
    log(`argon2id: failed: ${run.passwordHashingError}`);
  }
  await attempt('PGlite', 'pglite', () => benchBackend('pglite', 'PGlite', 'pglite', log));
  await attempt('PostgreSQL', 'postgres', () => withPostgres(log));

  run.totalSeconds = Math.round((performance.now() - t0) / 100) / 10;
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(path.join(RESULTS_DIR, 'latest.json'), JSON.stringify(run, null, 2) + '\n');
  console.log('');
  console.log(report(run));
  clearTimeout(watchdog);
}

if (process.argv[2] === '--serve') {
  const target = process.argv[3];
  if (!target) {
    console.error('usage: node --import tsx scripts/bench.ts --serve <pglite|postgres://…>');
    process.exit(2);
  }
  serve(target).catch((e) => {
    console.error(e);
    process.exit(1);
  });
} else {
  await main();
}
