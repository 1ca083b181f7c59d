// Insights (issue 29). Two children of this file, each on a database of its own:
// - `events`: one community of MEMBERS members, each signed in; the bench sends their events as the
//   browser does (a form POST to /rest/events with the page's CSRF token in the body and the batch as
//   JSON, BATCH events each) at EVENTS_PER_MINUTE for STEADY_SECONDS (latency of each answer), then a
//   short unpaced burst (capacity), then the same pace again while the server is killed (SIGKILL) and
//   started again on the same database mid-run. A last child counts the rows: every batch answered
//   2xx must be there (each batch's events carry its number as label).
// - `home`: two communities of HOME_MEMBERS members, one with a month of events and one with two
//   years (generate_series), both rolled up; the staff home (/admin, the default 12 weeks, and the
//   last 2 years) measured on each: SQL statements (≤ 5), p99 under load (two years ≤ 1.3x one
//   month), and its weight in Chromium.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  ACCEPT_ENCODING,
  CHROMIUM,
  HOST,
  KIB,
  LOAD,
  ROOT,
  benchAppEnv,
  cannon,
  csrfPair,
  errorMessage,
  flatPagesSection,
  get,
  kib,
  latencyOf,
  measureAtSizes,
  moduleDatabase,
  percentile,
  randomSecret,
  round1,
  serverOf,
  sqlQueries,
  startCannon,
  statusCounts,
  type BenchModule,
  type Latency,
  type Section,
} from './lib.ts';
import { exitWithParent, insertBenchCommunity, listenProbeAndLoad, serveIfStarted, stopServer } from './server.ts';
import { weighSignedInPages } from './weight.ts';

const SCRIPT = fileURLToPath(import.meta.url);
const EVENTS_PER_MINUTE = Number(process.env.BENCH_INSIGHTS_RATE ?? 10_000);
const BATCH = 10;
const MEMBERS = 50;
const STEADY_SECONDS = Number(process.env.BENCH_INSIGHTS_SECONDS ?? 30);
const RESTART_SECONDS = 30;
const KILL_AT_SECONDS = 10;
const BURST_SECONDS = 5;
const WARMUP_SECONDS = 3;
const P99_BUDGET_MS = 20;
const HOME_MEMBERS = Number(process.env.BENCH_INSIGHTS_HOME_MEMBERS ?? 200);
const SMALL_DAYS = 30;
const BIG_DAYS = 730;
const SQL_BUDGET = 5;
const FLAT_FACTOR = 1.3;
const WEIGHT_MAX_BYTES = 30 * KIB;
const START_TIMEOUT_MS = 600_000;
const CODE = 'insev';

// ---- the children -------------------------------------------------------------------------------------

/** The database of a child: PGlite in the directory the parent chose (kept across the restart), or PostgreSQL. */
async function openChildDatabase(target: string) {
  const { createDatabase, migrateToLatest } = await import('#src/db/index.ts');
  const dir = process.env.BENCH_INSIGHTS_DIR;
  const pgliteDir = target === 'pglite' ? (dir ?? mkdtempSync(path.join(os.tmpdir(), 'bench-insights-'))) : undefined;
  const { db } = await createDatabase(pgliteDir ? { kind: 'pglite', dataDir: pgliteDir } : { kind: 'postgres', url: target, poolSize: 10 });
  await migrateToLatest(db);
  return { db, pgliteDir };
}

