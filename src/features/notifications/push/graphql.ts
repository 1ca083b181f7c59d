import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import type { MemberRef } from '../types.ts';
import { addPushToken, removePushToken } from './tokens.ts';

/**
 * The mobile apps' push tokens on the member schema (spec section 7): notificationsPushTokenAdd
 * (token, isIos, isFcm; iOS if isIos, else FCM) and notificationsPushTokenRemove (token). A token is
 * the member's in the community they are signed in to; a bad token is Push.InvalidToken.
 */
export const pushMemberTypeDefs = /* GraphQL */ `
  extend type Mutation {
    "Registers this device for push notifications: an APNs token if isIos, else an FCM token. Registered again by another member, it moves to them."
    notificationsPushTokenAdd(token: String!, isIos: Boolean, isFcm: Boolean): Boolean!
    "Stops push notifications to this device for the signed-in member. True once the token is not theirs any more."
    notificationsPushTokenRemove(token: String!): Boolean!
  }
`;

type Args = Record<string, unknown>;

function memberOf(ctx: GraphQLContext): MemberRef {
  ctx.guardian.ensureSignedIn();
  return { communityId: ctx.community.id, userId: ctx.guardian.userId! };
}

export const pushMemberGraphQL: GraphQLPart = {
  typeDefs: pushMemberTypeDefs,
  resolvers: {
    Mutation: {
      notificationsPushTokenAdd: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        await addPushToken(ctx.db, memberOf(ctx), { token: args.token, isIos: args.isIos, isFcm: args.isFcm }, ctx.request.server.clock.now());
        return true;
      },
      notificationsPushTokenRemove: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        await removePushToken(ctx.db, memberOf(ctx), args.token);
        return true;
      },
    },
  },
};
