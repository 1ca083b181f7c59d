import { Island } from '#views/layout/Island.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { CsrfField, Field, Hidden } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { AuthCard } from '#src/features/auth/views/auth-card.tsx';
import { newPasswordLabels } from '#views/kit/new-password-labels.ts';

/** What every sign-in step carries along: where to go afterwards and the remember-me choice. */
export type Carry = { redirect?: string; remember: boolean };

function CarryFields({ carry }: { carry: Carry }) {
  return (
    <>
      <Hidden name="redirect" value={carry.redirect} />
      {carry.remember ? <input type="hidden" name="remember" value="on" /> : null}
    </>
  );
}

export function EmailStep({
  email,
  carry,
  error,
  unrecognized,
  notice,
  info,
}: {
  email: string;
  carry: Carry;
  error?: string;
  unrecognized?: boolean;
  notice?: string;
  /** Why the sign-in page is shown, e.g. to a member sent here from the admin area. */
  info?: string;
}) {
  const { t, community } = usePage();
  const href = useHref();
  const intro = unrecognized ? (
    <>
      {t('auth.login.unrecognizedIntro', { name: community.name })}{' '}
      {community.link_membership_info ? (
        <a href={community.link_membership_info} rel="noopener">
          {t('auth.login.membershipInfo')}
        </a>
      ) : null}
    </>
  ) : (
    t('auth.login.intro')
  );
  return (
    <AuthCard
      heading={unrecognized ? t('auth.login.unrecognizedHeading') : t('auth.login.heading', { appName: community.app_name })}
      intro={intro}
      alert={notice ? <Alert kind="success">{notice}</Alert> : info ? <Alert kind="info">{info}</Alert> : null}
    >
      <form method="post" action={href('/login')} noValidate className="stack">
        <CsrfField />
        <Hidden name="redirect" value={carry.redirect} />
        <Field id="email" name="email" type="email" label={t('auth.login.email')} autoComplete="username" required defaultValue={email} error={error} autoFocus />
        <div className="check">
          <input type="checkbox" id="remember" name="remember" defaultChecked={carry.remember} />
          <label htmlFor="remember">{t('auth.login.remember')}</label>
        </div>
        <button type="submit" className="button">
          {t('auth.login.continue')}
        </button>
      </form>
    </AuthCard>
  );
}

export function PasswordStep({ email, carry, error, sms }: { email: string; carry: Carry; error?: string; sms?: string | null }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <AuthCard heading={t('auth.login.title')} intro={t('auth.login.signedInAs', { email })}>
      <form method="post" action={href('/login/password')} noValidate className="stack">
        <CsrfField />
        <input type="hidden" name="email" value={email} />
        <CarryFields carry={carry} />
        <input type="text" name="username" autoComplete="username" defaultValue={email} hidden readOnly />
        <Field id="password" name="password" type="password" label={t('auth.password.label')} autoComplete="current-password" required error={error} autoFocus />
        <button type="submit" className="button">
          {t('auth.password.submit')}
        </button>
      </form>
      <div className="auth-links">
        <a href={href(`/password/forgot?email=${encodeURIComponent(email)}${carry.redirect ? `&redirect=${encodeURIComponent(carry.redirect)}` : ''}`)}>
          {t('auth.password.forgot')}
        </a>
        <form method="post" action={href('/login/code')} className="inline-form">
          <CsrfField />
          <input type="hidden" name="email" value={email} />
          <input type="hidden" name="channel" value="EMAIL" />
          <CarryFields carry={carry} />
          <button type="submit" className="link-button">
            {t('auth.password.useCode')}
          </button>
        </form>
        {sms ? (
          <form method="post" action={href('/login/code')} className="inline-form">
            <CsrfField />
            <input type="hidden" name="email" value={email} />
            <input type="hidden" name="channel" value="SMS" />
            <CarryFields carry={carry} />
            <button type="submit" className="link-button">
              {t('auth.password.useSms', { phone: sms })}
            </button>
          </form>
        ) : null}
        <a href={href('/login')}>{t('auth.login.notYou')}</a>
      </div>
    </AuthCard>
  );
}

export function CodeStep({
  email,
  channel,
  destination,
  carry,
  error,
  hasPassword,
}: {
  email: string;
  channel: 'EMAIL' | 'SMS';
  destination: string;
  carry: Carry;
  error?: string;
  hasPassword: boolean;
}) {
  const { t } = usePage();
  const href = useHref();
  return (
    <AuthCard
      heading={t('auth.code.heading')}
      intro={t('auth.code.intro', { destination })}
      alert={
        error ? (
          <Alert kind="error">
            <span id="code-error">{error}</span>
          </Alert>
        ) : null
      }
    >
      <form method="post" action={href('/login/code/verify')} noValidate className="stack">
        <CsrfField />
        <input type="hidden" name="email" value={email} />
        <input type="hidden" name="channel" value={channel} />
        <input type="hidden" name="destination" value={destination} />
        <CarryFields carry={carry} />
        <Island
          name="OneTimeCodeBoxes"
          props={{
            length: 5,
            legend: t('auth.code.legend'),
            digitLabel: t('auth.code.digit', { n: '{n}' }),
            submitLabel: t('auth.code.submit'),
            invalid: Boolean(error),
            errorId: 'code-error',
          }}
        />
      </form>
      <div className="auth-links">
        <form method="post" action={href('/login/code')} className="inline-form">
          <CsrfField />
          <input type="hidden" name="email" value={email} />
          <input type="hidden" name="channel" value={channel} />
          <input type="hidden" name="resend" value="1" />
          <CarryFields carry={carry} />
          <button type="submit" className="link-button">
            {t('auth.code.resend')}
          </button>
        </form>
        {hasPassword ? (
          <form method="post" action={href('/login')} className="inline-form">
            <CsrfField />
            <input type="hidden" name="email" value={email} />
            <CarryFields carry={carry} />
            <button type="submit" className="link-button">
              {t('auth.code.usePassword')}
            </button>
          </form>
        ) : null}
      </div>
    </AuthCard>
  );
}

