import { AppError } from '#src/core/errors.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { staffCommunity } from '#src/features/members/index.ts';
import { addCard, adminScope, authLog, changeDefault, deleteCard, listCards, memberScope, ownerOfCard, paymentProcessorFor, type AuthLogEntry, type CardsScope, type SavedCard } from './service.ts';
import { requireId } from '#src/core/ids.ts';

/**
 * Saved cards on the member schema (/graphql: one's own cards) and the staff schema (/graphqlAdmin:
 * a member of the current community, by userId, and the cards' authorisation logs). Spec section 7.
 * Refusals come back as `extensions.code` (catalogue codes: NotFound, Forbidden,
 * Payments.DefaultCardRemoval, SavedCards.*) with the mode's message.
 */
const sharedTypes = /* GraphQL */ `
  enum SavedPaymentCardType { VISA MASTERCARD AMERICAN_EXPRESS DISCOVER DINERS_CLUB JCB }
  "EXPIRED, EXPIRATION_PENDING and FAILED are shown with a label and a message; VALID is not."
  enum SavedPaymentStatus { VALID EXPIRED EXPIRATION_PENDING FAILED }
  "Spec section 3: a saved card (never its number)."
  type SavedPayment {
    id: ID!
    userId: ID!
    firstName: String!
    lastName: String!
    expirationMonth: Int!
    expirationYear: Int!
    last4Digits: String!
    cardType: SavedPaymentCardType!
    "Recomputed from the expiry at every read; FAILED stays until the card is replaced."
    status: SavedPaymentStatus!
    isDefault: Boolean!
  }
  "Spec section 3: what the card provider's script needs."
  type PaymentProcessor {
    id: ID!
    publicKey: String!
    subDomain: String!
    serverHost: String!
  }
`;

export const savedCardsMemberTypeDefs = /* GraphQL */ `
  ${sharedTypes}
  extend type Query {
    "One's own saved cards, the default first."
    payments: [SavedPayment!]!
    "The card provider's settings for one's community."
    paymentProcessor: PaymentProcessor!
  }
  extend type Mutation {
    "Saves a card from the provider's one-time token as one's default. userId must be one's own. idempotencyKey: optional (the token is used once)."
    paymentAddFromToken(userId: ID!, token: String!, idempotencyKey: String): SavedPayment!
    "Makes one card the default (the others lose it); returns its id."
    paymentChangeDefaultSavedPayment(paymentId: ID!): ID!
    "Removes a card that is not the default; returns the removed id."
    paymentDeleteSavedPayment(paymentId: ID!): ID!
  }
`;

export const savedCardsAdminTypeDefs = /* GraphQL */ `
  ${sharedTypes}
  "Spec section 3: one authorisation attempt. authResponseCode: null none, 0 success, above 0 failure. reversalHttpCode: null not applicable, 200 reversed, other failed."
  type CardAuthLogEntry {
    id: ID!
    "Integer cents."
    attemptAmount: Int!
    currency: String!
    attemptedAt: String!
    authResponseCode: Int
    reversalHttpCode: Int
  }
  extend type Query {
    "The saved cards of a member of the current community, the default first."
    paymentsForUser(userId: ID!): [SavedPayment!]!
    "The card provider's settings, for adding a card to the member's account."
    paymentProcessor(userId: ID!): PaymentProcessor!
    "A card's authorisation attempts, newest first (at most 100)."
    cardAuthLog(paymentId: ID!): [CardAuthLogEntry!]!
  }
  extend type Mutation {
    "Saves a card from the provider's one-time token as the member's default."
    paymentAddFromToken(userId: ID!, token: String!, idempotencyKey: String): SavedPayment!
    paymentChangeDefaultSavedPayment(paymentId: ID!, userId: ID!): ID!
    paymentDeleteSavedPayment(paymentId: ID!, userId: ID!): ID!
  }
`;

type Args = Record<string, unknown>;


const appOf = (ctx: GraphQLContext) => ctx.request.server;

