import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { asClientError, isAppError, LOCKOUT_CODES, type ServerErrorCode } from '#src/core/errors.ts';
import { AdminLoginForm, CodeStep, EmailStep, ForgotStep, InvalidLinkView, LockoutView, NewPasswordForm, PasswordStep, ResetSentView, SignInFailure, type Carry } from '#src/features/auth/views/screens.tsx';
import { authContext, clearSessionCookies, REMEMBER_COOKIE, safeRedirect } from './http.ts';
import { Guardian } from '#src/core/guardian/index.ts';
import { PUBLIC_IDENTITY } from '#src/core/identity.ts';
import { isDatabaseUnavailable } from '#src/db/faults.ts';
import { sendOneTimeCode } from './codes.ts';
import { passwordTokenIsValid, requestPasswordReset, resetPassword } from './passwords.ts';
import { authStrategies, availableCommunities } from './service.ts';
import { signInWithCode, signInWithPassword, signOut } from './transport.ts';
import { z } from 'zod';
import { field, formOf, queryOf } from '#src/lib/form.ts';

/**
 * The sign-in forms: every field as typed ('' when absent); the services refuse what is wrong and the
 * step comes back with it. Each step carries the way back (`redirect`) and "remember me" along.
 */
const carried = { redirect: field(), remember: field() };
const EmailForm = z.object({ email: field(), ...carried });
const PasswordForm = z.object({ email: field(), password: field(), ...carried });
const CodeForm = z.object({ email: field(), channel: field(), resend: field(), ...carried });
/** One code field without JavaScript, five boxes from the island. */
const VerifyForm = z.object({ email: field(), channel: field(), code: field(), d1: field(), d2: field(), d3: field(), d4: field(), d5: field(), destination: field(), ...carried });
const ForgotForm = z.object({ email: field(), method: field(), ...carried });
const NewPasswordForm_ = z.object({ token: field(), password: field(), confirm: field() });
const AdminForm = z.object({ email: field(), community: field(), password: field() });

/** A query-string value a page reads: its text, or none when it is anything else (links may carry anything). */
const hint = z.string().optional().catch(undefined);
const LoginQuery = z.object({ redirect: hint, email: hint, reset: hint });
const ForgotQuery = z.object({ email: hint, redirect: hint });
const AdminQuery = z.object({ email: hint });
/** A reset or set-up link's token: anything but text is no token (the invalid-link page). */
const TokenQuery = z.object({ token: z.string().catch('') });

const isLockout = (e: unknown) => isAppError(e) && LOCKOUT_CODES.includes(e.code as ServerErrorCode);

