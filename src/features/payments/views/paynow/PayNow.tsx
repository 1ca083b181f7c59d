import type { ReactNode } from 'react';
import { assetUrl } from '#shared/asset-url.ts';
import type { CardFormProps } from '#src/features/payments/views/payments/CardForm.tsx';
import { CardForm } from '#src/features/payments/views/payments/CardForm.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/**
 * The public pay-now page (spec section 2, "Pay-now screens"): the community's sign-in background and
 * logo around one card, in one of four views: the payment form, payment complete, payment error, no
 * balance due. It shows only what the spec lists: the member's name, the balance, the renewal date.
 */
export function PayNowFrame({ children }: { children: ReactNode }) {
  const { community, basePath, t } = usePage();
  const background = community.auth_background_image;
  const logo = community.auth_logo ?? community.icon;
  return (
    <div className="paynow">
      {background ? <img className="paynow-bg" src={assetUrl(basePath, background)} alt="" /> : null}
      <section className="paynow-card" aria-labelledby="paynow-heading">
        {logo ? (
          <img className="paynow-logo" src={assetUrl(basePath, logo)} alt={t('paynow.logoAlt', { name: community.name })} />
        ) : (
          <p className="paynow-name">{community.name}</p>
        )}
        {children}
      </section>
    </div>
  );
}

/** What the form view shows: the spec's three facts, already formatted by the route. */
export type PayNowFacts = { memberName: string; balance: string; renewalDate: string | null };

export function PayNowFormView({ facts, form }: { facts: PayNowFacts; form: CardFormProps }) {
  const { t } = usePage();
  return (
    <PayNowFrame>
      <h1 id="paynow-heading">{t('paynow.form.heading')}</h1>
      <p className="paynow-intro">{t('paynow.form.intro')}</p>
      <PayNowFactList facts={facts} />
      <CardForm {...form} />
    </PayNowFrame>
  );
}

export function PayNowFactList({ facts }: { facts: PayNowFacts }) {
  const { t } = usePage();
  return (
    <dl className="paynow-facts">
      <div>
        <dt>{t('paynow.form.member')}</dt>
        <dd>{facts.memberName}</dd>
      </div>
      <div>
        <dt>{t('paynow.form.balance')}</dt>
        <dd className="paynow-amount">{facts.balance}</dd>
      </div>
      {facts.renewalDate ? (
        <div>
          <dt>{t('paynow.form.renewal')}</dt>
          <dd>{facts.renewalDate}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/** After success: links to the root (log in) and to /settings/billing (download the statement). */
export function PayNowCompleteView() {
  const { t } = usePage();
  const href = useHref();
  return (
    <PayNowFrame>
      <div role="status">
        <h1 id="paynow-heading">{t('paynow.complete.heading')}</h1>
        <p>{t('paynow.complete.text')}</p>
      </div>
      <ul className="paynow-links">
        <li>
          <a className="button" href={href('/')}>
            {t('paynow.complete.login')}
          </a>
        </li>
        <li>
          <a href={href('/settings/billing')}>{t('paynow.complete.statement')}</a>
          <p className="field-hint">{t('paynow.complete.statementHint')}</p>
        </li>
      </ul>
    </PayNowFrame>
  );
}

/** A failure other than a refused card: try again, and the concierge's email and phone. */
export function PayNowErrorView({ message, retryHref }: { message: string; retryHref: string }) {
  const { t, community } = usePage();
  return (
    <PayNowFrame>
      <div role="alert">
        <h1 id="paynow-heading">{t('paynow.error.heading')}</h1>
        <p>{message}</p>
      </div>
      <p>
        <a className="button" href={retryHref}>
          {t('paynow.error.tryAgain')}
        </a>
      </p>
      <p className="paynow-contact">{t('paynow.error.contact', { email: community.concierge_email, phone: community.concierge_phone })}</p>
      <ul className="paynow-links">
        <li>
          <a href={`mailto:${community.concierge_email}`}>{t('paynow.error.email')}</a>
        </li>
        <li>
          <a href={`tel:${community.concierge_phone.replace(/[^+\d]/g, '')}`}>{t('paynow.error.phone')}</a>
        </li>
      </ul>
    </PayNowFrame>
  );
}

export function PayNowNoBalanceView() {
  const { t } = usePage();
  const href = useHref();
  return (
    <PayNowFrame>
      <h1 id="paynow-heading">{t('paynow.noBalance.heading')}</h1>
      <p>{t('paynow.noBalance.text')}</p>
      <p>
        <a className="button" href={href('/')}>
          {t('paynow.noBalance.login')}
        </a>
      </p>
    </PayNowFrame>
  );
}
