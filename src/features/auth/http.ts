import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Community } from '#src/db/types.ts';
import type { AuthContext, LoginResult } from './account.ts';
import { AUTH_COOKIE, cleanUserAgent, REFRESH_COOKIE, revokeSession } from './sessions.ts';

/** What every sign-in transport (forms, REST, GraphQL) needs from HTTP: the service context and the cookies. */

export { REFRESH_COOKIE };

/** The cookie that remembers an admin's chosen community; cleared on sign-out (spec section 2). */
export const COMMUNITY_COOKIE = 'community';
export const REMEMBER_COOKIE = 'remember_email';

export function authContext(request: FastifyRequest): AuthContext {
  return { ...authContextFor(request.server, request.community, request.ip), userAgent: cleanUserAgent(request.headers['user-agent']) };
}

/** The same context outside a request (jobs). */
export function authContextFor(app: FastifyInstance, community: Community, ip: string): AuthContext {
  return {
    db: app.db,
    clock: app.clock,
    config: app.config,
    tokens: app.sessionTokens,
    messages: app.messages,
    jobs: app.jobs,
    t: app.t,
    community,
    ip,
  };
}

/**
 * Where to go after sign-in: a same-origin path inside the app only. Anything else (another host,
 * a scheme, `//evil`, backslashes, control characters) falls back to the root: no open redirect.
 */
export function safeRedirect(value: unknown, basePath: string): string {
  const root = basePath || '/';
  if (typeof value !== 'string' || value.length === 0 || value.length > 2000) return root;
  if (!value.startsWith('/') || value.startsWith('//') || /[\\\u0000-\u001f]/.test(value)) return root;
  let url: URL;
  try {
    url = new URL(value, 'http://app.invalid');
  } catch {
    return root;
  }
  if (url.host !== 'app.invalid') return root;
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (basePath && !(url.pathname === basePath || url.pathname.startsWith(`${basePath}/`))) return root;
  const inApp = basePath ? url.pathname.slice(basePath.length) || '/' : url.pathname;
  if (/^\/(login|logout|password\/|account\/)/.test(inApp)) return root;
  return path;
}

export function cookieOptions(app: FastifyInstance) {
  return { path: app.config.basePath || '/', httpOnly: true, sameSite: 'lax' as const, secure: app.config.isProduction };
}

/** Sets the signed auth cookie (persistent only with remember-me) and the refresh token. */
export function setSessionCookies(reply: FastifyReply, result: LoginResult, remember: boolean) {
  const app = reply.server;
  const base = cookieOptions(app);
  const maxAge = remember ? Math.floor((result.expiresAt.getTime() - app.clock.now().getTime()) / 1000) : undefined;
  reply.setCookie(AUTH_COOKIE, result.authToken, { ...base, maxAge });
  reply.setCookie(REFRESH_COOKIE, result.refreshToken, { ...base, maxAge });
}

export function rememberEmail(reply: FastifyReply, email: string, remember: boolean) {
  const base = cookieOptions(reply.server);
  if (remember) reply.setCookie(REMEMBER_COOKIE, email, { ...base, maxAge: 365 * 24 * 3600 });
  else reply.clearCookie(REMEMBER_COOKIE, { path: base.path });
}

export function clearSessionCookies(reply: FastifyReply) {
  const path = cookieOptions(reply.server).path;
  for (const name of [AUTH_COOKIE, REFRESH_COOKIE, COMMUNITY_COOKIE]) reply.clearCookie(name, { path });
}

/** A new sign-in replaces whatever session the browser had: no session fixation. */
export async function endCurrentSession(request: FastifyRequest) {
  if (request.identity.loggedIn) await revokeSession(request.server.db, request.server.clock, request.identity.sessionId);
}

