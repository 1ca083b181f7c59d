import type { FastifyRequest } from 'fastify';
import type { BadgeDeps } from './evaluate.ts';

/** What the badges' services get from a request: the database, the clock, its community, messages, the notifier. */
export function badgeDeps(request: FastifyRequest): BadgeDeps {
  const app = request.server;
  return { db: app.db, clock: app.clock, community: request.community, t: app.t, notifier: app.notifications };
}