/** `events`: the app on the port given, on a database set up the first time (a community, its members, their sessions). */
async function serveEvents(target: string): Promise<void> {
  const [{ buildApp }, { loadConfig }, { AUTH_COOKIE, startSession }] = await Promise.all([import('#src/app.ts'), import('#src/config.ts'), import('#src/features/auth/sessions.ts')]);
  const { db, pgliteDir } = await openChildDatabase(target);
  const config = loadConfig({ ...benchAppEnv(target, pgliteDir), PORT: process.env.BENCH_INSIGHTS_PORT!, DEFAULT_COMMUNITY: CODE, JOB_WORKERS: 'false' });
  const app = await buildApp({ config, db, ownsDb: true, jobWorkers: false });
  let cookies: string[] = [];
  if (process.env.BENCH_INSIGHTS_SETUP === '1') {
    const { seedBenchMembers } = await import('./lib.ts');
    const cid = await insertBenchCommunity(db, CODE, 'Insights events');
    await seedBenchMembers(db, cid, CODE, MEMBERS);
    const community = await db.selectFrom('communities').selectAll().where('id', '=', cid).executeTakeFirstOrThrow();
    const members = await db.selectFrom('memberships').select('user_id').where('community_id', '=', cid).orderBy('user_id').execute();
    for (const m of members) {
      const { token } = await startSession(db, app.sessionTokens, app.clock, { userId: m.user_id, community, roles: ['MEMBER'], gate: 'app', basePath: '' });
      cookies.push(`${AUTH_COOKIE}=${token}`);
    }
  }
  await app.listen({ host: HOST, port: Number(process.env.BENCH_INSIGHTS_PORT) });
  exitWithParent(() => app.close(), () => {});
  process.stdout.write(`INSIGHTS_EVENTS_READY ${JSON.stringify({ cookies })}\n`);
}

/** `count`: the labels of the bench's batches found in the database, and the rows. */
async function countEvents(target: string): Promise<void> {
  const { sql } = await import('kysely');
  const { db } = await openChildDatabase(target);
  const rows = await sql<{ label: string; n: number }>`select regexp_replace(label, '^/', '') as label, count(*)::int as n from insight_events where label ~ '^/?b[0-9]+$' group by 1`.execute(db);
  const total = await sql<{ n: number }>`select count(*)::int as n from insight_events`.execute(db);
  await db.destroy();
  process.stdout.write(`INSIGHTS_COUNT ${JSON.stringify({ labels: Object.fromEntries(rows.rows.map((r) => [r.label, Number(r.n)])), total: Number(total.rows[0]!.n) })}\n`);
  process.exit(0);
}

type HomeSide = { size: number; days: number; code: string; probePort: number; loadPort: number; cookie: string };
type HomeInfo = { sides: HomeSide[]; seedMs: Record<string, number>; rollupMs: Record<string, number> };

