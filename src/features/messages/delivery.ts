import type { Db } from '#src/db/index.ts';
import { insertInCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity } from '#src/db/tenancy.ts';
import { recordLinkedUsage } from '#src/features/content-bank/index.ts';
import { resolveAudience } from './audience.ts';
import { messagesTransaction, type MessagesDeps } from './deps.ts';
import { TEAM_MESSAGES_KIND } from './notification-kinds.ts';
import type { TeamMessageStatus } from './types.ts';

/**
 * Delivery, exactly once per member (decision 0057). A message that starts sending is worked by a
 * chain of `messages.send` jobs, one batch each, every batch one transaction under the message's row
 * lock:
 *
 * 1. the first writes the audience once as message_recipients rows ('pending', unique per message and
 *    member), so who gets it is fixed when it starts;
 * 2. each next one takes the next pending rows, notifies each member through the notifications area's
 *    notifier (their channel choices and one-click unsubscribe honoured there) and marks the row
 *    'delivered' with its notification, in the same transaction; a member deactivated since is
 *    'skipped'. It queues the next batch in that transaction, or marks the message SENT.
 *
 * A crash mid-batch rolls the whole batch back (notifications, their email and push jobs, the rows), so
 * the retried job sends it again to the same people once; a batch run twice finds no pending row left.
 * A cancelled message's chain stops at its next batch.
 */

export const SEND_JOB = 'messages.send';
export const DUE_JOB = 'messages.due';
export const BATCH_SIZE = 500;
const INSERT_CHUNK = 2000;

export type SendJob = { communityId: number; messageId: number };

async function lockMessage(trx: Db, deps: MessagesDeps, id: number) {
  return selectInCommunity(trx, 'team_messages', deps.community).select(['id', 'status', 'subject', 'audience', 'recipients_ready', 'scheduled_at']).where('id', '=', id).forUpdate().executeTakeFirst();
}

async function setStatus(trx: Db, deps: MessagesDeps, id: number, from: TeamMessageStatus, to: TeamMessageStatus, note: string | null, extra: { sent_at?: Date } = {}) {
  const now = deps.clock.now();
  await updateInCommunity(trx, 'team_messages', deps.community).set({ status: to, updated_at: now, ...extra }).where('id', '=', id).execute();
  await insertInCommunity(trx, 'message_events', deps.community, { message_id: id, actor_id: null, from_status: from, to_status: to, note, created_at: now }).execute();
}

