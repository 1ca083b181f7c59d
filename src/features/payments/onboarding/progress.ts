import type { FastifyInstance } from 'fastify';
import { AppError } from '#src/core/errors.ts';
import { randomToken } from '#src/core/ids.ts';
import type { Identity } from '#src/core/identity.ts';
import type { Db } from '#src/db/index.ts';
import { insertInCommunity, selectInCommunity, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { Community, OnboardingStep } from '#src/db/types.ts';
import { onboardingPanelState } from '#src/features/expert-panels/index.ts';
import { loadPaymentSite, type PaymentSite } from '../queries.ts';
import type { InvitationLink, MembershipOffer, OnboardingData, StepName } from './types.ts';

type App = Pick<FastifyInstance, 'db' | 'clock' | 'cardProcessor'>;

/**
 * Who is onboarding, and how far they are (issue 13, "Onboarding"). Two ways in:
 *
 * - a signed-in member whose gate is 'onboarding' (the guardian sends them to /get-started);
 * - a visitor holding an invitation link `/get-started?uid=<onboardings.id>&dealId=<plan deal_id>`:
 *   the invitee has no password yet (the password step makes it, and signs them in). The uid is
 *   unguessable (random, 144 bits); once the invitee has credentials the link only answers the
 *   onboarding data and the payment and password steps (both done by then): the rest needs sign-in.
 *
 * A link whose uid or deal is unknown here (another community's included) is the invalid-membership
 * answer, HTTP 400 (spec section 8).
 */

export type Plan = {
  id: number;
  name: string;
  description: string;
  termMonths: number;
  duesCents: number;
  initiationFeeCents: number;
  savingsCents: number;
  currency: string;
  dealId: string;
  productId: string;
  pricePointId: string;
};

export type OnboardingRow = {
  id: string;
  userId: number;
  planId: number | null;
  paidAt: Date | null;
  credentialsAt: Date | null;
  profileAt: Date | null;
  contactAt: Date | null;
  teamAt: Date | null;
  expertPanelAt: Date | null;
  expertQuestionAt: Date | null;
  addressAt: Date | null;
  completedAt: Date | null;
  address: Record<string, string> | null;
};

/**
 * Where the expert-panel steps stand (decision 0036): how many active panels the community has
 * (ep-landing shows when there is one), and the member's first open question (ep-question shows
 * when there is one).
 */
export type PanelState = { activePanels: number; firstOpenQuestion: number | null };

/** Everything a step needs: the row, the member, the plan, the community's payment settings. */
export type Onboarding = {
  community: Community;
  site: PaymentSite;
  row: OnboardingRow;
  plan: Plan;
  user: { id: number; email: string; firstName: string; lastName: string; username: string; hasPassword: boolean };
  /** The link that let a visitor in, or null for a signed-in member. */
  link: InvitationLink | null;
  /** Whether the request is signed in as this member. */
  signedIn: boolean;
  panels: PanelState;
};

export const invalidMembership = () => new AppError('Payments.InvalidMembership');

const UID = /^[A-Za-z0-9_-]{16,100}$/;
const DEAL = /^[\x21-\x7e]{1,100}$/;

const toPlan = (r: {
  id: number;
  name: string;
  description: string;
  term_months: number;
  dues_cents: number;
  initiation_fee_cents: number;
  savings_cents: number;
  currency: string;
  deal_id: string;
  product_id: string;
  price_point_id: string;
}): Plan => ({
  id: r.id,
  name: r.name,
  description: r.description,
  termMonths: r.term_months,
  duesCents: r.dues_cents,
  initiationFeeCents: r.initiation_fee_cents,
  savingsCents: r.savings_cents,
  currency: r.currency,
  dealId: r.deal_id,
  productId: r.product_id,
  pricePointId: r.price_point_id,
});

const planColumns = ['id', 'name', 'description', 'term_months', 'dues_cents', 'initiation_fee_cents', 'savings_cents', 'currency', 'deal_id', 'product_id', 'price_point_id'] as const;

/**
 * An active plan of the community by one of its names (id, deal id or price point id); a retired one
 * too with `includeInactive` (the plan an invitee already paid for stays theirs).
 */
export async function findPlan(db: Db, community: Tenant, by: { id?: number | null; dealId?: string | null; pricePointId?: string | null; includeInactive?: boolean }): Promise<Plan | null> {
  let q = selectInCommunity(db, 'membership_plans', community).select(planColumns);
  if (!by.includeInactive) q = q.where('active', '=', true);
  if (by.id != null) q = q.where('id', '=', by.id);
  else if (by.dealId) q = q.where('deal_id', '=', by.dealId);
  else if (by.pricePointId) q = q.where('price_point_id', '=', by.pricePointId);
  else return null;
  const row = await q.executeTakeFirst();
  return row ? toPlan(row) : null;
}

/** The community's default offer: its shortest active commitment (12 months), the oldest first. */
async function defaultPlan(db: Db, community: Tenant): Promise<Plan | null> {
  const row = await selectInCommunity(db, 'membership_plans', community).select(planColumns).where('active', '=', true).orderBy('term_months').orderBy('id').executeTakeFirst();
  return row ? toPlan(row) : null;
}

const rowColumns = [
  'id',
  'user_id',
  'plan_id',
  'paid_at',
  'credentials_at',
  'profile_at',
  'contact_at',
  'team_at',
  'expert_panel_at',
  'expert_question_at',
  'address_at',
  'completed_at',
  'address',
] as const;

type RawRow = {
  id: string;
  user_id: number;
  plan_id: number | null;
  paid_at: Date | null;
  credentials_at: Date | null;
  profile_at: Date | null;
  contact_at: Date | null;
  team_at: Date | null;
  expert_panel_at: Date | null;
  expert_question_at: Date | null;
  address_at: Date | null;
  completed_at: Date | null;
  address: Record<string, string> | null;
};

const toRow = (r: RawRow): OnboardingRow => ({
  id: r.id,
  userId: r.user_id,
  planId: r.plan_id,
  paidAt: r.paid_at,
  credentialsAt: r.credentials_at,
  profileAt: r.profile_at,
  contactAt: r.contact_at,
  teamAt: r.team_at,
  expertPanelAt: r.expert_panel_at,
  expertQuestionAt: r.expert_question_at,
  addressAt: r.address_at,
  completedAt: r.completed_at,
  address: r.address,
});

/** A new invitation for a member of the community: its uid (the link's) is unguessable. */
export async function createOnboarding(db: Db, community: Tenant, userId: number, planId: number | null): Promise<string> {
  const id = `onb_${randomToken(18)}`;
  const row = await insertInCommunity(db, 'onboardings', community, { id, user_id: userId, plan_id: planId })
    .onConflict((oc) => oc.columns(['community_id', 'user_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (row) return row.id;
  const existing = await selectInCommunity(db, 'onboardings', community).select('id').where('user_id', '=', userId).executeTakeFirstOrThrow();
  return existing.id;
}

/** The query (or form) parameters that name an onboarding: the link's, when given. */
export type Who = { identity: Identity; uid?: unknown; dealId?: unknown };

/**
 * The onboarding the request is about, or: the invalid-membership error for a bad link;
 * NotAuthenticated with neither a session nor a link; Payments.NotConfigured for a community that
 * takes no payments. A member not in onboarding who has no onboarding gets the invalid-membership
 * answer too (there is nothing to onboard).
 */
export async function loadOnboarding(app: App, community: Community, who: Who): Promise<Onboarding> {
  const db = app.db;
  const site = await loadPaymentSite(db, community);
  if (!site) throw new AppError('Payments.NotConfigured');
  const identity = who.identity;
  const signedInUser = identity.loggedIn ? identity.user : null;
  const hasLink = who.uid !== undefined && who.uid !== '';

  let raw: RawRow | undefined;
  let link: InvitationLink | null = null;
  let chosenPlan: Plan | null = null;
  if (hasLink) {
    const uid = who.uid;
    const dealId = who.dealId;
    if (typeof uid !== 'string' || !UID.test(uid) || typeof dealId !== 'string' || !DEAL.test(dealId)) throw invalidMembership();
    raw = await selectInCommunity(db, 'onboardings', community).select(rowColumns).where('id', '=', uid).executeTakeFirst();
    // A retired plan's link still works for an invitee who already paid (they are not locked out).
    chosenPlan = await findPlan(db, community, { dealId, includeInactive: raw?.paid_at != null });
    if (!raw || !chosenPlan) throw invalidMembership();
    // Someone else's link in a signed-in browser is not theirs to use.
    if (signedInUser && signedInUser.id !== raw.user_id) throw invalidMembership();
    link = { uid, dealId };
  } else {
    if (!signedInUser) throw new AppError('NotAuthenticated');
    raw = await selectInCommunity(db, 'onboardings', community).select(rowColumns).where('user_id', '=', signedInUser.id).executeTakeFirst();
    if (!raw) {
      if (signedInUser.gate !== 'onboarding') throw invalidMembership();
      // A member sent to onboarding without an invitation row: one is made, with the default offer.
      const plan = typeof who.dealId === 'string' && DEAL.test(who.dealId) ? await findPlan(db, community, { dealId: who.dealId }) : null;
      const id = await createOnboarding(db, community, signedInUser.id, (plan ?? (await defaultPlan(db, community)))?.id ?? null);
      raw = await selectInCommunity(db, 'onboardings', community).select(rowColumns).where('id', '=', id).executeTakeFirstOrThrow();
    }
  }
  const row = toRow(raw);
  const user = await db
    .selectFrom('users')
    .innerJoin('memberships', (j) => j.onRef('memberships.user_id', '=', 'users.id').on('memberships.community_id', '=', community.id))
    .select(['users.id', 'users.email', 'users.first_name', 'users.last_name', 'users.username', 'users.password_hash'])
    .where('users.id', '=', row.userId)
    .where('users.is_active', '=', true)
    .where('memberships.is_active', '=', true)
    .executeTakeFirst();
  if (!user) throw invalidMembership();

  // The plan: once paid, the one paid for (retired since or not); before, the link's deal, else the invitation's, else the default.
  let plan: Plan | null = null;
  if (row.paidAt && row.planId !== null) plan = await findPlan(db, community, { id: row.planId, includeInactive: true });
  plan ??= chosenPlan ?? (row.planId !== null ? await findPlan(db, community, { id: row.planId }) : null) ?? (await defaultPlan(db, community));
  if (!plan) throw invalidMembership();
  const panels = await onboardingPanelState(db, community, row.userId, app.clock.now());

  return {
    community,
    site,
    row,
    plan,
    user: { id: user.id, email: user.email, firstName: user.first_name, lastName: user.last_name, username: user.username, hasPassword: user.password_hash !== null },
    link,
    signedIn: signedInUser?.id === row.userId,
    panels,
  };
}

/** ep-landing shows when the community has at least one active (not archived) expert panel. */
export const hasExpertPanels = (o: Onboarding): boolean => o.panels.activePanels > 0;

/** ep-question shows when the member has an open question (invited, not answered, open, deadline ahead). */
export const hasOpenQuestion = (o: Onboarding): boolean => o.panels.firstOpenQuestion !== null;

/** Whether a step is part of this member's flow now (the conditional ones: the expert panels', the address). */
export function stepApplies(o: Onboarding, step: StepName): boolean {
  if (step === 'ep-landing') return hasExpertPanels(o);
  if (step === 'ep-question') return hasOpenQuestion(o);
  if (step === 'address') return o.site.showAddressStep;
  return true;
}

export const hasPaid = (o: Onboarding) => o.row.paidAt !== null;
export const hasCredentials = (o: Onboarding) => o.row.credentialsAt !== null || o.user.hasPassword;

/**
 * An invitation link used after the invitee has credentials, by a request not signed in as them: it
 * no longer says who the member is (the REST answer is invalid-membership, the page sends to sign-in).
 */
export const linkSpent = (o: Onboarding) => o.link !== null && !o.signedIn && hasCredentials(o);

/** The first unfinished step: where leaving and coming back resumes. */
export function currentStep(o: Onboarding): StepName {
  if (o.row.completedAt) return 'complete';
  if (o.site.onboardingDisabled) return 'shutdown';
  if (!hasPaid(o)) return 'payment';
  if (!hasCredentials(o)) return 'password';
  if (!o.row.profileAt) return 'profile';
  if (!o.row.contactAt) return 'contact';
  if (!o.row.teamAt) return 'team';
  if (hasExpertPanels(o) && !o.row.expertPanelAt) return 'ep-landing';
  // After ep-landing (done, skipped, or not shown: no active panel), the question waiting, if any.
  if (hasOpenQuestion(o) && !o.row.expertQuestionAt) return 'ep-question';
  if (o.site.showAddressStep && !o.row.addressAt) return 'address';
  return 'complete';
}

/** The membership offer, amounts in cents. Dues are yearly, so it renews a year after it is paid. */
export function offerOf(app: App, o: Onboarding): MembershipOffer {
  const settings = app.cardProcessor.browserSettings(o.site);
  const from = o.row.paidAt ?? app.clock.now();
  return {
    publicKey: settings.publicKey,
    serverHost: settings.serverHost,
    dues: o.plan.duesCents,
    initiationFee: o.plan.initiationFeeCents,
    savings: o.plan.savingsCents,
    amountDue: o.plan.duesCents + o.plan.initiationFeeCents,
    renewsAt: renewalAfter(from).toISOString(),
    name: o.plan.name,
    description: o.plan.description,
    currency: o.plan.currency,
    termMonths: o.plan.termMonths,
    planId: o.plan.id,
    dealId: o.plan.dealId,
    productId: o.plan.productId,
    pricePointId: o.plan.pricePointId,
  };
}

/** The next yearly dues: one year on (29 February renews on 1 March). */
export function renewalAfter(from: Date): Date {
  const d = new Date(from.getTime());
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d;
}

/** Spec section 3 "Onboarding data". */
export function onboardingData(app: App, o: Onboarding): OnboardingData {
  return {
    hasPaid: hasPaid(o),
    hasCredentials: hasCredentials(o),
    onboardingComplete: o.row.completedAt !== null,
    greetingName: o.user.firstName || o.user.lastName,
    email: o.user.email,
    showAddressStep: o.site.showAddressStep,
    showExpertPanelStep: hasExpertPanels(o),
    showExpertQuestionStep: hasOpenQuestion(o),
    disabled: o.site.onboardingDisabled,
    userId: o.user.id,
    clientToken: null,
    payment: offerOf(app, o),
    currentStep: currentStep(o),
  };
}

/** The columns a step stamps when it is done (or skipped). */
export const STEP_COLUMN = {
  profile: 'profile_at',
  contact: 'contact_at',
  team: 'team_at',
  'ep-landing': 'expert_panel_at',
  'ep-question': 'expert_question_at',
  address: 'address_at',
} as const;

/**
 * Stamps a step done (once: a step already done keeps its first time), then moves current_step on;
 * reaching 'complete' completes the onboarding. Returns the onboarding as it is now.
 */
export async function finishStep(app: App, o: Onboarding, step: keyof typeof STEP_COLUMN, extra: { address?: Record<string, string> } = {}): Promise<Onboarding> {
  const now = app.clock.now();
  const column = STEP_COLUMN[step];
  const set: Record<string, unknown> = { updated_at: now };
  if (extra.address) set.address = JSON.stringify(extra.address);
  await updateInCommunity(app.db, 'onboardings', o.community).set(set).where('id', '=', o.row.id).execute();
  await updateInCommunity(app.db, 'onboardings', o.community).set({ [column]: now }).where('id', '=', o.row.id).where(column, 'is', null).execute();
  return advance(app, await reload(app, o));
}

/** The onboarding re-read (same who). */
export async function reload(app: App, o: Onboarding): Promise<Onboarding> {
  const raw = await selectInCommunity(app.db, 'onboardings', o.community).select(rowColumns).where('id', '=', o.row.id).executeTakeFirstOrThrow();
  const user = await app.db.selectFrom('users').select(['password_hash', 'username']).where('id', '=', o.user.id).executeTakeFirstOrThrow();
  const row = toRow(raw);
  const plan = row.paidAt && row.planId !== null ? ((await findPlan(app.db, o.community, { id: row.planId, includeInactive: true })) ?? o.plan) : o.plan;
  const panels = await onboardingPanelState(app.db, o.community, o.user.id, app.clock.now());
  return { ...o, row, plan, panels, user: { ...o.user, username: user.username, hasPassword: user.password_hash !== null } };
}

/**
 * Saves current_step, and when every step is done completes the onboarding: completed_at, and the
 * membership's gate becomes 'app' in the same transaction. The session needs no new cookie: the
 * identity reads the gate from the membership on every request (src/features/auth/sessions.ts,
 * deriveIdentity), and a refreshed cookie is signed with it.
 */
export async function advance(app: App, o: Onboarding): Promise<Onboarding> {
  const step = currentStep(o);
  if (step === 'complete' && !o.row.completedAt) {
    const now = app.clock.now();
    await app.db.transaction().execute(async (trx) => {
      await updateInCommunity(trx, 'onboardings', o.community).set({ completed_at: now, current_step: 'complete', updated_at: now }).where('id', '=', o.row.id).where('completed_at', 'is', null).execute();
      await updateInCommunity(trx, 'memberships', o.community).set({ gate: 'app' }).where('user_id', '=', o.user.id).execute();
    });
    return reload(app, o);
  }
  if (step !== 'shutdown') {
    await updateInCommunity(app.db, 'onboardings', o.community)
      .set({ current_step: step as OnboardingStep })
      .where('id', '=', o.row.id)
      .where('current_step', '!=', step as OnboardingStep)
      .execute();
  }
  return o;
}
