import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '#src/core/errors.ts';
import { displayName } from '#shared/format.ts';
import { authContext, clearSessionCookies, COMMUNITY_COOKIE, cookieOptions, endCurrentSession, rememberEmail, REFRESH_COOKIE, setSessionCookies } from './http.ts';
import type { LoginResult } from './account.ts';
import { verifyOneTimeCode } from './codes.ts';
import { loginAsAdmin, loginWithPassword } from './service.ts';
import { deriveIdentity, refreshSession, SHORT_SESSION_TTL_MS } from './sessions.ts';

/**
 * What the REST and GraphQL transports share: they call the same services as the sign-in forms and
 * hand the browser the same cookies (auth, refresh, the admin's community), replacing any session it
 * had (no session fixation). No business rule lives here.
 */

/** The spec's "Login result" as clients see it (section 3): without the internal expiry. */
export function loginResultView(result: LoginResult) {
  const { user, community, authToken, refreshToken, roles } = result;
  return { user, community, authToken, refreshToken, roles };
}

async function handOver(request: FastifyRequest, reply: FastifyReply, result: LoginResult, remember: boolean) {
  await endCurrentSession(request);
  setSessionCookies(reply, result, remember);
  // An admin's earlier choice of community must not follow a new sign-in; the admin sign-in sets it again.
  reply.clearCookie(COMMUNITY_COOKIE, { path: cookieOptions(request.server).path });
}

/**
 * Password sign-in. Without a target community, or with this one, it is the member sign-in; a target
 * community other than this one (or `admin: true`) is the admin sign-in, which also keeps the chosen
 * community in the signed `community` cookie, exactly as the admin form does.
 */
export async function signInWithPassword(
  request: FastifyRequest,
  reply: FastifyReply,
  input: { email: string; password: string; targetCommunity?: string | null; remember?: boolean; admin?: boolean },
): Promise<LoginResult> {
  const ctx = authContext(request);
  const target = input.targetCommunity ?? '';
  const asAdmin = input.admin === true || (target !== '' && target !== request.community.code);
  if (asAdmin) {
    const result = await loginAsAdmin(ctx, { email: input.email, password: input.password, targetCommunity: target });
    await handOver(request, reply, result, false);
    reply.setCookie(COMMUNITY_COOKIE, result.community.code, { ...cookieOptions(request.server), signed: true });
    return result;
  }
  const remember = input.remember ?? false;
  const result = await loginWithPassword(ctx, { email: input.email, password: input.password, remember });
  await handOver(request, reply, result, remember);
  rememberEmail(reply, input.email.trim(), remember);
  return result;
}

/** One-time-code sign-in. */
export async function signInWithCode(
  request: FastifyRequest,
  reply: FastifyReply,
  input: { email: string; code: string; remember?: boolean },
): Promise<LoginResult> {
  const remember = input.remember ?? false;
  const result = await verifyOneTimeCode(authContext(request), { email: input.email, code: input.code, remember });
  await handOver(request, reply, result, remember);
  rememberEmail(reply, input.email.trim(), remember);
  return result;
}

/** Revokes the session on the server and clears the cookies. */
export async function signOut(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await endCurrentSession(request);
  clearSessionCookies(reply);
}

/**
 * Exchanges a refresh token for a new pair on the same session (both rotate: the old ones stop
 * working, after a short grace in which the old refresh token answers the same pair). The token is
 * the one in the body (API clients, which keep no cookies), else the `refresh` cookie. A missing,
 * spent, revoked or other community's refresh token is NotAuthenticated. On a failure the cookies are
 * left alone: another tab may just have rotated them.
 */
export async function refreshSignIn(request: FastifyRequest, reply: FastifyReply, given?: string | null): Promise<LoginResult> {
  const app = request.server;
  const refreshToken = given || request.cookies[REFRESH_COOKIE];
  const next = refreshToken
    ? await refreshSession(app.db, app.sessionTokens, app.clock, { refreshToken, community: request.community, basePath: app.config.basePath })
    : null;
  if (!next) throw new AppError('NotAuthenticated');
  const identity = await deriveIdentity(app.db, app.sessionTokens, app.clock, next.token, request.community, app.config.basePath);
  if (!identity.loggedIn) throw new AppError('NotAuthenticated');
  const result: LoginResult = {
    user: { id: identity.user.id, email: identity.user.email, displayName: displayName(identity.user) },
    community: { code: request.community.code, name: request.community.name },
    authToken: next.token,
    refreshToken: next.refreshToken,
    roles: identity.user.roles,
    expiresAt: next.expiresAt,
  };
  // A remembered session (the long one) keeps persistent cookies; a short one keeps session cookies.
  setSessionCookies(reply, result, next.expiresAt.getTime() - app.clock.now().getTime() > SHORT_SESSION_TTL_MS);
  return result;
}
