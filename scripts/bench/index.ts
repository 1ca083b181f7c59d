// `npm run bench`: runs every bench module and prints one report; `npm run bench -- pages autosave`
// runs only the modules named; `--backend=pglite` (or `postgres`) only that database. It measures
// and prints; it asserts nothing (budgets are printed as pass/over). Everything runs on 127.0.0.1 and
// every load loop is bounded in time. See docs/bench.md.
//
// A module (lib.ts `BenchModule`) is one file: a name, a scope ('process': once, in this process, or
// with servers of its own; 'server': once per database against the server scripts/bench/server.ts
// started for it) and run(ctx) returning its tables, warnings and data. To add an area: write the
// module and add one line to MODULES below.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { adsModule } from './ads.ts';
import { autosaveModule } from './articles.ts';
import { bearerModule } from './bearer.ts';
import { signInModule } from './auth.ts';
import { floodModule } from './flood.ts';
import { forumModule } from './forum.ts';
import { offersModule } from './offers.ts';
import { messagesModule } from './messages.ts';
import { groupsModule } from './groups.ts';
import { feedsModule } from './feeds.ts';
import { contentBankModule } from './content-bank.ts';
import { syndicationModule } from './syndication.ts';
import { insightsModule } from './insights.ts';
import { expertPanelsModule } from './expert-panels.ts';
import { copyScanModule } from './copy-scan.ts';
import { dayModule } from './day.ts';
import { jobsModule } from './jobs.ts';
import { lookModule } from './look.ts';
import { membersModule } from './members.ts';
import { notificationsModule } from './notifications.ts';
import { onboardingModule } from './onboarding.ts';
import { paymentsModule } from './payments.ts';
import { nodesModule } from './nodes.ts';
import { BUDGETS, LOAD, AUTOSAVE, POSTGRES_ADMIN_URL, RESULTS_DIR, ROOT, availableCores, errorMessage, table, type BenchContext, type BenchModule, type Section } from './lib.ts';
import { pagesModule } from './pages.ts';
import { passwordsModule } from './passwords.ts';
import { children, startServer, stopServer } from './server.ts';
import { throughputModule } from './throughput.ts';

/**
 * Every module, in the order it runs (per database, in this order too). Per database, the autosave
 * load comes last so that its writes cannot touch the figures before it.
 * The 'process' modules run first, before any bench server (nodes starts server processes of its own).
 */
const MODULES: BenchModule[] = [
  passwordsModule,
  copyScanModule,
  adsModule,
  nodesModule,
  paymentsModule,
  onboardingModule,
  // Before the pages module: it weighs the seed's pages as the pictures show them (pages saves a draft).
  lookModule,
  pagesModule,
  throughputModule,
  membersModule,
  notificationsModule,
  forumModule,
  expertPanelsModule,
  offersModule,
  messagesModule,
  groupsModule,
  feedsModule,
  contentBankModule,
  syndicationModule,
  insightsModule,
  dayModule,
  bearerModule,
  signInModule,
  floodModule,
  jobsModule,
  autosaveModule,
];

/** Whole-run watchdog: the bench is meant to take a few minutes on 2 cores. */
const WATCHDOG_MS = 15 * 60_000;

