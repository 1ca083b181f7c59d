import type { ReactNode } from 'react';
import type { Translate } from '#src/core/i18n.ts';

/**
 * Sandbox Pay's own pages: the provider's hosted payment page and its 3-D-Secure-style challenge.
 * They stand for another host's pages, so they have their own tiny layout and stylesheet, not our
 * Shell, and no script at all: they work without JavaScript.
 */

export type HostedField = 'firstName' | 'lastName' | 'number' | 'cvv' | 'month' | 'year' | 'zip';

export type HostedPageData = {
  /** The page's own address (path and query): the form posts to it. */
  action: string;
  csrfToken: string;
  /** What was typed, except the number and the CVV, which are never shown again. */
  values: { firstName: string; lastName: string; month: string; year: string; zip: string };
  /** Field -> its message. */
  errors: Partial<Record<HostedField, string>>;
  /** The summary above the form: spec section 5's invalid-field message, or a refusal. */
  summary: string | null;
  cancelHref: string;
  testCards: { number: string; behaviour: string }[];
};

export type ChallengePageData = {
  action: string;
  csrfToken: string;
  /** Still waiting for an answer; otherwise the page says it is closed. */
  open: boolean;
  message: string | null;
  backHref: string | null;
};

export function SandboxDocument({ t, title, stylesheet, children }: { t: Translate; title: string; stylesheet: string; children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${title} · ${t('payments.sandbox.name')}`}</title>
        <link rel="stylesheet" href={stylesheet} />
      </head>
      <body>
        <header className="sp-top">
          {t('payments.sandbox.name')} <span>({t('payments.sandbox.tagline')})</span>
        </header>
        <main id="main">{children}</main>
      </body>
    </html>
  );
}

const FIELDS: { name: HostedField; autoComplete: string; inputMode: 'text' | 'numeric'; wide: boolean; maxLength: number }[] = [
  { name: 'firstName', autoComplete: 'cc-given-name', inputMode: 'text', wide: true, maxLength: 100 },
  { name: 'lastName', autoComplete: 'cc-family-name', inputMode: 'text', wide: true, maxLength: 100 },
  { name: 'number', autoComplete: 'cc-number', inputMode: 'numeric', wide: true, maxLength: 23 },
  { name: 'cvv', autoComplete: 'cc-csc', inputMode: 'numeric', wide: false, maxLength: 4 },
  { name: 'month', autoComplete: 'cc-exp-month', inputMode: 'numeric', wide: false, maxLength: 2 },
  { name: 'year', autoComplete: 'cc-exp-year', inputMode: 'numeric', wide: false, maxLength: 4 },
  { name: 'zip', autoComplete: 'postal-code', inputMode: 'text', wide: false, maxLength: 10 },
];

export function HostedPayPage({ t, data }: { t: Translate; data: HostedPageData }) {
  return (
    <>
      <h1>{t('payments.sandbox.hosted.title')}</h1>
      <p>{t('payments.sandbox.hosted.intro')}</p>
      {data.summary ? (
        <p className="sp-alert" role="alert">
          {data.summary}
        </p>
      ) : null}
      <form method="post" action={data.action} noValidate>
        <input type="hidden" name="_csrf" value={data.csrfToken} />
        <fieldset className="sp-fields">
          <legend>{t('payments.sandbox.hosted.legend')}</legend>
          {FIELDS.map((f) => {
            const id = `sp-${f.name}`;
            const error = data.errors[f.name];
            const value = f.name === 'number' || f.name === 'cvv' ? '' : data.values[f.name];
            return (
              <div key={f.name} className={f.wide ? 'sp-field sp-field-wide' : 'sp-field'}>
                <label htmlFor={id}>{t(`payments.fields.${f.name}`)}</label>
                <input
                  id={id}
                  name={f.name}
                  type="text"
                  autoComplete={f.autoComplete}
                  inputMode={f.inputMode}
                  maxLength={f.maxLength}
                  required
                  defaultValue={value}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-error` : undefined}
                />
                {error ? (
                  <p className="sp-error" id={`${id}-error`}>
                    {error}
                  </p>
                ) : null}
              </div>
            );
          })}
        </fieldset>
        <p className="sp-actions">
          <button type="submit" className="sp-button">
            {t('payments.sandbox.hosted.submit')}
          </button>
          <a href={data.cancelHref}>{t('payments.sandbox.hosted.cancel')}</a>
        </p>
      </form>
      <section className="sp-hints" aria-labelledby="sp-hints-title">
        <h2 id="sp-hints-title">{t('payments.sandbox.hints.title')}</h2>
        <p>{t('payments.sandbox.hints.intro')}</p>
        <ul>
          {data.testCards.map((c) => (
            <li key={c.number}>
              <code>{c.number}</code> {t(`payments.sandbox.hints.${c.behaviour}`)}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

export function ChallengePage({ t, data }: { t: Translate; data: ChallengePageData }) {
  return (
    <>
      <h1>{t('payments.sandbox.challenge.title')}</h1>
      {data.message ? (
        <p className="sp-alert" role="alert">
          {data.message}
        </p>
      ) : null}
      {data.open ? (
        <>
          <p>{t('payments.sandbox.challenge.intro')}</p>
          <div className="sp-actions">
            <form method="post" action={data.action} className="sp-inline">
              <input type="hidden" name="_csrf" value={data.csrfToken} />
              <input type="hidden" name="answer" value="approve" />
              <button type="submit" className="sp-button">
                {t('payments.sandbox.challenge.approve')}
              </button>
            </form>
            <form method="post" action={data.action} className="sp-inline">
              <input type="hidden" name="_csrf" value={data.csrfToken} />
              <input type="hidden" name="answer" value="fail" />
              <button type="submit" className="sp-button sp-button-secondary">
                {t('payments.sandbox.challenge.fail')}
              </button>
            </form>
          </div>
        </>
      ) : null}
      {data.backHref ? (
        <p>
          <a href={data.backHref}>{t('payments.sandbox.challenge.back')}</a>
        </p>
      ) : null}
    </>
  );
}
