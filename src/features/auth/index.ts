/**
 * The sign-in area's public face: the only module other areas (and the app's plugins) import from.
 * Its routes, GraphQL part and jobs are registered through register.ts, which nothing else imports.
 */
export type { AuthContext, LoginResult } from './account.ts';
export { bearerToken } from './bearer.ts';
export { authContext, endCurrentSession, safeRedirect, setSessionCookies } from './http.ts';
export { ensureNewPassword, PASSWORD_RESET_JOB, updatePassword } from './passwords.ts';
export { availableCommunities } from './service.ts';
export { SessionTokens } from './session-tokens.ts';
export { AUTH_COOKIE, cleanUserAgent, deriveIdentity, REFRESH_COOKIE, revokeOtherSessions, revokeSession, revokeSessions, startSession } from './sessions.ts';
export { loginResultView, signOut } from './transport.ts';

// Sign-ins for the staff's insights (issue 29).
export { signedInMemberDays, signInsByDay } from './figures.ts';
