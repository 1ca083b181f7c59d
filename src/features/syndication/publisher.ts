import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Clock } from '#src/core/clock.ts';
import type { Translate } from '#src/core/i18n.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { Community, SyndicationFeedEntry } from '#src/db/types.ts';
import { feedPath, hostsOf, originOf, type OriginRequest } from './addresses.ts';
import { absoluteItems, loadFeedItems } from './items.ts';
import { MEDIA_TYPES, renderFeed } from './render.ts';
import type { FeedFormat, FeedItem } from './types.ts';

/**
 * Serves a feed from memory, validators first (decision 0060).
 *
 * The feed's configuration comes from the community's cached row (communities.syndication_feeds: no
 * query; a staff change is announced to every process). What it carries is read at most once per
 * `ttlMs` per feed and process (its items, and the community's host names for its links), hashed,
 * and kept with its representations: so within that time a request costs no query, a request whose
 * validator matches is a 304 at once, and a full answer is bytes already written. The content hash is
 * recorded on the feed's row with when it first changed (one statement, a write only when it did
 * change): every process answers the same ETag and the same Last-Modified for the same content, and
 * Last-Modified never goes back when an item leaves the feed. A change reaches a feed's readers
 * within `ttlMs` (10 s) on every process.
 */

export const FEED_TTL_MS = 10_000;
/** How long readers and shared caches may keep an answer before asking again (with its validators). */
export const FEED_MAX_AGE_S = 300;
const STATES_MAX = 1000;
const REPRESENTATIONS_MAX = 24;
const GENERATOR = 'community-platform';

/** One format of a feed on one origin, ready to send. */
export type Representation = {
  etag: string;
  /** HTTP-date (RFC 9110), to the second. */
  lastModified: string;
  /** Last-Modified in whole seconds since the epoch (If-Modified-Since compares at this precision). */
  modifiedSeconds: number;
  contentType: string;
  body: string;
  /** The body compressed, once per encoding asked for (what every reader of the feed then gets). */
  encoded: Partial<Record<Encoding, Buffer>>;
};

export type Encoding = 'br' | 'gzip';
/** Bodies shorter than this go out as they are (as the app's compression does). */
const COMPRESS_FROM = 1024;

/**
 * The encoding to send for an Accept-Encoding header: brotli, else gzip, when the client takes it
 * (q above 0; `*` counts for both); none for a short body or a client that asks for neither.
 */
export function encodingFor(header: string | string[] | undefined, bodyLength: number): Encoding | null {
  if (bodyLength < COMPRESS_FROM || typeof header !== 'string' || header.length > 1000) return null;
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const weight = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name) q.set(name.trim() === 'x-gzip' ? 'gzip' : name.trim(), weight === undefined ? 1 : Number(weight));
  }
  const takes = (e: string) => (q.has(e) ? q.get(e)! : (q.get('*') ?? 0)) > 0;
  return takes('br') ? 'br' : takes('gzip') ? 'gzip' : null;
}

/** The representation's body in this encoding, compressed the first time it is asked for. */
export function encodedBody(rep: Representation, encoding: Encoding): Buffer {
  let body = rep.encoded[encoding];
  if (!body) {
    const raw = Buffer.from(rep.body);
    body = encoding === 'br' ? brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } }) : gzipSync(raw, { level: 9 });
    rep.encoded[encoding] = body;
  }
  return body;
}

type State = { at: number; hash: string; changedAt: Date; publisher: string; items: FeedItem[]; representations: Map<string, Representation> };

const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

/** When a feed's content (its hash) first became what it is; written only when it changed. */
async function recordContent(db: Db, community: Tenant, feedId: number, hash: string, now: Date): Promise<Date> {
  const changed = await updateInCommunity(db, 'syndication_feeds', community)
    .set({ content_hash: hash, content_changed_at: now })
    .where('id', '=', feedId)
    .where((eb) => eb.or([eb('content_hash', 'is', null), eb('content_hash', '<>', hash)]))
    .returning('content_changed_at')
    .executeTakeFirst();
  if (changed?.content_changed_at) return new Date(changed.content_changed_at);
  const row = await selectInCommunity(db, 'syndication_feeds', community).select('content_changed_at').where('id', '=', feedId).executeTakeFirst();
  return row?.content_changed_at ? new Date(row.content_changed_at) : now;
}

