import { sql } from 'kysely';
import { formatDate } from '#shared/format.ts';
import type { Db } from '#src/db/index.ts';
import { crossCommunity, selectInCommunityAs, type Tenant, updateInCommunity } from '#src/db/tenancy.ts';
import type { EpDeps } from '../deps.ts';
import { REMINDER_BEFORE_MS } from '../rules.ts';
import { invitationExpiry, invitationPath } from './links.ts';

/**
 * The invitation and the reminder (issue 15, decision 0035), both notifications of kind
 * 'expert_questions' made by durable jobs (jobs.ts). Each member hears once: the answers a
 * notification speaks of are claimed (`invited_at`, `reminded_at`) by the UPDATE of the same
 * transaction that makes it, so a job run again, or two runs at once, tell nobody twice (the second
 * claim waits on the row locks, then finds nothing left to claim). Invitations go a group of members
 * per transaction (one claim for the group), which is what sets their pace for a panel of thousands.
 */

export const INVITE_JOB = 'expert-panels.invite';
export const REMINDER_JOB = 'expert-panels.reminders';
export type InviteJob = { communityId: number; batchId: number };

/** What the jobs need: the expert panels' deps without the queue, and the secret links are signed with. */
export type InviteDeps = Pick<EpDeps, 'db' | 'clock' | 'community' | 't' | 'notifier'> & { secret: string };

/** Members read per round: a bounded page of work, keyset on the member id. */
const MEMBERS_PER_ROUND = 500;

/** Claims members' open, not yet claimed answers to the questions of a batch that are not closed; answers each member's question ids. */
async function claim(trx: Db, community: Tenant, batchId: number, userIds: number[], column: 'invited_at' | 'reminded_at', at: Date): Promise<Map<number, number[]>> {
  const rows = await updateInCommunity(trx, 'ep_answers', community)
    .set(column === 'invited_at' ? { invited_at: at } : { reminded_at: at })
    .where('user_id', 'in', userIds)
    .where('status', '=', 'open')
    .where(column, 'is', null)
    .where('question_id', 'in', (eb) =>
      eb.selectFrom('ep_questions').select('id').where('community_id', '=', community.id).where('batch_id', '=', batchId).where('closed_at', 'is', null),
    )
    .returning(['user_id', 'question_id'])
    .execute();
  const byMember = new Map<number, number[]>();
  for (const r of rows) byMember.set(r.user_id, [...(byMember.get(r.user_id) ?? []), r.question_id]);
  for (const ids of byMember.values()) ids.sort((a, b) => a - b);
  return byMember;
}

/** Members told per transaction: each member's claim and notification commit together, a group at a time. */
const MEMBERS_PER_TRANSACTION = 50;

/**
 * The invitations of a sent batch of the deps' community: each active member with open answers in it
 * not yet invited gets ONE notification (how many questions, the deadline) whose address is their
 * signed invitation link for those questions. Answers how many members were told now.
 */
export async function sendInvitations(deps: InviteDeps, batchId: number): Promise<number> {
  const community = deps.community;
  const communityId = community.id;
  const batch = await selectInCommunityAs(deps.db, 'ep_batches', 'b', community)
    .innerJoin('ep_panels as p', (j) => j.onRef('p.id', '=', 'b.panel_id').onRef('p.community_id', '=', 'b.community_id'))
    .select(['b.id', 'b.deadline_at', 'p.name as panel_name'])
    .where('b.id', '=', batchId)
    .where('b.status', '=', 'sent')
    .executeTakeFirst();
  if (!batch) return 0; // another community's, gone, or not sent: nobody to tell
  let told = 0;
  let after = 0;
  for (;;) {
    const members = await selectInCommunityAs(deps.db, 'ep_answers', 'a', community)
      .innerJoin('ep_questions as q', (j) => j.onRef('q.id', '=', 'a.question_id').onRef('q.community_id', '=', 'a.community_id'))
      .innerJoin('memberships as m', (j) => j.onRef('m.user_id', '=', 'a.user_id').onRef('m.community_id', '=', 'a.community_id'))
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select('a.user_id')
      .distinct()
      .where('q.batch_id', '=', batch.id)
      .where('q.closed_at', 'is', null)
      .where('a.status', '=', 'open')
      .where('a.invited_at', 'is', null)
      .where('m.is_active', '=', true)
      .where('u.is_active', '=', true)
      .where('a.user_id', '>', after)
      .orderBy('a.user_id')
      .limit(MEMBERS_PER_ROUND)
      .execute();
    for (let i = 0; i < members.length; i += MEMBERS_PER_TRANSACTION) {
      const group = members.slice(i, i + MEMBERS_PER_TRANSACTION).map((m) => m.user_id);
      const now = deps.clock.now();
      told += await deps.db.transaction().execute(async (trx) => {
        // A member whose answers another run claimed meanwhile is not in the map: told once, by it.
        const claimed = await claim(trx, community, batch.id, group, 'invited_at', now);
        for (const userId of group) {
          const questionIds = claimed.get(userId);
          if (!questionIds) continue;
          await deps.notifier.notify(trx, {
            communityId,
            userId,
            kind: 'expert_questions',
            url: invitationPath(deps.secret, { communityId, userId, questionIds, expiresAt: invitationExpiry(now) }),
            message: deps.t('expertPanelsInvite.notify.invited', { count: questionIds.length, panel: batch.panel_name, deadline: formatDate(batch.deadline_at) }),
            createdAt: now,
          });
        }
        return claimed.size;
      });
    }
    if (members.length < MEMBERS_PER_ROUND) return told;
    after = members[members.length - 1]!.user_id;
  }
}

