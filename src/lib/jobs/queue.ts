import PgBoss from 'pg-boss';
import { CompiledQuery, type Kysely } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { pgliteOf, type Db } from '#src/db/index.ts';
import type { Sealer } from './sealed.ts';

/** Anything that runs SQL: the app's database or an open transaction (to enqueue with its writes). */
export type Executor = Pick<Kysely<any>, 'executeQuery'>;

export type RetryPolicy = { limit: number; delaySeconds: number; backoff: boolean };

/**
 * One kind of job. Areas list theirs (src/features/areas.ts); the queue creates each queue at start,
 * runs its handler in a worker with retries, and, for a schedule, sends it once per period across
 * every process (pg-boss's cron keeps one timekeeper at a time through the database).
 */
export type JobDefinition<T = any> = {
  name: string;
  handler: (data: T) => Promise<void>;
  /** A cron expression (minute resolution): the job is sent on that schedule, once across all processes. */
  schedule?: string;
  retry?: RetryPolicy;
  /** Give a running job up (and retry it) after this long. */
  expireInSeconds?: number;
  /**
   * Jobs a worker fetches at once and runs concurrently, each completed or failed (into its retry
   * policy) on its own: one that fails does not send the others again. Default 1.
   */
  batchSize?: number;
  /**
   * How often an idle worker looks for due jobs (default: the queue's, 2 s; pg-boss's least is 0.5 s).
   * A worker that finds a full batch fetches again at once, whatever the interval.
   */
  pollingIntervalSeconds?: number;
};

export type JobQueueOptions = {
  /** Run workers and schedules in this process (a web-only process enqueues but never works). */
  workers: boolean;
  pollingIntervalSeconds?: number;
  onError: (err: unknown, context: string) => void;
  /** Seals every job's data (AES-GCM): the queue's tables hold no address, code or link in clear. */
  sealer?: Sealer;
};

const SCHEMA = 'pgboss';
const DEFAULT_RETRY: RetryPolicy = { limit: 5, delaySeconds: 5, backoff: true };

/** Any constant key of our own for pg_advisory_lock: held while a process sets the queue up. */
const SETUP_LOCK_KEY = 7_411_020_251;

/** pg-boss's way to run SQL, over the app's own connection(s): the embedded default needs no server. */
function sqlRunner(db: Executor, appDb?: Db) {
  const pglite = appDb ? pgliteOf(appDb) : undefined;
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (appDb && (!values || values.length === 0)) {
        // pg-boss sends some multi-statement scripts (its schema, maintenance) without parameters.
        // PGlite runs those only through exec (the simple protocol), holding Kysely's one connection.
        if (pglite) {
          return appDb.connection().execute(async () => {
            try {
              const results = await pglite.exec(text);
              return { rows: results.at(-1)?.rows ?? [] };
            } catch (err) {
              // A script that opened a transaction and failed half-way must not leave the one
              // connection of the whole app inside an aborted transaction.
              await pglite.exec('rollback').catch(() => undefined);
              throw err;
            }
          });
        }
        // On PostgreSQL, a script that opens a transaction (BEGIN; …; COMMIT) and fails half-way
        // would go back to the pool inside an aborted transaction, failing every later query on
        // that connection: roll it back first.
        return appDb.connection().execute(async (conn) => {
          try {
            const result = await conn.executeQuery(CompiledQuery.raw(text, []));
            return { rows: result.rows, rowCount: Number(result.numAffectedRows ?? result.rows.length) };
          } catch (err) {
            await conn.executeQuery(CompiledQuery.raw('rollback', [])).catch(() => undefined);
            throw err;
          }
        });
      }
      const result = await db.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: result.rows, rowCount: Number(result.numAffectedRows ?? result.rows.length) };
    },
  };
}

/**
 * The one durable job queue (pg-boss on the app's database, PostgreSQL or PGlite). Work that must
 * survive a crash (mail, SMS, scheduled publishing) is enqueued in the transaction that causes it
 * and run by workers with retries and backoff.
 */
export class JobQueue {
  private boss: PgBoss;
  private readonly definitions = new Map<string, JobDefinition>();
  private started = false;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private starting: Promise<void> | null = null;
  /** pg-boss's statements in flight and our job batches running: stop() waits for both to end. */
  private readonly inFlight = new Set<Promise<unknown>>();
  private running = 0;

  constructor(
    private readonly db: Db,
    private readonly options: JobQueueOptions,
  ) {
    this.boss = this.createBoss();
  }

  /** The runner, counting its statements in flight (a worker's fetch may still be on its way at stop). */
  private tracked(runner: ReturnType<typeof sqlRunner>): ReturnType<typeof sqlRunner> {
    return {
      executeSql: (text, values) => {
        const p = runner.executeSql(text, values);
        this.inFlight.add(p);
        void p.finally(() => this.inFlight.delete(p)).catch(() => undefined);
        return p;
      },
    };
  }

