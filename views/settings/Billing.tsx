import { usePage } from '#views/layout/page-context.tsx';
import { SettingsLayout } from './SettingsPage.tsx';

/**
 * /settings/billing: the statements list (spec section 2 "Settings screens"). There is no statements
 * store yet (the payments issue adds payments and statements), so the list is its empty state. The
 * saved-cards section is not shown in the member view (spec). Payment questions go to the concierge.
 */
export function BillingPage() {
  const { t, community } = usePage();
  return (
    <SettingsLayout section="billing">
      <h2>{t('settings.sections.billing')}</h2>
      <section className="panel" aria-labelledby="billing-statements-title">
        <h3 id="billing-statements-title">{t('billing.statements.title')}</h3>
        <p className="muted">{t('billing.statements.empty')}</p>
      </section>
      <p className="billing-help">
        {t('billing.help')}{' '}
        <a href={`mailto:${community.concierge_email}`}>{community.concierge_email}</a>
        {community.concierge_phone ? (
          <>
            {' · '}
            <a href={`tel:${community.concierge_phone.replace(/[^\d+]/g, '')}`}>{community.concierge_phone}</a>
          </>
        ) : null}
      </p>
    </SettingsLayout>
  );
}
