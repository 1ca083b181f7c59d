/**
 * Types the groups area shares with its views, its GraphQL and other areas (types only).
 */
import type { GroupJoinStatus, GroupRole, GroupVisibility } from '#src/db/types.ts';
import type { MemberSnapshot } from '#src/features/members/index.ts';

export type { GroupJoinStatus, GroupRole, GroupVisibility };

export type GroupImage = { kind: 'upload' | 'static'; path: string } | null;

/** A group as a list shows it. */
export type GroupCard = {
  id: number;
  name: string;
  slug: string;
  excerpt: string;
  image: GroupImage;
  visibility: GroupVisibility;
  memberCount: number;
  /** The viewer's place: chair, member, or none. */
  myRole: GroupRole | null;
  /** The viewer asked to join and waits. */
  requested: boolean;
};

/** What the viewer may do in a group (decided by the service). */
export type GroupAbilities = {
  /** Read its discussion. */
  canRead: boolean;
  /** Post and reply in its discussion. */
  canPost: boolean;
  /** Ask to join (a public group, not yet a member, no request waiting). */
  canRequest: boolean;
  /** A chair (or staff): decide on requests, moderate the discussion. */
  canChair: boolean;
};

export type GroupPerson = MemberSnapshot & { role: GroupRole };

export type JoinRequestView = { id: number; member: MemberSnapshot; createdAt: Date };

/** One group's page. */
export type GroupView = GroupCard & {
  aboutHtml: string;
  chairs: MemberSnapshot[];
  members: MemberSnapshot[];
  abilities: GroupAbilities;
  /** Whether the community has the forum, and so groups have a discussion. */
  discussion: boolean;
  /** Waiting requests (for chairs and staff only; else empty). */
  requests: JoinRequestView[];
};

/** The staff's form of a group, as typed. */
export type GroupForm = { name: string; slug: string; about: string; visibility: string };

export type StaffGroupRow = { id: number; name: string; slug: string; visibility: GroupVisibility; chairCount: number; memberCount: number; pendingCount: number; updatedAt: Date };

export type StaffGroupPerson = { userId: number; name: string; email: string; companyName: string | null; role: GroupRole; active: boolean; addedAt: Date };

export type GroupActionRow = { id: number; actorName: string | null; action: string; detail: string; createdAt: Date };

export type StaffGroupDetail = {
  id: number;
  name: string;
  slug: string;
  aboutHtml: string;
  about: string;
  image: GroupImage;
  visibility: GroupVisibility;
  people: StaffGroupPerson[];
  log: GroupActionRow[];
};

/** A refused staff form as its page shows it again. */
export type GroupsStaffForm = { key: string; values: Record<string, string>; errors: Record<string, string> };
