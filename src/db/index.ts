import { AsyncLocalStorage } from 'node:async_hooks';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileMigrationProvider, Kysely, Migrator, PostgresDialect, type Dialect, type LogEvent } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { prepareStatements } from './prepared.ts';
import type { Database } from './types.ts';
import type { RawDb, TenantSafeDb } from './tenancy.ts';

/** The database as the application sees it: a community's tables only through src/db/tenancy.ts. */
export type Db = TenantSafeDb;
export type { RawDb, RawTransaction } from './tenancy.ts';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

/** Counts SQL statements per request (read by the bench and the Server-Timing header outside production). */
export const queryCounter = new AsyncLocalStorage<{ queries: number }>();

function countQuery(event: LogEvent) {
  const store = queryCounter.getStore();
  if (store && event.level === 'query') store.queries += 1;
  if (event.level === 'error') {
    // Errors are raised to the caller; nothing to log here.
  }
}

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number }
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob };

// pg returns bigint (count(*)) as text; make it a number, and keep timestamps as Date.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
// A calendar date stays the string '2024-12-23': no time zone may shift it.
pg.types.setTypeParser(1082, (v) => v);

const pglites = new WeakMap<object, PGlite>();

/** The embedded PGlite under a database made by createDatabase, if it is one (the job queue needs it). */
export function pgliteOf(db: object): PGlite | undefined {
  return pglites.get(db);
}

export async function createDatabase(options: DatabaseOptions): Promise<{ db: RawDb; pglite?: PGlite }> {
  let dialect: Dialect;
  let pglite: PGlite | undefined;
  if (options.kind === 'postgres') {
    // A server out of reach (no refusal, no answer) fails a request after 5 s instead of holding it.
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10, connectionTimeoutMillis: 5000 });
    // A connection the server closes (restart, failover, pg_terminate_backend) must not crash the
    // process. The pool's 'error' event covers idle connections only; a checked-out client (in a
    // transaction, between two queries) emits 'error' on itself, and with no listener that is an
    // uncaught exception. So every client the pool makes gets a listener of its own: the query in
    // flight, if any, fails with the error (a 503 for the request), and on release the pool drops the
    // broken client and opens another on the next query.
    const lost = (err: Error) => console.warn(`PostgreSQL connection lost: ${err.message}`);
    pool.on('error', lost);
    pool.on('connect', (client) => client.on('error', lost));
    prepareStatements(pool);
    dialect = new PostgresDialect({ pool });
  } else {
    if (options.dataDir) await fs.mkdir(options.dataDir, { recursive: true });
    pglite = await PGlite.create({
      dataDir: options.dataDir,
      loadDataDir: options.loadDataDir,
      // The directory's typo-tolerant search (migration 0006).
      extensions: { pg_trgm },
      parsers: { 20: (v: string) => Number.parseInt(v, 10), 1082: (v: string) => v },
    });
    dialect = new PGliteDialect(pglite);
  }
  const db = new Kysely<Database>({ dialect, log: countQuery }) as unknown as RawDb;
  if (pglite) pglites.set(db, pglite);
  return { db, pglite };
}

export async function migrateToLatest(db: RawDb | Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({
    db: db as Kysely<any>,
    provider: new FileMigrationProvider({ fs, path, migrationFolder: MIGRATIONS_DIR }),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The database the configuration names: PostgreSQL at DATABASE_URL, else PGlite under DATA_DIR. */
export async function openDatabase(config: { databaseUrl: string | undefined; dataDir: string }) {
  return createDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: path.resolve(config.dataDir, 'pglite') },
  );
}
