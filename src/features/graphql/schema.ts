import type { IResolvers } from 'mercurius';
import { adClientData, listLiveAds } from '#src/features/ads/index.ts';
import { AREAS } from '#src/features/areas.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { availableCommunities } from '#src/features/auth/index.ts';
import { communityClientData } from '#src/features/communities/index.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import { me } from '#src/lib/graphql/me.ts';

const shared = /* GraphQL */ `
  type NavLink { label: String!, link: String! }
  type ForumProduct { enabled: Boolean! }
  type Products { forum: ForumProduct! }
  type CommunityLinks { terms: String, privacy: String, membershipInfo: String }
  type AuthConfiguration {
    slug: String, backgroundImage: String, playStoreLink: String, appStoreLink: String, logo: String, textColor: String
  }
  type Community {
    code: String!
    name: String!
    appName: String!
    familiarName: String!
    icon: String
    navMore: [NavLink!]!
    products: Products!
    conciergeEmail: String!
    conciergePhone: String!
    execLink: String
    copyrightHolder: String!
    links: CommunityLinks!
    googleAnalytics: String
    googleTagManager: String
    auth: AuthConfiguration!
  }
  type AvailableCommunity { code: String!, name: String!, familiarName: String! }
  type MeName { first: String!, formatted: String! }
  type Location { name: String, familiarName: String }
  type MeProfile { avatar: String, publicUrl: String, companyName: String, location: Location! }
  type MobilePhone { id: ID!, countryCode: String, number: String }
  enum Role { ADMIN MEMBER }
  type Me {
    id: ID!
    email: String!
    username: String!
    name: MeName!
    profile: MeProfile!
    roles: [Role!]!
    communityCode: String!
    mobilePhone: MobilePhone
  }
  enum AdShape { MASTHEAD MEDIUM_SQUARE }
  type Ad {
    id: ID!
    imageUrl: String!
    link: String!
    shape: AdShape!
    "Where a press on the ad goes: counted, then redirected to the ad's link (open it in a browser)."
    clickUrl: String!
  }
`;

/** Each area's part of one schema, in the order of the list of areas. */
const parts = (side: 'member' | 'admin'): GraphQLPart[] => AREAS.flatMap((area) => area.graphql?.[side] ?? []);
const typeDefsOf = (side: 'member' | 'admin') => parts(side).map((p) => p.typeDefs).join('\n');
const resolversOf = (side: 'member' | 'admin', kind: string): Record<string, unknown> => Object.assign({}, ...parts(side).map((p) => p.resolvers[kind] ?? {}));
/** Resolvers of the other types the areas declare or extend (Me, User, ...), merged by type. */
const typeResolversOf = (side: 'member' | 'admin'): Record<string, Record<string, unknown>> => {
  const types = new Set(parts(side).flatMap((p) => Object.keys(p.resolvers)).filter((k) => k !== 'Query' && k !== 'Mutation'));
  return Object.fromEntries([...types].map((type) => [type, resolversOf(side, type)]));
};

export const memberSchema = /* GraphQL */ `
  ${shared}
  type Query {
    "The signed-in member, or null for a visitor."
    me: Me
    community: Community!
    "The admin sign-in's community picker: every community, as GET /rest/admin/available-communities answers (docs/decisions/0042)."
    availableCommunities: [AvailableCommunity!]!
    "The community's live ads: on, and inside their schedule."
    ads: [Ad!]!
  }
  type Mutation
  ${typeDefsOf('member')}
`;

export const adminSchema = /* GraphQL */ `
  ${shared}
  type Query {
    me: Me
    community: Community!
    "The admin sign-in's community picker: every community, the same answer as on /graphql and GET /rest/admin/available-communities."
    availableCommunities: [AvailableCommunity!]!
  }
  type Mutation
  ${typeDefsOf('admin')}
`;


const meResolvers = {
  mobilePhone: async (parent: { id: string }, _args: unknown, ctx: GraphQLContext) => {
    const row = await ctx.loaders.membership(Number(parent.id));
    if (!row || (!row.mobile_country_code && !row.mobile_number)) return null;
    return { id: `${parent.id}:mobile`, countryCode: row.mobile_country_code, number: row.mobile_number };
  },
};

export const memberResolvers: IResolvers = {
  Query: {
    me,
    community: (_root: unknown, _args: unknown, ctx: GraphQLContext) => communityClientData(ctx.community),
    // One answer for every caller, the picker's list (spec section 7: a sign-in call, before anyone signs in).
    availableCommunities: (_root: unknown, _args: unknown, ctx: GraphQLContext) => availableCommunities(ctx.db),
    ads: async (_root: unknown, _args: unknown, ctx: GraphQLContext) => {
      ctx.guardian.ensureSignedIn();
      const base = ctx.request.server.config.basePath;
      return (await listLiveAds(ctx.db, ctx.community, ctx.request.server.clock)).map((ad) => adClientData(ad, base));
    },
    ...resolversOf('member', 'Query'),
  },
  Mutation: resolversOf('member', 'Mutation'),
  ...typeResolversOf('member'),
  Me: { ...meResolvers, ...resolversOf('member', 'Me') },
};

export const adminResolvers: IResolvers = {
  Query: {
    me: (root: unknown, args: unknown, ctx: GraphQLContext) => {
      ctx.guardian.ensureAdmin();
      return me(root, args, ctx);
    },
    community: (_root: unknown, _args: unknown, ctx: GraphQLContext) => {
      ctx.guardian.ensureAdmin();
      return communityClientData(ctx.community);
    },
    availableCommunities: (_root: unknown, _args: unknown, ctx: GraphQLContext) => {
      ctx.guardian.ensureAdmin();
      return availableCommunities(ctx.db);
    },
    ...resolversOf('admin', 'Query'),
  },
  Mutation: resolversOf('admin', 'Mutation'),
  ...typeResolversOf('admin'),
  Me: { ...meResolvers, ...resolversOf('admin', 'Me') },
};