  private createBoss(): PgBoss {
    const boss = new PgBoss({
      db: this.tracked(sqlRunner(this.db, this.db)),
      schema: SCHEMA,
      // Maintenance (expiry, archiving) and the cron clock run only where workers do.
      supervise: this.options.workers,
      schedule: this.options.workers,
      cronMonitorIntervalSeconds: 10,
      maintenanceIntervalSeconds: 60,
      // Finished jobs move to the archive after an hour and leave it after a day.
      archiveCompletedAfterSeconds: 60 * 60,
      deleteAfterHours: 24,
    } as ConstructorParameters<typeof PgBoss>[0]);
    boss.on('error', (err) => this.options.onError(err, 'job queue'));
    return boss;
  }

  define(...definitions: JobDefinition[]): void {
    if (this.started) throw new Error('Define jobs before the queue starts');
    for (const d of definitions) {
      if (this.definitions.has(d.name)) throw new Error(`Job ${d.name} is defined twice`);
      this.definitions.set(d.name, d);
    }
  }

  names(): string[] {
    return [...this.definitions.keys()];
  }

  /**
   * Starts the queue. A database that does not answer yet (it restarts, the process came up first)
   * does not stop the app: the queue tries again every few seconds until it starts.
   */
  async start(): Promise<void> {
    if (this.started || this.closed) return;
    this.starting = this.startOnce();
    try {
      await this.starting;
    } catch (err) {
      if (this.closed) return;
      this.options.onError(err, 'job queue start (trying again in 5 s)');
      // A pg-boss whose start failed never starts again: stop whatever it began, and make another.
      await this.boss.stop({ graceful: false, close: false, wait: false } as PgBoss.StopOptions).catch(() => undefined);
      this.boss = this.createBoss();
      this.retry = setTimeout(() => void this.start(), 5000);
      this.retry.unref();
    }
  }

  private async startOnce(): Promise<void> {
    await this.exclusively(() => this.setUp());
    if (this.closed) return; // the app closed while the queue was being set up
    if (this.options.workers) {
      // A process that starts runs each scheduled job once at once: what fell due while no process
      // was up (a deploy, an outage) does not wait for the next period. The jobs are idempotent.
      for (const d of this.definitions.values()) if (d.schedule) await this.boss.send(d.name, {}, { singletonKey: `start:${d.name}`, singletonSeconds: 30 });
      for (const d of this.definitions.values()) {
        const batchSize = d.batchSize ?? 1;
        let workerId: string | undefined;
        workerId = await this.boss.work(d.name, { pollingIntervalSeconds: d.pollingIntervalSeconds ?? this.options.pollingIntervalSeconds ?? 2, batchSize }, async (jobs) => {
          this.running += 1;
          try {
            // A full batch: more may be waiting. pg-boss's worker would sleep out the rest of its polling
            // interval even so (one job per 2 s at batch size 1); woken, it fetches again at once.
            if (jobs.length >= batchSize && workerId) this.boss.notifyWorker(workerId);
            // Each job completes or fails on its own (pg-boss then completes those still active: none).
            const settled = await Promise.allSettled(jobs.map((job) => this.runOne(d, job.id, job.data)));
            for (const s of settled) if (s.status === 'rejected') this.options.onError(s.reason, `job ${d.name}: completing it`);
          } finally {
            this.running -= 1;
          }
        });
      }
    }
    this.started = true;
  }

  /**
   * Runs `fn` holding a PostgreSQL advisory lock, so that processes starting at once set pg-boss up
   * one after the other. At once, on a fresh database, they collided: each found no schema and all
   * but one failed to install it; and pg-boss's create_queue adds a foreign key to its queue table in
   * each call, so two processes creating different queues deadlocked (40P01). PGlite is one process:
   * no lock. The lock holds one connection of the pool while pg-boss uses the others.
   */
  private async exclusively(fn: () => Promise<void>): Promise<void> {
    if (pgliteOf(this.db)) return fn();
    await this.db.connection().execute(async (conn) => {
      // A process stuck holding the lock must not keep every other from starting: give up after
      // a while and try again later (start's retry).
      await conn.executeQuery(CompiledQuery.raw("set lock_timeout = '20s'", []));
      await conn.executeQuery(CompiledQuery.raw('select pg_advisory_lock($1)', [SETUP_LOCK_KEY]));
      await conn.executeQuery(CompiledQuery.raw('reset lock_timeout', []));
      try {
        await fn();
      } finally {
        await conn.executeQuery(CompiledQuery.raw('select pg_advisory_unlock($1)', [SETUP_LOCK_KEY]));
      }
    });
  }