/** `home`: a month and two years of events, rolled up; the staff home served for each by a probe and a load app. */
async function serveHome(target: string): Promise<void> {
  const [{ buildApp }, { loadConfig }, { sql }, { seedBenchMembers }, { seedMemberEvents }, { rollUp }, { sessionTokenFor }] = await Promise.all([
    import('#src/app.ts'),
    import('#src/config.ts'),
    import('kysely'),
    import('./lib.ts'),
    import('#src/features/insights/seed.ts'),
    import('#src/features/insights/rollup.ts'),
    import('./sessions.ts'),
  ]);
  const { db, pgliteDir } = await openChildDatabase(target);
  const base = benchAppEnv(target, pgliteDir);
  const now = new Date();
  const seedMs: Record<string, number> = {};
  const rollupMs: Record<string, number> = {};
  const plans = [
    { code: 'insmonth', days: SMALL_DAYS },
    { code: 'insyears', days: BIG_DAYS },
  ];
  const sizes: Record<string, number> = {};
  for (const plan of plans) {
    const t0 = performance.now();
    const cid = await insertBenchCommunity(db, plan.code, `Insights ${plan.days} days`);
    await seedBenchMembers(db, cid, plan.code, HOME_MEMBERS);
    // Members since before the first day (the seed counts a member's events from the day they joined).
    await sql`update memberships set joined_at = ${new Date(now.getTime() - (plan.days + 5) * 86_400_000)} where community_id = ${cid}`.execute(db);
    const staff = await db.insertInto('users').values({ email: `staff@${plan.code}.bench.invalid`, username: `${plan.code}-staff`, first_name: 'Sam', last_name: 'Staff', password_hash: null }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('memberships').values({ community_id: cid, user_id: staff.id, roles: ['ADMIN', 'MEMBER'], gate: 'app', company_name: 'Bench Co', job_title: 'Community Manager' }).execute();
    await seedMemberEvents(db, cid, plan.days, now, 0.9);
    seedMs[plan.code] = Math.round(performance.now() - t0);
    const t1 = performance.now();
    await rollUp({ db, clock: { now: () => now }, community: { id: cid }, retentionDays: plan.days + 2 });
    rollupMs[plan.code] = Math.round(performance.now() - t1);
    sizes[plan.code] = Number((await sql<{ n: number }>`select count(*)::int as n from insight_events where community_id = ${cid}`.execute(db)).rows[0]!.n);
  }
  await sql`analyze`.execute(db);
  const apps: Awaited<ReturnType<typeof buildApp>>[] = [];
  const sides: HomeSide[] = [];
  for (const plan of plans) {
    const config = loadConfig({ ...base, DEFAULT_COMMUNITY: plan.code, JOB_WORKERS: 'false' });
    const { probe, load, probePort, loadPort } = await listenProbeAndLoad((o) => buildApp({ config, db, jobWorkers: false, ...o }), plan === plans.at(-1));
    apps.push(probe, load);
    const community = await db.selectFrom('communities').selectAll().where('code', '=', plan.code).executeTakeFirstOrThrow();
    const token = await sessionTokenFor(load, community, `staff@${plan.code}.bench.invalid`);
    sides.push({ size: sizes[plan.code]!, days: plan.days, code: plan.code, probePort, loadPort, cookie: `auth=${token}` });
  }
  exitWithParent(
    async () => {
      for (const app of apps) await app.close();
    },
    () => {
      if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
    },
  );
  process.stdout.write(`INSIGHTS_HOME_READY ${JSON.stringify({ sides, seedMs, rollupMs } satisfies HomeInfo)}\n`);
}

async function serveInsights(target: string): Promise<void> {
  const mode = process.env.BENCH_INSIGHTS_MODE;
  if (mode === 'events') return serveEvents(target);
  if (mode === 'count') return countEvents(target);
  return serveHome(target);
}

// ---- the bench side: the children --------------------------------------------------------------------

/** Starts a child of this file in `mode` with `env`, waiting for its `marker` line (the restart keeps the cookie secret). */
function spawnChild<T>(target: string, mode: string, marker: string, env: Record<string, string>): Promise<{ child: ChildProcess; info: T }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, target], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', BENCH_INSIGHTS_MODE: mode, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let errText = '';
  child.stderr!.on('data', (d: Buffer) => {
    errText = (errText + d.toString()).slice(-8000);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the insights ${mode} child did not start in time.\n${errText}`)), START_TIMEOUT_MS);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith(`${marker} `)) return;
      clearTimeout(timer);
      resolve({ child, info: JSON.parse(line.slice(marker.length + 1)) as T });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the insights ${mode} child exited before it was ready (code ${code}, signal ${signal}).\n${errText}`));
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, HOST, () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

// ---- the bench side: the paced load -----------------------------------------------------------------------

type Sent = { batch: number; status: number; ms: number; accepted: number };

/** The browser's beacon body: the page's CSRF token and the batch (its number as every event's label; the page view's is stored as a path, '/b…'). */
function beaconBody(token: string, batch: number): string {
  const events = Array.from({ length: BATCH }, (_, i) => (i === 0 ? { category: 'page', action: 'view', label: `b${batch}` } : { category: 'engagement', action: 'bench', label: `b${batch}` }));
  return new URLSearchParams({ _csrf: token, events: JSON.stringify(events) }).toString();
}

/** POSTs one batch; 0 for no answer (the server down). */
function postBatch(port: number, agent: http.Agent, cookie: string, csrfCookie: string, body: string): Promise<{ status: number; accepted: number }> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: HOST,
        port,
        path: '/rest/events',
        method: 'POST',
        agent,
        timeout: 10_000,
        headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', 'content-length': Buffer.byteLength(body), cookie: `${cookie}; ${csrfCookie}`, 'sec-fetch-site': 'same-origin' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          let accepted = 0;
          try {
            accepted = res.statusCode === 202 ? Number(JSON.parse(Buffer.concat(chunks).toString('utf8')).accepted) : 0;
          } catch {
            accepted = 0;
          }
          resolve({ status: res.statusCode ?? 0, accepted });
        });
        res.on('error', () => resolve({ status: 0, accepted: 0 }));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0, accepted: 0 }));
    req.end(body);
  });
}

