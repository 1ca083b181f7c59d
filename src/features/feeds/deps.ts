import type { FastifyRequest } from 'fastify';
import { AppError } from '#src/core/errors.ts';
import { parseId } from '#src/core/ids.ts';
import type { Db } from '#src/db/index.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import { requestDeps, signedInViewer, type Viewer } from '#src/lib/request-deps.ts';
import { retriedTransaction } from '#src/lib/transactions.ts';

/** What every feeds service gets: the request's database, clock, community (a whole row: the forum's switch), words. */
export type FeedsDeps = Pick<ReturnType<typeof requestDeps>, 'db' | 'clock' | 'community' | 't'>;
/** The signed-in member acting; staff are the community's admins. */
export type FeedsViewer = Viewer;

export function feedsDeps(request: FastifyRequest): FeedsDeps {
  const { db, clock, community, t } = requestDeps(request);
  return { db, clock, community, t };
}

export const feedsViewer: (request: FastifyRequest) => FeedsViewer = signedInViewer;

/** GraphQL's: the signed-in member (cookie with CSRF, or bearer) acting in the context's community. */
export function graphqlDeps(ctx: GraphQLContext): { deps: FeedsDeps; viewer: FeedsViewer } {
  ctx.guardian.ensureSignedIn();
  const app = ctx.request.server;
  return { deps: { db: ctx.db, clock: app.clock, community: ctx.community, t: app.t }, viewer: { userId: ctx.guardian.userId!, isStaff: ctx.guardian.isAdmin } };
}

/** A staff action: the community's admins only (else Forbidden). */
export function ensureStaff(viewer: FeedsViewer): void {
  if (!viewer.isStaff) throw new AppError('Forbidden');
}

/** A feeds write's transaction: tried again when it loses to another write, then 'Feeds.Busy' (409). */
export function feedsTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return retriedTransaction(db, () => new AppError('Feeds.Busy'), fn);
}

/** An announcement's or featured item's id from a path or an argument: anything that is not an id is the same answer as an unknown one. */
export function feedIdOf(value: unknown): number {
  const id = parseId(value);
  if (id === null) throw new AppError('Feeds.NotFound');
  return id;
}
