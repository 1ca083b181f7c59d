import { usePage } from '#views/layout/page-context.tsx';
import { Tabs } from '#views/kit/tabs.tsx';

/**
 * The staff's feeds (spec section 2, /admin/feeds) are served by two areas side by side: feeds (the
 * members' feed: announcements and featured items) and syndication (the community's public RSS, Atom
 * and JSON feeds). Each serves its own tab; the tabs are listed here once (paths only, no area
 * imported) so every tab's page draws the same navigation.
 */
export const FEEDS_TABS = [
  { key: 'announcements', path: '/admin/feeds' },
  { key: 'featured', path: '/admin/feeds/featured' },
  { key: 'syndication', path: '/admin/feeds/syndication' },
] as const;

export type FeedsTab = (typeof FEEDS_TABS)[number]['key'];

export function FeedsTabs({ current }: { current: FeedsTab }) {
  const { t } = usePage();
  return <Tabs label={t('admin.feeds.tabs.label')} tabs={FEEDS_TABS.map((tab) => ({ ...tab, label: t(`admin.feeds.tabs.${tab.key}`) }))} current={current} />;
}
