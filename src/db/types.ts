import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamp with a database default: optional on insert. */
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type NavLink = { label: string; link: string };

export interface CommunitiesTable {
  id: Generated<number>;
  code: string;
  name: string;
  app_name: string;
  familiar_name: string;
  icon: string | null;
  nav_more: ColumnType<NavLink[], string | undefined, string>;
  forum_enabled: Generated<boolean>;
  /** Every new forum post waits for a moderator (migration 0012). */
  forum_all_posts_wait: Generated<boolean>;
  concierge_email: string;
  concierge_phone: string;
  exec_link: string | null;
  copyright_holder: string;
  link_terms: string | null;
  link_privacy: string | null;
  link_membership_info: string | null;
  google_analytics_id: string | null;
  google_tag_manager_id: string | null;
  auth_slug: string | null;
  auth_background_image: string | null;
  auth_play_store_link: string | null;
  auth_app_store_link: string | null;
  auth_logo: string | null;
  auth_text_color: string | null;
  article_terms: string | null;
  article_guidelines: string | null;
  article_application_url: string | null;
  color_primary: Generated<string>;
  color_accent: Generated<string>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface CommunityHostsTable {
  host: string;
  community_id: number;
}

export interface UsersTable {
  id: Generated<number>;
  email: string;
  username: string;
  password_hash: string | null;
  first_name: string;
  last_name: string;
  mobile_country_code: string | null;
  mobile_number: string | null;
  is_active: Generated<boolean>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export type Role = 'ADMIN' | 'MEMBER';
export type Gate = 'app' | 'onboarding';

export interface MembershipsTable {
  id: Generated<number>;
  community_id: number;
  user_id: number;
  roles: ColumnType<Role[], Role[] | undefined, Role[]>;
  gate: ColumnType<Gate, Gate | undefined, Gate>;
  is_active: Generated<boolean>;
  is_moderator: Generated<boolean>;
  company_name: string | null;
  job_title: string | null;
  location_name: string | null;
  location_familiar_name: string | null;
  avatar_url: string | null;
  public_url: string | null;
  pronouns: string | null;
  display_pronouns: Generated<boolean>;
  health: string | null;
  standing: string | null;
  is_founding: Generated<boolean>;
  vertical: string | null;
  membership_tier: string | null;
  joined_at: DefaultTimestamp;
  last_accessed_at: Timestamp | null;
  industry: string | null;
  company_description: string | null;
  company_area_of_focus: string | null;
  company_employee_count: number | null;
  link_linkedin: string | null;
  link_twitter: string | null;
  link_facebook: string | null;
  link_instagram: string | null;
  link_crunchbase: string | null;
  link_angellist: string | null;
  link_website: string | null;
  /** The stored avatar (avatar_images.key); avatar_url is then its default-size address. */
  avatar_key: string | null;
  profile_updated_at: Timestamp | null;
  /** Kept by a trigger (migration 0006): lower(last first), the directory's order. */
  sort_name: ColumnType<string, never, never>;
  /** Kept by a trigger: what the trigram search compares. */
  search_text: ColumnType<string, never, never>;
  /** Kept by a trigger: the weighted full-text document (name A, company B, title C, location and industry D). */
  search_vector: ColumnType<string, never, never>;
}

export interface SessionsTable {
  id: string;
  community_id: number;
  user_id: number;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  refresh_token_hash: string | null;
  previous_refresh_token_hash: string | null;
  refreshed_at: Timestamp | null;
  /** Written at most every few minutes per session (the admin's "last accessed on any device"). */
  last_accessed_at: Timestamp | null;
  /** The browser or app that signed in (its User-Agent), for the member's list of sessions. */
  user_agent: string | null;
}

export type OtcChannel = 'EMAIL' | 'SMS';

export interface OneTimeCodesTable {
  id: Generated<number>;
  community_id: number;
  user_id: number;
  channel: OtcChannel;
  destination: string;
  code_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface PasswordTokensTable {
  id: Generated<number>;
  community_id: number;
  user_id: number;
  purpose: 'reset' | 'setup';
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface AuthEventsTable {
  id: Generated<number>;
  key: string;
  kind: string;
  occurred_at: Timestamp;
}

export interface AuthLockoutsTable {
  key: string;
  until: Timestamp;
  reason: string;
}

export interface AdsTable {
  id: Generated<number>;
  community_id: number;
  image_url: string;
  link: string;
  alt_text: string;
  shape: 'MASTHEAD' | 'MEDIUM_SQUARE';
  is_active: Generated<boolean>;
  created_at: DefaultTimestamp;
}

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

export interface ArticlesTable {
  id: Generated<number>;
  community_id: number;
  author_id: number;
  editor_id: number | null;
  status: ColumnType<ArticleStatusValue, ArticleStatusValue | undefined, ArticleStatusValue>;
  status_updated_at: Timestamp;
  current_revision_id: number | null;
  scheduled_date: Timestamp | null;
  published_date: Timestamp | null;
  article_url: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ArticleRevisionsTable {
  id: Generated<number>;
  community_id: number;
  article_id: number;
  author_id: number;
  title: string;
  content: string;
  word_count: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ArticleStatusEventsTable {
  id: Generated<number>;
  community_id: number;
  article_id: number;
  from_status: ArticleStatusValue;
  to_status: ArticleStatusValue;
  actor_id: number | null;
  revision_id: number | null;
  note: string | null;
  created_at: Timestamp;
}

export interface ArticleFeedbackTable {
  id: Generated<number>;
  community_id: number;
  article_id: number;
  author_id: number;
  remark: string;
  created_at: Timestamp;
  read_at: Timestamp | null;
}

export interface ArticleUserSettingsTable {
  id: Generated<number>;
  community_id: number;
  user_id: number;
  byline: string;
  updated_at: Timestamp;
}

export interface ArticleAgreementsTable {
  id: Generated<number>;
  community_id: number;
  user_id: number;
  kind: 'PRODUCT' | 'SUBMISSION' | 'APPROVAL';
  article_id: number | null;
  created_at: Timestamp;
}

export interface BlackoutWindowsTable {
  id: Generated<number>;
  community_id: number;
  starts_on: ColumnType<string, string, string>;
  ends_before: ColumnType<string, string, string>;
}

export interface CopyScansTable {
  id: Generated<number>;
  community_id: number;
  article_id: number;
  revision_id: number;
  export_id: string | null;
  status: string;
  identical_words: number | null;
  minor_changed_words: number | null;
  related_meaning_words: number | null;
  aggregated_score: number | null;
  ai_probability: number | null;
  total_words: number | null;
  total_excluded: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface NotificationsTable {
  id: Generated<number>;
  community_id: number;
  user_id: number;
  url: string;
  message: string;
  created_at: Timestamp;
  read_at: Timestamp | null;
  viewed_at: Timestamp | null;
  /** The preference option it belongs to (src/features/notifications/kinds.ts). */
  kind: ColumnType<string, string | undefined, string>;
  /** Whether it shows in the list and the bell: the member's web channel for its kind. */
  shown: Generated<boolean>;
}

export type NotificationChannel = 'email' | 'web' | 'push';

export interface NotificationPreferencesTable {
  community_id: number;
  user_id: number;
  option: string;
  channel: NotificationChannel;
  selected: boolean;
  updated_at: DefaultTimestamp;
}

export interface NotificationSettingsTable {
  community_id: number;
  user_id: number;
  email_digest: Generated<boolean>;
  digest_sent_at: Timestamp | null;
  updated_at: DefaultTimestamp;
}

export type DeliveryStatus = 'sent' | 'digest' | 'failed';

export interface NotificationDeliveriesTable {
  notification_id: number;
  channel: string;
  target: string;
  community_id: number;
  user_id: number;
  status: DeliveryStatus;
  created_at: DefaultTimestamp;
  sent_at: Timestamp | null;
}

export type PushPlatform = 'ios' | 'fcm' | 'web';

export interface PushTokensTable {
  id: Generated<number>;
  community_id: number;
  user_id: number;
  /** The device token (ios, fcm) or the Web Push subscription's endpoint (web). */
  token: string;
  platform: PushPlatform;
  /** A Web Push subscription's keys (p256dh, auth). */
  keys: ColumnType<{ p256dh: string; auth: string } | null, string | null | undefined, string | null>;
  created_at: DefaultTimestamp;
  last_used_at: Timestamp | null;
  /** A Web Push subscription's session (sessions.id, the session id's hash): signing out deletes the row. */
  session_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export type SupportContactType = 'ea' | 'pr';

export interface SupportContactsTable {
  id: Generated<number>;
  community_id: number;
  user_id: number;
  type: SupportContactType;
  name: string;
  email: string | null;
  mobile_country_code: string | null;
  mobile_number: string | null;
  office_country_code: string | null;
  office_number: string | null;
  office_extension: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface AvatarImagesTable {
  key: string;
  size: number;
  community_id: number;
  user_id: number;
  content_type: string;
  bytes: Buffer;
  created_at: DefaultTimestamp;
}

export type IntroductionStatus = 'PENDING' | 'APPROVED' | 'DECLINED';

export interface IntroductionRequestsTable {
  id: Generated<number>;
  community_id: number;
  requester_id: number;
  target_id: number;
  reason: string;
  status: ColumnType<IntroductionStatus, IntroductionStatus | undefined, IntroductionStatus>;
  reviewer_id: number | null;
  /** The approval's optional note, or the decline's reason. */
  review_note: string | null;
  created_at: DefaultTimestamp;
  reviewed_at: Timestamp | null;
}

export interface MemberNotesTable {
  id: Generated<number>;
  community_id: number;
  member_id: number;
  author_id: number | null;
  body: string;
  created_at: DefaultTimestamp;
}

export interface StaffActionsTable {
  id: Generated<number>;
  community_id: number;
  actor_id: number | null;
  member_id: number | null;
  action: string;
  detail: string | null;
  created_at: DefaultTimestamp;
}

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

export interface PaymentSettingsTable {
  community_id: number;
  public_key: string;
  sub_domain: string;
  currency: ColumnType<string, string | undefined, string>;
  accepted_cards: ColumnType<CardType[], CardType[] | undefined, CardType[]>;
  show_address_step: Generated<boolean>;
  onboarding_disabled: Generated<boolean>;
  updated_at: DefaultTimestamp;
}

export interface MembershipPlansTable {
  id: Generated<number>;
  community_id: number;
  name: string;
  description: string;
  term_months: 12 | 24;
  dues_cents: number;
  initiation_fee_cents: ColumnType<number, number | undefined, number>;
  savings_cents: ColumnType<number, number | undefined, number>;
  currency: ColumnType<string, string | undefined, string>;
  deal_id: string;
  product_id: string;
  price_point_id: string;
  active: Generated<boolean>;
}

export interface SubscriptionsTable {
  id: string;
  community_id: number;
  user_id: number;
  plan_id: number | null;
  status: ColumnType<SubscriptionStatus, SubscriptionStatus | undefined, SubscriptionStatus>;
  outstanding_cents: ColumnType<number, number | undefined, number>;
  currency: ColumnType<string, string | undefined, string>;
  period_started_at: Timestamp | null;
  renews_at: Timestamp | null;
  processor_ref: string | null;
  dunning_count: ColumnType<number, number | undefined, number>;
  next_dunning_at: Timestamp | null;
  past_due_since: Timestamp | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface OnboardingsTable {
  id: string;
  community_id: number;
  user_id: number;
  plan_id: number | null;
  current_step: ColumnType<OnboardingStep, OnboardingStep | undefined, OnboardingStep>;
  paid_at: Timestamp | null;
  credentials_at: Timestamp | null;
  profile_at: Timestamp | null;
  contact_at: Timestamp | null;
  team_at: Timestamp | null;
  expert_panel_at: Timestamp | null;
  expert_question_at: Timestamp | null;
  address_at: Timestamp | null;
  address: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
  completed_at: Timestamp | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface SavedPaymentsTable {
  id: Generated<number>;
  community_id: number;
  user_id: number;
  processor_ref: string;
  first_name: string;
  last_name: string;
  expiration_month: number;
  expiration_year: number;
  last4: string;
  card_type: CardType;
  status: ColumnType<SavedPaymentStatus, SavedPaymentStatus | undefined, SavedPaymentStatus>;
  is_default: Generated<boolean>;
  created_at: DefaultTimestamp;
  deleted_at: Timestamp | null;
}

export interface PaymentLedgerTable {
  id: Generated<number>;
  community_id: number;
  user_id: number;
  kind: LedgerKind;
  purpose: LedgerPurpose | null;
  status: LedgerStatus;
  amount_cents: ColumnType<number, number | undefined, number>;
  currency: ColumnType<string, string | undefined, string>;
  idempotency_key: string | null;
  subscription_id: string | null;
  saved_payment_id: number | null;
  related_ledger_id: number | null;
  processor_ref: string | null;
  error_code: string | null;
  description: string;
  items: ColumnType<LineItem[], string | undefined, string>;
  actor_id: number | null;
  created_at: DefaultTimestamp;
  settled_at: Timestamp | null;
}

export interface CardAuthLogTable {
  id: Generated<number>;
  community_id: number;
  saved_payment_id: number;
  ledger_id: number | null;
  attempt_amount_cents: number;
  currency: ColumnType<string, string | undefined, string>;
  attempted_at: Timestamp;
  auth_response_code: number | null;
  reversal_http_code: number | null;
}

export interface StatementsTable {
  id: Generated<number>;
  community_id: number;
  user_id: number;
  ledger_id: number;
  name: string;
  kind: StatementKind;
  purchased_at: Timestamp;
  amount_cents: number;
  currency: string;
  items: ColumnType<LineItem[], string, string>;
  /** The card as the statement shows it, e.g. "VISA ending 4242". */
  payment_method: string;
}

export interface AmplificationPackagesTable {
  id: Generated<number>;
  community_id: number;
  name: string;
  description: string;
  price_cents: number;
  currency: ColumnType<string, string | undefined, string>;
  sort_order: ColumnType<number, number | undefined, number>;
  active: Generated<boolean>;
}

export interface AmplificationOrdersTable {
  id: Generated<number>;
  community_id: number;
  user_id: number;
  article_id: number;
  package_id: number;
  ledger_id: number;
  created_at: DefaultTimestamp;
}

export interface PaymentErrorLogsTable {
  id: Generated<number>;
  community_id: number;
  user_id: number | null;
  source: 'client' | 'script';
  category: string | null;
  message: string;
  email: string | null;
  value: string | null;
  uri: string | null;
  created_at: DefaultTimestamp;
}

/** The sandbox card provider's own books (it stands for another host; our code never reads them). */
export interface SandboxTokensTable {
  token: string;
  public_key: string;
  first_name: string;
  last_name: string;
  last4: string;
  card_type: CardType;
  exp_month: number;
  exp_year: number;
  zip: string;
  behaviour: string;
  status: 'ready' | 'challenge' | 'failed';
  created_at: Timestamp;
  used_at: Timestamp | null;
}

export interface SandboxProfilesTable {
  id: string;
  sub_domain: string;
  customer_ref: string;
  idempotency_key: string;
  token: string;
  first_name: string;
  last_name: string;
  last4: string;
  card_type: CardType;
  exp_month: number;
  exp_year: number;
  behaviour: string;
  outcome: ColumnType<unknown, string, string>;
  created_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface SandboxTransactionsTable {
  id: string;
  sub_domain: string;
  idempotency_key: string;
  kind: 'charge' | 'refund' | 'verification';
  profile_id: string | null;
  related_id: string | null;
  amount_cents: number;
  currency: string;
  memo: string;
  outcome: ColumnType<unknown, string, string>;
  response_code: number | null;
  reversal_http_code: number | null;
  created_at: Timestamp;
}

/** Expert panels (migration 0014). */
export type EpBatchStatus = 'draft' | 'sent';
export type EpAnswerStatus = 'open' | 'cant_answer' | 'ignored' | 'submitted' | 'accepted' | 'declined';
export type RoundupStatus = 'DRAFT' | 'EDITOR_REVIEW' | 'READY_FOR_PUBLISHING' | 'FINAL';

export interface EpPanelsTable {
  id: Generated<number>;
  community_id: number;
  name: string;
  topic: Generated<string>;
  min_words: Generated<number>;
  max_words: Generated<number>;
  archived_at: Timestamp | null;
  created_by: number | null;
  created_at: DefaultTimestamp;
}

export interface EpPanelMembersTable {
  panel_id: number;
  user_id: number;
  community_id: number;
  added_by: number | null;
  added_at: DefaultTimestamp;
}

export interface EpBatchesTable {
  id: Generated<number>;
  community_id: number;
  panel_id: number;
  title: string;
  deadline_at: Timestamp;
  status: ColumnType<EpBatchStatus, EpBatchStatus | undefined, EpBatchStatus>;
  sent_at: Timestamp | null;
  created_by: number | null;
  created_at: DefaultTimestamp;
}

export interface EpQuestionsTable {
  id: Generated<number>;
  community_id: number;
  batch_id: number;
  panel_id: number;
  title: string;
  brief_html: Generated<string>;
  guidelines_html: Generated<string>;
  position: Generated<number>;
  closed_at: Timestamp | null;
  closed_by: number | null;
  created_at: DefaultTimestamp;
}

export interface EpAnswersTable {
  id: Generated<number>;
  community_id: number;
  question_id: number;
  user_id: number;
  status: ColumnType<EpAnswerStatus, EpAnswerStatus | undefined, EpAnswerStatus>;
  body_html: Generated<string>;
  body_text: Generated<string>;
  word_count: Generated<number>;
  submitted_at: Timestamp | null;
  edited_at: Timestamp | null;
  review_started_at: Timestamp | null;
  reviewer_id: number | null;
  decision_note: string | null;
  decided_at: Timestamp | null;
  /** The copy scan's figures (jsonb). */
  scan: ColumnType<unknown, string | null | undefined, string | null>;
  sent_at: DefaultTimestamp;
  reminded_at: Timestamp | null;
  status_at: DefaultTimestamp;
  /** The member was told of this question by the invitation job (migration 0016). */
  invited_at: Timestamp | null;
}

export interface EpAnswerRevisionsTable {
  id: Generated<number>;
  community_id: number;
  answer_id: number;
  editor_id: number | null;
  body_html: string;
  word_count: number;
  created_at: DefaultTimestamp;
}

export interface EpRoundupsTable {
  id: Generated<number>;
  community_id: number;
  question_id: number;
  title: string;
  intro_html: Generated<string>;
  status: ColumnType<RoundupStatus, RoundupStatus | undefined, RoundupStatus>;
  slug: string | null;
  published_at: Timestamp | null;
  created_by: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface EpRoundupAnswersTable {
  roundup_id: number;
  answer_id: number;
  community_id: number;
  position: number;
}

export interface EpRoundupMovesTable {
  id: Generated<number>;
  community_id: number;
  roundup_id: number;
  from_status: RoundupStatus;
  to_status: RoundupStatus;
  actor_id: number | null;
  created_at: DefaultTimestamp;
}

/** The forum (migration 0012). */
export type ForumStatus = 'published' | 'pending' | 'rejected' | 'removed';
export type ForumTargetKind = 'post' | 'reply';

export interface ForumTopicsTable {
  id: Generated<number>;
  community_id: number;
  name: string;
  position: Generated<number>;
  archived_at: Timestamp | null;
  created_at: DefaultTimestamp;
}

export interface ForumPostsTable {
  id: Generated<number>;
  community_id: number;
  author_id: number;
  title: string;
  body_html: string;
  body_text: string;
  status: ColumnType<ForumStatus, ForumStatus | undefined, ForumStatus>;
  reply_count: Generated<number>;
  like_count: Generated<number>;
  report_count: Generated<number>;
  last_activity_at: DefaultTimestamp;
  pinned_at: Timestamp | null;
  locked_at: Timestamp | null;
  moderation_note: string | null;
  moderated_by: number | null;
  moderated_at: Timestamp | null;
  created_at: DefaultTimestamp;
  edited_at: Timestamp | null;
  deleted_at: Timestamp | null;
  /** Generated (title weight A, text weight B); never written. */
  search: ColumnType<string, never, never>;
}

export interface ForumPostTopicsTable {
  post_id: number;
  topic_id: number;
  community_id: number;
}

export interface ForumRepliesTable {
  id: Generated<number>;
  community_id: number;
  post_id: number;
  author_id: number;
  body_html: string;
  body_text: string;
  status: ColumnType<ForumStatus, ForumStatus | undefined, ForumStatus>;
  like_count: Generated<number>;
  report_count: Generated<number>;
  moderation_note: string | null;
  moderated_by: number | null;
  moderated_at: Timestamp | null;
  created_at: DefaultTimestamp;
  edited_at: Timestamp | null;
  deleted_at: Timestamp | null;
}

export interface ForumLikesTable {
  community_id: number;
  target_kind: ForumTargetKind;
  target_id: number;
  user_id: number;
  created_at: DefaultTimestamp;
}

export interface ForumReactionsTable {
  community_id: number;
  target_kind: ForumTargetKind;
  target_id: number;
  user_id: number;
  reaction: string;
  created_at: DefaultTimestamp;
}

export interface ForumFollowsTable {
  community_id: number;
  post_id: number;
  user_id: number;
  created_at: DefaultTimestamp;
}

/** One member heard of one published reply (as a follower or mentioned): the notice job's dedupe. */
export interface ForumReplyNoticesTable {
  community_id: number;
  reply_id: number;
  user_id: number;
  created_at: DefaultTimestamp;
}

export interface ForumReportsTable {
  id: Generated<number>;
  community_id: number;
  target_kind: ForumTargetKind;
  target_id: number;
  post_id: number;
  reporter_id: number;
  reason: string;
  description: Generated<string>;
  created_at: DefaultTimestamp;
  resolved_at: Timestamp | null;
  resolved_by: number | null;
  resolution: string | null;
}

export interface ForumActionsTable {
  id: Generated<number>;
  community_id: number;
  actor_id: number | null;
  action: string;
  target_kind: string;
  target_id: number;
  note: string | null;
  created_at: DefaultTimestamp;
}

export interface Database {
  communities: CommunitiesTable;
  community_hosts: CommunityHostsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  ads: AdsTable;
  one_time_codes: OneTimeCodesTable;
  password_tokens: PasswordTokensTable;
  auth_events: AuthEventsTable;
  auth_lockouts: AuthLockoutsTable;
  articles: ArticlesTable;
  article_revisions: ArticleRevisionsTable;
  article_status_events: ArticleStatusEventsTable;
  article_feedback: ArticleFeedbackTable;
  article_user_settings: ArticleUserSettingsTable;
  article_agreements: ArticleAgreementsTable;
  blackout_windows: BlackoutWindowsTable;
  copy_scans: CopyScansTable;
  notifications: NotificationsTable;
  avatar_images: AvatarImagesTable;
  introduction_requests: IntroductionRequestsTable;
  member_notes: MemberNotesTable;
  staff_actions: StaffActionsTable;
  notification_preferences: NotificationPreferencesTable;
  notification_settings: NotificationSettingsTable;
  notification_deliveries: NotificationDeliveriesTable;
  push_tokens: PushTokensTable;
  support_contacts: SupportContactsTable;
  payment_settings: PaymentSettingsTable;
  membership_plans: MembershipPlansTable;
  subscriptions: SubscriptionsTable;
  onboardings: OnboardingsTable;
  saved_payments: SavedPaymentsTable;
  payment_ledger: PaymentLedgerTable;
  card_auth_log: CardAuthLogTable;
  statements: StatementsTable;
  amplification_packages: AmplificationPackagesTable;
  amplification_orders: AmplificationOrdersTable;
  payment_error_logs: PaymentErrorLogsTable;
  sandbox_tokens: SandboxTokensTable;
  sandbox_profiles: SandboxProfilesTable;
  sandbox_transactions: SandboxTransactionsTable;
  forum_topics: ForumTopicsTable;
  forum_posts: ForumPostsTable;
  forum_post_topics: ForumPostTopicsTable;
  forum_replies: ForumRepliesTable;
  forum_likes: ForumLikesTable;
  forum_reactions: ForumReactionsTable;
  forum_follows: ForumFollowsTable;
  forum_reply_notices: ForumReplyNoticesTable;
  forum_reports: ForumReportsTable;
  forum_actions: ForumActionsTable;
  ep_panels: EpPanelsTable;
  ep_panel_members: EpPanelMembersTable;
  ep_batches: EpBatchesTable;
  ep_questions: EpQuestionsTable;
  ep_answers: EpAnswersTable;
  ep_answer_revisions: EpAnswerRevisionsTable;
  ep_roundups: EpRoundupsTable;
  ep_roundup_answers: EpRoundupAnswersTable;
  ep_roundup_moves: EpRoundupMovesTable;
}

export type Community = Selectable<CommunitiesTable>;
export type NewCommunity = Insertable<CommunitiesTable>;
export type User = Selectable<UsersTable>;
export type Membership = Selectable<MembershipsTable>;
export type Ad = Selectable<AdsTable>;
