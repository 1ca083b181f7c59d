/**
 * The conversations area's public face (issue 28): the types its views read, and the unread count
 * another page may show. Routes, GraphQL, the demo seed, its errors and its kind of notification are
 * registered through register.ts, never imported from here.
 */
export type { ConversationListPage, ConversationState, ConversationSummary, ConversationThread, MessageView } from './types.ts';
export { unreadCount as unreadConversations } from './conversations.ts';
