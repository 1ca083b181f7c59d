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
