import t from 'tap';
import { createServer, type IncomingMessage } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Outbox, OutboxMailer } from '#src/lib/messaging/mail.ts';
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
  const prod = await startApp(t, db, { env: { NODE_ENV: 'production', COOKIE_SECRET: 'a-production-secret-of-sufficient-length-42' } });
  t.equal((await prod.app.inject({ url: '/dev/outbox', headers: { accept: 'text/html' } })).statusCode, 404);
});
