import type { CardFormProps } from '#src/features/payments/views/payments/CardForm.tsx';
import { CardForm } from '#src/features/payments/views/payments/CardForm.tsx';
import { CsrfField } from '#views/kit/form.tsx';
import { usePage } from '#views/layout/page-context.tsx';

export type OverdueProps = {
  balance: string;
  since: string | null;
  /** The member's default card, to pay with in one press ("Visa ending 4242"), or null. */
  defaultCard: { label: string; action: string; idempotencyKey: string; next: string } | null;
  form: CardFormProps;
  /** Where "Remind me later" goes: the page the member was going to. */
  laterHref: string;
  /** A refused payment with the default card, shown above its button. */
  error?: string | null;
};

/** The dunning page (spec section 2, "Other UI"): shown once per session after sign-in while a balance is overdue. */
export function OverduePage({ balance, since, defaultCard, form, laterHref, error }: OverdueProps) {
  const { t } = usePage();
  return (
    <section className="overdue" aria-labelledby="overdue-heading">
      <h1 id="overdue-heading">{t('paynow.overdue.heading')}</h1>
      <p>{t('paynow.overdue.intro')}</p>
      <dl className="paynow-facts">
        <div>
          <dt>{t('paynow.overdue.balance')}</dt>
          <dd className="paynow-amount">{balance}</dd>
        </div>
        {since ? (
          <div>
            <dt>{t('paynow.overdue.since')}</dt>
            <dd>{since}</dd>
          </div>
        ) : null}
      </dl>
      {defaultCard ? (
        <form method="post" action={defaultCard.action} className="stack overdue-default">
          <CsrfField />
          <input type="hidden" name="idempotencyKey" value={defaultCard.idempotencyKey} />
          <input type="hidden" name="next" value={defaultCard.next} />
          {error ? (
            <p className="alert alert-error" role="alert">
              {error}
            </p>
          ) : null}
          <button type="submit" className="button">
            {t('paynow.overdue.payDefault', { amount: balance, card: defaultCard.label })}
          </button>
        </form>
      ) : null}
      {defaultCard ? <h2>{t('paynow.overdue.orNewCard')}</h2> : null}
      <CardForm {...form} />
      <p className="overdue-later">
        <a href={laterHref}>{t('paynow.overdue.later')}</a>
      </p>
    </section>
  );
}
