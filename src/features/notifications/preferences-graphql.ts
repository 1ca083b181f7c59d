import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { preferencesOf, selectPreference, setEmailDigest } from './preferences.ts';
import { wantsDigest } from './queries.ts';

/**
 * Notification preferences on the member schema (spec section 3 "Notification preference group",
 * section 7 notificationsPreferenceSelection). A channel entry's id is `<kind>:<channel>`
 * (e.g. "article_feedback:push"); an unknown id is refused with extensions.code
 * "Notifications.UnknownPreference" (HTTP-class 400). Beyond the spec: the email rhythm
 * (Me.notificationEmailDigest, notificationsEmailDigest). The web choice decides whether a new
 * notification shows in the list and the bell: changing it affects future notifications only.
 */
export const preferenceMemberTypeDefs = /* GraphQL */ `
  """
  One channel of one option: its id is <kind>:<channel>, e.g. article_feedback:email. available is
  false where the kind offers no choice on the channel (an introduction's outcome always comes by its
  own email): it stays off and selecting it is Notifications.UnknownPreference.
  """
  type NotificationPreferenceChannel { id: ID!, selected: Boolean!, available: Boolean! }
  "A preference option: one kind of notification, with the member's choice per channel."
  type NotificationPreferenceOption {
    id: ID!
    name: String!
    description: String!
    email: NotificationPreferenceChannel!
    web: NotificationPreferenceChannel!
    push: NotificationPreferenceChannel!
  }
  type NotificationPreferenceGroup { id: ID!, group: String!, options: [NotificationPreferenceOption!]! }
  extend type Me {
    notificationPreferences: [NotificationPreferenceGroup!]!
    "True when the member gathers notification email into one daily digest; false: each email at once."
    notificationEmailDigest: Boolean!
  }
  extend type Mutation {
    "Turns one channel of one option on or off (optimistic in the page); answers the entry as saved."
    notificationsPreferenceSelection(id: ID!, selected: Boolean!): NotificationPreferenceChannel!
    "The email rhythm: true for one daily digest, false for each email at once. Answers the new value."
    notificationsEmailDigest(enabled: Boolean!): Boolean!
  }
`;

type Args = Record<string, unknown>;

function memberOf(ctx: GraphQLContext) {
  ctx.guardian.ensureSignedIn();
  return { communityId: ctx.community.id, userId: ctx.guardian.userId! };
}

export const preferenceMemberGraphQL: GraphQLPart = {
  typeDefs: preferenceMemberTypeDefs,
  resolvers: {
    Me: {
      notificationPreferences: async (_parent: unknown, _args: Args, ctx: GraphQLContext) => (await preferencesOf(ctx.db, memberOf(ctx), ctx.request.server.t)).groups,
      notificationEmailDigest: async (_parent: unknown, _args: Args, ctx: GraphQLContext) => wantsDigest(ctx.db, memberOf(ctx)),
    },
    Mutation: {
      notificationsPreferenceSelection: async (_root: unknown, args: Args, ctx: GraphQLContext) =>
        selectPreference(ctx.db, memberOf(ctx), args.id, args.selected, ctx.request.server.clock.now()),
      notificationsEmailDigest: async (_root: unknown, args: Args, ctx: GraphQLContext) => setEmailDigest(ctx.db, memberOf(ctx), args.enabled, ctx.request.server.clock.now()),
    },
  },
};
