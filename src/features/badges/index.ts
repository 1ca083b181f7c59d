/**
 * The badges' public face: the only module other areas import from this area. The events that may
 * earn a badge call `enqueueBadgeCheck` in their own transaction; the members' profile shows
 * `memberBadges`. (Routes, GraphQL, jobs and the seed are registered through register.ts.)
 */
export { enqueueBadgeCheck } from './evaluate.ts';
export { memberBadges } from './read.ts';
export type { BadgeReadDeps } from './read.ts';
export type { BadgeKey } from './catalogue.ts';
export type { BadgeLogRow, BadgeMemberRow, BadgesPageData, BadgeStaffForm, BadgeToEarn, BadgeView, StaffBadgeHolder, StaffBadgesData } from './types.ts';
