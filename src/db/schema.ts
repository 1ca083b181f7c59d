/**
 * GENERATED from the migrated schema by kysely-codegen: do not edit.
 * Regenerate with `npm run db:types` (scripts/db-types.ts: migrates a scratch database, then runs
 * the generator with the overrides written there). test/db/schema-drift.test.ts fails when this file
 * differs from what the migrations give. Hand-written: src/db/column-types.ts (the values of
 * constrained and jsonb columns) and src/db/types.ts (the names and row types the code imports).
 */

import type { ArticleStatusValue, BankAssetKind, BankKind, CardType, DeliveryStatus, EpAnswerStatus, EpBatchStatus, FeaturedKind, FeedAudience, FeedSubject, ForumStatus, ForumTargetKind, Gate, GroupJoinStatus, GroupRole, GroupVisibility, InsightDevice, IntroductionStatus, LedgerKind, LedgerPurpose, LedgerStatus, LineItem, MessageRecipientState, NavLink, NotificationChannel, OfferRedemption, OfferStatus, OfferTier, OnboardingStep, OtcChannel, PushPlatform, Role, RoundupStatus, SavedPaymentStatus, StatementKind, SubscriptionStatus, SupportContactType, SyndicationFeedEntry, SyndicationFilterKind, TeamMessageAudience, TeamMessageStatus } from "./column-types.ts";
import type { ColumnType } from "kysely";

export type Generated<T> = T extends ColumnType<infer S, infer I, infer U>
  ? ColumnType<S, I | undefined, U>
  : ColumnType<T, T | undefined, T>;

export type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface AdDailyCounts {
  ad_id: number;
  clicks: Generated<number>;
  community_id: number;
  day: string;
  impressions: Generated<number>;
}

export interface AdImages {
  bytes: Buffer;
  community_id: number;
  content_type: string;
  created_at: Generated<Timestamp>;
  height: number;
  key: string;
  width: number;
}

export interface Ads {
  alt_text: string;
  community_id: number;
  created_at: Generated<Timestamp>;
  ends_at: Timestamp | null;
  id: Generated<number>;
  image_url: string;
  is_active: Generated<boolean>;
  link: string;
  shape: "MASTHEAD" | "MEDIUM_SQUARE";
  starts_at: Timestamp | null;
  updated_at: Generated<Timestamp>;
}

export interface AmplificationOrders {
  article_id: number;
  community_id: number;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  ledger_id: number;
  package_id: number;
  user_id: number;
}

export interface AmplificationPackages {
  active: Generated<boolean>;
  community_id: number;
  currency: Generated<string>;
  description: string;
  id: Generated<number>;
  name: string;
  price_cents: number;
  sort_order: Generated<number>;
}

export interface ArticleAgreements {
  article_id: number | null;
  community_id: number;
  created_at: Timestamp;
  id: Generated<number>;
  kind: "PRODUCT" | "SUBMISSION" | "APPROVAL";
  user_id: number;
}

export interface ArticleFeedback {
  article_id: number;
  author_id: number;
  community_id: number;
  created_at: Timestamp;
  id: Generated<number>;
  read_at: Timestamp | null;
  remark: string;
}

export interface ArticleRevisions {
  article_id: number;
  author_id: number;
  community_id: number;
  content: string;
  created_at: Timestamp;
  id: Generated<number>;
  title: string;
  updated_at: Timestamp;
  word_count: number;
}

export interface Articles {
  article_url: string | null;
  author_id: number;
  community_id: number;
  created_at: Timestamp;
  current_revision_id: number | null;
  editor_id: number | null;
  id: Generated<number>;
  published_date: Timestamp | null;
  scheduled_date: Timestamp | null;
  status: ColumnType<ArticleStatusValue, ArticleStatusValue | undefined, ArticleStatusValue>;
  status_updated_at: Timestamp;
  updated_at: Timestamp;
}

export interface ArticleStatusEvents {
  actor_id: number | null;
  article_id: number;
  community_id: number;
  created_at: Timestamp;
  from_status: ArticleStatusValue;
  id: Generated<number>;
  note: string | null;
  revision_id: number | null;
  to_status: ArticleStatusValue;
}

export interface ArticleUserSettings {
  byline: string;
  community_id: number;
  id: Generated<number>;
  updated_at: Timestamp;
  user_id: number;
}

export interface AuthEvents {
  id: Generated<number>;
  key: string;
  kind: string;
  occurred_at: Timestamp;
}

export interface AuthLockouts {
  key: string;
  reason: string;
  until: Timestamp;
}

