import { AppError } from '#src/core/errors.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { blankAnnouncementForm, changeAnnouncement, createAnnouncement, deleteAnnouncement, getAnnouncement, listAnnouncements, stateOfArgument, updateAnnouncement } from './announcements.ts';
import { graphqlDeps, type FeedsDeps, type FeedsViewer } from './deps.ts';
import { changeFeatured, featuredStateOf, featureEvent, featureItem, getFeatured, listFeatured, searchFeaturable } from './featured.ts';
import { feedFor, markAnnouncementSeen } from './member-feed.ts';
import type { AnnouncementForm, AnnouncementRow, FeaturedRow, FeedItem, MemberFeed } from './types.ts';

/**
 * The members' feed on the member schema (/graphql) and the staff's announcements and featured items
 * on the staff schema (/graphqlAdmin), through the same services as the pages, for cookie (with CSRF)
 * and bearer clients alike.
 */

type Args = Record<string, unknown>;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const str = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));
const upper = (v: string) => v.toUpperCase();

const memberTypeDefs = /* GraphQL */ `
  enum FeedItemKind { ANNOUNCEMENT FEATURED }
  enum FeedFeaturedKind { ARTICLE ROUNDUP OFFER FORUM_POST EVENT }
  """
  One item of the member's feed. An ANNOUNCEMENT has bodyHtml (sanitised rich text), maybe an image
  (imageUrl, an application path) and a link, and whether the viewer marked it seen; a FEATURED item
  has its itemKind and url (an application path; for an EVENT its web address, with eventDate and place).
  """
  type FeedItem {
    kind: FeedItemKind!
    id: ID!
    title: String!
    pinned: Boolean!
    "When it went live (an announcement) or was featured."
    at: String!
    bodyHtml: String
    imageUrl: String
    imageAlt: String
    linkUrl: String
    linkLabel: String
    seen: Boolean!
    itemKind: FeedFeaturedKind
    url: String
    eventDate: String
    place: String
  }
  type MemberFeed {
    "Pinned first, then newest first: live featured items and the announcements not seen yet."
    items: [FeedItem!]!
    "The announcements the viewer marked seen."
    seen: [FeedItem!]!
    "Live announcements the viewer has not seen (counted up to 100: 100 means a hundred or more)."
    unseenCount: Int!
  }
  extend type Query {
    "The viewer's feed (the home page's): announcements for their audience and featured items, live now."
    memberFeed: MemberFeed!
  }
  extend type Mutation {
    "Marks an announcement live for the viewer seen (the first time stays); answers the feed. 'Feeds.NotFound' otherwise."
    announcementMarkSeen(id: ID!): MemberFeed!
  }
`;

const itemOut = (i: FeedItem) =>
  i.kind === 'announcement'
    ? { kind: 'ANNOUNCEMENT', id: String(i.id), title: i.title, pinned: i.pinned, at: iso(i.at), bodyHtml: i.bodyHtml, imageUrl: i.imagePath, imageAlt: i.imageAlt, linkUrl: i.link?.url ?? null, linkLabel: i.link?.label ?? null, seen: i.seen, itemKind: null, url: null, eventDate: null, place: null }
    : { kind: 'FEATURED', id: String(i.id), title: i.title, pinned: i.pinned, at: iso(i.at), bodyHtml: null, imageUrl: null, imageAlt: null, linkUrl: null, linkLabel: null, seen: false, itemKind: upper(i.itemKind), url: i.url, eventDate: iso(i.eventAt)?.slice(0, 10) ?? null, place: i.place };

const feedOut = (f: MemberFeed) => ({ items: f.items.map(itemOut), seen: f.seen.map(itemOut), unseenCount: f.unseen });

export const feedsMemberGraphQL: GraphQLPart = {
  typeDefs: memberTypeDefs,
  resolvers: {
    Query: {
      memberFeed: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        return feedOut(await feedFor(deps, viewer.userId));
      },
    },
    Mutation: {
      announcementMarkSeen: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        await markAnnouncementSeen(deps, viewer.userId, args.id);
        return feedOut(await feedFor(deps, viewer.userId));
      },
    },
  },
};

// ---- Staff ----

