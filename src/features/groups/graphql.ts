import { AppError } from '#src/core/errors.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import type { MemberSnapshot } from '#src/features/members/index.ts';
import type { GroupsDeps, GroupsViewer } from './deps.ts';
import { decideRequestById, getGroup, leaveGroup, listGroups, requestToJoin } from './members.ts';
import { addPeople, createGroup, getStaffGroup, listStaffGroups, removePerson, setPersonRole, updateGroup } from './staff.ts';
import type { GroupCard, GroupForm, GroupImage, GroupRole, GroupView, JoinRequestView, StaffGroupDetail } from './types.ts';

/**
 * Groups on the member schema (/graphql) and the staff schema (/graphqlAdmin), through the same
 * services as the pages, for cookie (with CSRF) and bearer clients alike. A group the viewer may not
 * see (disabled, preview, private, another community's, unknown) is 'Groups.NotFound', exactly as the
 * page answers 404; it is absent from `groups`.
 */

type Args = Record<string, unknown>;

function groupsOf(ctx: GraphQLContext): { deps: GroupsDeps; viewer: GroupsViewer; basePath: string } {
  ctx.guardian.ensureSignedIn();
  const app = ctx.request.server;
  return {
    deps: { db: ctx.db, clock: app.clock, community: ctx.community, t: app.t, notifier: app.notifications, publicUrl: `${app.config.publicUrl}${app.config.basePath}`, jobs: app.jobs },
    viewer: { userId: ctx.guardian.userId!, isStaff: ctx.guardian.isAdmin },
    basePath: app.config.basePath,
  };
}

const imageUrl = (image: GroupImage, basePath: string) => (image ? (image.kind === 'upload' ? `${basePath}${image.path}` : `${basePath}/static/${image.path.replace(/^\/+/, '')}`) : null);
const upper = <T extends string>(v: T) => v.toUpperCase();
const roleIn = (v: unknown): GroupRole => {
  if (v === 'CHAIR' || v === 'chair') return 'chair';
  if (v === 'MEMBER' || v === 'member') return 'member';
  throw new AppError('BadRequest.Validation');
};

const sharedTypeDefs = /* GraphQL */ `
  enum GroupVisibility { DISABLED PREVIEW PRIVATE PUBLIC }
  enum GroupRole { CHAIR MEMBER }
`;

const memberTypeDefs = /* GraphQL */ `
  ${sharedTypeDefs}
  type GroupPerson { id: ID!, name: String!, jobTitle: String, companyName: String, avatarUrl: String }
  "What the viewer may do in the group: read and post in its discussion, ask to join, chair it (decide on requests, moderate), leave it."
  type GroupAbilities { canRead: Boolean!, canPost: Boolean!, canRequest: Boolean!, canChair: Boolean!, canLeave: Boolean! }
  "A group the viewer sees. In groups lists, aboutHtml, chairs, members and abilities are null (read group(slug) for them)."
  type Group {
    id: ID!
    name: String!
    slug: String!
    excerpt: String!
    imageUrl: String
    visibility: GroupVisibility!
    memberCount: Int!
    "The viewer's place in it: null when they are not in it."
    myRole: GroupRole
    "The viewer asked to join and waits for a chair."
    requested: Boolean!
    aboutHtml: String
    chairs: [GroupPerson!]
    members: [GroupPerson!]
    abilities: GroupAbilities
    "Whether the community has the forum, and so the group a discussion."
    discussion: Boolean
  }
  type GroupJoinRequest { id: ID!, member: GroupPerson!, createdAt: String! }
  extend type Query {
    "The groups the viewer sees: theirs first, then the others (public ones; staff see every group), each by name."
    groups: [Group!]!
    "One group with its about, chairs and members; 'Groups.NotFound' (and null) for one the viewer may not see."
    group(slug: String!): Group
    "A group's waiting requests to join: its chairs (and staff) only, else 'Groups.NotChair'."
    groupJoinRequests(slug: String!): [GroupJoinRequest!]!
  }
  extend type Mutation {
    "Asks to join a public group (its chairs are told); asking again while a request waits changes nothing."
    groupJoinRequest(slug: String!): Group!
    "A chair (or staff) accepts a waiting request: the member joins and is told. Answers the group."
    groupJoinRequestAccept(id: ID!): Group!
    "A chair (or staff) declines a waiting request: the member is told. Answers the group."
    groupJoinRequestDecline(id: ID!): Group!
    "The viewer leaves the group ('Groups.NotMember' when not in it, 'Groups.LastChair' for its only chair). True when done."
    groupLeave(slug: String!): Boolean!
  }
`;

