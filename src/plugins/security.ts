import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet from '@fastify/helmet';
import csrf from '@fastify/csrf-protection';
import CsrfTokens from '@fastify/csrf';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { AppError } from '#src/core/errors.ts';
import { bearerToken } from '#src/features/auth/index.ts';
import { AUTH_COOKIE, REFRESH_COOKIE } from '#src/features/auth/index.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The token comes in the form's `_csrf` field, or the `x-csrf-token` header (htmx, islands). */
function csrfToken(request: FastifyRequest): string | undefined {
  const body = request.body as Record<string, unknown> | undefined;
  if (body && typeof body === 'object' && typeof body._csrf === 'string') return body._csrf;
  const header = request.headers['x-csrf-token'];
  return typeof header === 'string' ? header : undefined;
}

/** A JSON body: what no HTML form can send, and what a script of another site cannot send unasked. */
function isJson(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  return typeof type === 'string' && type.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/** The browser says the call comes from another site (Sec-Fetch-Site), or from an origin not ours. */
function isCrossSite(request: FastifyRequest): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  if (!URL.canParse(origin)) return true; // "null" (a sandboxed frame, a redirect chain) included
  const from = new URL(origin);
  // Our host as the origin's scheme writes it (a default port left out), so the ports compare fairly.
  const ours = `${from.protocol}//${request.host}`;
  return !URL.canParse(ours) || new URL(ours).host !== from.host;
}

/**
 * Adds sources to directives of this answer's CSP (the header helmet wrote for the request), for a
 * page that loads a third party's script on purpose: the community's Google tags, once the visitor
 * agreed (insights, decision 0062). Every other page keeps the policy as it is.
 */
export function extendCsp(reply: FastifyReply, additions: Readonly<Record<string, readonly string[]>>): void {
  const header = reply.getHeader('content-security-policy');
  if (typeof header !== 'string') return;
  const directives = header.split(';').map((d) => d.trim()).filter(Boolean);
  for (const [name, sources] of Object.entries(additions)) {
    const i = directives.findIndex((d) => d === name || d.startsWith(`${name} `));
    if (i === -1) directives.push(`${name} ${sources.join(' ')}`);
    else directives[i] = `${directives[i]} ${sources.filter((s) => !directives[i]!.split(' ').includes(s)).join(' ')}`.trim();
  }
  reply.header('content-security-policy', directives.join(';'));
}

/**
 * Security headers with a nonce-based CSP, CSRF on every state-changing request that could ride on
 * the browser's cookies, and a global rate limit (routes may set stricter ones via config.rateLimit).
 */
export default fp(
  async (app) => {
    const { isProduction } = app.config;
    await app.register(helmet, {
      enableCSPNonces: true,
      contentSecurityPolicy: {
        directives: {
          'default-src': ["'self'"],
          'script-src': ["'self'"],
          'style-src': ["'self'"],
          'img-src': ["'self'", 'data:', 'https:'],
          'connect-src': ["'self'"],
          'font-src': ["'self'"],
          'object-src': ["'none'"],
          'base-uri': ["'self'"],
          'form-action': ["'self'"],
          'frame-ancestors': ["'none'"],
          'upgrade-insecure-requests': isProduction ? [] : null,
        },
      },
      hsts: isProduction ? { maxAge: 31536000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    });

    // Nothing but public static files may be kept by a browser or a shared cache: sign-in tokens, a
    // member's balance, an invitee's email and every GraphQL answer are private, whatever the route
    // forgets to say. A route that sets its own Cache-Control (the static files, a bundle, an avatar,
    // the service worker) keeps it; everything else is `no-store`, here, once.
    app.addHook('onSend', async (_request, reply, payload) => {
      // The static files' header is written on the raw response (app.ts, setHeaders).
      if (!reply.hasHeader('cache-control') && !reply.raw.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      return payload;
    });

    // With REDIS_URL the counts are shared by every process behind the load balancer; a Redis that
    // does not answer lets requests through (skipOnError) rather than taking the site down with it.
    const redis = app.config.redisUrl
      ? new Redis(app.config.redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false })
      : undefined;
    if (redis) {
      redis.on('error', (err) => app.log.warn({ err }, 'Redis unavailable: rate limits fall back to letting requests through'));
      // Start counting in Redis from the first request when it answers; start anyway when it does not.
      app.addHook('onReady', async () => {
        if (redis.status === 'ready') return;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 2000);
          redis.once('ready', () => (clearTimeout(timer), resolve()));
        });
      });
      app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
    }
    await app.register(rateLimit, {
      global: true,
      ...(redis ? { redis, nameSpace: 'community-rl:', skipOnError: true } : {}),
      max: app.config.rateLimitMax,
      timeWindow: '1 minute',
      errorResponseBuilder: () => new AppError('RateLimited'),
    });

    await app.register(csrf, {
      sessionPlugin: '@fastify/cookie',
      cookieKey: '_csrf',
      cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true, secure: isProduction, signed: true },
    });

    // Verified here rather than with the plugin's csrfProtection, which answers by itself: this way a
    // failure is the catalogue's BadRequest.Csrf, rendered like every other error (page, JSON, GraphQL).
    const tokens = new CsrfTokens() as unknown as { verify(secret: string, token: string): boolean };
    // A multipart body (an upload) is read by its area's parser in a later preValidation hook: its
    // token is checked once that has run (preHandler), from the parsed `_csrf` field or the header.
    const isMultipart = (request: FastifyRequest) => /^multipart\/form-data\b/i.test(String(request.headers['content-type'] ?? ''));
    app.addHook('preValidation', async (request) => {
      if (!isMultipart(request)) await verifyCsrf(request);
    });
    app.addHook('preHandler', async (request) => {
      if (isMultipart(request)) await verifyCsrf(request);
    });
    async function verifyCsrf(request: FastifyRequest) {
      if (!UNSAFE.has(request.method) || !request.routeOptions.url) return;
      // A signed link is its own authority (plugins/types.ts, `csrf: 'signed-link'`): the route refuses
      // any request without a valid token and acts only on the token's subject, never on a session.
      if (request.routeOptions.config?.csrf === 'signed-link') return;
      // The refresh cookie counts: it alone can mint a new auth cookie (token refresh).
      const carriesCookies =
        request.cookies[AUTH_COOKIE] !== undefined || request.cookies[REFRESH_COOKIE] !== undefined || request.cookies._csrf !== undefined;
      // A client with its bearer token: no browser adds an Authorization header by itself (cross-site
      // it needs a preflight, never granted), so this is the client's own request, whatever cookies
      // its HTTP stack keeps and sends back (mobile cookie jars do). The bearer is its identity too.
      if (bearerToken(request)) return;
      if (!carriesCookies) {
        // The cookie-less JSON calls (sign-in, GraphQL) work without a page first. Login CSRF stays
        // closed: a cross-site page can send JSON only after a preflight, which is never granted, and
        // a cross-site request that says where it comes from is refused outright.
        if (request.routeOptions.config?.csrf === false) {
          if (!isJson(request) || isCrossSite(request)) throw new AppError('BadRequest.Csrf');
          return;
        }
      }
      const signed = request.cookies._csrf;
      const secret = signed ? request.unsignCookie(signed) : null;
      const token = csrfToken(request);
      if (!secret?.valid || !secret.value || !token || !tokens.verify(secret.value, token)) {
        throw new AppError('BadRequest.Csrf');
      }
    }
  },
  { name: 'security' },
);
