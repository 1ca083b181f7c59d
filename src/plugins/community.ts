import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { AppError } from '#src/core/errors.ts';
import { bearerToken } from '#src/features/auth/index.ts';

/** An admin's bearer token carries the community chosen at the admin sign-in, as the cookie does. */
async function adminBearerCommunity(request: FastifyRequest): Promise<string | undefined> {
  const token = bearerToken(request);
  const claims = token ? await request.server.sessionTokens.verify(token) : null;
  return claims && request.server.sessionTokens.kindFromAudience(claims.aud) === 'ADMIN' ? claims.brand : undefined;
}

/** Finds the community of each request from its host name, else the configured default. */
export default fp(
  async (app) => {
    app.decorateRequest('community', null as never);
    app.decorateRequest('appPath', '');
    const base = app.config.basePath;
    app.addHook('onRequest', async (request) => {
      const path = request.url.split('?')[0]!;
      request.appPath = base && path.startsWith(base) ? path.slice(base.length) || '/' : path;
      if (request.routeOptions.config?.bare) return;
      // The admin sign-in may pick another community than the host's; it is kept in a signed cookie.
      // It counts only alongside a session cookie: once signed out, the host decides again. An API
      // client's bearer token, which stands for the cookies, carries that choice itself.
      const chosen = request.cookies.community && request.cookies.auth ? request.unsignCookie(request.cookies.community) : null;
      const code = bearerToken(request) ? await adminBearerCommunity(request) : chosen?.valid && chosen.value ? chosen.value : undefined;
      const community = (code ? await app.communities.resolveCode(code) : undefined) ?? (await app.communities.resolve(request.hostname));
      if (!community) throw new AppError('NotFound', { cause: new Error(`No community for host ${request.hostname}`) });
      request.community = community;
    });
  },
  { name: 'community', dependencies: ['db'] },
);
