import type { FastifyRequest } from 'fastify';
import { AppError } from '#src/core/errors.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity } from '#src/db/tenancy.ts';
import type { JobQueue } from '#src/lib/jobs/queue.ts';
import type { Messages } from '#src/lib/messaging/outgoing.ts';
import { requestDeps, signedInViewer, type Viewer } from '#src/lib/request-deps.ts';
import { retriedTransaction } from '#src/lib/transactions.ts';

/**
 * What every offers service gets: the request's deps (the database, the clock, the community,
 * translations), the durable queue's messages (the concierge's mail) and the address mail comes from.
 */
export type OffersDeps = ReturnType<typeof requestDeps> & { jobs: JobQueue; messages: Messages; mailFrom: string };

/** The signed-in member acting; staff are the community's admins (src/lib/request-deps.ts). */
export type OffersViewer = Viewer;

export function offersDeps(request: FastifyRequest): OffersDeps {
  const app = request.server;
  return { ...requestDeps(request), jobs: app.jobs, messages: app.messages, mailFrom: app.config.mailFrom };
}

/** The signed-in member (else NotAuthenticated). */
export const offersViewer: (request: FastifyRequest) => OffersViewer = signedInViewer;

/** A staff action: the community's admins only (else Forbidden). */
export function ensureStaff(viewer: OffersViewer): void {
  if (!viewer.isStaff) throw new AppError('Forbidden');
}

/**
 * The executive tier (decision 0052): a membership whose `membership_tier` is "Executive" (the tier the
 * staff's members area already shows and filters by), read from the database each time. Staff see
 * every tier.
 */
export const EXEC_TIER = 'executive';

export async function hasExecTier(deps: Pick<OffersDeps, 'db' | 'community'>, viewer: OffersViewer): Promise<boolean> {
  if (viewer.isStaff) return true;
  const row = await selectInCommunity(deps.db, 'memberships', deps.community)
    .select('membership_tier')
    .where('user_id', '=', viewer.userId)
    .where('is_active', '=', true)
    .executeTakeFirst();
  return (row?.membership_tier ?? '').trim().toLowerCase() === EXEC_TIER;
}

/** An offers write's transaction: tried again when it loses to another write, then 'Offers.Busy' (409). */
export function offersTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return retriedTransaction(db, () => new AppError('Offers.Busy'), fn);
}
