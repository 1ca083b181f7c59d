import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { parseId } from '#src/core/ids.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunityAs, type Tenant } from '#src/db/tenancy.ts';
import { SNAPSHOT_COLUMNS, toSnapshot, type SnapshotRow } from '#src/features/members/index.ts';
import type { ConversationState } from './types.ts';

export const notFound = () => new AppError('Conversations.NotFound');

/** A conversation id from a path or an argument: anything but an id is the same answer as an unknown one. */
export function conversationIdOf(value: unknown): number {
  const id = parseId(value);
  if (id === null) throw notFound();
  return id;
}

/** A pair as stored: the lower id first. */
export const ordered = (a: number, b: number): [number, number] => (a < b ? [a, b] : [b, a]);

/**
 * The viewer's conversations, each with the viewer's own state (`mine`), the other member's (`theirs`)
 * and the other member's snapshot (their membership in this community): tenant-scoped.
 */
export function conversationsOf(db: Db, community: Tenant, userId: number) {
  return selectInCommunityAs(db, 'conversations', 'c', community)
    .innerJoin('conversation_members as mine', (j) => j.onRef('mine.conversation_id', '=', 'c.id').on('mine.user_id', '=', userId))
    .innerJoin('conversation_members as theirs', (j) => j.onRef('theirs.conversation_id', '=', 'c.id').on('theirs.user_id', '<>', userId))
    .innerJoin('memberships', (j) => j.onRef('memberships.user_id', '=', 'theirs.user_id').onRef('memberships.community_id', '=', 'c.community_id'))
    .innerJoin('users', 'users.id', 'theirs.user_id')
    .select([
      'c.id',
      'c.last_message_at',
      'c.last_message_id',
      'c.last_sender_id',
      'mine.read_message_id',
      'mine.blocked_at as my_block',
      'theirs.read_message_id as their_read_id',
      'theirs.blocked_at as their_block',
      ...SNAPSHOT_COLUMNS,
    ]);
}

export type ConversationRow = {
  id: number;
  last_message_id: number;
  last_sender_id: number | null;
  read_message_id: number;
  my_block: Date | null;
  their_block: Date | null;
} & SnapshotRow;

/** What the viewer may do: their own block first, then the other's, then whether the other is still an active member. */
export function stateOf(row: Pick<ConversationRow, 'my_block' | 'their_block'>, otherActive: boolean): ConversationState {
  if (row.my_block) return 'blockedByMe';
  if (row.their_block) return 'blockedByThem';
  return otherActive ? 'open' : 'closed';
}

export const otherOf = (row: SnapshotRow) => toSnapshot(row);

/** The time of the list's order as PostgreSQL keeps it (microseconds), for the keyset cursor. */
export const activityKeyColumn = () => sql<string>`to_char(c.last_message_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('activity_key');

/** How many of the viewer's conversations hold a message from the other they have not read. */
export async function unreadConversationCount(db: Db, community: Tenant, userId: number): Promise<number> {
  const row = await selectInCommunityAs(db, 'conversation_members', 'mine', community)
    .innerJoin('conversations as c', 'c.id', 'mine.conversation_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('mine.user_id', '=', userId)
    .where('c.last_sender_id', '<>', userId)
    .whereRef('c.last_message_id', '>', 'mine.read_message_id')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
