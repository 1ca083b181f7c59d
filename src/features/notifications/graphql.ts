import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { cursorOf, hasUnviewedNotifications, listNotifications, markAllRead, markRead, markViewed, parsePageRequest, type ListDeps, type NotificationItem, type NotificationPage, type PageRequest } from './list.ts';

/**
 * The member's notifications on /graphql (spec section 7): the connection the list, the bell and
 * other clients page through, and the read/viewed mutations. Cookie clients send the CSRF header;
 * bearer clients do not. Errors reach clients as `extensions.code` (a bad cursor, page size or id is
 * `Notifications.BadRequest`).
 */
export const notificationMemberTypeDefs = /* GraphQL */ `
  "A notification of the signed-in member (only those they keep on the web channel)."
  type Notification {
    id: ID!
    "Where it leads: an absolute path on this site, with the app's path prefix."
    url: String!
    message: String!
    hasRead: Boolean!
    "ISO 8601 time."
    createdAt: String!
  }
  type NotificationEdge {
    cursor: String!
    node: Notification!
  }
  type NotificationPageInfo {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    "Whether any notification of the member (whatever the page) has not been seen in the bell yet."
    hasUnviewed: Boolean!
    startCursor: String
    endCursor: String
  }
  type NotificationConnection {
    edges: [NotificationEdge!]!
    nodes: [Notification!]!
    pageInfo: NotificationPageInfo!
  }
  extend type Query {
    """
    The signed-in member's notifications, newest first. Forwards: first (default 10, at most 50)
    after a cursor; backwards: last before a cursor. first and last together are refused.
    """
    notifications(first: Int, last: Int, after: String, before: String): NotificationConnection!
  }
  extend type Mutation {
    """
    Marks these notifications of the member read (and viewed); returns them. Ids of others change
    nothing. At most 100 ids; the list is required (declared nullable only to keep argument types two
    wrappers deep for the schema's depth limit: a missing list is Notifications.BadRequest).
    """
    notificationsMarkAsRead(notificationIds: [ID!]): [Notification!]!
    "Marks every notification of the member read (and viewed); returns how many changed."
    notificationsMarkAllAsRead: Int!
    """
    Beyond the specification: the bell was opened, so its notifications are seen (the unviewed dot goes)
    without being read. Marks viewed every notification up to upTo (the newest id the bell showed), or
    all of them without it; returns how many changed.
    """
    notificationsMarkAsViewed(upTo: ID): Int!
  }
`;

type Args = Record<string, unknown>;

function depsOf(ctx: GraphQLContext): ListDeps {
  return { db: ctx.db, clock: ctx.request.server.clock, community: ctx.community };
}

function memberId(ctx: GraphQLContext): number {
  ctx.guardian.ensureSignedIn();
  return ctx.guardian.userId!;
}

const nodeOut = (basePath: string) => (n: NotificationItem) => ({
  id: String(n.id),
  url: `${basePath}${n.url}`,
  message: n.message,
  hasRead: n.hasRead,
  createdAt: n.createdAt.toISOString(),
});

/**
 * The connection resolves what the query asks, and only that: the bell's poll (`notifications(first:
 * 1) { pageInfo { hasUnviewed } }`, every 30 s from every open tab) runs the one indexed probe of the
 * dot, not the page. The arguments are checked at once, so a bad cursor fails the field.
 */
type Connection = { page: () => Promise<NotificationPage & { nodes: ReturnType<ReturnType<typeof nodeOut>>[] }>; unviewed: () => Promise<boolean> };

function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | null = null;
  return () => (p ??= fn());
}

export const notificationMemberGraphQL: GraphQLPart = {
  typeDefs: notificationMemberTypeDefs,
  resolvers: {
    Query: {
      notifications: (_root: unknown, args: Args, ctx: GraphQLContext): Connection => {
        const request: PageRequest = { first: args.first, last: args.last, after: args.after, before: args.before };
        parsePageRequest(request);
        const deps = depsOf(ctx);
        const userId = memberId(ctx);
        const out = nodeOut(ctx.request.server.config.basePath);
        return {
          page: once(async () => {
            const page = await listNotifications(deps, userId, request);
            return { ...page, nodes: page.items.map(out) };
          }),
          unviewed: once(() => hasUnviewedNotifications(deps, userId)),
        };
      },
    },
    NotificationConnection: {
      nodes: async (c: Connection) => (await c.page()).nodes,
      edges: async (c: Connection) => {
        const page = await c.page();
        return page.items.map((n, i) => ({ cursor: cursorOf(n.id), node: page.nodes[i] }));
      },
      pageInfo: (c: Connection) => c,
    },
    NotificationPageInfo: {
      hasNextPage: async (c: Connection) => (await c.page()).hasNextPage,
      hasPreviousPage: async (c: Connection) => (await c.page()).hasPreviousPage,
      hasUnviewed: (c: Connection) => c.unviewed(),
      startCursor: async (c: Connection) => (await c.page()).startCursor,
      endCursor: async (c: Connection) => (await c.page()).endCursor,
    },
    Mutation: {
      notificationsMarkAsRead: async (_root: unknown, args: Args, ctx: GraphQLContext) =>
        (await markRead(depsOf(ctx), memberId(ctx), args.notificationIds)).map(nodeOut(ctx.request.server.config.basePath)),
      notificationsMarkAllAsRead: async (_root: unknown, _args: Args, ctx: GraphQLContext) => markAllRead(depsOf(ctx), memberId(ctx)),
      notificationsMarkAsViewed: async (_root: unknown, args: Args, ctx: GraphQLContext) => markViewed(depsOf(ctx), memberId(ctx), args.upTo),
    },
  },
};
