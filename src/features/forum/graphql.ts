import { AppError } from '#src/core/errors.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import { requireId } from '#src/core/ids.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { userOut } from '#src/features/members/index.ts';
import { ensureForumOn, type ForumDeps, type ForumViewer } from './deps.ts';
import { createPost, deletePost, editPost, getPost, listPosts } from './posts.ts';
import { mentionLinksUnder } from './mentions.ts';
import { likedByMe } from './queries.ts';
import { createReply, deleteReply, editReply, listReplies } from './replies.ts';
import { listTopics } from './topics.ts';
import type { PostSummary, PostView, ReactionCount, ReplyView, TopicView } from './types.ts';

/**
 * The forum on the member schema (/graphql): the list, a post, its replies, the topics, and writing,
 * editing and deleting posts and replies, through the same services as the pages. Where the
 * community's forum is off, every operation is NOT_FOUND. Authors are the member snapshot type `User`
 * (declared by the directory's part). Likes, reactions, follows, reports and moderation are the
 * ACTIONS part's (forum-actions).
 */
export const forumMemberTypeDefs = /* GraphQL */ `
  enum ForumStatus { PUBLISHED PENDING REJECTED REMOVED }
  type ForumTopic { id: ID!, name: String!, position: Int!, archived: Boolean! }
  type ForumReaction { reaction: String!, count: Int!, mine: Boolean! }
  "A forum post. In forumPosts lists, bodyHtml, followedByMe, reportedByMe and reactions are null (read forumPost for them)."
  type ForumPost {
    id: ID!
    title: String!
    "Sanitised HTML; mentions are profile links."
    bodyHtml: String
    "About 200 characters of the plain text."
    excerpt: String!
    author: User!
    topics: [ForumTopic!]!
    replyCount: Int!
    likeCount: Int!
    likedByMe: Boolean!
    followedByMe: Boolean
    reportedByMe: Boolean
    reactions: [ForumReaction!]
    lastActivityAt: String!
    createdAt: String!
    editedAt: String
    pinned: Boolean!
    locked: Boolean!
    status: ForumStatus!
    "Why a moderator rejected or removed it; only for its author and moderators."
    moderationNote: String
    "The viewer never opened it (their own posts never are): read tracking, decision 0065."
    unread: Boolean!
    "Published replies by others since the viewer's last visit (after the highest reply they were shown); 0 on a post they never opened (then every reply is new)."
    newReplyCount: Int!
    "Up to three who replied most recently (not the author), newest first."
    repliers: [User!]!
  }
  type ForumReply {
    id: ID!
    postId: ID!
    author: User!
    bodyHtml: String!
    createdAt: String!
    editedAt: String
    status: ForumStatus!
    moderationNote: String
    likeCount: Int!
    likedByMe: Boolean!
    reportedByMe: Boolean!
    reactions: [ForumReaction!]!
  }
  "A page of the list: pinned posts (first unfiltered page only), the posts, and the cursor of the next page (null on the last)."
  type ForumPostConnection { pinned: [ForumPost!]!, posts: [ForumPost!]!, next: String }
  type ForumReplyConnection { replies: [ForumReply!]!, next: String }
  "A new or changed post: the title, the message (rich text HTML, sanitised as articles are), one to three topics."
  input ForumPostInput { title: String, body: String, topicIds: [ID!] }

  extend type Query {
    "Posts, newest activity first; topicId filters, q searches (web search syntax). Pages of first (default 20, at most 100) after the previous page's next."
    forumPosts(topicId: ID, q: String, after: String, first: Int): ForumPostConnection!
    "A post; 'Forum.PostNotFound' when missing, removed or another community's."
    forumPost(id: ID!): ForumPost!
    "A thread's replies, oldest first. Reading a page records the viewer's visit (the highest reply it holds): the list's unread and newReplyCount follow it."
    forumReplies(postId: ID!, after: String, first: Int): ForumReplyConnection!
    "The forum's open topics, in order."
    forumTopics: [ForumTopic!]!
  }
  extend type Mutation {
    createForumPost(input: ForumPostInput!): ForumPost!
    editForumPost(id: ID!, input: ForumPostInput!): ForumPost!
    deleteForumPost(id: ID!): Boolean!
    createForumReply(postId: ID!, body: String): ForumReply!
    editForumReply(id: ID!, body: String): ForumReply!
    deleteForumReply(id: ID!): Boolean!
  }
`;

type Args = Record<string, unknown>;

