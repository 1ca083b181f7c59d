/**
 * Errors that mean "the database cannot be reached right now" (a restart, a failover, a network cut,
 * backends terminated), as opposed to a query's own failure. They become the catalogue's
 * ServiceUnavailable.Database (503, to retry) instead of a 500.
 */

/** Node socket errors on the way to the server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01 admin_shutdown (pg_terminate_backend,
 * a fast shutdown), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up, shutting down),
 * 53300 too_many_connections.
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** What node-postgres and its pool say when the connection goes away or cannot be had. */
const MESSAGES = [/Connection terminated/i, /is not currently accepting connections/i, /the database system is (starting up|shutting down|in recovery mode)/i, /is not queryable/i, /timeout exceeded when trying to connect/i, /Client has encountered a connection error/i, /Cannot use a pool after calling end/i];

function matches(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  return typeof message === 'string' && MESSAGES.some((m) => m.test(message));
}

/** True when the error, or an error it wraps (cause, AggregateError), says the database is unreachable. */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  if (matches(err)) return true;
  const { cause, errors } = err as { cause?: unknown; errors?: unknown };
  if (cause && isDatabaseUnavailable(cause, depth + 1)) return true;
  return Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1));
}

/**
 * PostgreSQL's "try again" failures of a transaction: 40P01 deadlock_detected, 40001
 * serialization_failure. Nothing was written; the same request may simply be sent again.
 */
export function isRetryableConflict(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const code = (err as { code?: unknown }).code;
  if (code === '40P01' || code === '40001') return true;
  const cause = (err as { cause?: unknown }).cause;
  return cause ? isRetryableConflict(cause, depth + 1) : false;
}
