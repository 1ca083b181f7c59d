import { sql, type RawBuilder } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import type { Tenant } from '#src/db/tenancy.ts';
import type { ForumViewer } from './deps.ts';
import type { ForumScope } from './types.ts';

/**
 * A group's discussion (types.ts ForumScope, decision 0056): the forum's checks of a post's group
 * against the scope it is read or written in. A post of a group is found only in its group's scope,
 * by someone the scope lets read; a post of the forum only without a scope.
 */

/** Whether a post (its `group_id`) is found in this scope. */
export function inScope(groupId: number | null, scope: ForumScope | undefined): boolean {
  if (!scope) return groupId == null;
  return groupId === scope.groupId && scope.canRead;
}

/** Who moderates here: staff always; in a group its chairs; in the forum its moderators. */
export function moderatesIn(viewer: ForumViewer, scope: ForumScope | undefined, forumModerator: boolean): boolean {
  if (viewer.isStaff) return true;
  return scope ? scope.moderators.includes(viewer.userId) : forumModerator;
}

/** A write in a group needs the scope's leave to post. */
export function ensureMayPost(scope: ForumScope | undefined): void {
  if (scope && !scope.canRead) throw new AppError('Forum.PostNotFound');
  if (scope && !scope.canPost) throw new AppError('Forbidden');
}

/**
 * Who reads a group's discussion, as SQL on a user id column: the groups area decides (its rule of who
 * sees a group, decision 0056) and registers it once per process (`readGroupsWith`); the forum uses it
 * so that a group's mentions and reply notices tell only people who may read the post. Never
 * registered (a process without the groups area): nobody in a group is told.
 */
export type GroupReaders = (community: Tenant, groupId: number, userId: RawBuilder<number>) => RawBuilder<boolean>;
let groupReaders: GroupReaders | null = null;
export function readGroupsWith(readers: GroupReaders): void {
  groupReaders = readers;
}

/** Whether the user in this column may read the group's discussion (SQL, for a where). */
export function readsGroup(community: Tenant, groupId: number, userIdColumn: string): RawBuilder<boolean> {
  return groupReaders ? groupReaders(community, groupId, sql.ref(userIdColumn) as RawBuilder<number>) : sql<boolean>`false`;
}
