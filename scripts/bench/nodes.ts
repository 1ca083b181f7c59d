// One node against two (issue 10 section 5): the signed-in home page under the same load (the same
// connections, the same seconds) against one server process, then split between two server processes
// on one PostgreSQL database. Each node is `src/server.ts` as deployed (production mode, its own
// process, REDIS_URL when a Redis answers on 127.0.0.1:6379), on a fresh database this module
// migrates and seeds. PostgreSQL only: PGlite is one process by design.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createConnection, createServer } from 'node:net';
import pg from 'pg';
import { DEMO_MEMBER_PASSWORD } from '#src/features/seed.ts';
import {
  DEMO_COMMUNITY,
  DEMO_MEMBER_EMAIL,
  HOST,
  LOAD,
  POSTGRES_ADMIN_URL,
  ROOT,
  availableCores,
  errorMessage,
  get,
  isSignedInPage,
  latencyOf,
  post,
  randomSecret,
  startCannon,
  statusCounts,
  type BenchModule,
  type Latency,
} from './lib.ts';
import { children, stopServer } from './server.ts';

const NODE_START_TIMEOUT_MS = 90_000;
const REDIS_URL = 'redis://127.0.0.1:6379';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, HOST, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function answers(port: number, host = HOST): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port, timeout: 1000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

/** `src/server.ts` in its own process, as a deployment runs it; resolves once it listens. */
async function startNode(env: Record<string, string>): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`a node did not start within ${NODE_START_TIMEOUT_MS / 1000} s:\n${output.slice(-2000)}`)), NODE_START_TIMEOUT_MS);
    child.stdout!.on('data', (d: Buffer) => {
      output = (output + d.toString()).slice(-8000);
      if (output.includes('Listening on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-8000)));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`a node exited (${code}) before it listened:\n${output.slice(-2000)}`));
    });
  });
  return { port, child };
}

type LoadFigure = { nodes: number; connections: number; requestsPerSecond: number; totalRequests: number; latencyMs: Latency; statusCodes: Record<string, number>; failures: number };

async function load(ports: number[], cookie: string): Promise<LoadFigure> {
  const urls = ports.map((p) => `http://${HOST}:${p}/`);
  const request = { headers: { accept: 'text/html', cookie } };
  // LOAD.connections in all, split evenly between the nodes (connection i goes to urls[i % n]).
  await startCannon(urls, LOAD.warmupSeconds, request).done;
  const r = await startCannon(urls, LOAD.durationSeconds, request).done;
  return {
    nodes: ports.length,
    connections: LOAD.connections,
    requestsPerSecond: Math.round(r.requests.average),
    totalRequests: r.requests.total,
    latencyMs: latencyOf(r),
    statusCodes: statusCounts(r),
    failures: r.non2xx + r.errors + r.timeouts,
  };
}

export type NodesResult = { redis: boolean; cores: number; one: LoadFigure; two: LoadFigure; warnings: string[] } | { skipped: string };

