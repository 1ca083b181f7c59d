import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { createDatabase, migrateToLatest, MIGRATIONS_DIR, type RawDb as Db } from '#src/db/index.ts';

const CACHE_DIR = path.resolve(import.meta.dirname, '../../.cache');

/** Which database the suite runs on: PostgreSQL when DATABASE_URL is set, else PGlite. */
export const usingPostgres = () => Boolean(process.env.DATABASE_URL);

const SRC_DIR = path.resolve(import.meta.dirname, '../../src');

/** A hash of the files' names and contents under `dir` (recursively), added to `h`. */
function hashTree(h: ReturnType<typeof createHash>, dir: string) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) hashTree(h, full);
    else h.update(full).update(readFileSync(full));
  }
}

/**
 * What a test database starts from:
 * - `migrated`: every migration, and the durable queue installed (pg-boss's schema and every queue the
 *   app defines), so that an app starting on it does not install them again;
 * - `seeded`: that, plus the demo seed (the three communities, as `npm start` makes them).
 */
export type Flavour = 'migrated' | 'seeded';

/**
 * The name of a flavour's template: it changes with the migrations (migrated), and with any source
 * file and the day (seeded: the seed is code, and dates in it count from today).
 */
function templateKey(flavour: Flavour): string {
  const h = createHash('sha256');
  for (const f of readdirSync(MIGRATIONS_DIR).sort()) h.update(f).update(readFileSync(path.join(MIGRATIONS_DIR, f)));
  // v2: the queue is installed in the template.
  h.update('v2');
  if (flavour === 'seeded') {
    hashTree(h, SRC_DIR);
    h.update(new Date().toISOString().slice(0, 10));
  }
  return `${flavour === 'seeded' ? 'seeded' : 'migrated'}_${h.digest('hex').slice(0, 16)}`;
}

/**
 * Installs the durable queue (pg-boss's schema and each queue of every area) by starting the app
 * once on the database, without workers. Imported only when a template is built.
 */
async function installQueue(db: Db) {
  const [{ buildApp }, { loadConfig }] = await Promise.all([import('#src/app.ts'), import('#src/config.ts')]);
  const config = loadConfig({ NODE_ENV: 'test', COOKIE_SECRET: 'test-secret-0123456789-0123456789-abcdef', DEFAULT_COMMUNITY: 'alpha' });
  const app = await buildApp({ config, db, jobWorkers: false });
  await app.ready();
  await app.close();
}

/** Brings a database of the flavour before it up to this flavour. */
async function prepare(db: Db, flavour: Flavour) {
  if (flavour === 'migrated') {
    await migrateToLatest(db);
    await installQueue(db);
  } else {
    const { seedDemo } = await import('#src/features/seed.ts');
    if (!(await seedDemo(db, { production: false }))) throw new Error('the demo seed did not run on the migrated template');
  }
}

/**
 * A PGlite snapshot of the flavour, made once per key and shared by every test file (a new PGlite
 * plus migrations costs seconds; loading the snapshot about one). Files made by other keys are
 * removed when a new one is written.
 */
async function pgliteSnapshot(flavour: Flavour): Promise<Blob> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const key = templateKey(flavour);
  const file = path.join(CACHE_DIR, `pglite-${key}.tar.gz`);
  const lock = `${file}.lock`;
  for (let i = 0; !existsSync(file); i++) {
    try {
      mkdirSync(lock);
    } catch {
      if (i > 900) throw new Error(`Timed out waiting for ${lock}`);
      await sleep(200);
      continue;
    }
    try {
      const from = flavour === 'seeded' ? await pgliteSnapshot('migrated') : undefined;
      const { db, pglite } = await createDatabase({ kind: 'pglite', loadDataDir: from });
      await prepare(db, flavour);
      const dump = await pglite!.dumpDataDir('gzip');
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
      renameSync(tmp, file);
      await db.destroy();
      const prefix = `pglite-${key.split('_')[0]}_`;
      for (const old of readdirSync(CACHE_DIR)) if (old.startsWith(prefix) && old.endsWith('.tar.gz') && old !== path.basename(file)) rmSync(path.join(CACHE_DIR, old), { force: true });
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return new Blob([readFileSync(file)]);
}

/** A PostgreSQL error's SQLSTATE, if it has one. */
const sqlState = (e: unknown) => (e as { code?: string } | null)?.code;

/**
 * Runs a statement that PostgreSQL refuses while another session is still connected to a database
 * it names (55006 object_in_use: a pool just closed may take a moment to disconnect), retrying.
 */
async function whenUnused(admin: pg.Client, sql: string) {
  for (let i = 0; ; i++) {
    try {
      await admin.query(sql);
      return;
    } catch (e) {
      if (sqlState(e) !== '55006' || i >= 100) throw e;
      await sleep(50);
    }
  }
}

/**
 * A PostgreSQL template database of the flavour, made once per key (under an advisory lock, so that
 * parallel test files make it once) and copied by `create database ... template` for each test file:
 * a copy costs a fraction of running every migration (or the seed).
 */
async function postgresTemplate(admin: pg.Client, url: string, flavour: Flavour): Promise<string> {
  const name = `test_${templateKey(flavour)}`;
  const from = flavour === 'seeded' ? await postgresTemplate(admin, url, 'migrated') : undefined;
  await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) {
      const building = `${name}_${process.pid}`;
      await admin.query(`drop database if exists ${building} with (force)`);
      await whenUnused(admin, `create database ${building}${from ? ` template ${from}` : ''}`);
      const target = new URL(url);
      target.pathname = `/${building}`;
      const { db } = await createDatabase({ kind: 'postgres', url: target.toString(), poolSize: 2 });
      await prepare(db, flavour);
      await db.destroy();
      // Renamed once complete: a template that exists is a prepared one.
      await whenUnused(admin, `alter database ${building} rename to ${name}`);
    }
  } finally {
    await admin.query('select pg_advisory_unlock(hashtext($1))', [name]);
  }
  return name;
}

export type FreshDatabaseOptions = {
  /** Start from the seeded demo (default: migrated only). */
  seeded?: boolean;
  /** Without the durable queue's schema: a test of how the queue installs itself. */
  queue?: boolean;
};

/** A fresh database for one test file (migrated, or seeded too), and how to throw it away. */
export async function freshDatabase(options: FreshDatabaseOptions = {}): Promise<{ db: Db; drop: () => Promise<void>; url?: string }> {
  const flavour: Flavour = options.seeded ? 'seeded' : 'migrated';
  const url = process.env.DATABASE_URL;
  let fresh: { db: Db; drop: () => Promise<void>; url?: string };
  if (url) {
    const name = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const template = await postgresTemplate(admin, url, flavour);
      await whenUnused(admin, `create database ${name} template ${template}`);
    } finally {
      await admin.end();
    }
    const target = new URL(url);
    target.pathname = `/${name}`;
    const { db } = await createDatabase({ kind: 'postgres', url: target.toString(), poolSize: 5 });
    fresh = {
      db,
      url: target.toString(),
      drop: async () => {
        await db.destroy();
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  } else {
    const { db } = await createDatabase({ kind: 'pglite', loadDataDir: await pgliteSnapshot(flavour) });
    fresh = { db, drop: () => db.destroy() };
  }
  if (options.queue === false) await sql`drop schema if exists pgboss cascade`.execute(fresh.db);
  return fresh;
}
