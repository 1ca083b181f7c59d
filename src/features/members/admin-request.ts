import type { FastifyRequest } from 'fastify';
import type { AdminMembersDeps, Staff } from './admin.ts';

/** The services' plain dependencies for a request. */
export function adminMembersDeps(request: FastifyRequest): AdminMembersDeps {
  const app = request.server;
  return { db: app.db, clock: app.clock, jobs: app.jobs };
}

/** The signed-in admin (the route's access is 'admin'; the services check each community). */
export function staffOf(request: FastifyRequest): Staff {
  request.guardian.ensureAdmin();
  return { userId: request.guardian.userId! };
}
