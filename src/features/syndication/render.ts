import { createHash } from 'node:crypto';
import type { FeedFormat, FeedItem } from './types.ts';

/**
 * A feed written out in its three formats, as the specifications ask: RSS 2.0 (dates in RFC 822),
 * Atom 1.0 (RFC 4287: ids, `updated`, dates in RFC 3339) and JSON Feed 1.1. Pure functions of the
 * document: the same document gives the same bytes in every process, so a hash of it is a validator.
 * Every link is absolute; every text is escaped for its format and stripped of the characters XML 1.0
 * cannot carry (control characters, lone surrogates); every item and the feed have a permanent id
 * (a name-based UUID of the community and the item, the same in every feed and on every host).
 */

/** What a feed says about itself and carries, links already absolute. */
export type FeedDocument = {
  /** Names the feed's permanent id: the community's and the feed's ids. */
  communityId: number;
  feedId: number;
  title: string;
  description: string;
  /** The community's name: the feed's author (Atom asks for one where an entry names none). */
  publisher: string;
  /** The community's home page. */
  homeUrl: string;
  /** This format's own address (rel="self", JSON Feed's feed_url). */
  selfUrl: string;
  /** When what the feed carries last changed. */
  updatedAt: Date;
  items: FeedItem[];
  generator: string;
};

export const MEDIA_TYPES: Record<FeedFormat, string> = {
  rss: 'application/rss+xml',
  atom: 'application/atom+xml',
  json: 'application/feed+json',
};

/** Characters XML 1.0 allows (and JSON texts keep): tab, newline, return, and the rest of Unicode but surrogates, U+FFFE and U+FFFF. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
export const cleanText = (s: string) => s.replace(NOT_XML, '');

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
/** Text (or markup to be carried as text) escaped for XML content and attributes. */
export const xml = (s: string) => cleanText(s).replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
/** Plain text as HTML (for RSS's description, which readers take as HTML). */
const textToHtml = (s: string) => s.replace(/[&<>]/g, (c) => XML_ESCAPES[c]!);

/** RFC 822 (RFC 1123's four-digit year), in GMT: `Sat, 28 Nov 2026 07:21:12 GMT`. */
export const rfc822 = (d: Date) => d.toUTCString();
/** RFC 3339 in UTC, to the second: `2026-11-28T07:21:12Z`. */
export const rfc3339 = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A name-based UUID (SHA-1, version 5 layout) of `name`: permanent, and the same everywhere. */
export function uuidOf(name: string): string {
  const h = createHash('sha1').update(`community-platform/syndication/${name}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `urn:uuid:${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

export const itemIdOf = (communityId: number, item: Pick<FeedItem, 'type' | 'sourceId'>) => uuidOf(`${communityId}/${item.type}/${item.sourceId}`);
export const feedIdOf = (doc: Pick<FeedDocument, 'communityId' | 'feedId'>) => uuidOf(`${doc.communityId}/feed/${doc.feedId}`);

export function renderRss(doc: FeedDocument): string {
  const items = doc.items.map((item) => {
    const description = item.contentHtml ?? `<p>${textToHtml(cleanText(item.summary))}</p>`;
    return (
      `<item><title>${xml(item.title)}</title><link>${xml(item.url)}</link>` +
      `<guid isPermaLink="false">${xml(itemIdOf(doc.communityId, item))}</guid>` +
      `<pubDate>${rfc822(item.publishedAt)}</pubDate>` +
      (item.authorName ? `<dc:creator>${xml(item.authorName)}</dc:creator>` : '') +
      `<description>${xml(description)}</description></item>`
    );
  });
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n` +
    `<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>` +
    `<title>${xml(doc.title)}</title><link>${xml(doc.homeUrl)}</link><description>${xml(doc.description)}</description>` +
    `<language>en</language><lastBuildDate>${rfc822(doc.updatedAt)}</lastBuildDate><generator>${xml(doc.generator)}</generator>` +
    `<atom:link href="${xml(doc.selfUrl)}" rel="self" type="${MEDIA_TYPES.rss}"/>` +
    items.join('') +
    `</channel></rss>\n`
  );
}

export function renderAtom(doc: FeedDocument): string {
  const entries = doc.items.map(
    (item) =>
      `<entry><id>${xml(itemIdOf(doc.communityId, item))}</id><title type="text">${xml(item.title)}</title>` +
      `<link rel="alternate" type="text/html" href="${xml(item.url)}"/>` +
      `<published>${rfc3339(item.publishedAt)}</published><updated>${rfc3339(item.updatedAt)}</updated>` +
      (item.authorName ? `<author><name>${xml(item.authorName)}</name></author>` : '') +
      `<summary type="text">${xml(item.summary)}</summary>` +
      (item.contentHtml ? `<content type="html">${xml(item.contentHtml)}</content>` : '') +
      `</entry>`,
  );
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n` +
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">` +
    `<id>${xml(feedIdOf(doc))}</id><title type="text">${xml(doc.title)}</title>` +
    (doc.description ? `<subtitle type="text">${xml(doc.description)}</subtitle>` : '') +
    `<updated>${rfc3339(doc.updatedAt)}</updated>` +
    `<link rel="alternate" type="text/html" href="${xml(doc.homeUrl)}"/><link rel="self" type="${MEDIA_TYPES.atom}" href="${xml(doc.selfUrl)}"/>` +
    `<author><name>${xml(doc.publisher)}</name></author><generator>${xml(doc.generator)}</generator>` +
    entries.join('') +
    `</feed>\n`
  );
}

export function renderJsonFeed(doc: FeedDocument): string {
  const c = cleanText;
  return `${JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: c(doc.title),
    home_page_url: doc.homeUrl,
    feed_url: doc.selfUrl,
    description: c(doc.description),
    language: 'en',
    authors: [{ name: c(doc.publisher) }],
    items: doc.items.map((item) => ({
      id: itemIdOf(doc.communityId, item),
      url: item.url,
      title: c(item.title),
      summary: c(item.summary),
      ...(item.contentHtml ? { content_html: c(item.contentHtml) } : { content_text: c(item.summary) }),
      date_published: rfc3339(item.publishedAt),
      date_modified: rfc3339(item.updatedAt),
      ...(item.authorName ? { authors: [{ name: c(item.authorName) }] } : {}),
    })),
  })}\n`;
}

export function renderFeed(format: FeedFormat, doc: FeedDocument): string {
  return format === 'rss' ? renderRss(doc) : format === 'atom' ? renderAtom(doc) : renderJsonFeed(doc);
}
