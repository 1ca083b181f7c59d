// A bench server: `node --import tsx scripts/bench/server.ts <pglite|postgres://…>` migrates a fresh
// database, seeds the demo communities, builds two production apps on it (the probe, which counts SQL
// statements, and the load app), makes the sessions the modules need, prints one line
// `BENCH_READY {…ServerInfo}` and serves until SIGTERM or its stdin closes. It runs in a child process
// so that the load generator (in the bench process) does not share an event loop with it.
// startServer/stopServer are the bench's side.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { buildApp as BuildApp } from '#src/app.ts';
import type { RawDb as Db } from '#src/db/index.ts';
import type { Gate, Role } from '#src/db/types.ts';
import { AUTOSAVE, DEMO_COMMUNITY, DEMO_MEMBER_EMAIL, FLOOD_MEMBER_EMAIL, HOST, LOAD, ROOT, benchAppEnv, randomSecret, type ServerInfo } from './lib.ts';

const SCRIPT = fileURLToPath(import.meta.url);
/** How long the server may take to migrate, seed and listen; BENCH_SERVER_START_SECONDS gives a busy machine more. */
const SERVER_START_TIMEOUT_MS = Number(process.env.BENCH_SERVER_START_SECONDS ?? 120) * 1000;

export async function serve(target: string): Promise<void> {
  const started = performance.now();
  // Imported here so the parent does not load the application.
  const [{ buildApp }, { loadConfig }, { seedDemo, DEMO_ADMIN }, { AUTH_COOKIE, startSession }, { acceptProductAgreement }] = await Promise.all([
    import('#src/app.ts'),
    import('#src/config.ts'),
    import('#src/features/seed.ts'),
    import('#src/features/auth/sessions.ts'),
    import('#src/features/articles/byline-terms.ts'),
  ]);
  const { sessionTokenFor } = await import('./sessions.ts');

  const { db, pgliteDir, removeDir } = await childDatabase(target, 'bench-pglite-');
  // The seed refuses production by design; this is a throwaway bench database, seeded before the
  // production-mode app exists.
  await seedDemo(db, { production: false });

  const config = loadConfig({ ...benchAppEnv(target, pgliteDir), DEFAULT_COMMUNITY: DEMO_COMMUNITY });

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
  const token = await sessionTokenFor(load, community, DEMO_MEMBER_EMAIL);
  // The demo admin's session, the same way, for the admin pages.
  const adminToken = await sessionTokenFor(load, community, DEMO_ADMIN.email);

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
  const articleDeps = { db, clock: load.clock, community, t: load.t, notifier: load.notifications };
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

  exitWithParent(async () => {
    await probe.close();
    await load.close(); // destroys the database (ownsDb)
  }, removeDir);

  const info: ServerInfo = {
    probePort: portOf(probe),
    loadPort: portOf(load),
    cookie: `${AUTH_COOKIE}=${token}`,
    adminCookie: `${AUTH_COOKIE}=${adminToken}`,
    startupMs: Math.round(performance.now() - started),
    signInEmails,
    editorCookies,
    editorsCreated,
  };
  process.stdout.write(`BENCH_READY ${JSON.stringify(info)}\n`);
}

/**
 * How a bench server child ends: on SIGTERM or SIGINT, or when its parent goes away (its stdin
 * closes), it closes (at most 10 s), removes its directory and exits.
 */
export function exitWithParent(close: () => Promise<void>, removeDir: () => void): void {
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await close();
    } finally {
      removeDir();
      process.exit(0);
    }
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  process.stdin.on('end', shutdown);
  process.stdin.on('close', shutdown);
  process.stdin.resume();
}

export const children = new Set<ChildProcess>();

/**
 * Starts `script target` as a production-mode child and waits for the line `<marker> <json>` it prints
 * when ready; fails with its last stderr if it exits first or takes longer than `timeoutMs`.
 */
export async function spawnUntilReady<T>(
  script: string,
  target: string,
  marker: string,
  timeoutMs: number,
  what: string,
): Promise<{ child: ChildProcess; info: T; stderr: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, target], {
    cwd: ROOT,
    // NODE_ENV=production also selects React's production server renderer.
    env: { ...process.env, NODE_ENV: 'production', BENCH_COOKIE_SECRET: randomSecret() },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let errText = '';
  child.stderr!.on('data', (d: Buffer) => {
    errText = (errText + d.toString()).slice(-8000);
  });
  const info = await new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start within ${timeoutMs / 1000} s.\n${errText}`)), timeoutMs);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith(`${marker} `)) return;
      clearTimeout(timer);
      resolve(JSON.parse(line.slice(marker.length + 1)) as T);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited before it was ready (code ${code}, signal ${signal}).\n${errText}`));
    });
  });
  return { child, info, stderr: () => errText };
}

export function startServer(target: string): Promise<{ child: ChildProcess; info: ServerInfo; stderr: () => string }> {
  return spawnUntilReady<ServerInfo>(SCRIPT, target, 'BENCH_READY', SERVER_START_TIMEOUT_MS, 'The server');
}