export interface AvatarImages {
  bytes: Buffer;
  community_id: number;
  content_type: string;
  created_at: Generated<Timestamp>;
  key: string;
  size: number;
  user_id: number;
}

export interface BadgeAwards {
  action: string;
  actor_id: number | null;
  badge: string;
  community_id: number;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  reason: Generated<string>;
  user_id: number;
}

export interface BankAssets {
  byte_size: number;
  bytes: Buffer;
  community_id: number;
  content_type: string;
  created_at: Generated<Timestamp>;
  created_by: number | null;
  filename: string;
  height: number | null;
  id: Generated<number>;
  key: string;
  kind: BankAssetKind;
  title: string;
  width: number | null;
}

export interface BankCollectionItems {
  added_at: Generated<Timestamp>;
  added_by: number | null;
  collection_id: number;
  community_id: number;
  item_id: number;
  kind: BankKind;
  position: number;
}

export interface BankCollections {
  community_id: number;
  created_at: Generated<Timestamp>;
  created_by: number | null;
  description: Generated<string>;
  id: Generated<number>;
  name: string;
  updated_at: Generated<Timestamp>;
}

export interface BankDirty {
  community_id: number;
  id: Generated<number>;
  item_id: number;
  kind: BankKind;
}

export interface BankEntries {
  author_id: number | null;
  author_name: Generated<string>;
  community_id: number;
  id: Generated<number>;
  indexed_at: Generated<Timestamp>;
  item_id: number;
  kind: BankKind;
  published_at: Timestamp;
  search_text: Generated<string>;
  search_vector: Generated<string>;
  staff_path: string;
  summary: Generated<string>;
  title: string;
  url: string | null;
}

export interface BankItemTags {
  community_id: number;
  created_at: Generated<Timestamp>;
  item_id: number;
  kind: BankKind;
  tag_id: number;
  tagged_by: number | null;
}

export interface BankTags {
  community_id: number;
  created_at: Generated<Timestamp>;
  created_by: number | null;
  id: Generated<number>;
  name: string;
}

export interface BankUsage {
  area: string;
  community_id: number;
  id: Generated<number>;
  item_id: number;
  kind: BankKind;
  label: Generated<string>;
  path: string | null;
  ref: string;
  used_at: Timestamp;
  what: string;
}

export interface BlackoutWindows {
  community_id: number;
  ends_before: string;
  id: Generated<number>;
  starts_on: string;
}

export interface CardAuthLog {
  attempt_amount_cents: number;
  attempted_at: Timestamp;
  auth_response_code: number | null;
  community_id: number;
  currency: Generated<string>;
  id: Generated<number>;
  ledger_id: number | null;
  reversal_http_code: number | null;
  saved_payment_id: number;
}

export interface Communities {
  app_name: string;
  article_application_url: string | null;
  article_guidelines: string | null;
  article_terms: string | null;
  auth_app_store_link: string | null;
  auth_background_image: string | null;
  auth_logo: string | null;
  auth_play_store_link: string | null;
  auth_slug: string | null;
  auth_text_color: string | null;
  code: string;
  color_accent: Generated<string>;
  color_primary: Generated<string>;
  concierge_email: string;
  concierge_phone: string;
  copyright_holder: string;
  created_at: Generated<Timestamp>;
  exec_link: string | null;
  familiar_name: string;
  forum_all_posts_wait: Generated<boolean>;
  forum_enabled: Generated<boolean>;
  forum_reads_since: Timestamp | null;
  google_analytics_id: string | null;
  google_tag_manager_id: string | null;
  icon: string | null;
  id: Generated<number>;
  link_membership_info: string | null;
  link_privacy: string | null;
  link_terms: string | null;
  name: string;
  nav_more: ColumnType<NavLink[], string | undefined, string>;
  syndication_feeds: ColumnType<SyndicationFeedEntry[], string | undefined, string>;
  updated_at: Generated<Timestamp>;
}

export interface CommunityHosts {
  community_id: number;
  host: string;
}

export interface ConversationMembers {
  blocked_at: Timestamp | null;
  community_id: number;
  conversation_id: number;
  read_message_id: Generated<number>;
  user_id: number;
}

export interface ConversationMessages {
  body: string;
  community_id: number;
  conversation_id: number;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  sender_id: number;
}

export interface Conversations {
  community_id: number;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  last_message_at: Generated<Timestamp>;
  last_message_id: Generated<number>;
  last_sender_id: number | null;
  member_high: number;
  member_low: number;
}

