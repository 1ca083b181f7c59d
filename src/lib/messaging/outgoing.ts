import type { Executor, JobDefinition, JobQueue } from '#src/lib/jobs/queue.ts';
import type { Sealer } from '#src/lib/jobs/sealed.ts';
import type { Mailer, OutgoingMail } from './mail.ts';
import type { OutgoingSms, SmsSender } from './sms.ts';

export const MAIL_JOB = 'messages.mail';
export const SMS_JOB = 'messages.sms';

type Sealed = { sealed: string };

/**
 * Every mail and SMS the product sends goes through the durable queue: enqueued in the transaction
 * that makes the code or token it carries, sent by a worker with retries and backoff. A crash after
 * the answer loses nothing; a transaction that rolls back sends nothing.
 */
export class Messages {
  constructor(
    private readonly jobs: JobQueue,
    private readonly sealer: Sealer,
  ) {}

  async mail(executor: Executor, mail: OutgoingMail): Promise<void> {
    await this.jobs.enqueue(executor, MAIL_JOB, { sealed: this.sealer.seal(mail) } satisfies Sealed);
  }

  async sms(executor: Executor, sms: OutgoingSms): Promise<void> {
    await this.jobs.enqueue(executor, SMS_JOB, { sealed: this.sealer.seal(sms) } satisfies Sealed);
  }
}

/** The workers' side: open the sealed message and hand it to the transport (SMTP, SMS API or the local outbox). */
export function messageJobs(transports: { mailer: Mailer; sms: SmsSender }, sealer: Sealer): JobDefinition[] {
  const retry = { limit: 8, delaySeconds: 5, backoff: true };
  return [
    { name: MAIL_JOB, retry, expireInSeconds: 120, handler: (data: Sealed) => transports.mailer.send(sealer.open<OutgoingMail>(data.sealed)) },
    { name: SMS_JOB, retry, expireInSeconds: 120, handler: (data: Sealed) => transports.sms.send(sealer.open<OutgoingSms>(data.sealed)) },
  ];
}
