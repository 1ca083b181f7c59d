import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import type { Clock } from '#src/core/clock.ts';
import { AppError } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import { isStrongPassword } from '#src/core/password-rules.ts';
import { hashPassword } from '#src/core/passwords.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity } from '#src/db/tenancy.ts';
import type { JobQueue } from '#src/lib/jobs/queue.ts';
import { PASSWORD_RESET_JOB } from '#src/features/auth/service.ts';
import { SNAPSHOT_COLUMNS, toSnapshot } from './queries.ts';
import type { MemberAdminView } from './types.ts';

/**
 * The staff's members area: search across every community the admin administers, the admin view of
 * one member, member notes, and the staff actions (password reset link, generated password, activate
 * or deactivate, forum moderator), each recorded in staff_actions with who and when.
 */

export type AdminMembersDeps = { db: Db; clock: Clock; jobs: JobQueue };
/** The signed-in admin (their user id): what they may see and do follows from their ADMIN memberships. */
export type Staff = { userId: number };

export type StaffCommunity = { id: number; code: string; name: string };

/** Communities where the user holds ADMIN in an active membership, by name. */
export async function staffCommunities(deps: Pick<AdminMembersDeps, 'db'>, staff: Staff): Promise<StaffCommunity[]> {
  return deps.db
    .selectFrom('memberships')
    .innerJoin('communities', 'communities.id', 'memberships.community_id')
    .select(['communities.id', 'communities.code', 'communities.name'])
    .where('memberships.user_id', '=', staff.userId)
    .where('memberships.is_active', '=', true)
    .where((eb) => eb(eb.val('ADMIN'), '=', eb.fn.any('memberships.roles')))
    .orderBy('communities.name')
    .execute();
}

/** The community of this code if the admin administers it; NotFound otherwise (no telling which exist). */
export async function staffCommunity(deps: Pick<AdminMembersDeps, 'db'>, staff: Staff, code: string): Promise<StaffCommunity> {
  const found = (await staffCommunities(deps, staff)).find((c) => c.code.toLowerCase() === code.toLowerCase());
  if (!found) throw new AppError('NotFound');
  return found;
}

// ---- Search ----

export const MEMBER_SORTS = ['name', 'joined', 'lastAccess'] as const;
export type MemberSort = (typeof MEMBER_SORTS)[number];
export const ACTIVE_STATES = ['all', 'active', 'deactivated'] as const;
export type ActiveState = (typeof ACTIVE_STATES)[number];

export type MemberSearch = {
  /** Words of the name, email or company (and title, location, industry). */
  q?: string | null;
  /** A community code among the admin's; null: all of them. */
  community?: string | null;
  standing?: string | null;
  founding?: boolean | null;
  tier?: string | null;
  active?: ActiveState;
  sort?: MemberSort;
  /** Keyset cursor of the last row of the previous page. */
  after?: string | null;
  /** Page size (1 to 100, default 25). */
  first?: number;
};

export const MEMBERS_PAGE_SIZE = 25;
export const MEMBERS_EXPORT_MAX = 5000;
const QUERY_MAX = 200;

export type MemberRow = {
  userId: number;
  membershipId: number;
  name: string;
  email: string;
  communityCode: string;
  communityName: string;
  standing: string | null;
  membershipTier: string | null;
  isFounding: boolean;
  joinedAt: Date;
  lastAccessedAt: Date | null;
  isActive: boolean;
  companyName: string | null;
};

const EPOCH = new Date(0);

/** The sort key of a row, as the cursor carries it. */
function sortKey(sort: MemberSort, row: { sort_name: string; joined_at: Date | string; last_accessed_at: Date | string | null }): string {
  if (sort === 'name') return row.sort_name;
  if (sort === 'joined') return new Date(row.joined_at).toISOString();
  return new Date(row.last_accessed_at ?? EPOCH).toISOString();
}

/** Cursor: base64url of JSON [sort, key, membership id]; anything else is no cursor (the first page). */
export function encodeCursor(sort: MemberSort, key: string, id: number): string {
  return Buffer.from(JSON.stringify([sort, key, id])).toString('base64url');
}

function decodeCursor(sort: MemberSort, value: string | null | undefined): { key: string | Date; id: number } | null {
  if (!value || value.length > 1000) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 3) return null;
    const [s, key, id] = parsed as unknown[];
    if (s !== sort || typeof key !== 'string' || typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) return null;
    if (sort === 'name') return key.length <= 1000 && !/[\u0000]/.test(key) ? { key, id } : null;
    // Only the form encodeCursor writes (a forged year 10000 or -1 would reach SQL as an error).
    if (!/^(19[7-9]\d|[2-9]\d{3})-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(key)) return null;
    const at = new Date(key);
    return Number.isNaN(at.getTime()) ? null : { key: at, id };
  } catch {
    return null;
  }
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Checks the free-text filters (they reach SQL): no control characters, bounded length. */
function checkSearch(query: MemberSearch) {
  ensureText({ q: query.q, standing: query.standing, tier: query.tier, community: query.community });
  for (const [name, value] of Object.entries({ q: query.q, standing: query.standing, tier: query.tier, community: query.community })) {
    if (typeof value === 'string' && value.length > QUERY_MAX) throw new AppError('BadRequest.Validation', { fields: { [name]: { code: 'BadRequest.Validation', key: 'adminMembers.errors.tooLong' } } });
  }
}

