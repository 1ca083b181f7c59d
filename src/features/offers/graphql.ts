import { AppError } from '#src/core/errors.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import type { OfferStatus } from '#src/db/types.ts';
import type { OffersDeps, OffersViewer } from './deps.ts';
import { getOffer, listOffers, redeemOffer } from './offers.ts';
import { createPartner, deletePartner, listPartners, updatePartner } from './partners.ts';
import { createOffer, getStaffOffer, listStaffOffers, moveOffer, updateOffer } from './staff.ts';
import type { OfferCard, OfferView, PartnerLogo, StaffOfferForm } from './types.ts';

/**
 * Offers on the member schema (/graphql) and the staff schema (/graphqlAdmin), through the same
 * services as the pages, for cookie (with CSRF) and bearer clients alike. An offer that is not the
 * community's, or a draft, is 'Offers.NotFound'; an EXEC offer's code and link are never sent to a
 * member without the tier.
 */

type Args = Record<string, unknown>;

function offersOf(ctx: GraphQLContext): { deps: OffersDeps; viewer: OffersViewer; basePath: string } {
  ctx.guardian.ensureSignedIn();
  const app = ctx.request.server;
  return {
    deps: { db: ctx.db, clock: app.clock, community: ctx.community, t: app.t, notifier: app.notifications, publicUrl: `${app.config.publicUrl}${app.config.basePath}`, jobs: app.jobs, messages: app.messages, mailFrom: app.config.mailFrom },
    viewer: { userId: ctx.guardian.userId!, isStaff: ctx.guardian.isAdmin },
    basePath: app.config.basePath,
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const optionalString = (v: unknown): string | undefined => {
  if (v == null) return undefined;
  if (typeof v !== 'string') throw new AppError('BadRequest.Validation');
  return v;
};
const logoUrl = (logo: PartnerLogo, basePath: string) => (logo ? (logo.kind === 'upload' ? `${basePath}${logo.path}` : `${basePath}/static/${logo.path.replace(/^\/+/, '')}`) : null);

const memberTypeDefs = /* GraphQL */ `
  enum OfferTier { EVERYONE EXEC }
  enum OfferRedemptionKind { CODE LINK CONCIERGE }
  enum OfferAvailability { LIVE UPCOMING EXPIRED WITHDRAWN DRAFT }
  type OfferPartner { id: ID!, name: String!, website: String, logoUrl: String }
  "How the viewer redeems the offer, and what they already revealed or requested (code only once revealed; null where they may not redeem)."
  type OfferRedemption { kind: OfferRedemptionKind!, redeemed: Boolean!, code: String, link: String, redeemedAt: String, conciergeEmail: String }
  "A partner offer or member benefit. In offers lists, descriptionHtml, terms, startsAt, availability and redemption are null (read offer for them)."
  type Offer {
    id: ID!
    title: String!
    valueLine: String!
    category: String!
    tier: OfferTier!
    featured: Boolean!
    endsAt: String
    startsAt: String
    partner: OfferPartner!
    descriptionHtml: String
    terms: String
    availability: OfferAvailability
    "Reserved for the executive tier and the viewer does not hold it."
    execOnly: Boolean
    redemption: OfferRedemption
  }
  type OfferEdge { cursor: String!, node: Offer! }
  type OfferPageInfo { hasNextPage: Boolean!, endCursor: String }
  type OfferConnection { edges: [OfferEdge!]!, pageInfo: OfferPageInfo! }
  extend type Query {
    "The live offers the viewer may see (EXEC ones with the tier), featured first: first (default 12, at most 50) after the previous page's endCursor."
    offers(category: String, query: String, first: Int, after: String): OfferConnection!
    "One offer of the community; 'Offers.NotFound' otherwise."
    offer(id: ID!): Offer!
  }
  extend type Mutation {
    "Reveals the code, records the link's use, or requests the offer through the concierge (who is mailed the viewer's details). Recorded once per member."
    offerRedeem(id: ID!): Offer!
  }
`;

function cardOut(c: OfferCard, basePath: string) {
  return {
    id: String(c.id),
    title: c.title,
    valueLine: c.valueLine,
    category: c.category,
    tier: c.tier.toUpperCase(),
    featured: c.featured,
    endsAt: iso(c.endsAt),
    startsAt: null,
    partner: { id: String(c.partnerId), name: c.partnerName, website: null, logoUrl: logoUrl(c.logo, basePath) },
    descriptionHtml: null,
    terms: null,
    availability: null,
    execOnly: null,
    redemption: null,
  };
}

function offerOut(o: OfferView, basePath: string) {
  const r = o.redeem;
  return {
    id: String(o.id),
    title: o.title,
    valueLine: o.valueLine,
    category: o.category,
    tier: o.tier.toUpperCase(),
    featured: o.featured,
    endsAt: iso(o.endsAt),
    startsAt: iso(o.startsAt),
    partner: { id: String(o.partner.id), name: o.partner.name, website: o.partner.website, logoUrl: logoUrl(o.partner.logo, basePath) },
    descriptionHtml: o.descriptionHtml,
    terms: o.terms,
    availability: o.availability.toUpperCase(),
    execOnly: o.locked === 'exec',
    redemption: !r
      ? null
      : r.kind === 'code'
        ? { kind: 'CODE', redeemed: r.revealed, code: r.revealed ? r.code : null, link: null, redeemedAt: r.revealed ? iso(r.at) : null, conciergeEmail: null }
        : r.kind === 'link'
          ? { kind: 'LINK', redeemed: r.redeemed, code: null, link: r.link, redeemedAt: null, conciergeEmail: null }
          : { kind: 'CONCIERGE', redeemed: r.requested, code: null, link: null, redeemedAt: r.requested ? iso(r.at) : null, conciergeEmail: r.requested ? r.conciergeEmail : null },
  };
}

export const offersMemberGraphQL: GraphQLPart = {
  typeDefs: memberTypeDefs,
  resolvers: {
    Query: {
      offers: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = offersOf(ctx);
        const page = await listOffers(deps, viewer, { category: optionalString(args.category), q: optionalString(args.query), first: args.first ?? undefined, after: optionalString(args.after) });
        return { edges: page.cards.map((c) => ({ cursor: c.cursor, node: cardOut(c, basePath) })), pageInfo: { hasNextPage: page.next !== null, endCursor: page.cards.at(-1)?.cursor ?? null } };
      },
      offer: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = offersOf(ctx);
        return offerOut(await getOffer(deps, viewer, args.id), basePath);
      },
    },
    Mutation: {
      offerRedeem: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = offersOf(ctx);
        return offerOut(await redeemOffer(deps, viewer, args.id), basePath);
      },
    },
  },
};