export function LockoutView() {
  const { t } = usePage();
  const href = useHref();
  return (
    <AuthCard heading={t('auth.lockout.heading')} alert={<Alert kind="error">{t('auth.lockout.text')}</Alert>}>
      <p>
        <a className="button" href={href('/login')}>
          {t('auth.lockout.back')}
        </a>
      </p>
    </AuthCard>
  );
}

export function ForgotStep({ email, carry, error }: { email: string; carry: Carry; error?: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <AuthCard heading={t('auth.forgot.heading')} intro={t('auth.forgot.intro')}>
      <form method="post" action={href('/password/forgot')} noValidate className="stack">
        <CsrfField />
        <CarryFields carry={carry} />
        <Field id="email" name="email" type="email" label={t('auth.login.email')} autoComplete="username" required defaultValue={email} error={error} />
        <div className="button-row">
          <button type="submit" name="method" value="link" className="button">
            {t('auth.forgot.link')}
          </button>
          <button type="submit" name="method" value="code" className="button button-secondary">
            {t('auth.forgot.code')}
          </button>
        </div>
      </form>
      <p className="auth-links">
        <a href={href('/login')}>{t('auth.forgot.cancel')}</a>
      </p>
    </AuthCard>
  );
}

export function ResetSentView({ email }: { email: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <AuthCard heading={t('auth.resetSent.heading')} intro={t('auth.resetSent.text', { email })}>
      <p>
        <a className="button" href={href('/login')}>
          {t('auth.resetSent.back')}
        </a>
      </p>
    </AuthCard>
  );
}

export function InvalidLinkView() {
  const { t } = usePage();
  const href = useHref();
  return (
    <AuthCard heading={t('auth.reset.invalidHeading')} alert={<Alert kind="error">{t('auth.reset.invalidLink')}</Alert>}>
      <p>
        <a className="button" href={href('/password/forgot')}>
          {t('auth.reset.requestNew')}
        </a>
      </p>
    </AuthCard>
  );
}

export function NewPasswordForm({
  mode,
  token,
  errors,
  values,
}: {
  mode: 'reset' | 'setup';
  token: string;
  errors: { password?: string; confirm?: string; form?: string };
  values: { password: string; confirm: string };
}) {
  const { t } = usePage();
  const href = useHref();
  return (
    <AuthCard heading={mode === 'reset' ? t('auth.reset.heading') : t('auth.reset.setupHeading')} alert={errors.form ? <Alert kind="error">{errors.form}</Alert> : null}>
      <form method="post" action={href(mode === 'reset' ? '/password/reset' : '/password/setup')} noValidate className="stack">
        <CsrfField />
        <input type="hidden" name="token" value={token} />
        <Island
          name="NewPasswordFields"
          props={{
            labels: newPasswordLabels(t, { password: t('auth.reset.newPassword'), confirm: t('auth.reset.confirm'), submit: t('auth.reset.submit') }),
            errors: { password: errors.password, confirm: errors.confirm },
            values,
          }}
        />
      </form>
    </AuthCard>
  );
}

export function AdminLoginForm({
  email,
  community,
  communities,
  errors,
}: {
  email: string;
  community: string;
  communities: Array<{ code: string; name: string }>;
  errors: { email?: string; password?: string; community?: string; form?: string };
}) {
  const { t } = usePage();
  const href = useHref();
  const selected = community || communities[0]?.code || '';
  return (
    <AuthCard heading={t('auth.admin.heading')} alert={errors.form ? <Alert kind="error">{errors.form}</Alert> : null}>
      <form method="post" action={href('/login-admin')} noValidate className="stack">
        <CsrfField />
        <Field id="email" name="email" type="email" label={t('auth.login.email')} autoComplete="username" required defaultValue={email} error={errors.email} />
        <Field id="password" name="password" type="password" label={t('auth.password.label')} autoComplete="current-password" required error={errors.password} />
        <div className={errors.community ? 'field field-invalid' : 'field'}>
          <label htmlFor="community">{t('auth.admin.community')}</label>
          <select id="community" name="community" defaultValue={selected} aria-invalid={errors.community ? true : undefined} aria-describedby={errors.community ? 'community-error' : undefined}>
            {communities.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
          {errors.community ? (
            <p className="field-error" id="community-error">
              {errors.community}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button">
          {t('auth.admin.submit')}
        </button>
      </form>
    </AuthCard>
  );
}

/**
 * A sign-in or sign-out that failed without a mapped code (spec section 8): 'Hmm... That didn't work.'
 * over 'Could not sign in. {error_message}' (or 'Could not sign out. ...'), above the step to try again.
 */
export function SignInFailure({ message }: { message: string }) {
  const { t } = usePage();
  return (
    <Alert kind="error">
      <strong className="alert-title">{t('errors.signIn.didntWork')}</strong> <span className="alert-message">{message}</span>
    </Alert>
  );
}
