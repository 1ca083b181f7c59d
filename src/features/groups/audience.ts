import { sql, type RawBuilder } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, selectInCommunityAs, type Tenant } from '#src/db/tenancy.ts';

/**
 * The face the staff's messages and the members' feed use to address "a group": who is in it, the
 * groups a member is in, and every group to pick from.
 */

/**
 * The user ids of the group's members and chairs who are active members of the community (their
 * membership and their account active), in id order; null when the community has no such group.
 */
export async function groupAudience(db: Db, community: Tenant, groupId: number): Promise<number[] | null> {
  if (!Number.isSafeInteger(groupId) || groupId < 1 || groupId > 2_147_483_647) return null;
  const group = await selectInCommunity(db, 'groups', community).select('id').where('id', '=', groupId).executeTakeFirst();
  if (!group) return null;
  const rows = await selectInCommunityAs(db, 'group_members', 'gm', community)
    .innerJoin('memberships as ms', (j) => j.onRef('ms.user_id', '=', 'gm.user_id').onRef('ms.community_id', '=', 'gm.community_id'))
    .innerJoin('users as u', 'u.id', 'gm.user_id')
    .select('gm.user_id')
    .where('gm.group_id', '=', groupId)
    .where('ms.is_active', '=', true)
    .where('u.is_active', '=', true)
    .orderBy('gm.user_id')
    .execute();
  return rows.map((r) => r.user_id);
}

/** Every group of the community (whatever its visibility), by name, with how many active people it holds: the staff's audience picker. */
export async function groupChoices(db: Db, community: Tenant): Promise<{ id: number; name: string; memberCount: number }[]> {
  const rows = await selectInCommunityAs(db, 'groups', 'g', community)
    .select((eb) => [
      'g.id',
      'g.name',
      eb
        .selectFrom('group_members as gm')
        .innerJoin('memberships as ms', (j) => j.onRef('ms.user_id', '=', 'gm.user_id').onRef('ms.community_id', '=', 'gm.community_id'))
        .innerJoin('users as u', 'u.id', 'gm.user_id')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('gm.group_id', '=', 'g.id')
        .where('gm.community_id', '=', community.id)
        .where('ms.is_active', '=', true)
        .where('u.is_active', '=', true)
        .as('n'),
    ])
    .orderBy((eb) => eb.fn('lower', ['g.name']))
    .orderBy('g.id')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, memberCount: Number(r.n ?? 0) }));
}

/**
 * The ids of the groups the user is in (a chair or a member), as a subquery: the members' feed shows
 * a group's announcement to them (the feeds area), in the same statement that reads the feed.
 */
export function groupsOfMember(community: Tenant, userId: number): RawBuilder<unknown> {
  return sql`select gm.group_id from group_members gm where gm.community_id = ${community.id} and gm.user_id = ${userId}`;
}
