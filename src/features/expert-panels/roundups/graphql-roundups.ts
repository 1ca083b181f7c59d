import { AppError } from '#src/core/errors.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import { requireId } from '#src/core/ids.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import type { MemberSnapshot } from '#src/features/members/index.ts';
import { epDeps, type EpDeps, type EpViewer } from '../deps.ts';
import { isRoundupStatus } from '../rules.ts';
import { getRoundup, listRoundups, livePathOf, publishedRoundup, searchWords } from './read.ts';
import { createRoundup, moveRoundup, setRoundupAnswers, updateRoundup } from './service.ts';
import type { PublishedRoundup, RoundupAnswerView, RoundupDetail, RoundupRow } from './types.ts';

/**
 * Roundups over GraphQL (issue 15), through the same services as the pages. Staff (/graphqlAdmin):
 * the board, one roundup, create, update, set its answers (the list's order is theirs), move its
 * status. Anyone (/graphql): a published roundup by its slug. The introduction is HTML, sanitised
 * as articles are.
 */

export const roundupAdminTypeDefs = /* GraphQL */ `
  "A roundup's status (spec section 4); FINAL is shown as Published."
  enum RoundupStatus { DRAFT EDITOR_REVIEW READY_FOR_PUBLISHING FINAL }
  "A member as a roundup shows them (the snapshot as it is now)."
  type ExpertRoundupMember { id: ID!, name: String!, companyName: String, jobTitle: String, avatar: String }
  type ExpertRoundupAnswer { id: ID!, position: Int!, member: ExpertRoundupMember!, "Sanitised HTML." bodyHtml: String!, wordCount: Int! }
  type ExpertRoundupMove { id: ID!, from: RoundupStatus!, to: RoundupStatus!, "Who moved it (null: no longer known)." actorName: String, at: String! }
  type ExpertRoundup {
    id: ID!
    questionId: ID!
    questionTitle: String!
    title: String!
    "Sanitised HTML."
    introHtml: String!
    status: RoundupStatus!
    "The status as pages name it (FINAL: Published)."
    statusLabel: String!
    answerCount: Int!
    "Once published: the live page's slug and address."
    slug: String
    liveUrl: String
    publishedAt: String
    createdAt: String!
    updatedAt: String!
    "In order (only on expertRoundup and the mutations)."
    answers: [ExpertRoundupAnswer!]
    "Accepted answers of the question not yet in the roundup."
    candidates: [ExpertRoundupAnswer!]
    "Newest first."
    moves: [ExpertRoundupMove!]
    allowedMoves: [RoundupStatus!]
  }
  type ExpertRoundupPage { roundups: [ExpertRoundup!]!, "The cursor of the next page, or null." next: String }
  input ExpertRoundupFilters { status: RoundupStatus, "Words of the title." q: String }
  extend type Query {
    "The community's roundups, newest first."
    expertRoundups(filters: ExpertRoundupFilters, first: Int, after: String): ExpertRoundupPage!
    expertRoundup(id: ID!): ExpertRoundup!
  }
  extend type Mutation {
    "A new DRAFT roundup of a question; intro is HTML."
    createExpertRoundup(questionId: ID!, title: String!, intro: String): ExpertRoundup!
    updateExpertRoundup(id: ID!, title: String!, intro: String): ExpertRoundup!
    "The roundup's answers are exactly these accepted answers of its question, in this order (a list is required; [] empties it). The list is [ID!], not [ID!]!: arguments stay two wrappers deep (the schemas' depth limit and introspection)."
    setExpertRoundupAnswers(id: ID!, answerIds: [ID!]): ExpertRoundup!
    "Moves along the allowed moves only (else ExpertPanels.MoveNotAllowed); FINAL publishes."
    moveExpertRoundup(id: ID!, to: RoundupStatus!): ExpertRoundup!
  }
`;

export const roundupMemberTypeDefs = /* GraphQL */ `
  type PublishedExpertRoundupMember { id: ID!, name: String!, companyName: String, jobTitle: String, avatar: String }
  type PublishedExpertRoundupAnswer { id: ID!, position: Int!, member: PublishedExpertRoundupMember!, "Sanitised HTML." bodyHtml: String! }
  type PublishedExpertRoundup {
    id: ID!
    slug: String!
    title: String!
    introHtml: String!
    questionTitle: String!
    questionBriefHtml: String!
    publishedAt: String!
    liveUrl: String!
    answers: [PublishedExpertRoundupAnswer!]!
  }
  extend type Query {
    "A published roundup of this community by its slug (null when there is none); signed out too."
    publishedExpertRoundup(slug: String!): PublishedExpertRoundup
  }
`;

type Args = Record<string, unknown>;

function staffCall(ctx: GraphQLContext): { deps: EpDeps; viewer: EpViewer } {
  ctx.guardian.ensureAdmin();
  return { deps: epDeps(ctx.request), viewer: { userId: ctx.guardian.userId!, isStaff: true } };
}