// ---- Staff ----

const adminTypeDefs = /* GraphQL */ `
  enum MarketplaceOfferStatus { DRAFT PUBLISHED WITHDRAWN }
  type MarketplacePartner { id: ID!, name: String!, website: String, contact: String!, logoUrl: String, offerCount: Int! }
  type MarketplaceOfferRow { id: ID!, title: String!, partnerName: String!, category: String!, tier: String!, status: MarketplaceOfferStatus!, featured: Boolean!, position: Int!, startsAt: String, endsAt: String, redemptions: Int! }
  type MarketplaceOfferPage { rows: [MarketplaceOfferRow!]!, nextAfter: ID }
  type MarketplaceStatusEvent { from: MarketplaceOfferStatus, to: MarketplaceOfferStatus!, actorName: String, at: String! }
  type MarketplaceWeek { week: String!, count: Int! }
  "An offer as staff edit it: dates are the first and last day (YYYY-MM-DD); description is the plain text of its HTML."
  type MarketplaceOffer {
    id: ID!
    status: MarketplaceOfferStatus!
    partnerId: ID!
    title: String!
    valueLine: String!
    description: String!
    category: String!
    tier: String!
    redemption: String!
    code: String
    link: String
    terms: String!
    startsAt: String
    endsAt: String
    featured: Boolean!
    position: Int!
    events: [MarketplaceStatusEvent!]!
    redemptionCount: Int!
    redemptionsByWeek: [MarketplaceWeek!]!
  }
  "An offer's fields: tier 'everyone' or 'exec'; redemption 'code', 'link' or 'concierge'; category one of the known ones; dates YYYY-MM-DD (the last day inclusive); descriptionHtml sanitised as articles are."
  input MarketplaceOfferInput {
    partnerId: ID!
    title: String!
    valueLine: String!
    descriptionHtml: String
    category: String!
    tier: String!
    redemption: String!
    code: String
    link: String
    terms: String
    startsAt: String
    endsAt: String
    featured: Boolean
    position: Int
  }
  input MarketplacePartnerInput { name: String!, website: String, contact: String }
  extend type Query {
    "The community's offers, newest first, 50 a page (after: the previous page's nextAfter)."
    marketplaceOffers(status: MarketplaceOfferStatus, after: ID): MarketplaceOfferPage!
    marketplaceOffer(id: ID!): MarketplaceOffer!
    marketplacePartners: [MarketplacePartner!]!
  }
  extend type Mutation {
    "A new offer, as a draft."
    marketplaceOfferCreate(input: MarketplaceOfferInput!): MarketplaceOffer!
    marketplaceOfferUpdate(id: ID!, input: MarketplaceOfferInput!): MarketplaceOffer!
    "draft → published → withdrawn (→ published again), logged with who and when."
    marketplaceOfferMove(id: ID!, to: MarketplaceOfferStatus!): MarketplaceOffer!
    marketplacePartnerCreate(input: MarketplacePartnerInput!): MarketplacePartner!
    marketplacePartnerUpdate(id: ID!, input: MarketplacePartnerInput!): MarketplacePartner!
    "Deletes a partner without offers ('Offers.PartnerInUse' otherwise)."
    marketplacePartnerDelete(id: ID!): Boolean!
  }
`;

