import type { ReactNode } from 'react';
import type { CardType } from '#src/db/types.ts';
import { CARD_NAMES, MAX_CARD_LOGOS } from '#src/features/payments/cards.ts';
import type { BrowserSettings } from '#src/features/payments/processor/types.ts';
import { CsrfField } from '#views/auth/parts.tsx';
import { Island } from '#views/layout/Island.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

export type CardFormProps = {
  /** Our POST path (with the base path). */
  action: string;
  idempotencyKey: string;
  /** processor.browserSettings(site): publicKey, serverHost, scriptUrl, hostedPageUrl. */
  processor: BrowserSettings;
  acceptedCards: CardType[]; // shows at most 3 logos, then 'and more...'
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

/** The accepted cards: at most 3 logos, then 'and more...' (spec section 9). */
export function CardLogos({ acceptedCards }: { acceptedCards: CardType[] }) {
  const { t } = usePage();
  if (acceptedCards.length === 0) return null;
  const shown = acceptedCards.slice(0, MAX_CARD_LOGOS);
  return (
    <ul className="card-logos" aria-label={t('payments.cardForm.accepted')}>
      {shown.map((card) => (
        <li key={card} className={`card-logo card-logo-${card.toLowerCase().replace(/_/g, '-')}`}>
          {CARD_NAMES[card]}
        </li>
      ))}
      {acceptedCards.length > MAX_CARD_LOGOS ? <li className="card-logos-more">{t('payments.cards.andMore')}</li> : null}
    </ul>
  );
}

/**
 * The card form of every payment (onboarding, pay-now, amplify, saved cards, admin). Card data never
 * reaches our handlers: with JavaScript the CardForm island mounts the provider's inputs and posts a
 * one-time `token`; without it the form has no card inputs and posts without a token, and the handler
 * sends the browser to the provider's hosted page (src/features/payments/checkout.ts).
 */
export function CardForm({ action, idempotencyKey, processor, acceptedCards, submitLabel, hidden, cardError, log, children }: CardFormProps) {
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
      <CardLogos acceptedCards={acceptedCards} />
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
