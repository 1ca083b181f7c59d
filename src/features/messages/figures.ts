import { sql } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { dayCounts, dayOf, instantsOf, type DayCount, type DayRange } from '#src/lib/figures.ts';

/** Messages from the team read (a member's first opening of one), by day (UTC): the staff's insights (issue 29). */
export async function messagesReadByDay(db: Db, community: Tenant, range: DayRange): Promise<DayCount[]> {
  const { start, end } = instantsOf(range);
  const day = dayOf('message_recipients.read_at');
  const rows = await selectInCommunity(db, 'message_recipients', community)
    .select([day.as('day'), sql<number>`count(*)::int`.as('n')])
    .where('message_recipients.read_at', '>=', start)
    .where('message_recipients.read_at', '<', end)
    .groupBy(day)
    .orderBy(day)
    .execute();
  return dayCounts(rows);
}
