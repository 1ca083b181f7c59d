import t from 'tap';
import { createServer, type IncomingMessage } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { Outbox, OutboxMailer, SmtpMailer } from '#src/lib/messaging/mail.ts';
import { MAIL_JOB } from '#src/lib/messaging/outgoing.ts';
import { HttpSmsSender, OutboxSms, SmsDeliveryError } from '#src/lib/messaging/sms.ts';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { createCommunity } from '#test/helpers/factories.ts';

t.test('the local outbox keeps real .eml and .txt files and the messages in memory', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'outbox-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const outbox = new Outbox(dir);
  await new OutboxMailer(outbox).send({ to: 'ada@example.com', from: '"Alpha" <no-reply@example.com>', subject: 'Your code: 12345', text: 'Hello Ada, your code is 12345.' });
  await new OutboxSms(outbox).send({ to: '+12025550143', body: 'Alpha: your code is 54321.' });
  const files = readdirSync(dir).sort();
  t.equal(files.length, 2);
  const eml = readFileSync(path.join(dir, files.find((f) => f.endsWith('.eml'))!), 'utf8');
  t.match(eml, 'To: ada@example.com');
  t.match(eml, 'Subject: Your code: 12345');
  t.match(eml, 'Hello Ada, your code is 12345.');
  t.equal(outbox.latestTo('+12025550143', 'sms')?.text, 'Alpha: your code is 54321.');
  t.equal(outbox.latestTo('ada@example.com')?.subject, 'Your code: 12345');
});

t.test('the SMS provider adapter speaks the provider’s REST contract (against a local fake)', async (t) => {
  const received: Array<{ url: string; auth: string; type: string; body: URLSearchParams }> = [];
  let answer = { status: 201, body: '{"sid":"SM1","status":"queued"}' };
  const server = createServer((req: IncomingMessage, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      received.push({ url: req.url!, auth: req.headers.authorization ?? '', type: req.headers['content-type'] ?? '', body: new URLSearchParams(data) });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const port = (server.address() as { port: number }).port;
  const sender = new HttpSmsSender({ baseUrl: `http://127.0.0.1:${port}`, accountSid: 'AC123', authToken: 's3cret', from: '+15550100000' });

  await sender.send({ to: '+12025550143', body: 'Your code is 12345' });
  t.equal(received[0]!.url, '/2010-04-01/Accounts/AC123/Messages.json');
  t.equal(received[0]!.auth, `Basic ${Buffer.from('AC123:s3cret').toString('base64')}`);
  t.equal(received[0]!.type, 'application/x-www-form-urlencoded');
  t.same(Object.fromEntries(received[0]!.body), { To: '+12025550143', From: '+15550100000', Body: 'Your code is 12345' });

  answer = { status: 400, body: '{"code":21211,"message":"Invalid To number"}' };
  const error = await sender.send({ to: '+1', body: 'x' }).then(() => null, (e) => e);
  t.type(error, SmsDeliveryError);
  t.equal(error.status, 400);
  t.match(error.message, 'Invalid To number');

  const unreachable = new HttpSmsSender({ baseUrl: 'http://127.0.0.1:1', accountSid: 'a', authToken: 'b', from: 'c', timeoutMs: 2000 });
  t.type(await unreachable.send({ to: '+1', body: 'x' }).then(() => null, (e) => e), SmsDeliveryError);
});

t.test('the development outbox page exists outside production only', async (t) => {
  const db = await setupDatabase(t);
  await createCommunity(db, { code: 'alpha' });
  const { app } = await startApp(t, db);
  await app.mailer.send({ to: 'grace@example.com', from: 'no-reply@example.com', subject: 'Hello Grace', text: 'Body text' });
  const page = await app.inject({ url: '/dev/outbox', headers: { accept: 'text/html' } });
  t.equal(page.statusCode, 200);
  t.match(page.body, 'Hello Grace');
  t.match(page.body, 'grace@example.com');
  const prod = await startApp(t, db, { env: { NODE_ENV: 'production', PAYMENT_PROCESSOR: 'sandbox', COOKIE_SECRET: 'a-production-secret-of-sufficient-length-42' } });
  t.equal((await prod.app.inject({ url: '/dev/outbox', headers: { accept: 'text/html' } })).statusCode, 404);
});

t.test('with SMTP_URL, the queue’s mail worker delivers through SMTP (to a local SMTP server)', async (t) => {
  const received: Array<{ session: string; to: string[]; user: string | undefined; raw: string }> = [];
  const sink = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailer' && auth.password === 's3cret') callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          session: session.id,
          to: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => sink.close(() => resolve())));
  const port = (sink.server.address() as { port: number }).port;

  const db = await setupDatabase(t);
  await createCommunity(db, { code: 'alpha' });
  const { app, config } = await startApp(t, db, { env: { SMTP_URL: `smtp://mailer:s3cret@127.0.0.1:${port}` } });
  t.type(app.mailer, SmtpMailer, 'SMTP_URL selects the SMTP transport, not the local outbox');

  await db.transaction().execute((trx) =>
    app.messages.mail(trx, { to: 'ada@example.com', from: config.mailFrom, subject: 'Your sign-in code: 12345', text: 'Hello Ada, your code is 12345.' }),
  );
  t.equal(received.length, 0, 'nothing is sent before a worker runs the job');
  t.equal(await app.jobs.drain([MAIL_JOB]), 1, 'the worker ran one mail job');

  t.equal(received.length, 1, 'the SMTP server received one message');
  const message = received[0]!;
  t.same(message.to, ['ada@example.com'], 'for the recipient');
  t.equal(message.user, 'mailer', 'signed in with the credentials of SMTP_URL');
  t.match(message.raw, /^Subject: Your sign-in code: 12345$/m, 'with the subject');
  t.match(message.raw, /^To: ada@example\.com$/m, 'addressed to her');
  t.match(message.raw, 'Hello Ada, your code is 12345.', 'and the text');
  t.same((await app.jobs.counts(MAIL_JOB)).completed, 1, 'the job is complete');
  t.same(app.outbox.messages, [], 'and nothing went to the local outbox');

  // More mail goes over the connection already open (a handshake and a greeting per message cost the
  // queue's worker more than the message itself); closing the app lets it go.
  for (const name of ['Grace', 'Linus']) {
    await app.messages.mail(db, { to: `${name.toLowerCase()}@example.com`, from: config.mailFrom, subject: `Hello ${name}`, text: 'Body' });
  }
  t.equal(await app.jobs.drain([MAIL_JOB]), 2, 'the worker ran both');
  // Queued in the same millisecond, the two may run in either order: what matters is that both arrived.
  t.same([received[0]!.to[0], ...received.slice(1).map((m) => m.to[0]).sort()], ['ada@example.com', 'grace@example.com', 'linus@example.com'], 'the two others arrived');
  t.equal(new Set(received.map((m) => m.session)).size, 1, 'all three over one SMTP connection');
  t.equal(sink.connections.size, 1, 'which stays open for the next');
  await app.close();
  for (let i = 0; i < 50 && sink.connections.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
  t.equal(sink.connections.size, 0, 'closing the app closes it');
});