export interface CopyScans {
  aggregated_score: number | null;
  ai_probability: number | null;
  article_id: number;
  community_id: number;
  created_at: Timestamp;
  export_id: string | null;
  id: Generated<number>;
  identical_words: number | null;
  minor_changed_words: number | null;
  related_meaning_words: number | null;
  revision_id: number;
  status: string;
  total_excluded: number | null;
  total_words: number | null;
  updated_at: Timestamp;
}

export interface EpAnswerRevisions {
  answer_id: number;
  body_html: string;
  community_id: number;
  created_at: Generated<Timestamp>;
  editor_id: number | null;
  id: Generated<number>;
  word_count: number;
}

export interface EpAnswers {
  body_html: Generated<string>;
  body_text: Generated<string>;
  community_id: number;
  decided_at: Timestamp | null;
  decision_note: string | null;
  edited_at: Timestamp | null;
  id: Generated<number>;
  invited_at: Timestamp | null;
  question_id: number;
  reminded_at: Timestamp | null;
  review_started_at: Timestamp | null;
  reviewer_id: number | null;
  scan: ColumnType<unknown, string | null | undefined, string | null>;
  sent_at: Generated<Timestamp>;
  status: ColumnType<EpAnswerStatus, EpAnswerStatus | undefined, EpAnswerStatus>;
  status_at: Generated<Timestamp>;
  submitted_at: Timestamp | null;
  user_id: number;
  word_count: Generated<number>;
}

export interface EpBatches {
  community_id: number;
  created_at: Generated<Timestamp>;
  created_by: number | null;
  deadline_at: Timestamp;
  id: Generated<number>;
  panel_id: number;
  sent_at: Timestamp | null;
  status: ColumnType<EpBatchStatus, EpBatchStatus | undefined, EpBatchStatus>;
  title: string;
}

export interface EpPanelMembers {
  added_at: Generated<Timestamp>;
  added_by: number | null;
  community_id: number;
  panel_id: number;
  user_id: number;
}

export interface EpPanels {
  archived_at: Timestamp | null;
  community_id: number;
  created_at: Generated<Timestamp>;
  created_by: number | null;
  id: Generated<number>;
  max_words: Generated<number>;
  min_words: Generated<number>;
  name: string;
  topic: Generated<string>;
}

export interface EpQuestions {
  batch_id: number;
  brief_html: Generated<string>;
  closed_at: Timestamp | null;
  closed_by: number | null;
  community_id: number;
  created_at: Generated<Timestamp>;
  guidelines_html: Generated<string>;
  id: Generated<number>;
  panel_id: number;
  position: Generated<number>;
  title: string;
}

export interface EpRoundupAnswers {
  answer_id: number;
  community_id: number;
  position: number;
  roundup_id: number;
}

export interface EpRoundupMoves {
  actor_id: number | null;
  community_id: number;
  created_at: Generated<Timestamp>;
  from_status: RoundupStatus;
  id: Generated<number>;
  roundup_id: number;
  to_status: RoundupStatus;
}

export interface EpRoundups {
  community_id: number;
  created_at: Generated<Timestamp>;
  created_by: number | null;
  id: Generated<number>;
  intro_html: Generated<string>;
  published_at: Timestamp | null;
  question_id: number;
  slug: string | null;
  status: ColumnType<RoundupStatus, RoundupStatus | undefined, RoundupStatus>;
  title: string;
  updated_at: Generated<Timestamp>;
}

export interface FeedAnnouncements {
  audience: ColumnType<FeedAudience, FeedAudience | undefined, FeedAudience>;
  body_html: Generated<string>;
  community_id: number;
  created_at: Generated<Timestamp>;
  created_by: number | null;
  ends_at: Timestamp | null;
  group_id: number | null;
  id: Generated<number>;
  image: string | null;
  image_alt: Generated<string>;
  link_label: string | null;
  link_url: string | null;
  pinned: Generated<boolean>;
  published_at: Timestamp | null;
  shown_from: ColumnType<Date | null, never, never>;
  starts_at: Timestamp | null;
  title: string;
  updated_at: Generated<Timestamp>;
}

export interface FeedEvents {
  action: string;
  actor_id: number | null;
  community_id: number;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  subject: FeedSubject;
  subject_id: number;
  title: string;
}

export interface FeedFeatured {
  community_id: number;
  created_at: Generated<Timestamp>;
  created_by: number | null;
  ends_at: Timestamp | null;
  event_at: Timestamp | null;
  id: Generated<number>;
  item_id: number | null;
  kind: FeaturedKind;
  pinned: Generated<boolean>;
  place: string | null;
  title: string;
  updated_at: Generated<Timestamp>;
  url: string | null;
}

