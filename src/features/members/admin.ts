import { sql } from 'kysely';
import type { Clock } from '#src/core/clock.ts';
import { AppError } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import type { Db } from '#src/db/index.ts';
import { crossCommunity, selectInCommunity } from '#src/db/tenancy.ts';
import type { JobQueue } from '#src/lib/jobs/queue.ts';
import { SNAPSHOT_COLUMNS, toSnapshot } from './queries.ts';
import type { MemberAdminView } from './types.ts';

/**
 * The staff's members area: search across every community the admin administers, the admin view of
 * one member, member notes, and the staff actions (password reset link, generated password, activate
 * or deactivate, forum moderator), each recorded in staff_actions with who and when.
 */

import type { Staff, StaffCommunity } from '#src/lib/admin/staff.ts';

export type AdminMembersDeps = { db: Db; clock: Clock; jobs: JobQueue };
export type { Staff, StaffCommunity } from '#src/lib/admin/staff.ts';

/** Communities where the user holds ADMIN in an active membership, by name. */
export async function staffCommunities(deps: Pick<AdminMembersDeps, 'db'>, staff: Staff): Promise<StaffCommunity[]> {
  // The staff administering several communities (named cross-community query): their ADMIN places in every community.
  return crossCommunity(deps.db)
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
  /** Exact industry, and words of the location (the team's messages' audience filters). */
  industry?: string | null;
  location?: string | null;
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
  const texts = { q: query.q, standing: query.standing, tier: query.tier, community: query.community, industry: query.industry, location: query.location };
  ensureText(texts);
  for (const [name, value] of Object.entries(texts)) {
    if (typeof value === 'string' && value.length > QUERY_MAX) throw new AppError('BadRequest.Validation', { fields: { [name]: { code: 'BadRequest.Validation', key: 'adminMembers.errors.tooLong' } } });
  }
}

/** The members of the admin's communities with the search's filters (no order, no page). */
async function filtered(deps: Pick<AdminMembersDeps, 'db'>, staff: Staff, query: MemberSearch) {
  checkSearch(query);
  const communities = await staffCommunities(deps, staff);
  let ids = communities.map((c) => c.id);
  if (query.community) ids = communities.filter((c) => c.code.toLowerCase() === query.community!.toLowerCase()).map((c) => c.id);
  return matching(deps, ids, query);
}

/**
 * The active members of one community who match the search's filters (the community team's messages:
 * a message to "a filter of the staff's member search" goes to these), by user id. Deactivated
 * members and people of other communities never match.
 */
export async function matchingMemberIds(deps: Pick<AdminMembersDeps, 'db'>, community: { id: number }, query: Omit<MemberSearch, 'community' | 'active' | 'sort' | 'after' | 'first'>): Promise<number[]> {
  checkSearch(query);
  const rows = await matching(deps, [community.id], { ...query, active: 'active' })
    .select('users.id as user_id')
    .orderBy('users.id')
    .execute();
  return rows.map((r) => r.user_id);
}

/** The members of these communities with the search's filters (no order, no page). */
function matching(deps: Pick<AdminMembersDeps, 'db'>, ids: number[], query: MemberSearch) {
  // The staff members area's cross-brand list (named cross-community query), limited to the admin's communities.
  let q = crossCommunity(deps.db)
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
  if (query.industry) q = q.where('memberships.industry', '=', query.industry);
  if (query.location) {
    const place = `%${escapeLike(query.location.trim().toLowerCase())}%`;
    q = q.where((eb) => eb.or([eb(eb.fn('lower', ['memberships.location_name']), 'like', place), eb(eb.fn('lower', ['memberships.location_familiar_name']), 'like', place)]));
  }
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
      // The staff members area's cross-brand list (named cross-community query): its filters' values.
      await crossCommunity(deps.db)
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
