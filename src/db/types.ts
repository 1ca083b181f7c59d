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
}

export type Community = Selectable<CommunitiesTable>;
export type NewCommunity = Insertable<CommunitiesTable>;
export type User = Selectable<UsersTable>;
export type Membership = Selectable<MembershipsTable>;
export type Ad = Selectable<AdsTable>;
