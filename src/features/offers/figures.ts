import { sql } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { dayCounts, dayOf, instantsOf, type DayCount, type DayRange } from '#src/lib/figures.ts';

/** Offers redeemed (a code revealed, a link used, a concierge request: once per member and offer), by day (UTC): the staff's insights (issue 29). */
export async function redemptionsByDay(db: Db, community: Tenant, range: DayRange): Promise<DayCount[]> {
  const { start, end } = instantsOf(range);
  const day = dayOf('offer_redemptions.created_at');
  const rows = await selectInCommunity(db, 'offer_redemptions', community)
    .select([day.as('day'), sql<number>`count(*)::int`.as('n')])
    .where('offer_redemptions.created_at', '>=', start)
    .where('offer_redemptions.created_at', '<', end)
    .groupBy(day)
    .orderBy(day)
    .execute();
  return dayCounts(rows);
}
