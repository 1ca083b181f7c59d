// `npm run bench`: page weight, SQL queries per request, throughput, password hashing, sign-in
// throughput, responsiveness under a password-guessing flood, and the articles' figures (the editor
// page's weight against its own JS budget, the dashboard's SQL, and the autosave round-trip under 50
// concurrent editors). It measures and prints; it asserts nothing. Everything runs on 127.0.0.1 and
// every load loop is bounded in time.
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
import { LocalCopyScanner } from '#src/features/articles/copy-scan.ts';
import { DEMO_MEMBER_PASSWORD } from '#src/db/seed.ts';
import type { Gate, Role } from '#src/db/types.ts';

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
const BUDGETS = { jsMaxBytes: 100 * KIB, htmlCssMaxBytes: 30 * KIB, articleEditorJsMaxBytes: 150 * KIB };
/**
 * The autosave load (the "Articles" issue): `editors` members at once, each with the product agreement
 * accepted and an article of its own, each saving ~`words` words that change on every save, over
 * GraphQL; a warm-up, then the measured seconds.
 */
const AUTOSAVE = { editors: 50, words: 600, warmupSeconds: 2, durationSeconds: 10 };
/** The mutation the editor island sends (the issue's text). */
const AUTOSAVE_MUTATION =
  'mutation($id: ID, $t: String!, $c: String!) { articleAutoSaveRevision(articleId: $id, title: $t, content: $c) { id status } }';
const SERVER_START_TIMEOUT_MS = 120_000;
const HTTP_TIMEOUT_MS = 10_000;
/** Whole-run watchdog: the bench is meant to take well under five minutes (about two on 2 cores). */
const WATCHDOG_MS = 6 * 60_000;

type ServerInfo = {
  probePort: number;
  loadPort: number;
  cookie: string;
  startupMs: number;
  signInEmails: string[];
  /** Session cookies of the AUTOSAVE.editors members of the autosave load (product agreement accepted). */
  editorCookies: string[];
  /** How many of them the server created for the bench (the demo seed has fewer members). */
  editorsCreated: number;
};

// ---------------------------------------------------------------------------------------------
// The server (child process)
// ---------------------------------------------------------------------------------------------

