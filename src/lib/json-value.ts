/**
 * A json column or value as it comes back from the driver: PostgreSQL's `pg` parses json into objects,
 * while a value built in SQL may reach us as its text (PGlite, a nested subquery). Either way, the
 * parsed value, typed by the caller.
 */
export function jsonValue<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
