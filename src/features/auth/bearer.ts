import type { FastifyRequest } from 'fastify';

/**
 * Clients that are not our pages (a mobile app, an integration) keep no cookies: they send the
 * `authToken` of the login result as `Authorization: Bearer <authToken>`. It stands for the auth
 * cookie on the API only (GraphQL and /rest), is checked against the same server-side session, and,
 * since a browser never adds it by itself, a request that carries it and none of our cookies needs no
 * CSRF token.
 */

/** The API's routes (the route's pattern, not the raw URL): /graphql, /graphqlAdmin and /rest/*. */
export function isApiRoute(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (!route) return false;
  const base = request.server.config.basePath;
  if (base && !route.startsWith(`${base}/`)) return false;
  const path = route.slice(base.length);
  return path === '/graphql' || path === '/graphqlAdmin' || path.startsWith('/rest/');
}

const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

/** The bearer token of an API request, if it has one (on a page it counts for nothing). */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || header.length > 4096 || !isApiRoute(request)) return undefined;
  return BEARER.exec(header)?.[1];
}
