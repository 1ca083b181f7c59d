import { AppError, isAppError } from '#src/core/errors.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { amplifyMemberResolvers, amplifyMemberTypeDefs } from './amplify-graphql.ts';
import { listStatements, statementPath, type StatementSummary } from './billing.ts';
import { formatMoney } from './money.ts';

/**
 * `me.statements` (spec section 7, "statements (within me)"; section 3 "Statement": id, name,
 * purchasedAt, amount, statementUrl). Newest first, a page at a time: pass the last statement's
 * `cursor` as `after` for the next page.
 */
export const billingMemberTypeDefs = /* GraphQL */ `
  "A purchase's statement (dues, a purchase, an amplification), with its PDF."
  type Statement {
    id: ID!
    name: String!
    "When the payment went through (ISO 8601)."
    purchasedAt: String!
    "The amount as shown to people, in the statement's currency: \\"$1,234.56\\". For arithmetic use amountCents."
    amount: String!
    "The amount in the currency's minor unit (cents), an integer."
    amountCents: Int!
    "ISO 4217 currency code, e.g. USD."
    currency: String!
    "The PDF statement's address: /rest/statements/{id}.pdf on this site; GET it with the session cookie or the bearer token."
    statementUrl: String!
    "Pass as \`after\` to read the statements older than this one."
    cursor: String!
  }
  extend type Me {
    "One's own statements in this community, newest first: first (1..100, default 20) after a cursor."
    statements(first: Int, after: String): [Statement!]!
  }
`;

const out = (basePath: string) => (s: StatementSummary) => ({
  id: String(s.id),
  name: s.name,
  purchasedAt: s.purchasedAt.toISOString(),
  amount: formatMoney(s.amountCents, s.currency),
  amountCents: s.amountCents,
  currency: s.currency,
  statementUrl: statementPath(basePath, s.id),
  cursor: s.cursor,
});

export const billingMemberResolvers = {
  Me: {
    statements: async (parent: { id: string }, args: { first?: number | null; after?: string | null }, ctx: GraphQLContext) => {
      ctx.guardian.ensureSignedIn();
      try {
        const page = await listStatements(ctx.db, ctx.community, Number(parent.id), { first: args.first ?? undefined, after: args.after ?? null });
        return page.statements.map(out(ctx.request.server.config.basePath));
      } catch (e) {
        if (isAppError(e)) throw e;
        ctx.request.log.error({ err: e }, 'statements could not be loaded');
        throw new AppError('Billing.StatementsUnavailable', { cause: e });
      }
    },
  },
};

/** The payments area's part of the member schema: statements and amplification. */
export const billingMemberGraphQL: GraphQLPart = {
  typeDefs: `${billingMemberTypeDefs}\n${amplifyMemberTypeDefs}`,
  resolvers: { ...billingMemberResolvers, ...amplifyMemberResolvers },
};
