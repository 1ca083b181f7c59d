import { usePage } from '#views/layout/page-context.tsx';
import { Tabs } from '#views/kit/tabs.tsx';

/**
 * The staff's marketplace (spec section 2, /admin/marketplace) is served by three areas side by side:
 * offers (offers and partners), ads and badges. Each serves its own tab; the tabs are listed here once
 * (paths only, no area imported) so every tab's page draws the same navigation.
 */
export const MARKETPLACE_TABS = [
  { key: 'offers', path: '/admin/marketplace' },
  { key: 'partners', path: '/admin/marketplace/partners' },
  { key: 'ads', path: '/admin/marketplace/ads' },
  { key: 'badges', path: '/admin/marketplace/badges' },
] as const;

export type MarketplaceTab = (typeof MARKETPLACE_TABS)[number]['key'];

export function MarketplaceTabs({ current }: { current: MarketplaceTab }) {
  const { t } = usePage();
  return <Tabs label={t('admin.marketplace.tabs.label')} tabs={MARKETPLACE_TABS.map((tab) => ({ ...tab, label: t(`admin.marketplace.tabs.${tab.key}`) }))} current={current} />;
}
