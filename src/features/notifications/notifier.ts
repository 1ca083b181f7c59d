import type { Db } from '#src/db/index.ts';
import { insertInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { JobQueue } from '#src/lib/jobs/queue.ts';
import type { NotificationKind } from '#src/lib/notification-kinds.ts';
import { choicesFor } from './queries.ts';
import { safeAppPath } from './list.ts';

export const DELIVER_JOB = 'notifications.deliver';

export type NotifyInput = {
  communityId: number;
  userId: number;
  kind: NotificationKind;
  /** An application path (without the prefix), e.g. "/articles/edit". */
  url: string;
  /** The message, already in the member's words (from the locale files). */
  message: string;
  createdAt: Date;
};

/**
 * The one way anything notifies a member. Called inside the transaction of the event itself: the
 * notification row and its delivery job (email, push) exist exactly when the event commits. The row
 * shows in the list and the bell only if the member keeps the web channel on for its kind.
 */
export class Notifier {
  constructor(private readonly jobs: JobQueue) {}

  async notify(trx: Db, input: NotifyInput): Promise<number> {
    const choices = await choicesFor(trx, input, input.kind);
    const community: Tenant = { id: input.communityId };
    const row = await insertInCommunity(trx, 'notifications', community, {
      user_id: input.userId,
      kind: input.kind,
      // Only a path of this application: email, push and the list all lead there.
      url: safeAppPath(input.url),
      message: input.message,
      created_at: input.createdAt,
      shown: choices.web,
    })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (choices.email || choices.push) await this.jobs.enqueue(trx, DELIVER_JOB, { id: row.id, communityId: input.communityId });
    return row.id;
  }
}
