// What the bench's modules share: settings, the module shape, HTTP helpers, autocannon, the report's tables.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(BENCH_DIR, '../..');
export const RESULTS_DIR = path.join(ROOT, 'bench-results');

export const HOST = '127.0.0.1';
export const POSTGRES_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const DEMO_MEMBER_EMAIL = 'amara.okafor@summit-demo.example.com';
export const DEMO_COMMUNITY = 'summit';
/** The member whose wrong passwords make the flood: not DEMO_MEMBER_EMAIL, whose sign-ins are measured first. */
export const FLOOD_MEMBER_EMAIL = 'daniel.reyes@summit-demo.example.com';
export const WRONG_PASSWORD = 'Not-The-Password-2026!';

export const LOAD = { connections: 10, warmupSeconds: 2, durationSeconds: 8 };
export const KIB = 1024;
/** Issue 10's budgets, on the bytes Chromium receives (encoded bodies, cold cache). */
export const BUDGETS = { jsMaxBytes: 100 * KIB, htmlCssMaxBytes: 30 * KIB, articleEditorJsMaxBytes: 150 * KIB };
/**
 * The autosave load (the "Articles" issue): `editors` members at once, each with the product agreement
 * accepted and an article of its own, each saving ~`words` words that change on every save, over
 * GraphQL; a warm-up, then the measured seconds.
 */
export const AUTOSAVE = { editors: 50, words: 600, warmupSeconds: 2, durationSeconds: 10 };
export const HTTP_TIMEOUT_MS = 10_000;

// ---- the shape of a module ---------------------------------------------------------------------

/** What a server (scripts/bench/server.ts, a child process) tells the bench when it is ready. */
export type ServerInfo = {
  /** The app that counts SQL statements (Server-Timing); page weight and SQL figures come from it. */
  probePort: number;
  /** A plain production app on the same database: throughput figures come from it. */
  loadPort: number;
  /** The demo member's session cookie (`auth=…`). */
  cookie: string;
  /** The demo admin's session cookie, for the admin pages. */
  adminCookie: string;
  startupMs: number;
  signInEmails: string[];
  /** Session cookies of the AUTOSAVE.editors members of the autosave load (product agreement accepted). */
  editorCookies: string[];
  /** How many of them the server created for the bench (the demo seed has fewer members). */
  editorsCreated: number;
};

/** One table of the report. Tables of a per-database module with the same key are merged, a `database` column first. */
export type Section = { key: string; title: string; head: string[]; rows: string[][]; right?: boolean[]; notes?: string[] };

/** What every module returns: its tables, its warnings, and everything it measured (written to the JSON). */
export type ModuleOutput = { sections: Section[]; warnings: string[]; data: unknown };

export type BenchContext = {
  log: (line: string) => void;
  /** Set for modules of scope 'server': the database's server, already running. */
  server?: {
    backend: 'pglite' | 'postgres';
    label: string;
    info: ServerInfo;
    /** The first database measured (some figures, such as page weight, do not depend on it: measured once). */
    first: boolean;
    /** What one module leaves for the next on the same server (e.g. the pages module's draft article id). */
    shared: Map<string, unknown>;
  };
};

/**
 * A bench module: `scope: 'process'` runs once, in the bench process, before any server (or starts
 * servers of its own, e.g. one node against two); `scope: 'server'` runs once per database, against
 * the server scripts/bench/server.ts started for it. Add a module: a file exporting one, and one line
 * in the list of scripts/bench/index.ts.
 */
export type BenchModule = {
  name: string;
  scope: 'process' | 'server';
  /** One line for the progress log. */
  describe: string;
  run(ctx: BenchContext): Promise<ModuleOutput>;
};

export function serverOf(ctx: BenchContext): NonNullable<BenchContext['server']> {
  if (!ctx.server) throw new Error('this module needs a server');
  return ctx.server;
}

// ---- HTTP --------------------------------------------------------------------------------------

export type Response = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

