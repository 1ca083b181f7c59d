import { formatDate } from '#shared/format.ts';
import type { BadgesPageData } from '#src/features/badges/types.ts';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { usePage } from '#views/layout/page-context.tsx';

/**
 * /badges: the member's badges and the ones they can still earn, each with how. Plain HTML, no
 * script: a list of cards, the held ones with the date they were earned.
 */
export function BadgesPage({ data }: { data: BadgesPageData }) {
  const { t, community } = usePage();
  return (
    <section className="badges-page" aria-labelledby="badges-heading">
      <h1 id="badges-heading">{t('badges.heading')}</h1>
      <p className="lead">{t('badges.intro', { community: community.name })}</p>
      <section aria-labelledby="badges-held">
        <h2 id="badges-held">{t('badges.held.heading')}</h2>
        {data.held.length === 0 ? (
          <EmptyState title={t('badges.held.none')} />
        ) : (
          <ul className="badge-cards plain">
            {data.held.map((b) => (
              <li key={`${b.key}:${b.level}`} className="badge-card badge-card-held">
                <h3 className="badge-card-name">{b.name}</h3>
                <p>{b.how}</p>
                <p className="muted">
                  {t('badges.held.since', { date: formatDate(b.awardedAt) })}
                  {b.byStaff ? ` · ${t('badges.held.byStaff')}` : ''}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="badges-to-earn">
        <h2 id="badges-to-earn">{t('badges.toEarn.heading')}</h2>
        {data.toEarn.length === 0 ? (
          <EmptyState title={t('badges.toEarn.none')} />
        ) : (
          <ul className="badge-cards plain">
            {data.toEarn.map((b) => (
              <li key={`${b.key}:${b.level}`} className="badge-card">
                <h3 className="badge-card-name">{b.name}</h3>
                <p>{b.how}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </section>
  );
}