export class FeedPublisher {
  private states = new Map<string, State>();
  private loading = new Map<string, Promise<State>>();
  private hosts = new Map<number, { at: number; hosts: Promise<string[]> }>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly t: Translate,
    private readonly ttlMs = FEED_TTL_MS,
  ) {}

  /** The enabled feed of this slug in the community's cached row, or null (unknown, disabled or deleted). */
  static entryOf(community: Pick<Community, 'syndication_feeds'>, slug: string): SyndicationFeedEntry | null {
    const feeds = Array.isArray(community.syndication_feeds) ? community.syndication_feeds : [];
    return feeds.find((f) => f.slug === slug) ?? null;
  }

  private fresh(at: number, now: number): boolean {
    return now >= at && now - at < this.ttlMs;
  }

  private hostsFor(community: Community, now: number): Promise<string[]> {
    const hit = this.hosts.get(community.id);
    if (hit && this.fresh(hit.at, now)) return hit.hosts;
    const hosts = hostsOf(this.db, community);
    if (this.hosts.size > STATES_MAX) this.hosts.clear();
    this.hosts.set(community.id, { at: now, hosts });
    hosts.catch(() => this.hosts.delete(community.id));
    return hosts;
  }

  private async load(community: Community, entry: SyndicationFeedEntry, key: string, now: number): Promise<State> {
    const items = await loadFeedItems(this.db, community, entry);
    const publisher = community.name;
    const hash = sha256(JSON.stringify({ v: 1, publisher, feed: { id: entry.id, slug: entry.slug, title: entry.title, description: entry.description, types: entry.types, tags: entry.tags ?? [], collections: entry.collections ?? [], limit: entry.limit }, items }));
    const previous = this.states.get(key);
    if (previous && previous.hash === hash) return { ...previous, at: now };
    const changedAt = await recordContent(this.db, community, entry.id, hash, new Date(now));
    return { at: now, hash, changedAt, publisher, items, representations: new Map() };
  }

  /** The feed's content as of at most `ttlMs` ago: read once per feed at a time, every waiting request sharing the read. */
  private async stateFor(community: Community, entry: SyndicationFeedEntry, now: number): Promise<State> {
    // The entry whole (small): any change of its configuration is another feed to read.
    const key = `${community.id}:${JSON.stringify(entry)}`;
    const hit = this.states.get(key);
    if (hit && this.fresh(hit.at, now)) return hit;
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.load(community, entry, key, now)
        .then((state) => {
          if (this.states.size >= STATES_MAX) this.states.clear();
          this.states.set(key, state);
          return state;
        })
        .finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  /** One format of the feed on the origin the request's host gives (addresses.ts), from memory when fresh. */
  async representation(community: Community, entry: SyndicationFeedEntry, format: FeedFormat, site: OriginRequest): Promise<Representation> {
    const now = this.clock.now().getTime();
    const [hosts, state] = await Promise.all([this.hostsFor(community, now), this.stateFor(community, entry, now)]);
    const origin = originOf(site, hosts);
    const key = `${format} ${origin}`;
    const known = state.representations.get(key);
    if (known) return known;
    const body = renderFeed(format, {
      communityId: community.id,
      feedId: entry.id,
      title: entry.title,
      description: entry.description || this.t('syndication.feed.description', { community: state.publisher }),
      publisher: state.publisher,
      homeUrl: `${origin}/`,
      selfUrl: `${origin}${feedPath(entry.slug, format)}`,
      updatedAt: state.changedAt,
      items: absoluteItems(state.items, origin),
      generator: GENERATOR,
    });
    const modifiedSeconds = Math.floor(state.changedAt.getTime() / 1000);
    const representation: Representation = {
      // Weak: the bytes on the wire differ by compression, the content does not.
      etag: `W/"${state.hash.slice(0, 22)}.${sha256(origin).slice(0, 6)}.${format}"`,
      lastModified: new Date(modifiedSeconds * 1000).toUTCString(),
      modifiedSeconds,
      contentType: `${MEDIA_TYPES[format]}; charset=utf-8`,
      body,
      encoded: {},
    };
    if (state.representations.size >= REPRESENTATIONS_MAX) state.representations.clear();
    state.representations.set(key, representation);
    return representation;
  }

  /** Forgets every feed (a staff change in this process: its next request reads again). */
  forget(): void {
    this.states.clear();
    this.hosts.clear();
  }
}

/**
 * Whether the request's validators match (RFC 9110 section 13.2.2): If-None-Match when present (weak
 * comparison, `*` matches), else If-Modified-Since (a valid HTTP-date at or after Last-Modified).
 */
export function notModified(headers: { 'if-none-match'?: string | string[]; 'if-modified-since'?: string | string[] }, rep: Pick<Representation, 'etag' | 'modifiedSeconds'>): boolean {
  const inm = headers['if-none-match'];
  if (inm !== undefined) {
    const value = (Array.isArray(inm) ? inm.join(',') : inm).slice(0, 4096);
    if (value.trim() === '*') return true;
    const mine = rep.etag.replace(/^W\//, '');
    return value.split(',').some((tag) => tag.trim().replace(/^W\//, '') === mine);
  }
  const ims = headers['if-modified-since'];
  if (typeof ims !== 'string' || ims.length > 100) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && rep.modifiedSeconds <= Math.floor(since / 1000);
}