export function get(port: number, urlPath: string, headers: Record<string, string> = {}): Promise<Response> {
  return request(port, 'GET', urlPath, undefined, headers, false);
}

/** One POST; a new connection each time unless an agent (keep-alive) is given. */
export function post(port: number, urlPath: string, body: string, headers: Record<string, string>, agent: http.Agent | false = false): Promise<Response> {
  return request(port, 'POST', urlPath, body, { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent);
}

function request(port: number, method: string, urlPath: string, body: string | undefined, headers: Record<string, string>, agent: http.Agent | false): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: HOST, port, path: urlPath, method, headers, agent, timeout: HTTP_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${urlPath} timed out after ${HTTP_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** N from `server-timing: db;desc="SQL queries";dur=N`, or null when the header is missing. */
export function sqlQueries(res: Response): number | null {
  const header = res.headers['server-timing'];
  const value = Array.isArray(header) ? header.join(',') : header;
  const match = value ? /(?:^|,)\s*db;[^,]*dur=([\d.]+)/.exec(value) : null;
  return match ? Number(match[1]) : null;
}

const decodeEntities = (s: string) =>
  s.replace(/&(amp|quot|lt|gt|#39|#x27);/g, (_, e: string) => ({ amp: '&', quot: '"', lt: '<', gt: '>', '#39': "'", '#x27': "'" })[e]!);

/** The attributes of each start tag `<name ...>` in the HTML (a small parser, enough for our markup). */
export function tags(html: string, name: string): Record<string, string>[] {
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
export const isSignedInPage = (html: string) => html.includes('class="menu user-menu"');

export type CsrfPair = { token: string; cookie: string };

/** A CSRF token and its `_csrf` cookie, from one signed-out GET /login; a token stays valid for its cookie. */
export async function csrfPair(port: number): Promise<CsrfPair> {
  const res = await get(port, '/login', { accept: 'text/html' });
  if (res.status !== 200) throw new Error(`GET /login answered ${res.status}`);
  const token = tags(res.body.toString('utf8'), 'meta').find((m) => m.name === 'csrf-token')?.content;
  const setCookie = res.headers['set-cookie'] ?? [];
  const cookie = setCookie.map((c) => c.split(';')[0]!.trim()).find((c) => c.startsWith('_csrf='));
  if (!token || !cookie) throw new Error(`GET /login gave no ${token ? '_csrf cookie' : 'csrf-token meta tag'}`);
  return { token, cookie };
}

/** The CSRF pair of this server's probe or load app, fetched once and kept in ctx.server.shared. */
export async function sharedCsrf(ctx: BenchContext, app: 'probe' | 'load'): Promise<CsrfPair> {
  const server = serverOf(ctx);
  const key = `csrf:${app}`;
  let pair = server.shared.get(key) as CsrfPair | undefined;
  if (!pair) {
    pair = await csrfPair(app === 'probe' ? server.info.probePort : server.info.loadPort);
    server.shared.set(key, pair);
  }
  return pair;
}

export const graphqlHeaders = (sessionCookie: string, csrf: CsrfPair) => ({
  accept: 'application/json',
  'content-type': 'application/json',
  cookie: `${sessionCookie}; ${csrf.cookie}`,
  'x-csrf-token': csrf.token,
});

// ---- autocannon --------------------------------------------------------------------------------

// autocannon ships no types; this is the part of its programmatic API the bench uses.
type Histogram = { average: number; mean: number; stddev: number; min: number; max: number; p50: number; p90: number; p99: number; total?: number };
export type AutocannonResult = {
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
  /** Several URLs: connection i goes to url[i % url.length]. */
  url: string | string[];
  connections: number;
  duration: number;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  timeout?: number;
  /** Called once per connection as it is made; `setBody` gives that connection its own body. */
  setupClient?: (client: { setBody(body: string): void }) => void;
  /** Per request: `setupRequest` may change each request before it is sent (its headers). */
  requests?: { setupRequest: (req: { headers?: Record<string, string> }) => { headers?: Record<string, string> } }[];
}) => AutocannonInstance;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export type LoadRequest = {
  method?: 'GET' | 'POST';
  body?: string;
  headers: Record<string, string>;
  bodies?: string[];
  /** Request i adds headerSets[i % length] to the headers (many members' sessions over few connections). */
  headerSets?: Record<string, string>[];
};

/** Starts one autocannon run, stopped by a timer if it outlives its duration (plus slack); `stop` ends it early. */
export function startCannon(url: string | string[], seconds: number, request: LoadRequest): { done: Promise<AutocannonResult>; stop: () => void } {
  const { bodies, headerSets, ...rest } = request;
  // With `bodies`, connection i sends bodies[i % bodies.length] for the whole run.
  let next = 0;
  const setupClient = bodies?.length ? (client: { setBody(body: string): void }) => client.setBody(bodies[next++ % bodies.length]!) : undefined;
  let sent = 0;
  const requests = headerSets?.length
    ? [{ setupRequest: (req: { headers?: Record<string, string> }) => ({ ...req, headers: { ...rest.headers, ...headerSets[sent++ % headerSets.length] } }) }]
    : undefined;
  const instance = autocannon({ url, connections: LOAD.connections, duration: seconds, timeout: 10, ...rest, ...(setupClient ? { setupClient } : {}), ...(requests ? { requests } : {}) });
  const guard = setTimeout(() => instance.stop(), (seconds + 15) * 1000);
  const done = Promise.resolve(instance).finally(() => clearTimeout(guard));
  return { done, stop: () => instance.stop() };
}

/** One autocannon run, bounded in time. */
export const cannon = (url: string, seconds: number, headers: Record<string, string>): Promise<AutocannonResult> => startCannon(url, seconds, { headers }).done;

export const statusCounts = (r: AutocannonResult): Record<string, number> =>
  Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, Number(v.count)]));

export type Latency = { p50: number; p90: number; p99: number; max: number; average: number };
export const latencyOf = (r: AutocannonResult): Latency => ({
  p50: r.latency.p50,
  p90: r.latency.p90,
  p99: r.latency.p99,
  max: r.latency.max,
  average: Math.round(r.latency.average * 100) / 100,
});

// ---- numbers and the report ----------------------------------------------------------------------

/** Nearest-rank percentile of a sample (p in 0..100). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
export const round1 = (n: number) => Math.round(n * 10) / 10;
export const availableCores = () => os.availableParallelism?.() ?? os.cpus().length;
export const randomSecret = () => randomBytes(32).toString('hex');

export const kib = (bytes: number) => (bytes === 0 ? '0' : `${(bytes / KIB).toFixed(1)} KiB`);
const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);

export function table(head: string[], rows: string[][], right: boolean[] = []): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (right[i] ? lpad(c ?? '', widths[i]!) : pad(c ?? '', widths[i]!))).join('  ').trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export const errorMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * A database of a module's own, for a module that seeds at a scale of its own in a child process:
 * 'pglite' on the PGlite half (the child makes a temporary one), else a fresh PostgreSQL database,
 * which `drop` removes.
 */
export async function moduleDatabase(backend: 'pglite' | 'postgres', prefix: string): Promise<{ target: string; drop: () => Promise<void> }> {
  if (backend === 'pglite') return { target: 'pglite', drop: async () => {} };
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    target: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await c.end();
    },
  };
}

