import type { FastifyRequest } from 'fastify';
import { AppError } from '#src/core/errors.ts';
import type { Db } from '#src/db/index.ts';
import { retriedTransaction } from '#src/lib/transactions.ts';
import type { JobQueue } from '#src/lib/jobs/queue.ts';
import { requestDeps, signedInViewer, type Viewer } from '#src/lib/request-deps.ts';

/**
 * What every expert-panels service gets (issue 15): the request's deps (the database, the clock, the
 * community, translations, the notifier, where links point) and the job queue (invitations,
 * reminders, notices).
 */
export type EpDeps = ReturnType<typeof requestDeps> & { jobs: JobQueue };

/** The signed-in member acting; editors are the community's staff (admins). */
export type EpViewer = Viewer;

export function epDeps(request: FastifyRequest): EpDeps {
  return { ...requestDeps(request), jobs: request.server.jobs };
}

/** The signed-in member (else NotAuthenticated). */
export const epViewer = signedInViewer;

/** An editor's action: staff only (else Forbidden). */
export function ensureEditor(viewer: EpViewer): void {
  if (!viewer.isStaff) throw new AppError('Forbidden');
}

/** An expert panels write's transaction: tried again when it loses to another write, then 'ExpertPanels.Busy' (409). */
export function epTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return retriedTransaction(db, () => new AppError('ExpertPanels.Busy'), fn);
}