async function measure(log: (line: string) => void): Promise<NodesResult> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (e) {
    await admin.end().catch(() => {});
    return { skipped: `no PostgreSQL answered at ${POSTGRES_ADMIN_URL} (${errorMessage(e)})` };
  }
  const name = `bench_nodes_${randomBytes(4).toString('hex')}`;
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const nodes: ChildProcess[] = [];
  try {
    await admin.query(`create database ${name}`);
    // Migrate and seed here, as an operator would once before starting the nodes.
    const [{ createDatabase, migrateToLatest }, { seedDemo }] = await Promise.all([import('#src/db/index.ts'), import('#src/features/seed.ts')]);
    const { db } = await createDatabase({ kind: 'postgres', url: url.toString(), poolSize: 2 });
    try {
      await migrateToLatest(db);
      await seedDemo(db, { production: false });
    } finally {
      await db.destroy();
    }
    const redis = await answers(6379);
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      PAYMENT_PROCESSOR: 'sandbox',
      HOST,
      DATABASE_URL: url.toString(),
      COOKIE_SECRET: randomSecret(),
      DEFAULT_COMMUNITY: DEMO_COMMUNITY,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_MAX: '100000000',
      JOB_WORKERS: 'true',
      ...(redis ? { REDIS_URL } : {}),
    };
    log(`[nodes] starting two server processes on ${name}${redis ? ' (with Redis)' : ''}…`);
    const started = await Promise.all([startNode(env), startNode(env)]);
    nodes.push(...started.map((s) => s.child));
    const [a, b] = started.map((s) => s.port) as [number, number];

    // The demo member signs in on node A (JSON, as a client); the session is the database's, so node B knows it too.
    const login = await post(a, '/rest/login', JSON.stringify({ username: DEMO_MEMBER_EMAIL, password: DEMO_MEMBER_PASSWORD }), { accept: 'application/json', 'content-type': 'application/json' });
    if (login.status !== 200) throw new Error(`POST /rest/login on node A answered ${login.status}`);
    const cookie = `auth=${(JSON.parse(login.body.toString('utf8')) as { authToken: string }).authToken}`;
    const warnings: string[] = [];
    for (const [label, port] of [['A', a], ['B', b]] as const) {
      const page = await get(port, '/', { accept: 'text/html', cookie });
      if (page.status !== 200 || !isSignedInPage(page.body.toString('utf8'))) warnings.push(`node ${label}: the home page did not render signed in before the load (${page.status})`);
    }
    log('[nodes] one node…');
    const one = await load([a], cookie);
    log('[nodes] two nodes…');
    const two = await load([a, b], cookie);
    if (one.failures || two.failures) warnings.push(`failures under load: one node ${one.failures}, two nodes ${two.failures}`);
    return { redis, cores: availableCores(), one, two, warnings };
  } finally {
    await Promise.all(nodes.map((c) => stopServer(c)));
    await admin.query(`drop database if exists ${name} with (force)`).catch((e: Error) => log(`[nodes] could not drop ${name}: ${e.message}`));
    await admin.end().catch(() => {});
  }
}

export const nodesModule: BenchModule = {
  name: 'nodes',
  scope: 'process',
  describe: `one node against two on PostgreSQL: the signed-in home page, ${LOAD.connections} connections in all, ${LOAD.warmupSeconds} s warm-up + ${LOAD.durationSeconds} s each`,
  async run(ctx) {
    const r = await measure(ctx.log);
    if ('skipped' in r) return { data: r, warnings: [`one node against two not measured: ${r.skipped}`], sections: [] };
    const row = (f: LoadFigure) => [
      f.nodes === 1 ? 'one node' : 'two nodes (connections split evenly)',
      String(f.requestsPerSecond),
      String(f.latencyMs.p50),
      String(f.latencyMs.p99),
      String(f.totalRequests),
      f.failures ? String(f.failures) : 'none',
    ];
    const gain = r.one.requestsPerSecond ? r.two.requestsPerSecond / r.one.requestsPerSecond : 0;
    return {
      data: r,
      warnings: r.warnings,
      sections: [
        {
          key: 'nodes',
          title:
            `One node against two on one PostgreSQL database: signed-in home / (src/server.ts processes, production mode${r.redis ? ', REDIS_URL' : ', no Redis'}; ` +
            `${LOAD.connections} connections in all, ${LOAD.warmupSeconds} s warm-up then ${LOAD.durationSeconds} s; 127.0.0.1; this machine has ${r.cores} cores)`,
          head: ['nodes', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'failures'],
          rows: [row(r.one), row(r.two)],
          right: [false, true, true, true, true, false],
          notes: [
            `two nodes / one node: ${gain.toFixed(2)}x. The ${r.cores} cores are shared by the node(s), PostgreSQL and autocannon: ` +
              `a second node adds an event loop, not CPUs, so this shows the cost of running two nodes on one machine, not how far N machines scale.`,
          ],
        },
      ],
    };
  },
};
