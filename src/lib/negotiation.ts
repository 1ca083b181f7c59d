import type { FastifyRequest } from 'fastify';

/** REST and GraphQL paths, and clients that ask for JSON only, get JSON errors. */
export function wantsJson(request: FastifyRequest): boolean {
  const path = request.appPath ?? request.url;
  if (path.startsWith('/rest/') || path.startsWith('/graphql')) return true;
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}

export const isHtmx = (request: FastifyRequest) => request.headers['hx-request'] === 'true';

/** A browser navigating to a page: may be redirected. */
export const isPageNavigation = (request: FastifyRequest) =>
  (request.method === 'GET' || request.method === 'HEAD') && !isHtmx(request) && !wantsJson(request);