export interface FeedImages {
  announcement_id: number;
  bytes: Buffer;
  community_id: number;
  content_type: string;
  created_at: Generated<Timestamp>;
  key: string;
}

export interface FeedSeen {
  announcement_id: number;
  community_id: number;
  seen_at: Generated<Timestamp>;
  user_id: number;
}

export interface ForumActions {
  action: string;
  actor_id: number | null;
  community_id: number;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  note: string | null;
  target_id: number;
  target_kind: string;
}

export interface ForumFollows {
  community_id: number;
  created_at: Generated<Timestamp>;
  post_id: number;
  user_id: number;
}

export interface ForumLikes {
  community_id: number;
  created_at: Generated<Timestamp>;
  target_id: number;
  target_kind: ForumTargetKind;
  user_id: number;
}

export interface ForumPosts {
  author_id: number;
  body_html: string;
  body_text: string;
  community_id: number;
  created_at: Generated<Timestamp>;
  deleted_at: Timestamp | null;
  edited_at: Timestamp | null;
  group_id: number | null;
  id: Generated<number>;
  last_activity_at: Generated<Timestamp>;
  like_count: Generated<number>;
  locked_at: Timestamp | null;
  moderated_at: Timestamp | null;
  moderated_by: number | null;
  moderation_note: string | null;
  pinned_at: Timestamp | null;
  reply_count: Generated<number>;
  report_count: Generated<number>;
  search: ColumnType<string, never, never>;
  status: ColumnType<ForumStatus, ForumStatus | undefined, ForumStatus>;
  title: string;
}

export interface ForumPostTopics {
  community_id: number;
  post_id: number;
  topic_id: number;
}

export interface ForumReactions {
  community_id: number;
  created_at: Generated<Timestamp>;
  reaction: string;
  target_id: number;
  target_kind: ForumTargetKind;
  user_id: number;
}

export interface ForumReads {
  community_id: number;
  last_reply_id: Generated<number>;
  post_id: number;
  read_at: Generated<Timestamp>;
  user_id: number;
}

export interface ForumReplies {
  author_id: number;
  body_html: string;
  body_text: string;
  community_id: number;
  created_at: Generated<Timestamp>;
  deleted_at: Timestamp | null;
  edited_at: Timestamp | null;
  id: Generated<number>;
  like_count: Generated<number>;
  moderated_at: Timestamp | null;
  moderated_by: number | null;
  moderation_note: string | null;
  post_id: number;
  report_count: Generated<number>;
  status: ColumnType<ForumStatus, ForumStatus | undefined, ForumStatus>;
}

export interface ForumReplyNotices {
  community_id: number;
  created_at: Generated<Timestamp>;
  reply_id: number;
  user_id: number;
}

export interface ForumReports {
  community_id: number;
  created_at: Generated<Timestamp>;
  description: Generated<string>;
  id: Generated<number>;
  post_id: number;
  reason: string;
  reporter_id: number;
  resolution: string | null;
  resolved_at: Timestamp | null;
  resolved_by: number | null;
  target_id: number;
  target_kind: ForumTargetKind;
}

export interface ForumTopics {
  archived_at: Timestamp | null;
  community_id: number;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  name: string;
  position: Generated<number>;
}

export interface GroupActions {
  action: string;
  actor_id: number | null;
  community_id: number;
  created_at: Generated<Timestamp>;
  detail: Generated<string>;
  group_id: number;
  id: Generated<number>;
}

export interface GroupImages {
  bytes: Buffer;
  community_id: number;
  content_type: string;
  created_at: Generated<Timestamp>;
  group_id: number;
  key: string;
}

export interface GroupJoinRequests {
  community_id: number;
  created_at: Generated<Timestamp>;
  decided_at: Timestamp | null;
  decided_by: number | null;
  group_id: number;
  id: Generated<number>;
  status: ColumnType<GroupJoinStatus, GroupJoinStatus | undefined, GroupJoinStatus>;
  user_id: number;
}

export interface GroupMembers {
  added_by: number | null;
  community_id: number;
  created_at: Generated<Timestamp>;
  group_id: number;
  role: ColumnType<GroupRole, GroupRole | undefined, GroupRole>;
  user_id: number;
}

export interface Groups {
  about_html: Generated<string>;
  about_text: Generated<string>;
  community_id: number;
  created_at: Generated<Timestamp>;
  created_by: number | null;
  id: Generated<number>;
  image: string | null;
  name: string;
  slug: string;
  updated_at: Generated<Timestamp>;
  visibility: ColumnType<GroupVisibility, GroupVisibility | undefined, GroupVisibility>;
}

