import { useHref, usePage } from '#views/layout/page-context.tsx';

export const SETTINGS_SECTIONS = ['security', 'notifications', 'team', 'billing'] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];
/** The side menu lists security, team and billing; notifications is reachable by its address (spec section 2). */
const MENU: SettingsSection[] = ['security', 'team', 'billing'];

export function SettingsPage({ section }: { section: SettingsSection }) {
  const { t, identity, currentPath } = usePage();
  const href = useHref();
  return (
    <section>
      <h1>{t('settings.title')}</h1>
      <nav aria-label={t('settings.menuLabel')} className="subnav">
        <ul>
          {MENU.map((s) => {
            const current = currentPath === `/settings/${s}` || (s === 'security' && currentPath === '/settings');
            return (
              <li key={s}>
                <a href={href(`/settings/${s}`)} aria-current={current ? 'page' : undefined}>
                  {t(`settings.sections.${s}`)}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
      <h2>{t(`settings.sections.${section}`)}</h2>
      {section === 'security' && identity.user ? (
        <dl>
          <dt>{t('settings.username')}</dt>
          <dd>
            {identity.user.username || identity.user.email}
            <br />
            <span className="muted">{t('settings.usernameHint')}</span>
          </dd>
        </dl>
      ) : null}
      <p>{t('settings.notYet')}</p>
    </section>
  );
}
