import { AppError } from '#src/core/errors.ts';
import { selectInCommunityAs, updateInCommunity } from '#src/db/tenancy.ts';
import { badCursor, cursorParts, encodeCursor } from '#src/lib/cursor.ts';
import { messageIdOf, type MessagesDeps, type MessagesViewer } from './deps.ts';
import type { InboxItem, InboxMessage, InboxPage } from './types.ts';

/**
 * A member's messages from the team (/messages, GraphQL's `teamMessages`): the messages delivered to
 * them, newest first, in keyset pages; one message (opening it marks it read); how many are unread.
 * Only what was delivered to this member in this community is ever found: anything else is NotFound.
 */

export const INBOX_PAGE = 20;
const MAX_PAGE = 50;

type Key = { at: number; id: number };
const cursorOf = (k: Key) => encodeCursor([k.at, k.id]);

function decodeInboxCursor(cursor: unknown): Key | null {
  const parts = cursorParts(cursor, 2, 100);
  if (parts === null) return null;
  const [at, id] = parts as unknown[];
  if (typeof at !== 'number' || !Number.isSafeInteger(at) || at < 0 || at > 8_000_000_000_000) throw badCursor();
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw badCursor();
  return { at, id };
}

function mine(deps: MessagesDeps, viewer: MessagesViewer) {
  return selectInCommunityAs(deps.db, 'message_recipients', 'r', deps.community).where('r.user_id', '=', viewer.userId).where('r.state', '=', 'delivered');
}

/**
 * Unread messages are counted up to UNREAD_CAP, one more than the pages show in figures (beyond, they
 * say "more than 99": views/layout/messages-tabs.tsx MANY_UNREAD): a member with a hundred thousand
 * messages costs the page what one with a hundred does.
 */
export const UNREAD_CAP = 100;

/** The member's unread messages, at most UNREAD_CAP of them, as a subquery counting them. */
function unreadCapped(deps: MessagesDeps, viewer: MessagesViewer) {
  return deps.db
    .selectFrom(mine(deps, viewer).where('r.read_at', 'is', null).select('r.message_id').limit(UNREAD_CAP).as('u'))
    .select((eb) => eb.fn.countAll<number>().as('n'));
}

/** How many of the member's messages from the team are unread (at most UNREAD_CAP). */
export async function unreadCount(deps: MessagesDeps, viewer: MessagesViewer): Promise<number> {
  const row = await unreadCapped(deps, viewer).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One page of the member's messages, newest first (`after`: the previous page's cursor; a bad one is 400). */
export async function listInbox(deps: MessagesDeps, viewer: MessagesViewer, input: { after?: unknown; first?: unknown } = {}): Promise<InboxPage> {
  const key = decodeInboxCursor(input.after);
  const first = input.first == null ? INBOX_PAGE : Number(input.first);
  if (!Number.isSafeInteger(first) || first < 1 || first > MAX_PAGE) throw new AppError('BadRequest.Validation');
  let q = mine(deps, viewer)
    .innerJoin('team_messages as m', 'm.id', 'r.message_id')
    .leftJoin('users as u', 'u.id', 'm.sender_id')
    .select(['m.id', 'm.subject', 'r.delivered_at', 'r.read_at', 'u.first_name', 'u.last_name']);
  if (key) {
    const at = new Date(key.at);
    q = q.where((eb) => eb.or([eb('r.delivered_at', '<', at), eb.and([eb('r.delivered_at', '=', at), eb('r.message_id', '<', key.id)])]));
  }
  const [rows, unread] = await Promise.all([q.orderBy('r.delivered_at', 'desc').orderBy('r.message_id', 'desc').limit(first + 1).execute(), unreadCount(deps, viewer)]);
  const items: InboxItem[] = rows.slice(0, first).map((r) => ({
    id: r.id,
    subject: r.subject,
    senderName: r.first_name ? `${r.first_name} ${r.last_name}`.trim() : null,
    sentAt: r.delivered_at!,
    read: r.read_at !== null,
    cursor: cursorOf({ at: r.delivered_at!.getTime(), id: r.id }),
  }));
  return { items, next: rows.length > first ? items.at(-1)!.cursor : null, unread };
}

/**
 * One message sent to the member, with how many of theirs are unread (read in the same statement, for
 * the tabs); opening it marks it read (`markRead: false` to only look): two statements at most.
 */
export async function readInboxMessage(deps: MessagesDeps, viewer: MessagesViewer, messageId: unknown, options: { markRead?: boolean } = {}): Promise<InboxMessage & { unread: number }> {
  const id = messageIdOf(messageId);
  const r = await mine(deps, viewer)
    .innerJoin('team_messages as m', 'm.id', 'r.message_id')
    .leftJoin('users as u', 'u.id', 'm.sender_id')
    .select(['m.id', 'm.subject', 'm.body_html', 'r.delivered_at', 'r.read_at', 'u.first_name', 'u.last_name'])
    .select(() => unreadCapped(deps, viewer).as('unread'))
    .where('r.message_id', '=', id)
    .executeTakeFirst();
  if (!r) throw new AppError('Messages.NotFound');
  let readAt = r.read_at;
  let unread = Number(r.unread ?? 0);
  if (!readAt && options.markRead !== false) {
    const now = await setRead(deps, viewer, id);
    if (now) {
      readAt = now;
      // At the cap the count is "more than": one read leaves it so.
      if (unread < UNREAD_CAP) unread = Math.max(0, unread - 1);
    }
  }
  return { id: r.id, subject: r.subject, bodyHtml: r.body_html, senderName: r.first_name ? `${r.first_name} ${r.last_name}`.trim() : null, sentAt: r.delivered_at!, readAt, unread };
}

/** Marks a message read (once: the first time stays); NotFound unless it was delivered to the member. */
export async function markRead(deps: MessagesDeps, viewer: MessagesViewer, messageId: unknown): Promise<Date> {
  const id = messageIdOf(messageId);
  const now = await setRead(deps, viewer, id);
  if (now) return now;
  const row = await mine(deps, viewer).select('r.read_at').where('r.message_id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('Messages.NotFound');
  return row.read_at ?? deps.clock.now();
}

/** Sets read_at if the message was delivered to the member and unread: its time, or null when nothing changed. One statement. */
async function setRead(deps: MessagesDeps, viewer: MessagesViewer, id: number): Promise<Date | null> {
  const row = await updateInCommunity(deps.db, 'message_recipients', deps.community)
    .set({ read_at: deps.clock.now() })
    .where('message_id', '=', id)
    .where('user_id', '=', viewer.userId)
    .where('state', '=', 'delivered')
    .where('read_at', 'is', null)
    .returning('read_at')
    .executeTakeFirst();
  return row?.read_at ?? null;
}