export function stopServer(child: ChildProcess): Promise<void> {
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


/**
 * A bench child's database: a fresh PGlite directory named after `prefix` (removed when the process
 * exits) when `target` is `pglite`, else the PostgreSQL database at `target`; migrated to the latest.
 */
export async function childDatabase(target: string, prefix: string): Promise<{ db: Db; pgliteDir: string | undefined; removeDir: () => void }> {
  // Imported here so the parent does not load the application.
  const { createDatabase, migrateToLatest } = await import('#src/db/index.ts');
  const pgliteDir = target === 'pglite' ? mkdtempSync(path.join(os.tmpdir(), prefix)) : undefined;
  const removeDir = () => {
    if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
  };
  process.once('exit', removeDir);
  const { db } = await createDatabase(pgliteDir ? { kind: 'pglite', dataDir: pgliteDir } : { kind: 'postgres', url: target, poolSize: 10 });
  await migrateToLatest(db);
  return { db, pgliteDir, removeDir };
}

/** A bench community called `${appName} Council` (app and familiar name `appName`), with `extra` columns; its id. */
export async function insertBenchCommunity(db: Db, code: string, appName: string, extra: { forum_enabled?: boolean } = {}): Promise<number> {
  const c = await db
    .insertInto('communities')
    .values({
      code,
      name: `${appName} Council`,
      app_name: appName,
      familiar_name: appName,
      concierge_email: `concierge@${code}.example.com`,
      concierge_phone: '+1 (555) 010-0000',
      copyright_holder: 'Bench Inc',
      nav_more: JSON.stringify([]),
      ...extra,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return c.id;
}

type App = Awaited<ReturnType<typeof BuildApp>>;

/**
 * A bench child's two apps, built by `build` and listening on free ports: the probe, built with
 * BENCH_QUERY_COUNT=1 (buildApp then counts SQL statements in Server-Timing), and the load app, a plain
 * production app (built with `ownsDb` when it is to destroy the database on close).
 */
export async function listenProbeAndLoad(
  build: (options: { ownsDb?: boolean }) => Promise<App>,
  ownsDb: boolean,
): Promise<{ probe: App; load: App; probePort: number; loadPort: number }> {
  process.env.BENCH_QUERY_COUNT = '1';
  const probe = await build({});
  delete process.env.BENCH_QUERY_COUNT;
  const load = await build({ ownsDb });
  await probe.listen({ host: HOST, port: 0 });
  await load.listen({ host: HOST, port: 0 });
  const port = (app: App) => (app.server.address() as { port: number }).port;
  return { probe, load, probePort: port(probe), loadPort: port(load) };
}

/**
 * A bench child's entry: when `script` is the file node was started with, serves the database named
 * by its argument (`pglite` or a postgres:// address); a failure ends the process with status 1.
 */
export function serveIfStarted(script: string, serve: (target: string) => Promise<void>): void {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== script) return;
  const target = process.argv[2];
  if (!target) {
    console.error(`usage: node --import tsx ${path.relative(ROOT, script)} <pglite|postgres://…>`);
    process.exit(2);
  }
  serve(target).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

serveIfStarted(SCRIPT, serve);

/** One size's servers in a bench child: its community's code, the probe's and load app's ports, and a member's cookie. */
export type SizeServers = { size: number; code: string; probePort: number; loadPort: number; cookie: string };

/**
 * A bench child's servers, one probe and load pair (listenProbeAndLoad) per size, each on the community
 * `codeOf(size)` with a session of `emailOf(code)` made on the load app; the last pair owns the
 * database. They close, and `removeDir` runs, when the parent goes (exitWithParent). `jobWorkers`
 * is passed to buildApp when given (its default otherwise).
 */
export async function serveSizes(
  db: Db,
  options: { env: Record<string, string>; sizes: readonly number[]; codeOf: (size: number) => string; emailOf: (code: string) => string; jobWorkers?: boolean; removeDir: () => void },
): Promise<SizeServers[]> {
  // Imported here so the bench process does not load the application.
  const [{ buildApp }, { loadConfig }, { AUTH_COOKIE }, { sessionTokenFor }] = await Promise.all([
    import('#src/app.ts'),
    import('#src/config.ts'),
    import('#src/features/auth/sessions.ts'),
    import('./sessions.ts'),
  ]);
  const { env, sizes, codeOf, emailOf, jobWorkers, removeDir } = options;
  const apps: App[] = [];
  const servers: SizeServers[] = [];
  for (const size of sizes) {
    const code = codeOf(size);
    const config = loadConfig({ ...env, DEFAULT_COMMUNITY: code });
    const { probe, load, probePort, loadPort } = await listenProbeAndLoad(
      (o) => buildApp({ config, db, ...(jobWorkers === undefined ? {} : { jobWorkers }), ...o }),
      size === sizes.at(-1),
    );
    apps.push(probe, load);
    const community = await db.selectFrom('communities').selectAll().where('code', '=', code).executeTakeFirstOrThrow();
    const token = await sessionTokenFor(load, community, emailOf(code));
    servers.push({ size, code, probePort, loadPort, cookie: `${AUTH_COOKIE}=${token}` });
  }
  exitWithParent(async () => {
    for (const app of apps) await app.close();
  }, removeDir);
  return servers;
}