/** Sends batches at EVENTS_PER_MINUTE for `seconds`, members in turn, numbering the batches from `first`; `during(t)` is called each second. */
async function pacedLoad(o: { port: number; cookies: string[]; csrf: { token: string; cookie: string }; seconds: number; first: number; during?: (second: number) => void }): Promise<Sent[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
  const interval = 60_000 / (EVENTS_PER_MINUTE / BATCH);
  const total = Math.floor((o.seconds * 1000) / interval);
  const started = performance.now();
  const sent: Promise<Sent>[] = [];
  let second = 0;
  for (let k = 0; k < total; k++) {
    const due = started + k * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const elapsed = Math.floor((performance.now() - started) / 1000);
    while (second < elapsed) {
      second += 1;
      o.during?.(second);
    }
    const batch = o.first + k;
    const t0 = performance.now();
    sent.push(postBatch(o.port, agent, o.cookies[k % o.cookies.length]!, o.csrf.cookie, beaconBody(o.csrf.token, batch)).then((r) => ({ batch, status: r.status, accepted: r.accepted, ms: performance.now() - t0 })));
  }
  const results = await Promise.all(sent);
  agent.destroy();
  return results;
}

type EventsFigures = {
  steady: { batches: number; accepted: number; eventsPerMinute: number; failed: number; latencyMs: Latency };
  burst: { requestsPerSecond: number; eventsPerSecond: number; latencyMs: Latency; non2xx: number };
  restart: { batches: number; answered2xx: number; acceptedEvents: number; refused: number; downMs: number; p99AfterMs: number };
  stored: { acceptedBatchesFound: number; acceptedBatches: number; acceptedEventsFound: number; acceptedEvents: number; unansweredButStored: number; total: number };
};

const latency = (ms: number[]): Latency => ({
  p50: round1(percentile(ms, 50)),
  p90: round1(percentile(ms, 90)),
  p99: round1(percentile(ms, 99)),
  max: round1(Math.max(...ms)),
  average: round1(ms.reduce((a, b) => a + b, 0) / Math.max(ms.length, 1)),
});

