/**
 * The badges a member can hold (issue 27): a small fixed list in code, their names and how each is
 * earned in locales/en/badges.json (`badges.catalogue.<key>.name` / `.how`).
 *
 * - `earned` badges come from the member's own history in the community (evaluate.ts reads it): the
 *   founding flag, the moderator flag, published articles, answers in a published roundup, and the
 *   years since the membership began (levels 1, 3, 5 and 10).
 * - `staff` badges are awarded and revoked by the community's staff (/admin/marketplace/badges), each
 *   change logged with who, when and why.
 */

export const EARNED_BADGES = ['founding_member', 'moderator', 'first_article', 'five_articles', 'expert_contributor', 'years'] as const;
export const STAFF_BADGES = ['speaker', 'mentor', 'volunteer'] as const;

export type EarnedBadge = (typeof EARNED_BADGES)[number];
export type StaffBadge = (typeof STAFF_BADGES)[number];
export type BadgeKey = EarnedBadge | StaffBadge;

/** The years of membership that make a badge (a level each). */
export const YEAR_LEVELS = [1, 3, 5, 10] as const;

/** How many published articles the second article badge takes. */
export const FIVE_ARTICLES = 5;

export const ALL_BADGES: readonly BadgeKey[] = [...EARNED_BADGES, ...STAFF_BADGES];

export const isStaffBadge = (v: unknown): v is StaffBadge => typeof v === 'string' && (STAFF_BADGES as readonly string[]).includes(v);
export const isBadgeKey = (v: unknown): v is BadgeKey => typeof v === 'string' && (ALL_BADGES as readonly string[]).includes(v);

/** The most characters of a staff award's or revocation's reason. */
export const REASON_MAX = 300;
