import type { FastifyRequest } from 'fastify';
import { AppError } from '#src/core/errors.ts';
import type { Clock } from '#src/core/clock.ts';
import { requireId } from '#src/core/ids.ts';
import type { Db } from '#src/db/index.ts';
import type { Tenant } from '#src/db/tenancy.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import { signedInViewer, type Viewer } from '#src/lib/request-deps.ts';
import { retriedTransaction } from '#src/lib/transactions.ts';

/** What every content bank service gets: the database, the clock, the community, and where links point (public address with the base path). */
export type BankDeps = { db: Db; clock: Clock; community: Tenant; publicUrl: string };
export type BankViewer = Viewer;

export function bankDeps(request: FastifyRequest): BankDeps {
  const app = request.server;
  return { db: app.db, clock: app.clock, community: request.community, publicUrl: `${app.config.publicUrl}${app.config.basePath}` };
}

export const bankViewer: (request: FastifyRequest) => BankViewer = signedInViewer;

/** GraphQL's: the signed-in staff member (cookie with CSRF, or bearer) acting in the context's community. */
export function graphqlDeps(ctx: GraphQLContext): { deps: BankDeps; viewer: BankViewer } {
  ctx.guardian.ensureSignedIn();
  const app = ctx.request.server;
  return {
    deps: { db: ctx.db, clock: app.clock, community: ctx.community, publicUrl: `${app.config.publicUrl}${app.config.basePath}` },
    viewer: { userId: ctx.guardian.userId!, isStaff: ctx.guardian.isAdmin },
  };
}

/** The content bank is the staff's: the community's admins only (else Forbidden). */
export function ensureStaff(viewer: BankViewer): void {
  if (!viewer.isStaff) throw new AppError('Forbidden');
}

/** A content bank write's transaction: tried again when it loses to another write, then 'ContentBank.Busy' (409). */
export function bankTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return retriedTransaction(db, () => new AppError('ContentBank.Busy'), fn);
}

/** A row id from a path, a form or an argument (the one id parser): anything that is not an id is the same answer as an unknown one. */
export const bankIdOf = (value: unknown): number => requireId(value, () => new AppError('ContentBank.NotFound'));
