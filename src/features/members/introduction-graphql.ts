import { AppError } from '#src/core/errors.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { approveIntroduction, declineIntroduction, introductionQueue, listMyIntroductions, requestIntroduction, type IntroDeps, type IntroductionView } from './introductions.ts';
import type { MemberSnapshot } from './types.ts';
import { requireId } from '#src/core/ids.ts';

/**
 * Introductions on both schemas: a member asks for an introduction and reads their own requests
 * (/graphql); staff read the pending queue and approve or decline (/graphqlAdmin). The service holds
 * the rules; errors reach clients as `extensions.code`.
 */

const sharedTypeDefs = /* GraphQL */ `
  enum IntroductionStatus { PENDING APPROVED DECLINED }
  "A member as an introduction request shows them (the member snapshot's public fields)."
  type IntroductionMember {
    id: ID!
    name: String!
    firstName: String!
    lastName: String!
    companyName: String
    jobTitle: String
    location: String
    avatar: String
  }
  type IntroductionRequest {
    id: ID!
    status: IntroductionStatus!
    reason: String!
    "The staff note of an approval, or the reason of a decline."
    reviewNote: String
    createdAt: String!
    reviewedAt: String
    requester: IntroductionMember!
    target: IntroductionMember!
  }
`;

export const introductionMemberTypeDefs = /* GraphQL */ `
  ${sharedTypeDefs}
  extend type Query {
    "The signed-in member's introduction requests, newest first."
    introductionRequests: [IntroductionRequest!]!
  }
  extend type Mutation {
    "Asks the community team to introduce the signed-in member to another member, saying why."
    introductionRequest(userId: ID!, reason: String!): IntroductionRequest!
  }
`;

export const introductionAdminTypeDefs = /* GraphQL */ `
  ${sharedTypeDefs}
  extend type Query {
    "Requests waiting for review in the admin's community, oldest first."
    introductionRequestsPending: [IntroductionRequest!]!
  }
  extend type Mutation {
    introductionApprove(id: ID!, note: String): IntroductionRequest!
    introductionDecline(id: ID!, reason: String!): IntroductionRequest!
  }
`;

type Args = Record<string, unknown>;


function depsOf(ctx: GraphQLContext): IntroDeps {
  const app = ctx.request.server;
  return {
    db: ctx.db,
    clock: app.clock,
    community: ctx.community,
    t: app.t,
    messages: app.messages,
    publicUrl: `${app.config.publicUrl}${app.config.basePath}`,
    mailFrom: app.config.mailFrom,
    notifier: app.notifications,
  };
}

const memberOut = (m: MemberSnapshot) => ({
  id: m.id,
  name: m.name,
  firstName: m.firstName,
  lastName: m.lastName,
  companyName: m.companyName,
  jobTitle: m.jobTitle,
  location: m.location,
  avatar: m.avatar,
});

const requestOut = (r: IntroductionView) => ({
  id: r.id,
  status: r.status,
  reason: r.reason,
  reviewNote: r.reviewNote,
  createdAt: r.createdAt.toISOString(),
  reviewedAt: r.reviewedAt ? r.reviewedAt.toISOString() : null,
  requester: memberOut(r.requester),
  target: memberOut(r.target),
});

function memberId(ctx: GraphQLContext): number {
  ctx.guardian.ensureSignedIn();
  return ctx.guardian.userId!;
}

function staffId(ctx: GraphQLContext): number {
  ctx.guardian.ensureAdmin();
  return ctx.guardian.userId!;
}

export const introductionMemberGraphQL: GraphQLPart = {
  typeDefs: introductionMemberTypeDefs,
  resolvers: {
    Query: {
      introductionRequests: async (_root: unknown, _args: Args, ctx: GraphQLContext) => (await listMyIntroductions(depsOf(ctx), memberId(ctx))).map(requestOut),
    },
    Mutation: {
      introductionRequest: async (_root: unknown, args: Args, ctx: GraphQLContext) =>
        requestOut(await requestIntroduction(depsOf(ctx), memberId(ctx), { targetId: requireId(args.userId), reason: args.reason })),
    },
  },
};

export const introductionAdminGraphQL: GraphQLPart = {
  typeDefs: introductionAdminTypeDefs,
  resolvers: {
    Query: {
      introductionRequestsPending: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
        staffId(ctx);
        return (await introductionQueue(depsOf(ctx))).pending.map(requestOut);
      },
    },
    Mutation: {
      introductionApprove: async (_root: unknown, args: Args, ctx: GraphQLContext) => requestOut(await approveIntroduction(depsOf(ctx), staffId(ctx), requireId(args.id), args.note)),
      introductionDecline: async (_root: unknown, args: Args, ctx: GraphQLContext) => requestOut(await declineIntroduction(depsOf(ctx), staffId(ctx), requireId(args.id), args.reason)),
    },
  },
};
