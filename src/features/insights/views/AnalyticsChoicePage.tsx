import { ConsentChoiceForm } from '#views/layout/consent.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/** The choice about the community's Google tags, to make or change (works without JavaScript). */
export function AnalyticsChoicePage({ choice }: { choice: 'granted' | 'denied' | null }) {
  const { t, community } = usePage();
  const href = useHref();
  return (
    <section className="narrow">
      <h1>{t('insights.consent.title')}</h1>
      <p>{t('insights.consent.text', { name: community.app_name })}</p>
      <p>{t('insights.consent.firstParty')}</p>
      <p role="status">{t(choice === 'granted' ? 'insights.consent.nowGranted' : choice === 'denied' ? 'insights.consent.nowDenied' : 'insights.consent.notYet')}</p>
      <ConsentChoiceForm back={href('/analytics')} />
    </section>
  );
}
