/**
 * The types of column values that the schema cannot say: the values a `text` column's check
 * constraint allows (as a string union) and the shape of a `jsonb` column. Hand-written.
 *
 * src/db/schema.ts (generated from the migrated schema, `npm run db:types`) names these in its
 * columns through the overrides in scripts/db-types.ts; src/db/types.ts re-exports them. A new
 * constrained or jsonb column: add its type here and its override there, then `npm run db:types`.
 */

/** A link of the community's "More" menu (communities.nav_more). */
export type NavLink = { label: string; link: string };

/** Memberships (migration 0001). */
export type Role = 'ADMIN' | 'MEMBER';
export type Gate = 'app' | 'onboarding';

/** Sign-in (migration 0002). */
export type OtcChannel = 'EMAIL' | 'SMS';

/** Articles (migration 0004). */
export type ArticleStatusValue =
  | 'DRAFT'
  | 'EDITING'
  | 'SUBMITTED_FOR_REVIEW'
  | 'FIRST_ROUND_EDIT'
  | 'NEEDS_REVISION'
  | 'FINAL_EDIT'
  | 'READY_TO_APPROVE'
  | 'READY_TO_PUBLISH'
  | 'MANUALLY_PUBLISHED'
  | 'SCHEDULED'
  | 'PUBLISHED'
  | 'TRASHED'
  | 'UNASSIGNED'
  | 'ON_HOLD';

/** Notifications (migration 0009). */
export type NotificationChannel = 'email' | 'web' | 'push';
export type DeliveryStatus = 'sent' | 'digest' | 'failed';
export type PushPlatform = 'ios' | 'fcm' | 'web';

/** A member's support contacts (migration 0009). */
export type SupportContactType = 'ea' | 'pr';
/** Introductions between members (migration 0006). */
export type IntroductionStatus = 'PENDING' | 'APPROVED' | 'DECLINED';

/** Payments (migration 0011). Money is integer cents with a currency. */
export type CardType = 'VISA' | 'MASTERCARD' | 'AMERICAN_EXPRESS' | 'DISCOVER' | 'DINERS_CLUB' | 'JCB';
export type SavedPaymentStatus = 'VALID' | 'EXPIRED' | 'EXPIRATION_PENDING' | 'FAILED';
export type SubscriptionStatus = 'pending' | 'active' | 'past_due' | 'canceled';
export type LedgerKind = 'charge' | 'refund' | 'card_added' | 'card_removed' | 'card_default';
export type LedgerStatus = 'pending' | 'succeeded' | 'declined' | 'failed';
export type LedgerPurpose = 'dues' | 'initiation' | 'balance' | 'renewal' | 'amplification';
export type StatementKind = 'dues' | 'purchase' | 'amplification';
/** One line of a charge or statement: what was bought and for how much. */
export type LineItem = { label: string; amountCents: number };
export type OnboardingStep = 'payment' | 'password' | 'profile' | 'contact' | 'team' | 'ep-landing' | 'ep-question' | 'address' | 'complete' | 'shutdown';

/** Expert panels (migration 0014). */
export type EpBatchStatus = 'draft' | 'sent';
export type EpAnswerStatus = 'open' | 'cant_answer' | 'ignored' | 'submitted' | 'accepted' | 'declined';
export type RoundupStatus = 'DRAFT' | 'EDITOR_REVIEW' | 'READY_FOR_PUBLISHING' | 'FINAL';

/** The forum (migration 0012). */
export type ForumStatus = 'published' | 'pending' | 'rejected' | 'removed';
export type ForumTargetKind = 'post' | 'reply';

/** Offers and benefits (migration 0020). */
export type OfferTier = 'everyone' | 'exec';
export type OfferRedemption = 'code' | 'link' | 'concierge';
export type OfferStatus = 'draft' | 'published' | 'withdrawn';

/** Groups (migration 0030). */
export type GroupVisibility = 'disabled' | 'preview' | 'private' | 'public';
export type GroupRole = 'chair' | 'member';
export type GroupJoinStatus = 'pending' | 'accepted' | 'declined';

/** Messages from the community team (migration 0031). */
export type TeamMessageStatus = 'DRAFT' | 'SCHEDULED' | 'SENDING' | 'SENT' | 'CANCELLED' | 'FAILED';
export type MessageRecipientState = 'pending' | 'delivered' | 'skipped';
/** Who a team message goes to: a tagged value kept on the message (no foreign key to groups). */
export type TeamMessageAudience =
  | { kind: 'community' }
  | { kind: 'group'; groupId: number }
  | { kind: 'filter'; tier?: string | null; founding?: boolean | null; industry?: string | null; location?: string | null; standing?: string | null }
  | { kind: 'emails'; emails: string[] };

/** The members' feed (migration 0034). */
export type FeedAudience = 'everyone' | 'group';
export type FeaturedKind = 'article' | 'roundup' | 'offer' | 'forum_post' | 'event';
export type FeedSubject = 'announcement' | 'featured';
/** The content bank (migration 0036): an item of the library, named by its kind and its id. */
export type BankKind = 'article' | 'roundup' | 'answer' | 'image' | 'pdf';
export type BankAssetKind = 'image' | 'pdf';
/** Syndication (migration 0035). */
export type SyndicationItemType = 'article' | 'roundup';
/** What a feed's filter row names: an item type now; the content bank's tags and collections next. */
export type SyndicationFilterKind = 'type' | 'tag' | 'collection';
/**
 * An enabled feed as the community's cached row carries it (communities.syndication_feeds): what a
 * page head advertises and a feed address serves, with no read of the feeds' table.
 */
export type SyndicationFeedEntry = {
  id: number;
  slug: string;
  title: string;
  description: string;
  limit: number;
  types: SyndicationItemType[];
  /** The content bank's tag and collection ids the items must carry (none yet: every item of the types). */
  tags: string[];
  collections: string[];
  /** When staff last changed it (ISO): part of the feed's cache key. */
  updatedAt: string;
};
/** Insights (migration 0037): the coarse device class an event is stored with (never a user-agent string). */
export type InsightDevice = 'desktop' | 'mobile' | 'tablet' | 'app' | 'unknown';
