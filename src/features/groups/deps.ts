import type { FastifyRequest } from 'fastify';
import { AppError } from '#src/core/errors.ts';
import type { Db } from '#src/db/index.ts';
import { requestDeps, signedInViewer, type Viewer } from '#src/lib/request-deps.ts';
import { retriedTransaction } from '#src/lib/transactions.ts';
import type { JobQueue } from '#src/lib/jobs/queue.ts';

/** What every groups service gets: the request's deps (database, clock, community, translations, notifier) and the queue (the forum's, for the discussion). */
export type GroupsDeps = ReturnType<typeof requestDeps> & { jobs: JobQueue };

/** The signed-in member acting; staff are the community's admins. Chairs and members are read from the database each time. */
export type GroupsViewer = Viewer;

export function groupsDeps(request: FastifyRequest): GroupsDeps {
  return { ...requestDeps(request), jobs: request.server.jobs };
}

export const groupsViewer: (request: FastifyRequest) => GroupsViewer = signedInViewer;

/** A staff action: the community's admins only (else Forbidden). */
export function ensureStaff(viewer: GroupsViewer): void {
  if (!viewer.isStaff) throw new AppError('Forbidden');
}

/** A groups write's transaction: tried again when it loses to another write, then 'Groups.Busy' (409). */
export function groupsTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return retriedTransaction(db, () => new AppError('Groups.Busy'), fn);
}