/**
 * The environment of a bench app: production mode on 127.0.0.1, any free port, a random cookie secret
 * (or BENCH_COOKIE_SECRET), no rate limit in the way of the load, no demo seed, no logs; on the PGlite
 * directory `pgliteDir`, or else the PostgreSQL database `target`.
 */
export function benchAppEnv(target: string, pgliteDir: string | undefined): Record<string, string> {
  return {
    NODE_ENV: 'production',
    // The bench pays with the sandbox's test cards, so it names it (production refuses it unnamed).
    PAYMENT_PROCESSOR: 'sandbox',
    HOST,
    PORT: '0',
    COOKIE_SECRET: process.env.BENCH_COOKIE_SECRET ?? randomSecret(),
    RATE_LIMIT_MAX: '100000000',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    ...(pgliteDir ? { DATA_DIR: pgliteDir } : { DATABASE_URL: target }),
  };
}

// ---- what several modules' children share: Chromium, the seeding SQL, one page under load ---------

/** Debian's Chromium, as the tests use it, and the flags a headless bench run wants. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** What a browser asks for. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** A PostgreSQL text array literal of these values (for the seeding SQL's generate_series). */
export const sqlArray = (values: string[]) => `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]`;

/**
 * `count` members of a bench community, `{prefix}{g}@{code}.bench.invalid`, who joined long ago (a
 * new member's forum posts would wait for a moderator), at companies named `{company} {id}`.
 */
