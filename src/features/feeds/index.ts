/**
 * The feeds area's public face: the member's feed for the home page (`feedFor`, or `memberFeedJson`
 * to fold it into a statement the page makes anyway, read back with `memberFeedOf`), and the types
 * its views and the home page's read. Routes, GraphQL, the demo seed and its errors are registered
 * through register.ts, never imported from here.
 */
export { FEED_ITEMS, FEED_SEEN, UNSEEN_CAP, feedFor, memberFeedJson, memberFeedOf, type MemberFeedDeps } from './member-feed.ts';
export type {
  AnnouncementDetail,
  AnnouncementForm,
  AnnouncementRow,
  AnnouncementState,
  EventForm,
  FeaturableItem,
  FeaturedRow,
  FeaturedState,
  FeedAnnouncement,
  FeedFeatured,
  FeedItem,
  FeedLogLine,
  GroupChoice,
  ItemKind,
  MemberFeed,
} from './types.ts';
