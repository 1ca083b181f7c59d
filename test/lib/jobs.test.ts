import t from 'tap';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#src/app.ts';
import type { Mailer, OutgoingMail } from '#src/lib/messaging/mail.ts';
import { MAIL_JOB } from '#src/lib/messaging/outgoing.ts';
import { createDatabase } from '#src/db/index.ts';
import { JobQueue } from '#src/lib/jobs/queue.ts';
import { setupDatabase, testClock, testConfig } from '#test/helpers/app.ts';
import { freshDatabase, usingPostgres } from '#test/helpers/db.ts';
import { setPassword } from '#test/helpers/auth.ts';
import { createCommunity, createMember, csrfFor } from '#test/helpers/factories.ts';

/** A mailer that records what it sends, and can be told to fail the next sends. */
class RecordingMailer implements Mailer {
  sent: OutgoingMail[] = [];
  failures = 0;
  async send(mail: OutgoingMail) {
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('SMTP is down');
    }
    this.sent.push(mail);
  }
}

t.test('the durable queue', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha' });
  const member = await createMember(db, alpha);
  await setPassword(db, member.id);
  const apps: FastifyInstance[] = [];
  t.teardown(async () => {
    for (const app of apps) await app.close();
  });
  const start = async (mailer: Mailer, jobWorkers = false) => {
    const app = await buildApp({ config: testConfig({ DEFAULT_COMMUNITY: 'alpha' }), db, clock: testClock(), mailer, jobWorkers });
    await app.ready();
    apps.push(app);
    return app;
  };
  const form = async (app: FastifyInstance, url: string, fields: Record<string, string>) => {
    const { token, cookie } = await csrfFor(app, '', url);
    return app.inject({ method: 'POST', url, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ ...fields, _csrf: token }).toString() });
  };

  await t.test('a reset request is answered before anything is sent; a stranger is told no member has that username and nothing is queued', async (t) => {
    const mailer = new RecordingMailer();
    const app = await start(mailer);
    const [forMember, forStranger] = await Promise.all([
      form(app, '/password/forgot', { email: member.email, method: 'link' }),
      form(app, '/password/forgot', { email: 'stranger@example.com', method: 'link' }),
    ]);
    t.match(forMember.body, 'Check your inbox');
    t.equal(forStranger.statusCode, 404);
    t.match(forStranger.body, 'A member with that username could not be found');
    t.equal(mailer.sent.length, 0, 'answered with the work still queued');
    const queued = await sql<{ data: unknown }>`select data from pgboss.job where name = 'auth.password-reset'`.execute(db);
    t.equal(queued.rows.length, 1, 'one reset job, for the member');
    t.notMatch(JSON.stringify(queued.rows), /@/, 'the job holds no address in clear: its data is sealed');
    await app.jobs.drain();
    t.same(mailer.sent.map((m) => m.to), [member.email], 'then the member gets the link');
    t.match(mailer.sent[0]!.text, /\/password\/reset\?token=/);
  });

  await t.test('a crash after the answer loses no code: another process sends it', async (t) => {
    const first = new RecordingMailer();
    const crashed = await start(first);
    const res = await form(crashed, '/login/code', { email: member.email, channel: 'EMAIL' });
    t.equal(res.statusCode, 200, 'the code request was answered');
    t.match(res.body, 'code');
    const queued = await crashed.jobs.counts(MAIL_JOB);
    t.equal(queued.queued, 1, 'its mail waits in the queue');
    const stored = await sql<{ data: unknown }>`select data from pgboss.job where name = ${MAIL_JOB}`.execute(db);
    t.notMatch(JSON.stringify(stored.rows), member.email, 'the queued message is sealed: no address or code in plain text');
    // The process goes away before any worker ran (a crash: nothing drained, nothing sent).
    await crashed.close();
    apps.splice(apps.indexOf(crashed), 1);
    t.equal(first.sent.length, 0);

    const second = new RecordingMailer();
    const survivor = await start(second, true);
    for (let i = 0; i < 100 && second.sent.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    t.equal(second.sent.length, 1, "the other process's worker sent it");
    t.match(`${second.sent[0]!.subject} ${second.sent[0]!.text}`, /\b\d{5}\b/, 'with the code');
    await survivor.close();
    apps.splice(apps.indexOf(survivor), 1);
  });

  await t.test('a failed send is retried with backoff until it goes', async (t) => {
    const mailer = new RecordingMailer();
    mailer.failures = 2;
    const app = await start(mailer);
    await app.messages.mail(app.db, { to: 'ada@example.com', from: 'no-reply@example.com', subject: 'Hello', text: 'Body' });
    await app.jobs.drain();
    t.equal(mailer.sent.length, 0, 'the first try failed');
    const waiting = await sql<{ state: string; retry_count: number; later: boolean }>`
      select state::text, retry_count, start_after > now() as later from pgboss.job where name = ${MAIL_JOB} and state <> 'completed'`.execute(db);
    t.same(waiting.rows.map((r) => [r.state, r.later]), [['retry', true]], 'it waits to be retried, later');
    for (let i = 0; i < 2; i++) {
      await sql`update pgboss.job set start_after = now() - interval '1 second' where name = ${MAIL_JOB} and state = 'retry'`.execute(db);
      await app.jobs.drain();
    }
    t.same(mailer.sent.map((m) => m.to), ['ada@example.com'], 'sent on the third try, once');
  });

  await t.test('a message enqueued in a transaction that rolls back is never sent', async (t) => {
    const mailer = new RecordingMailer();
    const app = await start(mailer);
    await t.rejects(
      db.transaction().execute(async (trx) => {
        await app.messages.mail(trx, { to: 'rolled-back@example.com', from: 'no-reply@example.com', subject: 'No', text: 'No' });
        throw new Error('the write failed');
      }),
    );
    await app.jobs.drain();
    t.same(mailer.sent, []);
  });

  const waitFor = async (done: () => boolean, ms: number) => {
    const until = Date.now() + ms;
    while (!done() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  };

  await t.test('a backlog of mail goes out at once, not one mail per polling interval', async (t) => {
    const mailer = new RecordingMailer();
    const app = await start(mailer, true);
    const started = Date.now();
    for (let i = 0; i < 30; i++) {
      await db.transaction().execute((trx) => app.messages.mail(trx, { to: `backlog-${i}@example.com`, from: 'no-reply@example.com', subject: `Code ${i}`, text: 'Body' }));
    }
    // pg-boss's worker sleeps out its polling interval (2 s) after every fetch, even a fruitful one:
    // 30 mails took a minute at one per fetch.
    await waitFor(() => mailer.sent.length >= 30, 10_000);
    t.equal(mailer.sent.length, 30, `all 30 sent within 10 s (in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    t.equal(new Set(mailer.sent.map((m) => m.to)).size, 30, 'each once');
    await app.close();
    apps.splice(apps.indexOf(app), 1);
  });

  await t.test('a mail that fails in a batch is retried alone: the others of its batch are not sent again', async (t) => {
    /** Refuses one address, sends the others; records every attempt. */
    const attempts: string[] = [];
    const mailer: Mailer & { sent: OutgoingMail[] } = {
      sent: [],
      async send(mail) {
        attempts.push(mail.to);
        if (mail.to === 'refused@example.com') throw new Error('550 mailbox unavailable');
        this.sent.push(mail);
      },
    };
    const retrying = async () => Number((await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = ${MAIL_JOB} and state = 'retry'`.execute(db)).rows[0]!.n);
    const before = await retrying();
    // Enqueued before any worker runs, so that one worker fetches them as one batch.
    const idle = await start(new RecordingMailer());
    const to = ['one@example.com', 'refused@example.com', 'two@example.com', 'three@example.com'];
    for (const address of to) await idle.messages.mail(db, { to: address, from: 'no-reply@example.com', subject: 'Hello', text: 'Body' });
    const app = await start(mailer, true);
    await waitFor(() => attempts.length >= 4, 10_000);
    await new Promise((r) => setTimeout(r, 1500)); // a few more polling intervals: nothing may go twice
    t.same([...mailer.sent.map((m) => m.to)].sort(), ['one@example.com', 'three@example.com', 'two@example.com'], 'the three others were sent');
    t.same([...attempts].sort(), [...to].sort(), 'each tried once: none of the batch was sent again');
    t.equal((await retrying()) - before, 1, 'only the refused one waits for its retry');
    await app.close();
    apps.splice(apps.indexOf(app), 1);
  });
});

