import { AppError } from '#src/core/errors.ts';
import { staffCommunity } from '#src/features/members/index.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { insightsDeps } from './deps.ts';
import { acceptEvents } from './intake.ts';
import { readSeries } from './series.ts';
import { SERIES } from './types.ts';

/**
 * Insights on the member schema (`trackEvent`, spec section 7, as named) and the staff schema (the
 * roll-up's series), through the same services as the pages, for cookie (with CSRF) and bearer
 * clients alike.
 */

type Args = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

const memberTypeDefs = /* GraphQL */ `
  extend type Mutation {
    "Records one event of the signed-in member (spec section 7): category one of page, navigation, engagement, search, forum, articles, expert-panels, members, offers, messages, groups, notifications, settings, payment, app (any case); action 1 to 64 letters, digits, spaces and _ . : / -; label up to 200 characters. A page view is category page, action view, the page's path as label. Answers true once written; Insights.Invalid (400) otherwise, RateLimited past 120 calls a minute."
    trackEvent(category: String!, action: String!, label: String): Boolean!
  }
`;

export const insightsMemberGraphQL: GraphQLPart = {
  typeDefs: memberTypeDefs,
  resolvers: {
    Mutation: {
      trackEvent: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        ctx.guardian.ensureSignedIn();
        await acceptEvents(ctx.request, [{ category: args.category, action: args.action, label: args.label ?? '' }]);
        return true;
      },
    },
  },
};

const adminTypeDefs = /* GraphQL */ `
  type InsightPoint { "The day (a weekly or monthly series: the first day of its week or month), YYYY-MM-DD." day: String!, value: Int! }
  type InsightSeriesResult { series: String!, community: String!, from: String!, to: String!, points: [InsightPoint!]! }
  extend type Query {
    "The names of the insight series (the roll-up's: daily counts, and active.week / active.month by period)."
    insightSeriesNames: [String!]!
    "One series of the roll-up from 'from' to 'to' (YYYY-MM-DD, both included, at most two years), zeros included. community: the code of another community the admin administers (network staff); default the current one."
    insightSeries(series: String!, from: String!, to: String!, community: String): InsightSeriesResult!
  }
`;

export const insightsAdminGraphQL: GraphQLPart = {
  typeDefs: adminTypeDefs,
  resolvers: {
    Query: {
      insightSeriesNames: (_root: unknown, _args: Args, ctx: GraphQLContext) => {
        ctx.guardian.ensureAdmin();
        return [...SERIES];
      },
      insightSeries: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        ctx.guardian.ensureAdmin();
        const code = str(args.community).trim();
        let community: { id: number; code: string } = ctx.community;
        if (code && code.toLowerCase() !== ctx.community.code.toLowerCase()) {
          if (code.length > 60) throw new AppError('NotFound');
          community = await staffCommunity({ db: ctx.db }, { userId: ctx.guardian.userId! }, code);
        }
        const from = str(args.from);
        const to = str(args.to);
        const points = await readSeries(insightsDeps(ctx.request, { id: community.id }), str(args.series), from, to);
        return { series: str(args.series), community: community.code, from, to, points };
      },
    },
  },
};
