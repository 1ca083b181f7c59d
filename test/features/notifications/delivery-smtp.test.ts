import t from 'tap';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { Outbox, OutboxMailer, SmtpMailer } from '#src/lib/messaging/mail.ts';
import { unsubscribeHeaders } from '#src/features/notifications/email-delivery.ts';

/** The SMTP adapter against a local SMTP sink: the List-Unsubscribe headers reach the wire. */
t.test('SmtpMailer sends the one-click unsubscribe headers to an SMTP server', async (t) => {
  const received: string[] = [];
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => sink.close(() => resolve())));
  const { port } = sink.server.address() as AddressInfo;

  const mailer = new SmtpMailer(`smtp://127.0.0.1:${port}?ignoreTLS=true&pool=false`);
  t.teardown(() => mailer.close());
  const link = 'https://community.example.com/notifications/unsubscribe?token=aaa.bbb.ccc';
  await mailer.send({
    to: 'ada@example.com',
    from: '"Alpha Council" <no-reply@example.com>',
    subject: 'Alpha Council: Editor feedback',
    text: 'Hello Ada,\n\nYour editor left feedback.\n',
    headers: unsubscribeHeaders(link),
  });
  t.equal(received.length, 1, 'the sink received one message');
  // Long header lines may be folded (RFC 5322): unfold before reading them.
  const raw = received[0]!.replace(/\r?\n[ \t]+/g, ' ');
  t.match(raw, /^List-Unsubscribe: <https:\/\/community\.example\.com\/notifications\/unsubscribe\?token=aaa\.bbb\.ccc>\r?$/m);
  t.match(raw, /^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
  t.match(raw, /^Subject: Alpha Council: Editor feedback\r?$/m);
});

t.test('the local outbox keeps the headers in its .eml and its record', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'outbox-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const outbox = new Outbox(dir);
  const link = 'http://localhost:3000/notifications/unsubscribe?token=aaa.bbb.ccc';
  await new OutboxMailer(outbox).send({ to: 'ada@example.com', from: 'no-reply@example.com', subject: 'Hello', text: 'Hi', headers: unsubscribeHeaders(link) });
  t.same(outbox.messages[0]!.headers, { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  const [file] = await readdir(dir);
  const raw = (await readFile(path.join(dir, file!), 'utf8')).replace(/\r?\n[ \t]+/g, ' ');
  t.match(raw, `List-Unsubscribe: <${link}>`);
  t.match(raw, 'List-Unsubscribe-Post: List-Unsubscribe=One-Click');
});
