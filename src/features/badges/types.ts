import type { BadgeKey } from './catalogue.ts';

/** A badge a member holds, as pages, the profile and GraphQL show it (names in the member's words). */
export type BadgeView = {
  key: BadgeKey;
  /** The years of membership for `years`; 0 for a badge without levels. */
  level: number;
  name: string;
  /** How it is earned (or why it is given). */
  how: string;
  awardedAt: Date;
  /** Awarded by the community's staff (not earned from the member's history). */
  byStaff: boolean;
};

/** A badge the member does not hold yet and can still earn, with how. */
export type BadgeToEarn = { key: BadgeKey; level: number; name: string; how: string };

/** /badges: what the member holds, and what they can still earn. */
export type BadgesPageData = { held: BadgeView[]; toEarn: BadgeToEarn[] };

/** A member as the staff's badges tab lists them. */
export type BadgeMemberRow = { userId: number; name: string; email: string; staffBadges: string[] };

/** A staff badge held, with its revoke form. */
export type StaffBadgeHolder = { userId: number; name: string; email: string; badge: BadgeKey; badgeName: string; awardedAt: Date };

/** One line of the staff's log of awards and revocations. */
export type BadgeLogRow = { id: number; at: Date; action: 'award' | 'revoke'; badgeName: string; member: string; memberId: number; actor: string | null; reason: string };

/** The staff's badges tab. */
export type StaffBadgesData = {
  badges: { key: BadgeKey; name: string }[];
  holders: StaffBadgeHolder[];
  q: string;
  candidates: BadgeMemberRow[] | null;
  log: BadgeLogRow[];
  /** The log's next page (the last row's id), or null. */
  next: string | null;
  after: string | null;
};

/** A staff form refused: which one, what was typed, and the messages next to its fields. */
export type BadgeStaffForm = { key: string; values: Record<string, string>; errors: Record<string, string> };
