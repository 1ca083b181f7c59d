import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '#src/core/clock.ts';
import type { Db } from '#src/db/index.ts';
import type { Tenant } from '#src/db/tenancy.ts';

/** What every insights service gets: the database, the clock, the community, and how long raw events are kept. */
export type InsightsDeps = { db: Db; clock: Clock; community: Tenant; retentionDays: number };

export function insightsDeps(request: FastifyRequest, community: Tenant = request.community): InsightsDeps {
  const app = request.server;
  return { db: app.db, clock: app.clock, community, retentionDays: app.config.insightsRetentionDays };
}

/** The same for a job acting in `community` (no request). */
export function jobDeps(app: FastifyInstance, community: Tenant): InsightsDeps {
  return { db: app.db, clock: app.clock, community, retentionDays: app.config.insightsRetentionDays };
}
