import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createDatabase, migrateToLatest, MIGRATIONS_DIR, type Db } from '#src/db/index.ts';

const CACHE_DIR = path.resolve(import.meta.dirname, '../../.cache');

/** Which database the suite runs on: PostgreSQL when DATABASE_URL is set, else PGlite. */
export const usingPostgres = () => Boolean(process.env.DATABASE_URL);

function migrationsHash(): string {
  const h = createHash('sha256');
  for (const f of readdirSync(MIGRATIONS_DIR).sort()) h.update(f).update(readFileSync(path.join(MIGRATIONS_DIR, f)));
  return h.digest('hex').slice(0, 16);
}

/**
 * A migrated PGlite snapshot, made once per set of migrations and shared by every test file (a new
 * PGlite plus migrations costs seconds; loading the snapshot about one).
 */
async function pgliteSnapshot(): Promise<Blob> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const file = path.join(CACHE_DIR, `pglite-${migrationsHash()}.tar.gz`);
  const lock = `${file}.lock`;
  for (let i = 0; !existsSync(file); i++) {
    try {
      mkdirSync(lock);
    } catch {
      if (i > 600) throw new Error(`Timed out waiting for ${lock}`);
      await sleep(200);
      continue;
    }
    try {
      const { db, pglite } = await createDatabase({ kind: 'pglite' });
      await migrateToLatest(db);
      const dump = await pglite!.dumpDataDir('gzip');
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
      renameSync(tmp, file);
      await db.destroy();
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
 * A migrated PostgreSQL template database, made once per set of migrations (under an advisory lock,
 * so that parallel test files make it once) and copied by `create database ... template` for each
 * test file: a copy costs a fraction of running every migration.
 */
async function postgresTemplate(admin: pg.Client, url: string): Promise<string> {
  const name = `test_template_${migrationsHash()}`;
  await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) {
      const building = `${name}_${process.pid}`;
      await admin.query(`drop database if exists ${building} with (force)`);
      await admin.query(`create database ${building}`);
      const target = new URL(url);
      target.pathname = `/${building}`;
      const { db } = await createDatabase({ kind: 'postgres', url: target.toString(), poolSize: 1 });
      await migrateToLatest(db);
      await db.destroy();
      // Renamed once complete: a template that exists is a migrated one.
      await whenUnused(admin, `alter database ${building} rename to ${name}`);
    }
  } finally {
    await admin.query('select pg_advisory_unlock(hashtext($1))', [name]);
  }
  return name;
}

/** A fresh, migrated database for one test file, and how to throw it away. */
export async function freshDatabase(): Promise<{ db: Db; drop: () => Promise<void>; url?: string }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const template = await postgresTemplate(admin, url);
      await whenUnused(admin, `create database ${name} template ${template}`);
    } finally {
      await admin.end();
    }
    const target = new URL(url);
    target.pathname = `/${name}`;
    const { db } = await createDatabase({ kind: 'postgres', url: target.toString(), poolSize: 5 });
    return {
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
  }
  const { db } = await createDatabase({ kind: 'pglite', loadDataDir: await pgliteSnapshot() });
  return { db, drop: () => db.destroy() };
}
