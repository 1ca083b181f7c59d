import { sql } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { dayCounts, dayOf, instantsOf, type DayCount, type DayRange } from '#src/lib/figures.ts';

/**
 * The members area's figures for the staff's insights (issue 29): members who joined, by day; the
 * active members whose health the roll-up computes; and the one way their health is set.
 */

/** Members who joined the community, by day (UTC). */
export async function newMembersByDay(db: Db, community: Tenant, range: DayRange): Promise<DayCount[]> {
  const { start, end } = instantsOf(range);
  const day = dayOf('memberships.joined_at');
  const rows = await selectInCommunity(db, 'memberships', community)
    .select([day.as('day'), sql<number>`count(*)::int`.as('n')])
    .where('memberships.joined_at', '>=', start)
    .where('memberships.joined_at', '<', end)
    .groupBy(day)
    .orderBy(day)
    .execute();
  return dayCounts(rows);
}

/** The community's active members, with when they joined and their health as it stands. */
export async function membersForHealth(db: Db, community: Tenant): Promise<{ userId: number; joinedAt: Date; health: string | null }[]> {
  const rows = await selectInCommunity(db, 'memberships', community)
    .select(['memberships.user_id', 'memberships.joined_at', 'memberships.health'])
    .where('memberships.is_active', '=', true)
    .orderBy('memberships.user_id')
    .execute();
  return rows.map((r) => ({ userId: r.user_id, joinedAt: new Date(r.joined_at), health: r.health }));
}

/**
 * Sets members' health (the staff's member view shows it), in one statement per thousand members:
 * `update … from (values …)`. Only the members listed change; another community's never.
 */
export async function setMembersHealth(db: Db, community: Tenant, changes: readonly { userId: number; health: string }[]): Promise<number> {
  let changed = 0;
  for (let i = 0; i < changes.length; i += 1000) {
    const values = sql.join(changes.slice(i, i + 1000).map((c) => sql`(${c.userId}::int, ${c.health}::text)`));
    // Scoped to the community by its own filter (an update joined to a list of values).
    const result = await sql`update memberships set health = v.health from (values ${values}) as v(user_id, health)
      where memberships.community_id = ${community.id} and memberships.user_id = v.user_id and memberships.health is distinct from v.health`.execute(db);
    changed += Number(result.numAffectedRows ?? 0);
  }
  return changed;
}