/** The members of the admin's communities with the search's filters (no order, no page). */
async function filtered(deps: Pick<AdminMembersDeps, 'db'>, staff: Staff, query: MemberSearch) {
  checkSearch(query);
  const communities = await staffCommunities(deps, staff);
  let ids = communities.map((c) => c.id);
  if (query.community) ids = communities.filter((c) => c.code.toLowerCase() === query.community!.toLowerCase()).map((c) => c.id);
  let q = deps.db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .innerJoin('communities', 'communities.id', 'memberships.community_id')
    // No community at all (not an admin anywhere, or a code not theirs): nothing matches.
    .where('memberships.community_id', 'in', ids.length > 0 ? ids : [-1]);
  const text = query.q?.trim().toLowerCase();
  if (text) {
    const like = `%${escapeLike(text)}%`;
    q = q.where((eb) =>
      eb.or([
        eb(sql<boolean>`memberships.search_vector @@ plainto_tsquery('simple', ${text})`, '=', true),
        eb('memberships.search_text', 'like', like),
        eb(eb.fn('lower', ['users.email']), 'like', like),
        // Typos: trigram word similarity against the name, company, title, location and industry.
        eb(sql<boolean>`${text} <% memberships.search_text`, '=', true),
      ]),
    );
  }
  if (query.standing) q = q.where('memberships.standing', '=', query.standing);
  if (query.tier) q = q.where('memberships.membership_tier', '=', query.tier);
  if (typeof query.founding === 'boolean') q = q.where('memberships.is_founding', '=', query.founding);
  if (query.active === 'active') q = q.where('memberships.is_active', '=', true).where('users.is_active', '=', true);
  if (query.active === 'deactivated') q = q.where((eb) => eb.or([eb('memberships.is_active', '=', false), eb('users.is_active', '=', false)]));
  return q;
}

const ROW_COLUMNS = [
  'memberships.id as membership_id',
  'users.id as user_id',
  'users.first_name',
  'users.last_name',
  'users.email',
  'users.is_active as user_active',
  'memberships.is_active',
  'memberships.company_name',
  'memberships.standing',
  'memberships.membership_tier',
  'memberships.is_founding',
  'memberships.joined_at',
  'memberships.last_accessed_at',
  'memberships.sort_name',
  'communities.code as community_code',
  'communities.name as community_name',
] as const;

type RawRow = {
  membership_id: number;
  user_id: number;
  first_name: string;
  last_name: string;
  email: string;
  user_active: boolean;
  is_active: boolean;
  company_name: string | null;
  standing: string | null;
  membership_tier: string | null;
  is_founding: boolean;
  joined_at: Date | string;
  last_accessed_at: Date | string | null;
  sort_name: string;
  community_code: string;
  community_name: string;
};

function rowOf(r: RawRow): MemberRow {
  return {
    userId: r.user_id,
    membershipId: r.membership_id,
    name: `${r.first_name} ${r.last_name}`.trim(),
    email: r.email,
    communityCode: r.community_code,
    communityName: r.community_name,
    standing: r.standing,
    membershipTier: r.membership_tier,
    isFounding: r.is_founding,
    joinedAt: new Date(r.joined_at),
    lastAccessedAt: r.last_accessed_at ? new Date(r.last_accessed_at) : null,
    isActive: r.is_active && r.user_active,
    companyName: r.company_name,
  };
}

const lastAccessKey = sql<Date>`coalesce(memberships.last_accessed_at, timestamptz '1970-01-01T00:00:00Z')`;

/** Orders a query by the sort (ties by membership id), from the cursor on. */
function ordered<Q extends { where: any; orderBy: any }>(q: Q, sort: MemberSort, cursor: { key: string | Date; id: number } | null): Q {
  let r: any = q;
  if (sort === 'name') {
    if (cursor) r = r.where((eb: any) => eb.or([eb('memberships.sort_name', '>', cursor.key), eb.and([eb('memberships.sort_name', '=', cursor.key), eb('memberships.id', '>', cursor.id)])]));
    return r.orderBy('memberships.sort_name', 'asc').orderBy('memberships.id', 'asc');
  }
  const column = sort === 'joined' ? sql<Date>`memberships.joined_at` : lastAccessKey;
  if (cursor) r = r.where((eb: any) => eb.or([eb(column, '<', cursor.key), eb.and([eb(column, '=', cursor.key), eb('memberships.id', '<', cursor.id)])]));
  return r.orderBy(column, 'desc').orderBy('memberships.id', 'desc');
}

