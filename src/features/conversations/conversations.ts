import { sql } from 'kysely';
import { AppError, type FieldErrors } from '#src/core/errors.ts';
import { hasForbiddenCharacters, INVALID_CHARACTERS_CODE, INVALID_CHARACTERS_KEY } from '#src/core/fields.ts';
import { insertInCommunity, selectInCommunity, updateInCommunity } from '#src/db/tenancy.ts';
import { decodeActivityCursor, decodeIdCursor, encodeCursor, pageSize } from '#src/lib/cursor.ts';
import { introducedPair, snapshotsOf, type MemberSnapshot } from '#src/features/members/index.ts';
import { conversationsTransaction, type ConversationsDeps, type ConversationsViewer } from './deps.ts';
import { activityKeyColumn, conversationsOf, notFound, ordered, otherOf, stateOf, unreadConversationCount, type ConversationRow } from './queries.ts';
import { BODY_MAX, EXCERPT_MAX, LIST_PAGE_SIZE, SEND_LIMIT, SEND_WINDOW_MS, THREAD_PAGE_SIZE } from './rules.ts';
import type { ConversationListPage, ConversationSummary, ConversationThread, MessageView } from './types.ts';

/**
 * Conversations between members who were introduced (issue 28): the viewer's list (newest activity
 * first, keyset pages), a thread (its latest messages, earlier ones by keyset), starting one with a
 * member (only when the staff approved an introduction between the two, either way, and both are
 * active members of this community: otherwise the same 404 as no one at all), sending (length and
 * rate limits, blocks), reading, blocking and unblocking. Pages and GraphQL call the same functions.
 */

const bodyError = (code: 'Conversations.Invalid' | 'Conversations.TooMany' | 'Conversations.Blocked' | 'Conversations.BlockedByYou', key: string, values?: Record<string, unknown>) => {
  const fields: FieldErrors = { body: { code, key, values } };
  return new AppError(code, { fields, values });
};

/**
 * A message as stored: plain text, line breaks kept (CR LF as LF), blank lines around it trimmed; at
 * most BODY_MAX characters; no control characters but the tab and the line break. Else a message
 * next to the field.
 */
export function checkBody(value: unknown): string {
  if (value != null && typeof value !== 'string') throw bodyError('Conversations.Invalid', 'conversations.errors.bodyRequired');
  const raw = value ?? '';
  if (hasForbiddenCharacters(raw, true)) {
    throw new AppError(INVALID_CHARACTERS_CODE, { fields: { body: { code: INVALID_CHARACTERS_CODE, key: INVALID_CHARACTERS_KEY } } });
  }
  const body = raw.replace(/\r\n?/g, '\n').replace(/^\s*\n/, '').trimEnd();
  if (body.trim() === '') throw bodyError('Conversations.Invalid', 'conversations.errors.bodyRequired');
  const length = [...body].length;
  if (length > BODY_MAX) throw bodyError('Conversations.Invalid', 'conversations.errors.bodyTooLong', { max: BODY_MAX.toLocaleString('en-US'), num: length - BODY_MAX });
  return body;
}

const excerptOf = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= EXCERPT_MAX ? flat : `${flat.slice(0, EXCERPT_MAX).trimEnd()}…`;
};