async function runEvents(backend: 'pglite' | 'postgres', log: (s: string) => void, warnings: string[]): Promise<EventsFigures> {
  const { target, drop } = await moduleDatabase(backend, 'bench_insights_events');
  const dir = backend === 'pglite' ? mkdtempSync(path.join(os.tmpdir(), 'bench-insights-events-')) : undefined;
  const port = await freePort();
  const env = { BENCH_INSIGHTS_PORT: String(port), BENCH_COOKIE_SECRET: randomSecret(), ...(dir ? { BENCH_INSIGHTS_DIR: dir } : {}) };
  let child: ChildProcess | null = null;
  try {
    const first = await spawnChild<{ cookies: string[] }>(target, 'events', 'INSIGHTS_EVENTS_READY', { ...env, BENCH_INSIGHTS_SETUP: '1' });
    child = first.child;
    const cookies = first.info.cookies;
    const csrf = await csrfPair(port);

    log(`  insights: ${EVENTS_PER_MINUTE.toLocaleString('en-US')} events a minute (batches of ${BATCH}, ${MEMBERS} members): ${WARMUP_SECONDS} s to warm up, then ${STEADY_SECONDS} s measured…`);
    const warmup = await pacedLoad({ port, cookies, csrf, seconds: WARMUP_SECONDS, first: 500_000 });
    const steady = await pacedLoad({ port, cookies, csrf, seconds: STEADY_SECONDS, first: 1 });
    const ok = steady.filter((s) => s.status === 202);
    if (ok.length !== steady.length) warnings.push(`steady load: ${steady.length - ok.length} of ${steady.length} batches not accepted (${JSON.stringify(Object.fromEntries(steady.filter((s) => s.status !== 202).map((s) => [s.status, 0])))})`);

    log(`  insights: an unpaced burst for ${BURST_SECONDS} s (capacity)…`);
    const burstBody = new URLSearchParams({ _csrf: csrf.token, events: JSON.stringify(Array.from({ length: BATCH }, () => ({ category: 'engagement', action: 'burst', label: 'burst' }))) }).toString();
    const burstRun = await startCannon(`http://${HOST}:${port}/rest/events`, BURST_SECONDS, {
      method: 'POST',
      body: burstBody,
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', 'sec-fetch-site': 'same-origin' },
      headerSets: cookies.map((c) => ({ cookie: `${c}; ${csrf.cookie}` })),
    }).done;

    log(`  insights: the same pace for ${RESTART_SECONDS} s, the server killed (SIGKILL) at ${KILL_AT_SECONDS} s and started again…`);
    let down = 0;
    let up = 0;
    let restarting: Promise<void> | null = null;
    const restart = await pacedLoad({
      port,
      cookies,
      csrf,
      seconds: RESTART_SECONDS,
      first: 1_000_000,
      during: (second) => {
        if (second !== KILL_AT_SECONDS || restarting) return;
        const dying = child!;
        down = performance.now();
        dying.kill('SIGKILL');
        restarting = new Promise<void>((resolve) => dying.once('exit', () => resolve()))
          .then(() => spawnChild<{ cookies: string[] }>(target, 'events', 'INSIGHTS_EVENTS_READY', env))
          .then((next) => {
            child = next.child;
            up = performance.now();
          });
      },
    });
    if (restarting) await restarting;
    await stopServer(child!);
    child = null;

    const counted = await spawnChild<{ labels: Record<string, number>; total: number }>(target, 'count', 'INSIGHTS_COUNT', env);
    const { labels, total } = counted.info;
    const accepted = [...warmup, ...steady, ...restart].filter((s) => s.status === 202);
    const acceptedEvents = accepted.reduce((a, s) => a + s.accepted, 0);
    const found = accepted.filter((s) => labels[`b${s.batch}`] === s.accepted);
    const unanswered = [...warmup, ...steady, ...restart].filter((s) => s.status !== 202 && labels[`b${s.batch}`]);
    if (found.length !== accepted.length) warnings.push(`LOST: ${accepted.length - found.length} accepted batches are not (whole) in the database`);
    const downMs = up && down ? Math.round(up - down) : 0;
    const after = restart.filter((s) => s.status === 202 && s.batch - 1_000_000 > (KILL_AT_SECONDS * 1000) / (60_000 / (EVENTS_PER_MINUTE / BATCH)));
    const figures: EventsFigures = {
      steady: {
        batches: steady.length,
        accepted: ok.reduce((a, s) => a + s.accepted, 0),
        eventsPerMinute: Math.round((ok.reduce((a, s) => a + s.accepted, 0) / STEADY_SECONDS) * 60),
        failed: steady.length - ok.length,
        latencyMs: latency(ok.map((s) => s.ms)),
      },
      burst: { requestsPerSecond: Math.round(burstRun.requests.average), eventsPerSecond: Math.round(burstRun.requests.average * BATCH), latencyMs: latencyOf(burstRun), non2xx: burstRun.non2xx },
      restart: {
        batches: restart.length,
        answered2xx: restart.filter((s) => s.status === 202).length,
        acceptedEvents: restart.filter((s) => s.status === 202).reduce((a, s) => a + s.accepted, 0),
        refused: restart.filter((s) => s.status !== 202).length,
        downMs,
        p99AfterMs: after.length ? round1(percentile(after.map((s) => s.ms), 99)) : 0,
      },
      stored: { acceptedBatchesFound: found.length, acceptedBatches: accepted.length, acceptedEventsFound: found.reduce((a, s) => a + s.accepted, 0), acceptedEvents, unansweredButStored: unanswered.length, total },
    };
    if (figures.steady.latencyMs.p99 >= P99_BUDGET_MS) warnings.push(`steady load: p99 ${figures.steady.latencyMs.p99} ms (budget < ${P99_BUDGET_MS} ms)`);
    if (burstRun.non2xx) warnings.push(`burst: ${burstRun.non2xx} non-2xx (${JSON.stringify(statusCounts(burstRun))})`);
    return figures;
  } finally {
    if (child) await stopServer(child);
    if (dir) rmSync(dir, { recursive: true, force: true });
    await drop();
  }
}

// ---- the bench side: the staff home ---------------------------------------------------------------------

type Target = { key: string; label: string; path: (s: HomeSide) => string; load: boolean };
const TARGETS: Target[] = [
  { key: 'home', label: 'The staff home  /admin (12 weeks)', path: () => '/admin', load: true },
  { key: 'years', label: 'The last 2 years  /admin?range=24m', path: () => '/admin?range=24m', load: true },
];
type Measured = { size: number; key: string; label: string; status: number; sql: number | null; requestsPerSecond: number | null; latencyMs: Latency | null; failures: string | null };

