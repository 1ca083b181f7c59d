import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError, LOCKOUT_CODES, type ServerErrorCode } from '#src/core/errors.ts';
import { AdminLoginForm, CodeStep, EmailStep, ForgotStep, InvalidLinkView, LockoutView, NewPasswordForm, PasswordStep, ResetSentView, type Carry } from '#views/auth/screens.tsx';
import {
  authStrategies,
  availableCommunities,
  loginAsAdmin,
  loginWithPassword,
  passwordTokenIsValid,
  requestPasswordReset,
  resetPassword,
  sendOneTimeCode,
  verifyOneTimeCode,
  type AuthContext,
  type LoginResult,
} from './service.ts';
import { AUTH_COOKIE, REFRESH_COOKIE, revokeSession } from './sessions.ts';

export { REFRESH_COOKIE };

/** The cookie that remembers an admin's chosen community; cleared on sign-out (spec section 2). */
export const COMMUNITY_COOKIE = 'community';
export const REMEMBER_COOKIE = 'remember_email';

type Body = Record<string, string | undefined>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function authContext(request: FastifyRequest): AuthContext {
  const app = request.server;
  return {
    db: app.db,
    clock: app.clock,
    config: app.config,
    tokens: app.sessionTokens,
    mailer: app.mailer,
    sms: app.sms,
    t: app.t,
    community: request.community,
    ip: request.ip,
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

const isLockout = (e: unknown) => isAppError(e) && LOCKOUT_CODES.includes(e.code as ServerErrorCode);

export default async function authRoutes(app: FastifyInstance) {
  const t = app.t;
  const base = app.config.basePath;
  const strict = { max: 20, timeWindow: '1 minute' };

  const carryOf = (body: Body | Record<string, unknown>): Carry => ({
    redirect: str(body.redirect) || undefined,
    remember: body.remember === 'on' || body.remember === 'true' || body.remember === '1',
  });

  const page = (reply: FastifyReply, title: string, body: React.ReactNode, status = 200) => reply.page({ title, body, status });
  const lockout = (reply: FastifyReply) => page(reply, t('auth.lockout.title'), <LockoutView />, 429);

  async function signedIn(request: FastifyRequest, reply: FastifyReply, result: LoginResult, carry: Carry, email: string) {
    await endCurrentSession(request);
    setSessionCookies(reply, result, carry.remember);
    // An admin's earlier choice of community must not follow a member's sign-in.
    reply.clearCookie(COMMUNITY_COOKIE, { path: cookieOptions(app).path });
    rememberEmail(reply, email, carry.remember);
    return reply.redirect(safeRedirect(carry.redirect, base), 303);
  }

  // 1. Email first.
  app.get('/login', { config: { access: 'public' } }, async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    if (request.identity.loggedIn) return reply.redirect(safeRedirect(query.redirect, base), 303);
    const remembered = request.cookies[REMEMBER_COOKIE];
    const referer = request.headers.referer;
    const fromReferer = referer && referer.startsWith(app.config.publicUrl) ? referer.slice(app.config.publicUrl.length) : undefined;
    const redirect = query.redirect ?? fromReferer;
    const notice = query.reset === '1' ? t('auth.reset.saved') : undefined;
    return page(
      reply,
      t('auth.login.title'),
      <EmailStep email={str(query.email) || remembered || ''} carry={{ redirect: redirect ? safeRedirect(redirect, base) : undefined, remember: Boolean(remembered) }} notice={notice} />,
    );
  });

  app.post('/login', { config: { access: 'public', rateLimit: strict } }, async (request, reply) => {
    const body = (request.body ?? {}) as Body;
    const email = str(body.email).trim();
    const carry = carryOf(body);
    const title = t('auth.login.title');
    try {
      const strategies = await authStrategies(authContext(request), email);
      if (strategies.passwordStrategy) {
        return page(reply, title, <PasswordStep email={email.toLowerCase()} carry={carry} sms={strategies.smsOptions[0]?.maskedValue} />);
      }
      const sent = await sendOneTimeCode(authContext(request), { email, channel: 'EMAIL' });
      return page(reply, t('auth.code.title'), <CodeStep email={email.toLowerCase()} channel={sent.channel} destination={sent.masked} carry={carry} hasPassword={false} />);
    } catch (e) {
      if (!isAppError(e)) throw e;
      if (isLockout(e)) return lockout(reply);
      if (e.code === 'BadRequest.NoAdmins') return reply.redirect(`${base}/login-admin?email=${encodeURIComponent(email)}`, 303);
      if (e.code === 'Unrecognized.Email') return page(reply, title, <EmailStep email={email} carry={carry} unrecognized />);
      return page(reply, title, <EmailStep email={email} carry={carry} error={t('errors.client.invalidEmail')} />, 400);
    }
  });

  // 2. Password.
  app.post('/login/password', { config: { access: 'public' } }, async (request, reply) => {
    const body = (request.body ?? {}) as Body;
    const email = str(body.email);
    const carry = carryOf(body);
    try {
      const result = await loginWithPassword(authContext(request), { email, password: body.password, remember: carry.remember });
      return signedIn(request, reply, result, carry, email);
    } catch (e) {
      if (!isAppError(e)) throw e;
      if (isLockout(e)) return lockout(reply);
      if (e.code === 'Invalid.Email') return page(reply, t('auth.login.title'), <EmailStep email={email} carry={carry} error={t('errors.client.invalidEmail')} />, 400);
      const message = e.code === 900 ? t('auth.password.required') : t('errors.server.passwordIncorrect');
      return page(reply, t('auth.login.title'), <PasswordStep email={email} carry={carry} error={message} />, e.status);
    }
  });

  // 3. One-time code: send (or resend), then verify.
  app.post('/login/code', { config: { access: 'public' } }, async (request, reply) => {
    const body = (request.body ?? {}) as Body;
    const email = str(body.email);
    const carry = carryOf(body);
    const channel = body.channel === 'SMS' ? 'SMS' : 'EMAIL';
    try {
      const ctx = authContext(request);
      const strategies = await authStrategies(ctx, email);
      const sent = await sendOneTimeCode(ctx, { email, channel });
      return page(
        reply,
        t('auth.code.title'),
        <CodeStep email={email} channel={sent.channel} destination={sent.masked} carry={carry} sent={body.resend === '1'} hasPassword={strategies.passwordStrategy} />,
      );
    } catch (e) {
      if (!isAppError(e)) throw e;
      if (isLockout(e)) return lockout(reply);
      return page(reply, t('auth.login.title'), <EmailStep email={email} carry={carry} unrecognized={e.code === 'Unrecognized.Email'} />, e.status);
    }
  });

  app.post('/login/code/verify', { config: { access: 'public' } }, async (request, reply) => {
    const body = (request.body ?? {}) as Body;
    const email = str(body.email);
    const carry = carryOf(body);
    const channel = body.channel === 'SMS' ? 'SMS' : 'EMAIL';
    const code = body.code ?? [1, 2, 3, 4, 5].map((i) => str(body[`d${i}`]).trim()).join('');
    try {
      const result = await verifyOneTimeCode(authContext(request), { email, code, remember: carry.remember });
      return signedIn(request, reply, result, carry, email);
    } catch (e) {
      if (!isAppError(e)) throw e;
      if (isLockout(e)) return lockout(reply);
      const strategies = await authStrategies(authContext(request), email).catch(() => null);
      const message = code.length < 5 ? t('auth.code.incomplete') : t('auth.code.invalid');
      return page(
        reply,
        t('auth.code.title'),
        <CodeStep email={email} channel={channel} destination={str(body.destination)} carry={carry} error={message} hasPassword={Boolean(strategies?.passwordStrategy)} />,
        400,
      );
    }
  });

  // 4. Forgot, reset, set up.
  app.get('/password/forgot', { config: { access: 'public' } }, async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    return page(reply, t('auth.forgot.title'), <ForgotStep email={str(query.email) || request.cookies[REMEMBER_COOKIE] || ''} carry={{ redirect: query.redirect, remember: false }} />);
  });

  app.post('/password/forgot', { config: { access: 'public', rateLimit: strict } }, async (request, reply) => {
    const body = (request.body ?? {}) as Body;
    const email = str(body.email).trim();
    const carry = carryOf(body);
    try {
      if (body.method === 'code') {
        const ctx = authContext(request);
        const strategies = await authStrategies(ctx, email);
        const sent = await sendOneTimeCode(ctx, { email, channel: 'EMAIL' });
        return page(reply, t('auth.code.title'), <CodeStep email={email.toLowerCase()} channel={sent.channel} destination={sent.masked} carry={carry} hasPassword={strategies.passwordStrategy} />);
      }
      await requestPasswordReset(authContext(request), { email });
      return page(reply, t('auth.resetSent.title'), <ResetSentView email={email.toLowerCase()} />);
    } catch (e) {
      if (!isAppError(e)) throw e;
      if (isLockout(e) || e.code === 'BadRequest.TooManyRequests') return lockout(reply);
      if (e.code === 'Unrecognized.Email' || e.code === 'BadRequest.NoAdmins') return page(reply, t('auth.login.title'), <EmailStep email={email} carry={carry} unrecognized />);
      return page(reply, t('auth.forgot.title'), <ForgotStep email={email} carry={carry} error={t('errors.client.invalidEmail')} />, 400);
    }
  });

  for (const mode of ['reset', 'setup'] as const) {
    const title = mode === 'reset' ? t('auth.reset.title') : t('auth.reset.setupTitle');
    app.get(`/password/${mode}`, { config: { access: 'public' } }, async (request, reply) => {
      const token = str((request.query as Record<string, unknown>).token);
      if (!(await passwordTokenIsValid(authContext(request), token))) return page(reply, title, <InvalidLinkView />, 400);
      return page(reply, title, <NewPasswordForm mode={mode} token={token} errors={{}} values={{ password: '', confirm: '' }} />);
    });

    app.post(`/password/${mode}`, { config: { access: 'public', rateLimit: strict } }, async (request, reply) => {
      const body = (request.body ?? {}) as Body;
      const token = str(body.token);
      const values = { password: str(body.password), confirm: str(body.confirm) };
      try {
        const { email } = await resetPassword(authContext(request), { token, password: values.password, confirm: values.confirm });
        return reply.redirect(`${base}/login?reset=1&email=${encodeURIComponent(email)}`, 303);
      } catch (e) {
        if (!isAppError(e)) throw e;
        if (e.fields?.token) return page(reply, title, <InvalidLinkView />, 400);
        const errors = {
          password: e.fields?.password ? t(values.password.length > 128 ? 'auth.reset.tooLong' : 'errors.client.passwordStrength') : undefined,
          confirm: e.fields?.confirm ? t('auth.reset.mismatch') : undefined,
        };
        // The typed passwords are not sent back into the page: the member types them again.
        return page(reply, title, <NewPasswordForm mode={mode} token={token} errors={errors} values={{ password: '', confirm: '' }} />, 400);
      }
    });
  }

  // 5. Admin sign-in with the community picker.
  app.get('/login-admin', { config: { access: 'public' } }, async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const communities = await availableCommunities(app.db);
    return page(reply, t('auth.admin.title'), <AdminLoginForm email={str(query.email)} community="" communities={communities} errors={{}} />);
  });

  app.post('/login-admin', { config: { access: 'public' } }, async (request, reply) => {
    const body = (request.body ?? {}) as Body;
    const email = str(body.email).trim();
    const code = str(body.community);
    const communities = await availableCommunities(app.db);
    const again = (errors: Parameters<typeof AdminLoginForm>[0]['errors'], status: number) =>
      page(reply, t('auth.admin.title'), <AdminLoginForm email={email} community={code} communities={communities} errors={errors} />, status);
    try {
      const result = await loginAsAdmin(authContext(request), { email, password: body.password, targetCommunity: code });
      await endCurrentSession(request);
      setSessionCookies(reply, result, false);
      reply.setCookie(COMMUNITY_COOKIE, result.community.code, { ...cookieOptions(app), signed: true });
      return reply.redirect(`${base}${result.community.code === 'admin' ? '/admin/sites' : '/admin'}`, 303);
    } catch (e) {
      if (!isAppError(e)) throw e;
      if (isLockout(e)) return lockout(reply);
      if (e.code === 'Invalid.Email') return again({ email: t('errors.client.invalidEmail') }, 400);
      if (e.code === 900) return again(e.fields?.community ? { community: t('auth.admin.communityRequired') } : { password: t('auth.password.required') }, 400);
      if (e.code === 'Forbidden') return again({ form: t('auth.admin.notAdmin') }, 403);
      return again({ form: t('errors.server.passwordIncorrect') }, e.status);
    }
  });

  // 6. Sign-out: revoke the session on the server, clear the cookies, go to sign-in.
  async function signOut(request: FastifyRequest, reply: FastifyReply) {
    await endCurrentSession(request);
    clearSessionCookies(reply);
    return reply.redirect(`${base}/login`, 303);
  }
  app.post('/logout', { config: { access: 'public' } }, signOut);

  // A GET sign-out is honoured only when the navigation starts on this site (or is typed in), so
  // another site cannot sign members out with a link or an image.
  const getSignOut = async (request: FastifyRequest, reply: FastifyReply) => {
    const site = request.headers['sec-fetch-site'];
    if (site === undefined || site === 'same-origin' || site === 'none') return signOut(request, reply);
    return reply.redirect(`${base}/`, 303);
  };
  app.get('/logout', { config: { access: 'public' } }, getSignOut);
  app.get('/account/logout', { config: { access: 'public' } }, getSignOut);

}
