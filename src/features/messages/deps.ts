import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '#src/core/errors.ts';
import type { Db } from '#src/db/index.ts';
import type { Tenant } from '#src/db/tenancy.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { JobQueue } from '#src/lib/jobs/queue.ts';
import { requestDeps, signedInViewer, type Viewer } from '#src/lib/request-deps.ts';
import { retriedTransaction } from '#src/lib/transactions.ts';

/** What every messages service gets: the request's deps (database, clock, community, words, notifier) and the queue. */
export type MessagesDeps = Omit<ReturnType<typeof requestDeps>, 'community'> & { community: Tenant; jobs: JobQueue };
export type MessagesViewer = Viewer;

export function messagesDeps(request: FastifyRequest): MessagesDeps {
  return { ...requestDeps(request), jobs: request.server.jobs };
}

/** The same deps for a job acting in `community` (no request). */
export function jobDeps(app: FastifyInstance, community: Tenant): MessagesDeps {
  return { db: app.db, clock: app.clock, community, t: app.t, notifier: app.notifications, publicUrl: `${app.config.publicUrl}${app.config.basePath}`, jobs: app.jobs };
}

/** GraphQL's: the signed-in member (cookie with CSRF, or bearer) acting in the context's community. */
export function graphqlDeps(ctx: GraphQLContext): { deps: MessagesDeps; viewer: MessagesViewer } {
  ctx.guardian.ensureSignedIn();
  const app = ctx.request.server;
  return {
    deps: { db: ctx.db, clock: app.clock, community: ctx.community, t: app.t, notifier: app.notifications, publicUrl: `${app.config.publicUrl}${app.config.basePath}`, jobs: app.jobs },
    viewer: { userId: ctx.guardian.userId!, isStaff: ctx.guardian.isAdmin },
  };
}

export const messagesViewer: (request: FastifyRequest) => MessagesViewer = signedInViewer;

/** A staff action: the community's admins only (else Forbidden). */
export function ensureStaff(viewer: MessagesViewer): void {
  if (!viewer.isStaff) throw new AppError('Forbidden');
}

/** A messages write's transaction: tried again when it loses to another write, then 'Messages.Busy' (409). */
export function messagesTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return retriedTransaction(db, () => new AppError('Messages.Busy'), fn);
}

/** A message id from a path or an argument: anything that is not an id is the same answer as an unknown one. */
export function messageIdOf(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > 2_147_483_647) throw new AppError('Messages.NotFound');
  return n;
}