async function serve(target: string): Promise<void> {
  const started = performance.now();
  // Imported here so the parent does not load the application.
  const [{ buildApp }, { loadConfig }, { createDatabase, migrateToLatest }, { seedDemo }, { AUTH_COOKIE, startSession }, { acceptProductAgreement }] = await Promise.all([
    import('#src/app.ts'),
    import('#src/config.ts'),
    import('#src/db/index.ts'),
    import('#src/db/seed.ts'),
    import('#src/features/auth/sessions.ts'),
    import('#src/features/articles/service.ts'),
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

  // The autosave load's editors: the community's demo members (not DEMO_MEMBER_EMAIL, whose pages are
  // measured, nor the flood's member), then members made for the bench the way
  // test/helpers/factories.ts `createMember` makes them (no password: they get a session directly).
  // Each gets a session, as the demo member does, and the product agreement, accepted the way
  // POST /articles/agreement accepts it (acceptProductAgreement).
  const demoEditors = await db
    .selectFrom('users')
    .innerJoin('memberships', 'memberships.user_id', 'users.id')
    .select(['users.id', 'memberships.roles', 'memberships.gate'])
    .where('memberships.community_id', '=', community.id)
    .where('memberships.is_active', '=', true)
    .where('users.is_active', '=', true)
    .where('users.email', 'like', `%@${DEMO_MEMBER_EMAIL.split('@')[1]}`)
    .where('users.email', 'not in', [DEMO_MEMBER_EMAIL, FLOOD_MEMBER_EMAIL])
    .orderBy('users.id')
    .limit(AUTOSAVE.editors)
    .execute();
  const editors: { id: number; roles: Role[]; gate: Gate }[] = [...demoEditors];
  const editorsCreated = AUTOSAVE.editors - editors.length;
  for (let i = 1; i <= editorsCreated; i++) {
    const user = await db
      .insertInto('users')
      .values({ email: `bench-editor-${i}@bench.invalid`, username: `bench-editor-${i}`, first_name: 'Bench', last_name: `Editor ${i}`, password_hash: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('memberships')
      .values({
        community_id: community.id,
        user_id: user.id,
        roles: ['MEMBER'],
        gate: 'app',
        company_name: 'Acme Corp',
        job_title: 'Chief Executive Officer',
        location_name: 'Austin, TX',
        location_familiar_name: 'Austin',
        is_active: true,
      })
      .execute();
    editors.push({ id: user.id, roles: ['MEMBER'], gate: 'app' });
  }
  const articleDeps = { db, clock: load.clock, community, t: load.t };
  const editorCookies: string[] = [];
  for (const editor of editors) {
    const session = await startSession(db, load.sessionTokens, load.clock, {
      userId: editor.id,
      community,
      roles: editor.roles,
      gate: editor.gate,
      basePath: config.basePath,
    });
    await acceptProductAgreement(articleDeps, editor.id);
    editorCookies.push(`${AUTH_COOKIE}=${session.token}`);
  }

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
    editorCookies,
    editorsCreated,
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

/** What the parent does, as the demo member, before measuring a page (see prepareArticlePage). */
type PagePrep = 'accept-agreement' | 'save-draft';

type PageSpec = {
  key: string;
  label: string;
  path: string;
  signedIn: boolean;
  expectStatus: number;
  /** This page's JS budget, gzipped; BUDGETS.jsMaxBytes when not given. */
  jsMaxBytes?: number;
  /** Run just before this page is measured (the pages are measured in this order). */
  before?: PagePrep;
  /** A page of the articles area: warn when it renders the product-agreement gate instead. */
  articles?: boolean;
  /** Text the page must contain (a warning otherwise). */
  expectText?: string;
};

const PAGES: PageSpec[] = [
  { key: 'home-signed-out', label: 'Home, signed out  /', path: '/', signedIn: false, expectStatus: 200 },
  { key: 'not-found', label: '404  /no-such-page', path: '/no-such-page', signedIn: false, expectStatus: 404 },
  { key: 'home-signed-in', label: 'Home, signed in  / (bell)', path: '/', signedIn: true, expectStatus: 200 },
  // The articles pages, as the demo member after accepting the product agreement (POST /articles/agreement).
  {
    key: 'articles-editor-new',
    label: 'Article editor, no draft yet  /articles/edit',
    path: '/articles/edit',
    signedIn: true,
    expectStatus: 200,
    jsMaxBytes: BUDGETS.articleEditorJsMaxBytes,
    before: 'accept-agreement',
    articles: true,
  },
  {
    key: 'articles-editor',
    label: `Article editor, ${AUTOSAVE.words}-word draft  /articles/edit`,
    path: '/articles/edit',
    signedIn: true,
    expectStatus: 200,
    jsMaxBytes: BUDGETS.articleEditorJsMaxBytes,
    before: 'save-draft',
    articles: true,
    expectText: 'Draft 1, save 1:',
  },
  { key: 'articles-dashboard', label: 'Articles dashboard  /articles (draft in flight)', path: '/articles', signedIn: true, expectStatus: 200, articles: true },
];

/** The product-agreement gate (AgreementGate): a form that posts to /articles/agreement. */
const isAgreementGate = (html: string) => /<form[^>]*action="[^"]*\/articles\/agreement"/.test(html);

/** How the page comes to load the file: its own tags, or an import in a file it loads (followed transitively). */
type AssetVia = 'script' | 'modulepreload' | 'import' | 'dynamic import';
type Asset = { url: string; rawBytes: number; gzipBytes: number; status: number; via?: AssetVia };

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
  budgets: { jsZeroWithoutIsland: Verdict; jsMax: Verdict; jsMaxBytes: number; htmlCssMax: Verdict };
  warnings: string[];
};

type Verdict = 'pass' | 'over' | 'n/a';

async function fetchAsset(port: number, url: URL, via?: AssetVia): Promise<Asset & { body: Buffer }> {
  const res = await get(port, url.pathname + url.search);
  return { url: url.pathname + url.search, rawBytes: res.body.length, gzipBytes: gz(res.body), status: res.status, ...(via ? { via } : {}), body: res.body };
}

/**
 * The JS modules a module imports, resolved against its URL: static `import … from "…"`,
 * `import "…"`, `export … from "…"`, and dynamic `import("…")` (esbuild's minified ESM). Only
 * relative or root-relative `.js` specifiers: the islands' chunks; bare specifiers cannot occur in a
 * bundle.
 */
function moduleImports(code: string, from: URL): { url: URL; dynamic: boolean }[] {
  const out: { url: URL; dynamic: boolean }[] = [];
  const local = (spec: string) => /^(?:\.{1,2}\/|\/)[^?#]*\.m?js(?:[?#].*)?$/.test(spec);
  for (const m of code.matchAll(/(?:^|[;\s{}])(?:import|export)\s*(?:[^'"`();]*?\bfrom\s*)?["']([^"'\n]+)["']/g)) {
    if (local(m[1]!)) out.push({ url: new URL(m[1]!, from), dynamic: false });
  }
  for (const m of code.matchAll(/\bimport\(\s*["']([^"'\n]+)["']\s*\)/g)) {
    if (local(m[1]!)) out.push({ url: new URL(m[1]!, from), dynamic: true });
  }
  return out;
}

/**
 * Every JS file the page makes the browser fetch: its `<script src>` and `<link rel="modulepreload">`,
 * then, transitively, what those import (statically, or with `import()`: an island that loads its
 * editor lazily still ships it on the page that renders it). Same-origin files only.
 */
async function fetchScripts(port: number, scripts: URL[], preloads: URL[], sameOrigin: (u: URL) => boolean): Promise<{ files: Asset[]; urls: URL[] }> {
  const seen = new Map<string, { url: URL; via: AssetVia }>();
  const queue: { url: URL; via: AssetVia }[] = [];
  const add = (url: URL, via: AssetVia) => {
    if (seen.has(url.href)) return;
    seen.set(url.href, { url, via });
    if (sameOrigin(url)) queue.push({ url, via });
  };
  for (const u of scripts) add(u, 'script');
  for (const u of preloads) add(u, 'modulepreload');
  const files: Asset[] = [];
  while (queue.length) {
    const batch = queue.splice(0);
    const fetched = await Promise.all(batch.map((f) => fetchAsset(port, f.url, f.via)));
    for (const [i, { body, ...asset }] of fetched.entries()) {
      files.push(asset);
      if (asset.status !== 200) continue;
      for (const imp of moduleImports(body.toString('utf8'), batch[i]!.url)) add(imp.url, imp.dynamic ? 'dynamic import' : 'import');
    }
  }
  return { files, urls: [...seen.values()].map((v) => v.url) };
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
  const cssFiles = (await Promise.all(distinct(stylesheets).filter(sameOrigin).map((u) => fetchAsset(port, u)))).map(({ body: _, ...a }) => a);
  const scriptsFetched = await fetchScripts(port, distinct(scripts), distinct(preloads), sameOrigin);
  const jsFiles = scriptsFetched.files;

  // What a browser would request: the document, then every distinct subresource URL (data: URLs are not
  // requests), the modules the page's scripts import included.
  const subresources = distinct([...stylesheets, ...scriptsFetched.urls, ...images, ...icons]).filter((u) => u.protocol !== 'data:');
  const sum = (files: Asset[], k: 'rawBytes' | 'gzipBytes') => files.reduce((n, f) => n + f[k], 0);
  const htmlGz = gz(res.body);
  const cssGz = sum(cssFiles, 'gzipBytes');
  const jsGz = sum(jsFiles, 'gzipBytes');
  const sqlSamples = samples.map(sqlQueries);
  const numeric = sqlSamples.filter((n): n is number => n !== null);
  const warnings: string[] = [];
  if (res.status !== spec.expectStatus) warnings.push(`status ${res.status}, expected ${spec.expectStatus}`);
  if (spec.signedIn !== isSignedInPage(html)) warnings.push(spec.signedIn ? 'the page did not render signed in' : 'the page rendered signed in');
  if (spec.articles && isAgreementGate(html)) warnings.push('the page rendered the product-agreement gate (the agreement was not accepted)');
  if (spec.expectText && !html.includes(spec.expectText)) warnings.push(`the page does not contain "${spec.expectText}"`);
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
      jsMax: jsGz <= (spec.jsMaxBytes ?? BUDGETS.jsMaxBytes) ? 'pass' : 'over',
      jsMaxBytes: spec.jsMaxBytes ?? BUDGETS.jsMaxBytes,
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


// ---- the local copy scan -------------------------------------------------------------------------

const COPY_SCAN = { corpusSizes: [100, 1000, 3000], corpusWords: 700, submissionWords: 800, copiedWords: 120, samples: 3 };
type CopyScanTiming = { articles: number; corpusWords: number; medianMs: number; maxMs: number; identicalWords: number | null };

/**
 * The local scanner (`LocalCopyScanner`) in this process: one 800-word submission holding a 120-word
 * passage copied from the first article, against communities of 100, 1000 and 3000 other articles of
 * 700 words (a seeded made-up vocabulary of 6000 words, drawn with a Zipf-like skew as prose is). The
 * submit waits for this; reading the articles from the database is not included.
 */
async function measureCopyScan(): Promise<CopyScanTiming[]> {
  let seed = 42;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ber', 'dan', 'gor', 'hal', 'jin', 'mar', 'pel', 'quo', 'ren', 'sul', 'tar', 'wen'];
  const vocabulary = Array.from({ length: 6000 }, () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => syllables[Math.floor(random() * syllables.length)]).join(''));
  const word = () => vocabulary[Math.min(vocabulary.length - 1, Math.floor(Math.exp(random() * Math.log(vocabulary.length))) - 1)]!;
  const prose = (n: number) => Array.from({ length: n }, (_, i) => word() + (i % 14 === 13 ? '.' : '')).join(' ');
  const scanner = new LocalCopyScanner();
  const results: CopyScanTiming[] = [];
  for (const articles of COPY_SCAN.corpusSizes) {
    const corpus = Array.from({ length: articles }, (_, i) => ({ id: i + 1, text: prose(COPY_SCAN.corpusWords) }));
    const half = (COPY_SCAN.submissionWords - COPY_SCAN.copiedWords) / 2;
    const text = `${prose(half)} ${corpus[0]!.text.split(' ').slice(100, 100 + COPY_SCAN.copiedWords).join(' ')} ${prose(half)}`;
    const ms: number[] = [];
    let identicalWords: number | null = null;
    for (let i = 0; i < COPY_SCAN.samples; i++) {
      const t = performance.now();
      identicalWords = (await scanner.scan({ text, corpus })).identicalWords;
      ms.push(performance.now() - t);
    }
    results.push({ articles, corpusWords: articles * COPY_SCAN.corpusWords, medianMs: Math.round(percentile(ms, 50)), maxMs: Math.round(Math.max(...ms)), identicalWords });
  }
  return results;
}

/** One POST; a new connection each time unless an agent (keep-alive) is given. */
function post(port: number, urlPath: string, body: string, headers: Record<string, string>, agent: http.Agent | false = false): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: HOST, port, path: urlPath, method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent, timeout: HTTP_TIMEOUT_MS },
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

// ---- the articles: the editor page's draft, and autosave under concurrent editors -------------------

/** About 500 common English words: a draft made of them gzips about as well as prose (2.1–2.2 : 1). */
const DRAFT_WORDS = `
the of and to a in is it you that he was for on are with as his they be at one have this from or had by not word but what some we can out other were
all there when up use your how said an each she which do their time if will way about many then them write would like so these her long make thing see
him two has look more day could go come did number sound no most people my over know water than call first who may down side been now find any new
work part take get place made live where after back little only round man year came show every good me give our under name very through just form
sentence great think say help low line differ turn cause much mean before move right boy old too same tell does set three want air well also play
small end put home read hand port large spell add even land here must big high such follow act why ask men change went light kind off need house
picture try us again animal point mother world near build self earth father head stand own page should country found answer school grow study still
learn plant cover food sun four between state keep eye never last let thought city tree cross farm hard start might story saw far sea draw left late
run while press close night real life few north open seem together next white children begin got walk example ease paper group always music those both
mark often letter until mile river car feet care second book carry took science eat room friend began idea fish mountain stop once base hear horse cut
sure watch color face wood main enough plain girl usual young ready above ever red list though feel talk bird soon body dog family direct pose leave
song measure door product black short numeral class wind question happen complete ship area half rock order fire south problem piece told knew pass
since top whole king space heard best hour better true during hundred five remember step early hold west ground interest reach fast verb sing listen
six table travel less morning ten simple several vowel toward war lay against pattern slow center love person money serve appear road map rain rule
govern pull cold notice voice unit power town fine certain fly fall lead cry dark machine note wait plan figure star box noun field rest correct able
pound done beauty drive stood contain front teach week final gave green oh quick develop ocean warm free minute strong special mind behind clear tail
produce fact street inch multiply nothing course stay wheel full force blue object decide surface deep moon island foot system busy test record boat
common gold possible plane stead dry wonder laugh thousand ago ran check game shape equate hot miss brought heat snow tire bring yes distant fill east
paint language among`.split(/\s+/).filter(Boolean);

/**
 * About `words` words of rich text in paragraphs of 100 words, different for every (editor, save): the
 * words are picked by a small generator seeded from both, and the first paragraph names the save.
 */
function draftContent(editor: number, save: number, words = AUTOSAVE.words): string {
  let x = (editor * 7919 + save * 104_729 + 1) >>> 0;
  const next = () => {
    x = (Math.imul(x, 1_664_525) + 1_013_904_223) >>> 0;
    return DRAFT_WORDS[(x >>> 8) % DRAFT_WORDS.length]!; // the high bits: an LCG's low bits repeat quickly
  };
  const paragraphs: string[] = [];
  for (let p = 0; p * 100 < words; p++) {
    const n = Math.min(100, words - p * 100);
    const w = Array.from({ length: n }, next);
    if (p === 0) w.splice(0, 4, 'Draft', `${editor + 1},`, 'save', `${save}:`);
    if (p === 1) w[0] = `<strong>${w[0]}</strong>`;
    paragraphs.push(`<p>${w.join(' ')}.</p>`);
  }
  return paragraphs.join('');
}

const graphqlHeaders = (sessionCookie: string, csrf: { token: string; cookie: string }) => ({
  accept: 'application/json',
  'content-type': 'application/json',
  cookie: `${sessionCookie}; ${csrf.cookie}`,
  'x-csrf-token': csrf.token,
});

const autosaveBody = (articleId: string | null, title: string, content: string) =>
  JSON.stringify({ query: AUTOSAVE_MUTATION, variables: { id: articleId, t: title, c: content } });

type AutosaveOutcome = { ok: true; id: string; status: string } | { ok: false; reason: string };

/** A save succeeded when it answers 200 with `data.articleAutoSaveRevision.id` and no `errors`. */
function autosaveOutcome(res: Response): AutosaveOutcome {
  let json: { data?: { articleAutoSaveRevision?: { id?: unknown; status?: unknown } | null } | null; errors?: { message?: string; extensions?: { code?: unknown } }[] };
  try {
    json = JSON.parse(res.body.toString('utf8')) as typeof json;
  } catch {
    return { ok: false, reason: `HTTP ${res.status}, not JSON` };
  }
  if (json.errors?.length) {
    const e = json.errors[0]!;
    return { ok: false, reason: `HTTP ${res.status}, GraphQL error ${String(e.extensions?.code ?? '')}: ${e.message ?? ''}`.trim() };
  }
  const saved = json.data?.articleAutoSaveRevision;
  if (res.status !== 200 || !saved || saved.id === undefined || saved.id === null) return { ok: false, reason: `HTTP ${res.status} without data.articleAutoSaveRevision.id` };
  return { ok: true, id: String(saved.id), status: String(saved.status) };
}

/** SQL statements of one autosave, from the probe app's Server-Timing. */
type AutosaveSql = { firstSaveCreatingTheArticle: number | null; save: number | null };

/**
 * Before an articles page is measured, as the demo member: 'accept-agreement' posts the product
 * agreement's form (POST /articles/agreement, acknowledge=on and the CSRF token), as a member does;
 * 'save-draft' autosaves a draft of AUTOSAVE.words words over GraphQL, as the editor island does:
 * once without an article id (which creates the article), then once more with it, counting the SQL
 * statements of each. Returns what went wrong, for the page's warnings.
 */
async function prepareArticlePage(
  port: number,
  cookie: string,
  csrf: { token: string; cookie: string },
  step: PagePrep,
): Promise<{ warnings: string[]; autosaveSql?: AutosaveSql }> {
  if (step === 'accept-agreement') {
    const res = await post(port, '/articles/agreement', new URLSearchParams({ acknowledge: 'on', _csrf: csrf.token }).toString(), {
      accept: 'text/html',
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `${cookie}; ${csrf.cookie}`,
    });
    const location = String(res.headers.location ?? '');
    const ok = res.status === 303 && location.endsWith('/articles/edit');
    return { warnings: ok ? [] : [`POST /articles/agreement answered ${res.status}${location ? ` → ${location}` : ''}, not 303 → /articles/edit`] };
  }
  const title = 'What a council taught me about growth';
  const first = await post(port, '/graphql', autosaveBody(null, title, draftContent(0, 0)), graphqlHeaders(cookie, csrf));
  const created = autosaveOutcome(first);
  if (!created.ok) return { warnings: [`saving the draft failed: ${created.reason}`] };
  const again = await post(port, '/graphql', autosaveBody(created.id, title, draftContent(0, 1)), graphqlHeaders(cookie, csrf));
  const saved = autosaveOutcome(again);
  return {
    warnings: saved.ok ? [] : [`saving the draft again failed: ${saved.reason}`],
    autosaveSql: { firstSaveCreatingTheArticle: sqlQueries(first), save: sqlQueries(again) },
  };
}

type AutosaveResult = {
  path: string;
  editors: number;
  editorsCreated: number;
  words: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** Saves that succeeded in the measured seconds, per second. */
  savesPerSecond: number;
  /** Saves answered in the measured seconds: succeeded + failed. */
  totalSaves: number;
  succeeded: number;
  failed: number;
  /** The first failure of each kind, with its count. */
  failures: Record<string, number>;
  /** Round trip of every save answered in the measured seconds (failures included), client side. */
  latencyMs: { p50: number; p95: number; p99: number; max: number; mean: number };
  requestBytes: { min: number; max: number };
  /** The articles created by each editor's first save (before the load), and the failures there. */
  setup: { articlesCreated: number; failures: string[] };
  warnings: string[];
};

/**
 * The autosave round trip under AUTOSAVE.editors concurrent editors: each editor (its own member,
 * session and keep-alive connection) first saves once without an article id (the first autosave
 * creates the article), then saves its article again and again, a new text every time, the next save
 * leaving as soon as the previous one answers. Warm-up, then the measured seconds: only saves
 * answered within them count.
 */
async function autosaveLoad(port: number, cookies: string[], editorsCreated: number, csrf: { token: string; cookie: string }): Promise<AutosaveResult> {
  const warnings: string[] = [];
  const agents = cookies.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  const setupFailures: string[] = [];
  try {
    // Each editor's first save creates its article (sequentially, so the setup is not part of the load).
    const articleIds: (string | null)[] = [];
    for (const [i, cookie] of cookies.entries()) {
      const res = await post(port, '/graphql', autosaveBody(null, `Bench draft ${i + 1}`, draftContent(i, 0)), graphqlHeaders(cookie, csrf), agents[i]!).catch(
        (e: Error) => ({ status: 0, headers: {}, body: Buffer.from(JSON.stringify({ errors: [{ message: e.message }] })) }) as Response,
      );
      const outcome = autosaveOutcome(res);
      articleIds.push(outcome.ok ? outcome.id : null);
      if (!outcome.ok) setupFailures.push(`editor ${i + 1}: ${outcome.reason}`);
    }
    if (setupFailures.length) warnings.push(`${setupFailures.length} of ${cookies.length} editors could not create their article: ${setupFailures[0]}`);
    if (new Set(articleIds.filter(Boolean)).size !== articleIds.filter(Boolean).length) warnings.push('two editors were given the same article');

    const latencies: number[] = [];
    const failures: Record<string, number> = {};
    let succeeded = 0;
    let minBytes = Infinity;
    let maxBytes = 0;
    const t0 = performance.now();
    const measureFrom = t0 + AUTOSAVE.warmupSeconds * 1000;
    const stopAt = measureFrom + AUTOSAVE.durationSeconds * 1000;
    const editorLoop = async (i: number) => {
      const id = articleIds[i];
      if (!id) return;
      for (let save = 1; performance.now() < stopAt; save++) {
        const body = autosaveBody(id, `Bench draft ${i + 1}`, draftContent(i, save));
        const started = performance.now();
        let outcome: AutosaveOutcome;
        try {
          outcome = autosaveOutcome(await post(port, '/graphql', body, graphqlHeaders(cookies[i]!, csrf), agents[i]!));
        } catch (e) {
          outcome = { ok: false, reason: `request failed: ${(e as Error).message}` };
        }
        const ended = performance.now();
        if (ended < measureFrom || ended > stopAt) continue;
        const bytes = Buffer.byteLength(body);
        minBytes = Math.min(minBytes, bytes);
        maxBytes = Math.max(maxBytes, bytes);
        latencies.push(ended - started);
        if (outcome.ok) succeeded++;
        else failures[outcome.reason] = (failures[outcome.reason] ?? 0) + 1;
      }
    };
    await Promise.all(cookies.map((_, i) => editorLoop(i)));
    const failed = latencies.length - succeeded;
    if (failed) warnings.push(`${failed} saves failed: ${Object.entries(failures).map(([k, v]) => `${v} × ${k}`).join('; ')}`);
    if (!latencies.length) warnings.push('no save was answered in the measured seconds');
    const pct = (p: number) => (latencies.length ? round1(percentile(latencies, p)) : 0);
    return {
      path: '/graphql',
      editors: cookies.length,
      editorsCreated,
      words: AUTOSAVE.words,
      warmupSeconds: AUTOSAVE.warmupSeconds,
      durationSeconds: AUTOSAVE.durationSeconds,
      savesPerSecond: round1(succeeded / AUTOSAVE.durationSeconds),
      totalSaves: latencies.length,
      succeeded,
      failed,
      failures,
      latencyMs: {
        p50: pct(50),
        p95: pct(95),
        p99: pct(99),
        max: latencies.length ? round1(Math.max(...latencies)) : 0,
        mean: latencies.length ? round1(latencies.reduce((a, b) => a + b, 0) / latencies.length) : 0,
      },
      requestBytes: { min: Number.isFinite(minBytes) ? minBytes : 0, max: maxBytes },
      setup: { articlesCreated: articleIds.filter(Boolean).length, failures: setupFailures },
      warnings,
    };
  } finally {
    for (const a of agents) a.destroy();
  }
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
  autosave?: AutosaveResult;
  /** One autosave's SQL statements (the demo member's draft, on the probe app). */
  autosaveSql?: AutosaveSql;
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
    const probeCsrf = await csrfPair(info.probePort);
    let autosaveSql: AutosaveSql | undefined;
    for (const [i, spec] of PAGES.entries()) {
      const prep = spec.before ? await prepareArticlePage(info.probePort, info.cookie, probeCsrf, spec.before) : { warnings: [] };
      autosaveSql ??= prep.autosaveSql;
      const page = await measurePage(info.probePort, info.cookie, spec, `bench-cold-${i}.invalid`);
      page.warnings.unshift(...prep.warnings);
      pages.push(page);
    }
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
    log(
      `[${label}] autosave: ${info.editorCookies.length} editors at once, POST /graphql articleAutoSaveRevision (~${AUTOSAVE.words} words): ` +
        `${AUTOSAVE.warmupSeconds} s warm-up + ${AUTOSAVE.durationSeconds} s…`,
    );
    const autosave = await autosaveLoad(info.loadPort, info.editorCookies, info.editorsCreated, csrf);
    return { backend, label, serverStartupMs: info.startupMs, pages, throughput: results, signIn, flood, autosave, autosaveSql };
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
    out.push(
      `Budgets: 0 JS on pages without an island; JS ≤ ${kib(BUDGETS.jsMaxBytes)} (the article editor: ≤ ${kib(BUDGETS.articleEditorJsMaxBytes)}, ` +
        `React runtime included); HTML + CSS ≤ ${kib(BUDGETS.htmlCssMaxBytes)}.`,
    );
    const sqlHeads = withPages.map((b) => `SQL/req ${b.backend === 'pglite' ? 'PGlite' : 'PG'}`);
    const rows = first.pages.map((p, i) => {
      const verdicts = [
        p.budgets.jsZeroWithoutIsland === 'n/a' ? null : `JS=0 ${p.budgets.jsZeroWithoutIsland}`,
        `JS≤${Math.round(p.budgets.jsMaxBytes / KIB)}K ${p.budgets.jsMax}`,
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
      for (const f of p.js.files) out.push(`      JS ${f.url}: ${kib(f.rawBytes)} raw, ${kib(f.gzipBytes)} gzipped${f.via && f.via !== 'script' && f.via !== 'modulepreload' ? ` (${f.via})` : ''}`);
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
    `Copy scan (the local scanner in the bench process: a ${COPY_SCAN.submissionWords}-word submission with ${COPY_SCAN.copiedWords} words copied from one article, ` +
      `against the community's other articles of ${COPY_SCAN.corpusWords} words; ${COPY_SCAN.samples} runs each; reading them from the database not included)`,
  );
  if (run.copyScan) {
    out.push(
      table(
        ['articles', 'corpus words', 'median ms', 'max ms', 'identical words found'],
        run.copyScan.map((c) => [String(c.articles), String(c.corpusWords), String(c.medianMs), String(c.maxMs), String(c.identicalWords ?? '–')]),
        [true, true, true, true, true],
      ),
    );
  } else out.push(`FAILED: ${run.copyScanError ?? 'not measured'}`);
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
  out.push('');

  const editorPages = first?.pages?.filter((p) => p.key.startsWith('articles-editor')) ?? [];
  const dashboard = withPages.map((b) => [b, b.pages!.find((p) => p.key === 'articles-dashboard')] as const);
  out.push('Articles');
  for (const p of editorPages) {
    out.push(
      `  ${p.label}: JS ${kib(p.js.gzipBytes)} gzipped (${kib(p.js.rawBytes)} raw, ${p.js.files.length} files, React included; islands: ${p.islands.join(', ') || 'none'}) ` +
        `against a budget of ${kib(p.budgets.jsMaxBytes)}: ${p.budgets.jsMax}; HTML ${kib(p.html.gzipBytes)}`,
    );
  }
  for (const [b, p] of dashboard) {
    if (p) out.push(`  Dashboard /articles, ${b.label}: ${p.sqlQueries.steady ?? '?'} SQL statements per request with warm caches (samples ${p.sqlQueries.samples.join(', ')})`);
  }
  for (const b of withPages) {
    const q = b.autosaveSql;
    if (q) out.push(`  One autosave (with the article's id), ${b.label}: ${q.save ?? '?'} SQL statements; the first, which creates the article: ${q.firstSaveCreatingTheArticle ?? '?'}`);
  }
  out.push('');
  out.push(
    `Autosave (POST /graphql articleAutoSaveRevision, ${AUTOSAVE.editors} editors at once, each its own member, session, article and keep-alive connection, ` +
      `~${AUTOSAVE.words} words that change on every save, the next save as soon as the last answers; ${AUTOSAVE.warmupSeconds} s warm-up then ${AUTOSAVE.durationSeconds} s)`,
  );
  const autosaveRows = run.backends
    .filter((b) => b.autosave)
    .map((b) => {
      const a = b.autosave!;
      return [
        b.label,
        String(a.editors),
        String(a.savesPerSecond),
        String(a.latencyMs.p50),
        String(a.latencyMs.p95),
        String(a.latencyMs.p99),
        String(a.latencyMs.max),
        String(a.totalSaves),
        String(a.failed),
      ];
    });
  out.push(
    table(['database', 'editors', 'saves/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'saves', 'failed'], autosaveRows, [false, true, true, true, true, true, true, true, true]),
  );
  const anyAutosave = run.backends.find((b) => b.autosave)?.autosave;
  if (anyAutosave) {
    out.push(
      `failed: answered other than 200 with data.articleAutoSaveRevision.id and no "errors" (or no answer). Request bodies ${anyAutosave.requestBytes.min}–${anyAutosave.requestBytes.max} bytes; ` +
        `${anyAutosave.editors - anyAutosave.editorsCreated} demo members + ${anyAutosave.editorsCreated} made for the bench.`,
    );
  }
  for (const b of run.backends) for (const w of b.autosave?.warnings ?? []) out.push(`WARNING ${b.label}, autosave: ${w}`);
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
  settings: typeof LOAD & { budgets: typeof BUDGETS; hashSamples: number; signInEmail: string; floodEmail: string; autosave: typeof AUTOSAVE };
  passwordHashing?: PasswordHashingResult;
  passwordHashingError?: string;
  copyScan?: CopyScanTiming[];
  copyScanError?: string;
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
    settings: { ...LOAD, budgets: BUDGETS, hashSamples: HASH_SAMPLES, signInEmail: DEMO_MEMBER_EMAIL, floodEmail: FLOOD_MEMBER_EMAIL, autosave: AUTOSAVE },
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
  log(`copy scan: the local scanner against ${COPY_SCAN.corpusSizes.join(', ')} articles…`);
  try {
    run.copyScan = await measureCopyScan();
  } catch (e) {
    run.copyScanError = e instanceof Error ? e.message : String(e);
    log(`copy scan: failed: ${run.copyScanError}`);
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