/** `/messages/conversations`: the viewer's conversations, newest activity first, LIST_PAGE_SIZE a page. */
export async function listConversations(deps: ConversationsDeps, viewer: ConversationsViewer, input: { after?: unknown; first?: unknown } = {}): Promise<ConversationListPage> {
  const after = decodeActivityCursor(input.after);
  const size = pageSize(input.first, LIST_PAGE_SIZE, 50);
  const me = viewer.userId;
  let query = conversationsOf(deps.db, deps.community, me).select((eb) => [
    activityKeyColumn(),
    eb
      .selectFrom('conversation_messages as lm')
      .select(sql<string>`left(lm.body, ${EXCERPT_MAX * 2})`.as('b'))
      .whereRef('lm.id', '=', 'c.last_message_id')
      .as('last_body'),
    eb
      .selectFrom('conversation_messages as um')
      .select((u) => u.fn.countAll<number>().as('n'))
      .whereRef('um.conversation_id', '=', 'c.id')
      .whereRef('um.id', '>', 'mine.read_message_id')
      .where('um.sender_id', '<>', me)
      .as('unread'),
  ]);
  if (after) {
    query = query.where((eb) =>
      eb.or([eb('c.last_message_at', '<', sql<Date>`${after.at}::timestamptz`), eb.and([eb('c.last_message_at', '=', sql<Date>`${after.at}::timestamptz`), eb('c.id', '<', after.id)])]),
    );
  }
  const [rows, unreadConversations] = await Promise.all([
    query.orderBy('c.last_message_at', 'desc').orderBy('c.id', 'desc').limit(size + 1).execute(),
    unreadConversationCount(deps.db, deps.community, me),
  ]);
  const items: ConversationSummary[] = rows.slice(0, size).map((r) => {
    const other = otherOf(r);
    return {
      id: r.id,
      other,
      lastMessageAt: new Date(r.last_message_at),
      excerpt: excerptOf(r.last_body ?? ''),
      lastFromMe: r.last_sender_id === me,
      unread: Number(r.unread ?? 0),
      state: stateOf(r, other.isActive),
      cursor: encodeCursor([r.activity_key, r.id]),
    };
  });
  return { items, next: rows.length > size ? items.at(-1)!.cursor : null, later: after !== null, unreadConversations };
}

