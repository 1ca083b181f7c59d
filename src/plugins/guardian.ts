import fp from 'fastify-plugin';
import { AppError } from '#src/core/errors.ts';
import type { Access } from '#src/core/guardian/index.ts';
import { isPageNavigation } from '#src/lib/negotiation.ts';

const ACCESS: readonly Access[] = ['public', 'member', 'admin'];


/**
 * Every route declares its access; the app refuses to start otherwise. Routes added by libraries
 * (static files, GraphQL) are given theirs here, by path, with their rate limit where it differs
 * (`rateLimit: false`: static files do not count against the page limit). Then each request is
 * checked against it.
 */
export default fp(
  async (app, opts: { pluginRoutes: Array<{ prefix: string; access: Access; bare?: boolean; csrf?: false; rateLimit?: false }> }) => {
    app.addHook('onRoute', (route) => {
      const declared = route.config?.access;
      if (declared !== undefined) {
        if (!ACCESS.includes(declared)) throw new Error(`Route ${route.method} ${route.url} declares unknown access "${declared}"`);
        return;
      }
      const known = opts.pluginRoutes.find((p) => route.url === p.prefix || route.url.startsWith(`${p.prefix}/`));
      if (!known) {
        throw new Error(`Route ${String(route.method)} ${route.url} declares no access (config.access: public | member | admin)`);
      }
      route.config = { ...route.config, access: known.access, bare: known.bare ?? route.config?.bare, csrf: known.csrf };
      // Registered before the rate limiter: its onRoute hook, which runs after this one, reads it.
      if (known.rateLimit === false) route.config.rateLimit = false;
    });

    const base = app.config.basePath;
    // preParsing: after the identity (onRequest hooks), before any body is read or CSRF checked.
    app.addHook('preParsing', (request, reply, payload, done) => {
      const config = request.routeOptions.config;
      if (!config?.access || !request.routeOptions.url || !request.guardian) return done(null, payload);
      const guardian = request.guardian;
      if (config.access === 'public') {
        // Spec section 2: a signed-in user whose gate is onboarding is sent to onboarding from every
        // page, public ones (the home page, a roundup) included; sign-in, password, sign-out and
        // onboarding's own routes declare allowDuringOnboarding. Calls to public APIs are not pages.
        if (guardian.mustOnboard && !config.allowDuringOnboarding && !guardian.isAdmin && isPageNavigation(request)) {
          return void reply.redirect(`${base}/get-started`, 303);
        }
        return done(null, payload);
      }
      if (!guardian.canAccess(config.access)) {
        // Spec section 2: settings, the editor and the admin area send visitors to sign-in, with a way
        // back; the admin area sends signed-in non-admins there too (the sign-in page then asks for an
        // admin account instead of sending them straight back).
        if (isPageNavigation(request) && (!guardian.isSignedIn || config.access === 'admin')) {
          return void reply.redirect(`${base}/login?redirect=${encodeURIComponent(request.url)}`, 303);
        }
        return done(new AppError(guardian.isSignedIn ? 'Forbidden' : 'NotAuthenticated'));
      }
      if (guardian.mustOnboard && !config.allowDuringOnboarding && !guardian.isAdmin) {
        if (isPageNavigation(request)) return void reply.redirect(`${base}/get-started`, 303);
        return done(new AppError('Forbidden'));
      }
      done(null, payload);
    });
  },
  { name: 'guardian' },
);
