import { useHref } from '#views/layout/page-context.tsx';

/**
 * The kit's tabs: the one way a page shows its sibling pages side by side (the staff's feeds and
 * marketplace, a member's messages, a staff area's sections, a board's filters). Each tab is a link to
 * a page of its own (so they work without JavaScript and each has its address); `label` names the
 * navigation, the current tab is aria-current="page". Paths are the app's (the base path is added).
 */
export type TabLink = { key: string; path: string; label: string };

export function Tabs({ label, tabs, current, className }: { label: string; tabs: readonly TabLink[]; current: string; className?: string }) {
  const href = useHref();
  return (
    <nav aria-label={label}>
      <ul className={className ? `tabs ${className}` : 'tabs'}>
        {tabs.map((tab) => (
          <li key={tab.key}>
            <a href={href(tab.path)} aria-current={tab.key === current ? 'page' : undefined}>
              {tab.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
