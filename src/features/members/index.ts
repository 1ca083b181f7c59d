/**
 * The members area's public face: the only module other areas (and views) import from. Profiles,
 * the directory, introductions and the staff's members area live behind it.
 */
export { adminView, matchingMemberIds, staffCommunity } from './admin.ts';
export type { MemberRow, MemberSearch, Staff, StaffCommunity } from './admin.ts';
export { setModerator } from './admin-actions.ts';
export type { MemberNote, StaffActionEntry } from './admin-actions.ts';
export { adminMembersDeps, staffOf } from './admin-request.ts';
export { userOut } from './directory-graphql.ts';
export type { DirectoryPage, FilterOptions, Suggestion } from './directory.ts';
export { introducedPair } from './introductions.ts';
export type { IntroductionView } from './introductions.ts';
export { findProfile, updateProfile } from './profile.ts';
export type { ProfileDraft } from './profile.ts';
export { activeMembersOf, listedMemberIds, pendingIntroductionsOf, snapshotJson, snapshotJsonObject, snapshotOfJson, snapshotsOf, SNAPSHOT_COLUMNS, toSnapshot, unknownMember } from './queries.ts';
export type { SnapshotRow } from './queries.ts';
export { AVATAR_SIZES, INDUSTRIES, SOCIAL_NETWORKS } from './types.ts';
export type { IntroductionStatus, MemberAdminView, MemberProfile, MemberSnapshot, ProfileArticle, SocialNetwork } from './types.ts';

// The staff's insights (issue 29): members who joined by day, the members whose health is computed, and setting it.
export { membersForHealth, newMembersByDay, setMembersHealth } from './figures.ts';
export { staffCommunities } from './admin.ts';
