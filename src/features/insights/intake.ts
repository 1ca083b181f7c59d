import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '#src/core/errors.ts';
import { bearerToken } from '#src/features/auth/index.ts';
import { insightsDeps } from './deps.ts';
import { deviceOf, EVENT_LIMITS, parseEvents, recordEvents } from './events.ts';

/**
 * The one way events come in, whatever the transport (the browser's beacon, an app's REST call,
 * GraphQL `trackEvent`): a signed-in member; for a cookie call, our own pages only (the CSRF token,
 * checked by the security plugin for the REST endpoint, and here the browser's word that the call is
 * same-origin); a limit per member; the batch checked, then written before the answer.
 */

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
const limiters = new WeakMap<object, Limiter>();

/** Counts one batch of this member; past the limit, the catalogue's RateLimited (429). Redis-backed when REDIS_URL is set. */
async function ensureWithinLimit(request: FastifyRequest): Promise<void> {
  const app = request.server;
  let limiter = limiters.get(app.config);
  if (!limiter) {
    limiter = app.createRateLimit({ max: EVENT_LIMITS.perMinute, timeWindow: 60_000, keyGenerator: (r) => `insights:${r.community.id}:${r.identity.user?.id ?? 0}` });
    limiters.set(app.config, limiter);
  }
  const outcome = await limiter(request);
  if (!outcome.isAllowed && outcome.isExceeded) throw new AppError('RateLimited');
}

/**
 * A cookie call must come from a page of this very origin: the browser says so (Sec-Fetch-Site
 * same-origin), or says nothing (an older browser: then the Origin, when given, must be ours). A
 * sibling community's page (same site, another host) is refused too.
 */
export function ensureSameOrigin(request: FastifyRequest): void {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') throw new AppError('Insights.CrossSite');
  const origin = request.headers.origin;
  if (origin === undefined) return;
  if (!URL.canParse(origin)) throw new AppError('Insights.CrossSite');
  if (new URL(origin).host !== request.host) throw new AppError('Insights.CrossSite');
}

/** Accepts a batch of events for the request's member; answers how many were written. */
export async function acceptEvents(request: FastifyRequest, input: unknown): Promise<number> {
  request.guardian.ensureSignedIn();
  const userId = request.guardian.userId!;
  const viaApp = Boolean(bearerToken(request));
  if (!viaApp) ensureSameOrigin(request);
  await ensureWithinLimit(request);
  const events = parseEvents(input, request.server.config.basePath);
  return recordEvents(insightsDeps(request), userId, events, deviceOf(request, viaApp));
}