const str = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));

function formOfInput(input: Record<string, unknown>): StaffOfferForm {
  return {
    partnerId: str(input.partnerId),
    title: str(input.title),
    valueLine: str(input.valueLine),
    description: str(input.descriptionHtml),
    category: str(input.category),
    tier: str(input.tier),
    redemption: str(input.redemption),
    code: str(input.code),
    link: str(input.link),
    terms: str(input.terms),
    startsAt: str(input.startsAt),
    endsAt: str(input.endsAt),
    featured: input.featured === true,
    position: input.position == null ? '0' : str(input.position),
  };
}

async function staffOfferOut(deps: OffersDeps, viewer: OffersViewer, id: number) {
  const o = await getStaffOffer(deps, viewer, id);
  return {
    id: String(o.id),
    status: o.status.toUpperCase(),
    ...o.form,
    code: o.form.code || null,
    link: o.form.link || null,
    startsAt: o.form.startsAt || null,
    endsAt: o.form.endsAt || null,
    position: Number(o.form.position),
    events: o.events.map((e) => ({ from: e.from?.toUpperCase() ?? null, to: e.to.toUpperCase(), actorName: e.actorName, at: e.at.toISOString() })),
    redemptionCount: o.redemptions.total,
    redemptionsByWeek: o.redemptions.byWeek,
  };
}

async function partnerOut(deps: OffersDeps, viewer: OffersViewer, id: number, basePath: string) {
  const p = (await listPartners(deps, viewer)).find((r) => r.id === id);
  if (!p) throw new AppError('Offers.PartnerNotFound');
  return { id: String(p.id), name: p.name, website: p.website, contact: p.contact, logoUrl: logoUrl(p.logo, basePath), offerCount: p.offers };
}

const statusIn = (v: unknown): OfferStatus => {
  const s = String(v).toLowerCase();
  if (s !== 'draft' && s !== 'published' && s !== 'withdrawn') throw new AppError('BadRequest.Validation');
  return s;
};
const inputOf = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});

export const offersAdminGraphQL: GraphQLPart = {
  typeDefs: adminTypeDefs,
  resolvers: {
    Query: {
      marketplaceOffers: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = offersOf(ctx);
        const after = args.after == null ? null : Number(args.after);
        if (after !== null && (!Number.isSafeInteger(after) || after < 1)) throw new AppError('BadRequest.Validation');
        const { rows, next } = await listStaffOffers(deps, viewer, { status: args.status ? statusIn(args.status) : null, after });
        return {
          rows: rows.map((r) => ({ ...r, id: String(r.id), status: r.status.toUpperCase(), startsAt: iso(r.startsAt), endsAt: iso(r.endsAt) })),
          nextAfter: next ? String(next) : null,
        };
      },
      marketplaceOffer: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = offersOf(ctx);
        const o = await getStaffOffer(deps, viewer, args.id);
        return staffOfferOut(deps, viewer, o.id);
      },
      marketplacePartners: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = offersOf(ctx);
        return (await listPartners(deps, viewer)).map((p) => ({ id: String(p.id), name: p.name, website: p.website, contact: p.contact, logoUrl: logoUrl(p.logo, basePath), offerCount: p.offers }));
      },
    },
    Mutation: {
      marketplaceOfferCreate: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = offersOf(ctx);
        const id = await createOffer(deps, viewer, formOfInput(inputOf(args.input)), { html: true });
        return staffOfferOut(deps, viewer, id);
      },
      marketplaceOfferUpdate: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = offersOf(ctx);
        const id = await updateOffer(deps, viewer, args.id, formOfInput(inputOf(args.input)), { html: true });
        return staffOfferOut(deps, viewer, id);
      },
      marketplaceOfferMove: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = offersOf(ctx);
        const o = await getStaffOffer(deps, viewer, args.id);
        await moveOffer(deps, viewer, o.id, statusIn(args.to));
        return staffOfferOut(deps, viewer, o.id);
      },
      marketplacePartnerCreate: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = offersOf(ctx);
        const input = inputOf(args.input);
        const id = await createPartner(deps, viewer, { name: str(input.name), website: str(input.website), contact: str(input.contact) });
        return partnerOut(deps, viewer, id, basePath);
      },
      marketplacePartnerUpdate: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = offersOf(ctx);
        const input = inputOf(args.input);
        const id = await updatePartner(deps, viewer, args.id, { name: str(input.name), website: str(input.website), contact: str(input.contact) });
        return partnerOut(deps, viewer, id, basePath);
      },
      marketplacePartnerDelete: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = offersOf(ctx);
        await deletePartner(deps, viewer, args.id);
        return true;
      },
    },
  },
};
