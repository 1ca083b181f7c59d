import { AppError, isAppError } from '#src/core/errors.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { deleteContact, findTeam, saveContact, type ContactInput, type TeamDeps } from './team.ts';
import type { SupportContact, TeamType } from './team-types.ts';

/**
 * The team part of the member schema (spec section 7): `me.assistant` and `me.publicRelations`, and
 * `myAssistant` / `myPublicRelations` (add or replace) with `myAssistantDelete` /
 * `myPublicRelationsDelete`. Refused fields come back as `extensions.code` BadRequest.Validation (or
 * 150 when every refusal is a forbidden character) with `extensions.fields` keyed by argument:
 * name, email, mobilePhone, officePhone, officePhone.extension.
 */
export const teamMemberTypeDefs = /* GraphQL */ `
  enum SupportContactType { EA PR }
  type SupportContactPhone { countryCode: String!, number: String! }
  type SupportContactOfficePhone { countryCode: String!, number: String!, extension: String }
  "The member's executive assistant (EA) or PR/marketing contact (PR)."
  type SupportContact {
    id: ID!
    name: String!
    email: String
    type: SupportContactType!
    mobilePhone: SupportContactPhone
    officePhone: SupportContactOfficePhone
  }
  "A phone of a team contact: countryCode is the region (default US); an empty or missing number clears the phone. extension: office phone only, digits, at most 10."
  input TeamPhoneInput { countryCode: String, number: String, extension: String }
  extend type Me {
    assistant: SupportContact
    publicRelations: SupportContact
  }
  extend type Mutation {
    "Adds or replaces one's executive assistant; email is required."
    myAssistant(name: String!, mobilePhone: TeamPhoneInput, officePhone: TeamPhoneInput, email: String): SupportContact!
    "Adds or replaces one's PR/marketing contact; email is required."
    myPublicRelations(name: String!, mobilePhone: TeamPhoneInput, officePhone: TeamPhoneInput, email: String): SupportContact!
    "Deletes one's executive assistant: true when there was one, false when there was none."
    myAssistantDelete: Boolean!
    "Deletes one's PR/marketing contact: true when there was one, false when there was none."
    myPublicRelationsDelete: Boolean!
  }
`;

const depsOf = (ctx: GraphQLContext): TeamDeps => ({ db: ctx.db, clock: ctx.request.server.clock, community: ctx.community });

const out = (c: SupportContact | null) => (c ? { ...c, id: String(c.id), type: c.type.toUpperCase() } : null);

type Args = { name?: unknown; email?: unknown; mobilePhone?: Record<string, unknown> | null; officePhone?: Record<string, unknown> | null };

/** The form's field names, as GraphQL arguments. */
const ARGUMENT_OF: Record<string, string> = { officeExtension: 'officePhone.extension' };

function save(type: TeamType) {
  return async (_root: unknown, args: Args, ctx: GraphQLContext) => {
    ctx.guardian.ensureSignedIn();
    const input: ContactInput = {
      name: args.name,
      email: args.email ?? '',
      mobilePhone: args.mobilePhone ? { countryCode: args.mobilePhone.countryCode ?? '', number: args.mobilePhone.number ?? '' } : null,
      officePhone: args.officePhone
        ? { countryCode: args.officePhone.countryCode ?? '', number: args.officePhone.number ?? '', extension: args.officePhone.extension ?? '' }
        : null,
    };
    try {
      return out(await saveContact(depsOf(ctx), ctx.guardian.userId!, type, input));
    } catch (e) {
      if (!isAppError(e) || !e.fields) throw e;
      const fields = Object.fromEntries(Object.entries(e.fields).map(([k, v]) => [ARGUMENT_OF[k] ?? k, v]));
      throw new AppError(e.code, { fields, values: e.values, cause: e });
    }
  };
}

function remove(type: TeamType) {
  return async (_root: unknown, _args: unknown, ctx: GraphQLContext) => {
    ctx.guardian.ensureSignedIn();
    return (await deleteContact(depsOf(ctx), ctx.guardian.userId!, type)) !== null;
  };
}

export const teamMemberResolvers = {
  Mutation: {
    myAssistant: save('ea'),
    myPublicRelations: save('pr'),
    myAssistantDelete: remove('ea'),
    myPublicRelationsDelete: remove('pr'),
  },
  Me: {
    assistant: async (parent: { id: string }, _args: unknown, ctx: GraphQLContext) => out((await findTeam(depsOf(ctx), Number(parent.id))).ea),
    publicRelations: async (parent: { id: string }, _args: unknown, ctx: GraphQLContext) => out((await findTeam(depsOf(ctx), Number(parent.id))).pr),
  },
};

export const teamMemberGraphQL: GraphQLPart = { typeDefs: teamMemberTypeDefs, resolvers: teamMemberResolvers };
