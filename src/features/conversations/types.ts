import type { MemberSnapshot } from '#src/features/members/index.ts';

/** What the viewer may do in a conversation now. */
export type ConversationState =
  /** Both may write. */
  | 'open'
  /** The viewer blocked it: nobody writes until they unblock. */
  | 'blockedByMe'
  /** The other member blocked it: the viewer can no longer write. */
  | 'blockedByThem'
  /** The other member is no longer an active member (or the introduction is gone): read only. */
  | 'closed';

/** One line of the viewer's list: the other member, the last message, what is unread. */
export type ConversationSummary = {
  id: number;
  other: MemberSnapshot;
  lastMessageAt: Date;
  /** The last message's first characters ('' when none yet). */
  excerpt: string;
  /** Whether the viewer wrote the last message. */
  lastFromMe: boolean;
  unread: number;
  state: ConversationState;
  cursor: string;
};

export type ConversationListPage = {
  items: ConversationSummary[];
  /** The next page's cursor, or null on the last. */
  next: string | null;
  /** Whether this is a later page (a link back to the first). */
  later: boolean;
  /** How many conversations hold messages the viewer has not read (the tab's count). */
  unreadConversations: number;
};

export type MessageView = {
  id: number;
  body: string;
  at: Date;
  fromMe: boolean;
  senderName: string;
};

/** A thread: the conversation (null while the pair has not written yet), its messages oldest first. */
export type ConversationThread = {
  id: number | null;
  other: MemberSnapshot;
  state: ConversationState;
  messages: MessageView[];
  /** A cursor to the earlier messages, or null when these are the first. */
  earlier: string | null;
  /** Whether these are earlier messages (a link back to the latest). */
  older: boolean;
  /** Unread conversations of the viewer after this one was read (the tab's count). */
  unreadConversations: number;
};
