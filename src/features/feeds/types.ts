/**
 * Types the feeds area shares with its views, its GraphQL and other areas (the home page reads the
 * member's feed). Types only.
 */
import type { FeaturedKind, FeedAudience } from '#src/db/types.ts';

export type { FeaturedKind, FeedAudience };

/** An announcement's state, derived from its times and the clock (never stored). */
export const ANNOUNCEMENT_STATES = ['draft', 'scheduled', 'live', 'expired'] as const;
export type AnnouncementState = (typeof ANNOUNCEMENT_STATES)[number];

/** What staff may feature: an item of another area, or an event link of its own. */
export const FEATURED_KINDS: readonly FeaturedKind[] = ['article', 'roundup', 'offer', 'forum_post', 'event'];
/** The kinds staff pick by searching their area's items. */
export const ITEM_KINDS = ['article', 'roundup', 'offer', 'forum_post'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

/** A featured item's state: in the feed (live), past its expiry (expired), or its item no longer there to be seen (gone). */
export const FEATURED_STATES = ['live', 'expired', 'gone'] as const;
export type FeaturedState = (typeof FEATURED_STATES)[number];

// ---- The member's feed ----

export type FeedAnnouncement = {
  kind: 'announcement';
  id: number;
  title: string;
  /** Sanitised rich text. */
  bodyHtml: string;
  /** The image's path (under the path prefix), or null. */
  imagePath: string | null;
  imageAlt: string;
  link: { url: string; label: string } | null;
  pinned: boolean;
  /** When it went live. */
  at: Date;
  seen: boolean;
};

export type FeedFeatured = {
  kind: 'featured';
  id: number;
  itemKind: FeaturedKind;
  title: string;
  /** An application path (an item of the community) or, for an event link, its web address. */
  url: string;
  external: boolean;
  pinned: boolean;
  /** When it was featured. */
  at: Date;
  /** An event link's date and place. */
  eventAt: Date | null;
  place: string | null;
};

export type FeedItem = FeedAnnouncement | FeedFeatured;

export type MemberFeed = {
  /** Pinned first, then newest first: the live featured items and the announcements not seen yet. */
  items: FeedItem[];
  /** The announcements the member marked seen (shown folded below). */
  seen: FeedAnnouncement[];
  /** Live announcements the member has not seen, counted up to UNSEEN_CAP. */
  unseen: number;
};

// ---- The staff's announcements ----

/** The form as typed: every field text, kept when a save is refused. */
export type AnnouncementForm = {
  title: string;
  body: string;
  imageAlt: string;
  linkUrl: string;
  linkLabel: string;
  /** 'everyone' or 'group'. */
  audience: string;
  groupId: string;
  pinned: boolean;
  /** 'YYYY-MM-DDTHH:MM' (UTC) or ''. */
  startsAt: string;
  endsAt: string;
};

export type AnnouncementRow = {
  id: number;
  title: string;
  state: AnnouncementState;
  audience: FeedAudience;
  /** The group's name (null for everyone, or a group deleted since). */
  groupName: string | null;
  pinned: boolean;
  publishedAt: Date | null;
  startsAt: Date | null;
  endsAt: Date | null;
  /** When it goes (or went) live. */
  shownFrom: Date | null;
  updatedAt: Date;
  /** Members who marked it seen. */
  seenCount: number;
};

/** One line of the log: when, who (null: someone since removed), what was done to which. */
export type FeedLogLine = { id: number; at: Date; actorName: string | null; subject: 'announcement' | 'featured'; subjectId: number; title: string; action: string };

export type AnnouncementDetail = AnnouncementRow & {
  bodyHtml: string;
  imagePath: string | null;
  imageAlt: string;
  linkUrl: string | null;
  linkLabel: string | null;
  groupId: number | null;
  form: AnnouncementForm;
  log: FeedLogLine[];
};

export type GroupChoice = { id: number; name: string; memberCount: number };

// ---- The staff's featured items ----

export type FeaturedRow = {
  id: number;
  kind: FeaturedKind;
  itemId: number | null;
  /** The item's title now (as featured, once it is gone). */
  title: string;
  /** Where it leads (an application path, or an event link's address). */
  url: string | null;
  state: FeaturedState;
  pinned: boolean;
  endsAt: Date | null;
  eventAt: Date | null;
  place: string | null;
  featuredAt: Date;
  featuredBy: string | null;
};

/** An item staff may feature, as their search finds it. */
export type FeaturableItem = { kind: ItemKind; id: number; title: string; path: string; at: Date | null; featured: boolean };

/** The event link's form as typed. */
export type EventForm = { title: string; url: string; date: string; place: string; pinned: boolean; endsAt: string };