export async function seedBenchMembers(
  db: import('#src/db/index.ts').RawDb,
  cid: number,
  code: string,
  count: number,
  { prefix = 'm', company = 'Bench Studio' }: { prefix?: string; company?: string } = {},
): Promise<void> {
  const { sql } = await import('kysely');
  await sql
    .raw(
      `insert into users (email, username, first_name, last_name, password_hash)
       select '${prefix}' || g || '@${code}.bench.invalid', '${code}-' || g, (${sqlArray(['Amara', 'Daniel', 'Priya', 'Marcus', 'Sofia', 'Kwame', 'Hannah', 'Ethan'])})[1 + g % 8],
              (${sqlArray(['Okafor', 'Reyes', 'Shah', 'Lindqvist', 'Moreau', 'Mensah', 'Becker', 'Novak', 'Tanaka'])})[1 + g % 9], null
       from generate_series(1, ${count}) g`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into memberships (community_id, user_id, roles, gate, company_name, job_title, joined_at)
       select ${cid}, u.id, array['MEMBER']::text[], 'app', '${company.replace(/'/g, "''")} ' || u.id, 'Founder', now() - interval '400 days'
       from users u where u.email like '%@${code}.bench.invalid'`,
    )
    .execute(db);
}

export type PageFigures = { status: number; sql: number | null; requestsPerSecond: number; latencyMs: Latency; failures: string | null };

/**
 * One page as a signed-in browser asks for it: its SQL statements (the largest of three steady
 * requests after one to warm up, on the probe app) and its throughput and latency under autocannon
 * (on the load app).
 */
export async function measurePage(ports: { probePort: number; loadPort: number }, cookie: string, urlPath: string): Promise<PageFigures> {
  const headers = { accept: 'text/html', cookie, 'accept-encoding': ACCEPT_ENCODING };
  await get(ports.probePort, urlPath, headers);
  let sql: number | null = null;
  let status = 0;
  for (let i = 0; i < 3; i++) {
    const r = await get(ports.probePort, urlPath, headers);
    status = r.status;
    const n = sqlQueries(r);
    if (n !== null) sql = Math.max(sql ?? 0, n);
  }
  const url = `http://${HOST}:${ports.loadPort}${urlPath}`;
  await cannon(url, LOAD.warmupSeconds, headers);
  const r = await cannon(url, LOAD.durationSeconds, headers);
  const bad = r.non2xx + r.errors + r.timeouts;
  return {
    status,
    sql,
    requestsPerSecond: Math.round(r.requests.average),
    latencyMs: latencyOf(r),
    failures: bad ? `${r.non2xx} non-2xx (${JSON.stringify(statusCounts(r))}), ${r.errors} errors, ${r.timeouts} timeouts` : null,
  };
}

/**
 * An SMTP server on a free port that takes every mail: when each recipient's mail arrived, when the
 * last one did, and (with `onText`) the first 20,000 characters of each message for a module to read.
 */
