import { sql } from 'kysely';
import { DAY_MS, dayString } from './calendar.ts';
import type { InsightsDeps } from './deps.ts';

/** Rows a delete takes at once: the job never holds a long transaction over a big community's events. */
const CHUNK = 5000;

/**
 * The retention (a durable job, daily): a community's raw events older than the set number of days
 * (INSIGHTS_RETENTION_DAYS), and who was active on those days, are deleted; the roll-up's counts stay.
 * Answers how many events went.
 */
export async function deleteExpiredEvents(deps: InsightsDeps): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - deps.retentionDays * DAY_MS);
  const c = deps.community.id;
  let deleted = 0;
  for (;;) {
    const result = await sql`delete from insight_events where id in (
      select id from insight_events where community_id = ${c} and occurred_at < ${cutoff} order by occurred_at limit ${CHUNK})`.execute(deps.db);
    const n = Number(result.numAffectedRows ?? 0);
    deleted += n;
    if (n < CHUNK) break;
  }
  await sql`delete from insight_member_days where community_id = ${c} and day < ${dayString(cutoff)}::date`.execute(deps.db);
  return deleted;
}