t.test('processes starting at once on a fresh database all start (pg-boss creates their queues once)', { skip: usingPostgres() ? false : 'needs PostgreSQL (DATABASE_URL): PGlite is one process' }, async (t) => {
  const { db, drop, url } = await freshDatabase({ queue: false });
  t.teardown(drop);
  // Each "process" its own connection pool, as separate nodes have; the queues every node defines.
  const others = await Promise.all([1, 2, 3].map(() => createDatabase({ kind: 'postgres', url: url!, poolSize: 3 }).then((r) => r.db)));
  t.teardown(() => Promise.all(others.map((d) => d.destroy())));
  const names = ['alpha.one', 'alpha.two', 'alpha.three', 'alpha.four', 'alpha.five', 'alpha.six'];
  const queues = [db, ...others].map((d) => {
    const queue = new JobQueue(d, { workers: false, onError: () => undefined });
    queue.define(...names.map((name) => ({ name, handler: async () => undefined })));
    return queue;
  });
  t.teardown(() => Promise.all(queues.map((q) => q.stop())));
  // pg-boss's create_queue adds a foreign key to its queue table in each call: two processes creating
  // different queues at once deadlock (PostgreSQL 40P01) and one of them failed to start.
  const started = await Promise.allSettled(queues.map((q) => q.start()));
  t.same(
    started.map((s) => (s.status === 'fulfilled' ? 'started' : (s.reason as Error).message)),
    ['started', 'started', 'started', 'started'],
    'the four start',
  );
  const rows = await sql<{ name: string }>`select name from pgboss.queue order by name`.execute(db);
  t.same(rows.rows.map((r) => r.name), [...names].sort(), 'each queue exists once');

  await t.test('a queue that has not started refuses work as a database outage, and stops cleanly', async (t) => {
    const { JobQueue } = await import('#src/lib/jobs/queue.ts');
    const queue = new JobQueue(db, { workers: false, onError: () => undefined });
    queue.define({ name: 'test.nothing', handler: async () => undefined });
    const refused = await queue.enqueue(db, 'test.nothing', {}).then(
      () => 'queued',
      (e: { code?: string }) => e.code,
    );
    t.equal(refused, 'ServiceUnavailable.Database', 'a 503, not work lost in silence');
    await queue.stop();
    await queue.start();
    t.equal(await queue.enqueue(db, 'test.nothing', {}).then(() => 'queued', () => 'refused'), 'refused', 'a stopped queue does not start again');
  });
});
