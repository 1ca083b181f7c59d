import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import { me } from '#src/lib/graphql/me.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { changeMobilePhone } from './security.ts';

/**
 * The settings area on the member schema (spec section 7): `myAccount(mobilePhone: {countryCode,
 * number})` sets (an empty number removes) the mobile phone and answers Me, whose `mobilePhone` and
 * `username` fields the shared schema already resolves. `passwordUpdate` lives with the auth
 * operations and calls the same service as the settings form (security.ts changePassword).
 */
export const settingsMemberTypeDefs = /* GraphQL */ `
  input MobilePhoneInput { countryCode: String, number: String }

  extend type Mutation {
    "Sets the signed-in member's mobile phone; an empty or missing number removes it. Error 110 if it is not a valid phone."
    myAccount(mobilePhone: MobilePhoneInput): Me!
  }
`;

type Args = { mobilePhone?: { countryCode?: unknown; number?: unknown } | null };

export const settingsMemberGraphQL: GraphQLPart = {
  typeDefs: settingsMemberTypeDefs,
  resolvers: {
    Mutation: {
      myAccount: async (root: unknown, args: Args, ctx: GraphQLContext) => {
        ctx.guardian.ensureSignedIn();
        if (args.mobilePhone !== undefined) {
          await changeMobilePhone(ctx.request, { countryCode: args.mobilePhone?.countryCode ?? null, number: args.mobilePhone?.number ?? '' });
        }
        return me(root, {}, ctx);
      },
    },
  },
};
