import { createContext, useContext } from 'react';
import type { Guardian } from '#src/core/guardian/index.ts';
import type { Translate } from '#src/core/i18n.ts';
import type { Identity } from '#src/core/identity.ts';
import type { Ad, Community } from '#src/db/types.ts';
import type { AdminArea } from '#src/lib/admin/areas.ts';
import type { AlertView } from '#src/lib/alerts.ts';

export type PageContextValue = {
  t: Translate;
  community: Community;
  identity: Identity;
  guardian: Guardian;
  basePath: string;
  /** The request path without the prefix, e.g. "/members". */
  currentPath: string;
  /** The header's Sign In link: /login with this page as its redirect when it is one to come back to. */
  signInHref: string;
  csrfToken: string;
  nonce: string;
  now: Date;
  ads: { masthead: Ad | null; mediumSquare: Ad | null };
  /** A signed-in member (outside the admin area) has a notification not yet seen in the bell: its dot. */
  hasUnviewed: boolean;
  /** On the admin area's pages (routes with access 'admin'): its areas. Such pages get the admin shell. */
  adminAreas: AdminArea[] | null;
  /** The alert after an action (`?alert=<id>`, src/lib/alerts.ts), if any. */
  alert: AlertView | null;
  /** Islands rendered on this page, filled while rendering. */
  islands: Set<string>;
  /**
   * The community's Google tags on this page (insights, decision 0062): offered (staff set an id),
   * ask (no choice made yet: the banner), and the choice. Absent: none.
   */
  analytics?: { offered: boolean; ask: boolean; choice: 'granted' | 'denied' | null };
};

export const PageContext = createContext<PageContextValue | null>(null);

export function usePage(): PageContextValue {
  const value = useContext(PageContext);
  if (!value) throw new Error('usePage() outside a page render');
  return value;
}

/** Every application path goes through the path prefix. */
export function useHref(): (path: string) => string {
  const { basePath } = usePage();
  return (path) => `${basePath}${path === '/' && basePath ? '' : path}` || '/';
}

/**
 * Marks the page as showing relative times ('3 minutes ago'): the footer then adds the small script
 * that keeps them current (islands/RelativeTimes.client.ts). Pages without any ship no such script.
 */
export function showsRelativeTimes(page: PageContextValue): void {
  page.islands.add('RelativeTimes');
}
