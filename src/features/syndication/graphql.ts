import { AppError } from '#src/core/errors.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { syndicationDeps, type SyndicationDeps, type SyndicationViewer } from './deps.ts';
import { createFeed, deleteFeed, feedsLog, getFeed, listFeeds, setFeedEnabled, updateFeed } from './staff.ts';
import type { FeedActionRow, FeedForm, FeedItem, StaffFeedDetail, StaffFeedRow } from './types.ts';

/**
 * The syndication feeds on the staff schema (/graphqlAdmin), through the same services as
 * /admin/feeds/syndication, for cookie (with CSRF) and bearer clients alike. A feed of another
 * community, or none, is 'Syndication.NotFound'; a refused field is 'Syndication.Invalid' with
 * `extensions.fields`, as the form shows it beside the field.
 */

type Args = Record<string, unknown>;

function syndicationOf(ctx: GraphQLContext): { deps: SyndicationDeps; viewer: SyndicationViewer } {
  ctx.guardian.ensureAdmin();
  return { deps: { ...syndicationDeps(ctx.request), community: ctx.community }, viewer: { userId: ctx.guardian.userId!, isStaff: ctx.guardian.isAdmin } };
}

const typeDefs = /* GraphQL */ `
  enum SyndicationItemType { ARTICLE ROUNDUP }
  "A feed's three public addresses, absolute: RSS 2.0, Atom 1.0 and JSON Feed 1.1."
  type SyndicationFeedAddresses { rss: String!, atom: String!, json: String! }
  "An item a feed carries: a published article (at its public address) or a published roundup (at its live page)."
  type SyndicationFeedItem { type: SyndicationItemType!, title: String!, url: String!, summary: String!, authorName: String, publishedAt: String!, updatedAt: String! }
  "One change to the community's feeds: who (null: someone since removed), what, when; feedSlug is kept after the feed is deleted."
  type SyndicationFeedLogLine { id: ID!, feedId: ID, feedSlug: String!, actorName: String, action: String!, detail: String!, createdAt: String! }
  "A syndication feed. items (what it carries now) and log (its latest 50 changes) are read by syndicationFeed(id) only; null in lists."
  type SyndicationFeed {
    id: ID!
    slug: String!
    title: String!
    description: String!
    types: [SyndicationItemType!]!
    "The content bank tags (ids) an item must carry, every one; empty: no tag asked."
    tags: [ID!]!
    "The content bank collections (ids) an item must be in, any one; empty: no collection asked."
    collections: [ID!]!
    limit: Int!
    enabled: Boolean!
    updatedAt: String!
    addresses: SyndicationFeedAddresses!
    items: [SyndicationFeedItem!]
    log: [SyndicationFeedLogLine!]
  }
  "A feed's fields: title 1 to 120 characters; slug 2 to 60 of a-z, 0-9 and single hyphens (from the title when left out); description at most 500 characters; at least one type; tags and collections: this community's content bank tag and collection ids, at most 20 each (left out: none); limit 1 to 100 (20 when left out); enabled (true when left out)."
  input SyndicationFeedInput { title: String!, slug: String, description: String, types: [SyndicationItemType!]!, tags: [ID!], collections: [ID!], limit: Int, enabled: Boolean }
  extend type Query {
    "Every syndication feed of the community by title, with its addresses."
    syndicationFeeds: [SyndicationFeed!]!
    "One feed with the items it carries now and its latest changes."
    syndicationFeed(id: ID!): SyndicationFeed!
    "The latest 50 changes to the community's feeds, newest first."
    syndicationFeedsLog: [SyndicationFeedLogLine!]!
  }
  extend type Mutation {
    syndicationFeedCreate(input: SyndicationFeedInput!): SyndicationFeed!
    syndicationFeedUpdate(id: ID!, input: SyndicationFeedInput!): SyndicationFeed!
    "Turns a feed on or off (off: its addresses answer 404 and pages stop advertising it)."
    syndicationFeedSetEnabled(id: ID!, enabled: Boolean!): SyndicationFeed!
    "Deletes a feed (its addresses answer 404); the log keeps its lines. Answers true."
    syndicationFeedDelete(id: ID!): Boolean!
  }
`;

const str = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));
const upper = (v: string) => v.toUpperCase();

function formOfInput(v: unknown): FeedForm {
  const input = v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  const types = Array.isArray(input.types) ? input.types.map((x) => str(x).toLowerCase()) : [];
  const limit = input.limit === undefined || input.limit === null ? '20' : Number.isSafeInteger(input.limit) ? String(input.limit) : 'x';
  const ids = (v: unknown) => (Array.isArray(v) ? v.slice(0, 100).map(str) : []);
  return { title: str(input.title), slug: str(input.slug), description: str(input.description), limit, types, tags: ids(input.tags), collections: ids(input.collections), enabled: input.enabled === undefined || input.enabled === null ? true : input.enabled === true };
}

const itemOut = (i: FeedItem) => ({ type: upper(i.type), title: i.title, url: i.url, summary: i.summary, authorName: i.authorName, publishedAt: i.publishedAt.toISOString(), updatedAt: i.updatedAt.toISOString() });
const logOut = (l: FeedActionRow) => ({ ...l, id: String(l.id), feedId: l.feedId === null ? null : String(l.feedId), createdAt: l.createdAt.toISOString() });
const feedOut = (f: StaffFeedRow | StaffFeedDetail) => ({
  id: String(f.id),
  slug: f.slug,
  title: f.title,
  description: f.description,
  types: f.types.map(upper),
  tags: f.tags.map(String),
  collections: f.collections.map(String),
  limit: f.limit,
  enabled: f.enabled,
  updatedAt: f.updatedAt.toISOString(),
  addresses: f.addresses,
  items: 'preview' in f ? f.preview.map(itemOut) : null,
  log: 'log' in f ? f.log.map(logOut) : null,
});

const feed = async (deps: SyndicationDeps, viewer: SyndicationViewer, id: unknown) => feedOut(await getFeed(deps, viewer, id));

export const syndicationAdminGraphQL: GraphQLPart = {
  typeDefs,
  resolvers: {
    Query: {
      syndicationFeeds: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = syndicationOf(ctx);
        return (await listFeeds(deps, viewer)).map(feedOut);
      },
      syndicationFeed: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = syndicationOf(ctx);
        return feed(deps, viewer, args.id);
      },
      syndicationFeedsLog: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = syndicationOf(ctx);
        return (await feedsLog(deps, viewer)).map(logOut);
      },
    },
    Mutation: {
      syndicationFeedCreate: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = syndicationOf(ctx);
        return feed(deps, viewer, await createFeed(deps, viewer, formOfInput(args.input)));
      },
      syndicationFeedUpdate: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = syndicationOf(ctx);
        return feed(deps, viewer, await updateFeed(deps, viewer, args.id, formOfInput(args.input)));
      },
      syndicationFeedSetEnabled: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = syndicationOf(ctx);
        if (typeof args.enabled !== 'boolean') throw new AppError('BadRequest.Validation');
        return feed(deps, viewer, await setFeedEnabled(deps, viewer, args.id, args.enabled));
      },
      syndicationFeedDelete: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = syndicationOf(ctx);
        await deleteFeed(deps, viewer, args.id);
        return true;
      },
    },
  },
};
