import type { ReactNode } from 'react';
import type { AmplifyPageModel } from '#src/features/payments/index.ts';
import { CsrfField, FieldNotes, describedBy } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/** The page's data, formatted by the route (view-models.ts amplifyPageModel), and its forms' state. */
export type AmplifyPageProps = AmplifyPageModel & {
  /** A message next to the package choice (an unknown package). */
  packageError?: string | null;
  /** The refused card's message, and which form it belongs to. */
  cardError?: { message: string; form: 'saved' | 'new' } | null;
  /** Fresh keys for the two payment forms (a refused payment gets new ones). */
  keys: { saved: string; new: string };
  /** The new-card form (the CardForm view), rendered by the route for the chosen package. */
  newCardForm?: ReactNode;
};

/**
 * /articles/amplify/{id}: promote one's own published article (spec section 2). Choose a package (a GET
 * form, so the choice is in the address and survives a reload), then pay with the default card in one
 * click or with a new card. What was bought already is listed at the top: the article is amplified.
 */
export function AmplifyPage({ article, packages, orders, defaultCard, selected, packageError, cardError, keys, newCardForm }: AmplifyPageProps) {
  const { t } = usePage();
  const href = useHref();
  const path = href(`/articles/amplify/${article.id}`);
  return (
    <section className="amplify">
      <h1>{t('amplify.title')}</h1>
      <p className="amplify-article">
        <span className="card-title">“{article.title}”</span>
        {article.publishedOn ? <span className="muted"> · {t('amplify.publishedOn', { date: article.publishedOn })}</span> : null}
        {article.articleUrl ? (
          <>
            {' · '}
            <a href={article.articleUrl} rel="noopener" className="live-address">
              {t('amplify.readLive')}
            </a>
          </>
        ) : null}
      </p>

      {orders.length ? (
        <section className="panel amplify-orders" aria-labelledby="amplify-orders-title">
          <h2 id="amplify-orders-title">{t('amplify.orders.heading')}</h2>
          <ul className="plain">
            {orders.map((o) => (
              <li key={o.id}>{t('amplify.orders.item', { package: o.packageName, date: o.date, price: o.price })}</li>
            ))}
          </ul>
          <p className="muted">
            <a href={href('/settings/billing')}>{t('amplify.orders.statements')}</a>
          </p>
        </section>
      ) : null}

      <p>{t('amplify.intro')}</p>
      {packages.length === 0 ? (
        <EmptyState title={t('amplify.packages.none')} />
      ) : (
        <form method="get" action={path} className="amplify-packages">
          <fieldset aria-describedby={describedBy('package', packageError ?? undefined)}>
            <legend>{t('amplify.packages.legend')}</legend>
            {packages.map((p) => (
              <div key={p.id} className="amplify-package">
                <input type="radio" id={`package-${p.id}`} name="package" value={p.id} defaultChecked={selected?.id === p.id} required aria-describedby={`package-${p.id}-description`} />
                <label htmlFor={`package-${p.id}`}>
                  <span className="amplify-package-name">{p.name}</span> <span className="amplify-package-price">{p.price}</span>
                </label>
                <p id={`package-${p.id}-description`} className="muted amplify-package-description">
                  {p.description}
                </p>
              </div>
            ))}
            <FieldNotes id="package" error={packageError ?? undefined} />
          </fieldset>
          <button type="submit" className={selected ? 'button button-secondary' : 'button'}>
            {selected ? t('amplify.payment.change') : t('amplify.packages.continue')}
          </button>
        </form>
      )}

      {selected ? (
        <section className="panel amplify-payment" aria-labelledby="amplify-payment-title">
          <h2 id="amplify-payment-title">{t('amplify.payment.heading', { price: selected.price, package: selected.name })}</h2>
          {defaultCard ? (
            <form method="post" action={path} className="amplify-saved-card">
              <CsrfField />
              <input type="hidden" name="packageId" value={selected.id} />
              <input type="hidden" name="savedPaymentId" value={defaultCard.id} />
              <input type="hidden" name="idempotencyKey" value={keys.saved} />
              {cardError?.form === 'saved' ? <Alert kind="error">{cardError.message}</Alert> : null}
              <button type="submit" className="button">
                {t('amplify.payment.savedCard', { card: defaultCard.label })}
              </button>
            </form>
          ) : null}
          {cardError?.form === 'new' && !newCardForm ? <Alert kind="error">{cardError.message}</Alert> : null}
          {newCardForm ? (
            <>
              <h3>{t('amplify.payment.newCard')}</h3>
              {newCardForm}
            </>
          ) : null}
        </section>
      ) : null}
    </section>
  );
}

/** One's own article that is not live yet: why it cannot be amplified, and the way back. */
export function AmplifyNotPublished() {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="amplify">
      <h1>{t('amplify.notPublished.heading')}</h1>
      <Alert kind="info">{t('amplify.errors.notPublished')}</Alert>
      <p>
        <a href={href('/articles')}>{t('amplify.notPublished.back')}</a>
      </p>
    </section>
  );
}
