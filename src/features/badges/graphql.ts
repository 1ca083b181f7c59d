import { AppError } from '#src/core/errors.ts';
import { parseId } from '#src/core/ids.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { STAFF_BADGES } from './catalogue.ts';
import type { BadgeDeps } from './evaluate.ts';
import { badgesOfMembers, memberBadges, type BadgeReadDeps } from './read.ts';
import { awardStaffBadge, badgeLog, revokeStaffBadge } from './staff.ts';
import type { BadgeView } from './types.ts';

/**
 * Badges on the member schema (issue 27): `me.badges` and `user(id).badges` (the same reads as the
 * profile; `user(id)` is already null for another community's member). On the staff schema: a
 * member's badges, the log, and award / revoke through the same services as the staff's tab.
 */
const badgeType = /* GraphQL */ `
  "A badge a member holds."
  type Badge {
    "founding_member, moderator, first_article, five_articles, expert_contributor, years, or a staff badge (speaker, mentor, volunteer)."
    key: String!
    "The years of membership for years; null for a badge without levels."
    level: Int
    name: String!
    "How it is earned, or why the community team gives it."
    description: String!
    awardedAt: String!
    "Awarded by the community's staff, not earned from the member's history."
    awardedByStaff: Boolean!
  }
`;

export const badgeMemberTypeDefs = /* GraphQL */ `
  ${badgeType}
  extend type Me {
    "The signed-in member's badges in this community."
    badges: [Badge!]!
  }
  extend type User {
    "The member's badges in this community."
    badges: [Badge!]!
  }
`;

export const badgeAdminTypeDefs = /* GraphQL */ `
  ${badgeType}
  enum StaffBadge { ${STAFF_BADGES.map((b) => b.toUpperCase()).join(' ')} }
  enum BadgeAction { AWARD REVOKE }
  type BadgeLogEntry { id: ID!, at: String!, action: BadgeAction!, badge: String!, memberId: ID!, member: String!, by: String, reason: String! }
  type BadgeLogPage { entries: [BadgeLogEntry!]!, next: String }
  extend type Query {
    "A member's badges in this community (an empty list for someone who is not a member)."
    memberBadges(userId: ID!): [Badge!]!
    "Staff badges awarded and revoked, newest first; pass next as after for older entries."
    badgeLog(after: String): BadgeLogPage!
  }
  extend type Mutation {
    "Awards a staff badge (logged; the member is told once). Badges.AlreadyHeld when held; refused fields in extensions.fields."
    badgeAward(userId: ID!, badge: StaffBadge!, reason: String): [Badge!]!
    "Revokes a staff badge (logged). Badges.NotHeld when not held."
    badgeRevoke(userId: ID!, badge: StaffBadge!, reason: String): [Badge!]!
  }
`;

const iso = (d: Date) => d.toISOString();
export const badgeOut = (b: BadgeView) => ({ key: b.key, level: b.key === 'years' ? b.level : null, name: b.name, description: b.how, awardedAt: iso(b.awardedAt), awardedByStaff: b.byStaff });

const readDeps = (ctx: GraphQLContext): BadgeReadDeps => ({ db: ctx.db, community: ctx.community, t: ctx.request.server.t });
const writeDeps = (ctx: GraphQLContext): BadgeDeps => {
  const app = ctx.request.server;
  return { db: ctx.db, clock: app.clock, community: ctx.community, t: app.t, notifier: app.notifications };
};

/**
 * User.badges for a page of members in one query: the ids asked for in the same tick are read together
 * (per request: a WeakMap on the request, gone with it).
 */
const batches = new WeakMap<object, { ids: Set<number>; result: Promise<Map<number, BadgeView[]>> }>();
function badgesOfUser(ctx: GraphQLContext, userId: number): Promise<BadgeView[]> {
  let batch = batches.get(ctx.request);
  if (!batch) {
    const ids = new Set<number>();
    const result = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      batches.delete(ctx.request);
      return badgesOfMembers(readDeps(ctx), [...ids]);
    });
    batch = { ids, result };
    batches.set(ctx.request, batch);
  }
  batch.ids.add(userId);
  return batch.result.then((m) => m.get(userId) ?? []);
}

const idOf = (v: unknown) => parseId(typeof v === 'string' ? v : String(v ?? ''));

export const badgeMemberGraphQL: GraphQLPart = {
  typeDefs: badgeMemberTypeDefs,
  resolvers: {
    Me: {
      badges: async (parent: { id: string }, _args: unknown, ctx: GraphQLContext) => (await memberBadges(readDeps(ctx), Number(parent.id))).map(badgeOut),
    },
    User: {
      badges: async (parent: { id: string }, _args: unknown, ctx: GraphQLContext) => {
        ctx.guardian.ensureSignedIn();
        const id = idOf(parent.id);
        return id === null ? [] : (await badgesOfUser(ctx, id)).map(badgeOut);
      },
    },
  },
};

type StaffArgs = { userId?: unknown; badge?: unknown; reason?: unknown };
const staffInput = (args: StaffArgs) => {
  const id = idOf(args.userId);
  if (id === null) throw new AppError('BadRequest.Validation');
  return { id, input: { member: String(id), badge: String(args.badge ?? '').toLowerCase(), reason: typeof args.reason === 'string' ? args.reason : '' } };
};

export const badgeAdminGraphQL: GraphQLPart = {
  typeDefs: badgeAdminTypeDefs,
  resolvers: {
    Query: {
      memberBadges: async (_root: unknown, args: { userId?: unknown }, ctx: GraphQLContext) => {
        ctx.guardian.ensureAdmin();
        const id = idOf(args.userId);
        return id === null ? [] : (await memberBadges(readDeps(ctx), id)).map(badgeOut);
      },
      badgeLog: async (_root: unknown, args: { after?: unknown }, ctx: GraphQLContext) => {
        ctx.guardian.ensureAdmin();
        const after = args.after === undefined || args.after === null ? null : idOf(args.after);
        if (args.after != null && after === null) throw new AppError('BadRequest.Validation');
        const { rows, next } = await badgeLog(readDeps(ctx), after);
        return {
          entries: rows.map((r) => ({ id: String(r.id), at: iso(r.at), action: r.action.toUpperCase(), badge: r.badgeName, memberId: String(r.memberId), member: r.member, by: r.actor, reason: r.reason })),
          next,
        };
      },
    },
    Mutation: {
      badgeAward: async (_root: unknown, args: StaffArgs, ctx: GraphQLContext) => {
        ctx.guardian.ensureAdmin();
        const { id, input } = staffInput(args);
        await awardStaffBadge(writeDeps(ctx), { userId: ctx.guardian.userId! }, input);
        return (await memberBadges(readDeps(ctx), id)).map(badgeOut);
      },
      badgeRevoke: async (_root: unknown, args: StaffArgs, ctx: GraphQLContext) => {
        ctx.guardian.ensureAdmin();
        const { id, input } = staffInput(args);
        await revokeStaffBadge(writeDeps(ctx), { userId: ctx.guardian.userId! }, input);
        return (await memberBadges(readDeps(ctx), id)).map(badgeOut);
      },
    },
  },
};
