import { sql } from 'kysely';
import type { RawDb } from '#src/db/index.ts';
import type { DemoContext } from '#src/features/area.ts';
import { addDays, dayString } from './calendar.ts';
import { computeHealth } from './health.ts';
import { rollUpIn } from './rollup.ts';

/** The pages the demo's members open most, first the most. */
const PAGES = ['/', '/forum', '/members', '/articles', '/expert-panels', '/offers', '/messages', '/groups', '/notifications', '/settings', '/offers/exec', '/members/browse', '/badges', '/articles/published'];
/** The demo's other events: [category, action, label], picked by the same number. */
const OTHERS = [
  ['offers', 'redeem', 'Ledgerly'],
  ['search', 'members', ''],
  ['forum', 'reply-start', ''],
  ['engagement', 'share', 'article'],
  ['navigation', 'more-menu', 'Events'],
] as const;

const array = (values: readonly string[]) => sql.raw(`array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]::text[]`);

/**
 * Six months of a community's members' events in one statement (generate_series, no loop): each member
 * is active on a day with a chance that grows over the months, is lower at the weekend and depends on
 * the member (every seventh has gone quiet for the last ten weeks), and opens 1 to 6 pages that day,
 * one event in ten something else (an offer, a search, a reply started). Deterministic (hashes, no
 * random()): the same demo every time on the same day.
 */
export async function seedMemberEvents(trx: RawDb, communityId: number, days: number, now: Date, strength: number): Promise<void> {
  const today = dayString(now);
  const first = addDays(today, -days);
  const h = (parts: string) => sql.raw(`abs(hashtext(${parts}))`);
  await sql`
    with m as (
      select user_id, row_number() over (order by user_id) as k, joined_at from memberships
      where community_id = ${communityId} and is_active and not ('ADMIN' = any(roles))
    ),
    d as (select n, (${first}::date + n) as day from generate_series(0, ${days}) as g(n)),
    active as (
      select m.user_id, m.k, d.n, d.day from m cross join d
      where d.day >= (m.joined_at at time zone 'UTC')::date
        and ${h("m.user_id::text || ':' || d.n::text")} % 1000 < 1000 * ${strength}::float
          * (0.35 + 0.55 * d.n / ${days}::float)
          * (case extract(isodow from d.day) when 6 then 0.35 when 7 then 0.3 when 5 then 0.8 else 1 end)
          * (case when m.k % 7 = 3 and d.n > ${days - 70} then 0 else 0.45 + 0.55 * ((m.k * 37) % 10) / 9.0 end)
    ),
    ev as (
      select a.user_id, a.k, a.day, g.i, ${h("a.user_id::text || ':' || a.n::text || ':' || g.i::text")} as h
      from active a cross join lateral generate_series(1, 1 + ${h("a.user_id::text || '/' || a.n::text")} % 6) as g(i)
    ),
    timed as (
      select *, (day::timestamp + interval '7 hours' + (h % 780) * interval '1 minute' + i * interval '7 seconds') at time zone 'UTC' as at from ev
    )
    insert into insight_events (community_id, user_id, category, action, label, device, occurred_at)
    select ${communityId}, user_id,
      case when h % 10 < 9 then 'page' else (${array(OTHERS.map((o) => o[0]))})[1 + h % 5] end,
      case when h % 10 < 9 then 'view' else (${array(OTHERS.map((o) => o[1]))})[1 + h % 5] end,
      case when h % 10 < 9 then (${array(PAGES)})[1 + (h / 10) % ${PAGES.length}] else (${array(OTHERS.map((o) => o[2]))})[1 + h % 5] end,
      case when k % 3 = 0 then 'mobile' when k % 5 = 0 then 'app' else 'desktop' end,
      at
    from timed where at <= ${now}`.execute(trx);
}

/**
 * The insights' part of the demo: six months of Summit's members' events and two of Harbor's, rolled
 * up with the other areas' figures (seeded before), and every member's health computed from them.
 */
export async function seedInsights(trx: RawDb, demo: DemoContext, now = new Date()): Promise<void> {
  const plans = [
    { code: 'summit', days: 182, strength: 0.6 },
    { code: 'harbor', days: 60, strength: 0.5 },
  ];
  for (const plan of plans) {
    const id = demo.byCode[plan.code];
    if (id === undefined) continue;
    await seedMemberEvents(trx, id, plan.days, now, plan.strength);
    // Rolled up over all of them (the retention job deletes the raw ones past its days at the first
    // start; their counts stay), then each member's health.
    const deps = { db: trx, clock: { now: () => now }, community: { id }, retentionDays: plan.days + 2 };
    await rollUpIn(trx, deps);
    await computeHealth(deps);
  }
}
