import { sql, type RawBuilder } from 'kysely';

/**
 * The community's figures by day, as the areas' faces give them to the insights roll-up (issue 29):
 * a UTC calendar day ('2026-11-21') and a count. Each area counts its own rows through its own face
 * (forum posts, articles' moves, redemptions…); the insights area only asks. Shared here, in no area,
 * so that no area imports another for a type.
 */

/** A calendar day, 'YYYY-MM-DD' (UTC). */
export type Day = string;

/** A span of days: `from` included, `to` excluded. */
export type DayRange = { from: Day; to: Day };

/** One day's count. */
export type DayCount = { day: Day; value: number };

/** A member's count of something (contributions since a time, for their health). */
export type MemberCount = { userId: number; value: number };

/** A member active on a day (signed in, for instance): the roll-up counts members per week and month. */
export type MemberDay = { userId: number; day: Day };

/** The UTC day of a timestamp column, as SQL: what every area groups its figures by. */
export function dayOf(column: string): RawBuilder<Day> {
  return sql<Day>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD')`;
}

/** The range as instants for a `timestamptz` column: `[from 00:00 UTC, to 00:00 UTC)`. */
export function instantsOf(range: DayRange): { start: Date; end: Date } {
  return { start: new Date(`${range.from}T00:00:00Z`), end: new Date(`${range.to}T00:00:00Z`) };
}

/** Rows of `{ day, n }` from SQL as DayCounts (counts come back as numbers or strings). */
export function dayCounts(rows: readonly { day: Day; n: number | string | bigint }[]): DayCount[] {
  return rows.map((r) => ({ day: r.day, value: Number(r.n) }));
}
