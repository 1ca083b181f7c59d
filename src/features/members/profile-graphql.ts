import { AppError } from '#src/core/errors.ts';
import { parseId } from '#src/core/ids.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { findProfile, publishedArticles, updateProfile, type ProfileDeps } from './profile.ts';
import { SOCIAL_NETWORKS, type MemberProfile } from './types.ts';

/**
 * The profiles part of the member schema (spec section 7): `me.memberProfile`, `memberProfile(id)`
 * (null for another community's member or a deactivated one) and `profileUpdate`. Refused fields
 * reach clients as `extensions.code` BadRequest.Validation (or 150) with `extensions.fields`, each
 * field's message key, like every other mutation.
 */
export const profileMemberTypeDefs = /* GraphQL */ `
  type MemberCompanyProfile { name: String, description: String, areaOfFocus: String, industry: String, employeeCount: Int }
  type MemberSocialLinks { linkedin: String, twitter: String, facebook: String, instagram: String, crunchbase: String, angellist: String, website: String }
  type MemberPublishedArticle { id: ID!, title: String!, publishedDate: String, articleUrl: String }
  type MemberProfile {
    id: ID!
    name: String!
    firstName: String!
    lastName: String!
    isModerator: Boolean!
    companyName: String
    "The default-size (200) avatar address, or null."
    avatar: String
    jobTitle: String
    location: String
    locationFamiliarName: String
    isActive: Boolean!
    "Null unless the member displays their pronouns (one's own profile always has them)."
    pronouns: String
    displayPronouns: Boolean!
    industry: String
    isFounding: Boolean!
    joinedAt: String!
    profileUpdatedAt: String
    company: MemberCompanyProfile!
    links: MemberSocialLinks!
    publishedArticles: [MemberPublishedArticle!]!
  }
  input ProfileLinksInput { linkedin: String, twitter: String, facebook: String, instagram: String, crunchbase: String, angellist: String, website: String }
  "A field left out stays as it is; null or an empty string clears it. Names are managed by staff."
  input ProfileInput {
    pronouns: String
    displayPronouns: Boolean
    jobTitle: String
    companyName: String
    location: String
    industry: String
    companyDescription: String
    areaOfFocus: String
    employeeCount: Int
    links: ProfileLinksInput
  }
  extend type Me {
    "The signed-in member's whole profile in this community."
    memberProfile: MemberProfile
  }
  extend type Query {
    "A member's profile in this community; null for another community's member or a deactivated one."
    memberProfile(id: ID!): MemberProfile
  }
  extend type Mutation {
    "Saves one's own profile; refused fields come back as BadRequest.Validation with extensions.fields."
    profileUpdate(input: ProfileInput!): MemberProfile!
  }
`;

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const depsOf = (ctx: GraphQLContext): ProfileDeps => ({ db: ctx.db, clock: ctx.request.server.clock, community: ctx.community });

function profileOut(profile: MemberProfile, ctx: GraphQLContext) {
  const self = profile.id === ctx.guardian.userId;
  return {
    ...profile,
    id: String(profile.id),
    pronouns: self || profile.displayPronouns ? profile.pronouns : null,
    joinedAt: iso(profile.joinedAt),
    profileUpdatedAt: iso(profile.profileUpdatedAt),
  };
}

type Args = Record<string, unknown>;

export const profileMemberResolvers = {
  Query: {
    memberProfile: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      ctx.guardian.ensureSignedIn();
      const id = parseId(args.id);
      if (id === null) return null;
      const profile = await findProfile(depsOf(ctx), id);
      return profile ? profileOut(profile, ctx) : null;
    },
  },
  Mutation: {
    profileUpdate: async (_root: unknown, args: { input?: Args }, ctx: GraphQLContext) => {
      ctx.guardian.ensureSignedIn();
      const { links, ...rest } = (args.input ?? {}) as Args & { links?: Args | null };
      if (links === null) throw new AppError(100, { fields: { links: { code: 100, key: 'profile.errors.webAddress' } } });
      const input: Args = { ...rest };
      for (const n of SOCIAL_NETWORKS) if (links && n in links) input[n] = links[n];
      if ('displayPronouns' in input && input.displayPronouns === null) delete input.displayPronouns;
      const profile = await updateProfile(depsOf(ctx), ctx.guardian.userId!, input);
      return profileOut(profile, ctx);
    },
  },
  Me: {
    memberProfile: async (parent: { id: string }, _args: Args, ctx: GraphQLContext) => {
      const profile = await findProfile(depsOf(ctx), Number(parent.id));
      return profile ? profileOut(profile, ctx) : null;
    },
  },
  MemberProfile: {
    publishedArticles: async (parent: { id: string }, _args: Args, ctx: GraphQLContext) =>
      (await publishedArticles(depsOf(ctx), Number(parent.id))).map((a) => ({ ...a, id: String(a.id), publishedDate: iso(a.publishedDate) })),
  },
};

export const profileMemberGraphQL: GraphQLPart = { typeDefs: profileMemberTypeDefs, resolvers: profileMemberResolvers };
