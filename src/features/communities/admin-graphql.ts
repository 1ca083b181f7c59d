import { AppError } from '#src/core/errors.ts';
import type { Community } from '#src/db/types.ts';
import { selectInCommunity } from '#src/db/tenancy.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { createSite, getSite, listSites, updateSite, type SiteActor } from './admin.ts';
import { SITE_TEXT_FIELDS, siteFormOf, type SiteForm } from './site-form.ts';

/**
 * Sites on the staff schema (/graphqlAdmin): the same service as the forms. Cookie clients send the
 * CSRF token, bearer clients do not (the plugin decides). Bad input comes back as BadRequest.Validation
 * with `extensions.fields` naming each field, as the forms show it.
 */
export const siteAdminTypeDefs = /* GraphQL */ `
  type SiteNavLink { label: String!, link: String! }
  "A community as its admins edit it (spec section 3, Community (client data), plus hosts and colours)."
  type Site {
    id: ID!
    code: String!
    name: String!
    appName: String!
    familiarName: String!
    hosts: [String!]!
    colorPrimary: String!
    colorAccent: String!
    icon: String
    navMore: [SiteNavLink!]!
    forumEnabled: Boolean!
    conciergeEmail: String!
    conciergePhone: String!
    execLink: String
    copyrightHolder: String!
    linkTerms: String
    linkPrivacy: String
    linkMembershipInfo: String
    googleAnalytics: String
    googleTagManager: String
    authSlug: String
    authBackgroundImage: String
    authPlayStoreLink: String
    authAppStoreLink: String
    authLogo: String
    authTextColor: String
    "Active members."
    memberCount: Int!
  }
  input SiteNavLinkInput { label: String!, link: String! }
  "Every field of a site; omitted fields are blank (on update: send the whole site, as the form does)."
  input SiteInput {
    name: String
    appName: String
    familiarName: String
    hosts: [String!]
    colorPrimary: String
    colorAccent: String
    icon: String
    navMore: [SiteNavLinkInput!]
    forumEnabled: Boolean
    conciergeEmail: String
    conciergePhone: String
    execLink: String
    copyrightHolder: String
    linkTerms: String
    linkPrivacy: String
    linkMembershipInfo: String
    googleAnalytics: String
    googleTagManager: String
    authSlug: String
    authBackgroundImage: String
    authPlayStoreLink: String
    authAppStoreLink: String
    authLogo: String
    authTextColor: String
  }
  extend type Query {
    "The communities the signed-in admin administers, by name."
    sites: [Site!]!
    "One of them by code (NotFound for any other)."
    site(code: String!): Site!
  }
  extend type Mutation {
    "Creates a community (the code never changes afterwards); the caller becomes its admin."
    siteCreate(code: String!, input: SiteInput!): Site!
    "Replaces every field of a community the caller administers; seen at once on every node."
    siteUpdate(code: String!, input: SiteInput!): Site!
  }
`;

type Args = Record<string, unknown>;

const siteDepsOf = (ctx: GraphQLContext) => ({ db: ctx.db, publicHost: new URL(ctx.request.server.config.publicUrl).hostname.toLowerCase() });

function actorOf(ctx: GraphQLContext): SiteActor {
  const user = ctx.identity.user;
  if (!user || ctx.identity.kind !== 'ADMIN') throw new AppError('Forbidden');
  return { userId: user.id };
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const CODE_MAX = 100;

/** A GraphQL SiteInput as the form's fields (the same checks follow). */
function formOf(code: unknown, input: unknown): SiteForm {
  const i = (input && typeof input === 'object' ? input : {}) as Args;
  const form = { ...(Object.fromEntries(SITE_TEXT_FIELDS.map((f) => [f, str(i[f])])) as Record<(typeof SITE_TEXT_FIELDS)[number], string>), forumEnabled: false, nav: [] } as SiteForm;
  form.code = str(code).slice(0, CODE_MAX);
  form.hosts = Array.isArray(i.hosts) ? i.hosts.map(str).join('\n') : '';
  form.forumEnabled = i.forumEnabled === true;
  form.nav = Array.isArray(i.navMore) ? i.navMore.map((n) => ({ label: str((n as Args)?.label), link: str((n as Args)?.link) })) : [];
  return form;
}

async function siteOut(ctx: GraphQLContext, actor: SiteActor, code: string) {
  const { community, hosts } = await getSite(siteDepsOf(ctx), actor, code);
  const count = await selectInCommunity(ctx.db, 'memberships', community)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('is_active', '=', true)
    .executeTakeFirstOrThrow();
  return toSite(community, hosts, Number(count.n));
}

function toSite(community: Community, hosts: string[], memberCount: number) {
  return {
    id: community.id,
    code: community.code,
    name: community.name,
    appName: community.app_name,
    familiarName: community.familiar_name,
    hosts,
    colorPrimary: community.color_primary,
    colorAccent: community.color_accent,
    icon: community.icon,
    navMore: siteFormOf(community, hosts).nav,
    forumEnabled: community.forum_enabled,
    conciergeEmail: community.concierge_email,
    conciergePhone: community.concierge_phone,
    execLink: community.exec_link,
    copyrightHolder: community.copyright_holder,
    linkTerms: community.link_terms,
    linkPrivacy: community.link_privacy,
    linkMembershipInfo: community.link_membership_info,
    googleAnalytics: community.google_analytics_id,
    googleTagManager: community.google_tag_manager_id,
    authSlug: community.auth_slug,
    authBackgroundImage: community.auth_background_image,
    authPlayStoreLink: community.auth_play_store_link,
    authAppStoreLink: community.auth_app_store_link,
    authLogo: community.auth_logo,
    authTextColor: community.auth_text_color,
    memberCount,
  };
}

export const siteAdminResolvers = {
  Query: {
    sites: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
      const actor = actorOf(ctx);
      // Two statements whatever the number of sites: the list (hosts, counts) and their rows.
      const rows = await listSites(siteDepsOf(ctx), actor);
      if (!rows.length) return [];
      const communities = await ctx.db.selectFrom('communities').selectAll().where('id', 'in', rows.map((r) => r.id)).execute();
      const byId = new Map(communities.map((c) => [c.id, c]));
      return rows.filter((r) => byId.has(r.id)).map((r) => toSite(byId.get(r.id)!, r.hosts, r.memberCount));
    },
    site: async (_root: unknown, args: Args, ctx: GraphQLContext) => siteOut(ctx, actorOf(ctx), str(args.code).slice(0, CODE_MAX)),
  },
  Mutation: {
    siteCreate: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const actor = actorOf(ctx);
      const created = await createSite(siteDepsOf(ctx), actor, formOf(args.code, args.input));
      ctx.request.server.communities.invalidate();
      return siteOut(ctx, actor, created.code);
    },
    siteUpdate: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const actor = actorOf(ctx);
      const code = str(args.code).slice(0, CODE_MAX);
      const { changed } = await updateSite(siteDepsOf(ctx), actor, code, formOf(code, args.input));
      if (changed.length) ctx.request.server.communities.invalidate();
      return siteOut(ctx, actor, code);
    },
  },
};

export const siteAdminGraphQL: GraphQLPart = { typeDefs: siteAdminTypeDefs, resolvers: siteAdminResolvers };