/** Deps of the reminder run, across communities: each reminder is written under its own community. */
export type ReminderDeps = Pick<EpDeps, 'db' | 'clock' | 't' | 'notifier'> & { secret: string };

/**
 * The reminders before a deadline, in every community: for each (member, sent batch) whose deadline
 * is less than REMINDER_BEFORE_MS away and not yet past, the member's open answers to its questions
 * not closed and not yet reminded make ONE notification (how many, the deadline; a fresh invitation
 * link for them), and are marked reminded. A member sent the batch already inside that window (its
 * invitation is the reminder) is not reminded again. Answers how many reminders were made.
 */
export async function sendReminders(deps: ReminderDeps, now: Date): Promise<number> {
  const windowEnd = new Date(now.getTime() + REMINDER_BEFORE_MS);
  const seconds = Math.floor(REMINDER_BEFORE_MS / 1000);
  let told = 0;
  for (;;) {
    // Cross-community (named): a scheduled job scanning due rows of every community; each reminder is then written within its row's community.
    const due = await crossCommunity(deps.db)
      .selectFrom('ep_answers as a')
      .innerJoin('ep_questions as q', (j) => j.onRef('q.id', '=', 'a.question_id').onRef('q.community_id', '=', 'a.community_id'))
      .innerJoin('ep_batches as b', (j) => j.onRef('b.id', '=', 'q.batch_id').onRef('b.community_id', '=', 'q.community_id'))
      .innerJoin('memberships as m', (j) => j.onRef('m.user_id', '=', 'a.user_id').onRef('m.community_id', '=', 'a.community_id'))
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select(['a.community_id', 'b.id as batch_id', 'b.deadline_at', 'a.user_id'])
      .distinct()
      .where('b.status', '=', 'sent')
      .where('b.deadline_at', '>', now)
      .where('b.deadline_at', '<=', windowEnd)
      .where('q.closed_at', 'is', null)
      .where('a.status', '=', 'open')
      .where('a.reminded_at', 'is', null)
      .where(sql<boolean>`a.sent_at + make_interval(secs => ${sql.lit(seconds)}) < b.deadline_at`)
      .where('m.is_active', '=', true)
      .where('u.is_active', '=', true)
      .orderBy('a.community_id')
      .orderBy('b.id')
      .orderBy('a.user_id')
      .limit(MEMBERS_PER_ROUND)
      .execute();
    for (const row of due) {
      const sent = await deps.db.transaction().execute(async (trx) => {
        const questionIds = (await claim(trx, { id: row.community_id }, row.batch_id, [row.user_id], 'reminded_at', now)).get(row.user_id) ?? [];
        if (questionIds.length === 0) return false;
        await deps.notifier.notify(trx, {
          communityId: row.community_id,
          userId: row.user_id,
          kind: 'expert_questions',
          url: invitationPath(deps.secret, { communityId: row.community_id, userId: row.user_id, questionIds, expiresAt: invitationExpiry(now) }),
          message: deps.t('expertPanelsInvite.notify.reminder', { count: questionIds.length, deadline: formatDate(row.deadline_at) }),
          createdAt: now,
        });
        return true;
      });
      if (sent) told += 1;
    }
    // Every group read was claimed (or claimed by another run): the next round reads the rest.
    if (due.length < MEMBERS_PER_ROUND) return told;
  }
}
