// Mail through the durable queue (issue 10 section 3) to a local SMTP sink: how many mails per second
// the queue's workers deliver, and the delay from the commit that enqueues a mail to its arrival at the
// SMTP server. The app runs in this process (buildApp, production mode, SMTP_URL pointing to the sink,
// JOB_WORKERS=true) on a database of its own (PGlite in memory, or a fresh PostgreSQL database), so
// the enqueuer, the workers, nodemailer and the sink share one event loop and one clock.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { HOST, POSTGRES_ADMIN_URL, percentile, randomSecret, round1, serverOf, type BenchModule } from './lib.ts';

/** The burst: this many mails, each enqueued in its own transaction by `ENQUEUERS` concurrent loops. */
const BURST = { mails: 500, enqueuers: 10, waitAfterLastCommitSeconds: 30 };
/**
 * The delay: this many single mails, one at a time: the next one after the previous arrived and a
 * random gap, uniform over one polling interval of the mail queue, so that the mails land at every
 * phase of the worker's polling (a fixed gap would measure one phase only).
 */
const SINGLES = { samples: 50, timeoutSeconds: 10 };

/** An SMTP server on 127.0.0.1 that accepts everything (auth optional) and notes each message's subject and arrival. */
async function startSink() {
  const arrivals = new Map<string, number>();
  let count = 0;
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const at = performance.now();
        const raw = Buffer.concat(chunks).toString('utf8');
        const subject = /^Subject: (.*)$/im.exec(raw.split(/\r?\n\r?\n/)[0] ?? '')?.[1]?.trim() ?? '';
        arrivals.set(subject, at);
        count += 1;
        for (const w of waiters) w();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, () => resolve());
  });
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    arrivals,
    count: () => count,
    /** Resolves when `done()` holds, or after `ms` (whichever first): true if it holds. */
    async until(done: () => boolean, ms: number): Promise<boolean> {
      const deadline = performance.now() + ms;
      while (!done()) {
        const left = deadline - performance.now();
        if (left <= 0) return false;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(finish, Math.min(left, 1000));
          function finish() {
            clearTimeout(timer);
            waiters.delete(finish);
            resolve();
          }
          waiters.add(finish);
        });
      }
      return true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type JobsResult = {
  settings: { pollingIntervalSeconds: number | string; batchSize: number | string };
  burst: { mails: number; arrived: number; enqueueSeconds: number; commitsPerSecond: number; deliverSeconds: number; mailsPerSecond: number };
  singles: { samples: number; arrived: number; delayMs: { p50: number; p90: number; p99: number; min: number; max: number } | null };
  warnings: string[];
};

