import { formatDate } from '#shared/format.ts';
import { assetUrl } from '#shared/asset-url.ts';
import type { OfferCard, OfferListPage, PartnerLogo } from '#src/features/offers/index.ts';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/** The last day an offer runs: its end is the next day's first instant. */
export const lastDay = (endsAt: Date) => formatDate(new Date(new Date(endsAt).getTime() - 1));

/** A partner's logo, or its initials in a box when it has none (the name is said beside it: the image is decoration). */
export function PartnerMark({ name, logo, size = 56 }: { name: string; logo: PartnerLogo; size?: number }) {
  const { basePath } = usePage();
  const href = useHref();
  if (logo) {
    const src = logo.kind === 'upload' ? href(logo.path) : assetUrl(basePath, logo.path);
    return <img className="offer-logo" src={src} alt="" width={size} height={size} loading="lazy" decoding="async" />;
  }
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');
  return (
    <span className="offer-logo offer-initials" aria-hidden="true">
      {initials}
    </span>
  );
}

function Card({ card }: { card: OfferCard }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <li className="offer-card">
      <PartnerMark name={card.partnerName} logo={card.logo} />
      <div className="offer-card-body">
        <p className="offer-partner">{card.partnerName}</p>
        <h2 className="offer-title">
          <a href={href(`/offers/${card.id}`)}>{card.title}</a>
        </h2>
        <p className="offer-value">{card.valueLine}</p>
        <p className="offer-tags">
          <span className="offer-tag">{t(`offers.categories.${card.category}`)}</span>
          {card.featured ? <span className="offer-tag offer-tag-featured">{t('offers.list.featured')}</span> : null}
          {card.tier === 'exec' ? <span className="offer-tag offer-tag-exec">{t('offers.exec.badge')}</span> : null}
          {card.endsAt ? <span className="offer-until">{t('offers.list.until', { date: lastDay(card.endsAt) })}</span> : null}
        </p>
      </div>
    </li>
  );
}

/** The cards of a page of offers and its links to the first and the next page (keeping the filters). */
export function OfferCards({ page, base, emptyText }: { page: OfferListPage; base: string; emptyText: string }) {
  const { t } = usePage();
  const href = useHref();
  const params = new URLSearchParams();
  if (page.query.category) params.set('category', page.query.category);
  if (page.query.q) params.set('q', page.query.q);
  const link = (after: string | null) => {
    const p = new URLSearchParams(params);
    if (after) p.set('after', after);
    const qs = p.toString();
    return href(qs ? `${base}?${qs}` : base);
  };
  return (
    <>
      {page.cards.length ? (
        <ul className="offer-cards">
          {page.cards.map((c) => (
            <Card key={c.id} card={c} />
          ))}
        </ul>
      ) : (
        <EmptyState title={emptyText} />
      )}
      {page.query.after || page.next ? (
        <ul className="board-links">
          {page.query.after ? (
            <li>
              <a href={link(null)}>{t('offers.list.first')}</a>
            </li>
          ) : null}
          {page.next ? (
            <li>
              <a href={link(page.next)} rel="next">
                {t('offers.list.more')}
              </a>
            </li>
          ) : null}
        </ul>
      ) : null}
    </>
  );
}

/** The category links and the search: a GET form, so it works without JavaScript and every filter has an address. */
export function OfferFilters({ page, base, categories, searchError, searchTyped }: { page: OfferListPage; base: string; categories: readonly string[]; searchError?: string; searchTyped?: string }) {
  const { t } = usePage();
  const href = useHref();
  const q = searchTyped ?? page.query.q ?? '';
  const withCategory = (c: string | null) => {
    const p = new URLSearchParams();
    if (c) p.set('category', c);
    if (page.query.q) p.set('q', page.query.q);
    const qs = p.toString();
    return href(qs ? `${base}?${qs}` : base);
  };
  return (
    <div className="offer-filters">
      <form method="get" action={href(base)} role="search" className="offer-search">
        <div className={searchError ? 'field field-invalid' : 'field'}>
          <label htmlFor="offer-q">{t('offers.list.searchLabel')}</label>
          <input id="offer-q" type="search" name="q" defaultValue={q} maxLength={100} aria-invalid={searchError ? true : undefined} aria-describedby={searchError ? 'offer-q-error' : undefined} />
          {searchError ? (
            <p className="field-error" id="offer-q-error">
              {searchError}
            </p>
          ) : null}
        </div>
        {page.query.category ? <input type="hidden" name="category" value={page.query.category} /> : null}
        <button type="submit" className="button">
          {t('offers.list.search')}
        </button>
      </form>
      <nav aria-label={t('offers.list.categoriesLabel')}>
        <ul className="offer-categories">
          <li>
            <a href={withCategory(null)} aria-current={page.query.category ? undefined : 'page'}>
              {t('offers.list.allCategories')}
            </a>
          </li>
          {categories.map((c) => (
            <li key={c}>
              <a href={withCategory(c)} aria-current={page.query.category === c ? 'page' : undefined}>
                {t(`offers.categories.${c}`)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
