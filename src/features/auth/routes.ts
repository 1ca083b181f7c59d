import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_COOKIE, revokeSession } from './sessions.ts';

/** The cookie that remembers an admin's chosen community; cleared on sign-out (spec section 2). */
export const COMMUNITY_COOKIE = 'community';

export default async function authRoutes(app: FastifyInstance) {
  const cookiePath = app.config.basePath || '/';

  async function signOut(request: FastifyRequest, reply: FastifyReply) {
    if (request.identity.loggedIn) await revokeSession(app.db, app.clock, request.identity.sessionId);
    reply.clearCookie(AUTH_COOKIE, { path: cookiePath });
    reply.clearCookie(COMMUNITY_COOKIE, { path: cookiePath });
    return reply.redirectTo('/login', 303);
  }

  app.post('/logout', { config: { access: 'public' } }, signOut);

  // A GET sign-out is honoured only when the navigation starts on this site (or is typed in), so
  // another site cannot sign members out with a link or an image.
  const getSignOut = async (request: FastifyRequest, reply: FastifyReply) => {
    const site = request.headers['sec-fetch-site'];
    if (site === undefined || site === 'same-origin' || site === 'none') return signOut(request, reply);
    return reply.redirectTo('/', 303);
  };
  app.get('/logout', { config: { access: 'public' } }, getSignOut);
  app.get('/account/logout', { config: { access: 'public' } }, getSignOut);
}
