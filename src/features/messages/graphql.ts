import { AppError } from '#src/core/errors.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { countMessageAudience, cancelMessage, createMessage, getStaffMessage, listStaffMessages, scheduleMessage, sendMessage, updateMessage, blankMessageForm } from './compose.ts';
import { graphqlDeps, type MessagesDeps, type MessagesViewer } from './deps.ts';
import { listInbox, markRead, readInboxMessage } from './inbox.ts';
import type { StaffMessageForm, StaffMessageRow } from './types.ts';

/**
 * Messages from the team on the member schema (/graphql) and the staff schema (/graphqlAdmin), through
 * the same services as the pages, for cookie (with CSRF) and bearer clients alike.
 */

type Args = Record<string, unknown>;
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const str = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));
const optionalString = (v: unknown): string | undefined => {
  if (v == null) return undefined;
  if (typeof v !== 'string') throw new AppError('BadRequest.Validation');
  return v;
};

const memberTypeDefs = /* GraphQL */ `
  "A message the community team sent the viewer. bodyHtml is null in lists (read teamMessage for it)."
  type TeamMessage { id: ID!, subject: String!, senderName: String, sentAt: String!, read: Boolean!, readAt: String, bodyHtml: String }
  type TeamMessageEdge { cursor: String!, node: TeamMessage! }
  type TeamMessagePageInfo { hasNextPage: Boolean!, endCursor: String }
  type TeamMessageConnection { edges: [TeamMessageEdge!]!, pageInfo: TeamMessagePageInfo!, unreadCount: Int! }
  extend type Query {
    "The viewer's messages from the team, newest first: first (default 20, at most 50) after the previous page's endCursor."
    teamMessages(first: Int, after: String): TeamMessageConnection!
    "One message sent to the viewer ('Messages.NotFound' otherwise). Does not mark it read: teamMessageMarkRead does."
    teamMessage(id: ID!): TeamMessage!
  }
  extend type Mutation {
    "Marks a message sent to the viewer read (the first time stays)."
    teamMessageMarkRead(id: ID!): TeamMessage!
  }
`;

export const messagesMemberGraphQL: GraphQLPart = {
  typeDefs: memberTypeDefs,
  resolvers: {
    Query: {
      teamMessages: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const page = await listInbox(deps, viewer, { first: args.first ?? undefined, after: optionalString(args.after) });
        return {
          edges: page.items.map((i) => ({ cursor: i.cursor, node: { id: String(i.id), subject: i.subject, senderName: i.senderName, sentAt: iso(i.sentAt), read: i.read, readAt: null, bodyHtml: null } })),
          pageInfo: { hasNextPage: page.next !== null, endCursor: page.items.at(-1)?.cursor ?? null },
          unreadCount: page.unread,
        };
      },
      teamMessage: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const m = await readInboxMessage(deps, viewer, args.id, { markRead: false });
        return { id: String(m.id), subject: m.subject, senderName: m.senderName, sentAt: iso(m.sentAt), read: m.readAt !== null, readAt: iso(m.readAt), bodyHtml: m.bodyHtml };
      },
    },
    Mutation: {
      teamMessageMarkRead: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        await markRead(deps, viewer, args.id);
        const m = await readInboxMessage(deps, viewer, args.id, { markRead: false });
        return { id: String(m.id), subject: m.subject, senderName: m.senderName, sentAt: iso(m.sentAt), read: true, readAt: iso(m.readAt), bodyHtml: m.bodyHtml };
      },
    },
  },
};

// ---- Staff ----

const adminTypeDefs = /* GraphQL */ `
  enum TeamMessageStatus { DRAFT SCHEDULED SENDING SENT CANCELLED FAILED }
  enum TeamMessageAudienceKind { COMMUNITY GROUP FILTER EMAILS }
  type TeamMessageFigures { recipients: Int!, delivered: Int!, read: Int!, emailed: Int!, pushed: Int! }
  type TeamMessageEvent { from: TeamMessageStatus, to: TeamMessageStatus!, actorName: String, note: String, at: String! }
  "Who a message goes to: for FILTER the member search's filters (founding: true, false or null for any); for EMAILS the addresses."
  type TeamMessageAudience { kind: TeamMessageAudienceKind!, groupId: ID, tier: String, founding: Boolean, industry: String, location: String, standing: String, emails: [String!] }
  type StaffTeamMessage {
    id: ID!
    subject: String!
    senderName: String
    audienceKind: TeamMessageAudienceKind!
    audienceCount: Int!
    createdAt: String!
    status: TeamMessageStatus!
    scheduledAt: String
    sentAt: String
    figures: TeamMessageFigures!
    "Only in staffTeamMessage and the mutations (null in the list)."
    bodyHtml: String
    audience: TeamMessageAudience
    events: [TeamMessageEvent!]
  }
  type StaffTeamMessagePage { rows: [StaffTeamMessage!]!, nextAfter: ID }
  input TeamMessageAudienceInput { kind: TeamMessageAudienceKind!, groupId: ID, tier: String, founding: Boolean, industry: String, location: String, standing: String, emails: [String!] }
  "bodyHtml is sanitised as articles' rich text is."
  input TeamMessageInput { subject: String!, bodyHtml: String!, audience: TeamMessageAudienceInput! }
  extend type Query {
    "The community's messages, newest first, 50 a page (after: the previous page's nextAfter)."
    staffTeamMessages(after: ID): StaffTeamMessagePage!
    staffTeamMessage(id: ID!): StaffTeamMessage!
    "How many active members the audience reaches now ('Messages.Invalid' naming any pasted address that is not one)."
    staffTeamMessageAudienceCount(audience: TeamMessageAudienceInput!): Int!
  }
  extend type Mutation {
    "A new message, as a draft."
    staffTeamMessageCompose(input: TeamMessageInput!): StaffTeamMessage!
    "Saves a draft's or a scheduled message's subject, body and audience."
    staffTeamMessageUpdate(id: ID!, input: TeamMessageInput!): StaffTeamMessage!
    "Sends now (DRAFT or SCHEDULED → SENDING → SENT), through the queue in batches."
    staffTeamMessageSend(id: ID!): StaffTeamMessage!
    "Schedules it for at (an ISO instant in the future): DRAFT or SCHEDULED → SCHEDULED."
    staffTeamMessageSchedule(id: ID!, at: String!): StaffTeamMessage!
    "Cancels a draft, a scheduled message, or one still sending (its remaining batches stop)."
    staffTeamMessageCancel(id: ID!): StaffTeamMessage!
  }
`;

