import type { FastifyInstance } from 'fastify';

/** The admin sub-areas of spec section 2, in the order the admin home lists them. */
export const ADMIN_AREAS = [
  { key: 'sites', path: '/admin/sites' },
  { key: 'members', path: '/admin/members' },
  { key: 'forum', path: '/admin/forum' },
  { key: 'expertPanels', path: '/admin/expert-panels' },
  { key: 'articles', path: '/admin/articles' },
  { key: 'messages', path: '/admin/messages' },
  { key: 'marketplace', path: '/admin/marketplace' },
  { key: 'groups', path: '/admin/groups' },
  { key: 'feeds', path: '/admin/feeds' },
  { key: 'contentBank', path: '/admin/content-bank' },
] as const;

export type AdminArea = (typeof ADMIN_AREAS)[number] & { built: boolean };

/**
 * Whether the app serves a page at this path. Asked of the router itself, so an area counts as soon
 * as its routes are registered: nothing to update by hand when an area lands.
 */
export function servesPage(app: FastifyInstance, path: string): boolean {
  return app.hasRoute({ method: 'GET', url: `${app.config.basePath}${path}` });
}

const known = new WeakMap<FastifyInstance, AdminArea[]>();

/** Every admin area, each marked built or not: asked of the router once (routes are fixed once the app is ready). */
export function adminAreas(app: FastifyInstance): AdminArea[] {
  let areas = known.get(app);
  if (!areas) known.set(app, (areas = ADMIN_AREAS.map((area) => ({ ...area, built: servesPage(app, area.path) }))));
  return areas;
}
