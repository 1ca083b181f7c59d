import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import { requireId } from '#src/core/ids.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import type { MemberSnapshot } from '#src/features/members/index.ts';
import { listActions } from './actions-log.ts';
import { bodyHtmlUnderBase } from './graphql.ts';
import { ensureForumOn, forumDeps, forumViewer, type ForumDeps, type ForumViewer } from './deps.ts';
import { approve, moderationQueue, reject, removeContent, restoreContent, setAllPostsWait, setLocked, setPinned } from './moderation.ts';
import { followPost, likePost, likeReply, react, unlikePost, unlikeReply } from './reactions.ts';
import { openReports, reportContent, resolveReport } from './reports.ts';
import { targetKindOf } from './targets.ts';
import { createTopic, listTopicsForStaff, moveTopic, renameTopic, setTopicArchived } from './topics-admin.ts';
import type { ForumActionView, QueueItem, ReportView, TopicView } from './types.ts';

/**
 * The forum's actions on both schemas, through the same services as the pages: likes, reactions,
 * follows, reports and moderation for members and moderators (/graphql); moderation, topics, pins,
 * the every-post-waits setting and the log for staff (/graphqlAdmin). Where the community has no
 * forum every operation is NotFound. The types here are this part's own (the core forum part defines
 * ForumPost, ForumReply, ForumTopic...): the two parts share one member schema.
 */

const sharedTypeDefs = /* GraphQL */ `
  enum ForumContentKind { POST REPLY }
  "A member as moderation shows them."
  type ForumModerationMember { id: ID!, name: String!, avatar: String, isModerator: Boolean! }
  type ForumReport {
    id: ID!
    targetKind: ForumContentKind!
    targetId: ID!
    postId: ID!
    postTitle: String!
    "Plain text of what was reported, cut short."
    excerpt: String!
    author: ForumModerationMember!
    reporter: ForumModerationMember!
    "spam, harassment, off_topic, confidential or other."
    reason: String!
    description: String!
    createdAt: String!
  }
  type ForumReportPage { reports: [ForumReport!]!, "The cursor of the next page, or null." next: String }
  type ForumQueueItem {
    targetKind: ForumContentKind!
    id: ID!
    postId: ID!
    postTitle: String!
    "Sanitised HTML."
    bodyHtml: String!
    author: ForumModerationMember!
    createdAt: String!
    reportCount: Int!
    "new_member, all_wait or reported."
    why: String!
  }
  "The state of a post or reply after a moderator's decision: published, rejected or removed."
  type ForumModerationResult { targetKind: ForumContentKind!, id: ID!, status: String! }
  type ForumLockResult { id: ID!, locked: Boolean! }
`;

const moderationQueries = /* GraphQL */ `
    "What waits for a moderator, oldest first (moderators and staff)."
    forumModerationQueue: [ForumQueueItem!]!
    "Open reports, oldest first (moderators and staff)."
    forumReports(after: String): ForumReportPage!
`;

const moderationMutations = /* GraphQL */ `
    approveForum(targetKind: ForumContentKind!, id: ID!, note: String): ForumModerationResult!
    "The reason is required: the author receives it."
    rejectForum(targetKind: ForumContentKind!, id: ID!, reason: String!): ForumModerationResult!
    removeForum(targetKind: ForumContentKind!, id: ID!, reason: String!): ForumModerationResult!
    restoreForum(targetKind: ForumContentKind!, id: ID!): ForumModerationResult!
    lockForumPost(id: ID!, on: Boolean!): ForumLockResult!
    "resolution: dismissed (nothing wrong) or removed (what was reported is removed)."
    resolveForumReport(id: ID!, resolution: String!): Boolean!
`;