const personOut = (m: MemberSnapshot, basePath: string) => ({
  id: String(m.id),
  name: m.name,
  jobTitle: m.jobTitle,
  companyName: m.companyName,
  avatarUrl: m.avatar ? (m.avatar.startsWith('/') ? `${basePath}${m.avatar}` : m.avatar) : null,
});

function cardOut(c: GroupCard, basePath: string) {
  return {
    id: String(c.id),
    name: c.name,
    slug: c.slug,
    excerpt: c.excerpt,
    imageUrl: imageUrl(c.image, basePath),
    visibility: upper(c.visibility),
    memberCount: c.memberCount,
    myRole: c.myRole ? upper(c.myRole) : null,
    requested: c.requested,
    aboutHtml: null,
    chairs: null,
    members: null,
    abilities: null,
    discussion: null,
  };
}

function groupOut(g: GroupView, basePath: string) {
  return {
    ...cardOut(g, basePath),
    aboutHtml: g.aboutHtml,
    chairs: g.chairs.map((m) => personOut(m, basePath)),
    members: g.members.map((m) => personOut(m, basePath)),
    abilities: { ...g.abilities, canLeave: g.myRole !== null },
    discussion: g.discussion,
  };
}

const requestOut = (r: JoinRequestView, basePath: string) => ({ id: String(r.id), member: personOut(r.member, basePath), createdAt: r.createdAt.toISOString() });

export const groupsMemberGraphQL: GraphQLPart = {
  typeDefs: memberTypeDefs,
  resolvers: {
    Query: {
      groups: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = groupsOf(ctx);
        const { mine, others } = await listGroups(deps, viewer);
        return [...mine, ...others].map((c) => cardOut(c, basePath));
      },
      group: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = groupsOf(ctx);
        return groupOut(await getGroup(deps, viewer, args.slug), basePath);
      },
      groupJoinRequests: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = groupsOf(ctx);
        const g = await getGroup(deps, viewer, args.slug);
        if (!g.abilities.canChair) throw new AppError('Groups.NotChair');
        return g.requests.map((r) => requestOut(r, basePath));
      },
    },
    Mutation: {
      groupJoinRequest: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = groupsOf(ctx);
        const done = await requestToJoin(deps, viewer, args.slug);
        return groupOut(await getGroup(deps, viewer, done.slug), basePath);
      },
      groupJoinRequestAccept: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = groupsOf(ctx);
        const done = await decideRequestById(deps, viewer, args.id, true);
        return groupOut(await getGroup(deps, viewer, done.slug), basePath);
      },
      groupJoinRequestDecline: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = groupsOf(ctx);
        const done = await decideRequestById(deps, viewer, args.id, false);
        return groupOut(await getGroup(deps, viewer, done.slug), basePath);
      },
      groupLeave: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = groupsOf(ctx);
        await leaveGroup(deps, viewer, args.slug);
        return true;
      },
    },
  },
};

// ---- Staff ----