/** The viewer's conversation (else NotFound: another's, another community's, or none). */
async function loadConversation(deps: ConversationsDeps, viewer: ConversationsViewer, id: number): Promise<ConversationRow> {
  const row = await conversationsOf(deps.db, deps.community, viewer.userId).where('c.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** A page of a thread's messages, oldest first: the latest, or those before the cursor. */
async function messagesOf(deps: ConversationsDeps, viewer: ConversationsViewer, id: number, other: MemberSnapshot, before: number | null) {
  let query = selectInCommunity(deps.db, 'conversation_messages', deps.community)
    .select(['id', 'body', 'created_at', 'sender_id'])
    .where('conversation_id', '=', id);
  if (before !== null) query = query.where('id', '<', before);
  const rows = await query.orderBy('id', 'desc').limit(THREAD_PAGE_SIZE + 1).execute();
  const page = rows.slice(0, THREAD_PAGE_SIZE).reverse();
  const messages: MessageView[] = page.map((m) => ({
    id: m.id,
    body: m.body,
    at: new Date(m.created_at),
    fromMe: m.sender_id === viewer.userId,
    senderName: m.sender_id === viewer.userId ? deps.t('conversations.thread.you') : other.name,
  }));
  return { messages, earlier: rows.length > THREAD_PAGE_SIZE ? encodeCursor([page[0]!.id]) : null };
}

/**
 * A thread: its messages (the latest page, or earlier ones), read by the viewer as they open it (the
 * page's latest messages mark the conversation read; GraphQL's query does not, its mutation does).
 */
export async function getThread(deps: ConversationsDeps, viewer: ConversationsViewer, id: number, input: { before?: unknown; markRead?: boolean } = {}): Promise<ConversationThread> {
  const before = decodeIdCursor(input.before);
  const row = await loadConversation(deps, viewer, id);
  const other = otherOf(row);
  const [{ messages, earlier }] = await Promise.all([
    messagesOf(deps, viewer, id, other, before),
    input.markRead !== false && before === null && row.last_message_id > row.read_message_id ? markReadTo(deps, viewer, id, row.last_message_id) : Promise.resolve(),
  ]);
  const unreadConversations = await unreadConversationCount(deps.db, deps.community, viewer.userId);
  return { id, other, state: stateOf(row, other.isActive), messages, earlier, older: before !== null, unreadConversations };
}

async function markReadTo(deps: ConversationsDeps, viewer: ConversationsViewer, id: number, messageId: number): Promise<void> {
  await updateInCommunity(deps.db, 'conversation_members', deps.community)
    .set({ read_message_id: messageId })
    .where('conversation_id', '=', id)
    .where('user_id', '=', viewer.userId)
    .where('read_message_id', '<', messageId)
    .execute();
}

/** Marks the conversation read up to its last message (GraphQL; the page does so as it opens). */
export async function markRead(deps: ConversationsDeps, viewer: ConversationsViewer, id: number): Promise<ConversationSummary> {
  const row = await loadConversation(deps, viewer, id);
  await markReadTo(deps, viewer, id, row.last_message_id);
  return summaryOf(deps, viewer, id);
}

/** One conversation as a list line (GraphQL's answers). */
export async function summaryOf(deps: ConversationsDeps, viewer: ConversationsViewer, id: number): Promise<ConversationSummary> {
  const row = await conversationsOf(deps.db, deps.community, viewer.userId)
    .select((eb) => [
      activityKeyColumn(),
      eb.selectFrom('conversation_messages as lm').select('lm.body').whereRef('lm.id', '=', 'c.last_message_id').as('last_body'),
      eb
        .selectFrom('conversation_messages as um')
        .select((u) => u.fn.countAll<number>().as('n'))
        .whereRef('um.conversation_id', '=', 'c.id')
        .whereRef('um.id', '>', 'mine.read_message_id')
        .where('um.sender_id', '<>', viewer.userId)
        .as('unread'),
    ])
    .where('c.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound();
  const other = otherOf(row);
  return {
    id: row.id,
    other,
    lastMessageAt: new Date(row.last_message_at),
    excerpt: excerptOf(row.last_body ?? ''),
    lastFromMe: row.last_sender_id === viewer.userId,
    unread: Number(row.unread ?? 0),
    state: stateOf(row, other.isActive),
    cursor: encodeCursor([row.activity_key, row.id]),
  };
}

/** The other member of a pair the viewer may start: introduced (approved), both active here; else NotFound. */
async function introducedMember(deps: ConversationsDeps, viewer: ConversationsViewer, userId: number): Promise<MemberSnapshot> {
  if (userId === viewer.userId || !(await introducedPair(deps.db, deps.community, viewer.userId, userId))) throw notFound();
  return (await snapshotsOf(deps.db, deps.community, [userId]))(userId);
}

/** The conversation of the viewer with this member, if they have written already. */
async function conversationIdWith(deps: ConversationsDeps, viewer: ConversationsViewer, userId: number): Promise<number | null> {
  const [low, high] = ordered(viewer.userId, userId);
  const row = await selectInCommunity(deps.db, 'conversations', deps.community).select('id').where('member_low', '=', low).where('member_high', '=', high).executeTakeFirst();
  return row?.id ?? null;
}

/**
 * `/messages/conversations/with/{userId}`: the conversation with a member one was introduced to: its
 * id when it exists (the page goes there), else the member (an empty thread with the form).
 */
export async function conversationWith(deps: ConversationsDeps, viewer: ConversationsViewer, userId: number): Promise<{ id: number } | { id: null; thread: ConversationThread }> {
  const other = await introducedMember(deps, viewer, userId);
  const id = await conversationIdWith(deps, viewer, userId);
  if (id !== null) return { id };
  const unreadConversations = await unreadConversationCount(deps.db, deps.community, viewer.userId);
  return { id: null, thread: { id: null, other, state: 'open', messages: [], earlier: null, older: false, unreadConversations } };
}

export type SendTarget = { conversationId: number } | { userId: number };

/**
 * Sends a message: to a conversation of the viewer's, or to a member they were introduced to (the first
 * message starts the conversation; a second start finds it). Refused: a pair no longer introduced or
 * active (NotFound), a block (either side, with its message), a member over the rate limit, a bad body.
 * The recipient is notified once per conversation until they read it (decision 0058).
 */
export async function sendMessage(deps: ConversationsDeps, viewer: ConversationsViewer, target: SendTarget, bodyInput: unknown): Promise<{ conversationId: number; messageId: number; body: string; at: Date }> {
  const me = viewer.userId;
  const otherId = 'userId' in target ? target.userId : (await loadConversation(deps, viewer, target.conversationId)).user_id;
  if (otherId === me || !(await introducedPair(deps.db, deps.community, me, otherId))) throw notFound();
  const body = checkBody(bodyInput);
  const member = await snapshotsOf(deps.db, deps.community, [me, otherId]);
  const c = deps.community;
  const now = deps.clock.now();
  return conversationsTransaction(deps.db, async (trx) => {
    // One send at a time per member: the rate limit is counted under the lock of their membership.
    await selectInCommunity(trx, 'memberships', c).select('id').where('user_id', '=', me).forUpdate().executeTakeFirst();
    const recent = await selectInCommunity(trx, 'conversation_messages', c)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('sender_id', '=', me)
      .where('created_at', '>', new Date(now.getTime() - SEND_WINDOW_MS))
      .executeTakeFirst();
    if (Number(recent?.n ?? 0) >= SEND_LIMIT) throw bodyError('Conversations.TooMany', 'conversations.errors.tooMany', { limit: SEND_LIMIT, minutes: SEND_WINDOW_MS / 60_000 });

    const [low, high] = ordered(me, otherId);
    await insertInCommunity(trx, 'conversations', c, { member_low: low, member_high: high, created_at: now, last_message_at: now })
      .onConflict((oc) => oc.columns(['community_id', 'member_low', 'member_high']).doNothing())
      .execute();
    // The conversation, locked: one message at a time in it, so the last message and the notices agree.
    const conv = await selectInCommunity(trx, 'conversations', c)
      .select(['id', 'last_message_id', 'last_sender_id'])
      .where('member_low', '=', low)
      .where('member_high', '=', high)
      .forUpdate()
      .executeTakeFirstOrThrow();
    await insertInCommunity(trx, 'conversation_members', c, [
      { conversation_id: conv.id, user_id: me },
      { conversation_id: conv.id, user_id: otherId },
    ])
      .onConflict((oc) => oc.columns(['conversation_id', 'user_id']).doNothing())
      .execute();
    const states = await selectInCommunity(trx, 'conversation_members', c).select(['user_id', 'read_message_id', 'blocked_at']).where('conversation_id', '=', conv.id).execute();
    const mine = states.find((s) => s.user_id === me)!;
    const theirs = states.find((s) => s.user_id === otherId)!;
    if (mine.blocked_at) throw bodyError('Conversations.BlockedByYou', 'conversations.errors.blockedByYou');
    if (theirs.blocked_at) throw bodyError('Conversations.Blocked', 'conversations.errors.blocked', { name: member(otherId).name });

    const message = await insertInCommunity(trx, 'conversation_messages', c, { conversation_id: conv.id, sender_id: me, body, created_at: now }).returning('id').executeTakeFirstOrThrow();
    await updateInCommunity(trx, 'conversations', c).set({ last_message_at: now, last_message_id: message.id, last_sender_id: me }).where('id', '=', conv.id).execute();
    // One's own message is read; the conversation is read up to it (one wrote with it open).
    await updateInCommunity(trx, 'conversation_members', c).set({ read_message_id: message.id }).where('conversation_id', '=', conv.id).where('user_id', '=', me).execute();

    // The recipient already has unread messages of this conversation (and so its notice): no second one.
    const alreadyUnread = conv.last_sender_id === me && conv.last_message_id > theirs.read_message_id;
    if (!alreadyUnread) {
      await deps.notifier.notify(trx, {
        communityId: c.id,
        userId: otherId,
        kind: 'conversations',
        url: `/messages/conversations/${conv.id}`,
        message: deps.t('conversations.notifications.newMessage', { name: member(me).name }),
        createdAt: now,
      });
    }
    return { conversationId: conv.id, messageId: message.id, body, at: now };
  });
}

/** Blocks (or unblocks) the conversation for the viewer: while blocked, neither member writes; only the blocker may unblock. */
export async function setBlocked(deps: ConversationsDeps, viewer: ConversationsViewer, id: number, blocked: boolean): Promise<void> {
  await loadConversation(deps, viewer, id);
  await updateInCommunity(deps.db, 'conversation_members', deps.community)
    .set({ blocked_at: blocked ? deps.clock.now() : null })
    .where('conversation_id', '=', id)
    .where('user_id', '=', viewer.userId)
    .execute();
}

/** The count on the Conversations tab (and GraphQL's). */
export function unreadCount(deps: ConversationsDeps, viewer: ConversationsViewer): Promise<number> {
  return unreadConversationCount(deps.db, deps.community, viewer.userId);
}
