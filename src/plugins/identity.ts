import fp from 'fastify-plugin';
import { Guardian } from '#src/core/guardian/index.ts';
import { PUBLIC_IDENTITY } from '#src/core/identity.ts';
import { bearerToken } from '#src/features/auth/index.ts';
import { AUTH_COOKIE, deriveIdentity } from '#src/features/auth/index.ts';

/**
 * Derives the identity (spec section 6) and builds the request's Guardian. On the API a bearer token
 * (the login result's authToken) is read before the cookie, with the very same checks.
 */
export default fp(
  async (app) => {
    app.decorateRequest('identity', null as never);
    app.decorateRequest('guardian', null as never);
    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.config?.bare || !request.community) {
        request.identity = PUBLIC_IDENTITY;
        return;
      }
      request.identity = await deriveIdentity(
        app.db,
        app.sessionTokens,
        app.clock,
        bearerToken(request) ?? request.cookies[AUTH_COOKIE],
        request.community,
        app.config.basePath,
      );
      request.guardian = new Guardian(request.identity, request.community);
    });
  },
  { name: 'identity', dependencies: ['community'] },
);
