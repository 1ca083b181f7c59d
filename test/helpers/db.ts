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

/** A fresh, migrated database for one test file, and how to throw it away. */
export async function freshDatabase(): Promise<{ db: Db; drop: () => Promise<void>; url?: string }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const target = new URL(url);
    target.pathname = `/${name}`;
    const { db } = await createDatabase({ kind: 'postgres', url: target.toString(), poolSize: 5 });
    await migrateToLatest(db);
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