/** One batch of a message's sending (the `messages.send` job). Returns what it did, for tests and logs. */
export async function runSendBatch(deps: MessagesDeps, messageId: number, options: { batchSize?: number } = {}): Promise<'idle' | 'prepared' | 'batch' | 'sent' | 'failed'> {
  const size = options.batchSize ?? BATCH_SIZE;
  return messagesTransaction(deps.db, async (trx) => {
    const m = await lockMessage(trx, deps, messageId);
    if (!m || m.status !== 'SENDING') return 'idle';
    if (!m.recipients_ready) {
      const resolved = await resolveAudience(trx, deps.community, m.audience);
      if (!resolved) {
        await setStatus(trx, deps, m.id, 'SENDING', 'FAILED', 'audience');
        return 'failed';
      }
      for (let i = 0; i < resolved.ids.length; i += INSERT_CHUNK) {
        const rows = resolved.ids.slice(i, i + INSERT_CHUNK).map((user_id) => ({ message_id: m.id, user_id, state: 'pending' as const }));
        await insertInCommunity(trx, 'message_recipients', deps.community, rows).onConflict((oc) => oc.columns(['message_id', 'user_id']).doNothing()).execute();
      }
      await updateInCommunity(trx, 'team_messages', deps.community).set({ recipients_ready: true, audience_count: resolved.ids.length }).where('id', '=', m.id).execute();
      await deps.jobs.enqueue(trx, SEND_JOB, { communityId: deps.community.id, messageId: m.id } satisfies SendJob);
      return 'prepared';
    }
    const batch = await selectInCommunityAs(trx, 'message_recipients', 'r', deps.community)
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .leftJoin('memberships as ms', (j) => j.onRef('ms.user_id', '=', 'r.user_id').onRef('ms.community_id', '=', 'r.community_id'))
      .select(['r.user_id', 'u.is_active as user_active', 'ms.is_active as member_active'])
      .where('r.message_id', '=', m.id)
      .where('r.state', '=', 'pending')
      .orderBy('r.user_id')
      .limit(size)
      .execute();
    const now = deps.clock.now();
    const message = deps.t('messages.notification', { subject: m.subject });
    const skipped: number[] = [];
    for (const r of batch) {
      if (!r.user_active || !r.member_active) {
        skipped.push(r.user_id);
        continue;
      }
      const notificationId = await deps.notifier.notify(trx, { communityId: deps.community.id, userId: r.user_id, kind: TEAM_MESSAGES_KIND, url: `/messages/team/${m.id}`, message, createdAt: now });
      await updateInCommunity(trx, 'message_recipients', deps.community)
        .set({ state: 'delivered', delivered_at: now, notification_id: notificationId })
        .where('message_id', '=', m.id)
        .where('user_id', '=', r.user_id)
        .where('state', '=', 'pending')
        .execute();
    }
    if (skipped.length) {
      await updateInCommunity(trx, 'message_recipients', deps.community).set({ state: 'skipped' }).where('message_id', '=', m.id).where('user_id', 'in', skipped).execute();
    }
    const more =
      batch.length === size &&
      (await selectInCommunity(trx, 'message_recipients', deps.community).select('user_id').where('message_id', '=', m.id).where('state', '=', 'pending').limit(1).executeTakeFirst()) !== undefined;
    if (more) {
      await deps.jobs.enqueue(trx, SEND_JOB, { communityId: deps.community.id, messageId: m.id } satisfies SendJob);
      return 'batch';
    }
    await setStatus(trx, deps, m.id, 'SENDING', 'SENT', null, { sent_at: now });
    // The content bank's items it links to were sent in it (their usage, shown on their page there).
    const body = await selectInCommunity(trx, 'team_messages', deps.community).select('body_html').where('id', '=', m.id).executeTakeFirstOrThrow();
    await recordLinkedUsage(trx, deps.community, { html: body.body_html, publicUrl: deps.publicUrl, area: 'messages', what: 'sent', ref: String(m.id), label: m.subject, path: `/admin/messages/${m.id}`, at: now });
    return 'sent';
  });
}

/** A scheduled message whose time has come (the delayed `messages.due` job): it starts sending. */
export async function runDue(deps: MessagesDeps, messageId: number): Promise<boolean> {
  return messagesTransaction(deps.db, async (trx) => {
    const m = await lockMessage(trx, deps, messageId);
    // Cancelled, sent by hand, or rescheduled later (that reschedule queued its own job): nothing to do.
    if (!m || m.status !== 'SCHEDULED' || !m.scheduled_at || m.scheduled_at.getTime() > deps.clock.now().getTime() + 1000) return false;
    await setStatus(trx, deps, m.id, 'SCHEDULED', 'SENDING', 'schedule');
    await deps.jobs.enqueue(trx, SEND_JOB, { communityId: deps.community.id, messageId: m.id } satisfies SendJob);
    return true;
  });
}

/** A job's data as sent (anything else is dropped, never a crash loop). */
export function sendJobOf(data: unknown): SendJob | null {
  const d = data as Partial<SendJob> | null;
  if (!d || !Number.isSafeInteger(d.communityId) || !Number.isSafeInteger(d.messageId)) return null;
  return { communityId: d.communityId!, messageId: d.messageId! };
}


export const DUE_SWEEP_JOB = 'messages.due-sweep';

/** The community's scheduled messages whose time has passed (the sweep's catch: a delayed job lost, or the demo's). */
export async function sendDueMessages(deps: MessagesDeps): Promise<number> {
  const due = await selectInCommunity(deps.db, 'team_messages', deps.community).select('id').where('status', '=', 'SCHEDULED').where('scheduled_at', '<=', deps.clock.now()).orderBy('id').limit(100).execute();
  let started = 0;
  for (const m of due) if (await runDue(deps, m.id)) started += 1;
  return started;
}
