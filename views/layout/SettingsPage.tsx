import type { ReactNode } from 'react';
import { useHref, usePage } from '#views/layout/page-context.tsx';

export const SETTINGS_SECTIONS = ['security', 'notifications', 'team', 'billing'] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];
/** The side menu lists security, team and billing; notifications is reachable by its address (spec section 2). */
const MENU: SettingsSection[] = ['security', 'team', 'billing'];

/** Every settings page: the heading, the side menu (security, team, billing) and the section. */
export function SettingsLayout({ section, children }: { section: SettingsSection; children: ReactNode }) {
  const { t, currentPath } = usePage();
  const href = useHref();
  return (
    <section className="settings">
      <h1>{t('settings.title')}</h1>
      <div className="settings-columns">
        <nav aria-label={t('settings.menuLabel')} className="subnav settings-menu">
          <ul>
            {MENU.map((s) => {
              const current = section === s || currentPath.startsWith(`/settings/${s}/`) || (s === 'security' && currentPath === '/settings');
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
        <div className="settings-section">{children}</div>
      </div>
    </section>
  );
}
