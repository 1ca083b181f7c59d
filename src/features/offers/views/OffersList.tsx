import type { OfferListPage } from '#src/features/offers/index.ts';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { OfferCards, OfferFilters } from './parts.tsx';

/** `/offers`: the community's partner offers and member benefits. */
export function OffersList({ page, categories, searchError, searchTyped }: { page: OfferListPage; categories: readonly string[]; searchError?: string; searchTyped?: string }) {
  const { t, community } = usePage();
  const href = useHref();
  const filtered = Boolean(page.query.category || page.query.q);
  return (
    <section className="offers">
      <h1>{t('offers.list.heading')}</h1>
      <p className="lead">{t('offers.list.intro', { name: community.familiar_name })}</p>
      {community.exec_link ? (
        <p className="offer-exec-note">
          <a href={href('/offers/exec')}>{page.exec ? t('offers.list.execLinkMember') : t('offers.list.execLink')}</a>
        </p>
      ) : null}
      <OfferFilters page={page} base="/offers" categories={categories} searchError={searchError} searchTyped={searchTyped} />
      <OfferCards page={page} base="/offers" emptyText={filtered ? t('offers.list.noneFound') : t('offers.list.none')} />
    </section>
  );
}
