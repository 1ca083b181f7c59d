import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import csrf from '@fastify/csrf-protection';
import rateLimit from '@fastify/rate-limit';
import { AppError } from '#src/core/errors.ts';
import { AUTH_COOKIE } from '#src/features/auth/sessions.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

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

    await app.register(rateLimit, {
      global: true,
      max: app.config.rateLimitMax,
      timeWindow: '1 minute',
      errorResponseBuilder: () => new AppError('RateLimited'),
    });

    await app.register(csrf, {
      sessionPlugin: '@fastify/cookie',
      cookieKey: '_csrf',
      cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true, secure: isProduction, signed: true },
      getToken: (request) => {
        const body = request.body as Record<string, unknown> | undefined;
        const fromBody = body && typeof body === 'object' && typeof body._csrf === 'string' ? body._csrf : undefined;
        const header = request.headers['x-csrf-token'];
        return fromBody ?? (typeof header === 'string' ? header : undefined);
      },
    });

    app.addHook('preValidation', (request, reply, done) => {
      if (!UNSAFE.has(request.method) || !request.routeOptions.url) return done();
      // A request with none of our cookies cannot be a cross-site forgery riding on them (API clients).
      const carriesCookies = request.cookies[AUTH_COOKIE] !== undefined || request.cookies._csrf !== undefined;
      if (request.routeOptions.config?.csrf === false && !carriesCookies) return done();
      app.csrfProtection(request, reply, (err?: Error) => {
        if (err) return done(new AppError('BadRequest.Csrf', { cause: err }));
        done();
      });
    });
  },
  { name: 'security' },
);
