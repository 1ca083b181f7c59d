import type { ReactNode } from 'react';
import type { JoinablePanel, MemberQuestionView } from '#src/features/expert-panels/index.ts';
import type { CountryOption } from '#src/features/settings/index.ts';
import type { AddressDraft, StepName, StepView } from '#src/features/payments/index.ts';
import { CsrfField, describedBy, Field, FieldNotes } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { Island } from '#views/layout/Island.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { newPasswordLabels } from '#views/kit/new-password-labels.ts';
import { AnswerDraftIsland } from '#views/kit/answer-draft.tsx';
import { DateText } from '#views/kit/date-text.tsx';

/**
 * The onboarding steps (spec sections 2 and 5): one page each, plain forms that work without
 * JavaScript. Views get plain data (StepView) and import types only.
 */

type Errors = Record<string, string | undefined>;

/** The visible steps of this member's flow, for the progress list. */
function visibleSteps(view: StepView): StepName[] {
  const steps: StepName[] = ['payment', 'password', 'profile', 'contact', 'team'];
  if (view.data.showExpertPanelStep) steps.push('ep-landing');
  if (view.data.showExpertQuestionStep || view.step === 'ep-question') steps.push('ep-question');
  if (view.data.showAddressStep) steps.push('address');
  steps.push('complete');
  return steps;
}

/** The link's parameters, carried in every form and link until the invitee is signed in. */
export function linkQuery(view: Pick<StepView, 'link'>): string {
  return view.link ? `?uid=${encodeURIComponent(view.link.uid)}&dealId=${encodeURIComponent(view.link.dealId)}` : '';
}

function LinkFields({ view }: { view: StepView }) {
  if (!view.link) return null;
  return (
    <>
      <input type="hidden" name="uid" value={view.link.uid} />
      <input type="hidden" name="dealId" value={view.link.dealId} />
    </>
  );
}

