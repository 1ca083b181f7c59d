import { AppError } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { parseId, requireId } from '#src/core/ids.ts';
import { ACTIVE_STATES, adminView, searchMembers, staffCommunity, type AdminMembersDeps, type MemberRow, type Staff, type StaffCommunity } from './admin.ts';
import { addNote, sendPasswordReset, setActive, setGeneratedPassword, setModerator } from './admin-actions.ts';
import type { MemberAdminView } from './types.ts';

/**
 * The staff's members area on the admin schema (/graphqlAdmin): the admin view of a member of the
 * admin's current community, the search across every community they administer, and the actions.
 */
export const adminMembersTypeDefs = /* GraphQL */ `
  "Spec section 3: the member snapshot with the admin view's fields."
  type AdminUser {
    id: ID!
    name: String!
    email: String!
    isModerator: Boolean!
    companyName: String
    avatar: String
    jobTitle: String
    location: String
    isActive: Boolean!
    pronouns: String
    displayPronouns: Boolean!
    health: String
    joinedAt: String!
    communityName: String!
    standing: String
    isFounding: Boolean!
    vertical: String
    communityCode: String!
    membershipTier: String
    "The latest access of any of the member's sessions in the community (ISO 8601), or null."
    lastAccessedAt: String
  }
  type AdminMemberRow {
    id: ID!
    name: String!
    email: String!
    communityCode: String!
    communityName: String!
    companyName: String
    standing: String
    membershipTier: String
    isFounding: Boolean!
    joinedAt: String!
    lastAccessedAt: String
    isActive: Boolean!
  }
  type AdminMemberPage {
    rows: [AdminMemberRow!]!
    total: Int!
    "Pass as after for the next page; null on the last."
    nextCursor: String
  }
  enum AdminMemberActive { all active deactivated }
  type AdminMemberNote { id: ID!, body: String!, createdAt: String! }
  type AdminGeneratedPassword {
    "Shown once: it is stored only as a hash."
    password: String!
    user: AdminUser!
  }

  extend type Query {
    "The admin view of a member of the current community; null for anyone else."
    user(id: ID!): AdminUser
    "Members of every community the admin administers (or of one, by code), by name, 25 a page (first: at most 100)."
    members(query: String, communityCode: String, active: AdminMemberActive, first: Int, after: String): AdminMemberPage!
  }

  extend type Mutation {
    "Activates or deactivates the member in the current community; deactivating ends their sessions."
    userSetActive(id: ID!, active: Boolean!): AdminUser!
    userSetModerator(id: ID!, isModerator: Boolean!): AdminUser!
    memberNoteAdd(userId: ID!, body: String!): AdminMemberNote!
    "Emails the member a password reset link (through the durable queue)."
    userSendPasswordReset(id: ID!): Boolean!
    "Sets a generated password and returns it, once."
    userGeneratePassword(id: ID!): AdminGeneratedPassword!
  }
`;

type Args = Record<string, unknown>;

function depsOf(ctx: GraphQLContext): AdminMembersDeps {
  const app = ctx.request.server;
  return { db: ctx.db, clock: app.clock, jobs: app.jobs };
}

function staffOf(ctx: GraphQLContext): Staff {
  ctx.guardian.ensureAdmin();
  return { userId: ctx.guardian.userId! };
}

/** The current community as one the admin administers (the guardian already checked ADMIN here). */
const here = (ctx: GraphQLContext, staff: Staff): Promise<StaffCommunity> => staffCommunity(depsOf(ctx), staff, ctx.community.code);

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function userOut(v: MemberAdminView) {
  return { ...v, id: String(v.id), joinedAt: v.joinedAt.toISOString(), lastAccessedAt: iso(v.lastAccessedAt) };
}

function rowOut(r: MemberRow) {
  return { ...r, id: String(r.userId), joinedAt: r.joinedAt.toISOString(), lastAccessedAt: iso(r.lastAccessedAt) };
}

export const adminMembersResolvers: GraphQLPart['resolvers'] = {
  Query: {
    user: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const staff = staffOf(ctx);
      const id = parseId(args.id);
      if (id === null) return null;
      try {
        return userOut(await adminView(depsOf(ctx), await here(ctx, staff), id));
      } catch (e) {
        if (e instanceof AppError && e.code === 'NotFound') return null;
        throw e;
      }
    },
    members: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const staff = staffOf(ctx);
      ensureText({ query: args.query, communityCode: args.communityCode, after: args.after });
      const q = typeof args.query === 'string' ? args.query.slice(0, 200) : null;
      const page = await searchMembers(depsOf(ctx), staff, {
        q,
        community: typeof args.communityCode === 'string' && args.communityCode ? args.communityCode.slice(0, 100) : null,
        active: (ACTIVE_STATES as readonly unknown[]).includes(args.active) ? (args.active as (typeof ACTIVE_STATES)[number]) : 'all',
        first: typeof args.first === 'number' ? args.first : undefined,
        after: typeof args.after === 'string' ? args.after.slice(0, 1000) : null,
        sort: 'name',
      });
      return { rows: page.rows.map(rowOut), total: page.total, nextCursor: page.next };
    },
  },
  Mutation: {
    userSetActive: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const staff = staffOf(ctx);
      const community = await here(ctx, staff);
      const id = requireId(args.id);
      await setActive(depsOf(ctx), staff, community, id, args.active === true);
      return userOut(await adminView(depsOf(ctx), community, id));
    },
    userSetModerator: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const staff = staffOf(ctx);
      const community = await here(ctx, staff);
      const id = requireId(args.id);
      await setModerator(depsOf(ctx), staff, community, id, args.isModerator === true);
      return userOut(await adminView(depsOf(ctx), community, id));
    },
    memberNoteAdd: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const staff = staffOf(ctx);
      const note = await addNote(depsOf(ctx), staff, await here(ctx, staff), requireId(args.userId), { body: args.body });
      return { id: String(note.id), body: note.body, createdAt: note.createdAt.toISOString() };
    },
    userSendPasswordReset: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const staff = staffOf(ctx);
      await sendPasswordReset(depsOf(ctx), staff, await here(ctx, staff), requireId(args.id));
      return true;
    },
    userGeneratePassword: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const staff = staffOf(ctx);
      const community = await here(ctx, staff);
      const id = requireId(args.id);
      const password = await setGeneratedPassword(depsOf(ctx), staff, community, id);
      return { password, user: userOut(await adminView(depsOf(ctx), community, id)) };
    },
  },
};

export const adminMembersAdminGraphQL: GraphQLPart = { typeDefs: adminMembersTypeDefs, resolvers: adminMembersResolvers };