export async function mailSink(onText?: (text: string) => void) {
  const { SMTPServer } = await import('smtp-server');
  const received = new Map<string, number>();
  let lastMailAt = 0;
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let text = '';
      stream.on('data', (d: Buffer) => {
        if (onText && text.length < 20_000) text += d.toString('latin1');
      });
      stream.on('end', () => {
        const now = Date.now();
        onText?.(text);
        for (const rcpt of session.envelope.rcptTo) received.set(rcpt.address.toLowerCase(), now);
        lastMailAt = now;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, HOST, resolve));
  return {
    port: (sink.server.address() as { port: number }).port,
    received,
    lastMailAt: () => lastMailAt,
    close: () => new Promise<void>((resolve) => sink.close(() => resolve())),
  };
}

/** A page measured at one size of its data: its statements, and its throughput and latency under load (null: not loaded). */
export type SizedMeasure = { size: number; key: string; label: string; sql: number | null; requestsPerSecond: number | null; latencyMs: Latency | null };

/**
 * The table of pages measured at a small and a big size of their data (offers, messages, posts in a
 * group): SQL per page against its budget, throughput and latency, and the p99 at the big size over
 * the p99 at the small one against the "flat" factor.
 */
export function flatPagesSection(o: {
  key: string;
  title: string;
  /** The column naming the size ('offers', 'messages', 'posts'). */
  sizeHead: string;
  results: readonly SizedMeasure[];
  small: number;
  big: number;
  sqlBudget: number;
  flatFactor: number;
}): Section {
  const p99 = (size: number, key: string) => o.results.find((r) => r.size === size && r.key === key)?.latencyMs?.p99 ?? null;
  return {
    key: o.key,
    title: o.title,
    head: [o.sizeHead, 'page', 'SQL', `≤ ${o.sqlBudget}`, 'req/s', 'p50 ms', 'p99 ms', `flat ≤ ${o.flatFactor}x`],
    right: [true, false, true, false, true, true, true, false],
    rows: o.results.map((m) => {
      const small99 = p99(o.small, m.key);
      const ratio = m.size === o.big && small99 && m.latencyMs ? m.latencyMs.p99 / small99 : null;
      return [
        m.size.toLocaleString('en-US'),
        m.label,
        m.sql === null ? '-' : String(m.sql),
        m.sql === null ? '-' : m.sql <= o.sqlBudget ? 'pass' : 'over',
        String(m.requestsPerSecond ?? '-'),
        m.latencyMs ? String(m.latencyMs.p50) : '-',
        m.latencyMs ? String(m.latencyMs.p99) : '-',
        ratio === null ? '' : `${ratio.toFixed(2)}x ${ratio <= o.flatFactor ? 'pass' : 'over'}`,
      ];
    }),
  };
}

/**
 * Pages measured at each size of their data (the module's two servers, small first): every page put
 * under load is warmed once on each side, then each page is measured on each side in turn. An answer
 * other than 200, or failures under load, become warnings named by size and page.
 */
export async function measureAtSizes<Side extends { size: number; loadPort: number; cookie: string }, Target extends { label: string; load: boolean; path: (side: Side) => string }, M extends { status: number; failures: string | null }>(o: {
  ctx: BenchContext;
  /** The module's name and what its sizes count ('offers', 'posts'), for the log and the warnings. */
  name: string;
  unit: string;
  sides: readonly Side[];
  targets: readonly Target[];
  measure: (side: Side, target: Target) => Promise<M>;
  warnings: string[];
}): Promise<M[]> {
  for (const side of o.sides) for (const t of o.targets) if (t.load) await cannon(`http://${HOST}:${side.loadPort}${t.path(side)}`, 1, { accept: 'text/html', cookie: side.cookie });
  const results: M[] = [];
  for (const t of o.targets) {
    for (const side of o.sides) {
      o.ctx.log(`  ${o.name}: ${side.size.toLocaleString('en-US')} ${o.unit}, ${t.label}…`);
      const m = await o.measure(side, t);
      if (m.status !== 200) o.warnings.push(`${side.size} ${o.unit}, ${t.label}: answered ${m.status}`);
      if (m.failures) o.warnings.push(`${side.size} ${o.unit}, ${t.label}: ${m.failures}`);
      results.push(m);
    }
  }
  return results;
}