export type MemberPage = { rows: MemberRow[]; total: number; next: string | null };

/** One page of the search across the admin's communities, and how many match in all. */
export async function searchMembers(deps: Pick<AdminMembersDeps, 'db'>, staff: Staff, query: MemberSearch): Promise<MemberPage> {
  const sort = query.sort ?? 'name';
  const size = Math.min(Math.max(Math.trunc(query.first ?? MEMBERS_PAGE_SIZE), 1), 100);
  const base = await filtered(deps, staff, query);
  const cursor = decodeCursor(sort, query.after);
  const [rows, total] = await Promise.all([
    ordered(base.select(ROW_COLUMNS), sort, cursor)
      .limit(size + 1)
      .execute() as Promise<RawRow[]>,
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return {
    rows: page.map(rowOf),
    total: Number(total.n),
    next: rows.length > size && last ? encodeCursor(sort, sortKey(sort, last), last.membership_id) : null,
  };
}

/** Every row of the search (no pages) for the CSV export, up to MEMBERS_EXPORT_MAX. */
export async function exportMembers(deps: Pick<AdminMembersDeps, 'db'>, staff: Staff, query: MemberSearch): Promise<{ rows: MemberRow[]; truncated: boolean }> {
  const base = await filtered(deps, staff, query);
  const rows = (await ordered(base.select(ROW_COLUMNS), query.sort ?? 'name', null)
    .limit(MEMBERS_EXPORT_MAX + 1)
    .execute()) as RawRow[];
  return { rows: rows.slice(0, MEMBERS_EXPORT_MAX).map(rowOf), truncated: rows.length > MEMBERS_EXPORT_MAX };
}

/** The values the standing and tier filters offer: those in use in the admin's communities. */
export async function filterChoices(deps: Pick<AdminMembersDeps, 'db'>, staff: Staff) {
  const communities = await staffCommunities(deps, staff);
  const ids = communities.length > 0 ? communities.map((c) => c.id) : [-1];
  const distinct = async (column: 'standing' | 'membership_tier') =>
    (
      await deps.db
        .selectFrom('memberships')
        .select(`memberships.${column} as value`)
        .distinct()
        .where('memberships.community_id', 'in', ids)
        .where(`memberships.${column}`, 'is not', null)
        .orderBy('value')
        .execute()
    ).map((r) => String(r.value));
  const [standings, tiers] = await Promise.all([distinct('standing'), distinct('membership_tier')]);
  return { communities, standings, tiers };
}

// ---- One member ----

/** The admin view of a member of a community the admin administers, or NotFound. */
export async function adminView(deps: Pick<AdminMembersDeps, 'db'>, community: StaffCommunity, userId: number): Promise<MemberAdminView> {
  const row = await selectInCommunity(deps.db, 'memberships', community)
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .innerJoin('communities', 'communities.id', 'memberships.community_id')
    .select(SNAPSHOT_COLUMNS)
    .select([
      'users.email',
      'memberships.health',
      'memberships.joined_at',
      'memberships.standing',
      'memberships.is_founding',
      'memberships.vertical',
      'memberships.membership_tier',
      'communities.name as community_name',
      'communities.code as community_code',
      // Last access on any device: the latest of the member's sessions in this community.
      sql<Date | null>`greatest(memberships.last_accessed_at, (select max(s.last_accessed_at) from sessions s where s.user_id = memberships.user_id and s.community_id = memberships.community_id))`.as(
        'last_access',
      ),
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new AppError('NotFound');
  return {
    ...toSnapshot(row),
    email: row.email,
    health: row.health,
    joinedAt: new Date(row.joined_at),
    communityName: row.community_name,
    communityCode: row.community_code,
    standing: row.standing,
    isFounding: row.is_founding,
    vertical: row.vertical,
    membershipTier: row.membership_tier,
    lastAccessedAt: row.last_access ? new Date(row.last_access) : null,
  };
}

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
  await db.insertInto('staff_actions').values({ community_id: community.id, actor_id: staff.userId, member_id: memberId, action, detail, created_at: now }).execute();
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
    const note = await trx
      .insertInto('member_notes')
      .values({ community_id: community.id, member_id: userId, author_id: staff.userId, body, created_at: now })
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
      deps.db.selectFrom('memberships').select(['community_id', 'roles']).where('user_id', '=', userId).execute(),
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
    await trx.updateTable('password_tokens').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
    if (userId !== staff.userId) await trx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
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
    await trx.updateTable('memberships').set({ is_active: active }).where('id', '=', member.id).execute();
    if (!active) {
      await trx
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('community_id', '=', community.id)
        .where('revoked_at', 'is', null)
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
    await trx.updateTable('memberships').set({ is_moderator: isModerator }).where('id', '=', member.id).execute();
    await record(trx, now, community, staff, userId, isModerator ? 'moderator_on' : 'moderator_off');
  });
}
