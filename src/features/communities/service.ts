import type { Db } from '#src/db/index.ts';
import type { Community } from '#src/db/types.ts';
import { findCommunityByCode, findCommunityByHost, findCommunityById } from './queries.ts';

const TTL_MS = 10_000;

/**
 * Finds the community of a request from its host name, else the configured default. Communities
 * change rarely and are read on every request, so they are cached for a few seconds per process.
 */
export class CommunityResolver {
  private cache = new Map<string, { community: Community | undefined; at: number }>();

  constructor(
    private readonly db: Db,
    private readonly defaultCode: string,
    private readonly now: () => number = Date.now,
  ) {}

  async resolve(hostname: string): Promise<Community | undefined> {
    const host = hostname.replace(/:\d+$/, '').toLowerCase();
    const hit = this.cache.get(host);
    if (hit && this.now() - hit.at < TTL_MS) return hit.community;
    const community = (await findCommunityByHost(this.db, host)) ?? (await findCommunityByCode(this.db, this.defaultCode));
    if (this.cache.size > 1000) this.cache.clear();
    this.cache.set(host, { community, at: this.now() });
    return community;
  }

  /** An admin's chosen community (the signed `community` cookie set at the admin sign-in). */
  async resolveCode(code: string): Promise<Community | undefined> {
    const key = `code:${code}`;
    const hit = this.cache.get(key);
    if (hit && this.now() - hit.at < TTL_MS) return hit.community;
    const community = await findCommunityByCode(this.db, code);
    this.cache.set(key, { community, at: this.now() });
    return community;
  }

  /** A community by its id (work done outside a request: a delivery job), through the same cache. */
  async resolveId(id: number): Promise<Community | undefined> {
    const key = `id:${id}`;
    const hit = this.cache.get(key);
    if (hit && this.now() - hit.at < TTL_MS) return hit.community;
    const community = await findCommunityById(this.db, id);
    this.cache.set(key, { community, at: this.now() });
    return community;
  }

  invalidate(): void {
    this.cache.clear();
  }
}

/** The community as clients see it (spec section 3, "Community (client data)"). */
export function communityClientData(c: Community) {
  return {
    code: c.code,
    name: c.name,
    appName: c.app_name,
    familiarName: c.familiar_name,
    icon: c.icon,
    navMore: c.nav_more,
    products: { forum: { enabled: c.forum_enabled } },
    conciergeEmail: c.concierge_email,
    conciergePhone: c.concierge_phone,
    execLink: c.exec_link,
    copyrightHolder: c.copyright_holder,
    links: { terms: c.link_terms, privacy: c.link_privacy, membershipInfo: c.link_membership_info },
    googleAnalytics: c.google_analytics_id,
    googleTagManager: c.google_tag_manager_id,
    auth: {
      slug: c.auth_slug,
      backgroundImage: c.auth_background_image,
      playStoreLink: c.auth_play_store_link,
      appStoreLink: c.auth_app_store_link,
      logo: c.auth_logo,
      textColor: c.auth_text_color,
    },
  };
}
