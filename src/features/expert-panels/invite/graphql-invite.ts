import { AppError } from '#src/core/errors.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { resolveInvitation } from './links.ts';
import { ensureOpenQuestions } from './questions.ts';
import type { InviteQuestionView } from './types.ts';

/**
 * Invitation questions on the member schema (issue 15, decision 0035): the open questions an
 * invitation link names, by its parts. Signed out, the signature authorises (until it expires);
 * with a bearer token or a cookie, the caller must be the link's member (then an expired link still
 * answers). Errors: ExpertPanels.InviteMissingIds (no ids), ExpertPanels.InviteLoadFailed (bad
 * signature, expired, another member, another community), ExpertPanels.InviteNoneUnanswered. `ids` is
 * a nullable list so that a call without ids gets the spec's missing-ids error rather than a
 * validation error.
 */
export const inviteMemberTypeDefs = /* GraphQL */ `
  "An open question of an expert-panel invitation. deadline: ISO 8601. briefHtml, guidelinesHtml: sanitised HTML."
  type ExpertInvitationQuestion {
    id: ID!
    title: String!
    panelName: String!
    deadline: String!
    briefHtml: String!
    guidelinesHtml: String!
    minWords: Int!
    maxWords: Int!
  }
  extend type Query {
    "The questions of an invitation link still open for its member: ids, member (m), expires (exp, unix seconds) and signature (sig) as the link carries them. No ids (omitted, null or empty): ExpertPanels.InviteMissingIds, as on the page."
    expertInvitationQuestions(ids: [ID!], member: ID!, expires: Int!, signature: String!): [ExpertInvitationQuestion!]!
  }
`;

const out = (q: InviteQuestionView) => ({ ...q, id: String(q.id), deadline: q.deadline.toISOString() });

export const inviteMemberGraphQL: GraphQLPart = {
  typeDefs: inviteMemberTypeDefs,
  resolvers: {
    Query: {
      expertInvitationQuestions: async (_root: unknown, args: { ids?: string[] | null; member: string; expires: number; signature: string }, ctx: GraphQLContext) => {
        const app = ctx.request.server;
        const input = { ids: args.ids?.length ? args.ids.join(',') : undefined, m: String(args.member), exp: String(args.expires), sig: args.signature };
        const signedIn = ctx.guardian.isSignedIn ? ctx.guardian.userId : null;
        const access = resolveInvitation(app.config.cookieSecret, ctx.community.id, input, app.clock.now(), signedIn);
        if (!access.ok) throw access.error;
        if (access.link.questionIds.length === 0) throw new AppError('ExpertPanels.InviteMissingIds');
        return (await ensureOpenQuestions(ctx.db, ctx.community, access.link.userId, access.link.questionIds)).map(out);
      },
    },
  },
};
