import t from 'tap';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#src/app.ts';
import type { Mailer, OutgoingMail } from '#src/lib/messaging/mail.ts';
import { MAIL_JOB } from '#src/lib/messaging/outgoing.ts';
import { setupDatabase, testClock, testConfig } from '#test/helpers/app.ts';
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

  await t.test('a reset request is answered before anything is looked up or sent, for a member as for a stranger', async (t) => {
    const mailer = new RecordingMailer();
    const app = await start(mailer);
    const [forMember, forStranger] = await Promise.all([
      form(app, '/password/forgot', { email: member.email, method: 'link' }),
      form(app, '/password/forgot', { email: 'stranger@example.com', method: 'link' }),
    ]);
    t.equal(forMember.statusCode, forStranger.statusCode, 'the same answer');
    t.match(forMember.body, 'Check your inbox');
    t.match(forStranger.body, 'Check your inbox');
    t.equal(mailer.sent.length, 0, 'answered with the work still queued');
    await app.jobs.drain();
    t.same(mailer.sent.map((m) => m.to), [member.email], 'then the member gets the link, the stranger nothing');
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
      await sql`update pgboss.job set start_after = now() where name = ${MAIL_JOB} and state = 'retry'`.execute(db);
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
});
