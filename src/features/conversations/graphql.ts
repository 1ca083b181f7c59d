import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { parseId } from '#src/core/ids.ts';
import type { MemberSnapshot } from '#src/features/members/index.ts';
import { getThread, listConversations, markRead, sendMessage, setBlocked, summaryOf, unreadCount } from './conversations.ts';
import { graphqlDeps } from './deps.ts';
import { conversationIdOf, notFound } from './queries.ts';
import type { ConversationState, ConversationSummary, MessageView } from './types.ts';

/**
 * Conversations on the member schema (/graphql), through the same services as the pages, for cookie
 * (with CSRF) and bearer clients alike. A conversation not the viewer's, or a member they were not
 * introduced to, is 'Conversations.NotFound'. Reading a thread does not mark it read:
 * conversationMarkRead does.
 */

type Args = Record<string, unknown>;

const typeDefs = /* GraphQL */ `
  enum ConversationState { OPEN BLOCKED_BY_ME BLOCKED_BY_THEM CLOSED }
  "The other member of a conversation."
  type ConversationMember { id: ID!, name: String!, jobTitle: String, companyName: String, avatarUrl: String, active: Boolean! }
  type ConversationMessage { id: ID!, body: String!, sentAt: String!, fromMe: Boolean! }
  "A conversation with a member one was introduced to: its last message's excerpt and the viewer's unread count."
  type Conversation { id: ID!, with: ConversationMember!, state: ConversationState!, lastMessageAt: String!, excerpt: String!, lastFromMe: Boolean!, unread: Int! }
  type ConversationEdge { cursor: String!, node: Conversation! }
  type ConversationPageInfo { hasNextPage: Boolean!, endCursor: String }
  type ConversationConnection { edges: [ConversationEdge!]!, pageInfo: ConversationPageInfo!, "Conversations with a message the viewer has not read." unreadCount: Int! }
  "A page of a conversation's messages, oldest first: the latest, or those before 'before'; earlierCursor reads further back."
  type ConversationThread { conversation: Conversation!, messages: [ConversationMessage!]!, earlierCursor: String }
  type ConversationSent { conversation: Conversation!, message: ConversationMessage! }
  extend type Query {
    "The viewer's conversations, newest activity first: first (default 20, at most 50) after the previous page's endCursor."
    conversations(first: Int, after: String): ConversationConnection!
    "One of the viewer's conversations with a page of its messages (at most 50). Does not mark it read."
    conversation(id: ID!, before: String): ConversationThread!
    "How many of the viewer's conversations hold a message they have not read."
    conversationsUnread: Int!
  }
  extend type Mutation {
    "Writes to a member one was introduced to (an approved introduction, either way): starts the conversation, or adds to it."
    conversationStart(userId: ID!, body: String!): ConversationSent!
    "Writes in one of the viewer's conversations. Plain text, at most 4,000 characters; refused while blocked."
    conversationSend(id: ID!, body: String!): ConversationSent!
    conversationMarkRead(id: ID!): Conversation!
    "The other member can no longer write (nor the viewer, until they unblock)."
    conversationBlock(id: ID!): Conversation!
    conversationUnblock(id: ID!): Conversation!
  }
`;

const STATES: Record<ConversationState, string> = { open: 'OPEN', blockedByMe: 'BLOCKED_BY_ME', blockedByThem: 'BLOCKED_BY_THEM', closed: 'CLOSED' };

const memberOut = (m: MemberSnapshot, basePath: string) => ({
  id: String(m.id),
  name: m.name,
  jobTitle: m.jobTitle,
  companyName: m.companyName,
  avatarUrl: m.avatar ? (m.avatar.startsWith('/') ? `${basePath}${m.avatar}` : m.avatar) : null,
  active: m.isActive,
});

const conversationOut = (c: ConversationSummary, basePath: string) => ({
  id: String(c.id),
  with: memberOut(c.other, basePath),
  state: STATES[c.state],
  lastMessageAt: c.lastMessageAt.toISOString(),
  excerpt: c.excerpt,
  lastFromMe: c.lastFromMe,
  unread: c.unread,
});

const messageOut = (m: Pick<MessageView, 'id' | 'body' | 'at' | 'fromMe'>) => ({ id: String(m.id), body: m.body, sentAt: m.at.toISOString(), fromMe: m.fromMe });

const basePathOf = (ctx: GraphQLContext) => ctx.request.server.config.basePath;

export const conversationsMemberGraphQL: GraphQLPart = {
  typeDefs,
  resolvers: {
    Query: {
      conversations: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const page = await listConversations(deps, viewer, { first: args.first ?? undefined, after: args.after ?? undefined });
        return {
          edges: page.items.map((c) => ({ cursor: c.cursor, node: conversationOut(c, basePathOf(ctx)) })),
          pageInfo: { hasNextPage: page.next !== null, endCursor: page.items.at(-1)?.cursor ?? null },
          unreadCount: page.unreadConversations,
        };
      },
      conversation: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const id = conversationIdOf(args.id);
        const thread = await getThread(deps, viewer, id, { before: args.before ?? undefined, markRead: false });
        return { conversation: conversationOut(await summaryOf(deps, viewer, id), basePathOf(ctx)), messages: thread.messages.map(messageOut), earlierCursor: thread.earlier };
      },
      conversationsUnread: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        return unreadCount(deps, viewer);
      },
    },
    Mutation: {
      conversationStart: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const userId = parseId(args.userId);
        if (userId === null) throw notFound();
        const sent = await sendMessage(deps, viewer, { userId }, args.body);
        return { conversation: conversationOut(await summaryOf(deps, viewer, sent.conversationId), basePathOf(ctx)), message: messageOut({ id: sent.messageId, body: sent.body, at: sent.at, fromMe: true }) };
      },
      conversationSend: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const sent = await sendMessage(deps, viewer, { conversationId: conversationIdOf(args.id) }, args.body);
        return { conversation: conversationOut(await summaryOf(deps, viewer, sent.conversationId), basePathOf(ctx)), message: messageOut({ id: sent.messageId, body: sent.body, at: sent.at, fromMe: true }) };
      },
      conversationMarkRead: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        return conversationOut(await markRead(deps, viewer, conversationIdOf(args.id)), basePathOf(ctx));
      },
      conversationBlock: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const id = conversationIdOf(args.id);
        await setBlocked(deps, viewer, id, true);
        return conversationOut(await summaryOf(deps, viewer, id), basePathOf(ctx));
      },
      conversationUnblock: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const id = conversationIdOf(args.id);
        await setBlocked(deps, viewer, id, false);
        return conversationOut(await summaryOf(deps, viewer, id), basePathOf(ctx));
      },
    },
  },
};
