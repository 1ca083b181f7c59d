import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { isAppError, notFound } from '#src/core/errors.ts';
import { withAlert } from '#src/lib/alerts.ts';
import { z } from 'zod';
import { field, formOf, paramsOf, queryOf } from '#src/lib/form.ts';
import { TeamDeleteConfirm, TeamDeletePage, TeamForm, TeamFormPage, TeamPage, type TeamFormState } from '#src/features/settings/views/Team.tsx';
import { countryOptions, deleteContact, draftOf, findContact, findTeam, inputOf, saveContact, type TeamDeps } from './team.ts';
import { TEAM_TYPES, type TeamDraft, type TeamType } from './team-types.ts';

export function teamDeps(request: FastifyRequest): TeamDeps {
  return { db: request.server.db, clock: request.server.clock, community: request.community };
}

/** The contact form: each field as typed ('' when absent); the service applies the rules, naming the field. */
const TeamForm_ = z.object({
  name: field(),
  email: field(),
  mobilePhoneCountry: field(),
  mobilePhone: field(),
  officePhoneCountry: field(),
  officePhone: field(),
  officeExtension: field(),
});
/** The contact's kind in the path (ea or pr); anything else is NotFound. */
const TeamParams = z.object({ type: z.enum(TEAM_TYPES) });
/** The modal asks for the fragment alone (`?fragment=1`); anything else is the page. */
const FragmentQuery = z.object({ fragment: z.string().optional().catch(undefined) });

/** What a form shows again: C0 controls (refused anyway) are dropped so that the page stays clean. */
const shown = (v: string) => v.replace(/[\u0000-\u001f]/g, '');

function draftFromBody(body: TeamDraft): TeamDraft {
  return {
    name: shown(body.name),
    email: shown(body.email),
    mobilePhoneCountry: shown(body.mobilePhoneCountry),
    mobilePhone: shown(body.mobilePhone),
    officePhoneCountry: shown(body.officePhoneCountry),
    officePhone: shown(body.officePhone),
    officeExtension: shown(body.officeExtension),
  };
}

/**
 * Settings → Team (/settings/team, the add/edit form /settings/team/{ea|pr}, the delete confirmation
 * /settings/team/{ea|pr}/delete); Settings → Billing is the payments area's (payments/billing-routes.tsx). The forms work without
 * JavaScript (POST, then 303 with an alert, or the page again with the messages next to the fields);
 * the modal island asks for `?fragment=1` and gets the form alone (200 even with field messages).
 */
export default async function teamRoutes(app: FastifyInstance) {
  const t = app.t;
  const member = { config: { access: 'member' as const } };
  const wantsFragment = (request: FastifyRequest) => queryOf(FragmentQuery, request).fragment === '1';
  const typeOf = (request: FastifyRequest): TeamType => paramsOf(TeamParams, request, notFound).type;

  function respond(request: FastifyRequest, reply: FastifyReply, title: string, page: ReactNode, fragment: ReactNode, status = 200) {
    if (wantsFragment(request)) return reply.fragment(fragment, 200);
    return reply.page({ title, body: page, status });
  }

  function renderForm(request: FastifyRequest, reply: FastifyReply, state: TeamFormState, status = 200) {
    const title = t(state.editing ? `team.editTitle.${state.type}` : `team.addTitle.${state.type}`);
    return respond(request, reply, title, <TeamFormPage state={state} />, <TeamForm state={state} inDialog />, status);
  }

  app.get('/settings/team', member, async (request, reply) => {
    const team = await findTeam(teamDeps(request), request.guardian.userId!);
    return reply.page({ title: t('settings.sections.team'), body: <TeamPage team={team} /> });
  });

  app.get('/settings/team/:type', member, async (request, reply) => {
    const type = typeOf(request);
    const contact = await findContact(teamDeps(request), request.guardian.userId!, type);
    return renderForm(request, reply, { type, editing: contact !== null, draft: draftOf(contact), errors: {}, countries: countryOptions() });
  });

  app.post('/settings/team/:type', member, async (request, reply) => {
    const type = typeOf(request);
    const deps = teamDeps(request);
    const me = request.guardian.userId!;
    // The raw values (with any control characters) go to the service, which refuses them by name.
    const body = formOf(TeamForm_, request);
    const draft = draftFromBody(body);
    try {
      await saveContact(deps, me, type, inputOf(body));
      return reply.redirectTo(withAlert('/settings/team', 'team-saved'));
    } catch (e) {
      if (!isAppError(e) || !e.fields) throw e;
      // Nothing typed is lost: the form comes back with every value and a message next to each field.
      const errors = Object.fromEntries(Object.entries(e.fields).map(([field, f]) => [field, t(f.key, f.values)]));
      const editing = (await findContact(deps, me, type)) !== null;
      return renderForm(request, reply, { type, editing, draft, errors, countries: countryOptions() }, e.status);
    }
  });

  app.get('/settings/team/:type/delete', member, async (request, reply) => {
    const type = typeOf(request);
    const contact = await findContact(teamDeps(request), request.guardian.userId!, type);
    // Nothing to delete (already deleted, or never added): back to the section.
    if (!contact) return reply.redirectTo('/settings/team');
    return respond(request, reply, t(`team.deleteTitle.${type}`), <TeamDeletePage contact={contact} />, <TeamDeleteConfirm contact={contact} />);
  });

  app.post('/settings/team/:type/delete', member, async (request, reply) => {
    const type = typeOf(request);
    const deleted = await deleteContact(teamDeps(request), request.guardian.userId!, type);
    return reply.redirectTo(deleted === null ? '/settings/team' : withAlert('/settings/team', 'team-deleted'));
  });
}
