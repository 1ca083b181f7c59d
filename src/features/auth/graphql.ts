import type { FastifyInstance } from 'fastify';
import { AppError } from '#src/core/errors.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { authContext } from './http.ts';
import { changePassword } from '#src/features/settings/index.ts';
import { sendOneTimeCode } from './codes.ts';
import { passwordTokenIsValid, requestPasswordReset, resetPassword } from './passwords.ts';
import { authStrategies } from './service.ts';
import { loginResultView, refreshSignIn, signInWithCode, signInWithPassword, signOut } from './transport.ts';
import { str } from '#src/lib/form.ts';

/**
 * The sign-in operations of spec section 7 on the member schema (/graphql). They call the same
 * services as the forms and the REST calls; the cookies go out through the reply. Errors carry the
 * catalogue's codes in `extensions.code` (the plugin's error formatter maps AppError).
 */
export const authTypeDefs = /* GraphQL */ `
  enum Channel { EMAIL SMS }
  type SmsOption { id: ID!, maskedValue: String! }
  type AuthStrategies { passwordStrategy: Boolean!, otcSmsStrategy: Boolean!, smsOptions: [SmsOption!]! }
  type LoginUser { id: ID!, email: String!, displayName: String! }
  type LoginCommunity { code: String!, name: String! }
  type LoginResult { user: LoginUser!, community: LoginCommunity!, authToken: String!, refreshToken: String!, roles: [Role!]! }
  type OneTimeCodeSent { channel: Channel!, maskedDestination: String! }

  extend type Query {
    "The sign-in strategies for an email; Unrecognized.Email or BadRequest.NoAdmins otherwise."
    authStrategies(to: String!, channel: Channel): AuthStrategies!
    passwordTokenIsValid(token: String!): Boolean!
  }

  extend type Mutation {
    "Password sign-in; a targetCommunity other than this one is the admin sign-in to that community."
    login(username: String!, password: String!, targetCommunity: String, remember: Boolean): LoginResult!
    logout: Boolean!
    "Exchanges a refresh token (the argument, else the refresh cookie) for a new pair; both rotate. For 30 seconds the old one answers the same pair."
    tokenRefresh(refreshToken: String): LoginResult!
    oneTimeCodeGenerate(to: String!, channel: Channel): OneTimeCodeSent!
    oneTimeCodeVerify(to: String!, code: String!, remember: Boolean): LoginResult!
    "Emails a reset link and answers true. An unknown username: Unrecognized.Email, 'A member with that username could not be found'."
    passwordForgot(username: String!): Boolean!
    passwordReset(resetToken: String!, newPassword: String!): Boolean!
    passwordUpdate(oldPassword: String!, newPassword: String!): Boolean!
  }
`;

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
const strategyLimiters = new WeakMap<FastifyInstance, Limiter>();

/** The same strict limit as POST /rest/login/auth-strategies (20 a minute per address), kept apart; authStrategies and passwordForgot share it. */
async function ensureStrategyLookupAllowed(ctx: GraphQLContext) {
  const app = ctx.request.server;
  let limiter = strategyLimiters.get(app);
  if (!limiter) {
    limiter = app.createRateLimit({ max: 20, timeWindow: '1 minute' });
    strategyLimiters.set(app, limiter);
  }
  const outcome = await limiter(ctx.request);
  if (!outcome.isAllowed && outcome.isExceeded) throw new AppError('RateLimited');
}

type Args = Record<string, unknown>;
const channelOf = (v: unknown) => (v === 'SMS' ? 'SMS' : 'EMAIL');

export const authResolvers = {
  Query: {
    authStrategies: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      await ensureStrategyLookupAllowed(ctx);
      const { passwordStrategy, otcSmsStrategy, smsOptions } = await authStrategies(authContext(ctx.request), args.to);
      return { passwordStrategy, otcSmsStrategy, smsOptions };
    },
    passwordTokenIsValid: (_root: unknown, args: Args, ctx: GraphQLContext) => passwordTokenIsValid(authContext(ctx.request), args.token),
  },
  Mutation: {
    login: async (_root: unknown, args: Args, ctx: GraphQLContext) =>
      loginResultView(
        await signInWithPassword(ctx.request, ctx.reply, {
          email: str(args.username),
          password: str(args.password),
          targetCommunity: typeof args.targetCommunity === 'string' ? args.targetCommunity : null,
          remember: args.remember === true,
        }),
      ),
    logout: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
      await signOut(ctx.request, ctx.reply);
      return true;
    },
    tokenRefresh: async (_root: unknown, args: Args, ctx: GraphQLContext) =>
      loginResultView(await refreshSignIn(ctx.request, ctx.reply, typeof args.refreshToken === 'string' ? args.refreshToken : null)),
    oneTimeCodeGenerate: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const sent = await sendOneTimeCode(authContext(ctx.request), { email: args.to, channel: channelOf(args.channel) });
      return { channel: sent.channel, maskedDestination: sent.masked };
    },
    oneTimeCodeVerify: async (_root: unknown, args: Args, ctx: GraphQLContext) =>
      loginResultView(await signInWithCode(ctx.request, ctx.reply, { email: str(args.to), code: str(args.code), remember: args.remember === true })),
    passwordForgot: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      // It tells whether a username is a member's, as authStrategies does: the same lookup limit.
      await ensureStrategyLookupAllowed(ctx);
      await requestPasswordReset(authContext(ctx.request), { email: args.username });
      return true;
    },
    passwordReset: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      await resetPassword(authContext(ctx.request), { token: args.resetToken, password: args.newPassword });
      return true;
    },
    passwordUpdate: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      ctx.guardian.ensureSignedIn();
      await changePassword(ctx.request, { oldPassword: args.oldPassword, newPassword: args.newPassword });
      return true;
    },
  },
};

/** The sign-in area's part of the member schema. */
export const authMemberGraphQL: GraphQLPart = { typeDefs: authTypeDefs, resolvers: authResolvers };