export function OnboardingLayout({ view, heading, children }: { view: StepView; heading: string; children: ReactNode }) {
  const { t } = usePage();
  const steps = visibleSteps(view);
  const at = steps.indexOf(view.step);
  return (
    <section className="onboarding" aria-labelledby="onboarding-heading">
      {at >= 0 ? (
        <nav aria-label={t('onboarding.progressLabel')}>
          <ol className="onboarding-progress">
            {steps.map((s, i) => (
              <li key={s} className={i < at ? 'done' : i === at ? 'current' : undefined} aria-current={i === at ? 'step' : undefined}>
                {t(`onboarding.steps.${s}`)}
                {i < at ? <span className="visually-hidden"> {t('onboarding.stepDone')}</span> : null}
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      <p className="onboarding-greeting">{t('onboarding.greeting', { name: view.data.greetingName })}</p>
      <h1 id="onboarding-heading">{heading}</h1>
      {children}
    </section>
  );
}

function SkipForm({ view, step }: { view: StepView; step: StepName }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <form method="post" action={href(`/get-started/${step}/skip`)} className="onboarding-skip">
      <CsrfField />
      <LinkFields view={view} />
      <button type="submit" className="link-button">
        {t('onboarding.skip')}
      </button>
    </form>
  );
}

// ---------------------------------------------------------------------------------------------
// Payment

export type PaymentStepProps = {
  view: StepView;
  termsAccepted: boolean;
  errors: Errors;
  cardError: string | null;
  /** The card form (CardForm view): given the terms checkbox as its children. */
  renderCardForm: (children: ReactNode) => ReactNode;
};

export function TermsField({ accepted, error, link }: { accepted: boolean; error?: string; link: string | null }) {
  const { t } = usePage();
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <div className="check">
        <input type="checkbox" id="accepted-terms" name="acceptedTerms" value="on" defaultChecked={accepted} data-required-message={t('payments.fields.terms')} aria-invalid={error ? true : undefined} aria-describedby={describedBy('accepted-terms', error)} />
        <label htmlFor="accepted-terms">
          {t('onboarding.payment.acceptTerms')}{' '}
          {link ? (
            <a href={link} target="_blank" rel="noopener noreferrer">
              {t('onboarding.payment.termsLink')}
              <span className="visually-hidden"> {t('onboarding.payment.opensNewWindow')}</span>
            </a>
          ) : (
            t('onboarding.payment.termsLink')
          )}
        </label>
      </div>
      <FieldNotes id="accepted-terms" error={error} />
    </div>
  );
}

export function PaymentStep({ view, termsAccepted, errors, cardError, renderCardForm }: PaymentStepProps) {
  const { t } = usePage();
  const offer = view.data.payment;
  return (
    <OnboardingLayout view={view} heading={t('onboarding.payment.heading')}>
      <div className="card onboarding-offer">
        <h2>{offer.name}</h2>
        <p>{offer.description}</p>
        <dl className="onboarding-amounts">
          <div>
            <dt>{t('onboarding.payment.dues')}</dt>
            <dd>{t('onboarding.payment.perYear', { amount: view.fees.dues })}</dd>
          </div>
          <div>
            <dt>{t('onboarding.payment.initiationFee')}</dt>
            <dd>{view.fees.initiationFee}</dd>
          </div>
          {offer.savings > 0 ? (
            <div>
              <dt>{t('onboarding.payment.savings')}</dt>
              <dd>{view.fees.savings}</dd>
            </div>
          ) : null}
          <div className="onboarding-total">
            <dt>{t('onboarding.payment.amountDue')}</dt>
            <dd>{view.fees.amountDue}</dd>
          </div>
          <div>
            <dt>{t('onboarding.payment.renewsAt')}</dt>
            <dd>{view.fees.renewsAt}</dd>
          </div>
        </dl>
        <p className="muted">{t('onboarding.payment.commitment', { months: offer.termMonths })}</p>
      </div>
      {cardError ? <Alert kind="error">{cardError}</Alert> : null}
      {renderCardForm(<TermsField accepted={termsAccepted} error={errors.acceptedTerms} link={view.termsLink} />)}
    </OnboardingLayout>
  );
}

// ---------------------------------------------------------------------------------------------
// Password

export function PasswordStep({ view, username, errors }: { view: StepView; username: string; errors: Errors }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <OnboardingLayout view={view} heading={t('onboarding.password.heading')}>
      <p>{t('onboarding.password.intro', { email: view.data.email })}</p>
      {errors.form ? <Alert kind="error">{errors.form}</Alert> : null}
      <form method="post" action={href('/get-started/password')} className="stack" noValidate>
        <CsrfField />
        <LinkFields view={view} />
        <Field id="username" name="username" label={t('onboarding.password.username')} autoComplete="username" required defaultValue={username} error={errors.username} hint={t('onboarding.password.usernameHint')} maxLength={100} />
        <Island
          name="NewPasswordFields"
          props={{
            labels: newPasswordLabels(t, { password: t('onboarding.password.password'), confirm: t('onboarding.password.confirm'), submit: t('onboarding.password.submit') }),
            errors: { password: errors.password, confirm: errors.confirm },
            values: { password: '', confirm: '' },
          }}
        />
      </form>
    </OnboardingLayout>
  );
}

// ---------------------------------------------------------------------------------------------
// Profile, contact, team, address

function StepForm({ view, step, errors, children, submit, formId }: { view: StepView; step: StepName; errors: Errors; children: ReactNode; submit?: string; formId?: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <>
      {errors.form ? <Alert kind="error">{errors.form}</Alert> : null}
      <form method="post" action={href(`/get-started/${step}`)} className="stack" noValidate id={formId}>
        <CsrfField />
        <LinkFields view={view} />
        {children}
        <button type="submit" className="button">
          {submit ?? t('onboarding.saveAndContinue')}
        </button>
      </form>
      <SkipForm view={view} step={step} />
    </>
  );
}

export function ProfileStep({ view, values, errors }: { view: StepView; values: { jobTitle: string; companyName: string; location: string }; errors: Errors }) {
  const { t } = usePage();
  return (
    <OnboardingLayout view={view} heading={t('onboarding.profile.heading')}>
      <p>{t('onboarding.profile.intro')}</p>
      <StepForm view={view} step="profile" errors={errors}>
        <Field id="job-title" name="jobTitle" label={t('onboarding.profile.jobTitle')} autoComplete="organization-title" defaultValue={values.jobTitle} error={errors.jobTitle} />
        <Field id="company-name" name="companyName" label={t('onboarding.profile.companyName')} autoComplete="organization" defaultValue={values.companyName} error={errors.companyName} />
        <Field id="location" name="location" label={t('onboarding.profile.location')} hint={t('onboarding.profile.locationHint')} defaultValue={values.location} error={errors.location} />
      </StepForm>
    </OnboardingLayout>
  );
}

function CountrySelect({ id, name, value, countries, label, error }: { id: string; name: string; value: string; countries: CountryOption[]; label: string; error?: string }) {
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value} autoComplete="tel-country-code" aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error)}>
        {countries.map((c) => (
          <option key={c.code} value={c.code}>
            {c.label}
          </option>
        ))}
      </select>
      <FieldNotes id={id} error={error} />
    </div>
  );
}