const adminTypeDefs = /* GraphQL */ `
  enum AnnouncementState { DRAFT SCHEDULED LIVE EXPIRED }
  enum AnnouncementAudience { EVERYONE GROUP }
  type FeedLogLine { at: String!, actorName: String, action: String!, title: String! }
  type Announcement {
    id: ID!
    title: String!
    state: AnnouncementState!
    audience: AnnouncementAudience!
    "The group of a GROUP audience (null once that group is deleted: it then reaches nobody)."
    groupId: ID
    groupName: String
    pinned: Boolean!
    publishedAt: String
    startsAt: String
    endsAt: String
    "When it goes (or went) live."
    shownFrom: String
    updatedAt: String!
    seenCount: Int!
    "Only in announcement and the mutations (null in the list)."
    bodyHtml: String
    imageUrl: String
    imageAlt: String
    linkUrl: String
    linkLabel: String
    log: [FeedLogLine!]
  }
  type AnnouncementPage { rows: [Announcement!]!, nextAfter: ID }
  """
  bodyHtml is sanitised as articles' rich text is (at most 2,000 characters). linkUrl: https://… or a
  path of the site ('/offers'), with linkLabel. startsAt, endsAt: ISO instants in UTC (empty: from
  publishing, and for good). groupId with a GROUP audience.
  """
  input AnnouncementInput { title: String!, bodyHtml: String, imageAlt: String, linkUrl: String, linkLabel: String, audience: AnnouncementAudience!, groupId: ID, pinned: Boolean, startsAt: String, endsAt: String }
  enum FeaturedItemKind { ARTICLE ROUNDUP OFFER FORUM_POST EVENT }
  enum FeaturableKind { ARTICLE ROUNDUP OFFER FORUM_POST }
  enum FeaturedState { LIVE EXPIRED GONE }
  type FeaturedItem { id: ID!, kind: FeaturedItemKind!, itemId: ID, title: String!, url: String, state: FeaturedState!, pinned: Boolean!, endsAt: String, eventDate: String, place: String, featuredAt: String!, featuredBy: String }
  type FeaturedItemPage { rows: [FeaturedItem!]!, nextAfter: ID }
  type FeaturableItem { kind: FeaturableKind!, id: ID!, title: String!, path: String!, at: String, featured: Boolean! }
  "An event link: title, url (https://…), date (YYYY-MM-DD), place; it leaves the feed after its day unless endsAt says otherwise."
  input FeaturedEventInput { title: String!, url: String!, date: String!, place: String, pinned: Boolean, endsAt: String }
  extend type Query {
    "The community's announcements in a state (or all), newest first, 50 a page (after: the previous page's nextAfter)."
    announcements(state: AnnouncementState, after: ID): AnnouncementPage!
    announcement(id: ID!): Announcement!
    "The community's featured items in a state (or all), newest first, 50 a page."
    featuredItems(state: FeaturedState, after: ID): FeaturedItemPage!
    "Items of a kind that may be featured, whose title holds query (or the newest), at most 20."
    featurableItems(kind: FeaturableKind!, query: String): [FeaturableItem!]!
  }
  extend type Mutation {
    "A new announcement: a draft, or published at once with publish: true."
    announcementCreate(input: AnnouncementInput!, publish: Boolean): Announcement!
    announcementUpdate(id: ID!, input: AnnouncementInput!): Announcement!
    "Publishes a draft: live now, or scheduled when its startsAt is ahead."
    announcementPublish(id: ID!): Announcement!
    "Takes it back to a draft: members no longer see it."
    announcementUnpublish(id: ID!): Announcement!
    announcementPin(id: ID!, pinned: Boolean!): Announcement!
    announcementDelete(id: ID!): Boolean!
    "Features an item of the community (it must be there to be seen: published, live); once per item ('Feeds.AlreadyFeatured')."
    featureItem(kind: FeaturableKind!, itemId: ID!, pinned: Boolean, endsAt: String): FeaturedItem!
    featureEvent(input: FeaturedEventInput!): FeaturedItem!
    featuredItemPin(id: ID!, pinned: Boolean!): FeaturedItem!
    unfeatureItem(id: ID!): Boolean!
  }
`;

const inputOf = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

function formOfInput(input: Record<string, unknown>): AnnouncementForm {
  return {
    ...blankAnnouncementForm(),
    title: str(input.title),
    body: str(input.bodyHtml),
    imageAlt: str(input.imageAlt),
    linkUrl: str(input.linkUrl),
    linkLabel: str(input.linkLabel),
    audience: str(input.audience).toLowerCase(),
    groupId: str(input.groupId),
    pinned: input.pinned === true,
    startsAt: str(input.startsAt),
    endsAt: str(input.endsAt),
  };
}

const rowOut = (r: AnnouncementRow) => ({
  id: String(r.id),
  title: r.title,
  state: upper(r.state),
  audience: upper(r.audience),
  groupId: null as string | null,
  groupName: r.groupName,
  pinned: r.pinned,
  publishedAt: iso(r.publishedAt),
  startsAt: iso(r.startsAt),
  endsAt: iso(r.endsAt),
  shownFrom: iso(r.shownFrom),
  updatedAt: iso(r.updatedAt),
  seenCount: r.seenCount,
  bodyHtml: null as string | null,
  imageUrl: null as string | null,
  imageAlt: null as string | null,
  linkUrl: null as string | null,
  linkLabel: null as string | null,
  log: null as unknown,
});