export const forumActionsMemberTypeDefs = /* GraphQL */ `
  ${sharedTypeDefs}
  type ForumLikeResult { likeCount: Int!, likedByMe: Boolean! }
  type ForumReactionTally { reaction: String!, count: Int!, mine: Boolean! }
  type ForumFollowResult { followedByMe: Boolean! }
  extend type Query {
    ${moderationQueries}
  }
  extend type Mutation {
    likeForumPost(id: ID!): ForumLikeResult!
    unlikeForumPost(id: ID!): ForumLikeResult!
    likeForumReply(id: ID!): ForumLikeResult!
    unlikeForumReply(id: ID!): ForumLikeResult!
    "Gives (on) or takes back a reaction (insightful, celebrate, support, curious); the item's reactions after."
    reactForum(targetKind: ForumContentKind!, id: ID!, reaction: String!, on: Boolean!): [ForumReactionTally!]!
    followForumPost(id: ID!, on: Boolean!): ForumFollowResult!
    "Reports someone else's post or reply once (a second report is the error Forum.AlreadyReported)."
    reportForum(targetKind: ForumContentKind!, id: ID!, reason: String!, description: String): Boolean!
    ${moderationMutations}
  }
`;

export const forumActionsAdminTypeDefs = /* GraphQL */ `
  ${sharedTypeDefs}
  type ForumTopicAdmin { id: ID!, name: String!, position: Int!, archived: Boolean!, postCount: Int! }
  enum ForumTopicDirection { UP DOWN }
  type ForumActionActor { id: ID!, name: String! }
  type ForumAction { id: ID!, actor: ForumActionActor, action: String!, targetKind: String!, targetId: ID!, note: String, createdAt: String! }
  type ForumActionPage { actions: [ForumAction!]!, next: String }
  type ForumPinResult { id: ID!, pinned: Boolean! }
  extend type Query {
    ${moderationQueries}
    "The community's forum topics in order (archived ones too unless includeArchived is false)."
    forumTopics(includeArchived: Boolean): [ForumTopicAdmin!]!
    "Who did what and when, newest first."
    forumActions(after: String): ForumActionPage!
  }
  extend type Mutation {
    ${moderationMutations}
    createForumTopic(name: String!): ForumTopicAdmin!
    renameForumTopic(id: ID!, name: String!): ForumTopicAdmin!
    moveForumTopic(id: ID!, direction: ForumTopicDirection!): ForumTopicAdmin!
    archiveForumTopic(id: ID!, archived: Boolean!): ForumTopicAdmin!
    pinForumPost(id: ID!, on: Boolean!): ForumPinResult!
    "Every new post waits for a moderator (on) or not."
    setForumAllPostsWait(on: Boolean!): Boolean!
  }
`;

type Args = Record<string, unknown>;

/** The forum's deps and the acting member; NotFound first where the forum is off. */
function memberCall(ctx: GraphQLContext): { deps: ForumDeps; viewer: ForumViewer } {
  ensureForumOn(ctx.community);
  return { deps: forumDeps(ctx.request), viewer: forumViewer(ctx.request) };
}

function staffCall(ctx: GraphQLContext): { deps: ForumDeps; viewer: ForumViewer } {
  ctx.guardian.ensureAdmin();
  ensureForumOn(ctx.community);
  return { deps: forumDeps(ctx.request), viewer: { userId: ctx.guardian.userId!, isStaff: true } };
}

const kindOut = (k: string) => k.toUpperCase();
const memberOut = (m: MemberSnapshot) => ({ id: m.id, name: m.name, avatar: m.avatar, isModerator: m.isModerator });
const reportOut = (r: ReportView) => ({
  id: r.id,
  targetKind: kindOut(r.targetKind),
  targetId: r.targetId,
  postId: r.postId,
  postTitle: r.postTitle,
  excerpt: r.excerpt,
  author: memberOut(r.author),
  reporter: memberOut(r.reporter),
  reason: r.reason,
  description: r.description,
  createdAt: r.createdAt.toISOString(),
});
const queueOut = (q: QueueItem) => ({ ...q, targetKind: kindOut(q.targetKind), author: memberOut(q.author), createdAt: q.createdAt.toISOString() });
const topicOut = (t: TopicView) => ({ ...t, postCount: t.postCount ?? 0 });
const actionOut = (a: ForumActionView) => ({ ...a, createdAt: a.createdAt.toISOString() });
const bool = (v: unknown) => v === true;

