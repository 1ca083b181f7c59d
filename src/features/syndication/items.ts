import type { Db } from '#src/db/index.ts';
import type { Tenant } from '#src/db/tenancy.ts';
import type { SyndicationFeedEntry } from '#src/db/types.ts';
import { publicArticles } from '#src/features/articles/index.ts';
import { bankItemKeys } from '#src/features/content-bank/index.ts';
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
 * Tags and collections (the entry's `tags`, `collections`) are the content bank's (decision 0060):
 * when a feed has any, only the items the bank's face `bankItemKeys` gives go in (every one of the
 * feed's tags, in any of its collections, of the feed's types; the bank's newest 500 such items), and
 * the two faces are asked for those ids only. Read with the rest of the feed, so a change of tags or
 * collections reaches readers within the publisher's cache time, as a newly published item does.
 */

export const SUMMARY_MAX = 400;

export type FeedSelection = Pick<SyndicationFeedEntry, 'types' | 'limit'> & Partial<Pick<SyndicationFeedEntry, 'tags' | 'collections'>>;

const idsOf = (values: readonly string[] | undefined) => (values ?? []).map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);

/** The ids of each type a feed by tags or collections may carry (the content bank's choice), or null: no such filter. */
async function chosenIds(db: Db, community: Tenant, feed: FeedSelection): Promise<{ article: number[]; roundup: number[] } | null> {
  const tagIds = idsOf(feed.tags);
  const collectionIds = idsOf(feed.collections);
  if (!tagIds.length && !collectionIds.length) return null;
  const keys = await bankItemKeys(db, community, { tagIds, collectionIds, kinds: feed.types });
  return { article: keys.filter((k) => k.kind === 'article').map((k) => k.id), roundup: keys.filter((k) => k.kind === 'roundup').map((k) => k.id) };
}

export async function loadFeedItems(db: Db, community: Tenant, feed: FeedSelection): Promise<FeedItem[]> {
  const limit = Math.max(1, Math.min(feed.limit, 100));
  const chosen = await chosenIds(db, community, feed);
  const [articles, roundups] = await Promise.all([
    feed.types.includes('article') ? publicArticles(db, community, limit, chosen?.article) : Promise.resolve([]),
    feed.types.includes('roundup') ? publicRoundups(db, community, limit, chosen?.roundup) : Promise.resolve([]),
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