export interface InsightDays {
  community_id: number;
  day: string;
  series: string;
  value: number;
}

export interface InsightEventCounts {
  action: string;
  category: string;
  community_id: number;
  day: string;
  events: number;
  members: number;
}

export interface InsightEventPeriods {
  action: string;
  category: string;
  community_id: number;
  events: number;
  period: string;
  starts: string;
}

export interface InsightEvents {
  action: string;
  category: string;
  community_id: number;
  device: ColumnType<InsightDevice, InsightDevice | undefined, InsightDevice>;
  id: Generated<number>;
  label: Generated<string>;
  occurred_at: Timestamp;
  user_id: number;
}

export interface InsightMemberDays {
  community_id: number;
  day: string;
  user_id: number;
}

export interface InsightRollups {
  community_id: number;
  health_at: Timestamp | null;
  rolled_at: Timestamp | null;
}

export interface IntroductionRequests {
  community_id: number;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  reason: string;
  requester_id: number;
  review_note: string | null;
  reviewed_at: Timestamp | null;
  reviewer_id: number | null;
  status: ColumnType<IntroductionStatus, IntroductionStatus | undefined, IntroductionStatus>;
  target_id: number;
}

export interface MemberBadges {
  awarded_at: Generated<Timestamp>;
  awarded_by: number | null;
  badge: string;
  community_id: number;
  id: Generated<number>;
  level: Generated<number>;
  user_id: number;
}

export interface MemberNotes {
  author_id: number | null;
  body: string;
  community_id: number;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  member_id: number;
}

export interface MembershipPlans {
  active: Generated<boolean>;
  community_id: number;
  currency: Generated<string>;
  deal_id: string;
  description: string;
  dues_cents: number;
  id: Generated<number>;
  initiation_fee_cents: Generated<number>;
  name: string;
  price_point_id: string;
  product_id: string;
  savings_cents: Generated<number>;
  term_months: 12 | 24;
}

export interface Memberships {
  avatar_key: string | null;
  avatar_url: string | null;
  community_id: number;
  company_area_of_focus: string | null;
  company_description: string | null;
  company_employee_count: number | null;
  company_name: string | null;
  display_pronouns: Generated<boolean>;
  gate: ColumnType<Gate, Gate | undefined, Gate>;
  health: string | null;
  id: Generated<number>;
  industry: string | null;
  is_active: Generated<boolean>;
  is_founding: Generated<boolean>;
  is_moderator: Generated<boolean>;
  job_title: string | null;
  joined_at: Generated<Timestamp>;
  last_accessed_at: Timestamp | null;
  link_angellist: string | null;
  link_crunchbase: string | null;
  link_facebook: string | null;
  link_instagram: string | null;
  link_linkedin: string | null;
  link_twitter: string | null;
  link_website: string | null;
  location_familiar_name: string | null;
  location_name: string | null;
  membership_tier: string | null;
  profile_updated_at: Timestamp | null;
  pronouns: string | null;
  public_url: string | null;
  roles: ColumnType<Role[], Role[] | undefined, Role[]>;
  search_text: ColumnType<string, never, never>;
  search_vector: ColumnType<string, never, never>;
  sort_name: ColumnType<string, never, never>;
  standing: string | null;
  user_id: number;
  vertical: string | null;
}

export interface MessageEvents {
  actor_id: number | null;
  community_id: number;
  created_at: Generated<Timestamp>;
  from_status: TeamMessageStatus | null;
  id: Generated<number>;
  message_id: number;
  note: string | null;
  to_status: TeamMessageStatus;
}

export interface MessageRecipients {
  community_id: number;
  delivered_at: Timestamp | null;
  message_id: number;
  notification_id: number | null;
  read_at: Timestamp | null;
  state: ColumnType<MessageRecipientState, MessageRecipientState | undefined, MessageRecipientState>;
  user_id: number;
}

export interface NotificationDeliveries {
  channel: string;
  community_id: number;
  created_at: Generated<Timestamp>;
  notification_id: number;
  sent_at: Timestamp | null;
  status: DeliveryStatus;
  target: string;
  user_id: number;
}

export interface NotificationPreferences {
  channel: NotificationChannel;
  community_id: number;
  option: string;
  selected: boolean;
  updated_at: Generated<Timestamp>;
  user_id: number;
}

export interface Notifications {
  community_id: number;
  created_at: Timestamp;
  id: Generated<number>;
  kind: Generated<string>;
  message: string;
  read_at: Timestamp | null;
  shown: Generated<boolean>;
  url: string;
  user_id: number;
  viewed_at: Timestamp | null;
}