async function announcementOut(deps: FeedsDeps, viewer: FeedsViewer, id: unknown) {
  const a = await getAnnouncement(deps, viewer, id);
  return {
    ...rowOut(a),
    groupId: a.groupId ? String(a.groupId) : null,
    bodyHtml: a.bodyHtml,
    imageUrl: a.imagePath,
    imageAlt: a.imageAlt,
    linkUrl: a.linkUrl,
    linkLabel: a.linkLabel,
    log: a.log.map((l) => ({ at: iso(l.at), actorName: l.actorName, action: l.action, title: l.title })),
  };
}

const featuredOut = (r: FeaturedRow) => ({
  id: String(r.id),
  kind: upper(r.kind),
  itemId: r.itemId ? String(r.itemId) : null,
  title: r.title,
  url: r.url,
  state: upper(r.state),
  pinned: r.pinned,
  endsAt: iso(r.endsAt),
  eventDate: iso(r.eventAt)?.slice(0, 10) ?? null,
  place: r.place,
  featuredAt: iso(r.featuredAt),
  featuredBy: r.featuredBy,
});

const afterOf = (v: unknown): number | null => {
  if (v == null) return null;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 1 || n > 2_147_483_647) throw new AppError('BadRequest.Validation');
  return n;
};

const optionalText = (v: unknown): string => {
  if (v == null) return '';
  if (typeof v !== 'string') throw new AppError('BadRequest.Validation');
  return v;
};

export const feedsAdminGraphQL: GraphQLPart = {
  typeDefs: adminTypeDefs,
  resolvers: {
    Query: {
      announcements: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const { rows, next } = await listAnnouncements(deps, viewer, { state: stateOfArgument(args.state), after: afterOf(args.after) });
        return { rows: rows.map(rowOut), nextAfter: next ? String(next) : null };
      },
      announcement: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        return announcementOut(deps, viewer, args.id);
      },
      featuredItems: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const { rows, next } = await listFeatured(deps, viewer, { state: featuredStateOf(args.state), after: afterOf(args.after) });
        return { rows: rows.map(featuredOut), nextAfter: next ? String(next) : null };
      },
      featurableItems: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const found = await searchFeaturable(deps, viewer, args.kind, optionalText(args.query));
        return found.map((i) => ({ kind: upper(i.kind), id: String(i.id), title: i.title, path: i.path, at: iso(i.at), featured: i.featured }));
      },
    },
    Mutation: {
      announcementCreate: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const id = await createAnnouncement(deps, viewer, formOfInput(inputOf(args.input)), { html: true, publish: args.publish === true });
        return announcementOut(deps, viewer, id);
      },
      announcementUpdate: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const id = await updateAnnouncement(deps, viewer, args.id, formOfInput(inputOf(args.input)), { html: true });
        return announcementOut(deps, viewer, id);
      },
      announcementPublish: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        await changeAnnouncement(deps, viewer, args.id, 'publish');
        return announcementOut(deps, viewer, args.id);
      },
      announcementUnpublish: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        await changeAnnouncement(deps, viewer, args.id, 'unpublish');
        return announcementOut(deps, viewer, args.id);
      },
      announcementPin: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        await changeAnnouncement(deps, viewer, args.id, args.pinned === true ? 'pin' : 'unpin');
        return announcementOut(deps, viewer, args.id);
      },
      announcementDelete: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        await deleteAnnouncement(deps, viewer, args.id);
        return true;
      },
      featureItem: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const id = await featureItem(deps, viewer, { kind: args.kind, itemId: args.itemId, pinned: args.pinned === true, endsAt: optionalText(args.endsAt) });
        return featuredOut(await getFeatured(deps, viewer, id));
      },
      featureEvent: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const input = inputOf(args.input);
        const id = await featureEvent(deps, viewer, { title: str(input.title), url: str(input.url), date: str(input.date), place: str(input.place), pinned: input.pinned === true, endsAt: str(input.endsAt) });
        return featuredOut(await getFeatured(deps, viewer, id));
      },
      featuredItemPin: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        await changeFeatured(deps, viewer, args.id, args.pinned === true ? 'pin' : 'unpin');
        return featuredOut(await getFeatured(deps, viewer, args.id));
      },
      unfeatureItem: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        await changeFeatured(deps, viewer, args.id, 'unfeature');
        return true;
      },
    },
  },
};
