import { sql } from 'kysely';
import { AppError, type ErrorCode, type FieldErrors } from '#src/core/errors.ts';
import { hasForbiddenCharacters, INVALID_CHARACTERS_CODE, INVALID_CHARACTERS_KEY } from '#src/core/fields.ts';
import { parseId } from '#src/core/ids.ts';
import type { Translate } from '#src/core/i18n.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, selectInCommunityAs } from '#src/db/tenancy.ts';
import { isStaffBadge, REASON_MAX, STAFF_BADGES, type BadgeKey, type StaffBadge } from './catalogue.ts';
import { tellNewBadge, type BadgeDeps } from './evaluate.ts';
import type { BadgeLogRow, BadgeMemberRow, StaffBadgeHolder, StaffBadgesData } from './types.ts';

/**
 * The staff's badges (issue 27, /admin/marketplace/badges and GraphQL on /graphqlAdmin): award or
 * revoke a staff badge (the catalogue's STAFF_BADGES) for a member of the community, each change
 * logged in `badge_awards` with who, when and why in the same transaction. An award tells the member
 * once (the badge's row is inserted ON CONFLICT DO NOTHING: a second award of a badge held is refused
 * with its message, and tells nobody).
 */

/** The staff member acting (the guardian has checked they are the community's staff). */
export type BadgeStaff = { userId: number };

export const SEARCH_MAX = 200;
const CANDIDATES_MAX = 20;
const LOG_PAGE = 50;

const fieldError = (code: ErrorCode, field: string, key: string, values?: Record<string, unknown>) => new AppError(code, { key, values, fields: { [field]: { code, key, values } } });

/** A staff search's text, or null when empty (too long or with control characters: the field's message). */
export function searchTermOf(value: unknown): string | null {
  const q = typeof value === 'string' ? value.trim() : '';
  if (!q) return null;
  if (q.length > SEARCH_MAX) throw fieldError('Badges.Invalid', 'q', 'badges.errors.searchTooLong', { max: SEARCH_MAX });
  if (hasForbiddenCharacters(q)) throw fieldError(INVALID_CHARACTERS_CODE, 'q', INVALID_CHARACTERS_KEY);
  return q;
}

/** `%`, `_` and `\` match themselves in an ILIKE pattern. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/** The member a staff form names (their id, or their email address): a member of this community, else the field's message. */
export async function memberNamed(deps: Pick<BadgeDeps, 'db' | 'community'>, value: string): Promise<{ userId: number; name: string }> {
  const text = value.trim();
  if (!text) throw fieldError('Badges.Invalid', 'member', 'badges.errors.memberRequired');
  const id = /^\d+$/.test(text) ? parseId(text) : null;
  if (id === null && !text.includes('@')) throw fieldError('Badges.Invalid', 'member', 'badges.errors.memberFormat');
  const q = selectInCommunity(deps.db, 'memberships', deps.community).innerJoin('users', 'users.id', 'memberships.user_id').select(['users.id', 'users.first_name', 'users.last_name']);
  const row = await (id !== null ? q.where('users.id', '=', id) : q.where(sql`lower(users.email)`, '=', text.toLowerCase())).executeTakeFirst();
  if (!row) throw fieldError('Badges.Invalid', 'member', 'badges.errors.memberNotFound');
  return { userId: row.id, name: `${row.first_name} ${row.last_name}`.trim() };
}

function checkInput(input: { badge: string; reason: string }): { badge: StaffBadge; reason: string } {
  const fields: FieldErrors = {};
  if (!isStaffBadge(input.badge)) fields.badge = { code: 'Badges.Invalid', key: 'badges.errors.badgeUnknown' };
  const reason = input.reason.trim();
  if (reason.length > REASON_MAX) fields.reason = { code: 'Badges.Invalid', key: 'badges.errors.reasonTooLong', values: { max: REASON_MAX } };
  else if (hasForbiddenCharacters(reason)) fields.reason = { code: INVALID_CHARACTERS_CODE, key: INVALID_CHARACTERS_KEY };
  if (Object.keys(fields).length) throw new AppError('Badges.Invalid', { fields });
  return { badge: input.badge as StaffBadge, reason };
}

/** Awards a staff badge to the member the form names; logged and told to the member, once. */
export async function awardStaffBadge(deps: BadgeDeps, staff: BadgeStaff, input: { member: string; badge: string; reason: string }): Promise<{ userId: number; badge: StaffBadge }> {
  const { badge, reason } = checkInput(input);
  const member = await memberNamed(deps, input.member);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const fresh = await insertInCommunity(trx, 'member_badges', deps.community, { user_id: member.userId, badge, level: 0, awarded_at: now, awarded_by: staff.userId })
      .onConflict((oc) => oc.constraint('member_badges_once').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!fresh) throw fieldError('Badges.AlreadyHeld', 'badge', 'badges.errors.alreadyHeld', { name: member.name });
    await insertInCommunity(trx, 'badge_awards', deps.community, { user_id: member.userId, badge, action: 'award', reason, actor_id: staff.userId, created_at: now }).execute();
    await tellNewBadge(trx, deps, { userId: member.userId, badge, level: 0 });
  });
  return { userId: member.userId, badge };
}

