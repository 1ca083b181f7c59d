import fp from 'fastify-plugin';
import { AppError } from '#src/core/errors.ts';

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
      // It counts only alongside a session cookie: once signed out, the host decides again.
      const chosen = request.cookies.community && request.cookies.auth ? request.unsignCookie(request.cookies.community) : null;
      const community = (chosen?.valid && chosen.value ? await app.communities.resolveCode(chosen.value) : undefined) ?? (await app.communities.resolve(request.hostname));
      if (!community) throw new AppError('NotFound', { cause: new Error(`No community for host ${request.hostname}`) });
      request.community = community;
    });
  },
  { name: 'community', dependencies: ['db'] },
);
