import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { isAppError, type AppError } from '#src/core/errors.ts';
import { signOut } from '#src/features/auth/index.ts';
import { withAlert } from '#src/lib/alerts.ts';
import { z } from 'zod';
import { field, formOf, queryOf } from '#src/lib/form.ts';
import { passwordCriteria } from '#shared/password-rules.ts';
import { PasswordForm, PasswordPage, PhoneForm, PhonePage, SecuritySection } from '#src/features/settings/views/Security.tsx';
import { changeMobilePhone, changePassword, countryOptions, currentPhone, securityView, signOutOtherSessions, signOutSession } from './security.ts';
import type { PasswordFormState, PhoneFormState } from './types.ts';

/** The dialog asks for the fragment alone (`?fragment=1`); anything else is the page. */
const FragmentQuery = z.object({ fragment: z.string().optional().catch(undefined) });
const PasswordForm_ = z.object({ oldPassword: field(), password: field(), confirm: field() });
const PhoneForm_ = z.object({ countryCode: field(), number: field() });
/** The session to end (its hash); the service refuses one that is not one, naming the field. */
const SessionForm = z.object({ session: field() });

export default async function settingsRoutes(app: FastifyInstance) {
  const t = app.t;
  const member = { config: { access: 'member' as const } };

  /** The dialog asks for the fragment alone (`?fragment=1`, ModalDialog.client.ts); otherwise the whole page. */
  const wantsFragment = (request: FastifyRequest) => queryOf(FragmentQuery, request).fragment === '1';
  /** A fragment with field messages answers 200 (the dialog shows it); the page keeps the error status. */
  const respond = (request: FastifyRequest, reply: FastifyReply, title: string, page: ReactNode, fragment: ReactNode, status = 200) =>
    wantsFragment(request) ? reply.fragment(fragment, 200) : reply.page({ title, body: page, status });
  const message = (e: AppError, field: string) => {
    const f = e.fields?.[field];
    return f ? t(f.key, f.values) : undefined;
  };

  /** The strength error of the new password, naming the criteria it does not meet. */
  const strengthMessage = (e: AppError, password: string) => {
    if (e.fields?.password?.code !== 121) return message(e, 'password');
    const c = passwordCriteria(password);
    const rules = [c.cases ? null : t('auth.reset.cases'), c.length ? null : t('auth.reset.length'), c.numbersOrSymbols ? null : t('auth.reset.numbersOrSymbols')].filter(
      (r): r is string => r !== null,
    );
    const missing = rules.length > 0 ? t('errors.client.passwordStrengthRules', { rules: rules.join('; ') }) : message(e, 'password');
    return c.notTooLong ? missing : `${missing} ${t('auth.reset.tooLong')}`;
  };

  /** The password dialog holds the NewPasswordFields island: the modal loads its entry when it shows it. */
  const modalScripts = () => ({ NewPasswordFields: app.assets.islandScripts(new Set(['NewPasswordFields'])).entries[0]! });
  const security = async (request: FastifyRequest, reply: FastifyReply) =>
    reply.page({ title: t('settings.sections.security'), body: <SecuritySection view={await securityView(request)} modalScripts={modalScripts()} /> });
  app.get('/settings', member, security);
  app.get('/settings/security', member, security);

  const passwordPage = (request: FastifyRequest, reply: FastifyReply, state: PasswordFormState, status = 200) =>
    respond(request, reply, t('settings.security.passwordTitle'), <PasswordPage state={state} />, <PasswordForm state={state} inDialog />, status);

  app.get('/settings/security/password', member, async (request, reply) => passwordPage(request, reply, { errors: {} }));

  app.post('/settings/security/password', member, async (request, reply) => {
    const body = formOf(PasswordForm_, request);
    try {
      await changePassword(request, { oldPassword: body.oldPassword, newPassword: body.password, confirm: body.confirm });
      return reply.redirectTo(withAlert('/settings/security', 'password-changed'));
    } catch (e) {
      if (!isAppError(e) || !e.fields) throw e;
      // Passwords are not sent back: the fields come back empty with every message beside the field at
      // fault; a weak new password names each rule it breaks.
      const errors = { oldPassword: message(e, 'oldPassword'), password: strengthMessage(e, body.password) ?? message(e, 'newPassword'), confirm: message(e, 'confirm') };
      return passwordPage(request, reply, { errors }, e.status);
    }
  });

  const phonePage = (request: FastifyRequest, reply: FastifyReply, state: PhoneFormState, status = 200) => {
    const countries = countryOptions();
    return respond(
      request,
      reply,
      t('settings.security.phoneTitle'),
      <PhonePage state={state} countries={countries} />,
      <PhoneForm state={state} countries={countries} inDialog />,
      status,
    );
  };

  app.get('/settings/security/phone', member, async (request, reply) => {
    return phonePage(request, reply, { values: await currentPhone(request), errors: {} });
  });

  app.post('/settings/security/phone', member, async (request, reply) => {
    const body = formOf(PhoneForm_, request);
    try {
      const saved = await changeMobilePhone(request, { countryCode: body.countryCode, number: body.number });
      return reply.redirectTo(withAlert('/settings/security', saved ? 'phone-saved' : 'phone-removed'));
    } catch (e) {
      if (!isAppError(e)) throw e;
      const values = { countryCode: body.countryCode.slice(0, 2) || 'US', number: body.number.slice(0, 40) };
      const errors = { countryCode: message(e, 'countryCode'), number: message(e, 'number'), form: t('settings.security.phoneEditError') };
      if (!errors.countryCode && !errors.number) throw e;
      return phonePage(request, reply, { values, errors }, e.status);
    }
  });

  app.post('/settings/security/sessions/sign-out', member, async (request, reply) => {
    const { current } = await signOutSession(request, formOf(SessionForm, request).session);
    if (current) {
      await signOut(request, reply);
      return reply.redirectTo('/login');
    }
    return reply.redirectTo(withAlert('/settings/security', 'session-ended'));
  });

  app.post('/settings/security/sessions/sign-out-others', member, async (request, reply) => {
    await signOutOtherSessions(request);
    return reply.redirectTo(withAlert('/settings/security', 'other-sessions-ended'));
  });
}