async function openDatabase(backend: 'pglite' | 'postgres') {
  const { createDatabase, migrateToLatest } = await import('#src/db/index.ts');
  if (backend === 'pglite') {
    const { db } = await createDatabase({ kind: 'pglite' });
    await migrateToLatest(db);
    return { db, env: {}, drop: async () => {} };
  }
  const name = `bench_jobs_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const { db } = await createDatabase({ kind: 'postgres', url: url.toString(), poolSize: 10 });
  await migrateToLatest(db);
  return {
    db,
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function measure(backend: 'pglite' | 'postgres'): Promise<JobsResult> {
  const [{ buildApp }, { loadConfig }, { messageJobs, MAIL_JOB }] = await Promise.all([import('#src/app.ts'), import('#src/config.ts'), import('#src/lib/messaging/outgoing.ts')]);
  const warnings: string[] = [];
  const sink = await startSink();
  const database = await openDatabase(backend);
  // The mail queue's worker settings, as its definition states them (the queue's defaults otherwise).
  const definition = messageJobs({ mailer: { send: async () => {} }, sms: { send: async () => {} } }).find((d) => d.name === MAIL_JOB) as {
    pollingIntervalSeconds?: number;
    batchSize?: number;
  };
  const settings = { pollingIntervalSeconds: definition.pollingIntervalSeconds ?? 'default (2)', batchSize: definition.batchSize ?? 'default (1)' };
  const pollingMs = (definition.pollingIntervalSeconds ?? 2) * 1000;
  const config = loadConfig({
    NODE_ENV: 'production',
    PAYMENT_PROCESSOR: 'sandbox',
    HOST,
    PORT: '0',
    COOKIE_SECRET: randomSecret(),
    SMTP_URL: `smtp://${HOST}:${sink.port}`,
    JOB_WORKERS: 'true',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    ...database.env,
  });
  const db = database.db;
  const app = await buildApp({ config, db, ownsDb: true });
  await app.ready(); // starts the queue and its workers
  const mail = (subject: string) => ({ to: 'member@bench.invalid', from: config.mailFrom, subject, text: `${subject}: your code is 12345.` });
  const enqueue = (subject: string) => db.transaction().execute((trx) => app.messages.mail(trx, mail(subject)));

  try {
    // 1. The delay from commit to send, for single mails with an empty queue.
    const delays: number[] = [];
    for (let i = 0; i < SINGLES.samples; i++) {
      const subject = `Bench single ${i}`;
      await enqueue(subject);
      const committed = performance.now();
      if (await sink.until(() => sink.arrivals.has(subject), SINGLES.timeoutSeconds * 1000)) delays.push(sink.arrivals.get(subject)! - committed);
      else warnings.push(`single mail ${i} did not arrive within ${SINGLES.timeoutSeconds} s`);
      await sleep(Math.random() * pollingMs);
    }

    // 2. The burst: BURST.mails mails, each in its own transaction, BURST.enqueuers at a time.
    const before = sink.count();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: BURST.enqueuers }, async () => {
        for (let i = next++; i < BURST.mails; i = next++) await enqueue(`Bench burst ${i}`);
      }),
    );
    const enqueued = performance.now();
    const all = await sink.until(() => sink.count() - before >= BURST.mails, BURST.waitAfterLastCommitSeconds * 1000);
    const arrived = sink.count() - before;
    const lastArrival = Math.max(...[...sink.arrivals.entries()].filter(([s]) => s.startsWith('Bench burst ')).map(([, at]) => at), started);
    const end = all ? lastArrival : performance.now();
    if (!all) warnings.push(`the burst: ${arrived} of ${BURST.mails} mails arrived within ${BURST.waitAfterLastCommitSeconds} s of the last commit`);
    const deliverSeconds = (end - started) / 1000;
    return {
      settings,
      burst: {
        mails: BURST.mails,
        arrived,
        enqueueSeconds: round1((enqueued - started) / 1000),
        commitsPerSecond: Math.round(BURST.mails / ((enqueued - started) / 1000)),
        deliverSeconds: round1(deliverSeconds),
        mailsPerSecond: round1(arrived / deliverSeconds),
      },
      singles: {
        samples: SINGLES.samples,
        arrived: delays.length,
        delayMs: delays.length
          ? {
              p50: Math.round(percentile(delays, 50)),
              p90: Math.round(percentile(delays, 90)),
              p99: Math.round(percentile(delays, 99)),
              min: Math.round(Math.min(...delays)),
              max: Math.round(Math.max(...delays)),
            }
          : null,
      },
      warnings,
    };
  } finally {
    // Stop the workers (a backlog left by a slow queue stays in the database, which goes away).
    await app.close(); // closes the database (ownsDb)
    await database.drop();
    await sink.close();
  }
}

export const jobsModule: BenchModule = {
  name: 'jobs',
  scope: 'server',
  describe: `mail through the queue to a local SMTP sink: ${SINGLES.samples} single mails (commit-to-send delay), then a burst of ${BURST.mails}`,
  async run(ctx) {
    const { backend } = serverOf(ctx);
    const r = await measure(backend);
    const d = r.singles.delayMs;
    return {
      data: r,
      warnings: r.warnings,
      sections: [
        {
          key: 'jobs',
          title:
            `Mail through the durable queue to a local SMTP sink (app in the bench process: production mode, SMTP_URL to smtp-server on 127.0.0.1, ` +
            `workers on; the mail queue's worker: polling ${r.settings.pollingIntervalSeconds} s, batch ${r.settings.batchSize})`,
          head: ['delay p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'burst', 'commits/s', 'delivered in s', 'mails/s'],
          rows: [
            [
              d ? String(d.p50) : '–',
              d ? String(d.p90) : '–',
              d ? String(d.p99) : '–',
              d ? String(d.max) : '–',
              `${r.burst.arrived}/${r.burst.mails}`,
              String(r.burst.commitsPerSecond),
              String(r.burst.deliverSeconds),
              String(r.burst.mailsPerSecond),
            ],
          ],
          right: [true, true, true, true, true, true, true, true],
          notes: [
            `  delay: ${SINGLES.samples} single mails, each enqueued in its own transaction once the previous one arrived and a random gap (uniform over one polling interval); ` +
              `sink arrival (end of DATA) minus the moment the commit returned.`,
            `  burst: ${BURST.mails} mails, one transaction each, ${BURST.enqueuers} enqueuers at once; mails/s = mails arrived / seconds from the first enqueue to the last arrival ` +
              `(bounded: at most ${BURST.waitAfterLastCommitSeconds} s after the last commit).`,
          ],
        },
      ],
    };
  },
};
