import type { ReactNode } from 'react';
import { formatDate } from '#shared/format.ts';
import type { CountryOption, PasswordFormState, PhoneFormState, SecurityView, SessionView } from '#src/features/settings/index.ts';
import { CsrfField, describedBy, Field, FieldNotes } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { Island } from '#views/layout/Island.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { ModalSupport } from '#src/features/settings/views/ModalSupport.tsx';
import { SettingsLayout } from '#views/layout/SettingsPage.tsx';
import { newPasswordLabels } from '#views/kit/new-password-labels.ts';

const dateTime = (value: Date) => `${formatDate(value)}, ${value.toISOString().slice(11, 16)} UTC`;

/** Settings → Security: username, password, mobile phone, and the member's sessions. */
export function SecuritySection({ view, modalScripts }: { view: SecurityView; modalScripts?: Record<string, string> }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <SettingsLayout section="security">
      <h2>{t('settings.security.heading')}</h2>
      <dl className="security-list">
        <div className="security-row">
          <dt>{t('settings.username')}</dt>
          <dd>
            <span className="security-value">{view.username}</span>
            <span className="muted">{t('settings.security.usernameHint', { email: view.concierge.email })}</span>
          </dd>
        </div>
        <div className="security-row">
          <dt>{t('settings.security.password')}</dt>
          <dd>
            <span className="security-value">
              <span aria-hidden="true">••••••••</span>
              <span className="visually-hidden">{t('settings.security.passwordMasked')}</span>
            </span>
            <a className="button button-secondary" href={href('/settings/security/password')} data-modal="">
              {t('settings.security.changePassword')}
            </a>
          </dd>
        </div>
        <div className="security-row">
          <dt>{t('settings.security.mobilePhone')}</dt>
          <dd>
            <span className="security-value">{view.phone ? view.phone.formatted : t('settings.security.phoneNotSet')}</span>
            <a className="button button-secondary" href={href('/settings/security/phone')} data-modal="">
              {t('settings.security.editPhone')}
              <span className="visually-hidden">{t('settings.security.editPhoneHidden')}</span>
            </a>
          </dd>
        </div>
      </dl>
      <Sessions sessions={view.sessions} otherCount={view.otherSessionCount} />
      <ModalSupport scripts={modalScripts} />
    </SettingsLayout>
  );
}

/**
 * This device and the most recently used others; the rest are counted, not listed (a member who
 * never signs out has dozens). "Sign out everywhere else" ends them all, listed or not.
 */
function Sessions({ sessions, otherCount }: { sessions: SessionView[]; otherCount: number }) {
  const { t } = usePage();
  const href = useHref();
  const notListed = otherCount - sessions.filter((s) => !s.current).length;
  return (
    <section className="security-sessions" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">{t('settings.security.sessionsHeading')}</h2>
      <p className="muted">{t('settings.security.sessionsIntro')}</p>
      <ul className="session-list">
        {sessions.map((s) => {
          const device = s.device ?? t('settings.security.unknownDevice');
          return (
            <li key={s.id} className="session-card">
              <p className="session-device">
                <strong>{device}</strong>
                {s.current ? <span className="badge">{t('settings.security.thisDevice')}</span> : null}
              </p>
              <dl className="session-times">
                <dt>{t('settings.security.signedInAt')}</dt>
                <dd>{dateTime(s.signedInAt)}</dd>
                <dt>{t('settings.security.lastAccess')}</dt>
                <dd>{s.lastAccessAt ? dateTime(s.lastAccessAt) : t('settings.security.never')}</dd>
              </dl>
              <form method="post" action={href('/settings/security/sessions/sign-out')}>
                <CsrfField />
                <input type="hidden" name="session" value={s.id} />
                <button type="submit" className="button button-secondary button-compact">
                  {t('settings.security.signOutDevice')}
                  <span className="visually-hidden">{t('settings.security.signOutDeviceHidden', { device, date: dateTime(s.signedInAt) })}</span>
                </button>
              </form>
            </li>
          );
        })}
      </ul>
      {notListed > 0 ? <p className="muted">{t('settings.security.moreSessions', { count: notListed })}</p> : null}
      {otherCount > 0 ? (
        <form method="post" action={href('/settings/security/sessions/sign-out-others')}>
          <CsrfField />
          <button type="submit" className="button button-secondary">
            {t('settings.security.signOutOthers')}
          </button>
        </form>
      ) : (
        <p>{t('settings.security.noOtherSessions')}</p>
      )}
    </section>
  );
}

