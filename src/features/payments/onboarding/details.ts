import type { FastifyRequest } from 'fastify';
import { AppError, type FieldErrors } from '#src/core/errors.ts';
import { hasForbiddenCharacters, INVALID_CHARACTERS_CODE, INVALID_CHARACTERS_KEY } from '#src/core/fields.ts';
import { epDeps, firstOpenQuestion, type JoinablePanel, joinPanels, listJoinablePanels, type MemberQuestionView, submitAnswer } from '#src/features/expert-panels/index.ts';
import { findProfile, updateProfile } from '#src/features/members/index.ts';
import { changeMobilePhone, currentPhone, findTeam, saveContact, type TeamType } from '#src/features/settings/index.ts';
import { advance, currentStep, finishStep, stepApplies, type Onboarding, type STEP_COLUMN } from './progress.ts';
import { ADDRESS_FIELDS, ADDRESS_LIMITS, SKIPPABLE, type AddressDraft, type StepName } from './types.ts';

/**
 * The optional steps after the password: profile (job title, company, location: the members profile
 * service), contact (the mobile phone: settings security), team (the executive assistant or the
 * PR/marketing contact: settings team), address (when the community asks for it). Each reuses the
 * service the rest of the app uses, then stamps the step done; each can be skipped. They need the
 * member signed in (the password step signs the invitee in).
 */

function ensureSignedIn(o: Onboarding): void {
  if (!o.signedIn) throw new AppError('NotAuthenticated');
}

/** A step can be done when it is the current one, or an optional one already passed (editing it again). */
function ensureReachable(o: Onboarding, step: StepName): void {
  if (!stepApplies(o, step)) throw new AppError('Onboarding.StepUnavailable');
  // The expert-panel steps join panels and answer questions: once the onboarding is complete (as its
  // pages already say), they are the editors' and /expert-panels' business, not the onboarding's.
  if (o.row.completedAt && (step === 'ep-landing' || step === 'ep-question')) throw new AppError('Onboarding.StepUnavailable');
  const current = currentStep(o);
  if (current === step) return;
  const order: StepName[] = ['payment', 'password', 'profile', 'contact', 'team', 'ep-landing', 'ep-question', 'address', 'complete'];
  if (SKIPPABLE.includes(step) && order.indexOf(step) < order.indexOf(current) && current !== 'shutdown') return;
  throw new AppError('Onboarding.StepUnavailable');
}

export type ProfileStepInput = { jobTitle: unknown; companyName: unknown; location: unknown };

export async function saveProfileStep(request: FastifyRequest, o: Onboarding, input: ProfileStepInput): Promise<Onboarding> {
  ensureSignedIn(o);
  ensureReachable(o, 'profile');
  const app = request.server;
  await updateProfile({ db: app.db, clock: app.clock, community: o.community }, o.user.id, { jobTitle: input.jobTitle, companyName: input.companyName, location: input.location });
  return finishStep(app, o, 'profile');
}

export async function profileDraft(request: FastifyRequest, o: Onboarding): Promise<{ jobTitle: string; companyName: string; location: string }> {
  const profile = await findProfile({ db: request.server.db, community: o.community }, o.user.id, { activeOnly: false });
  return { jobTitle: profile?.jobTitle ?? '', companyName: profile?.companyName ?? '', location: profile?.location ?? '' };
}

export async function saveContactStep(request: FastifyRequest, o: Onboarding, input: { countryCode: unknown; number: unknown }): Promise<Onboarding> {
  ensureSignedIn(o);
  ensureReachable(o, 'contact');
  await changeMobilePhone(request, input);
  return finishStep(request.server, o, 'contact');
}

export const contactDraft = (request: FastifyRequest) => currentPhone(request);

export type TeamStepInput = { type: unknown; name: unknown; email: unknown; countryCode: unknown; number: unknown };

export async function saveTeamStep(request: FastifyRequest, o: Onboarding, input: TeamStepInput): Promise<Onboarding> {
  ensureSignedIn(o);
  ensureReachable(o, 'team');
  const type: TeamType = input.type === 'pr' ? 'pr' : 'ea';
  if (input.type !== undefined && input.type !== 'ea' && input.type !== 'pr') throw new AppError(900, { fields: { type: { code: 900, key: 'errors.client.missingInput' } } });
  const app = request.server;
  await saveContact({ db: app.db, clock: app.clock, community: o.community }, o.user.id, type, {
    name: input.name,
    email: input.email,
    mobilePhone: { countryCode: input.countryCode, number: input.number },
  });
  return finishStep(app, o, 'team');
}

