import { useHref, usePage } from '#views/layout/page-context.tsx';

const AREAS = ['sites', 'members', 'forum', 'expertPanels', 'articles', 'messages', 'marketplace', 'groups', 'feeds', 'contentBank'] as const;

export function AdminHome() {
  const { t, community } = usePage();
  const href = useHref();
  return (
    <section>
      <h1>{t('admin.home.heading', { name: community.name })}</h1>
      <p className="lead">{t('admin.home.intro', { name: community.name })}</p>
      <ul className="admin-areas">
        {AREAS.map((area) => (
          <li key={area}>{t(`admin.home.areas.${area}`)}</li>
        ))}
      </ul>
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