/** A form shown in a dialog (fragment) or as a page of its own: the same markup, the heading level differs. */
function ModalForm({ heading, intro, action, error, inDialog, children }: { heading: string; intro: string; action: string; error?: string; inDialog: boolean; children: ReactNode }) {
  const { t } = usePage();
  const href = useHref();
  const Heading = inDialog ? 'h2' : 'h1';
  return (
    <div className="modal-form">
      <Heading id="modal-heading">{heading}</Heading>
      {error ? <Alert kind="error">{error}</Alert> : null}
      <p>{intro}</p>
      <form method="post" action={href(action)} noValidate className="stack" data-modal-form="">
        <CsrfField />
        {children}
      </form>
      {inDialog ? null : (
        <p>
          <a href={href('/settings/security')}>{t('settings.security.backToSecurity')}</a>
        </p>
      )}
    </div>
  );
}

/**
 * Current password, then the reset form's NewPasswordFields (three criteria, confirmation checked on
 * change and blur). Passwords are never sent back: after an error the fields are empty.
 */
export function PasswordForm({ state, inDialog }: { state: PasswordFormState; inDialog: boolean }) {
  const { t } = usePage();
  return (
    <ModalForm heading={t('settings.security.passwordTitle')} intro={t('settings.security.passwordIntro')} action="/settings/security/password" error={state.errors.form} inDialog={inDialog}>
      <Field
        id="old-password"
        name="oldPassword"
        type="password"
        label={t('settings.security.currentPassword')}
        autoComplete="current-password"
        required
        error={state.errors.oldPassword}
      />
      <Island
        name="NewPasswordFields"
        props={{
          labels: newPasswordLabels(t, { password: t('settings.security.newPassword'), confirm: t('settings.security.confirmPassword'), submit: t('settings.security.save') }),
          errors: { password: state.errors.password, confirm: state.errors.confirm },
          values: { password: '', confirm: '' },
          currentId: 'old-password',
        }}
      />
    </ModalForm>
  );
}

export function PasswordPage({ state }: { state: PasswordFormState }) {
  return (
    <SettingsLayout section="security">
      <PasswordForm state={state} inDialog={false} />
    </SettingsLayout>
  );
}

/** Country (calling code) and number; an empty number removes the phone. Typed values come back after an error. */
export function PhoneForm({ state, countries, inDialog }: { state: PhoneFormState; countries: CountryOption[]; inDialog: boolean }) {
  const { t } = usePage();
  const { values, errors } = state;
  return (
    <ModalForm heading={t('settings.security.phoneTitle')} intro={t('settings.security.phoneIntro')} action="/settings/security/phone" error={errors.form} inDialog={inDialog}>
      <div className={errors.countryCode ? 'field field-invalid' : 'field'}>
        <label htmlFor="phone-country">{t('settings.security.countryCode')}</label>
        <select
          id="phone-country"
          name="countryCode"
          defaultValue={values.countryCode}
          autoComplete="tel-country-code"
          aria-invalid={errors.countryCode ? true : undefined}
          aria-describedby={describedBy('phone-country', errors.countryCode)}
        >
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.label}
            </option>
          ))}
        </select>
        <FieldNotes id="phone-country" error={errors.countryCode} />
      </div>
      <Field id="phone-number" name="number" type="tel" inputMode="tel" autoComplete="tel-national" label={t('settings.security.number')} defaultValue={values.number} error={errors.number} />
      <div className="form-actions">
        <button type="submit" className="button">
          {t('settings.security.save')}
        </button>
      </div>
    </ModalForm>
  );
}

export function PhonePage({ state, countries }: { state: PhoneFormState; countries: CountryOption[] }) {
  return (
    <SettingsLayout section="security">
      <PhoneForm state={state} countries={countries} inDialog={false} />
    </SettingsLayout>
  );
}
