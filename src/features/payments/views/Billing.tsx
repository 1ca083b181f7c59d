import type { StatementRow } from '#src/features/payments/index.ts';
import { Alert } from '#views/kit/alert.tsx';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { SettingsLayout } from '#views/layout/SettingsPage.tsx';

export type BillingPageProps = {
  /** The page's statements, newest first, formatted; null when they could not be loaded (the statements error message). */
  statements: StatementRow[] | null;
  /** The cursor of the next (older) page, if there is one. */
  olderCursor: string | null;
  /** Whether this page is not the first one (a link back to the newest). */
  paged: boolean;
};

/**
 * /settings/billing: the member's statements (spec section 2 "Settings screens"), newest first, each
 * with its PDF. An empty list shows the no-statements text. The saved-cards section is switched off in
 * the member view (spec): it is used in admin mode only. Payment questions go to the concierge.
 */
export function BillingPage({ statements, olderCursor, paged }: BillingPageProps) {
  const { t, community } = usePage();
  const href = useHref();
  return (
    <SettingsLayout section="billing">
      <h2>{t('settings.sections.billing')}</h2>
      <section className="panel" aria-labelledby="billing-statements-title">
        <h3 id="billing-statements-title">{t('billing.statements.title')}</h3>
        {statements === null ? (
          <Alert kind="error">{t('billing.statements.error')}</Alert>
        ) : statements.length === 0 && !paged ? (
          <EmptyState title={t('billing.statements.empty')} />
        ) : (
          <ul className="plain statement-list">
            {statements.map((s) => {
              const date = s.date;
              return (
                <li key={s.id} className="statement">
                  <p className="statement-name">{s.name}</p>
                  <p className="statement-meta">
                    <span className="visually-hidden">{t('billing.statements.date')}: </span>
                    <time dateTime={s.isoDate}>{date}</time>
                    {' · '}
                    <span className="visually-hidden">{t('billing.statements.amount')}: </span>
                    <span className="statement-amount">{s.amount}</span>
                  </p>
                  <a href={href(`/settings/billing/statements/${s.id}.pdf`)} download aria-label={t('billing.statements.downloadLabel', { name: s.name, date })}>
                    {t('billing.statements.download')}
                  </a>
                </li>
              );
            })}
          </ul>
        )}
        {olderCursor || paged ? (
          <nav aria-label={t('billing.statements.pagination')} className="statement-pages">
            {paged ? <a href={href('/settings/billing')}>{t('billing.statements.newest')}</a> : null}
            {olderCursor ? <a href={href(`/settings/billing?after=${encodeURIComponent(olderCursor)}`)}>{t('billing.statements.older')}</a> : null}
          </nav>
        ) : null}
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