async function measure(side: HomeSide, target: Target): Promise<Measured> {
  const p = target.path(side);
  const headers = { accept: 'text/html', cookie: side.cookie, 'accept-encoding': ACCEPT_ENCODING };
  await get(side.probePort, p, headers);
  let sql: number | null = null;
  let status = 0;
  for (let i = 0; i < 3; i++) {
    const r = await get(side.probePort, p, headers);
    status = r.status;
    const n = sqlQueries(r);
    if (n !== null) sql = Math.max(sql ?? 0, n);
  }
  const url = `http://${HOST}:${side.loadPort}${p}`;
  await cannon(url, LOAD.warmupSeconds, headers);
  const r = await cannon(url, LOAD.durationSeconds, headers);
  const bad = r.non2xx + r.errors + r.timeouts;
  return { size: side.size, key: target.key, label: target.label, status, sql, requestsPerSecond: Math.round(r.requests.average), latencyMs: latencyOf(r), failures: bad ? `${r.non2xx} non-2xx (${JSON.stringify(statusCounts(r))}), ${r.errors} errors, ${r.timeouts} timeouts` : null };
}

export const insightsModule: BenchModule = {
  name: 'insights',
  scope: 'server',
  describe: `insights: ${EVENTS_PER_MINUTE.toLocaleString('en-US')} events a minute as the browser sends them (p99), a restart mid-run (none lost); the staff home at a month and two years of events (SQL, p99 flat, weight)`,
  async run(ctx) {
    const server = serverOf(ctx);
    const warnings: string[] = [];
    const sections: Section[] = [];
    let events: EventsFigures | null = null;
    try {
      events = await runEvents(server.backend, ctx.log, warnings);
    } catch (e) {
      warnings.push(`events: ${errorMessage(e)}`);
    }
    if (events) {
      const e = events;
      sections.push({
        key: 'insights-events',
        title: `Events in as the browser sends them (form POSTs with the CSRF token, ${BATCH} events each, ${MEMBERS} members' sessions): ${EVENTS_PER_MINUTE.toLocaleString('en-US')} a minute for ${STEADY_SECONDS} s (budget p99 < ${P99_BUDGET_MS} ms), then unpaced for ${BURST_SECONDS} s`,
        head: ['load', 'batches', 'events accepted', 'events/min', 'p50 ms', 'p99 ms', `< ${P99_BUDGET_MS} ms`],
        right: [false, true, true, true, true, true, false],
        rows: [
          ['paced', String(e.steady.batches), e.steady.accepted.toLocaleString('en-US'), e.steady.eventsPerMinute.toLocaleString('en-US'), String(e.steady.latencyMs.p50), String(e.steady.latencyMs.p99), e.steady.latencyMs.p99 < P99_BUDGET_MS ? 'pass' : 'over'],
          ['unpaced (10 connections)', '-', '-', `${(e.burst.eventsPerSecond * 60).toLocaleString('en-US')} (${e.burst.requestsPerSecond} batches/s)`, String(e.burst.latencyMs.p50), String(e.burst.latencyMs.p99), ''],
        ],
      });
      sections.push({
        key: 'insights-restart',
        title: `The server killed (SIGKILL) ${KILL_AT_SECONDS} s into ${RESTART_SECONDS} s of the same pace and started again on the same database: every batch answered 2xx is in the database`,
        head: ['batches sent', 'answered 2xx', 'refused (server down)', 'down for', 'accepted batches stored', 'accepted events stored', 'stored, unanswered', 'none lost'],
        right: [true, true, true, true, true, true, true, false],
        rows: [
          [
            String(e.restart.batches),
            String(e.restart.answered2xx),
            String(e.restart.refused),
            `${(e.restart.downMs / 1000).toFixed(1)} s`,
            `${e.stored.acceptedBatchesFound} of ${e.stored.acceptedBatches}`,
            `${e.stored.acceptedEventsFound.toLocaleString('en-US')} of ${e.stored.acceptedEvents.toLocaleString('en-US')}`,
            String(e.stored.unansweredButStored),
            e.stored.acceptedBatchesFound === e.stored.acceptedBatches ? 'pass' : 'FAIL',
          ],
        ],
        notes: ['  (the stored counts cover every paced batch: the warm-up, the measured run and the restart run; "stored, unanswered": batches written whose answer the kill cut off)'],
      });
    }

    const { target, drop } = await moduleDatabase(server.backend, 'bench_insights_home');
    let child: ChildProcess | null = null;
    try {
      ctx.log(`  insights: seeding a month and two years of events (${HOME_MEMBERS} members each) and rolling them up…`);
      const started = await spawnChild<HomeInfo>(target, 'home', 'INSIGHTS_HOME_READY', { BENCH_COOKIE_SECRET: randomSecret() });
      child = started.child;
      const info = started.info;
      ctx.log(`  insights: seeded (${Object.entries(info.seedMs).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ')}), rolled up (${Object.entries(info.rollupMs).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ')})`);
      const small = info.sides.find((s) => s.days === SMALL_DAYS)!;
      const big = info.sides.find((s) => s.days === BIG_DAYS)!;
      let weights: Awaited<ReturnType<typeof weighSignedInPages>> = [];
      if (server.first && existsSync(CHROMIUM)) {
        ctx.log('  insights: the staff home in Chromium…');
        weights = await weighSignedInPages(big.probePort, big.cookie, [{ path: '/admin' }, { path: '/admin?range=24m' }]);
      }
      const results = await measureAtSizes({ ctx, name: 'insights', unit: 'events', sides: [small, big], targets: TARGETS, measure, warnings });
      for (const r of results) if (r.sql !== null && r.sql > SQL_BUDGET) warnings.push(`${r.size} events, ${r.label}: ${r.sql} SQL statements`);
      await stopServer(child);
      child = null;
      sections.push({
        key: 'insights-rollup',
        title: `The staff home's data: ${HOME_MEMBERS} members' events over a month and over two years (one INSERT … SELECT generate_series each), rolled up once`,
        head: ['community', 'events', 'seed', 'roll-up (first run)'],
        right: [false, true, true, true],
        rows: info.sides.map((s) => [s.days === BIG_DAYS ? 'two years' : 'one month', s.size.toLocaleString('en-US'), `${(info.seedMs[s.code]! / 1000).toFixed(1)} s`, `${(info.rollupMs[s.code]! / 1000).toFixed(1)} s`]),
      });
      if (weights.length) {
        sections.push({
          key: 'insights-weight',
          title: `The staff home in Chromium (two years of events; cold cache; encoded bytes; budget HTML + CSS ≤ ${WEIGHT_MAX_BYTES / KIB} KiB, no script)`,
          head: ['page', 'status', 'html', 'css', 'js', 'html+css', `≤ ${WEIGHT_MAX_BYTES / KIB} KiB`],
          right: [false, true, true, true, true, true, false],
          rows: weights.map((w) => [w.path, String(w.status), kib(w.bytes.html), kib(w.bytes.css), kib(w.bytes.js), kib(w.bytes.html + w.bytes.css), w.bytes.html + w.bytes.css <= WEIGHT_MAX_BYTES ? 'pass' : 'over']),
        });
        for (const w of weights) if (w.bytes.js > 0) warnings.push(`${w.path}: loads ${kib(w.bytes.js)} of script`);
      }
      sections.push(
        flatPagesSection({
          key: 'insights-home',
          title: `The staff home: SQL per page (≤ ${SQL_BUDGET}) and load (${LOAD.connections} connections, ${LOAD.durationSeconds} s; p99 with two years of events ≤ ${FLAT_FACTOR}x with one month's)`,
          sizeHead: 'events',
          results,
          small: small.size,
          big: big.size,
          sqlBudget: SQL_BUDGET,
          flatFactor: FLAT_FACTOR,
        }),
      );
      return { sections, warnings, data: { events, seedMs: info.seedMs, rollupMs: info.rollupMs, sizes: info.sides.map((s) => s.size), weights: weights.map(({ files, html, ...w }) => ({ ...w, files: files.length })), results } };
    } finally {
      if (child) await stopServer(child);
      await drop();
    }
  },
};

serveIfStarted(SCRIPT, serveInsights);
