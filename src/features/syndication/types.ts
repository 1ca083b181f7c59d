/**
 * Types the syndication area shares with its views, its GraphQL and other areas (types only).
 */
import type { SyndicationFeedEntry, SyndicationItemType } from '#src/db/types.ts';

export type { SyndicationFeedEntry, SyndicationItemType };

/** The three formats every feed is served in, by the ending of its address. */
export type FeedFormat = 'rss' | 'atom' | 'json';

/** One item of a feed: a published article (at its public address) or a published roundup (at its live page). */
export type FeedItem = {
  type: SyndicationItemType;
  /** The row's id in its area (an article's, a roundup's). */
  sourceId: number;
  title: string;
  /** Absolute. */
  url: string;
  /** Plain text. */
  summary: string;
  /** Sanitised HTML, when the item has more than its summary (a roundup's introduction). */
  contentHtml: string | null;
  authorName: string | null;
  publishedAt: Date;
  updatedAt: Date;
};

/** A feed's three public addresses (absolute) and their paths (under the path prefix, for a page's head). */
export type FeedAddresses = Record<FeedFormat, string>;

/** A feed as the staff's list shows it. */
export type StaffFeedRow = {
  id: number;
  slug: string;
  title: string;
  description: string;
  types: SyndicationItemType[];
  /** The content bank's tags (every one) and collections (any one) its items must be in; none: every item of its types. */
  tags: number[];
  collections: number[];
  limit: number;
  enabled: boolean;
  updatedAt: Date;
  addresses: FeedAddresses;
};

/** A content bank tag or collection a feed's form offers. */
export type FeedChoice = { id: number; name: string };
/** The community's tags and collections, as the feed's form offers them. */
export type FeedChoices = { tags: FeedChoice[]; collections: FeedChoice[] };

/** One line of the feeds' log: who did what, when, to which feed (its slug kept after it is deleted). */
export type FeedActionRow = { id: number; feedId: number | null; feedSlug: string; actorName: string | null; action: string; detail: string; createdAt: Date };

/** One feed for staff: its fields, addresses, the items it carries now and its latest log lines. */
export type StaffFeedDetail = StaffFeedRow & { preview: FeedItem[]; log: FeedActionRow[] };

/** The staff's form of a feed, as typed (every field a string; `types` the ticked ones). */
export type FeedForm = { title: string; slug: string; description: string; limit: string; types: string[]; tags?: string[]; collections?: string[]; enabled: boolean };

/** A refused staff form as its page shows it again. */
export type SyndicationStaffForm = { key: string; values: Record<string, string>; errors: Record<string, string> };

/** A `<link rel="alternate">` of a page's head: one per enabled feed and format. */
export type FeedLink = { type: string; title: string; href: string };
