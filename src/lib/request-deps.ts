import type { FastifyRequest } from 'fastify';

/**
 * What most feature services get from a page or REST request: the database, the clock, the request's
 * community, translations, the notifier and where links point (the public address with the base path).
 * A feature adds what else it needs (e.g. introductions: messages and the mail sender).
 */
export function requestDeps(request: FastifyRequest) {
  const app = request.server;
  return {
    db: app.db,
    clock: app.clock,
    community: request.community,
    t: app.t,
    notifier: app.notifications,
    publicUrl: `${app.config.publicUrl}${app.config.basePath}`,
  };
}

/**
 * The signed-in member acting, as the areas' services take them: staff are the community's admins.
 * Anything finer (a moderator, a panel's member) is read from the database each time, never trusted
 * from the session.
 */
export type Viewer = { userId: number; isStaff: boolean };

/** The request's signed-in member (else NotAuthenticated). */
export function signedInViewer(request: FastifyRequest): Viewer {
  request.guardian.ensureSignedIn();
  return { userId: request.guardian.userId!, isStaff: request.guardian.isAdmin };
}
