import { sql, type RawBuilder } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import type { Db } from '#src/db/index.ts';
import { insertInCommunity, selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { GroupRole, GroupVisibility } from '#src/db/types.ts';
import type { GroupAbilities, GroupImage } from './types.ts';

/**
 * The groups' shared reads and the one rule of who sees what (decision 0056):
 * - disabled: staff only;
 * - preview: staff and the group's chairs (while it is set up);
 * - private: staff, its chairs and its members; to anyone else it does not exist (404, absent from lists);
 * - public: every active member of the community sees it and may ask to join.
 * The discussion is read by those who see the group (a public group's by the whole community) and
 * written by its chairs and members (and staff); a disabled group's is read-only, for staff.
 */

export const VISIBILITIES: readonly GroupVisibility[] = ['disabled', 'preview', 'private', 'public'];

/** Whether someone with this place in the group sees it at all. */
export function maySee(visibility: GroupVisibility, who: { staff: boolean; role: GroupRole | null }): boolean {
  if (who.staff) return true;
  switch (visibility) {
    case 'disabled':
      return false;
    case 'preview':
      return who.role === 'chair';
    case 'private':
      return who.role !== null;
    case 'public':
      return true;
  }
}

/** What they may do there, once they see it. */
export function abilitiesOf(visibility: GroupVisibility, who: { staff: boolean; role: GroupRole | null; requested: boolean }): GroupAbilities {
  const seen = maySee(visibility, who);
  const inside = who.role !== null;
  return {
    canRead: seen,
    canPost: seen && visibility !== 'disabled' && (inside || who.staff),
    canRequest: seen && visibility === 'public' && !inside && !who.requested,
    canChair: seen && (who.staff || who.role === 'chair'),
  };
}

/** The visibilities a non-staff member with this place sees: a list's filter as SQL. */
export const VISIBLE_TO_OUTSIDER: readonly GroupVisibility[] = ['public'];
export const VISIBLE_TO_MEMBER: readonly GroupVisibility[] = ['private', 'public'];
export const VISIBLE_TO_CHAIR: readonly GroupVisibility[] = ['preview', 'private', 'public'];

/**
 * maySee as SQL, for the discussion's notices (the forum's `readGroupsWith`): whether this user is one
 * of the group's people who sees it: a chair of a preview group, a chair or member of a private or
 * public one, staff (ADMIN here) in any. Nobody else is told of a group's post (a disabled group's
 * chairs and members, outsiders of a public group who follow nothing of it).
 */
export function readersOf(community: Tenant, groupId: number, userId: RawBuilder<number>): RawBuilder<boolean> {
  const list = (vs: readonly GroupVisibility[]) => sql.join(vs.map((v) => sql.lit(v)));
  return sql<boolean>`exists (select 1 from group_members rd
    join groups rg on rg.community_id = rd.community_id and rg.id = rd.group_id
    join memberships rm on rm.community_id = rd.community_id and rm.user_id = rd.user_id
    where rd.community_id = ${community.id} and rd.group_id = ${groupId} and rd.user_id = ${userId}
      and (rg.visibility in (${list(VISIBLE_TO_MEMBER)}) or (rg.visibility in (${list(VISIBLE_TO_CHAIR)}) and rd.role = 'chair') or 'ADMIN' = any(rm.roles)))`;
}

/** An image as stored (`groups.image`): an uploaded one is `upload:<key>`, anything else a path under static/. */
export function imageOf(stored: string | null): GroupImage {
  if (!stored) return null;
  if (stored.startsWith('upload:')) return { kind: 'upload', path: `/groups/images/${stored.slice(7)}.webp` };
  return { kind: 'static', path: stored };
}

/** About 200 characters of plain text, cut at a word. */
export function excerptOf(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The group with the viewer's place in it, its member count and its chairs' ids (one statement), or undefined. */
export async function groupWithRole(db: Db, community: Tenant, where: { id: number } | { slug: string }, userId: number) {
  let q = selectInCommunity(db, 'groups', community).select((eb) => [
    'groups.id',
    'groups.name',
    'groups.slug',
    'groups.about_html',
    'groups.about_text',
    'groups.image',
    'groups.visibility',
    eb.selectFrom('group_members as me').select('me.role').whereRef('me.group_id', '=', 'groups.id').where('me.user_id', '=', userId).where('me.community_id', '=', community.id).as('my_role'),
    eb
      .exists(eb.selectFrom('group_join_requests as jr').select('jr.id').whereRef('jr.group_id', '=', 'groups.id').where('jr.user_id', '=', userId).where('jr.status', '=', 'pending').where('jr.community_id', '=', community.id))
      .as('requested'),
    eb.selectFrom('group_members as gm').select(eb.fn.countAll<number>().as('n')).whereRef('gm.group_id', '=', 'groups.id').where('gm.community_id', '=', community.id).as('member_count'),
    sql<number[]>`(select coalesce(json_agg(ch.user_id order by ch.user_id), '[]'::json) from group_members ch where ch.community_id = ${community.id} and ch.group_id = groups.id and ch.role = 'chair')`.as('chair_ids'),
  ]);
  q = 'id' in where ? q.where('groups.id', '=', where.id) : q.where('groups.slug', '=', where.slug);
  const row = await q.executeTakeFirst();
  return row ? { ...row, my_role: (row.my_role ?? null) as GroupRole | null, requested: Boolean(row.requested), member_count: Number(row.member_count ?? 0), chair_ids: (row.chair_ids ?? []).map(Number) } : undefined;
}

/** The group as the viewer may see it, with their place, else 'Groups.NotFound' (the same for missing, another community's, or hidden). */
export async function visibleGroup(db: Db, community: Tenant, where: { id: number } | { slug: string }, viewer: { userId: number; isStaff: boolean }) {
  const row = await groupWithRole(db, community, where, viewer.userId);
  if (!row) throw new AppError('Groups.NotFound');
  const who = { staff: viewer.isStaff, role: row.my_role, requested: row.requested };
  if (!maySee(row.visibility, who)) throw new AppError('Groups.NotFound');
  return { ...row, abilities: abilitiesOf(row.visibility, who) };
}

/** A group as the viewer may see it (visibleGroup's answer): read once per request and handed on. */
export type VisibleGroup = Awaited<ReturnType<typeof visibleGroup>>;

/** One line of the group's log, in the caller's transaction. */
export async function logAction(trx: Db, community: Tenant, entry: { groupId: number; actorId: number | null; action: string; detail?: string; at: Date }): Promise<void> {
  await insertInCommunity(trx, 'group_actions', community, { group_id: entry.groupId, actor_id: entry.actorId, action: entry.action, detail: (entry.detail ?? '').slice(0, 2000), created_at: entry.at }).execute();
}
