import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { servesPage } from '#src/lib/admin/areas.ts';
import { queryOf } from '#src/lib/form.ts';

/** An old reset or set-up link's token, carried to the new address; anything but text is none. */
const LegacyTokenQuery = z.object({ token: z.string().optional().catch(undefined) });

const LEGACY_AREAS: Record<string, string> = {
  forum: '/admin/forum',
  groups: '/admin/groups',
  members: '/admin/members',
  profile: '/admin/members',
  'expert-panels': '/admin/expert-panels',
  offers: '/admin/marketplace',
  notifications: '/admin/messages',
};

const queryString = (url: string) => {
  const i = url.indexOf('?');
  return i === -1 ? '' : url.slice(i);
};

/** Health checks, the legacy redirects of spec section 2, and /v2. */
export default async function systemRoutes(app: FastifyInstance) {
  app.get('/health', { config: { access: 'public', bare: true, rateLimit: false } }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(app.db);
      return reply.header('cache-control', 'no-store').send({ status: 'ok', database: 'ok' });
    } catch (err) {
      app.log.error({ err }, 'health check: database unreachable');
      return reply.code(503).header('cache-control', 'no-store').send({ status: 'error', database: 'unreachable' });
    }
  });

  /**
   * Readiness: 200 when the database answers (within 2 s), else 503, so a load balancer stops sending
   * traffic during an outage; the process recovers by itself and answers 200 again.
   */
  app.get('/health/ready', { config: { access: 'public', bare: true, rateLimit: false } }, async (_request, reply) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer within 2 s')), 2000);
      });
      await Promise.race([sql`select 1`.execute(app.db), timeout]);
      return reply.header('cache-control', 'no-store').send({ status: 'ok', database: 'ok' });
    } catch (err) {
      app.log.warn({ err }, 'readiness: database unreachable');
      return reply.code(503).header('cache-control', 'no-store').header('retry-after', '5').send({ status: 'unavailable', database: 'unreachable' });
    } finally {
      clearTimeout(timer);
    }
  });

  /** Liveness without the database: also the bench's bare route. */
  app.get('/health/live', { config: { access: 'public', bare: true, rateLimit: false } }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );

  app.get('/account/login', { config: { access: 'public', bare: true } }, async (request, reply) =>
    reply.redirectTo(`/login${queryString(request.url)}`, 301),
  );
  app.get('/account/forgot-password', { config: { access: 'public', bare: true } }, async (_request, reply) =>
    reply.redirectTo('/password/forgot', 301),
  );
  const withToken = (target: string) => async (request: { query?: unknown }, reply: { redirectTo: (p: string, s?: number) => unknown }) => {
    const { token } = queryOf(LegacyTokenQuery, request);
    return reply.redirectTo(typeof token === 'string' ? `${target}?token=${encodeURIComponent(token)}` : target, 301);
  };
  app.get('/account/reset-password', { config: { access: 'public', bare: true } }, withToken('/password/reset'));
  app.get('/account/set-password', { config: { access: 'public', bare: true } }, withToken('/password/setup'));

  // Legacy addresses of the previous app (decision 0003): admins go to the matching admin area, or to
  // the admin home while that area is not built (decision 0010); others to /v2.
  for (const [area, adminPath] of Object.entries(LEGACY_AREAS)) {
    const handler = async (request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) =>
      reply.redirectTo(request.guardian.isAdmin ? (servesPage(app, adminPath) ? adminPath : '/admin') : '/v2', 302);
    app.get(`/v1/${area}`, { config: { access: 'public' } }, handler);
    app.get(`/v1/${area}/*`, { config: { access: 'public' } }, handler);
  }
  app.get('/v2', { config: { access: 'public', bare: true } }, async (_request, reply) => reply.redirectTo('/', 302));
}
