import type { Executor, JobDefinition, JobQueue } from '#src/lib/jobs/queue.ts';
import type { Mailer, OutgoingMail } from './mail.ts';
import type { OutgoingSms, SmsSender } from './sms.ts';

export const MAIL_JOB = 'messages.mail';
export const SMS_JOB = 'messages.sms';

/**
 * Every mail and SMS the product sends goes through the durable queue: enqueued in the transaction
 * that makes the code or token it carries, sent by a worker with retries and backoff. A crash after
 * the answer loses nothing; a transaction that rolls back sends nothing. The queue seals job data, so
 * no address, code or link lies in its tables in clear.
 */
export class Messages {
  constructor(private readonly jobs: JobQueue) {}

  async mail(executor: Executor, mail: OutgoingMail): Promise<void> {
    await this.jobs.enqueue(executor, MAIL_JOB, mail);
  }

  async sms(executor: Executor, sms: OutgoingSms): Promise<void> {
    await this.jobs.enqueue(executor, SMS_JOB, sms);
  }
}

/** The workers' side: hand each message to the transport (SMTP, the SMS API or the local outbox). */
export function messageJobs(transports: { mailer: Mailer; sms: SmsSender }): JobDefinition[] {
  const retry = { limit: 8, delaySeconds: 5, backoff: true };
  // A member waits for these (a sign-in code, a reset link): an idle worker looks every half second
  // (pg-boss's least; two cheap indexed queries a second per process) rather than every 2 s. Mail
  // goes out up to 10 at a time (each job completed or retried on its own).
  const pollingIntervalSeconds = 0.5;
  return [
    { name: MAIL_JOB, retry, expireInSeconds: 120, pollingIntervalSeconds, batchSize: 10, handler: (mail: OutgoingMail) => transports.mailer.send(mail) },
    { name: SMS_JOB, retry, expireInSeconds: 120, pollingIntervalSeconds, handler: (sms: OutgoingSms) => transports.sms.send(sms) },
  ];
}