const adminTypeDefs = /* GraphQL */ `
  ${sharedTypeDefs}
  type AdminGroupRow { id: ID!, name: String!, slug: String!, visibility: GroupVisibility!, chairCount: Int!, memberCount: Int!, pendingCount: Int!, updatedAt: String! }
  "A chair or member; active is false when their membership of the community (or their account) is not."
  type AdminGroupPerson { userId: ID!, name: String!, email: String!, companyName: String, role: GroupRole!, active: Boolean!, addedAt: String! }
  type AdminGroupLogLine { id: ID!, actorName: String, action: String!, detail: String!, createdAt: String! }
  "A group as staff edit it: about is the plain text typed, aboutHtml what members see; log is the latest 50 changes, newest first."
  type AdminGroup { id: ID!, name: String!, slug: String!, about: String!, aboutHtml: String!, imageUrl: String, visibility: GroupVisibility!, people: [AdminGroupPerson!]!, log: [AdminGroupLogLine!]! }
  "A group's fields: name 1 to 100 characters; slug 2 to 60 of a-z, 0-9 and single hyphens (from the name when left out); about plain text, at most 5000 characters."
  input GroupInput { name: String!, slug: String, about: String, visibility: GroupVisibility! }
  extend type Query {
    "Every group of the community by name, with its counts."
    adminGroups: [AdminGroupRow!]!
    adminGroup(id: ID!): AdminGroup!
  }
  extend type Mutation {
    groupCreate(input: GroupInput!): AdminGroup!
    groupUpdate(id: ID!, input: GroupInput!): AdminGroup!
    "Adds the active members of the community with these addresses (commas, spaces or lines between them) with the role; one unknown address and nobody is added ('Groups.Invalid', field emails). Someone already in the group takes the role."
    groupPeopleAdd(groupId: ID!, emails: String!, role: GroupRole!): AdminGroup!
    groupPersonRemove(groupId: ID!, userId: ID!): AdminGroup!
    "Makes someone already in the group its chair or a member."
    groupPersonRole(groupId: ID!, userId: ID!, role: GroupRole!): AdminGroup!
  }
`;

const str = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));
const inputOf = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
const formOfInput = (v: unknown): GroupForm => {
  const input = inputOf(v);
  return { name: str(input.name), slug: str(input.slug), about: str(input.about), visibility: str(input.visibility).toLowerCase() };
};

function staffGroupOut(g: StaffGroupDetail, basePath: string) {
  return {
    id: String(g.id),
    name: g.name,
    slug: g.slug,
    about: g.about,
    aboutHtml: g.aboutHtml,
    imageUrl: imageUrl(g.image, basePath),
    visibility: upper(g.visibility),
    people: g.people.map((p) => ({ ...p, userId: String(p.userId), role: upper(p.role), addedAt: p.addedAt.toISOString() })),
    log: g.log.map((l) => ({ ...l, id: String(l.id), createdAt: l.createdAt.toISOString() })),
  };
}

const staffGroup = async (deps: GroupsDeps, viewer: GroupsViewer, id: unknown, basePath: string) => staffGroupOut(await getStaffGroup(deps, viewer, id), basePath);

export const groupsAdminGraphQL: GraphQLPart = {
  typeDefs: adminTypeDefs,
  resolvers: {
    Query: {
      adminGroups: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = groupsOf(ctx);
        return (await listStaffGroups(deps, viewer)).map((r) => ({ ...r, id: String(r.id), visibility: upper(r.visibility), updatedAt: r.updatedAt.toISOString() }));
      },
      adminGroup: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = groupsOf(ctx);
        return staffGroup(deps, viewer, args.id, basePath);
      },
    },
    Mutation: {
      groupCreate: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = groupsOf(ctx);
        const id = await createGroup(deps, viewer, formOfInput(args.input));
        return staffGroup(deps, viewer, id, basePath);
      },
      groupUpdate: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = groupsOf(ctx);
        const id = await updateGroup(deps, viewer, args.id, formOfInput(args.input));
        return staffGroup(deps, viewer, id, basePath);
      },
      groupPeopleAdd: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = groupsOf(ctx);
        await addPeople(deps, viewer, args.groupId, { emails: str(args.emails), role: roleIn(args.role) });
        return staffGroup(deps, viewer, args.groupId, basePath);
      },
      groupPersonRemove: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = groupsOf(ctx);
        await removePerson(deps, viewer, args.groupId, args.userId);
        return staffGroup(deps, viewer, args.groupId, basePath);
      },
      groupPersonRole: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = groupsOf(ctx);
        await setPersonRole(deps, viewer, args.groupId, args.userId, roleIn(args.role));
        return staffGroup(deps, viewer, args.groupId, basePath);
      },
    },
  },
};
