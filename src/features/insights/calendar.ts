import type { Day } from '#src/lib/figures.ts';

/** Calendar days as 'YYYY-MM-DD' strings (UTC): the roll-up's and the staff home's arithmetic. */

export const DAY_MS = 86_400_000;

export const dayString = (d: Date): Day => d.toISOString().slice(0, 10);

export const dayStart = (day: Day): Date => new Date(`${day}T00:00:00Z`);

export const addDays = (day: Day, n: number): Day => dayString(new Date(dayStart(day).getTime() + n * DAY_MS));

/** Days from `a` to `b` (b − a). */
export const daysBetween = (a: Day, b: Day): number => Math.round((dayStart(b).getTime() - dayStart(a).getTime()) / DAY_MS);

/** The Monday of the day's week (ISO weeks). */
export function mondayOf(day: Day): Day {
  const dow = (dayStart(day).getUTCDay() + 6) % 7;
  return addDays(day, -dow);
}

export const monthStartOf = (day: Day): Day => `${day.slice(0, 8)}01`;

export function nextMonthStart(day: Day): Day {
  const d = dayStart(monthStartOf(day));
  return dayString(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)));
}

/** A real calendar day written 'YYYY-MM-DD' (not 2026-02-31), from 2000 on. */
export function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = dayStart(value);
  return !Number.isNaN(d.getTime()) && dayString(d) === value && value >= '2000-01-01';
}

export const maxDay = (a: Day, b: Day): Day => (a > b ? a : b);
export const minDay = (a: Day, b: Day): Day => (a < b ? a : b);
