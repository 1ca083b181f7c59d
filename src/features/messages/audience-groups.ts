import type { Db } from '#src/db/index.ts';
import type { Tenant } from '#src/db/tenancy.ts';

/**
 * The one place a message's 'group' audience meets the groups area (built in parallel: its face
 * src/features/groups/index.ts exports `groupAudience` and `groupChoices`). Until the lead wires this
 * module to that face at merge, there are no groups to choose: the form offers no 'group' audience and
 * a stored one resolves to nothing (a send fails with a note rather than guess). To wire:
 *
 *   import { groupAudience, groupChoices } from '#src/features/groups/index.ts';
 *   export const GROUPS_AVAILABLE = true;
 *   export const groupMembers = groupAudience;
 *   export const groupOptions = groupChoices;
 */
export const GROUPS_AVAILABLE: boolean = false;

/** The active members (and chairs) of a group of this community by user id; null when there is no such group. */
export async function groupMembers(_db: Db, _community: Tenant, _groupId: number): Promise<number[] | null> {
  return null;
}

/** The community's groups a message may go to. */
export async function groupOptions(_db: Db, _community: Tenant): Promise<{ id: number; name: string; memberCount: number }[]> {
  return [];
}