/** Revokes a staff badge the member holds; logged (the member is not told). */
export async function revokeStaffBadge(deps: BadgeDeps, staff: BadgeStaff, input: { member: string; badge: string; reason: string }): Promise<{ userId: number; badge: StaffBadge }> {
  const { badge, reason } = checkInput(input);
  const member = await memberNamed(deps, input.member);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const gone = await deleteInCommunity(trx, 'member_badges', deps.community).where('user_id', '=', member.userId).where('badge', '=', badge).returning('id').executeTakeFirst();
    if (!gone) throw fieldError('Badges.NotHeld', 'badge', 'badges.errors.notHeld', { name: member.name });
    await insertInCommunity(trx, 'badge_awards', deps.community, { user_id: member.userId, badge, action: 'revoke', reason, actor_id: staff.userId, created_at: now }).execute();
  });
  return { userId: member.userId, badge };
}

const fullName = (first: string, last: string) => `${first} ${last}`.trim();

/** Members whose name, email or username holds the text, with the staff badges they hold. */
export async function badgeCandidates(deps: Pick<BadgeDeps, 'db' | 'community' | 't'>, q: string): Promise<BadgeMemberRow[]> {
  const pattern = likePattern(q);
  const rows = await selectInCommunity(deps.db, 'memberships', deps.community)
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id', 'users.first_name', 'users.last_name', 'users.email'])
    .where((eb) => eb.or([eb(sql`users.first_name || ' ' || users.last_name`, 'ilike', pattern), eb('users.email', 'ilike', pattern), eb('users.username', 'ilike', pattern)]))
    .orderBy('users.last_name')
    .orderBy('users.id')
    .limit(CANDIDATES_MAX)
    .execute();
  if (rows.length === 0) return [];
  const held = await selectInCommunity(deps.db, 'member_badges', deps.community)
    .select(['user_id', 'badge'])
    .where('user_id', 'in', rows.map((r) => r.id))
    .where('badge', 'in', [...STAFF_BADGES])
    .execute();
  return rows.map((r) => ({
    userId: r.id,
    name: fullName(r.first_name, r.last_name),
    email: r.email,
    staffBadges: held.filter((h) => h.user_id === r.id).map((h) => deps.t(`badges.catalogue.${h.badge}.name`, { years: 0 })),
  }));
}

/** The staff badges held in the community, by badge then name (each row carries its revoke form). */
export async function staffBadgeHolders(deps: Pick<BadgeDeps, 'db' | 'community' | 't'>): Promise<StaffBadgeHolder[]> {
  const rows = await selectInCommunityAs(deps.db, 'member_badges', 'b', deps.community)
    .innerJoin('users as u', 'u.id', 'b.user_id')
    .select(['b.user_id', 'b.badge', 'b.awarded_at', 'u.first_name', 'u.last_name', 'u.email'])
    .where('b.badge', 'in', [...STAFF_BADGES])
    .orderBy('b.badge')
    .orderBy('u.last_name')
    .orderBy('b.id')
    .limit(500)
    .execute();
  return rows.map((r) => ({
    userId: r.user_id,
    name: fullName(r.first_name, r.last_name),
    email: r.email,
    badge: r.badge as BadgeKey,
    badgeName: deps.t(`badges.catalogue.${r.badge}.name`, { years: 0 }),
    awardedAt: new Date(r.awarded_at),
  }));
}

/** The log of awards and revocations, newest first, a page at a time (`after`: the last row's id). */
export async function badgeLog(deps: Pick<BadgeDeps, 'db' | 'community' | 't'>, after: number | null): Promise<{ rows: BadgeLogRow[]; next: string | null }> {
  let q = selectInCommunityAs(deps.db, 'badge_awards', 'l', deps.community)
    .innerJoin('users as m', 'm.id', 'l.user_id')
    .leftJoin('users as a', 'a.id', 'l.actor_id')
    .select(['l.id', 'l.created_at', 'l.action', 'l.badge', 'l.reason', 'l.user_id', 'm.first_name', 'm.last_name', 'a.first_name as actor_first', 'a.last_name as actor_last'])
    .orderBy('l.id', 'desc')
    .limit(LOG_PAGE + 1);
  if (after !== null) q = q.where('l.id', '<', after);
  const rows = await q.execute();
  const page = rows.slice(0, LOG_PAGE);
  return {
    rows: page.map((r) => ({
      id: r.id,
      at: new Date(r.created_at),
      action: r.action === 'revoke' ? 'revoke' : 'award',
      badgeName: deps.t(`badges.catalogue.${r.badge}.name`, { years: 0 }),
      member: fullName(r.first_name, r.last_name),
      memberId: r.user_id,
      actor: r.actor_first === null ? null : fullName(r.actor_first, r.actor_last ?? ''),
      reason: r.reason,
    })),
    next: rows.length > LOG_PAGE ? String(page[page.length - 1]!.id) : null,
  };
}

/** Everything the staff's badges tab shows. */
export async function staffBadgesData(deps: Pick<BadgeDeps, 'db' | 'community' | 't'>, input: { q: string | null; after: string | null }): Promise<StaffBadgesData> {
  const afterId = input.after === null ? null : parseId(input.after);
  const [holders, candidates, log] = await Promise.all([
    staffBadgeHolders(deps),
    input.q ? badgeCandidates(deps, input.q) : Promise.resolve(null),
    badgeLog(deps, afterId),
  ]);
  const t: Translate = deps.t;
  return {
    badges: STAFF_BADGES.map((key) => ({ key, name: t(`badges.catalogue.${key}.name`, { years: 0 }) })),
    holders,
    q: input.q ?? '',
    candidates,
    log: log.rows,
    next: log.next,
    after: afterId === null ? null : String(afterId),
  };
}

