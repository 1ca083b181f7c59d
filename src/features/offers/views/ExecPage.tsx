import type { ExecPageView } from '#src/features/offers/index.ts';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { OfferCards, OfferFilters } from './parts.tsx';

/**
 * `/offers/exec`: for a member of the executive tier, its offers; for anyone else, what EXEC is and
 * how to reach the concierge (never an offer's code or link).
 */
export function ExecPage({ view, categories }: { view: ExecPageView; categories: readonly string[] }) {
  const { t, community } = usePage();
  const href = useHref();
  return (
    <section className="offers offers-exec">
      <h1>{t('offers.exec.heading')}</h1>
      {view.hasTier ? (
        <>
          <p className="lead">{t('offers.exec.introMember')}</p>
          <OfferFilters page={view.page} base="/offers/exec" categories={categories} />
          <OfferCards page={view.page} base="/offers/exec" emptyText={t('offers.exec.none')} />
        </>
      ) : (
        <div className="offer-exec-about">
          <p className="lead">{t('offers.exec.what', { name: community.familiar_name })}</p>
          <p>{t('offers.exec.count', { count: view.count })}</p>
          <h2>{t('offers.exec.howHeading')}</h2>
          <p>{t('offers.exec.how')}</p>
          <ul className="offer-contact">
            <li>
              {t('offers.exec.email')} <a href={`mailto:${community.concierge_email}`}>{community.concierge_email}</a>
            </li>
            <li>
              {t('offers.exec.phone')} <a href={`tel:${community.concierge_phone.replace(/[^+\d]/g, '')}`}>{community.concierge_phone}</a>
            </li>
          </ul>
          {community.exec_link ? (
            <p>
              <a href={community.exec_link} rel="noopener">
                {t('offers.exec.learnMore')}
              </a>
            </p>
          ) : null}
        </div>
      )}
      <p>
        <a href={href('/offers')}>{t('offers.exec.allOffers')}</a>
      </p>
    </section>
  );
}