/** The services' deps and the viewer; the forum off is NOT_FOUND before anything else. */
function forumOf(ctx: GraphQLContext): { deps: ForumDeps; viewer: ForumViewer } {
  ctx.guardian.ensureSignedIn();
  ensureForumOn(ctx.community);
  const app = ctx.request.server;
  return {
    deps: { db: ctx.db, clock: app.clock, community: ctx.community, t: app.t, notifier: app.notifications, publicUrl: `${app.config.publicUrl}${app.config.basePath}`, jobs: app.jobs },
    viewer: { userId: ctx.guardian.userId!, isStaff: ctx.guardian.isAdmin },
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const topicOut = (t: TopicView) => ({ id: String(t.id), name: t.name, position: t.position, archived: t.archived });
const reactionOut = (r: ReactionCount) => ({ reaction: r.reaction, count: r.count, mine: r.mine });

function summaryOut(p: PostSummary, liked: boolean) {
  return {
    id: String(p.id),
    title: p.title,
    bodyHtml: null,
    excerpt: p.excerpt,
    author: userOut(p.author),
    topics: p.topics.map(topicOut),
    replyCount: p.replyCount,
    likeCount: p.likeCount,
    likedByMe: liked,
    followedByMe: null,
    reportedByMe: null,
    reactions: null,
    lastActivityAt: p.lastActivityAt.toISOString(),
    createdAt: p.createdAt.toISOString(),
    editedAt: null,
    pinned: p.pinned,
    locked: p.locked,
    status: p.status.toUpperCase(),
    moderationNote: null,
    unread: p.unread,
    newReplyCount: p.newReplyCount,
    repliers: p.repliers.map(userOut),
  };
}

function postOut(p: PostView) {
  return {
    ...summaryOut(p, p.likedByMe),
    bodyHtml: p.bodyHtml,
    followedByMe: p.followedByMe,
    reportedByMe: p.reportedByMe,
    reactions: p.reactions.map(reactionOut),
    editedAt: iso(p.editedAt),
    moderationNote: p.moderationNote,
  };
}

function replyOut(r: ReplyView) {
  return {
    id: String(r.id),
    postId: String(r.postId),
    author: userOut(r.author),
    bodyHtml: r.bodyHtml,
    createdAt: r.createdAt.toISOString(),
    editedAt: iso(r.editedAt),
    status: r.status.toUpperCase(),
    moderationNote: r.moderationNote,
    likeCount: r.likeCount,
    likedByMe: r.likedByMe,
    reportedByMe: r.reportedByMe,
    reactions: r.reactions.map(reactionOut),
  };
}

const optionalString = (v: unknown): string | null => {
  if (v == null) return null;
  if (typeof v !== 'string') throw new AppError('BadRequest.Validation');
  return v;
};
const optionalInt = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);
const postInput = (v: unknown) => {
  const input = (v ?? {}) as Record<string, unknown>;
  return { title: input.title ?? null, body: input.body ?? null, topicIds: input.topicIds === null ? undefined : input.topicIds };
};

/** Stored bodies link mentions as application paths; under BASE_PATH they are shown inside the prefix. */
export const bodyHtmlUnderBase = (parent: { bodyHtml: string | null }, _args: unknown, ctx: GraphQLContext) =>
  parent.bodyHtml == null ? null : mentionLinksUnder(parent.bodyHtml, ctx.request.server.config.basePath);

export const forumMemberGraphQL: GraphQLPart = {
  typeDefs: forumMemberTypeDefs,
  resolvers: {
    ForumPost: { bodyHtml: bodyHtmlUnderBase },
    ForumReply: { bodyHtml: bodyHtmlUnderBase },
    Query: {
      forumPosts: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = forumOf(ctx);
        const page = await listPosts(deps, viewer, {
          topicId: args.topicId == null ? null : requireId(args.topicId),
          q: optionalString(args.q),
          after: optionalString(args.after),
          first: optionalInt(args.first),
        });
        const liked = await likedByMe(deps.db, deps.community, 'post', [...page.pinned, ...page.posts].map((p) => p.id), viewer.userId);
        return { pinned: page.pinned.map((p) => summaryOut(p, liked.has(p.id))), posts: page.posts.map((p) => summaryOut(p, liked.has(p.id))), next: page.next };
      },
      forumPost: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = forumOf(ctx);
        return postOut(await getPost(deps, viewer, postIdOf(args.id)));
      },
      forumReplies: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = forumOf(ctx);
        const page = await listReplies(deps, viewer, postIdOf(args.postId), { after: optionalString(args.after), first: optionalInt(args.first) });
        return { replies: page.replies.map(replyOut), next: page.next };
      },
      forumTopics: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
        const { deps } = forumOf(ctx);
        return (await listTopics(deps)).map(topicOut);
      },
    },
    Mutation: {
      createForumPost: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = forumOf(ctx);
        const input = postInput(args.input);
        return postOut(await createPost(deps, viewer, { ...input, topicIds: input.topicIds ?? [] }));
      },
      editForumPost: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = forumOf(ctx);
        return postOut(await editPost(deps, viewer, postIdOf(args.id), postInput(args.input)));
      },
      deleteForumPost: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = forumOf(ctx);
        await deletePost(deps, viewer, postIdOf(args.id));
        return true;
      },
      createForumReply: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = forumOf(ctx);
        return replyOut(await createReply(deps, viewer, postIdOf(args.postId), { body: args.body ?? null }));
      },
      editForumReply: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = forumOf(ctx);
        return replyOut(await editReply(deps, viewer, replyIdOf(args.id), { body: args.body ?? null }));
      },
      deleteForumReply: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = forumOf(ctx);
        await deleteReply(deps, viewer, replyIdOf(args.id));
        return true;
      },
    },
  },
};

/** A post id argument; a malformed one is the same 'Post not found' as a missing post. */
function postIdOf(v: unknown): number {
  return requireId(v, () => new AppError('Forum.PostNotFound'));
}

function replyIdOf(v: unknown): number {
  return requireId(v, () => new AppError('Forum.ReplyNotFound'));
}
