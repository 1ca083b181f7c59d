import { AppError } from '#src/core/errors.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import { requireId } from '#src/core/ids.ts';
import { buyAmplification, listActivePackages, type AmplificationPackage } from './amplify.ts';
import { statementPath } from './billing.ts';
import { declineError } from './ledger.ts';
import { formatMoney } from './money.ts';

/**
 * Amplification on the member schema: the community's packages, and buying one for one's own
 * published article (the same service as the page). A refused card is an error with the catalogue's
 * code (Payments.Declined, Payments.Cvv, ...: 400s), as pay-now shows it inline.
 */
export const amplifyMemberTypeDefs = /* GraphQL */ `
  "A package that promotes a published article. price is formatted (\\"$499.00\\"); priceCents is the integer amount."
  type AmplificationPackage { id: ID!, name: String!, description: String!, price: String!, priceCents: Int!, currency: String! }
  "What was bought for an article."
  type AmplificationOrder { id: ID!, articleId: ID!, packageName: String!, amount: String!, amountCents: Int!, createdAt: String!, statementUrl: String }
  extend type Query {
    "The community's active amplification packages (empty when it sells none)."
    amplificationPackages: [AmplificationPackage!]!
  }
  extend type Mutation {
    """
    Buys an amplification package for one's own published article, with exactly one of a saved card
    (savedPaymentId) or a one-time token from the card provider (saved as the new default card).
    idempotencyKey: 16..100 url-safe characters made by the client once per purchase intent; the same
    key again answers the first purchase and never charges twice.
    """
    amplifyArticle(articleId: ID!, packageId: ID!, idempotencyKey: String!, savedPaymentId: ID, token: String): AmplificationOrder!
  }
`;

const packageOut = (p: AmplificationPackage) => ({ id: String(p.id), name: p.name, description: p.description, price: formatMoney(p.priceCents, p.currency), priceCents: p.priceCents, currency: p.currency });

export const amplifyMemberResolvers = {
  Query: {
    amplificationPackages: async (_root: unknown, _args: unknown, ctx: GraphQLContext) => {
      ctx.guardian.ensureSignedIn();
      return (await listActivePackages(ctx.db, ctx.community)).map(packageOut);
    },
  },
  Mutation: {
    amplifyArticle: async (
      _root: unknown,
      args: { articleId: string; packageId: string; idempotencyKey: string; savedPaymentId?: string | null; token?: string | null },
      ctx: GraphQLContext,
    ) => {
      ctx.guardian.ensureSignedIn();
      const hasCard = args.savedPaymentId !== undefined && args.savedPaymentId !== null;
      const hasToken = typeof args.token === 'string' && args.token !== '';
      if (hasCard === hasToken) throw new AppError(900);
      if (hasToken && (args.token!.length > 200 || !/^[\x21-\x7e]+$/.test(args.token!))) throw new AppError(900);
      const userId = ctx.guardian.userId!;
      const result = await buyAmplification(ctx.request.server, {
        community: ctx.community,
        userId,
        actorId: userId,
        articleId: requireId(args.articleId),
        packageId: requireId(args.packageId),
        idempotencyKey: args.idempotencyKey,
        source: hasCard ? { savedPaymentId: requireId(args.savedPaymentId) } : { token: args.token! },
      });
      if (result.status !== 'succeeded') throw declineError(result.code);
      return {
        id: String(result.order.id),
        articleId: String(result.article.id),
        packageName: result.order.packageName,
        amount: formatMoney(result.order.priceCents, result.order.currency),
        amountCents: result.order.priceCents,
        createdAt: result.order.createdAt.toISOString(),
        statementUrl: result.statementId ? statementPath(ctx.request.server.config.basePath, result.statementId) : null,
      };
    },
  },
};
