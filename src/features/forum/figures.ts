import { sql } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { dayCounts, dayOf, instantsOf, type DayCount, type DayRange, type MemberCount } from '#src/lib/figures.ts';

/**
 * The forum's figures for the staff's insights (issue 29): posts and replies published (a group's
 * discussion included; removed, rejected and deleted ones not), by the day they were written.
 */

async function byDay(db: Db, community: Tenant, table: 'forum_posts' | 'forum_replies', range: DayRange): Promise<DayCount[]> {
  const { start, end } = instantsOf(range);
  const day = dayOf(`${table}.created_at`);
  const rows = await selectInCommunity(db, table, community)
    .select([day.as('day'), sql<number>`count(*)::int`.as('n')])
    .where(`${table}.created_at`, '>=', start)
    .where(`${table}.created_at`, '<', end)
    .where(`${table}.status`, '=', 'published')
    .where(`${table}.deleted_at`, 'is', null)
    .groupBy(day)
    .orderBy(day)
    .execute();
  return dayCounts(rows);
}

/** Posts and replies published, by day (UTC). */
export async function forumFiguresByDay(db: Db, community: Tenant, range: DayRange): Promise<{ posts: DayCount[]; replies: DayCount[] }> {
  const [posts, replies] = await Promise.all([byDay(db, community, 'forum_posts', range), byDay(db, community, 'forum_replies', range)]);
  return { posts, replies };
}

/** Each member's posts and replies since `since` (published or waiting for a moderator). */
export async function forumContributionsByMember(db: Db, community: Tenant, since: Date): Promise<MemberCount[]> {
  const rows = await sql<{ user_id: number; n: number }>`
    select author_id as user_id, count(*)::int as n from (
      select author_id from forum_posts where community_id = ${community.id} and created_at >= ${since} and deleted_at is null
      union all
      select author_id from forum_replies where community_id = ${community.id} and created_at >= ${since} and deleted_at is null
    ) c group by author_id`.execute(db);
  return rows.rows.map((r) => ({ userId: r.user_id, value: Number(r.n) }));
}
