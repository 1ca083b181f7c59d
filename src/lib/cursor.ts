import { AppError } from '#src/core/errors.ts';

/**
 * Keyset cursors of the lists (the forum's, the expert panels' sent invitations): opaque base64url of a
 * JSON array; anything else is a bad request (a 400, never a 500).
 */

export function encodeCursor(parts: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

const badCursor = () => new AppError('BadRequest.Validation', { fields: { after: { code: 'BadRequest.Validation', key: 'errors.server.validation' } } });

/**
 * A cursor's parts as encoded by `encodeCursor` (base64url JSON of `count` values), or null when
 * absent; a cursor that is not one (too long, not base64url JSON, another count) is a 400.
 */
export function cursorParts(cursor: unknown, count: number, maxLength = 200): unknown[] | null {
  if (cursor == null || cursor === '') return null;
  if (typeof cursor !== 'string' || cursor.length > maxLength || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw badCursor();
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parts) || parts.length !== count) throw badCursor();
  return parts;
}

/** The 400 of a cursor whose parts are not what its list wrote. */
export { badCursor };

/**
 * A list's cursor by time: (last_activity_at, id), the time in microseconds as PostgreSQL keeps it (a
 * millisecond Date would skip rows written by `now()` within the same millisecond).
 */
export function decodeActivityCursor(cursor: unknown): { at: string; id: number } | null {
  const parts = cursorParts(cursor, 2);
  if (parts === null) return null;
  const [at, id] = parts as [unknown, unknown];
  if (typeof at !== 'string' || !ACTIVITY_KEY.test(at) || !isDbId(id)) throw badCursor();
  // A real instant (no 31 February): the millisecond part must read back as written.
  const ms = new Date(`${at.slice(0, 23)}Z`);
  if (Number.isNaN(ms.getTime()) || ms.toISOString().slice(0, 23) !== at.slice(0, 23)) throw badCursor();
  // PostgreSQL has no year 0 (and the forum no post before 1970): such a date is a bad cursor, not a 500.
  const year = Number(at.slice(0, 4));
  if (year < 1970 || year > 9999) throw badCursor();
  return { at, id };
}

const ACTIVITY_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** A thread's cursor: the last reply's id. */
export function decodeIdCursor(cursor: unknown): number | null {
  if (cursor == null || cursor === '') return null;
  if (typeof cursor !== 'string' || cursor.length > 100 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw badCursor();
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parts) || parts.length !== 1 || !isDbId(parts[0])) throw badCursor();
  return parts[0] as number;
}

const isDbId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0 && v <= 2_147_483_647;

/** A page size: the default when absent, else 1..max (a hostile value is clamped, not trusted). */
export function pageSize(first: unknown, fallback: number, max = 100): number {
  const n = typeof first === 'number' && Number.isFinite(first) ? Math.trunc(first) : fallback;
  return Math.min(Math.max(n, 1), max);
}
