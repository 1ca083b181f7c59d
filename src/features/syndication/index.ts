/**
 * The syndication area's public face: what the page head (src/plugins/render.tsx) and other areas use,
 * and the types its views read. Routes, GraphQL, the demo seed and its errors are registered through
 * register.ts, never imported from here.
 */
export { feedLinksOf, feedPath } from './addresses.ts';
export type {
  FeedActionRow,
  FeedChoice,
  FeedChoices,
  FeedAddresses,
  FeedForm,
  FeedFormat,
  FeedItem,
  FeedLink,
  StaffFeedDetail,
  StaffFeedRow,
  SyndicationFeedEntry,
  SyndicationItemType,
  SyndicationStaffForm,
} from './types.ts';