export default async function authRoutes(app: FastifyInstance) {
  const t = app.t;
  const base = app.config.basePath;
  const strict = { max: 20, timeWindow: '1 minute' };

  const carryOf = (body: { redirect: string; remember: string }): Carry => ({
    redirect: body.redirect || undefined,
    remember: body.remember === 'on' || body.remember === 'true' || body.remember === '1',
  });

  const page = (reply: FastifyReply, title: string, body: React.ReactNode, status = 200) => reply.page({ title, body, status });
  /**
   * Spec section 8: a sign-in or sign-out that fails without a mapped code is logged as UnknownError and
   * says 'Hmm... That didn't work.' / 'Could not sign in. {error_message}' ('Could not sign out. ...')
   * above the step, with what was typed, instead of the generic error page. The error_message is the
   * catalogue's text for the failure, never a 5xx's details.
   */
  const failed = (request: FastifyRequest, reply: FastifyReply, e: unknown, step: React.ReactNode, kind: 'couldNotSignIn' | 'couldNotSignOut' = 'couldNotSignIn') => {
    // A request's own fault the database noticed (a NUL byte) keeps its 4xx through the error handler.
    const clientError = asClientError(e);
    if (clientError) throw clientError;
    request.log.error({ err: e, code: 'UnknownError' }, kind === 'couldNotSignIn' ? 'sign-in failed without a mapped code' : 'sign-out failed');
    const [status, errorMessage] = isAppError(e) ? [e.status, t(e.key, e.values)] : isDatabaseUnavailable(e) ? [503, t('errors.server.unavailable')] : [500, t('errors.generic.text')];
    return page(
      reply,
      t('auth.login.title'),
      <>
        <SignInFailure message={t(`errors.signIn.${kind}`, { error_message: errorMessage })} />
        {step}
      </>,
      status,
    );
  };
  const lockout = (reply: FastifyReply) => reply.page({ title: t('auth.lockout.title'), body: <LockoutView />, status: 429, bare: true });

  // 1. Email first.
  app.get('/login', { config: { access: 'public', allowDuringOnboarding: true } }, async (request, reply) => {
    const query = queryOf(LoginQuery, request);
    if (request.identity.loggedIn) {
      const target = safeRedirect(query.redirect, base);
      // A member the admin area sent here is asked for an admin account, not sent back (no loop).
      const forAdmins = /^\/admin(\/|\?|#|$)/.test(base ? target.slice(base.length) : target);
      if (!forAdmins || request.guardian.isAdmin) return reply.redirect(target, 303);
      return page(reply, t('auth.login.title'), <EmailStep email="" carry={{ redirect: target, remember: false }} info={t('auth.login.adminNeeded')} />);
    }
    const remembered = request.cookies[REMEMBER_COOKIE];
    const referer = request.headers.referer;
    const fromReferer = referer && referer.startsWith(app.config.publicUrl) ? referer.slice(app.config.publicUrl.length) : undefined;
    const redirect = query.redirect ?? fromReferer;
    const notice = query.reset === '1' ? t('auth.reset.saved') : undefined;
    return page(
      reply,
      t('auth.login.title'),
      <EmailStep email={query.email || remembered || ''} carry={{ redirect: redirect ? safeRedirect(redirect, base) : undefined, remember: Boolean(remembered) }} notice={notice} />,
    );
  });

  app.post('/login', { config: { access: 'public', allowDuringOnboarding: true, rateLimit: strict } }, async (request, reply) => {
    const body = formOf(EmailForm, request);
    const email = body.email.trim();
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
      if (!isAppError(e)) return failed(request, reply, e, <EmailStep email={email} carry={carry} />);
      if (isLockout(e)) return lockout(reply);
      if (e.code === 'BadRequest.NoAdmins') return reply.redirect(`${base}/login-admin?email=${encodeURIComponent(email)}`, 303);
      if (e.code === 'Unrecognized.Email') return page(reply, title, <EmailStep email={email} carry={carry} unrecognized />);
      return page(reply, title, <EmailStep email={email} carry={carry} error={t('errors.client.invalidEmail')} />, 400);
    }
  });

  // 2. Password.
  app.post('/login/password', { config: { access: 'public', allowDuringOnboarding: true } }, async (request, reply) => {
    const body = formOf(PasswordForm, request);
    const email = body.email;
    const carry = carryOf(body);
    try {
      await signInWithPassword(request, reply, { email, password: body.password, remember: carry.remember });
      return reply.redirect(safeRedirect(carry.redirect, base), 303);
    } catch (e) {
      // Busy password checks go to the error handler: a quick, small 429.
      if (isAppError(e) && e.code === 'Busy.PasswordChecks') throw e;
      if (!isAppError(e)) return failed(request, reply, e, <PasswordStep email={email} carry={carry} />);
      if (isLockout(e)) return lockout(reply);
      if (e.code === 'Invalid.Email') return page(reply, t('auth.login.title'), <EmailStep email={email} carry={carry} error={t('errors.client.invalidEmail')} />, 400);
      const message = e.code === 900 ? t('auth.password.required') : t('errors.server.passwordIncorrect');
      // The step comes back with every choice it first offered, the text-a-code one included.
      const strategies = await authStrategies(authContext(request), email).catch(() => null);
      const sms = strategies?.smsOptions[0]?.maskedValue;
      return page(reply, t('auth.login.title'), <PasswordStep email={email} carry={carry} error={message} sms={sms} />, e.status);
    }
  });

  // 3. One-time code: send (or resend), then verify.
  app.post('/login/code', { config: { access: 'public', allowDuringOnboarding: true } }, async (request, reply) => {
    const body = formOf(CodeForm, request);
    const email = body.email;
    const carry = carryOf(body);
    const channel = body.channel === 'SMS' ? 'SMS' : 'EMAIL';
    try {
      const ctx = authContext(request);
      const strategies = await authStrategies(ctx, email);
      const sent = await sendOneTimeCode(ctx, { email, channel });
      return reply.page({
        title: t('auth.code.title'),
        body: <CodeStep email={email} channel={sent.channel} destination={sent.masked} carry={carry} hasPassword={strategies.passwordStrategy} />,
        // 'Sent Code' is an alert like every other: shown once, gone after its ttl (src/lib/alerts.ts).
        alert: body.resend === '1' ? 'code-sent' : undefined,
      });
    } catch (e) {
      if (!isAppError(e)) return failed(request, reply, e, <EmailStep email={email} carry={carry} />);
      if (isLockout(e)) return lockout(reply);
      return page(reply, t('auth.login.title'), <EmailStep email={email} carry={carry} unrecognized={e.code === 'Unrecognized.Email'} />, e.status);
    }
  });

  app.post('/login/code/verify', { config: { access: 'public', allowDuringOnboarding: true } }, async (request, reply) => {
    const body = formOf(VerifyForm, request);
    const email = body.email;
    const carry = carryOf(body);
    const channel = body.channel === 'SMS' ? 'SMS' : 'EMAIL';
    // One field without JavaScript (spaces a paste may carry are dropped), five boxes from the island.
    const code = body.code.replace(/\s+/g, '') || [body.d1, body.d2, body.d3, body.d4, body.d5].map((d) => d.trim()).join('');
    try {
      await signInWithCode(request, reply, { email, code, remember: carry.remember });
      return reply.redirect(safeRedirect(carry.redirect, base), 303);
    } catch (e) {
      if (!isAppError(e)) return failed(request, reply, e, <CodeStep email={email} channel={channel} destination={body.destination} carry={carry} hasPassword={false} />);
      if (isLockout(e)) return lockout(reply);
      const strategies = await authStrategies(authContext(request), email).catch(() => null);
      const message = code.length < 5 ? t('auth.code.incomplete') : t('auth.code.invalid');
      return page(
        reply,
        t('auth.code.title'),
        <CodeStep email={email} channel={channel} destination={body.destination} carry={carry} error={message} hasPassword={Boolean(strategies?.passwordStrategy)} />,
        400,
      );
    }
  });

  // 4. Forgot, reset, set up.
  app.get('/password/forgot', { config: { access: 'public', allowDuringOnboarding: true } }, async (request, reply) => {
    const query = queryOf(ForgotQuery, request);
    return page(reply, t('auth.forgot.title'), <ForgotStep email={query.email || request.cookies[REMEMBER_COOKIE] || ''} carry={{ redirect: query.redirect, remember: false }} />);
  });

  app.post('/password/forgot', { config: { access: 'public', allowDuringOnboarding: true, rateLimit: strict } }, async (request, reply) => {
    const body = formOf(ForgotForm, request);
    const email = body.email.trim();
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
      // The reset link for an unknown address: the spec's message by the field, the address kept.
      if (e.code === 'Unrecognized.Email' && body.method !== 'code') return page(reply, t('auth.forgot.title'), <ForgotStep email={email} carry={carry} error={t(e.key)} />, e.status);
      if (e.code === 'Unrecognized.Email' || e.code === 'BadRequest.NoAdmins') return page(reply, t('auth.login.title'), <EmailStep email={email} carry={carry} unrecognized />);
      return page(reply, t('auth.forgot.title'), <ForgotStep email={email} carry={carry} error={t('errors.client.invalidEmail')} />, 400);
    }
  });

  for (const mode of ['reset', 'setup'] as const) {
    const title = mode === 'reset' ? t('auth.reset.title') : t('auth.reset.setupTitle');
    app.get(`/password/${mode}`, { config: { access: 'public', allowDuringOnboarding: true } }, async (request, reply) => {
      const { token } = queryOf(TokenQuery, request);
      if (!(await passwordTokenIsValid(authContext(request), token))) return page(reply, title, <InvalidLinkView />, 400);
      return page(reply, title, <NewPasswordForm mode={mode} token={token} errors={{}} values={{ password: '', confirm: '' }} />);
    });

    app.post(`/password/${mode}`, { config: { access: 'public', allowDuringOnboarding: true, rateLimit: strict } }, async (request, reply) => {
      const { token, password, confirm } = formOf(NewPasswordForm_, request);
      const values = { password, confirm };
      try {
        const { email } = await resetPassword(authContext(request), { token, password: values.password, confirm: values.confirm });
        return reply.redirect(`${base}/login?reset=1&email=${encodeURIComponent(email)}`, 303);
      } catch (e) {
        if (!isAppError(e) || e.code === 'Busy.PasswordChecks') throw e;
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
  app.get('/login-admin', { config: { access: 'public', allowDuringOnboarding: true } }, async (request, reply) => {
    const query = queryOf(AdminQuery, request);
    const communities = await availableCommunities(app.db);
    // The community of the host the admin is on comes preselected (the first one only where it is not listed).
    return page(reply, t('auth.admin.title'), <AdminLoginForm email={query.email ?? ''} community={request.community.code} communities={communities} errors={{}} />);
  });

  app.post('/login-admin', { config: { access: 'public', allowDuringOnboarding: true } }, async (request, reply) => {
    const body = formOf(AdminForm, request);
    const email = body.email.trim();
    const code = body.community;
    const communities = await availableCommunities(app.db);
    const again = (errors: Parameters<typeof AdminLoginForm>[0]['errors'], status: number) =>
      page(reply, t('auth.admin.title'), <AdminLoginForm email={email} community={code} communities={communities} errors={errors} />, status);
    try {
      const result = await signInWithPassword(request, reply, { email, password: body.password, targetCommunity: code, admin: true });
      return reply.redirect(`${base}${result.community.code === 'admin' ? '/admin/sites' : '/admin'}`, 303);
    } catch (e) {
      if (isAppError(e) && e.code === 'Busy.PasswordChecks') throw e;
      if (!isAppError(e)) return failed(request, reply, e, <AdminLoginForm email={email} community={code} communities={communities} errors={{}} />);
      if (isLockout(e)) return lockout(reply);
      if (e.code === 'Invalid.Email') return again({ email: t('errors.client.invalidEmail') }, 400);
      if (e.code === 900) return again(e.fields?.community ? { community: t('auth.admin.communityRequired') } : { password: t('auth.password.required') }, 400);
      if (e.code === 150) return again({ community: t('errors.client.invalidCharacters') }, 400);
      if (e.code === 'Forbidden') return again({ form: t('auth.admin.notAdmin') }, 403);
      return again({ form: t('errors.server.passwordIncorrect') }, e.status);
    }
  });

  // 6. Sign-out: revoke the session on the server, clear the cookies, go to sign-in.
  const signOutToLogin = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      await signOut(request, reply);
    } catch (e) {
      // Spec section 7: on a logout error the auth cookie is cleared; this page is drawn signed out.
      clearSessionCookies(reply);
      request.identity = PUBLIC_IDENTITY;
      request.guardian = new Guardian(PUBLIC_IDENTITY, request.community);
      return failed(request, reply, e, <EmailStep email="" carry={{ remember: false }} />, 'couldNotSignOut');
    }
    return reply.redirect(`${base}/login`, 303);
  };
  app.post('/logout', { config: { access: 'public', allowDuringOnboarding: true } }, signOutToLogin);

  // A GET sign-out is honoured only when the navigation starts on this site (or is typed in), so
  // another site cannot sign members out with a link or an image.
  const getSignOut = async (request: FastifyRequest, reply: FastifyReply) => {
    const site = request.headers['sec-fetch-site'];
    if (site === undefined || site === 'same-origin' || site === 'none') return signOutToLogin(request, reply);
    return reply.redirect(`${base}/`, 303);
  };
  app.get('/logout', { config: { access: 'public', allowDuringOnboarding: true } }, getSignOut);
  app.get('/account/logout', { config: { access: 'public', allowDuringOnboarding: true } }, getSignOut);

}
