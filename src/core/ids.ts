import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '#src/core/errors.ts';

/** A random identifier with 256 bits of entropy, URL-safe. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

/** The largest row id: ids are PostgreSQL `integer`s, so a larger number names no row and must not reach SQL. */
export const MAX_ID = 2_147_483_647;

/**
 * The one id parser (decision 0047): a row id from a path, a query string, a form or a GraphQL `ID`
 * argument. A positive integer up to MAX_ID, given as a number or written in plain decimal digits
 * (no sign, no leading zero, no space, no exponent); anything else is null, because no row has it.
 */
export function parseId(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  if (!/^[1-9]\d{0,9}$/.test(text)) return null;
  const id = Number(text);
  return id <= MAX_ID ? id : null;
}

/**
 * An id that must name a row: a malformed id is the same answer as an unknown one (decision 0047),
 * NotFound unless the area names its own not-found error.
 */
export function requireId(value: unknown, notFound: () => Error = () => new AppError('NotFound')): number {
  const id = parseId(value);
  if (id === null) throw notFound();
  return id;
}
