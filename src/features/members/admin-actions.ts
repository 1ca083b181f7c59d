import { randomInt } from 'node:crypto';
import { AppError } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import { isStrongPassword } from '#shared/password-rules.ts';
import { hashPassword } from '#src/core/passwords.ts';
import type { Db } from '#src/db/index.ts';
import { crossCommunity, insertInCommunity, selectInCommunity, updateInCommunity } from '#src/db/tenancy.ts';
import { PASSWORD_RESET_JOB } from '#src/features/auth/index.ts';
import { DUNNING_DAYS } from '#src/features/payments/index.ts';
import { staffCommunities, type AdminMembersDeps, type Staff, type StaffCommunity } from './admin.ts';
import { enqueueBadgeCheck } from '#src/features/badges/index.ts';

/**
 * The staff's actions on one member (issue 11): notes, the staff history, a reset link, a generated
 * password, activation and the moderator flag. Each is recorded with who and when (staff_actions).
 * The search and the admin view are in admin.ts.
 */

export type MemberNote = { id: number; body: string; createdAt: Date; authorId: number | null; authorName: string | null };
export type StaffActionEntry = { id: number; action: string; detail: string | null; createdAt: Date; actorId: number | null; actorName: string | null };

/** The member's notes, newest first (the timeline). */
export async function listNotes(deps: Pick<AdminMembersDeps, 'db'>, community: StaffCommunity, userId: number): Promise<MemberNote[]> {
  const rows = await selectInCommunity(deps.db, 'member_notes', community)
    .leftJoin('users as author', 'author.id', 'member_notes.author_id')
    .select(['member_notes.id', 'member_notes.body', 'member_notes.created_at', 'member_notes.author_id', 'author.first_name', 'author.last_name'])
    .where('member_notes.member_id', '=', userId)
    .orderBy('member_notes.created_at', 'desc')
    .orderBy('member_notes.id', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    body: r.body,
    createdAt: new Date(r.created_at),
    authorId: r.author_id,
    authorName: r.first_name === null ? null : `${r.first_name} ${r.last_name ?? ''}`.trim(),
  }));
}

/** What staff did to the member, newest first. */
export async function listStaffActions(deps: Pick<AdminMembersDeps, 'db'>, community: StaffCommunity, userId: number): Promise<StaffActionEntry[]> {
  const rows = await selectInCommunity(deps.db, 'staff_actions', community)
    .leftJoin('users as actor', 'actor.id', 'staff_actions.actor_id')
    .select(['staff_actions.id', 'staff_actions.action', 'staff_actions.detail', 'staff_actions.created_at', 'staff_actions.actor_id', 'actor.first_name', 'actor.last_name'])
    .where('staff_actions.member_id', '=', userId)
    .orderBy('staff_actions.created_at', 'desc')
    .orderBy('staff_actions.id', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    detail: r.detail,
    createdAt: new Date(r.created_at),
    actorId: r.actor_id,
    actorName: r.first_name === null ? null : `${r.first_name} ${r.last_name ?? ''}`.trim(),
  }));
}

// ---- Actions ----

export const STAFF_ACTIONS = ['note_added', 'password_reset_sent', 'password_generated', 'activated', 'deactivated', 'moderator_on', 'moderator_off'] as const;
export type StaffAction = (typeof STAFF_ACTIONS)[number];

async function record(db: Db, now: Date, community: StaffCommunity, staff: Staff, memberId: number, action: StaffAction, detail: string | null = null) {
  await insertInCommunity(db, 'staff_actions', community, { actor_id: staff.userId, member_id: memberId, action, detail, created_at: now }).execute();
}

/** The member's membership in the community (any state), or NotFound. */
async function membershipOf(db: Db, community: StaffCommunity, userId: number) {
  const row = await selectInCommunity(db, 'memberships', community)
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['memberships.id', 'memberships.is_active', 'memberships.is_moderator', 'users.email', 'users.id as user_id'])
    .where('memberships.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new AppError('NotFound');
  return row;
}

export const NOTE_MAX = 2000;

export async function addNote(deps: AdminMembersDeps, staff: Staff, community: StaffCommunity, userId: number, input: { body: unknown }): Promise<MemberNote> {
  const body = typeof input.body === 'string' ? input.body.trim() : '';
  ensureText({ body }, ['body']);
  if (!body) throw new AppError(900, { fields: { body: { code: 900, key: 'adminMembers.notes.required' } } });
  if (body.length > NOTE_MAX) throw new AppError('BadRequest.Validation', { fields: { body: { code: 'BadRequest.Validation', key: 'adminMembers.notes.tooLong', values: { max: NOTE_MAX } } } });
  await membershipOf(deps.db, community, userId);
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const note = await insertInCommunity(trx, 'member_notes', community, { member_id: userId, author_id: staff.userId, body, created_at: now })
      .returning(['id', 'body', 'created_at'])
      .executeTakeFirstOrThrow();
    await record(trx, now, community, staff, userId, 'note_added');
    return { id: note.id, body: note.body, createdAt: new Date(note.created_at), authorId: staff.userId, authorName: null };
  });
}

/**
 * Sends the member a password reset link by the sign-in area's own path: its job (on the durable
 * queue, enqueued in the same transaction as the record) makes the token and the mail.
 */