export interface NotificationSettings {
  community_id: number;
  digest_sent_at: Timestamp | null;
  email_digest: Generated<boolean>;
  updated_at: Generated<Timestamp>;
  user_id: number;
}

export interface OfferRedemptions {
  community_id: number;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  offer_id: number;
  user_id: number;
}

export interface Offers {
  category: string;
  code: string | null;
  community_id: number;
  created_at: Generated<Timestamp>;
  created_by: number | null;
  description_html: Generated<string>;
  ends_at: Timestamp | null;
  featured: Generated<boolean>;
  id: Generated<number>;
  link: string | null;
  partner_id: number;
  position: Generated<number>;
  redemption: OfferRedemption;
  starts_at: Timestamp | null;
  status: ColumnType<OfferStatus, OfferStatus | undefined, OfferStatus>;
  terms: Generated<string>;
  tier: ColumnType<OfferTier, OfferTier | undefined, OfferTier>;
  title: string;
  updated_at: Generated<Timestamp>;
  value_line: Generated<string>;
}

export interface OfferStatusEvents {
  actor_id: number | null;
  community_id: number;
  created_at: Generated<Timestamp>;
  from_status: OfferStatus | null;
  id: Generated<number>;
  offer_id: number;
  to_status: OfferStatus;
}

export interface Onboardings {
  address: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
  address_at: Timestamp | null;
  community_id: number;
  completed_at: Timestamp | null;
  contact_at: Timestamp | null;
  created_at: Generated<Timestamp>;
  credentials_at: Timestamp | null;
  current_step: ColumnType<OnboardingStep, OnboardingStep | undefined, OnboardingStep>;
  expert_panel_at: Timestamp | null;
  expert_question_at: Timestamp | null;
  id: string;
  paid_at: Timestamp | null;
  plan_id: number | null;
  profile_at: Timestamp | null;
  team_at: Timestamp | null;
  updated_at: Generated<Timestamp>;
  user_id: number;
}

export interface OneTimeCodes {
  channel: OtcChannel;
  code_hash: string;
  community_id: number;
  created_at: Timestamp;
  destination: string;
  expires_at: Timestamp;
  id: Generated<number>;
  used_at: Timestamp | null;
  user_id: number;
}

export interface PartnerLogos {
  bytes: Buffer;
  community_id: number;
  content_type: string;
  created_at: Generated<Timestamp>;
  key: string;
  partner_id: number;
}

export interface Partners {
  community_id: number;
  contact: Generated<string>;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  logo: string | null;
  name: string;
  updated_at: Generated<Timestamp>;
  website: string | null;
}

export interface PasswordTokens {
  community_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
  id: Generated<number>;
  purpose: "reset" | "setup";
  token_hash: string;
  used_at: Timestamp | null;
  user_id: number;
}

export interface PaymentErrorLogs {
  category: string | null;
  community_id: number;
  created_at: Generated<Timestamp>;
  email: string | null;
  id: Generated<number>;
  message: string;
  source: "client" | "script";
  uri: string | null;
  user_id: number | null;
  value: string | null;
}

export interface PaymentLedger {
  actor_id: number | null;
  amount_cents: Generated<number>;
  community_id: number;
  created_at: Generated<Timestamp>;
  currency: Generated<string>;
  description: string;
  error_code: string | null;
  id: Generated<number>;
  idempotency_key: string | null;
  items: ColumnType<LineItem[], string | undefined, string>;
  kind: LedgerKind;
  processor_ref: string | null;
  purpose: LedgerPurpose | null;
  related_ledger_id: number | null;
  saved_payment_id: number | null;
  settled_at: Timestamp | null;
  status: LedgerStatus;
  subscription_id: string | null;
  user_id: number;
}

export interface PaymentSettings {
  accepted_cards: ColumnType<CardType[], CardType[] | undefined, CardType[]>;
  community_id: number;
  currency: Generated<string>;
  onboarding_disabled: Generated<boolean>;
  public_key: string;
  show_address_step: Generated<boolean>;
  sub_domain: string;
  updated_at: Generated<Timestamp>;
}

export interface PushTokens {
  community_id: number;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  keys: ColumnType<{ p256dh: string; auth: string } | null, string | null | undefined, string | null>;
  last_used_at: Timestamp | null;
  platform: PushPlatform;
  session_id: ColumnType<string | null, string | null | undefined, string | null>;
  token: string;
  user_id: number;
}