const cardOut = (c: SavedCard) => ({ ...c, id: String(c.id), userId: String(c.userId) });
const logOut = (e: AuthLogEntry) => ({
  id: String(e.id),
  attemptAmount: e.attemptAmountCents,
  currency: e.currency,
  attemptedAt: e.attemptedAt.toISOString(),
  authResponseCode: e.authResponseCode,
  reversalHttpCode: e.reversalHttpCode,
});

function mine(ctx: GraphQLContext): CardsScope {
  ctx.guardian.ensureSignedIn();
  return memberScope(ctx.community, ctx.guardian.userId!);
}

/** Staff on a member of the current community (one they administer). */
async function theirs(ctx: GraphQLContext, userId: number): Promise<CardsScope> {
  ctx.guardian.ensureAdmin();
  const staff = { userId: ctx.guardian.userId! };
  const community = await staffCommunity({ db: ctx.db }, staff, ctx.community.code);
  return adminScope(appOf(ctx), staff, community, userId);
}

export const savedCardsMemberGraphQL: GraphQLPart = {
  typeDefs: savedCardsMemberTypeDefs,
  resolvers: {
    Query: {
      payments: async (_r: unknown, _a: Args, ctx: GraphQLContext) => (await listCards(appOf(ctx), mine(ctx))).map(cardOut),
      paymentProcessor: async (_r: unknown, _a: Args, ctx: GraphQLContext) => paymentProcessorFor(appOf(ctx), mine(ctx)),
    },
    Mutation: {
      paymentAddFromToken: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const scope = mine(ctx);
        // Member mode acts on oneself only.
        if (requireId(args.userId) !== scope.userId) throw new AppError('Forbidden');
        return cardOut(await addCard(appOf(ctx), scope, { token: args.token, idempotencyKey: args.idempotencyKey ?? undefined }));
      },
      paymentChangeDefaultSavedPayment: async (_r: unknown, args: Args, ctx: GraphQLContext) => String(await changeDefault(appOf(ctx), mine(ctx), requireId(args.paymentId))),
      paymentDeleteSavedPayment: async (_r: unknown, args: Args, ctx: GraphQLContext) => String(await deleteCard(appOf(ctx), mine(ctx), requireId(args.paymentId))),
    },
  },
};

export const savedCardsAdminGraphQL: GraphQLPart = {
  typeDefs: savedCardsAdminTypeDefs,
  resolvers: {
    Query: {
      paymentsForUser: async (_r: unknown, args: Args, ctx: GraphQLContext) => (await listCards(appOf(ctx), await theirs(ctx, requireId(args.userId)))).map(cardOut),
      paymentProcessor: async (_r: unknown, args: Args, ctx: GraphQLContext) => paymentProcessorFor(appOf(ctx), await theirs(ctx, requireId(args.userId))),
      cardAuthLog: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        ctx.guardian.ensureAdmin();
        const paymentId = requireId(args.paymentId);
        const owner = await ownerOfCard(appOf(ctx), ctx.community, paymentId);
        return (await authLog(appOf(ctx), await theirs(ctx, owner), paymentId)).map(logOut);
      },
    },
    Mutation: {
      paymentAddFromToken: async (_r: unknown, args: Args, ctx: GraphQLContext) =>
        cardOut(await addCard(appOf(ctx), await theirs(ctx, requireId(args.userId)), { token: args.token, idempotencyKey: args.idempotencyKey ?? undefined })),
      paymentChangeDefaultSavedPayment: async (_r: unknown, args: Args, ctx: GraphQLContext) =>
        String(await changeDefault(appOf(ctx), await theirs(ctx, requireId(args.userId)), requireId(args.paymentId))),
      paymentDeleteSavedPayment: async (_r: unknown, args: Args, ctx: GraphQLContext) =>
        String(await deleteCard(appOf(ctx), await theirs(ctx, requireId(args.userId)), requireId(args.paymentId))),
    },
  },
};
