/**
 * The one place a message's 'group' audience meets the groups area, through its face: a group's
 * active members and chairs (null when the community has no such group), and the community's groups
 * the staff may address (name and count of active people).
 */
export { groupAudience as groupMembers, groupChoices as groupOptions } from '#src/features/groups/index.ts';