export interface SandboxProfiles {
  behaviour: string;
  card_type: CardType;
  created_at: Timestamp;
  customer_ref: string;
  deleted_at: Timestamp | null;
  exp_month: number;
  exp_year: number;
  first_name: string;
  id: string;
  idempotency_key: string;
  last_name: string;
  last4: string;
  outcome: ColumnType<unknown, string, string>;
  sub_domain: string;
  token: string;
}

export interface SandboxTokens {
  behaviour: string;
  card_type: CardType;
  created_at: Timestamp;
  exp_month: number;
  exp_year: number;
  first_name: string;
  last_name: string;
  last4: string;
  public_key: string;
  status: "ready" | "challenge" | "failed";
  token: string;
  used_at: Timestamp | null;
  zip: string;
}

export interface SandboxTransactions {
  amount_cents: number;
  created_at: Timestamp;
  currency: string;
  id: string;
  idempotency_key: string;
  kind: "charge" | "refund" | "verification";
  memo: string;
  outcome: ColumnType<unknown, string, string>;
  profile_id: string | null;
  related_id: string | null;
  response_code: number | null;
  reversal_http_code: number | null;
  sub_domain: string;
}

export interface SavedPayments {
  card_type: CardType;
  community_id: number;
  created_at: Generated<Timestamp>;
  deleted_at: Timestamp | null;
  expiration_month: number;
  expiration_year: number;
  first_name: string;
  id: Generated<number>;
  is_default: Generated<boolean>;
  last_name: string;
  last4: string;
  processor_ref: string;
  status: ColumnType<SavedPaymentStatus, SavedPaymentStatus | undefined, SavedPaymentStatus>;
  user_id: number;
}

export interface Sessions {
  community_id: number;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  id: string;
  last_accessed_at: Timestamp | null;
  previous_refresh_token_hash: string | null;
  refresh_token_hash: string | null;
  refreshed_at: Timestamp | null;
  revoked_at: Timestamp | null;
  user_agent: string | null;
  user_id: number;
}

export interface StaffActions {
  action: string;
  actor_id: number | null;
  community_id: number;
  created_at: Generated<Timestamp>;
  detail: string | null;
  id: Generated<number>;
  member_id: number | null;
}

export interface Statements {
  amount_cents: number;
  community_id: number;
  currency: string;
  id: Generated<number>;
  items: ColumnType<LineItem[], string, string>;
  kind: StatementKind;
  ledger_id: number;
  name: string;
  payment_method: string;
  purchased_at: Timestamp;
  user_id: number;
}

export interface Subscriptions {
  community_id: number;
  created_at: Generated<Timestamp>;
  currency: Generated<string>;
  dunning_count: Generated<number>;
  id: string;
  next_dunning_at: Timestamp | null;
  outstanding_cents: Generated<number>;
  past_due_since: Timestamp | null;
  period_started_at: Timestamp | null;
  plan_id: number | null;
  processor_ref: string | null;
  renews_at: Timestamp | null;
  status: ColumnType<SubscriptionStatus, SubscriptionStatus | undefined, SubscriptionStatus>;
  updated_at: Generated<Timestamp>;
  user_id: number;
}

export interface SupportContacts {
  community_id: number;
  created_at: Generated<Timestamp>;
  email: string | null;
  id: Generated<number>;
  mobile_country_code: string | null;
  mobile_number: string | null;
  name: string;
  office_country_code: string | null;
  office_extension: string | null;
  office_number: string | null;
  type: SupportContactType;
  updated_at: Generated<Timestamp>;
  user_id: number;
}

export interface SyndicationFeedActions {
  action: string;
  actor_id: number | null;
  community_id: number;
  created_at: Generated<Timestamp>;
  detail: Generated<string>;
  feed_id: number | null;
  feed_slug: string;
  id: Generated<number>;
}

export interface SyndicationFeedFilters {
  community_id: number;
  feed_id: number;
  kind: SyndicationFilterKind;
  value: string;
}

export interface SyndicationFeeds {
  community_id: number;
  content_changed_at: Timestamp | null;
  content_hash: string | null;
  created_at: Generated<Timestamp>;
  created_by: number | null;
  description: Generated<string>;
  enabled: Generated<boolean>;
  id: Generated<number>;
  item_limit: Generated<number>;
  slug: string;
  title: string;
  updated_at: Generated<Timestamp>;
}

export interface TeamMessages {
  audience: ColumnType<TeamMessageAudience, string, string>;
  audience_count: Generated<number>;
  body_html: Generated<string>;
  community_id: number;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  recipients_ready: Generated<boolean>;
  scheduled_at: Timestamp | null;
  sender_id: number | null;
  sent_at: Timestamp | null;
  status: ColumnType<TeamMessageStatus, TeamMessageStatus | undefined, TeamMessageStatus>;
  subject: string;
  updated_at: Generated<Timestamp>;
}