export async function sendPasswordReset(deps: AdminMembersDeps, staff: Staff, community: StaffCommunity, userId: number): Promise<void> {
  const member = await membershipOf(deps.db, community, userId);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await deps.jobs.enqueue(trx, PASSWORD_RESET_JOB, { communityId: community.id, email: member.email });
    await record(trx, now, community, staff, userId, 'password_reset_sent');
  });
}

const LOWER = 'abcdefghijkmnpqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SYMBOLS = '!#%+-=?@';
export const GENERATED_PASSWORD_LENGTH = 20;

/** A strong random password (crypto random; lower, upper, digits and symbols; no look-alike characters). */
export function generatePassword(length = GENERATED_PASSWORD_LENGTH): string {
  const all = LOWER + UPPER + DIGITS + SYMBOLS;
  const pick = (set: string) => set[randomInt(set.length)]!;
  for (;;) {
    const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(SYMBOLS)];
    while (chars.length < length) chars.push(pick(all));
    // Shuffle (Fisher-Yates) so the required classes are not always first.
    for (let i = chars.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [chars[i], chars[j]] = [chars[j]!, chars[i]!];
    }
    const password = chars.join('');
    if (isStrongPassword(password)) return password;
  }
}

/**
 * Sets a new generated password and returns it: the caller shows it once. Only its hash is stored; the
 * member's sessions end (the old password no longer holds). The record says that it happened, never what.
 */
export async function setGeneratedPassword(deps: AdminMembersDeps, staff: Staff, community: StaffCommunity, userId: number): Promise<string> {
  await membershipOf(deps.db, community, userId);
  // A user's password is one for every community. Showing a new one to the staff of one community
  // must not hand them the member's place in another they do not run, nor another admin's account:
  // for those, the reset link (mailed to the member) is the way.
  if (userId !== staff.userId) {
    const [theirs, mine] = await Promise.all([
      // The staff members area's cross-brand check (named cross-community query): the member's places in every community.
      crossCommunity(deps.db).selectFrom('memberships').select(['community_id', 'roles']).where('user_id', '=', userId).execute(),
      staffCommunities(deps, staff),
    ]);
    const administered = new Set(mine.map((c) => c.id));
    if (theirs.some((m) => m.roles.includes('ADMIN') || !administered.has(m.community_id))) {
      throw new AppError('Forbidden', { fields: { password: { code: 'Forbidden', key: 'adminMembers.actions.passwordElsewhere' } } });
    }
  }
  const password = generatePassword();
  const hash = await hashPassword(password);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: hash, updated_at: now }).where('id', '=', userId).execute();
    // The password is one for every community, so its tokens and sessions end in every community: the
    // person's password (named cross-community query).
    await crossCommunity(trx).updateTable('password_tokens').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
    if (userId !== staff.userId) await crossCommunity(trx).updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
    await record(trx, now, community, staff, userId, 'password_generated');
  });
  return password;
}

/**
 * Activates or deactivates the member in the community. Deactivating ends their sessions there at
 * once (revoked; the session look-up also refuses an inactive membership) and blocks sign-in. An
 * admin cannot deactivate themselves.
 */
export async function setActive(deps: AdminMembersDeps, staff: Staff, community: StaffCommunity, userId: number, active: boolean): Promise<void> {
  if (!active && userId === staff.userId) throw new AppError('Forbidden', { fields: { active: { code: 'Forbidden', key: 'adminMembers.actions.notSelf' } } });
  const member = await membershipOf(deps.db, community, userId);
  if (member.is_active === active) return;
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await updateInCommunity(trx, 'memberships', community).set({ is_active: active }).where('id', '=', member.id).execute();
    if (!active) {
      await updateInCommunity(trx, 'sessions', community)
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .execute();
      // No more dunning mail to a deactivated member; the subscription is otherwise left as it is.
      await updateInCommunity(trx, 'subscriptions', community).set({ next_dunning_at: null, updated_at: now }).where('user_id', '=', userId).where('next_dunning_at', 'is not', null).execute();
    } else {
      // Reactivated: a past-due member whose dunning was stopped resumes at its next step (from now).
      await updateInCommunity(trx, 'subscriptions', community)
        .set({ next_dunning_at: now, updated_at: now })
        .where('user_id', '=', userId)
        .where('status', '=', 'past_due')
        .where('next_dunning_at', 'is', null)
        .where('dunning_count', '<', DUNNING_DAYS.length)
        .execute();
    }
    await record(trx, now, community, staff, userId, active ? 'activated' : 'deactivated');
  });
}

/** Marks or unmarks the member as a forum moderator of the community. */
export async function setModerator(deps: AdminMembersDeps, staff: Staff, community: StaffCommunity, userId: number, isModerator: boolean): Promise<void> {
  const member = await membershipOf(deps.db, community, userId);
  if (member.is_moderator === isModerator) return;
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await updateInCommunity(trx, 'memberships', community).set({ is_moderator: isModerator }).where('id', '=', member.id).execute();
    await record(trx, now, community, staff, userId, isModerator ? 'moderator_on' : 'moderator_off');
    // The moderator badge comes with the flag and goes with it (checked by the badges' job once this commits).
    await enqueueBadgeCheck(deps.jobs, trx, community, [userId]);
  });
}
