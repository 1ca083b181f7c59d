import type { ReactNode } from 'react';
import type { CardType } from '#src/db/types.ts';
import type { BrowserSettings, CardFormLogos } from '#src/features/payments/index.ts';
import { CsrfField } from '#views/kit/form.tsx';
import { Island } from '#views/layout/Island.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

type CardFormBase = {
  /** Our POST path (with the base path). */
  action: string;
  idempotencyKey: string;
  /** processor.browserSettings(site): publicKey, serverHost, scriptUrl, hostedPageUrl. */
  processor: BrowserSettings;
  submitLabel: string;
  /** Extra hidden inputs (ids); the CSRF field is added by the form itself as other forms do. */
  hidden?: Record<string, string>;
  /** The refused-card message, shown inline in the form (role=alert), e.g. after a 400 from the payment. */
  cardError?: string | null;
  /** For the client error-log call (spec section 7): who and what. */
  log?: { userId?: number; email?: string; value?: string };
  /** Extra fields inside the form, before the button (e.g. the terms checkbox). */
  children?: ReactNode;
};

export type CardFormProps = CardFormBase & {
  /** The accepted cards as shown: cardFormLogos(site.acceptedCards) from src/features/payments/cards.ts. */
  logos: CardFormLogos;
};

/** The accepted cards: at most 3 logos, then 'and more...' (spec section 9); the route decides which. */
export function CardLogos({ logos, more }: CardFormLogos) {
  const { t } = usePage();
  if (logos.length === 0) return null;
  return (
    <ul className="card-logos" aria-label={t('payments.cardForm.accepted')}>
      {logos.map((card) => (
        <li key={card.type} className={`card-logo ${card.className}`}>
          {card.name}
        </li>
      ))}
      {more ? <li className="card-logos-more">{t('payments.cards.andMore')}</li> : null}
    </ul>
  );
}

/**
 * The card form of every payment (onboarding, pay-now, amplify, saved cards, admin). Card data never
 * reaches our handlers: with JavaScript the CardForm island mounts the provider's inputs and posts a
 * one-time `token`; without it the form has no card inputs and posts without a token, and the handler
 * sends the browser to the provider's hosted page (src/features/payments/checkout.ts).
 */
export function CardForm(props: CardFormProps) {
  const { action, idempotencyKey, processor, submitLabel, hidden, cardError, log, children, logos } = props;
  const { t } = usePage();
  const href = useHref();
  return (
    <form className="card-form" method="post" action={action} data-card-form="">
      <CsrfField />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {cardError ? (
        <p className="card-error" role="alert">
          {cardError}
        </p>
      ) : null}
      <CardLogos {...logos} />
      <Island
        name="CardForm"
        props={{
          scriptUrl: processor.scriptUrl,
          publicKey: processor.publicKey,
          serverHost: processor.serverHost,
          log: { clientUrl: href('/rest/get-started/logClientPaymentError'), scriptUrl: href('/rest/payment/logPaymentScriptError'), ...log },
          labels: {
            secureNote: t('payments.cardForm.secureNote'),
            fields: {
              firstName: t('payments.fields.firstName'),
              lastName: t('payments.fields.lastName'),
              number: t('payments.fields.number'),
              cvv: t('payments.fields.cvv'),
              month: t('payments.fields.month'),
              year: t('payments.fields.year'),
              zip: t('payments.fields.zip'),
            },
            invalidFields: t('payments.errors.invalidFields', { fields: '{fields}' }),
            scriptLoad: t('payments.errors.scriptLoad'),
            failed: t('payments.errors.processing'),
            legend: t('payments.cardForm.legend'),
          },
        }}
      />
      {children}
      <p className="button-row">
        <button type="submit" className="button">
          {submitLabel}
        </button>
      </p>
    </form>
  );
}