export function ContactStep({ view, values, countries, errors }: { view: StepView; values: { countryCode: string; number: string }; countries: CountryOption[]; errors: Errors }) {
  const { t } = usePage();
  return (
    <OnboardingLayout view={view} heading={t('onboarding.contact.heading')}>
      <p>{t('onboarding.contact.intro')}</p>
      <StepForm view={view} step="contact" errors={errors}>
        <CountrySelect id="contact-country" name="countryCode" value={values.countryCode} countries={countries} label={t('onboarding.contact.countryCode')} error={errors.countryCode} />
        <Field id="contact-number" name="number" type="tel" inputMode="tel" autoComplete="tel-national" label={t('onboarding.contact.number')} defaultValue={values.number} error={errors.number} />
      </StepForm>
    </OnboardingLayout>
  );
}

export type TeamValues = { type: 'ea' | 'pr'; name: string; email: string; countryCode: string; number: string };

export function TeamStep({ view, values, countries, errors }: { view: StepView; values: TeamValues; countries: CountryOption[]; errors: Errors }) {
  const { t } = usePage();
  return (
    <OnboardingLayout view={view} heading={t('onboarding.team.heading')}>
      <p>{t('onboarding.team.intro')}</p>
      <StepForm view={view} step="team" errors={errors}>
        <fieldset className="field">
          <legend>{t('onboarding.team.type')}</legend>
          {(['ea', 'pr'] as const).map((type) => (
            <div className="check" key={type}>
              <input type="radio" id={`team-type-${type}`} name="type" value={type} defaultChecked={values.type === type} />
              <label htmlFor={`team-type-${type}`}>{t(`onboarding.team.types.${type}`)}</label>
            </div>
          ))}
        </fieldset>
        <Field id="team-name" name="name" label={t('onboarding.team.name')} autoComplete="off" defaultValue={values.name} error={errors.name} />
        <Field id="team-email" name="email" type="email" label={t('onboarding.team.email')} autoComplete="off" defaultValue={values.email} error={errors.email} />
        <CountrySelect id="team-country" name="countryCode" value={values.countryCode} countries={countries} label={t('onboarding.contact.countryCode')} />
        <Field id="team-number" name="number" type="tel" inputMode="tel" autoComplete="off" label={t('onboarding.team.mobile')} defaultValue={values.number} error={errors.mobilePhone} />
      </StepForm>
    </OnboardingLayout>
  );
}

