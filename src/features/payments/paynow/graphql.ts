import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { ensureWithinLimit } from './limits.ts';
import { checkAndRemember, headerKey, payRef } from './rest.ts';
import { keyFromToken, memberSubscription, parseToken, payBalance } from './service.ts';

/**
 * The pay-now part of the member schema (spec section 7): `subscriptionBalance(subscriptionId, userId)`
 * and `paySubscriptionByToken(userId, token)` → id, both public (they identify the member by the pair,
 * like the page; the /graphql route lets visitors through and these resolvers ask for no sign-in), and
 * `me.subscription.outstandingBalance`. Money is integer cents of `currency`. The pay mutation takes
 * the `Idempotency-Key` header, else the token is the key (a token serves once).
 */
export const payNowTypeDefs = /* GraphQL */ `
  "Spec 'Subscription balance'. outstandingBalance: integer cents of currency. renewalDate: ISO 8601."
  type SubscriptionBalance {
    memberName: String!
    publicKey: String!
    serverHost: String!
    outstandingBalance: Int!
    currency: String!
    showNoBalanceDue: Boolean!
    renewalDate: String
  }
  "The signed-in member's membership subscription. outstandingBalance: integer cents of currency."
  type MemberSubscription {
    id: ID!
    status: String!
    outstandingBalance: Int!
    currency: String!
    renewalDate: String
    pastDueSince: String
  }
  extend type Me {
    subscription: MemberSubscription
  }
  extend type Query {
    "The balance behind a pay-now link. An unknown or mismatched pair: Payments.InvalidMembership."
    subscriptionBalance(subscriptionId: ID!, userId: ID!): SubscriptionBalance!
  }
  extend type Mutation {
    "Pays the outstanding balance with a one-time card token; answers the payment's id. Without subscriptionId: the balance this client checked for userId in the last 30 minutes (subscriptionBalance, check-balance, the pay-now page), else the signed-in member's own."
    paySubscriptionByToken(userId: ID!, token: String!, subscriptionId: ID): ID!
  }
`;

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export const payNowMemberGraphQL: GraphQLPart = {
  typeDefs: payNowTypeDefs,
  resolvers: {
    Query: {
      subscriptionBalance: async (_root: unknown, args: { subscriptionId: string; userId: string }, ctx: GraphQLContext) => {
        await ensureWithinLimit(ctx.request, 'lookup');
        return checkAndRemember(ctx.request.server, ctx.request, ctx.reply, args);
      },
    },
    Mutation: {
      paySubscriptionByToken: async (_root: unknown, args: { userId: string; token: string; subscriptionId?: string | null }, ctx: GraphQLContext) => {
        await ensureWithinLimit(ctx.request, 'pay');
        const app = ctx.request.server;
        const token = parseToken(args.token);
        const key = headerKey(ctx.request) ?? keyFromToken(token);
        const ref = await payRef(app, ctx.community, ctx.request, args);
        const outcome = await payBalance(app, ctx.community, { ref, actorId: ctx.guardian.userId, idempotencyKey: key, source: { token } });
        if (outcome.status === 'refused') throw outcome.error;
        return String(outcome.id);
      },
    },
    Me: {
      subscription: async (parent: { id: string }, _args: unknown, ctx: GraphQLContext) => {
        const row = await memberSubscription(ctx.db, ctx.community, Number(parent.id));
        if (!row) return null;
        return {
          id: row.id,
          status: row.status.toUpperCase(),
          outstandingBalance: row.outstanding_cents,
          currency: row.currency,
          renewalDate: iso(row.renews_at),
          pastDueSince: iso(row.past_due_since),
        };
      },
    },
  },
};
