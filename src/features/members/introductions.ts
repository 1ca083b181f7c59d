import type { Clock } from '#src/core/clock.ts';
import { AppError, notFound, type FieldErrors } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import type { Translate } from '#src/core/i18n.ts';
import type { Db } from '#src/db/index.ts';
import { insertInCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { Community } from '#src/db/types.ts';
import type { Messages } from '#src/lib/messaging/outgoing.ts';
import type { Notifier } from '#src/features/notifications/index.ts';
import { activeMembersOf, findSnapshot, membersOf, snapshotsOf } from './queries.ts';
import type { IntroductionStatus, MemberSnapshot } from './types.ts';

/**
 * Introduction requests (issue 11, "Introductions"): a member asks the community team to introduce
 * them to another member, saying why; staff approve (with an optional note) or decline (with a
 * reason). On approval both members receive a mail introducing them to each other; on a decline the
 * requester receives the reason. Limits: one open request per pair (either direction), and a daily cap
 * per member over a rolling 24 hours.
 */

export const REASON_MIN = 20;
export const REASON_MAX = 1000;
export const NOTE_MAX = 1000;
export const DAILY_CAP = 5;
const DAY_MS = 24 * 60 * 60 * 1000;
/** How many reviewed requests the staff queue shows below the pending ones. */
export const RECENT_REVIEWED = 30;
/** The most pending requests the queue shows at once (oldest first). */
export const QUEUE_MAX = 200;
/** The most of one member's own requests their page lists (newest first). */
export const MINE_MAX = 100;

export type IntroDeps = {
  db: Db;
  clock: Clock;
  community: Community;
  t: Translate;
  messages: Messages;
  /** Where links in mail point: PUBLIC_URL and the path prefix. */
  publicUrl: string;
  /** The sender address (config MAIL_FROM). */
  mailFrom: string;
  /** The requester hears of the outcome in their notifications (issue 12). */
  notifier: Notifier;
};

export type IntroductionView = {
  id: number;
  status: IntroductionStatus;
  reason: string;
  reviewNote: string | null;
  createdAt: Date;
  reviewedAt: Date | null;
  requester: MemberSnapshot;
  target: MemberSnapshot;
  reviewer: { id: number; name: string } | null;
};

const fieldError = (field: string, key: string, values?: Record<string, unknown>): FieldErrors => ({ [field]: { code: 'Introductions.Invalid', key, values } });
const invalid = (field: string, key: string, values?: Record<string, unknown>) => new AppError('Introductions.Invalid', { fields: fieldError(field, key, values) });

/** The reason of a request, trimmed, within bounds; else a field message (named `reason`). */
export function checkReason(value: unknown, targetName: string): string {
  if (value != null && typeof value !== 'string') throw invalid('reason', 'introductions.errors.reasonRequired', { name: targetName });
  ensureText({ reason: value }, ['reason']);
  const reason = (value ?? '').trim();
  if (reason.length === 0) throw invalid('reason', 'introductions.errors.reasonRequired', { name: targetName });
  if (reason.length < REASON_MIN) throw invalid('reason', 'introductions.errors.reasonTooShort', { min: REASON_MIN });
  if (reason.length > REASON_MAX) throw invalid('reason', 'introductions.errors.reasonTooLong', { max: REASON_MAX, length: reason.length });
  return reason;
}

/** The staff note of an approval: optional, trimmed, at most NOTE_MAX characters; '' becomes null. */
export function checkNote(value: unknown): string | null {
  if (value != null && typeof value !== 'string') throw invalid('note', 'introductions.errors.noteTooLong', { max: NOTE_MAX });
  ensureText({ note: value }, ['note']);
  const note = (value ?? '').trim();
  if (note.length > NOTE_MAX) throw invalid('note', 'introductions.errors.noteTooLong', { max: NOTE_MAX });
  return note || null;
}

/** The reason of a decline: required, trimmed, at most NOTE_MAX characters. */
export function checkDeclineReason(value: unknown): string {
  if (value != null && typeof value !== 'string') throw invalid('reason', 'introductions.errors.declineReasonRequired');
  ensureText({ reason: value }, ['reason']);
  const reason = (value ?? '').trim();
  if (!reason) throw invalid('reason', 'introductions.errors.declineReasonRequired');
  if (reason.length > NOTE_MAX) throw invalid('reason', 'introductions.errors.declineReasonTooLong', { max: NOTE_MAX });
  return reason;
}

/**
 * The member one may ask to meet: an active member of this community other than oneself. Another
 * community's member, a deactivated one or no one at all are the same NotFound (nothing to learn).
 */
export async function introductionTarget(deps: Pick<IntroDeps, 'db' | 'community'>, requesterId: number, targetId: number): Promise<MemberSnapshot> {
  if (requesterId === targetId) throw new AppError('Introductions.Self');
  const target = await findSnapshot(deps.db, deps.community, targetId);
  if (!target) throw notFound();
  return target;
}

const isOpenPairViolation = (e: unknown) => {
  const err = e as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  return err?.code === '23505' && (err.constraint === 'introduction_requests_open_pair' || String(err.message ?? '').includes('introduction_requests_open_pair'));
};

/** Creates a request (PENDING) from the requester to the target, within the limits. */
export async function requestIntroduction(deps: IntroDeps, requesterId: number, input: { targetId: number; reason: unknown }): Promise<IntroductionView> {
  const target = await introductionTarget(deps, requesterId, input.targetId);
  const reason = checkReason(input.reason, target.name);
  const requester = await findSnapshot(deps.db, deps.community, requesterId);
  if (!requester) throw new AppError('Forbidden');
  const now = deps.clock.now();
  const openError = (reverse: boolean) => new AppError('Introductions.OpenRequest', reverse ? { values: { name: target.name }, fields: fieldError('reason', 'introductions.errors.openRequestReverse', { name: target.name }) } : { values: { name: target.name }, fields: fieldError('reason', 'introductions.errors.openRequest', { name: target.name }) });
  try {
    const id = await deps.db.transaction().execute(async (trx) => {
      // One request at a time per requester: the cap is counted under the lock of their membership.
      await selectInCommunity(trx, 'memberships', deps.community)
        .select('id')
        .where('user_id', '=', requesterId)
        .forUpdate()
        .executeTakeFirst();
      const since = new Date(now.getTime() - DAY_MS);
      const recent = await selectInCommunity(trx, 'introduction_requests', deps.community)
        .select(['created_at'])
        .where('requester_id', '=', requesterId)
        .where('created_at', '>', since)
        .orderBy('created_at', 'asc')
        .execute();
      if (recent.length >= DAILY_CAP) {
        const when = new Date(new Date(recent[recent.length - DAILY_CAP]!.created_at).getTime() + DAY_MS);
        const values = { cap: DAILY_CAP, when: `${when.toISOString().slice(0, 10)} ${when.toISOString().slice(11, 16)} UTC` };
        throw new AppError('Introductions.DailyCap', { values, fields: { reason: { code: 'Introductions.DailyCap', key: 'introductions.errors.dailyCap', values } } });
      }
      const open = await selectInCommunity(trx, 'introduction_requests', deps.community)
        .select(['requester_id'])
        .where('status', '=', 'PENDING')
        .where((eb) =>
          eb.or([
            eb.and([eb('requester_id', '=', requesterId), eb('target_id', '=', target.id)]),
            eb.and([eb('requester_id', '=', target.id), eb('target_id', '=', requesterId)]),
          ]),
        )
        .executeTakeFirst();
      if (open) throw openError(open.requester_id !== requesterId);
      const row = await insertInCommunity(trx, 'introduction_requests', deps.community, { requester_id: requesterId, target_id: target.id, reason, status: 'PENDING', created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
    return (await findIntroduction(deps, id))!;
  } catch (e) {
    // Two requests of the pair at once: the partial unique index lets one in.
    if (isOpenPairViolation(e)) {
      const other = await selectInCommunity(deps.db, 'introduction_requests', deps.community)
        .select('requester_id')
        .where('status', '=', 'PENDING')
        .where('requester_id', 'in', [requesterId, target.id])
        .where('target_id', 'in', [requesterId, target.id])
        .executeTakeFirst();
      throw openError(other !== undefined && other.requester_id !== requesterId);
    }
    throw e;
  }
}

/** Requests with both members' snapshots and the reviewer's name (tenant-scoped). */
function introductionsQuery(deps: Pick<IntroDeps, 'db' | 'community'>) {
  return selectInCommunityAs(deps.db, 'introduction_requests', 'ir', deps.community)
    .leftJoin('users as reviewer', 'reviewer.id', 'ir.reviewer_id')
    .select([
      'ir.id',
      'ir.status',
      'ir.reason',
      'ir.review_note',
      'ir.created_at',
      'ir.reviewed_at',
      'ir.requester_id',
      'ir.target_id',
      'ir.reviewer_id',
      'reviewer.first_name as reviewer_first',
      'reviewer.last_name as reviewer_last',
    ]);
}

type IntroRow = Awaited<ReturnType<ReturnType<typeof introductionsQuery>['executeTakeFirstOrThrow']>>;

/** The snapshots of the members of these rows, in one query; members no longer in the community read as unknown. */
async function withMembers(deps: Pick<IntroDeps, 'db' | 'community'>, rows: IntroRow[]): Promise<IntroductionView[]> {
  if (rows.length === 0) return [];
  const member = await snapshotsOf(deps.db, deps.community, rows.flatMap((r) => [r.requester_id, r.target_id]));
  return rows.map((r) => ({
    id: r.id,
    status: r.status as IntroductionStatus,
    reason: r.reason,
    reviewNote: r.review_note,
    createdAt: new Date(r.created_at),
    reviewedAt: r.reviewed_at ? new Date(r.reviewed_at) : null,
    requester: member(r.requester_id),
    target: member(r.target_id),
    reviewer: r.reviewer_id ? { id: r.reviewer_id, name: `${r.reviewer_first ?? ''} ${r.reviewer_last ?? ''}`.trim() } : null,
  }));
}

export async function findIntroduction(deps: Pick<IntroDeps, 'db' | 'community'>, id: number): Promise<IntroductionView | undefined> {
  const row = await introductionsQuery(deps).where('ir.id', '=', id).executeTakeFirst();
  return row ? (await withMembers(deps, [row]))[0] : undefined;
}

/** The member's own requests, newest first. */
export async function listMyIntroductions(deps: Pick<IntroDeps, 'db' | 'community'>, requesterId: number): Promise<IntroductionView[]> {
  const rows = await introductionsQuery(deps).where('ir.requester_id', '=', requesterId).orderBy('ir.created_at', 'desc').orderBy('ir.id', 'desc').limit(MINE_MAX).execute();
  return withMembers(deps, rows);
}

/** The ids of members with whom the member has an open request (either direction). */
export async function openPartners(deps: Pick<IntroDeps, 'db' | 'community'>, userId: number): Promise<Set<number>> {
  const rows = await selectInCommunity(deps.db, 'introduction_requests', deps.community)
    .select(['requester_id', 'target_id'])
    .where('status', '=', 'PENDING')
    .where((eb) => eb.or([eb('requester_id', '=', userId), eb('target_id', '=', userId)]))
    .execute();
  return new Set(rows.map((r) => (r.requester_id === userId ? r.target_id : r.requester_id)));
}

/** The open request between two members, either direction: who asked, or undefined. */
export async function openRequestBetween(deps: Pick<IntroDeps, 'db' | 'community'>, a: number, b: number): Promise<{ requesterId: number } | undefined> {
  const row = await selectInCommunity(deps.db, 'introduction_requests', deps.community)
    .select('requester_id')
    .where('status', '=', 'PENDING')
    .where('requester_id', 'in', [a, b])
    .where('target_id', 'in', [a, b])
    .executeTakeFirst();
  return row ? { requesterId: row.requester_id } : undefined;
}

/** The staff queue: pending requests oldest first, then the most recently reviewed. */
export async function introductionQueue(deps: Pick<IntroDeps, 'db' | 'community'>): Promise<{ pending: IntroductionView[]; reviewed: IntroductionView[] }> {
  const [pending, reviewed] = await Promise.all([
    introductionsQuery(deps).where('ir.status', '=', 'PENDING').orderBy('ir.created_at', 'asc').orderBy('ir.id', 'asc').limit(QUEUE_MAX).execute(),
    introductionsQuery(deps).where('ir.status', '<>', 'PENDING').orderBy('ir.reviewed_at', 'desc').orderBy('ir.id', 'desc').limit(RECENT_REVIEWED).execute(),
  ]);
  const all = await withMembers(deps, [...pending, ...reviewed]);
  return { pending: all.slice(0, pending.length), reviewed: all.slice(pending.length) };
}

type Contact = { id: number; first_name: string; last_name: string; email: string; company_name: string | null; job_title: string | null; active: boolean };

async function contactsOf(trx: Db, community: Community, ids: number[]): Promise<Map<number, Contact>> {
  const rows = await membersOf(trx, community)
    .select(['users.id', 'users.first_name', 'users.last_name', 'users.email', 'memberships.company_name', 'memberships.job_title', 'memberships.is_active', 'users.is_active as user_active'])
    .where('users.id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, { ...r, active: r.is_active && r.user_active }]));
}

/**
 * Reviews a pending request: one conditional update (status = 'PENDING'), so of two reviews at once
 * only one wins; the mails and the staff action are in the same transaction.
 */
async function review(
  deps: IntroDeps,
  reviewerId: number,
  id: number,
  decision: { status: 'APPROVED'; note: string | null } | { status: 'DECLINED'; reason: string },
): Promise<IntroductionView> {
  const note = decision.status === 'APPROVED' ? decision.note : decision.reason;
  const now = deps.clock.now();
  const c = deps.community;
  await deps.db.transaction().execute(async (trx) => {
    const current = await selectInCommunity(trx, 'introduction_requests', c)
      .select(['id', 'status', 'requester_id', 'target_id', 'reason'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!current) throw notFound();
    if (current.status !== 'PENDING') throw new AppError('Introductions.AlreadyReviewed');
    const contacts = await contactsOf(trx, c, [current.requester_id, current.target_id]);
    const requester = contacts.get(current.requester_id);
    const target = contacts.get(current.target_id);
    if (decision.status === 'APPROVED' && (!requester?.active || !target?.active)) throw new AppError('Introductions.MemberInactive');
    const updated = await updateInCommunity(trx, 'introduction_requests', c)
      .set({ status: decision.status, reviewer_id: reviewerId, review_note: note, reviewed_at: now })
      .where('id', '=', id)
      .where('status', '=', 'PENDING')
      .returning('id')
      .executeTakeFirst();
    if (!updated) throw new AppError('Introductions.AlreadyReviewed');
    await insertInCommunity(trx, 'staff_actions', c, {
      actor_id: reviewerId,
      member_id: current.requester_id,
      action: decision.status === 'APPROVED' ? 'introduction.approve' : 'introduction.decline',
      detail: JSON.stringify({ requestId: id, targetId: current.target_id, ...(note ? { note } : {}) }),
      created_at: now,
    }).execute();
    const from = `"${c.name.replace(/"/g, '')}" <${deps.mailFrom}>`;
    const t = deps.t;
    const name = (p: Contact) => `${p.first_name} ${p.last_name}`.trim();
    if (decision.status === 'APPROVED') {
      const lines = (p: Contact) =>
        t('introductions.mail.memberLines', {
          name: name(p),
          email: p.email,
          titleLine: p.job_title ? t('introductions.mail.titleLine', { title: p.job_title }) : '',
          companyLine: p.company_name ? t('introductions.mail.companyLine', { company: p.company_name }) : '',
        });
      const noteLines = note ? t('introductions.mail.noteLines', { note }) : '';
      for (const [to, other] of [
        [requester!, target!],
        [target!, requester!],
      ] as const) {
        await deps.messages.mail(trx, {
          to: to.email,
          from,
          subject: t('introductions.mail.introSubject', { community: c.name, other: name(other) }),
          text: t('introductions.mail.introText', {
            firstName: to.first_name,
            community: c.name,
            other: name(other),
            otherLines: lines(other),
            otherEmail: other.email,
            requester: to.id === requester!.id ? t('introductions.mail.you') : name(requester!),
            reason: current.reason,
            noteLines,
          }),
        });
      }
    } else if (requester) {
      await deps.messages.mail(trx, {
        to: requester.email,
        from,
        subject: t('introductions.mail.declinedSubject', { community: c.name, target: target ? name(target) : '—' }),
        text: t('introductions.mail.declinedText', {
          firstName: requester.first_name,
          community: c.name,
          target: target ? name(target) : '—',
          reason: note,
          link: `${deps.publicUrl}/members/introductions`,
        }),
      });
    }
    // The requester's notification of the outcome, with the status change itself.
    await deps.notifier.notify(trx, {
      communityId: c.id,
      userId: current.requester_id,
      kind: 'introductions',
      url: '/members/introductions',
      message: t(decision.status === 'APPROVED' ? 'introductions.notifications.approved' : 'introductions.notifications.declined', {
        target: target ? name(target) : '—',
      }),
      createdAt: now,
    });
  });
  return (await findIntroduction(deps, id))!;
}

export async function approveIntroduction(deps: IntroDeps, reviewerId: number, id: number, note: unknown): Promise<IntroductionView> {
  return review(deps, reviewerId, id, { status: 'APPROVED', note: checkNote(note) });
}

export async function declineIntroduction(deps: IntroDeps, reviewerId: number, id: number, reason: unknown): Promise<IntroductionView> {
  return review(deps, reviewerId, id, { status: 'DECLINED', reason: checkDeclineReason(reason) });
}

/**
 * Whether two members of this community were introduced: a request between them (either direction)
 * that the staff approved, and both still active members. One statement; oneself is never a pair.
 * The conversations area asks it before two members may write to each other (issue 28).
 */
export async function introducedPair(db: Db, community: Tenant, a: number, b: number): Promise<boolean> {
  if (a === b) return false;
  const row = await selectInCommunity(db, 'introduction_requests', community)
    .select('introduction_requests.id')
    .where('introduction_requests.status', '=', 'APPROVED')
    .where('introduction_requests.requester_id', 'in', [a, b])
    .where('introduction_requests.target_id', 'in', [a, b])
    .where((eb) => eb.exists(activeMembersOf(db, community).select('users.id').where('users.id', '=', a)))
    .where((eb) => eb.exists(activeMembersOf(db, community).select('users.id').where('users.id', '=', b)))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
