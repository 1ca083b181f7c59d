import type { Insertable, Selectable } from 'kysely';
import type { DB } from './schema.ts';

/**
 * The database as the code names it. Hand-written, but only what is not the schema: the tables
 * themselves are src/db/schema.ts, generated from the migrated schema (`npm run db:types`; a test
 * fails when it drifts), and the values of constrained and jsonb columns are src/db/column-types.ts.
 * A new table needs no edit here unless the code names its row type.
 */

export type { NavLink, Role, Gate, OtcChannel, ArticleStatusValue, NotificationChannel, DeliveryStatus, PushPlatform, SupportContactType, IntroductionStatus, CardType, SavedPaymentStatus, SubscriptionStatus, LedgerKind, LedgerStatus, LedgerPurpose, StatementKind, LineItem, OnboardingStep, EpBatchStatus, EpAnswerStatus, RoundupStatus, ForumStatus, ForumTargetKind, OfferTier, OfferRedemption, OfferStatus, GroupVisibility, GroupRole, GroupJoinStatus, TeamMessageStatus, MessageRecipientState, TeamMessageAudience, FeedAudience, FeaturedKind, FeedSubject, BankKind, BankAssetKind, SyndicationItemType, SyndicationFilterKind, SyndicationFeedEntry, InsightDevice } from './column-types.ts';

/** Every table, by name (what `Kysely<Database>` takes). An interface, so that errors name it. */
export interface Database extends DB {}

/** Each table's columns, by the name the code has used for them. */
export type CommunitiesTable = DB['communities'];
export type CommunityHostsTable = DB['community_hosts'];
export type UsersTable = DB['users'];
export type MembershipsTable = DB['memberships'];
export type SessionsTable = DB['sessions'];
export type AdsTable = DB['ads'];
export type OneTimeCodesTable = DB['one_time_codes'];
export type PasswordTokensTable = DB['password_tokens'];
export type AuthEventsTable = DB['auth_events'];
export type AuthLockoutsTable = DB['auth_lockouts'];
export type ArticlesTable = DB['articles'];
export type ArticleRevisionsTable = DB['article_revisions'];
export type ArticleStatusEventsTable = DB['article_status_events'];
export type ArticleFeedbackTable = DB['article_feedback'];
export type ArticleUserSettingsTable = DB['article_user_settings'];
export type ArticleAgreementsTable = DB['article_agreements'];
export type BlackoutWindowsTable = DB['blackout_windows'];
export type CopyScansTable = DB['copy_scans'];
export type NotificationsTable = DB['notifications'];
export type AvatarImagesTable = DB['avatar_images'];
export type IntroductionRequestsTable = DB['introduction_requests'];
export type MemberNotesTable = DB['member_notes'];
export type StaffActionsTable = DB['staff_actions'];
export type NotificationPreferencesTable = DB['notification_preferences'];
export type NotificationSettingsTable = DB['notification_settings'];
export type NotificationDeliveriesTable = DB['notification_deliveries'];
export type PushTokensTable = DB['push_tokens'];
export type SupportContactsTable = DB['support_contacts'];
export type PaymentSettingsTable = DB['payment_settings'];
export type MembershipPlansTable = DB['membership_plans'];
export type SubscriptionsTable = DB['subscriptions'];
export type OnboardingsTable = DB['onboardings'];
export type SavedPaymentsTable = DB['saved_payments'];
export type PaymentLedgerTable = DB['payment_ledger'];
export type CardAuthLogTable = DB['card_auth_log'];
export type StatementsTable = DB['statements'];
export type AmplificationPackagesTable = DB['amplification_packages'];
export type AmplificationOrdersTable = DB['amplification_orders'];
export type PaymentErrorLogsTable = DB['payment_error_logs'];
export type SandboxTokensTable = DB['sandbox_tokens'];
export type SandboxProfilesTable = DB['sandbox_profiles'];
export type SandboxTransactionsTable = DB['sandbox_transactions'];
export type ForumTopicsTable = DB['forum_topics'];
export type ForumPostsTable = DB['forum_posts'];
export type ForumPostTopicsTable = DB['forum_post_topics'];
export type ForumRepliesTable = DB['forum_replies'];
export type ForumLikesTable = DB['forum_likes'];
export type ForumReactionsTable = DB['forum_reactions'];
export type ForumFollowsTable = DB['forum_follows'];
export type ForumReadsTable = DB['forum_reads'];
export type ForumReplyNoticesTable = DB['forum_reply_notices'];
export type ForumReportsTable = DB['forum_reports'];
export type ForumActionsTable = DB['forum_actions'];
export type EpPanelsTable = DB['ep_panels'];
export type EpPanelMembersTable = DB['ep_panel_members'];
export type EpBatchesTable = DB['ep_batches'];
export type EpQuestionsTable = DB['ep_questions'];
export type EpAnswersTable = DB['ep_answers'];
export type EpAnswerRevisionsTable = DB['ep_answer_revisions'];
export type EpRoundupsTable = DB['ep_roundups'];
export type EpRoundupAnswersTable = DB['ep_roundup_answers'];
export type EpRoundupMovesTable = DB['ep_roundup_moves'];
export type PartnersTable = DB['partners'];
export type OffersTable = DB['offers'];
export type ConversationsTable = DB['conversations'];
export type ConversationMembersTable = DB['conversation_members'];
export type ConversationMessagesTable = DB['conversation_messages'];
export type GroupsTable = DB['groups'];
export type TeamMessagesTable = DB['team_messages'];
export type MessageRecipientsTable = DB['message_recipients'];
export type MessageEventsTable = DB['message_events'];
export type FeedAnnouncementsTable = DB['feed_announcements'];
export type FeedFeaturedTable = DB['feed_featured'];
export type BankEntriesTable = DB['bank_entries'];
export type BankAssetsTable = DB['bank_assets'];

export type Community = Selectable<CommunitiesTable>;
export type NewCommunity = Insertable<CommunitiesTable>;
export type User = Selectable<UsersTable>;
export type Membership = Selectable<MembershipsTable>;
export type Ad = Selectable<AdsTable>;
export type Partner = Selectable<PartnersTable>;
export type Offer = Selectable<OffersTable>;
export type Group = Selectable<GroupsTable>;
