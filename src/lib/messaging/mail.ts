import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';

/**
 * `headers`: extra header lines (e.g. List-Unsubscribe and List-Unsubscribe-Post, RFC 8058), passed to
 * nodemailer as they are: SMTP sends them, the outbox keeps them in its .eml and its record.
 */
export type OutgoingMail = { to: string; from: string; subject: string; text: string; html?: string; headers?: Record<string, string> };
export type SentMessage = { id: string; channel: 'email' | 'sms' | 'push'; to: string; subject?: string; text: string; at: Date; headers?: Record<string, string> };

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  /** Let go of open connections (the app closes it after the queue's workers stopped). */
  close?(): void;
}

/**
 * Real mail through SMTP_URL (nodemailer), over a small pool of connections kept open (nodemailer's
 * default of 5; `?maxConnections=` in the URL sizes it, `?pool=false` opens one per message). The
 * queue's worker sends up to 10 mails at once; a connection per message paid a TCP (and TLS) handshake
 * and the SMTP greeting each time: the bench's burst went 1.7x faster pooled.
 */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  constructor(url: string) {
    const options = new URL(url);
    if (!options.searchParams.has('pool')) options.searchParams.set('pool', 'true');
    this.transport = nodemailer.createTransport(options.toString());
  }
  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail(mail);
  }
  close(): void {
    this.transport.close();
  }
}

/**
 * The local outbox: without SMTP_URL outside production, each message is rendered by nodemailer to a
 * real .eml file under DATA_DIR/outbox and kept in memory for the development page and the tests.
 */
export class Outbox {
  readonly messages: SentMessage[] = [];
  constructor(private readonly dir: string | null) {}

  async keep(message: SentMessage, raw: Buffer | string, extension: 'eml' | 'txt'): Promise<void> {
    this.messages.unshift(message);
    if (this.messages.length > 200) this.messages.length = 200;
    if (!this.dir) return;
    await mkdir(this.dir, { recursive: true });
    const stamp = message.at.toISOString().replace(/[:.]/g, '-');
    await writeFile(path.join(this.dir, `${stamp}-${message.channel}-${message.id}.${extension}`), raw);
  }

  /** The newest message sent to an address (tests and the development page). */
  latestTo(to: string, channel?: 'email' | 'sms' | 'push'): SentMessage | undefined {
    return this.messages.find((m) => m.to === to && (!channel || m.channel === channel));
  }
}

export class OutboxMailer implements Mailer {
  private readonly transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  private counter = 0;
  constructor(private readonly outbox: Outbox) {}
  async send(mail: OutgoingMail): Promise<void> {
    const info = await this.transport.sendMail(mail);
    const id = `${Date.now().toString(36)}${(this.counter++).toString(36)}`;
    const headers = mail.headers ? { ...mail.headers } : undefined;
    await this.outbox.keep({ id, channel: 'email', to: mail.to, subject: mail.subject, text: mail.text, at: new Date(), ...(headers ? { headers } : {}) }, info.message as Buffer, 'eml');
  }
}
