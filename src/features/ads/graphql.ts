import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { adImageUrl } from './service.ts';
import { listStaffAds, staffAd, updateAd, type AdDeps } from './admin.ts';
import type { StaffAd } from './types.ts';

/**
 * The staff's ads on /graphqlAdmin (the plugin holds the admin access; cookie clients send the CSRF
 * token, bearer clients do not): the list with counts, one ad with its days, and the changes the form
 * makes but the picture (an upload is the form's). The same services as the pages; a refused field
 * comes back as Ads.Invalid with `extensions.fields`.
 */
const typeDefs = /* GraphQL */ `
  enum AdStatus { live scheduled ended inactive }
  type AdDay { day: String!, impressions: Int!, clicks: Int! }
  type StaffAd {
    id: ID!
    shape: AdShape!
    imageUrl: String!
    link: String!
    altText: String!
    startsAt: String
    endsAt: String
    isActive: Boolean!
    status: AdStatus!
    impressions: Int!
    clicks: Int!
    "The last 30 days with any count, newest first."
    days: [AdDay!]!
  }
  input AdInput { link: String!, altText: String!, startsAt: String, endsAt: String, isActive: Boolean! }
  extend type Query {
    "The community's ads with their impressions and clicks, newest first."
    adminAds: [StaffAd!]!
    adminAd(id: ID!): StaffAd!
  }
  extend type Mutation {
    "Changes an ad's link, words, schedule (ISO times) and state; its picture and shape stay."
    adUpdate(id: ID!, input: AdInput!): StaffAd!
  }
`;

const depsOf = (ctx: GraphQLContext): AdDeps => ({ db: ctx.db, clock: ctx.request.server.clock, community: ctx.community });
const idOf = (v: unknown) => (typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : -1);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

const out = (ctx: GraphQLContext, ad: StaffAd, days?: { day: string; impressions: number; clicks: number }[]) => ({
  ...ad,
  imageUrl: adImageUrl(ad.imageUrl, ctx.request.server.config.basePath),
  startsAt: ad.startsAt?.toISOString() ?? null,
  endsAt: ad.endsAt?.toISOString() ?? null,
  days: days ?? [],
});

export const adsAdminGraphQL: GraphQLPart = {
  typeDefs,
  resolvers: {
    Query: {
      adminAds: async (_r: unknown, _a: unknown, ctx: GraphQLContext) => {
        ctx.guardian.ensureAdmin();
        return (await listStaffAds(depsOf(ctx))).map((ad) => out(ctx, ad));
      },
      adminAd: async (_r: unknown, args: { id: unknown }, ctx: GraphQLContext) => {
        ctx.guardian.ensureAdmin();
        const { ad, days } = await staffAd(depsOf(ctx), idOf(args.id));
        return out(ctx, ad, days);
      },
    },
    Mutation: {
      adUpdate: async (_r: unknown, args: { id: unknown; input: Record<string, unknown> }, ctx: GraphQLContext) => {
        ctx.guardian.ensureAdmin();
        const id = idOf(args.id);
        const i = args.input ?? {};
        await updateAd(depsOf(ctx), id, { link: str(i.link), altText: str(i.altText), startsAt: str(i.startsAt), endsAt: str(i.endsAt), isActive: i.isActive === true }, undefined);
        const { ad, days } = await staffAd(depsOf(ctx), id);
        return out(ctx, ad, days);
      },
    },
  },
};
