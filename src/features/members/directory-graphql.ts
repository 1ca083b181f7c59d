import { AppError } from '#src/core/errors.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { parseId } from '#src/core/ids.ts';
import { filterOptions, findVisibleMember, listDirectory, listSuggestions, parseDirectoryQuery, type DirectoryDeps } from './directory.ts';
import type { MemberSnapshot } from './types.ts';

/**
 * `type User`: the member snapshot of spec section 3. It is declared here, and only here: the
 * profile area extends it (`extend type User`) with the profile's fields, so this SDL goes first.
 */
export const userTypeDefs = /* GraphQL */ `
  "A member of the community as any other member sees them (spec section 3, Member snapshot)."
  type User {
    id: ID!
    name: String!
    isModerator: Boolean!
    companyName: String
    "The default-size (200) avatar address; null: show the initials."
    avatar: String
    jobTitle: String
    location: String
    isActive: Boolean!
    "Null unless the member chose to display their pronouns."
    pronouns: String
    displayPronouns: Boolean!
  }
`;

/** The directory on the member schema: user(id), the directory's pages, its filters, Discover. */
export const directoryMemberTypeDefs = /* GraphQL */ `
  ${userTypeDefs}
  type MemberEdge { cursor: String!, node: User! }
  type MemberPageInfo { hasNextPage: Boolean!, hasPreviousPage: Boolean!, startCursor: String, endCursor: String }
  type MemberConnection { edges: [MemberEdge!]!, pageInfo: MemberPageInfo! }
  type MemberFilterOptions { locations: [String!]!, industries: [String!]!, companySizes: [String!]! }
  enum MemberSuggestionReason { INDUSTRY CITY NEW }
  type MemberSuggestion {
    user: User!
    reason: MemberSuggestionReason!
    "The industry or the city the reason names; null for NEW."
    detail: String
    "The reason as the page shows it, e.g. 'Also in Healthcare'."
    reasonText: String!
  }

  extend type Query {
    "A member of this community; null for another community's member, a deactivated one, or no one."
    user(id: ID!): User
    """
    The member directory: ranked by a search when query is given (full text, then close spellings),
    else alphabetical by last name. companySize: one of memberFilterOptions.companySizes. letter: a
    last-name initial A-Z. Pages of first (default 24, at most 100): pass endCursor as after, or
    startCursor as before.
    """
    members(query: String, location: String, industry: String, companySize: String, founding: Boolean, letter: String, first: Int, after: String, before: String): MemberConnection!
    "The values the directory's filters offer."
    memberFilterOptions: MemberFilterOptions!
    "The Discover tab: members to meet, each with its reason."
    memberSuggestions: [MemberSuggestion!]!
  }
`;

type Args = Record<string, unknown>;

function depsOf(ctx: GraphQLContext): DirectoryDeps {
  return { db: ctx.db, community: ctx.community, clock: ctx.request.server.clock };
}

export function userOut(m: MemberSnapshot) {
  return {
    id: String(m.id),
    name: m.name,
    isModerator: m.isModerator,
    companyName: m.companyName,
    avatar: m.avatar,
    jobTitle: m.jobTitle,
    location: m.location,
    isActive: m.isActive,
    pronouns: m.displayPronouns ? m.pronouns : null,
    displayPronouns: m.displayPronouns,
  };
}

export const directoryMemberResolvers: GraphQLPart['resolvers'] = {
  Query: {
    user: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      ctx.guardian.ensureSignedIn();
      const id = parseId(args.id);
      if (id === null) return null;
      const m = await findVisibleMember(depsOf(ctx), id);
      return m ? userOut(m) : null;
    },
    members: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      ctx.guardian.ensureSignedIn();
      if (args.first != null && (typeof args.first !== 'number' || args.first < 1 || args.first > 100)) throw new AppError('BadRequest.Validation');
      const query = parseDirectoryQuery({
        q: args.query,
        location: args.location,
        industry: args.industry,
        size: args.companySize,
        founding: args.founding === true ? 'true' : '',
        letter: args.letter,
        first: args.first,
        after: args.after,
        before: args.before,
      });
      const page = await listDirectory(depsOf(ctx), query);
      return {
        edges: page.members.map(({ cursor, ...m }) => ({ cursor, node: userOut(m) })),
        pageInfo: {
          hasNextPage: page.next !== null,
          hasPreviousPage: page.previous !== null,
          startCursor: page.members[0]?.cursor ?? null,
          endCursor: page.members.at(-1)?.cursor ?? null,
        },
      };
    },
    memberFilterOptions: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
      ctx.guardian.ensureSignedIn();
      const o = await filterOptions(depsOf(ctx));
      return { locations: o.locations, industries: o.industries, companySizes: [...o.sizes] };
    },
    memberSuggestions: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
      ctx.guardian.ensureSignedIn();
      const t = ctx.request.server.t;
      const rows = await listSuggestions(depsOf(ctx), ctx.guardian.userId!);
      return rows.map((s) => ({
        user: userOut(s.member),
        reason: s.reason.toUpperCase(),
        detail: s.detail,
        reasonText: t(`directory.discover.reason.${s.reason}`, { detail: s.detail ?? '' }),
      }));
    },
  },
};

export const directoryMemberGraphQL: GraphQLPart = { typeDefs: directoryMemberTypeDefs, resolvers: directoryMemberResolvers };