type ModuleRun = { name: string; sections?: Section[]; warnings: string[]; data?: unknown; error?: string; seconds: number };
type BackendRun = { backend: 'pglite' | 'postgres'; label: string; skipped?: string; error?: string; database?: string; serverStartupMs?: number; modules: ModuleRun[] };
type RunResult = {
  date: string;
  machine: { cpus: number; cpuModel: string; node: string; platform: string; totalMemoryGiB: number; loadAverageAtStart: number[] };
  git: { commit: string; dirtyFiles: number } | null;
  settings: { load: typeof LOAD; budgets: typeof BUDGETS; autosave: typeof AUTOSAVE; modules: string[] };
  modules: ModuleRun[];
  backends: BackendRun[];
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

async function runModule(module: BenchModule, ctx: BenchContext): Promise<ModuleRun> {
  const t = performance.now();
  const where = ctx.server ? `[${ctx.server.label}] ` : '';
  ctx.log(`${where}${module.describe}…`);
  try {
    const out = await module.run(ctx);
    return { name: module.name, ...out, seconds: Math.round((performance.now() - t) / 100) / 10 };
  } catch (e) {
    ctx.log(`${where}${module.name}: failed: ${errorMessage(e)}`);
    return { name: module.name, warnings: [], error: errorMessage(e), seconds: Math.round((performance.now() - t) / 100) / 10 };
  }
}

async function runBackend(backend: 'pglite' | 'postgres', label: string, target: string, first: boolean, modules: BenchModule[], log: (s: string) => void): Promise<BackendRun> {
  log(`[${label}] starting the server (migrate, seed, production-mode apps)…`);
  const { child, info } = await startServer(target);
  const run: BackendRun = { backend, label, serverStartupMs: info.startupMs, modules: [] };
  try {
    log(`[${label}] ready in ${(info.startupMs / 1000).toFixed(1)} s`);
    const ctx: BenchContext = { log, server: { backend, label, info, first, shared: new Map() } };
    for (const m of modules) run.modules.push(await runModule(m, ctx));
    return run;
  } finally {
    await stopServer(child);
  }
}

async function withPostgres(first: boolean, modules: BenchModule[], log: (s: string) => void): Promise<BackendRun> {
  const label = 'PostgreSQL';
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (e) {
    await admin.end().catch(() => {});
    return { backend: 'postgres', label, skipped: `no PostgreSQL answered at ${POSTGRES_ADMIN_URL} (${errorMessage(e) || (e as Error).name})`, modules: [] };
  }
  const name = `bench_${randomBytes(5).toString('hex')}`;
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    const version = (await admin.query<{ server_version: string }>('show server_version')).rows[0]?.server_version.split(' ')[0];
    await admin.query(`create database ${name}`);
    const result = await runBackend('postgres', `PostgreSQL ${version ?? ''}`.trim(), url.toString(), first, modules, log);
    return { ...result, database: name };
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch((e: Error) => log(`[${label}] could not drop ${name}: ${e.message}`));
    await admin.end().catch(() => {});
  }
}

// ---- the report ----------------------------------------------------------------------------------

function printSection(out: string[], s: Section) {
  out.push(s.title);
  out.push(table(s.head, s.rows, s.right));
  for (const n of s.notes ?? []) out.push(n);
  out.push('');
}

