import { sql } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { dayCounts, dayOf, instantsOf, type DayCount, type DayRange, type MemberDay } from '#src/lib/figures.ts';

/**
 * Sign-ins for the staff's insights (issue 29): a sign-in is a session started (a password, a code, an
 * app's login); its row keeps who and when, never an address.
 */

/** Sign-ins to the community, by day (UTC). */
export async function signInsByDay(db: Db, community: Tenant, range: DayRange): Promise<DayCount[]> {
  const { start, end } = instantsOf(range);
  const day = dayOf('sessions.created_at');
  const rows = await selectInCommunity(db, 'sessions', community)
    .select([day.as('day'), sql<number>`count(*)::int`.as('n')])
    .where('sessions.created_at', '>=', start)
    .where('sessions.created_at', '<', end)
    .groupBy(day)
    .orderBy(day)
    .execute();
  return dayCounts(rows);
}

/** Each member who signed in, once per day they did (the roll-up counts active members per week and month). */
export async function signedInMemberDays(db: Db, community: Tenant, range: DayRange): Promise<MemberDay[]> {
  const { start, end } = instantsOf(range);
  const day = dayOf('sessions.created_at');
  const rows = await selectInCommunity(db, 'sessions', community)
    .select(['sessions.user_id', day.as('day')])
    .where('sessions.created_at', '>=', start)
    .where('sessions.created_at', '<', end)
    .groupBy(['sessions.user_id', day])
    .execute();
  return rows.map((r) => ({ userId: r.user_id, day: r.day }));
}