export function AddressStep({ view, values, errors }: { view: StepView; values: AddressDraft; errors: Errors }) {
  const { t } = usePage();
  return (
    <OnboardingLayout view={view} heading={t('onboarding.address.heading')}>
      <p>{t('onboarding.address.intro')}</p>
      <StepForm view={view} step="address" errors={errors}>
        <Field id="address-street" name="street" label={t('onboarding.address.street')} autoComplete="street-address" required defaultValue={values.street} error={errors.street} />
        <Field id="address-city" name="city" label={t('onboarding.address.city')} autoComplete="address-level2" required defaultValue={values.city} error={errors.city} />
        <Field id="address-region" name="region" label={t('onboarding.address.region')} autoComplete="address-level1" defaultValue={values.region} error={errors.region} />
        <Field id="address-postal" name="postalCode" label={t('onboarding.address.postalCode')} autoComplete="postal-code" required defaultValue={values.postalCode} error={errors.postalCode} />
        <Field id="address-country" name="country" label={t('onboarding.address.country')} autoComplete="country-name" required defaultValue={values.country} error={errors.country} />
      </StepForm>
    </OnboardingLayout>
  );
}

// ---------------------------------------------------------------------------------------------
// Expert panels (decision 0036): join panels, then the first open question

export function ExpertPanelsStep({ view, panels, picked, errors }: { view: StepView; panels: JoinablePanel[]; picked: number[]; errors: Errors }) {
  const { t } = usePage();
  const error = errors.panelIds;
  return (
    <OnboardingLayout view={view} heading={t('onboarding.epLanding.heading')}>
      <p>{t('onboarding.epLanding.intro')}</p>
      <StepForm view={view} step="ep-landing" errors={errors} submit={t('onboarding.epLanding.submit')}>
        <fieldset className={error ? 'field field-invalid' : 'field'} aria-describedby={describedBy('ep-panels', error, t('onboarding.epLanding.hint'))}>
          <legend>{t('onboarding.epLanding.legend')}</legend>
          <p className="field-hint" id="ep-panels-hint">
            {t('onboarding.epLanding.hint')}
          </p>
          {panels.map((p) => (
            <div className="check ep-join" key={p.id}>
              <input
                type="checkbox"
                id={`ep-panel-${p.id}`}
                name="panelIds"
                value={String(p.id)}
                defaultChecked={p.joined || picked.includes(p.id)}
                disabled={p.joined}
                aria-describedby={p.topic || p.joined ? `ep-panel-${p.id}-about` : undefined}
              />
              <div>
                <label htmlFor={`ep-panel-${p.id}`}>{p.name}</label>
                {p.topic || p.joined ? (
                  <p className="field-hint" id={`ep-panel-${p.id}-about`}>
                    {[p.topic, p.joined ? t('onboarding.epLanding.joined') : ''].filter(Boolean).join(' · ')}
                  </p>
                ) : null}
              </div>
            </div>
          ))}
          {error ? (
            <p className="field-error" id="ep-panels-error">
              {error}
            </p>
          ) : null}
        </fieldset>
      </StepForm>
    </OnboardingLayout>
  );
}

export function ExpertQuestionStep({ view, question, answer, errors }: { view: StepView; question: MemberQuestionView; answer: { value: string; words: number }; errors: Errors }) {
  const { t } = usePage();
  const { minWords: min, maxWords: max } = question.panel;
  const error = errors.body;
  const described = ['ep-answer-hint', 'ep-answer-count', error ? 'ep-answer-error' : null].filter(Boolean).join(' ');
  return (
    <OnboardingLayout view={view} heading={t('onboarding.epQuestion.heading')}>
      <p>{t('onboarding.epQuestion.intro')}</p>
      <div className="card">
        <h2>{question.title}</h2>
        <p className="ep-meta">
          <span>{t('expertPanels.question.panel', { name: question.panel.name })}</span>
          {' · '}
          <span>
            {t('expertPanels.question.deadline', { date: '' })}
            <DateText at={question.deadlineAt} />
          </span>
        </p>
        {question.briefHtml ? (
          <section aria-labelledby="ep-brief">
            <h3 id="ep-brief">{t('expertPanels.question.brief')}</h3>
            <div className="ep-body" dangerouslySetInnerHTML={{ __html: question.briefHtml }} />
          </section>
        ) : null}
        {question.guidelinesHtml ? (
          <section aria-labelledby="ep-guidelines">
            <h3 id="ep-guidelines">{t('expertPanels.question.guidelines')}</h3>
            <div className="ep-body" dangerouslySetInnerHTML={{ __html: question.guidelinesHtml }} />
          </section>
        ) : null}
      </div>
      <StepForm view={view} step="ep-question" errors={errors} submit={t('onboarding.epQuestion.submit')} formId="ep-answer-form">
        <input type="hidden" name="questionId" value={String(question.id)} />
        <div className={error ? 'field field-invalid' : 'field'}>
          <label htmlFor="ep-answer">{t('expertPanels.question.answerLabel')}</label>
          <p className="field-hint" id="ep-answer-hint">
            {t('expertPanels.question.answerHint', { min, max })}
          </p>
          <textarea id="ep-answer" name="body" rows={12} defaultValue={answer.value} aria-invalid={error ? true : undefined} aria-describedby={described} />
          <p className={answer.words > max ? 'word-count word-count-over' : 'word-count'} id="ep-answer-count" data-template={t('expertPanels.question.wordCount', { n: '{n}', min, max })}>
            {t('expertPanels.question.wordCount', { n: answer.words, min, max })}
          </p>
          {error ? (
            <p className="field-error" id="ep-answer-error">
              {error}
            </p>
          ) : null}
        </div>
      </StepForm>
      <AnswerDraftIsland questionId={question.id} min={min} max={max} />
    </OnboardingLayout>
  );
}