function report(run: RunResult, modules: BenchModule[]): string {
  const out: string[] = [];
  out.push(`Bench ${run.date}  ·  ${run.machine.cpus} × ${run.machine.cpuModel}  ·  Node ${run.machine.node}  ·  ${run.machine.platform}`);
  const git = run.git ? `commit ${run.git.commit}${run.git.dirtyFiles ? ` + ${run.git.dirtyFiles} changed/untracked files` : ''}` : 'not a git checkout';
  out.push(`${git}  ·  load average at start ${run.machine.loadAverageAtStart.join(' / ')} (other processes skew the throughput figures)`);
  out.push('');
  for (const m of modules) {
    if (m.scope === 'process') {
      const r = run.modules.find((x) => x.name === m.name);
      if (!r) continue;
      if (r.error) out.push(`${m.name}: FAILED: ${r.error}`, '');
      for (const s of r.sections ?? []) printSection(out, s);
      for (const w of r.warnings) out.push(`WARNING ${m.name}: ${w}`);
      continue;
    }
    // A per-database module: its tables merged across the databases, by key, a `database` column first.
    const merged = new Map<string, Section>();
    for (const b of run.backends) {
      const r = b.modules.find((x) => x.name === m.name);
      for (const s of r?.sections ?? []) {
        const into = merged.get(s.key);
        const rows = s.rows.map((row) => [b.label, ...row]);
        // A note said alike for every database is printed once; one that differs, with its database's name.
        const same = (n: string) => run.backends.every((o) => o.modules.find((x) => x.name === m.name)?.sections?.find((x) => x.key === s.key)?.notes?.includes(n));
        const notes = (s.notes ?? []).map((n) => (same(n) || n.startsWith('  ') ? n : `${b.label}: ${n}`));
        if (!into) merged.set(s.key, { ...s, head: ['database', ...s.head], right: [false, ...(s.right ?? [])], rows, notes });
        else {
          into.rows.push(...rows);
          into.notes!.push(...notes.filter((n) => !into.notes!.includes(n)));
        }
      }
    }
    for (const s of merged.values()) printSection(out, s);
    for (const b of run.backends) {
      const r = b.modules.find((x) => x.name === m.name);
      if (r?.error) out.push(`${b.label}, ${m.name}: FAILED: ${r.error.split('\n')[0]}`);
      for (const w of r?.warnings ?? []) out.push(`WARNING ${b.label}, ${m.name}: ${w}`);
    }
    if (merged.size) out.push('');
  }
  for (const b of run.backends) {
    if (b.skipped) out.push(`${b.label} half SKIPPED: ${b.skipped}.`);
    if (b.error) out.push(`${b.label} half FAILED: ${b.error.split('\n')[0]}`);
    if (b.serverStartupMs !== undefined) out.push(`${b.label}: server started (migrations + demo seed + two apps) in ${(b.serverStartupMs / 1000).toFixed(1)} s.`);
  }
  out.push('');
  out.push(`Total ${run.totalSeconds.toFixed(0)} s. JSON: ${path.relative(process.cwd(), path.join(RESULTS_DIR, 'latest.json')) || 'bench-results/latest.json'}`);
  return out.join('\n');
}

// ---- main ----------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const names = args.filter((a) => !a.startsWith('--'));
  const backendArg = args.find((a) => a.startsWith('--backend='))?.slice('--backend='.length);
  const unknown = names.filter((n) => !MODULES.some((m) => m.name === n));
  if (unknown.length) {
    console.error(`unknown module(s): ${unknown.join(', ')}; the modules: ${MODULES.map((m) => m.name).join(', ')}`);
    process.exit(2);
  }
  const modules = names.length ? MODULES.filter((m) => names.includes(m.name)) : MODULES;

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
    settings: { load: LOAD, budgets: BUDGETS, autosave: AUTOSAVE, modules: modules.map((m) => m.name) },
    modules: [],
    backends: [],
    totalSeconds: 0,
  };

  for (const m of modules.filter((m) => m.scope === 'process')) run.modules.push(await runModule(m, { log }));
  const perServer = modules.filter((m) => m.scope === 'server');
  if (perServer.length) {
    const attempt = async (backend: 'pglite' | 'postgres', fn: () => Promise<BackendRun>) => {
      try {
        run.backends.push(await fn());
      } catch (e) {
        log(`[${backend}] failed: ${errorMessage(e)}`);
        run.backends.push({ backend, label: backend === 'pglite' ? 'PGlite' : 'PostgreSQL', error: errorMessage(e), modules: [] });
      }
    };
    if (!backendArg || backendArg === 'pglite') await attempt('pglite', () => runBackend('pglite', 'PGlite', 'pglite', true, perServer, log));
    if (!backendArg || backendArg === 'postgres') await attempt('postgres', () => withPostgres(run.backends.length === 0, perServer, log));
  }

  run.totalSeconds = Math.round((performance.now() - t0) / 100) / 10;
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(path.join(RESULTS_DIR, 'latest.json'), JSON.stringify(run, null, 2) + '\n');
  console.log('');
  console.log(report(run, modules));
  clearTimeout(watchdog);
}

await main();
