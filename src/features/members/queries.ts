import { sql, type RawBuilder } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { AVATAR_SIZES, COMPANY_SIZES, type AvatarPreset, type CompanySize, type MemberSnapshot } from './types.ts';
import { jsonValue } from '#src/lib/json-value.ts';

/** The address of a stored avatar at one preset (served by the profile area's avatar route). */
export function avatarPath(key: string, preset: AvatarPreset = 'default'): string {
  return `/avatars/${key}/${AVATAR_SIZES[preset]}.webp`;
}

/** The employee-count range of a company-size bucket: [min, max] inclusive, max null for open-ended. */
export function companySizeRange(size: CompanySize): [number, number | null] {
  const [lo, hi] = size.endsWith('+') ? [size.slice(0, -1), null] : size.split('-');
  return [Number(lo), hi == null ? null : Number(hi)];
}

export function companySizeOf(count: number | null): CompanySize | null {
  if (count == null || count < 1) return null;
  return COMPANY_SIZES.find((s) => {
    const [lo, hi] = companySizeRange(s);
    return count >= lo && (hi == null || count <= hi);
  })!;
}

/**
 * The columns of a member snapshot, for `selectFrom('memberships').innerJoin('users', ...)`. Every
 * query reading members goes through memberSnapshots (below) or selects these columns, so the
 * snapshot is the same everywhere.
 */
export const SNAPSHOT_COLUMNS = [
  'users.id as user_id',
  'users.first_name',
  'users.last_name',
  'users.is_active as user_active',
  'memberships.is_active',
  'memberships.is_moderator',
  'memberships.company_name',
  'memberships.avatar_url',
  'memberships.avatar_key',
  'memberships.job_title',
  'memberships.location_name',
  'memberships.pronouns',
  'memberships.display_pronouns',
  'memberships.industry',
] as const;

export type SnapshotRow = {
  user_id: number;
  first_name: string;
  last_name: string;
  user_active: boolean;
  is_active: boolean;
  is_moderator: boolean;
  company_name: string | null;
  avatar_url: string | null;
  avatar_key: string | null;
  job_title: string | null;
  location_name: string | null;
  pronouns: string | null;
  display_pronouns: boolean;
  industry: string | null;
};

export function toSnapshot(row: SnapshotRow): MemberSnapshot {
  return {
    id: row.user_id,
    name: `${row.first_name} ${row.last_name}`.trim(),
    firstName: row.first_name,
    lastName: row.last_name,
    isModerator: row.is_moderator,
    companyName: row.company_name,
    avatar: row.avatar_key ? avatarPath(row.avatar_key) : row.avatar_url,
    jobTitle: row.job_title,
    location: row.location_name,
    isActive: row.is_active && row.user_active,
    pronouns: row.pronouns,
    displayPronouns: row.display_pronouns,
    industry: row.industry,
  };
}

/** Members of one community joined to their users: the base of every member query (tenant-scoped). */
export function membersOf(db: Db, community: Tenant) {
  return selectInCommunity(db, 'memberships', community).innerJoin('users', 'users.id', 'memberships.user_id');
}

/** Only members others may see: active in the community and as a user. */
export function activeMembersOf(db: Db, community: Tenant) {
  return membersOf(db, community).where('memberships.is_active', '=', true).where('users.is_active', '=', true);
}

/** The ids of the members the directory lists (a subquery for other areas' lists: the home page's articles). */
export function listedMemberIds(db: Db, community: Tenant) {
  return listedMembersOf(db, community).select('users.id');
}

/**
 * The member's own introduction requests still pending, as rows `(kind 'introduction', id, title: the
 * target's name, status, created_at)` for a caller's `union all` of open items (the home page).
 */
export function pendingIntroductionsOf(community: Tenant, userId: number): RawBuilder<unknown> {
  return sql`select 'introduction' as kind, i.id, u.first_name || ' ' || u.last_name as title, i.status, i.created_at from introduction_requests i
    join users u on u.id = i.target_id
    where i.community_id = ${community.id} and i.requester_id = ${userId} and i.status = 'PENDING'`;
}

/**
 * The members the directory lists (its pages, search, letters, filter options, Discover, user(id)):
 * active, and past onboarding. An invitee still in onboarding has a membership row (her profile is
 * written as she goes) but is not a member others can find until she has paid and finished.
 */
export function listedMembersOf(db: Db, community: Tenant) {
  return activeMembersOf(db, community).where('memberships.gate', '=', 'app');
}

/** One member's snapshot in a community, or undefined (another community's, or not a member). */
export async function findSnapshot(db: Db, community: Tenant, userId: number, { activeOnly = true } = {}): Promise<MemberSnapshot | undefined> {
  const q = (activeOnly ? activeMembersOf(db, community) : membersOf(db, community)).select(SNAPSHOT_COLUMNS).where('users.id', '=', userId);
  const row = await q.executeTakeFirst();
  return row ? toSnapshot(row) : undefined;
}

/** Someone no longer a member of the community (or never one): read as `name` ('—' unless given), inactive. */
export const unknownMember = (id: number, name = '—'): MemberSnapshot => ({
  id,
  name,
  firstName: name,
  lastName: '',
  isModerator: false,
  companyName: null,
  avatar: null,
  jobTitle: null,
  location: null,
  isActive: false,
  pronouns: null,
  displayPronouns: false,
  industry: null,
});

/**
 * A member's snapshot as one SQL value (json), for a column of another area's statement (the home
 * page's newest articles carry their authors' faces so): `userId` is that statement's column of the
 * member's user id. Read back with snapshotOfJson; null where they are not a member of the community.
 */
export function snapshotJson(community: Tenant, userId: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(select ${snapshotJsonObject('su', 'sm')}
    from users su join memberships sm on sm.user_id = su.id and sm.community_id = ${community.id}
    where su.id = ${userId})`;
}

/**
 * SNAPSHOT_COLUMNS as a `json_build_object(...)` of the same names, over a statement's own aliases of
 * `users` and `memberships` (for a snapshot inside JSON: a subquery's column, a `json_agg`). Read back
 * as a SnapshotRow.
 */
export function snapshotJsonObject(users: string, memberships: string): RawBuilder<unknown> {
  const pairs = SNAPSHOT_COLUMNS.map((column) => {
    const [ref, alias] = column.split(' as ') as [string, string | undefined];
    const [table, name] = ref.split('.') as [string, string];
    return sql`${sql.lit(alias ?? name)}, ${sql.ref(`${table === 'users' ? users : memberships}.${name}`)}`;
  });
  return sql`json_build_object(${sql.join(pairs)})`;
}

/** snapshotJson's value, read back (`fallback`'s id and name where it was null). */
export function snapshotOfJson(value: unknown, fallback: { id: number; name: string }): MemberSnapshot {
  const row = jsonValue<SnapshotRow | null>(value);
  return row ? toSnapshot(row) : unknownMember(fallback.id, fallback.name);
}

/** The snapshots of these members (any state) in one query; someone no longer a member reads as '—' (unknownMember). */
export async function snapshotsOf(db: Db, community: Tenant, ids: number[]): Promise<(id: number) => MemberSnapshot> {
  const unique = [...new Set(ids)];
  const rows = unique.length ? await membersOf(db, community).select(SNAPSHOT_COLUMNS).where('users.id', 'in', unique).execute() : [];
  const byId = new Map(rows.map((r) => [r.user_id, toSnapshot(r)]));
  return (id) => byId.get(id) ?? unknownMember(id);
}