const inputOf = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

function audienceFormOf(a: Record<string, unknown>): Pick<StaffMessageForm, 'audienceKind' | 'groupId' | 'tier' | 'founding' | 'industry' | 'location' | 'standing' | 'emails'> {
  const emails = a.emails == null ? [] : Array.isArray(a.emails) ? a.emails : null;
  if (emails === null || emails.length > 10_000) throw new AppError('BadRequest.Validation');
  return {
    audienceKind: str(a.kind).toLowerCase(),
    groupId: str(a.groupId),
    tier: str(a.tier),
    founding: a.founding === true ? 'yes' : a.founding === false ? 'no' : '',
    industry: str(a.industry),
    location: str(a.location),
    standing: str(a.standing),
    emails: emails.map(str).join('\n'),
  };
}

function formOfInput(input: Record<string, unknown>): StaffMessageForm {
  return { ...blankMessageForm(), subject: str(input.subject), body: str(input.bodyHtml), ...audienceFormOf(inputOf(input.audience)) };
}

const rowOut = (r: StaffMessageRow) => ({
  id: String(r.id),
  subject: r.subject,
  senderName: r.senderName,
  audienceKind: r.audienceKind.toUpperCase(),
  audienceCount: r.audienceCount,
  createdAt: iso(r.createdAt),
  status: r.status,
  scheduledAt: iso(r.scheduledAt),
  sentAt: iso(r.sentAt),
  figures: r.figures,
  bodyHtml: null,
  audience: null,
  events: null,
});

async function staffOut(deps: MessagesDeps, viewer: MessagesViewer, id: unknown) {
  const m = await getStaffMessage(deps, viewer, id);
  const a = m.audience;
  return {
    ...rowOut(m),
    bodyHtml: m.bodyHtml,
    audience: {
      kind: a.kind.toUpperCase(),
      groupId: a.kind === 'group' ? String(a.groupId) : null,
      tier: a.kind === 'filter' ? (a.tier ?? null) : null,
      founding: a.kind === 'filter' ? (a.founding ?? null) : null,
      industry: a.kind === 'filter' ? (a.industry ?? null) : null,
      location: a.kind === 'filter' ? (a.location ?? null) : null,
      standing: a.kind === 'filter' ? (a.standing ?? null) : null,
      emails: a.kind === 'emails' ? a.emails : null,
    },
    events: m.events.map((e) => ({ from: e.from, to: e.to, actorName: e.actorName, note: e.note, at: iso(e.at) })),
  };
}

export const messagesAdminGraphQL: GraphQLPart = {
  typeDefs: adminTypeDefs,
  resolvers: {
    Query: {
      staffTeamMessages: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const after = args.after == null ? null : Number(args.after);
        if (after !== null && (!Number.isSafeInteger(after) || after < 1)) throw new AppError('BadRequest.Validation');
        const { rows, next } = await listStaffMessages(deps, viewer, { after });
        return { rows: rows.map(rowOut), nextAfter: next ? String(next) : null };
      },
      staffTeamMessage: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        return staffOut(deps, viewer, args.id);
      },
      staffTeamMessageAudienceCount: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        return countMessageAudience(deps, viewer, { ...blankMessageForm(), ...audienceFormOf(inputOf(args.audience)) });
      },
    },
    Mutation: {
      staffTeamMessageCompose: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const id = await createMessage(deps, viewer, formOfInput(inputOf(args.input)), { html: true });
        return staffOut(deps, viewer, id);
      },
      staffTeamMessageUpdate: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const id = await updateMessage(deps, viewer, args.id, formOfInput(inputOf(args.input)), { html: true });
        return staffOut(deps, viewer, id);
      },
      staffTeamMessageSend: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        await sendMessage(deps, viewer, args.id);
        return staffOut(deps, viewer, args.id);
      },
      staffTeamMessageSchedule: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        await scheduleMessage(deps, viewer, args.id, str(args.at));
        return staffOut(deps, viewer, args.id);
      },
      staffTeamMessageCancel: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        await cancelMessage(deps, viewer, args.id);
        return staffOut(deps, viewer, args.id);
      },
    },
  },
};
