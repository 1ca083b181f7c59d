import type { ReactNode } from 'react';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/**
 * The admin area's front page: a link to each admin area that exists (nothing is promised that is not
 * there), then what the page adds (the staff's insights, served by the insights area).
 */
export function AdminHome({ children }: { children?: ReactNode }) {
  const { t, community, adminAreas } = usePage();
  const href = useHref();
  const areas = adminAreas ?? [];
  const built = areas.filter((a) => a.built);
  return (
    <section>
      <h1>{t('admin.home.heading', { name: community.name })}</h1>
      <p className="lead">{t('admin.home.intro', { name: community.name })}</p>
      <ul className="card-links">
        {built.map((area) => (
          <li key={area.key}>
            <a href={href(area.path)}>{t(`admin.home.areas.${area.key}`)}</a>
          </li>
        ))}
      </ul>
      {built.some((a) => a.key === 'sites') ? (
        <p>
          <a href={href('/admin/dashboards')}>{t('sites.dashboardsLink')}</a>
        </p>
      ) : null}
      {children}
      <p className="actions">
        <a className="button" href={href('/')}>
          {t('admin.home.toApp')}
        </a>
        <a className="button button-secondary" href={href('/login-admin')}>
          {t('admin.home.switch')}
        </a>
      </p>
    </section>
  );
}