export interface Users {
  created_at: Generated<Timestamp>;
  email: string;
  first_name: string;
  id: Generated<number>;
  is_active: Generated<boolean>;
  last_name: string;
  mobile_country_code: string | null;
  mobile_number: string | null;
  password_hash: string | null;
  updated_at: Generated<Timestamp>;
  username: string;
}

export interface DB {
  ad_daily_counts: AdDailyCounts;
  ad_images: AdImages;
  ads: Ads;
  amplification_orders: AmplificationOrders;
  amplification_packages: AmplificationPackages;
  article_agreements: ArticleAgreements;
  article_feedback: ArticleFeedback;
  article_revisions: ArticleRevisions;
  article_status_events: ArticleStatusEvents;
  article_user_settings: ArticleUserSettings;
  articles: Articles;
  auth_events: AuthEvents;
  auth_lockouts: AuthLockouts;
  avatar_images: AvatarImages;
  badge_awards: BadgeAwards;
  bank_assets: BankAssets;
  bank_collection_items: BankCollectionItems;
  bank_collections: BankCollections;
  bank_dirty: BankDirty;
  bank_entries: BankEntries;
  bank_item_tags: BankItemTags;
  bank_tags: BankTags;
  bank_usage: BankUsage;
  blackout_windows: BlackoutWindows;
  card_auth_log: CardAuthLog;
  communities: Communities;
  community_hosts: CommunityHosts;
  conversation_members: ConversationMembers;
  conversation_messages: ConversationMessages;
  conversations: Conversations;
  copy_scans: CopyScans;
  ep_answer_revisions: EpAnswerRevisions;
  ep_answers: EpAnswers;
  ep_batches: EpBatches;
  ep_panel_members: EpPanelMembers;
  ep_panels: EpPanels;
  ep_questions: EpQuestions;
  ep_roundup_answers: EpRoundupAnswers;
  ep_roundup_moves: EpRoundupMoves;
  ep_roundups: EpRoundups;
  feed_announcements: FeedAnnouncements;
  feed_events: FeedEvents;
  feed_featured: FeedFeatured;
  feed_images: FeedImages;
  feed_seen: FeedSeen;
  forum_actions: ForumActions;
  forum_follows: ForumFollows;
  forum_likes: ForumLikes;
  forum_post_topics: ForumPostTopics;
  forum_posts: ForumPosts;
  forum_reactions: ForumReactions;
  forum_reads: ForumReads;
  forum_replies: ForumReplies;
  forum_reply_notices: ForumReplyNotices;
  forum_reports: ForumReports;
  forum_topics: ForumTopics;
  group_actions: GroupActions;
  group_images: GroupImages;
  group_join_requests: GroupJoinRequests;
  group_members: GroupMembers;
  groups: Groups;
  insight_days: InsightDays;
  insight_event_counts: InsightEventCounts;
  insight_event_periods: InsightEventPeriods;
  insight_events: InsightEvents;
  insight_member_days: InsightMemberDays;
  insight_rollups: InsightRollups;
  introduction_requests: IntroductionRequests;
  member_badges: MemberBadges;
  member_notes: MemberNotes;
  membership_plans: MembershipPlans;
  memberships: Memberships;
  message_events: MessageEvents;
  message_recipients: MessageRecipients;
  notification_deliveries: NotificationDeliveries;
  notification_preferences: NotificationPreferences;
  notification_settings: NotificationSettings;
  notifications: Notifications;
  offer_redemptions: OfferRedemptions;
  offer_status_events: OfferStatusEvents;
  offers: Offers;
  onboardings: Onboardings;
  one_time_codes: OneTimeCodes;
  partner_logos: PartnerLogos;
  partners: Partners;
  password_tokens: PasswordTokens;
  payment_error_logs: PaymentErrorLogs;
  payment_ledger: PaymentLedger;
  payment_settings: PaymentSettings;
  push_tokens: PushTokens;
  sandbox_profiles: SandboxProfiles;
  sandbox_tokens: SandboxTokens;
  sandbox_transactions: SandboxTransactions;
  saved_payments: SavedPayments;
  sessions: Sessions;
  staff_actions: StaffActions;
  statements: Statements;
  subscriptions: Subscriptions;
  support_contacts: SupportContacts;
  syndication_feed_actions: SyndicationFeedActions;
  syndication_feed_filters: SyndicationFeedFilters;
  syndication_feeds: SyndicationFeeds;
  team_messages: TeamMessages;
  users: Users;
}
