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
}

export type Community = Selectable<CommunitiesTable>;
export type NewCommunity = Insertable<CommunitiesTable>;
export type User = Selectable<UsersTable>;
export type Membership = Selectable<MembershipsTable>;
export type Ad = Selectable<AdsTable>;
