import { displayName } from '#shared/format.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';

/** The Me object of the signed-in member (null for a visitor): the query `me`, and mutations that answer Me. */
export function me(_root: unknown, _args: unknown, ctx: GraphQLContext) {
  const { identity, community } = ctx;
  if (!identity.loggedIn) return null;
  const u = identity.user;
  return {
    id: String(u.id),
    email: u.email,
    username: u.username,
    name: { first: u.firstName, formatted: displayName(u) },
    profile: {
      avatar: u.avatarUrl,
      publicUrl: u.publicUrl,
      companyName: u.companyName,
      location: { name: u.locationName, familiarName: u.locationFamiliarName },
    },
    roles: u.roles,
    communityCode: community.code,
  };
}