export async function teamDraft(request: FastifyRequest, o: Onboarding) {
  const team = await findTeam({ db: request.server.db, community: o.community }, o.user.id);
  const c = team.ea ?? team.pr;
  return { type: (c?.type ?? 'ea') as TeamType, name: c?.name ?? '', email: c?.email ?? '', countryCode: c?.mobilePhone?.countryCode ?? 'US', number: c?.mobilePhone?.number ?? '' };
}

/** The address: street, city, postal code and country required; region optional. */
export function checkAddress(input: Partial<Record<string, unknown>>): { values: AddressDraft | null; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const values = {} as AddressDraft;
  for (const field of ADDRESS_FIELDS) {
    const raw = input[field];
    if (raw !== undefined && raw !== null && typeof raw !== 'string') {
      errors[field] = { code: 900, key: 'errors.client.missingInput' };
      continue;
    }
    const v = (raw ?? '').trim();
    if (hasForbiddenCharacters(v)) errors[field] = { code: INVALID_CHARACTERS_CODE, key: INVALID_CHARACTERS_KEY };
    else if (v === '' && field !== 'region') errors[field] = { code: 900, key: `onboarding.address.required.${field}` };
    else if (v.length > ADDRESS_LIMITS[field]) errors[field] = { code: 'BadRequest.Validation', key: 'onboarding.address.tooLong', values: { max: ADDRESS_LIMITS[field] } };
    else values[field] = v;
  }
  return Object.keys(errors).length ? { values: null, errors } : { values, errors };
}

export async function saveAddressStep(request: FastifyRequest, o: Onboarding, input: Partial<Record<string, unknown>>): Promise<Onboarding> {
  ensureSignedIn(o);
  if (!o.site.showAddressStep) throw new AppError('Onboarding.StepUnavailable');
  ensureReachable(o, 'address');
  const { values, errors } = checkAddress(input);
  if (!values) {
    const all = Object.values(errors);
    throw new AppError(all.every((e) => e.code === INVALID_CHARACTERS_CODE) ? INVALID_CHARACTERS_CODE : 'BadRequest.Validation', { fields: errors });
  }
  return finishStep(request.server, o, 'address', { address: values });
}

export function addressDraft(o: Onboarding): AddressDraft {
  const a = o.row.address ?? {};
  return { street: a.street ?? '', city: a.city ?? '', region: a.region ?? '', postalCode: a.postalCode ?? '', country: a.country ?? '' };
}

/**
 * ep-landing (decision 0036): the member joins the panels they picked (none is fine: the step is
 * done), through the expert panels' own service (memberships, and the open questions of batches
 * already sent), then the step is stamped.
 */
export async function saveExpertPanelsStep(request: FastifyRequest, o: Onboarding, input: { panelIds: unknown }): Promise<Onboarding> {
  ensureSignedIn(o);
  ensureReachable(o, 'ep-landing');
  const app = request.server;
  await joinPanels({ db: app.db, clock: app.clock, community: o.community, jobs: app.jobs }, o.user.id, input.panelIds);
  return finishStep(app, o, 'ep-landing');
}

export function expertPanelsDraft(request: FastifyRequest, o: Onboarding): Promise<JoinablePanel[]> {
  return listJoinablePanels({ db: request.server.db, community: o.community }, o.user.id);
}

/** ep-question: the member's first open question (soonest deadline), or null (the step is skipped). */
export function expertQuestionDraft(request: FastifyRequest, o: Onboarding): Promise<MemberQuestionView | null> {
  return firstOpenQuestion({ ...epDeps(request), community: o.community }, o.user.id);
}

/**
 * ep-question: the member answers a question sent to them with the expert panels' own submitAnswer
 * (the same limits, word range and messages as /expert-panels/{id}); the body is HTML, sanitised
 * there. Then the step is stamped: the onboarding shows one question, the rest wait on /expert-panels.
 */
export async function answerExpertQuestionStep(request: FastifyRequest, o: Onboarding, input: { questionId: unknown; body: unknown }): Promise<Onboarding> {
  ensureSignedIn(o);
  ensureReachable(o, 'ep-question');
  await submitAnswer({ ...epDeps(request), community: o.community }, { userId: o.user.id, isStaff: false }, input.questionId, { body: input.body });
  return finishStep(request.server, o, 'ep-question');
}

/** "Skip for now": the step counts as done (leaving and coming back does not ask again). */
export async function skipStep(request: FastifyRequest, o: Onboarding, step: StepName): Promise<Onboarding> {
  ensureSignedIn(o);
  if (!SKIPPABLE.includes(step) || !stepApplies(o, step)) throw new AppError('Onboarding.StepUnavailable');
  ensureReachable(o, step);
  return finishStep(request.server, o, step as keyof typeof STEP_COLUMN);
}

/** Completes an onboarding whose steps are all done (e.g. the address step was switched off meanwhile). */
export const completeIfDone = (request: FastifyRequest, o: Onboarding) => advance(request.server, o);
