import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { Community } from '#src/db/types.ts';
import { MEDIA_TYPES } from './render.ts';
import type { FeedAddresses, FeedFormat, FeedLink } from './types.ts';

/**
 * A community's feed addresses: `/feeds/{slug}.rss`, `.atom` and `.json` under the path prefix, and
 * the absolute form of every link a feed carries, on a host the community owns.
 */

export const FORMATS: readonly FeedFormat[] = ['rss', 'atom', 'json'];
/** The names of the formats, as feed readers and the page head show them (names, not words to translate). */
export const FORMAT_NAMES: Record<FeedFormat, string> = { rss: 'RSS', atom: 'Atom', json: 'JSON Feed' };

export const feedPath = (slug: string, format: FeedFormat) => `/feeds/${slug}.${format}`;

/** What the community's absolute addresses are read from: the request's scheme and host, and the app's settings. */
export type OriginRequest = {
  protocol: string;
  /** With its port, as the request names it (`summit.localhost:3000`). */
  host: string;
  /** Without its port. */
  hostname: string;
  /** The app's public address (PUBLIC_URL), without its path prefix. */
  publicUrl: string;
  basePath: string;
  /** The community is the one a host with no mapping (the public address among them) is served. */
  isDefaultCommunity: boolean;
};

/**
 * Where the community's absolute links point (scheme, host, port and path prefix): the host the
 * request came on when it is one of the community's host names; else the public address when the
 * community is the default one (the public address serves it); else the community's first host name
 * with the request's scheme and port (as the staff's dashboards link each brand); else the public
 * address. Never a host the community does not own: a made-up Host header puts no address of its
 * own into a feed.
 */
export function originOf(site: OriginRequest, hosts: readonly string[]): string {
  const hostname = site.hostname.toLowerCase();
  if (hosts.includes(hostname)) return `${site.protocol}://${site.host.toLowerCase()}${site.basePath}`;
  if (site.isDefaultCommunity || hosts.length === 0) return `${site.publicUrl}${site.basePath}`;
  const port = /:(\d{1,5})$/.exec(site.host)?.[1];
  const defaultPort = (site.protocol === 'https' && port === '443') || (site.protocol === 'http' && port === '80');
  return `${site.protocol}://${hosts[0]}${port && !defaultPort ? `:${port}` : ''}${site.basePath}`;
}

/** The community's host names, first one first (as the sites' pages order them). */
export async function hostsOf(db: Db, community: Tenant): Promise<string[]> {
  const rows = await selectInCommunity(db, 'community_hosts', community).select('host').orderBy('host').execute();
  return rows.map((r) => r.host.toLowerCase());
}

/** A feed's three absolute addresses on this origin. */
export function addressesOf(origin: string, slug: string): FeedAddresses {
  return { rss: `${origin}${feedPath(slug, 'rss')}`, atom: `${origin}${feedPath(slug, 'atom')}`, json: `${origin}${feedPath(slug, 'json')}` };
}

/**
 * The `<link rel="alternate">` of the community's pages: each enabled feed in each format, from the
 * community's cached row (no query). Paths under the path prefix: a page's links resolve on its own host.
 */
export function feedLinksOf(community: Pick<Community, 'syndication_feeds'>, basePath: string): FeedLink[] {
  const feeds = Array.isArray(community.syndication_feeds) ? community.syndication_feeds : [];
  return feeds.flatMap((f) => FORMATS.map((format) => ({ type: MEDIA_TYPES[format], title: `${f.title} (${FORMAT_NAMES[format]})`, href: `${basePath}${feedPath(f.slug, format)}` })));
}
