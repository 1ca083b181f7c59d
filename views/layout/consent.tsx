import { useHref, usePage } from './page-context.tsx';

/**
 * The choice about the community's Google tags (insights, decision 0062): a plain form (works without
 * JavaScript) that sets the choice and comes back to this page. Shown above the page until a choice is
 * made, and on /analytics to change it. Nothing of Google's loads before "Allow".
 */
export function ConsentChoiceForm({ back }: { back: string }) {
  const { t, csrfToken } = usePage();
  const href = useHref();
  return (
    <form method="post" action={href('/analytics/consent')} className="consent-actions">
      <input type="hidden" name="_csrf" value={csrfToken} />
      <input type="hidden" name="back" value={back} />
      <button type="submit" name="choice" value="granted" className="button button-small">
        {t('insights.consent.allow')}
      </button>
      <button type="submit" name="choice" value="denied" className="button button-small button-secondary">
        {t('insights.consent.deny')}
      </button>
    </form>
  );
}

export function ConsentBanner() {
  const { t, analytics, currentPath, community } = usePage();
  const href = useHref();
  if (!analytics?.ask || currentPath === '/analytics') return null;
  return (
    <section className="consent-banner" aria-labelledby="consent-heading">
      <h2 id="consent-heading" className="consent-heading">
        {t('insights.consent.heading')}
      </h2>
      <p>{t('insights.consent.text', { name: community.app_name })}</p>
      <ConsentChoiceForm back={href(currentPath)} />
    </section>
  );
}
