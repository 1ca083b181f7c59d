/**
 * The groups area's public face: what other areas use (the staff's messages write to a group's
 * people; the members' feed shows a group's announcements to its people) and the types its views
 * read. Routes, GraphQL, the demo seed and its errors are registered through register.ts, never
 * imported from here.
 */
export { groupAudience, groupChoices, groupsOfMember } from './audience.ts';
export type {
  GroupAbilities,
  GroupActionRow,
  GroupCard,
  GroupForm,
  GroupImage,
  GroupJoinStatus,
  GroupPerson,
  GroupRole,
  GroupsStaffForm,
  GroupView,
  GroupVisibility,
  JoinRequestView,
  StaffGroupDetail,
  StaffGroupPerson,
  StaffGroupRow,
} from './types.ts';