/** The moderation operations, the same on both schemas; `call` says who may call them. */
function moderationResolvers(call: (ctx: GraphQLContext) => { deps: ForumDeps; viewer: ForumViewer }) {
  const decision =
    (status: string, run: (deps: ForumDeps, viewer: ForumViewer, kind: 'post' | 'reply', id: number, args: Args) => Promise<void>) =>
    async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const { deps, viewer } = call(ctx);
      const kind = targetKindOf(args.targetKind);
      const id = requireId(args.id);
      await run(deps, viewer, kind, id, args);
      return { targetKind: kindOut(kind), id, status };
    };
  return {
    Query: {
      forumModerationQueue: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = call(ctx);
        return (await moderationQueue(deps, viewer)).map(queueOut);
      },
      forumReports: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = call(ctx);
        const page = await openReports(deps, viewer, { after: args.after });
        return { reports: page.reports.map(reportOut), next: page.next };
      },
    },
    Mutation: {
      approveForum: decision('published', (deps, viewer, kind, id, args) => approve(deps, viewer, kind, id, args.note)),
      rejectForum: decision('rejected', (deps, viewer, kind, id, args) => reject(deps, viewer, kind, id, args.reason)),
      removeForum: decision('removed', (deps, viewer, kind, id, args) => removeContent(deps, viewer, kind, id, args.reason)),
      restoreForum: decision('published', (deps, viewer, kind, id) => restoreContent(deps, viewer, kind, id)),
      lockForumPost: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = call(ctx);
        const id = requireId(args.id);
        return { id, ...(await setLocked(deps, viewer, id, bool(args.on))) };
      },
      resolveForumReport: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = call(ctx);
        await resolveReport(deps, viewer, requireId(args.id), args.resolution);
        return true;
      },
    },
  };
}

const memberModeration = moderationResolvers(memberCall);
const adminModeration = moderationResolvers(staffCall);

const like = (run: typeof likePost) => async (_root: unknown, args: Args, ctx: GraphQLContext) => {
  const { deps, viewer } = memberCall(ctx);
  return run(deps, viewer, requireId(args.id));
};

export const forumActionsMemberGraphQL: GraphQLPart = {
  typeDefs: forumActionsMemberTypeDefs,
  resolvers: {
    ForumQueueItem: { bodyHtml: bodyHtmlUnderBase },
    Query: { ...memberModeration.Query },
    Mutation: {
      likeForumPost: like(likePost),
      unlikeForumPost: like(unlikePost),
      likeForumReply: like(likeReply),
      unlikeForumReply: like(unlikeReply),
      reactForum: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = memberCall(ctx);
        return react(deps, viewer, targetKindOf(args.targetKind), requireId(args.id), args.reaction, bool(args.on));
      },
      followForumPost: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = memberCall(ctx);
        return followPost(deps, viewer, requireId(args.id), bool(args.on));
      },
      reportForum: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = memberCall(ctx);
        await reportContent(deps, viewer, targetKindOf(args.targetKind), requireId(args.id), { reason: args.reason, description: args.description });
        return true;
      },
      ...memberModeration.Mutation,
    },
  },
};

export const forumActionsAdminGraphQL: GraphQLPart = {
  typeDefs: forumActionsAdminTypeDefs,
  resolvers: {
    ForumQueueItem: { bodyHtml: bodyHtmlUnderBase },
    Query: {
      ...adminModeration.Query,
      forumTopics: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        return (await listTopicsForStaff(deps, viewer, { includeArchived: args.includeArchived !== false })).map(topicOut);
      },
      forumActions: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const page = await listActions(deps, viewer, { after: args.after });
        return { actions: page.actions.map(actionOut), next: page.next };
      },
    },
    Mutation: {
      ...adminModeration.Mutation,
      createForumTopic: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        return topicOut(await createTopic(deps, viewer, args.name));
      },
      renameForumTopic: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        return topicOut(await renameTopic(deps, viewer, requireId(args.id), args.name));
      },
      moveForumTopic: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        return topicOut(await moveTopic(deps, viewer, requireId(args.id), typeof args.direction === 'string' ? args.direction.toLowerCase() : args.direction));
      },
      archiveForumTopic: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        return topicOut(await setTopicArchived(deps, viewer, requireId(args.id), bool(args.archived)));
      },
      pinForumPost: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const id = requireId(args.id);
        return { id, ...(await setPinned(deps, viewer, id, bool(args.on))) };
      },
      setForumAllPostsWait: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const { allPostsWait } = await setAllPostsWait(deps, viewer, bool(args.on));
        // This process forgets its cached communities now; the others hear the change (NOTIFY).
        ctx.request.server.communities.invalidate();
        return allPostsWait;
      },
    },
  },
};
