import type { Clock } from '#src/core/clock.ts';
import { AppError, notFound } from '#src/core/errors.ts';
import { parseId, requireId } from '#src/core/ids.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, updateInCommunity } from '#src/db/tenancy.ts';
import type { Community } from '#src/db/types.ts';
import { isNotificationKind, type NotificationKind } from '#src/lib/notification-kinds.ts';
import { hasUnviewed as probeUnviewed } from './queries.ts';

/**
 * The member's notifications (issue 12, "Notifications"): the list (newest first, keyset pages on
 * id, never OFFSET), the bell's compact list and its unviewed dot, and the read/viewed states. Only
 * rows shown on the web channel (`shown`) of the member in this community ever appear or change.
 *
 * Read and viewed differ: a notification is *viewed* once the member has seen it in the bell (the dot
 * goes), and *read* once they open it or mark it read (it stops looking unread). Reading implies
 * viewing.
 */

/** Spec section 9: 10 a page in the list, 7 in the bell. */
export const LIST_PAGE_SIZE = 10;
export const BELL_PAGE_SIZE = 7;
/** The most a client may ask for in one page (`first`/`last`). */
export const MAX_PAGE_SIZE = 50;
/** The most ids one mark-as-read call may carry. */
export const MAX_IDS = 100;

export type ListDeps = { db: Db; clock: Clock; community: Community };

export type NotificationItem = {
  id: number;
  kind: string;
  /** An application path (without the path prefix), always one of ours: see `safeAppPath`. */
  url: string;
  message: string;
  hasRead: boolean;
  hasViewed: boolean;
  createdAt: Date;
};

export type NotificationPage = {
  items: NotificationItem[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
};

export type PageRequest = {
  first?: unknown;
  last?: unknown;
  after?: unknown;
  before?: unknown;
  /** One kind (preference option) only. */
  kind?: NotificationKind;
};

const badRequest = () => new AppError('Notifications.BadRequest');

/** A cursor is the id of a notification (as text): anything else is a bad request. */
export function cursorOf(id: number): string {
  return String(id);
}

export function parseCursor(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null;
  const id = parseId(value);
  if (id === null) throw badRequest();
  return id;
}

function pageSize(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_PAGE_SIZE) throw badRequest();
  return value;
}

/**
 * A notification id in a list to mark read: an unknown id changes nothing, so a malformed one cannot
 * answer "the same as unknown"; it is a bad request (decision 0047, the one exception).
 */
export const notificationIdOf = (value: unknown): number => requireId(value, badRequest);

/** The option (kind) a list is narrowed to: a kind of the catalogue, else NotFound (the page answers 404). */
export function parseOption(value: unknown): NotificationKind | undefined {
  if (value === undefined || value === '') return undefined;
  if (!isNotificationKind(value)) throw notFound();
  return value;
}

/**
 * Only a path of this application may be a notification's link: it starts with one slash, not two,
 * and holds no backslash, control character or scheme-like trick. Anything else falls back to the
 * list, so a notification can never send a member to another site.
 */
export function safeAppPath(url: string): string {
  return /^\/(?![/\\])[^\\\s\u0000-\u001f\u007f]*$/.test(url) ? url : '/notifications';
}

function mine(deps: Pick<ListDeps, 'db' | 'community'>, userId: number, kind?: string) {
  let q = selectInCommunity(deps.db, 'notifications', deps.community)
    .where('user_id', '=', userId)
    .where('shown', '=', true);
  if (kind) q = q.where('kind', '=', kind);
  return q;
}

type Row = { id: number; kind: string; url: string; message: string; read_at: Date | null; viewed_at: Date | null; created_at: Date };

const toItem = (r: Row): NotificationItem => ({
  id: r.id,
  kind: r.kind,
  url: safeAppPath(r.url),
  message: r.message,
  hasRead: r.read_at !== null,
  hasViewed: r.viewed_at !== null,
  createdAt: new Date(r.created_at),
});

type ParsedPage = { after: number | null; before: number | null; backwards: boolean; size: number };

/** A page request checked (Notifications.BadRequest otherwise), before anything is read. */
export function parsePageRequest(request: PageRequest): ParsedPage {
  const first = pageSize(request.first);
  const last = pageSize(request.last);
  if (first !== null && last !== null) throw badRequest();
  const backwards = last !== null;
  return { after: parseCursor(request.after), before: parseCursor(request.before), backwards, size: (backwards ? last : first) ?? LIST_PAGE_SIZE };
}

/**
 * One page, newest first. Forwards: `first` (default 10) after the cursor `after` (older than it).
 * Backwards: `last` before the cursor `before` (newer than it, the ones nearest to it). Both cursors
 * may bound one page; `first` and `last` together are refused.
 */
