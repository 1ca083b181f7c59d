import type { FastifyRequest } from 'fastify';
import { AppError } from '#src/core/errors.ts';
import type { Clock } from '#src/core/clock.ts';
import type { Translate } from '#src/core/i18n.ts';
import type { Db } from '#src/db/index.ts';
import type { Community } from '#src/db/types.ts';
import { signedInViewer, type Viewer } from '#src/lib/request-deps.ts';
import { retriedTransaction } from '#src/lib/transactions.ts';
import type { OriginRequest } from './addresses.ts';

/**
 * What every syndication service gets: the database, the clock, the request's community, translations,
 * where the community's addresses are (`site`: the origin and path prefix links are made on), and
 * `changed`, called after a staff change commits (this process forgets its cached communities, whose
 * row carries the enabled feeds; the other processes hear the change announced in its transaction).
 */
export type SyndicationDeps = {
  db: Db;
  clock: Clock;
  community: Community;
  t: Translate;
  site: OriginRequest;
  changed: () => void;
};

/** The signed-in member acting; staff are the community's admins. */
export type SyndicationViewer = Viewer;

/** The request as the community's addresses are read from it (scheme, host, port). */
export function originRequestOf(request: FastifyRequest): OriginRequest {
  const app = request.server;
  return {
    protocol: request.protocol,
    host: request.host,
    hostname: request.hostname,
    publicUrl: app.config.publicUrl,
    basePath: app.config.basePath,
    isDefaultCommunity: request.community.code === app.config.defaultCommunity,
  };
}

export function syndicationDeps(request: FastifyRequest): SyndicationDeps {
  const app = request.server;
  return { db: app.db, clock: app.clock, community: request.community, t: app.t, site: originRequestOf(request), changed: () => app.communities.invalidate() };
}

export const syndicationViewer: (request: FastifyRequest) => SyndicationViewer = signedInViewer;

/** A staff action: the community's admins only (else Forbidden). */
export function ensureStaff(viewer: SyndicationViewer): void {
  if (!viewer.isStaff) throw new AppError('Forbidden');
}

/** A syndication write's transaction: tried again when it loses to another write, then 'Syndication.Busy' (409). */
export function syndicationTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return retriedTransaction(db, () => new AppError('Syndication.Busy'), fn);
}