// ---------------------------------------------------------------------------------------------
// Complete, shutdown, invalid

/** Spec section 9: the page redirects to the root after 5 seconds (with JavaScript, and a way to stay: decision 0029). */
export const COMPLETE_REDIRECT_SECONDS = 5;

export function CompleteStep({ view }: { view: StepView }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <OnboardingLayout view={view} heading={t('onboarding.complete.heading')}>
      <Island
        name="RedirectCountdown"
        props={{
          url: href('/'),
          seconds: COMPLETE_REDIRECT_SECONDS,
          message: t('onboarding.complete.redirecting', { seconds: COMPLETE_REDIRECT_SECONDS }),
          stayLabel: t('onboarding.complete.stay'),
          stayedMessage: t('onboarding.complete.stayed'),
        }}
      />
      <p>{t('onboarding.complete.intro')}</p>
      <ul className="card-links">
        <li>
          <a href={href('/articles')}>{t('onboarding.complete.articles')}</a>
        </li>
        <li>
          <a href={href('/members')}>{t('onboarding.complete.members')}</a>
        </li>
        <li>
          <a href={href('/settings')}>{t('onboarding.complete.settings')}</a>
        </li>
      </ul>
    </OnboardingLayout>
  );
}

export function ShutdownStep({ view }: { view: StepView }) {
  const { t } = usePage();
  return (
    <OnboardingLayout view={view} heading={t('onboarding.shutdown.heading')}>
      <p>{t('onboarding.shutdown.intro')}</p>
      <ul>
        <li>
          {t('onboarding.shutdown.email')} <a href={`mailto:${view.concierge.email}`}>{view.concierge.email}</a>
        </li>
        <li>
          {t('onboarding.shutdown.phone')} <a href={`tel:${view.concierge.phone.replace(/[^+\d]/g, '')}`}>{view.concierge.phone}</a>
        </li>
      </ul>
    </OnboardingLayout>
  );
}

/** The invalid-membership answer (spec section 8: an onboarding load with HTTP 400). */
export function InvalidMembership({ concierge }: { concierge: { email: string; phone: string } }) {
  const { t } = usePage();
  return (
    <section className="onboarding" aria-labelledby="onboarding-heading">
      <h1 id="onboarding-heading">{t('onboarding.invalid.heading')}</h1>
      <Alert kind="error">{t('payments.errors.invalidMembership')}</Alert>
      <p>
        {t('onboarding.shutdown.email')} <a href={`mailto:${concierge.email}`}>{concierge.email}</a>
      </p>
      <p>
        {t('onboarding.shutdown.phone')} <a href={`tel:${concierge.phone.replace(/[^+\d]/g, '')}`}>{concierge.phone}</a>
      </p>
    </section>
  );
}