export async function listNotifications(deps: ListDeps, userId: number, request: PageRequest = {}): Promise<NotificationPage> {
  const { after, before, backwards, size } = parsePageRequest(request);

  // One statement: the page and one more row, which says whether the list goes on in the direction
  // of travel. The other direction goes on when a cursor brought us here (notifications are never
  // deleted), as Relay allows; no probe past the page's far end, which could read every row of the
  // member. The member is matched by a range (user_id between X and X), not an equality, on purpose:
  // with an equality the planner drops user_id from the ordering and may walk the primary key
  // backwards instead, skipping every other member's newer rows (15,000 skipped rows, 4 ms, for a
  // member with 10,000 notifications among 10,000 members); the range keeps user_id in the ordering,
  // which only notifications_list (community_id, user_id, id desc) gives.
  let q = selectInCommunity(deps.db, 'notifications', deps.community)
    .select(['id', 'kind', 'url', 'message', 'read_at', 'viewed_at', 'created_at'])
    .where('user_id', '>=', userId)
    .where('user_id', '<=', userId)
    .where('shown', '=', true);
  if (request.kind) q = q.where('kind', '=', request.kind);
  if (after !== null) q = q.where('id', '<', after);
  if (before !== null) q = q.where('id', '>', before);
  const rows = await q
    .orderBy('user_id', backwards ? 'desc' : 'asc')
    .orderBy('id', backwards ? 'asc' : 'desc')
    .limit(size + 1)
    .execute();
  const more = rows.length > size;
  const page = rows.slice(0, size);
  if (backwards) page.reverse();
  const items = page.map(toItem);
  const newest = items[0]?.id;
  const oldest = items.at(-1)?.id;
  const hasPreviousPage = backwards ? more : after !== null;
  const hasNextPage = backwards ? before !== null : more;
  return {
    items,
    hasNextPage,
    hasPreviousPage,
    startCursor: newest !== undefined ? cursorOf(newest) : null,
    endCursor: oldest !== undefined ? cursorOf(oldest) : null,
  };
}

/** The bell's dot. */
export function hasUnviewedNotifications(deps: Pick<ListDeps, 'db' | 'community'>, userId: number): Promise<boolean> {
  return probeUnviewed(deps.db, { communityId: deps.community.id, userId });
}

/** Whether the member has an unread notification (of one kind), on any page: offers "Mark all as read". */
export async function hasUnreadNotifications(deps: Pick<ListDeps, 'db' | 'community'>, userId: number, kind?: string): Promise<boolean> {
  const row = await mine(deps, userId, kind).select('id').where('read_at', 'is', null).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Marks the member's notifications among `ids` read (and viewed); others' ids change nothing. Returns them. */
export async function markRead(deps: ListDeps, userId: number, ids: unknown): Promise<NotificationItem[]> {
  if (!Array.isArray(ids) || ids.length > MAX_IDS) throw badRequest();
  const wanted = [...new Set(ids.map(notificationIdOf))];
  if (wanted.length === 0) return [];
  const now = deps.clock.now();
  await updateInCommunity(deps.db, 'notifications', deps.community)
    .set((eb) => ({ read_at: now, viewed_at: eb.fn.coalesce('viewed_at', eb.val(now)) }))
    .where('user_id', '=', userId)
    .where('shown', '=', true)
    .where('id', 'in', wanted)
    .where('read_at', 'is', null)
    .execute();
  const rows = await mine(deps, userId)
    .select(['id', 'kind', 'url', 'message', 'read_at', 'viewed_at', 'created_at'])
    .where('id', 'in', wanted)
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toItem);
}

/** Marks every unread notification of the member read (and viewed); returns how many changed. */
export async function markAllRead(deps: ListDeps, userId: number, kind?: NotificationKind): Promise<number> {
  const now = deps.clock.now();
  let q = updateInCommunity(deps.db, 'notifications', deps.community)
    .set((eb) => ({ read_at: now, viewed_at: eb.fn.coalesce('viewed_at', eb.val(now)) }))
    .where('user_id', '=', userId)
    .where('shown', '=', true)
    .where('read_at', 'is', null);
  if (kind) q = q.where('kind', '=', kind);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Marks the member's notifications viewed (the bell was opened): those up to the newest the bell
 * showed (`upTo`), so one that arrived meanwhile keeps the dot; without `upTo`, all of them.
 */
export async function markViewed(deps: ListDeps, userId: number, upTo?: unknown): Promise<number> {
  const limit = parseCursor(upTo);
  let q = updateInCommunity(deps.db, 'notifications', deps.community)
    .set({ viewed_at: deps.clock.now() })
    .where('user_id', '=', userId)
    .where('shown', '=', true)
    .where('viewed_at', 'is', null);
  if (limit !== null) q = q.where('id', '<=', limit);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Opening a notification: marks it read and gives the path to go to (one of ours). Another member's,
 * another community's or a hidden notification is not found.
 */
export async function openNotification(deps: ListDeps, userId: number, id: number): Promise<string> {
  const [item] = await markRead(deps, userId, [cursorOf(id)]);
  if (!item) throw notFound();
  return item.url;
}