const memberOut = (m: MemberSnapshot) => ({ id: m.id, name: m.name, companyName: m.companyName, jobTitle: m.jobTitle, avatar: m.avatar });
const answerOut = (a: RoundupAnswerView) => ({ id: a.answerId, position: a.position, member: memberOut(a.member), bodyHtml: a.bodyHtml, wordCount: a.wordCount });
const iso = (d: Date | null) => (d ? d.toISOString() : null);

function rowOut(ctx: GraphQLContext, r: RoundupRow) {
  const live = r.status === 'FINAL' && r.slug ? livePathOf(r.slug) : null;
  return {
    id: r.id,
    questionId: r.questionId,
    questionTitle: r.questionTitle,
    title: r.title,
    introHtml: r.introHtml,
    status: r.status,
    statusLabel: ctx.request.server.t(`expertPanelsRoundups.status.${r.status}`),
    answerCount: r.answerCount,
    slug: live ? r.slug : null,
    liveUrl: live ? `${ctx.request.server.config.publicUrl}${ctx.request.server.config.basePath}${live}` : null,
    publishedAt: iso(r.publishedAt),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    answers: null,
    candidates: null,
    moves: null,
    allowedMoves: null,
  };
}

function detailOut(ctx: GraphQLContext, r: RoundupDetail) {
  return {
    ...rowOut(ctx, r),
    answers: r.answers.map(answerOut),
    candidates: r.candidates.map(answerOut),
    moves: r.moves.map((m) => ({ id: m.id, from: m.from, to: m.to, actorName: m.actorName, at: m.at.toISOString() })),
    allowedMoves: r.allowedMoves,
  };
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The roundup as it is now, after a change. */
const detail = async (ctx: GraphQLContext, deps: EpDeps, viewer: EpViewer, id: number) => detailOut(ctx, await getRoundup(deps, viewer, id));

export const roundupAdminGraphQL: GraphQLPart = {
  typeDefs: roundupAdminTypeDefs,
  resolvers: {
    Query: {
      expertRoundups: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const filters = (args.filters ?? {}) as Args;
        const status = filters.status == null ? null : isRoundupStatus(filters.status) ? filters.status : null;
        const first = typeof args.first === 'number' ? args.first : undefined;
        const page = await listRoundups(deps, viewer, { status, q: searchWords(filters.q), after: str(args.after) ?? null }, first);
        return { roundups: page.rows.map((r) => rowOut(ctx, r)), next: page.next };
      },
      expertRoundup: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        return detail(ctx, deps, viewer, requireId(args.id));
      },
    },
    Mutation: {
      createExpertRoundup: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const questionId = idOrQuestionNotFound(args.questionId);
        const { id } = await createRoundup(deps, viewer, { questionId, title: args.title, intro: args.intro ?? '' });
        return detail(ctx, deps, viewer, id);
      },
      updateExpertRoundup: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const id = requireId(args.id);
        await updateRoundup(deps, viewer, id, { title: args.title, intro: args.intro ?? undefined });
        return detail(ctx, deps, viewer, id);
      },
      setExpertRoundupAnswers: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const id = requireId(args.id);
        if (!Array.isArray(args.answerIds)) throw new AppError('BadRequest.Validation');
        await setRoundupAnswers(deps, viewer, id, args.answerIds);
        return detail(ctx, deps, viewer, id);
      },
      moveExpertRoundup: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const id = requireId(args.id);
        await moveRoundup(deps, viewer, id, args.to);
        return detail(ctx, deps, viewer, id);
      },
    },
  },
};

/** A question id argument, or the question-not-found error (no row has any other id). */
function idOrQuestionNotFound(v: unknown): number {
  return requireId(v, () => new AppError('ExpertPanels.QuestionNotFound'));
}

const publishedOut = (ctx: GraphQLContext, r: PublishedRoundup) => ({
  id: r.id,
  slug: r.slug,
  title: r.title,
  introHtml: r.introHtml,
  questionTitle: r.questionTitle,
  questionBriefHtml: r.questionBriefHtml,
  publishedAt: r.publishedAt.toISOString(),
  liveUrl: `${ctx.request.server.config.publicUrl}${ctx.request.server.config.basePath}${livePathOf(r.slug)}`,
  answers: r.answers.map((a) => ({ id: a.answerId, position: a.position, member: memberOut(a.member), bodyHtml: a.bodyHtml })),
});

export const roundupMemberGraphQL: GraphQLPart = {
  typeDefs: roundupMemberTypeDefs,
  resolvers: {
    Query: {
      publishedExpertRoundup: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const found = await publishedRoundup({ db: ctx.db, community: ctx.community, t: ctx.request.server.t }, args.slug);
        return found ? publishedOut(ctx, found) : null;
      },
    },
  },
};