  /** pg-boss's schema, then each queue (created or brought up to date) and each schedule. */
  private async setUp(): Promise<void> {
    await this.boss.start();
    for (const d of this.definitions.values()) {
      const retry = d.retry ?? DEFAULT_RETRY;
      const queue = {
        name: d.name,
        retryLimit: retry.limit,
        retryDelay: retry.delaySeconds,
        retryBackoff: retry.backoff,
        expireInSeconds: d.expireInSeconds ?? 15 * 60,
        // A job still waiting after a day is given up (a sign-in code expired long before).
        retentionMinutes: 24 * 60,
      };
      if (await this.boss.getQueue(d.name)) await this.boss.updateQueue(d.name, queue);
      else await this.boss.createQueue(d.name, queue);
      if (d.schedule && this.options.workers) await this.boss.schedule(d.name, d.schedule, {}, { tz: 'UTC', singletonKey: d.name });
    }
  }

  /** Runs one job and completes it, or fails it into its retry policy if the handler throws. */
  private async runOne(definition: JobDefinition, id: string, data: unknown): Promise<boolean> {
    try {
      await definition.handler(this.open(data));
    } catch (err) {
      await this.boss.fail(definition.name, id, { message: err instanceof Error ? err.message : String(err) });
      this.options.onError(err, `job ${definition.name}`);
      return false;
    }
    await this.boss.complete(definition.name, id);
    return true;
  }

  /**
   * Enqueues a job with the writes of `executor` (a transaction: the job exists exactly when they
   * commit). `startAfter` delays it; `singletonKey` keeps one queued job per key.
   */
  async enqueue(executor: Executor, name: string, data: object, options: { startAfter?: Date; singletonKey?: string } = {}): Promise<void> {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`Unknown job ${name}`);
    // Until the queue is set up (its database did not answer at start), work cannot be queued: the
    // request that would cause it is refused as the database outage it is, not half done.
    if (!this.started) throw new AppError('ServiceUnavailable.Database', { cause: new Error('the job queue has not started') });
    const sealed = this.options.sealer ? { sealed: this.options.sealer.seal(data) } : data;
    const id = await this.boss.send(name, sealed, { ...options, db: sqlRunner(executor) } as PgBoss.SendOptions);
    // pg-boss answers null when it inserted nothing: a singleton already queued is fine, anything
    // else (the queue's row missing) would lose the job silently.
    if (id === null && !options.singletonKey) throw new Error(`Job ${name} was not queued`);
  }

  /** A job's data as its handler expects it: opened if it was sealed (scheduled runs carry `{}`). */
  private open(data: unknown): unknown {
    const sealed = (data as { sealed?: unknown } | null)?.sealed;
    return this.options.sealer && typeof sealed === 'string' ? this.options.sealer.open(sealed) : data;
  }


  /**
   * Runs every job that is due now in this process, until none is left (tests, and a shutdown that
   * wants the outbox empty). A failing job is failed into its retry policy, as in a worker.
   */
  async drain(names = this.names()): Promise<number> {
    let ran = 0;
    for (let progress = true; progress; ) {
      progress = false;
      for (const name of names) {
        const definition = this.definitions.get(name)!;
        const fetched = (await this.boss.fetch(name, { batchSize: 20, includeMetadata: true })) ?? [];
        // The rows come back in no particular order: run them oldest first, as workers do.
        const jobs = [...fetched].sort((a, b) => new Date(a.createdOn).getTime() - new Date(b.createdOn).getTime());
        for (const job of jobs) {
          progress = true;
          ran += 1;
          await this.runOne(definition, job.id, job.data);
        }
      }
    }
    return ran;
  }

  /** Jobs of a queue by state (tests, the bench). */
  async counts(name: string): Promise<{ queued: number; active: number; completed: number; failed: number; retry: number }> {
    const rows = await this.db
      .executeQuery<{ state: string; n: number }>(
        CompiledQuery.raw(`select state::text as state, count(*)::int as n from ${SCHEMA}.job where name = $1 group by state`, [name]),
      )
      .then((r) => r.rows);
    const by = (state: string) => rows.find((r) => r.state === state)?.n ?? 0;
    return { queued: by('created'), active: by('active'), completed: by('completed'), failed: by('failed'), retry: by('retry') };
  }

  /** Stops polling and waits for running jobs (up to the timeout) before the database closes. */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    // A start under way finishes (or fails) first: it must not set workers going on a closed database.
    await this.starting?.catch(() => undefined);
    if (!this.started) {
      await this.boss.stop({ graceful: false, close: false, wait: false } as PgBoss.StopOptions).catch(() => undefined);
      return;
    }
    this.started = false;
    const deadline = Date.now() + timeoutMs;
    await this.boss.stop({ graceful: true, wait: true, timeout: timeoutMs, close: false } as PgBoss.StopOptions);
    // pg-boss resolves once no job is marked active, but a worker's fetch may still be on its way
    // and hand its jobs over after that: the database must outlive them.
    for (let quiet = 0; quiet < 3 && Date.now() < deadline; ) {
      quiet = this.inFlight.size === 0 && this.running === 0 ? quiet + 1 : 0;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
