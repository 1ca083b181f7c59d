import type { Db } from '#src/db/index.ts';
import { isRetryableConflict } from '#src/db/faults.ts';

/** How often a write whose transaction lost to another's (deadlock, serialization) is tried in all. */
const ATTEMPTS = 3;

/**
 * A write's transaction, tried again when PostgreSQL ends it with a deadlock (40P01) or a serialization
 * failure (40001): two people changing the same thing at once (two replies to one post). Nothing was
 * written then, and everything the write does goes through the transaction (its notifications and jobs
 * too), so trying again is safe. After the last try it is the area's busy error (409, try again), never
 * a 500.
 */
export async function retriedTransaction<T>(db: Db, busy: () => Error, fn: (trx: Db) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(fn);
    } catch (e) {
      if (!isRetryableConflict(e)) throw e;
      if (attempt >= ATTEMPTS) throw busy();
      // A short, random pause, so that the two writers do not meet again at once.
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}
