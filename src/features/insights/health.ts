import { sql } from 'kysely';
import { articleSubmissionsByMember } from '#src/features/articles/index.ts';
import { expertAnswersByMember } from '#src/features/expert-panels/index.ts';
import { forumContributionsByMember } from '#src/features/forum/index.ts';
import { membersForHealth, setMembersHealth } from '#src/features/members/index.ts';
import type { MemberCount } from '#src/lib/figures.ts';
import { addDays, DAY_MS, dayString } from './calendar.ts';
import type { InsightsDeps } from './deps.ts';

/**
 * Each member's health (the staff's member view, spec section 3 "Member snapshot … admin view adds
 * health"), from the same figures as the staff home: the days they were active (a page view, any
 * event, a sign-in) and what they contributed (forum posts and replies, expert answers, articles
 * submitted) in the last four weeks, and whether they came at all in the last ninety days.
 */

export const HEALTH_VALUES = ['Champion', 'Engaged', 'Healthy', 'New', 'Quiet', 'At risk'] as const;
export type Health = (typeof HEALTH_VALUES)[number];

/** The recent window (days) and the long one (days; no longer than the raw events are kept). */
export const HEALTH_WINDOW = { recent: 28, long: 90 } as const;

export type HealthFacts = { activeDays: number; contributions: number; activeDaysLong: number; joinedDaysAgo: number };

/**
 * The rule (decision 0062), first match wins, over the last 28 days:
 * Champion: 4 or more contributions and active on 12 or more days;
 * Engaged: 2 or more contributions and active on 4 or more days, or active on 14 or more days;
 * Healthy: active on 2 or more days, or a contribution;
 * New: joined in the last 28 days (and not yet more than that);
 * Quiet: active at some time in the last 90 days;
 * At risk: not seen in 90 days.
 */
export function healthOf(f: HealthFacts): Health {
  if (f.contributions >= 4 && f.activeDays >= 12) return 'Champion';
  if ((f.contributions >= 2 && f.activeDays >= 4) || f.activeDays >= 14) return 'Engaged';
  if (f.activeDays >= 2 || f.contributions >= 1) return 'Healthy';
  if (f.joinedDaysAgo < HEALTH_WINDOW.recent) return 'New';
  if (f.activeDaysLong >= 1) return 'Quiet';
  return 'At risk';
}

const byMember = (rows: readonly MemberCount[][]) => {
  const sum = new Map<number, number>();
  for (const list of rows) for (const r of list) sum.set(r.userId, (sum.get(r.userId) ?? 0) + r.value);
  return sum;
};

/** Computes every active member's health and sets the ones that changed (through the members area). Answers how many changed. */
export async function computeHealth(deps: InsightsDeps): Promise<number> {
  const now = deps.clock.now();
  const today = dayString(now);
  const recentFrom = addDays(today, -(HEALTH_WINDOW.recent - 1));
  const longFrom = addDays(today, -(Math.min(HEALTH_WINDOW.long, deps.retentionDays) - 1));
  const since = new Date(now.getTime() - HEALTH_WINDOW.recent * DAY_MS);
  const c = deps.community.id;
  const [members, days, forum, answers, articles] = await Promise.all([
    membersForHealth(deps.db, deps.community),
    sql<{ user_id: number; recent: number; long: number }>`select user_id, count(*) filter (where day >= ${recentFrom}::date)::int as recent, count(*)::int as long
      from insight_member_days where community_id = ${c} and day >= ${longFrom}::date group by user_id`.execute(deps.db),
    forumContributionsByMember(deps.db, deps.community, since),
    expertAnswersByMember(deps.db, deps.community, since),
    articleSubmissionsByMember(deps.db, deps.community, since),
  ]);
  const active = new Map(days.rows.map((r) => [r.user_id, r]));
  const contributions = byMember([forum, answers, articles]);
  const changes = members.flatMap((m) => {
    const a = active.get(m.userId);
    const health = healthOf({
      activeDays: Number(a?.recent ?? 0),
      activeDaysLong: Number(a?.long ?? 0),
      contributions: contributions.get(m.userId) ?? 0,
      joinedDaysAgo: Math.floor((now.getTime() - m.joinedAt.getTime()) / DAY_MS),
    });
    return health === m.health ? [] : [{ userId: m.userId, health }];
  });
  const changed = await setMembersHealth(deps.db, deps.community, changes);
  await sql`insert into insight_rollups (community_id, health_at) values (${c}, ${now})
    on conflict (community_id) do update set health_at = excluded.health_at`.execute(deps.db);
  return changed;
}
