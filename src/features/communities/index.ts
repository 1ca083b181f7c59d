/**
 * The communities area's public face: the only module other areas (and views) import from. The
 * community of a request (by host, code or id), the sites staff administer, and their changes.
 */
export { COMMUNITIES_CHANNEL } from './admin.ts';
export type { DashboardLink, SiteRow } from './admin.ts';
export type { SiteForm, SiteTextField } from './site-form.ts';
export { CommunityResolver, communityClientData } from './service.ts';
