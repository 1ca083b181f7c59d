import type { Db } from '#src/db/index.ts';
import type { Tenant } from '#src/db/tenancy.ts';
import type { SyndicationFeedEntry } from '#src/db/types.ts';
import { publicArticles } from '#src/features/articles/index.ts';
import { publicRoundups } from '#src/features/expert-panels/index.ts';
import { excerpt, plainText } from '#src/lib/plain-text.ts';
import { cleanText } from './render.ts';
import type { FeedItem } from './types.ts';

/**
 * What a feed carries: the community's public work of the feed's types, newest publication first, at
 * most its limit. Published articles come from the articles area's face (at their public address),
 * published roundups from the expert panels' (at their live page, a path here: `absoluteItems` puts
 * the community's origin in front). Both read this community's rows only.
 *
 * Tags and collections (the entry's `tags`, `collections`) are the content bank's, wired in a later
 * step: an item will go in when it carries one of the feed's tags (if any) and is in one of its
 * collections (if any). None is stored yet, and with none every item of the types goes in.
 */

export const SUMMARY_MAX = 400;

export type FeedSelection = Pick<SyndicationFeedEntry, 'types' | 'limit'>;

export async function loadFeedItems(db: Db, community: Tenant, feed: FeedSelection): Promise<FeedItem[]> {
  const limit = Math.max(1, Math.min(feed.limit, 100));
  const [articles, roundups] = await Promise.all([
    feed.types.includes('article') ? publicArticles(db, community, limit) : Promise.resolve([]),
    feed.types.includes('roundup') ? publicRoundups(db, community, limit) : Promise.resolve([]),
  ]);
  const items: FeedItem[] = [
    ...articles.map((a) => ({ type: 'article' as const, sourceId: a.id, title: a.title, url: a.url, summary: a.excerpt, contentHtml: null, authorName: a.authorName || null, publishedAt: a.publishedAt, updatedAt: a.updatedAt })),
    ...roundups.map((r) => ({
      type: 'roundup' as const,
      sourceId: r.id,
      title: r.title,
      url: r.path,
      summary: excerpt(plainText(r.introHtml), SUMMARY_MAX) || r.questionTitle,
      contentHtml: r.introHtml.trim() ? r.introHtml : null,
      authorName: null,
      publishedAt: r.publishedAt,
      updatedAt: r.updatedAt,
    })),
  ];
  for (const item of items) {
    // What XML cannot carry (control characters, lone surrogates) is left out here once, for every format and the staff's preview.
    item.title = cleanText(item.title);
    item.summary = cleanText(item.summary);
    item.authorName = item.authorName === null ? null : cleanText(item.authorName);
    if (item.contentHtml !== null) item.contentHtml = cleanText(item.contentHtml);
  }
  items.sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime() || (a.type === b.type ? b.sourceId - a.sourceId : a.type < b.type ? -1 : 1));
  return items.slice(0, limit);
}

/** The items with the community's own paths made absolute on `origin` (an article's address is absolute already). */
export function absoluteItems(items: readonly FeedItem[], origin: string): FeedItem[] {
  return items.map((i) => (i.url.startsWith('/') ? { ...i, url: `${origin}${i.url}` } : i));
}
