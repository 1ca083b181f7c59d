import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { AppError, isAppError } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import { countWords } from '#src/lib/plain-text.ts';
import { htmlToText, textToHtml } from '#src/lib/rich-text.ts';
import { setSessionCookies } from '#src/features/auth/index.ts';
import { countryOptions } from '#src/features/settings/index.ts';
import { z } from 'zod';
import { formOf, paramsOf, str } from '#src/lib/form.ts';
import {
  AddressStep,
  CompleteStep,
  ContactStep,
  ExpertPanelsStep,
  ExpertQuestionStep,
  InvalidMembership,
  linkQuery,
  PasswordStep,
  PaymentStep,
  ProfileStep,
  ShutdownStep,
  TeamStep,
  type TeamValues,
} from '#src/features/payments/views/onboarding/Steps.tsx';
import { CardForm } from '#src/features/payments/views/payments/CardForm.tsx';
import { cardFormLogos } from '../cards.ts';
import { cardErrorMessage, hostedPageAddress, readHostedReturn, type CheckoutState } from '../checkout.ts';
import { declineError } from '../ledger.ts';
import { createCredentials } from './credentials.ts';
import {
  addressDraft,
  answerExpertQuestionStep,
  completeIfDone,
  contactDraft,
  expertPanelsDraft,
  expertQuestionDraft,
  profileDraft,
  saveAddressStep,
  saveContactStep,
  saveExpertPanelsStep,
  saveProfileStep,
  saveTeamStep,
  skipStep,
  teamDraft,
} from './details.ts';
import { checkPaymentForm, paymentKey, submitPayment } from './payment.ts';
import { currentStep, hasPaid, linkSpent, loadOnboarding, stepApplies, type Onboarding, type Plan } from './progress.ts';
import { SKIPPABLE, STEP_ORDER, type StepName } from './types.ts';
import { stepView } from './view.ts';
import { logOnboardingFailure } from './rest.ts';

/**
 * /get-started and its steps (spec section 2; issue 13 "Onboarding"): one page per step,
 * /get-started/<step>, plain forms that work without JavaScript (POST, then 303 to the next step, or
 * the step again with the messages next to the fields and what was typed). Every route is open to
 * visitors (the invitation link) and to members whose gate is onboarding (allowDuringOnboarding).
 */

const STEPS: readonly StepName[] = [...STEP_ORDER, 'shutdown'];
const isStep = (v: unknown): v is StepName => typeof v === 'string' && (STEPS as readonly string[]).includes(v);

/**
 * The steps' forms at the edge: shapes only (a text, or absent: the services tell an absent field from
 * an empty one and name the field they refuse); a misfit shape (a list for a text) is 400.
 */
const text = z.string().max(1_048_576).optional();
const PaymentForm = z.object({ planId: text, acceptedTerms: text, token: text });
const PasswordForm = z.object({ username: text, password: text, confirm: text });
const PanelsForm = z.object({ panelIds: z.union([z.string().max(20), z.array(z.string().max(20)).max(200)]).optional() });
const QuestionForm = z.object({ questionId: text, body: text });
/** A details step (profile, contact, team, address): its fields, each a text; the step's service reads its own. */
const DetailsForm = z.record(z.string().max(100), z.string().max(1_048_576));
type Body = Partial<Record<string, string>>;
const StepParams = z.object({ step: z.string().max(100) });

export default async function onboardingRoutes(app: FastifyInstance) {
  const t = app.t;
  const open = { config: { access: 'public' as const, allowDuringOnboarding: true } };
  const posting = { config: { ...open.config, rateLimit: { max: 30, timeWindow: '1 minute' } } };

  const params = (request: FastifyRequest): Record<string, unknown> => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const body = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
    return { ...query, ...body };
  };
  const load = (request: FastifyRequest, p = params(request)) => loadOnboarding(app, request.community, { identity: request.identity, uid: p.uid, dealId: p.dealId });

  const stepPath = (o: Onboarding, step = currentStep(o)) => `/get-started/${step}${o.signedIn ? '' : linkQuery({ link: o.link })}`;

  /**
   * Load errors as pages: no session and no link → sign in; a bad link → the invalid-membership page
   * (400). A link whose invitee already has credentials, without their session → sign in too (the
   * link no longer shows who the member is).
   */
  async function loaded(request: FastifyRequest, reply: FastifyReply): Promise<Onboarding | null> {
    try {
      const o = await load(request);
      if (linkSpent(o)) {
        reply.redirectTo(`/login?redirect=${encodeURIComponent(`${app.config.basePath}/get-started`)}`, 303);
        return null;
      }
      return o;
    } catch (e) {
      if (!isAppError(e)) throw e;
      if (e.code === 'NotAuthenticated') {
        reply.redirectTo(`/login?redirect=${encodeURIComponent(`${app.config.basePath}/get-started`)}`);
        return null;
      }
      if (e.code === 'Payments.InvalidMembership') {
        // A member already in the app, with no onboarding of their own: nothing to do here.
        const p = params(request);
        if ((p.uid === undefined || p.uid === '') && request.identity.loggedIn && request.identity.user.gate === 'app') {
          reply.redirectTo('/');
          return null;
        }
        reply.page({ title: t('onboarding.invalid.heading'), body: <InvalidMembership concierge={{ email: request.community.concierge_email, phone: request.community.concierge_phone }} />, status: 400 });
        return null;
      }
      throw e;
    }
  }

  const messages = (e: AppError): Record<string, string> => Object.fromEntries(Object.entries(e.fields ?? {}).map(([f, v]) => [f, t(v.key, v.values)]));
  const page = (reply: FastifyReply, o: Onboarding, step: StepName, body: ReactNode, status = 200) => reply.page({ title: t(`onboarding.titles.${step}`), body, status });

  /** Steps after the password need the member signed in; a link holder whose credentials exist signs in first. */
  const needsSignIn = (o: Onboarding, step: StepName) => !o.signedIn && !['payment', 'password', 'shutdown'].includes(step);

  app.get('/get-started', open, async (request, reply) => {
    const o = await loaded(request, reply);
    if (!o) return reply;
    return reply.redirectTo(stepPath(o), 303);
  });

  app.get('/get-started/:step', open, async (request, reply) => {
    const { step } = paramsOf(StepParams, request);
    if (!isStep(step)) throw new AppError('NotFound');
    let o = await loaded(request, reply);
    if (!o) return reply;
    o = await completeIfDone(request, o);
    const current = currentStep(o);
    if (needsSignIn(o, current)) return reply.redirectTo(`/login?redirect=${encodeURIComponent(`${app.config.basePath}/get-started`)}`);
    // Only the current step, or an optional one already passed (to change it); else where the member is.
    const order = STEPS.indexOf.bind(STEPS);
    const revisit = SKIPPABLE.includes(step) && stepApplies(o, step) && order(step) < order(current) && current !== 'shutdown' && current !== 'complete';
    if (step !== current && !revisit) return reply.redirectTo(stepPath(o), 303);
    return renderStep(request, reply, o, step, {});
  });

  type Shown = {
    errors?: Record<string, string | undefined>;
    values?: Record<string, string>;
    termsAccepted?: boolean;
    cardError?: string | null;
    status?: number;
    /** ep-landing: the panels ticked as sent. */
    picked?: number[];
    /** ep-question: the answer as typed, and the words counted. */
    answer?: { value: string; words: number };
  };

  async function renderStep(request: FastifyRequest, reply: FastifyReply, o: Onboarding, step: StepName, shown: Shown) {
    const view = stepView(app, o, step);
    const errors = shown.errors ?? {};
    const status = shown.status ?? 200;
    const v = shown.values;
    switch (step) {
      case 'payment': {
        const key = await paymentKey(app, o);
        return page(
          reply,
          o,
          step,
          <PaymentStep
            view={view}
            termsAccepted={shown.termsAccepted ?? false}
            errors={errors}
            cardError={shown.cardError ?? null}
            renderCardForm={(children) => (
              <CardForm
                action={`${app.config.basePath}/get-started/payment`}
                idempotencyKey={key}
                processor={app.cardProcessor.browserSettings(o.site)}
                logos={cardFormLogos(o.site.acceptedCards)}
                submitLabel={t('onboarding.payment.submit', { amount: view.fees.amountDue })}
                hidden={{ ...(view.link ?? {}), planId: String(view.data.payment.planId) }}
                cardError={shown.cardError ?? null}
                log={{ userId: o.user.id, email: o.user.email, value: String(view.data.payment.amountDue) }}
              >
                {children}
              </CardForm>
            )}
          />,
          status,
        );
      }
      case 'password':
        return page(reply, o, step, <PasswordStep view={view} username={v?.username ?? ''} errors={errors} />, status);
      case 'profile':
        return page(reply, o, step, <ProfileStep view={view} values={(v as never) ?? (await profileDraft(request, o))} errors={errors} />, status);
      case 'contact':
        return page(reply, o, step, <ContactStep view={view} values={(v as never) ?? (await contactDraft(request))} countries={countryOptions()} errors={errors} />, status);
      case 'team':
        return page(reply, o, step, <TeamStep view={view} values={(v as TeamValues | undefined) ?? (await teamDraft(request, o))} countries={countryOptions()} errors={errors} />, status);
      case 'ep-landing': {
        const panels = await expertPanelsDraft(request, o);
        return page(reply, o, step, <ExpertPanelsStep view={view} panels={panels} picked={shown.picked ?? []} errors={errors} />, status);
      }
      case 'ep-question': {
        const question = await expertQuestionDraft(request, o);
        // Answered or closed meanwhile: nothing left to show here, on to the next step.
        if (!question) return reply.redirectTo(stepPath(await completeIfDone(request, o)), 303);
        const answer = shown.answer ?? { value: question.answer.bodyHtml ? htmlToText(question.answer.bodyHtml) : '', words: question.answer.wordCount };
        return page(reply, o, step, <ExpertQuestionStep view={view} question={question} answer={answer} errors={errors} />, status);
      }
      case 'address':
        return page(reply, o, step, <AddressStep view={view} values={(v as never) ?? addressDraft(o)} errors={errors} />, status);
      case 'shutdown':
        return page(reply, o, step, <ShutdownStep view={view} />, status);
      case 'complete':
        return page(reply, o, step, <CompleteStep view={view} />, status);
      default:
        throw new AppError('NotFound');
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Payment: the page's form (with a token from the card form's island, or without one: the hosted page)

  async function paymentOutcome(request: FastifyRequest, reply: FastifyReply, o: Onboarding, input: { token: string; planId: unknown; acceptedTerms: boolean }) {
    const actorId = request.identity.loggedIn ? request.identity.user.id : null;
    const outcome = await submitPayment(app, o, { token: input.token, planId: input.planId, acceptedTerms: input.acceptedTerms, actorId });
    if (outcome.status === 'paid') return reply.redirectTo(stepPath(outcome.onboarding), 303);
    // A refused card: the step again, the card error inline, the terms tick kept (400).
    await logOnboardingFailure(request, o, 'payment', declineError(outcome.result.code));
    return renderStep(request, reply, o, 'payment', { termsAccepted: input.acceptedTerms, cardError: cardErrorMessage(t, outcome.result.code, 'member'), status: 400 });
  }

  app.post('/get-started/payment', posting, async (request, reply) => {
    const body = formOf(PaymentForm, request);
    const o = await loaded(request, reply);
    if (!o) return reply;
    if (hasPaid(o) || o.site.onboardingDisabled) return reply.redirectTo(stepPath(o), 303);
    const acceptedTerms = body.acceptedTerms === 'on' || body.acceptedTerms === 'true';
    try {
      const plan = await checkPaymentForm(app, o, { planId: body.planId, acceptedTerms });
      const token = str(body.token);
      if (token === '') return await startHostedPayment(request, reply, o, plan, acceptedTerms);
      return await paymentOutcome(request, reply, o, { token, planId: plan.id, acceptedTerms });
    } catch (e) {
      if (!isAppError(e) || !e.fields) throw e;
      await logOnboardingFailure(request, o, 'payment', e);
      return renderStep(request, reply, o, 'payment', { errors: messages(e), termsAccepted: acceptedTerms, status: e.status });
    }
  });

  /**
   * Without JavaScript (or for a card that needs the 3-D-Secure-style step): the card is taken on the
   * provider's hosted page, which comes back to /get-started/payment/return with a token and our
   * sealed state (the onboarding, the plan, the accepted terms).
   */
  async function startHostedPayment(request: FastifyRequest, reply: FastifyReply, o: Onboarding, plan: Plan, acceptedTerms: boolean) {
    const state: CheckoutState = {
      communityId: o.community.id,
      purpose: 'onboarding',
      idempotencyKey: await paymentKey(app, o),
      returnPath: '/get-started/payment/return',
      data: { uid: o.row.id, dealId: o.link?.dealId ?? plan.dealId, planId: String(plan.id), acceptedTerms: acceptedTerms ? '1' : '0' },
    };
    return reply.redirect(hostedPageAddress(app, request, o.site, state), 303);
  }

  app.get('/get-started/payment/return', open, async (request, reply) => {
    const back = readHostedReturn(app, request);
    if (!back || back.state.purpose !== 'onboarding') throw new AppError('Payments.InvalidMembership');
    const data = back.state.data;
    let o: Onboarding;
    try {
      o = await loadOnboarding(app, request.community, { identity: request.identity, uid: data.uid, dealId: data.dealId });
    } catch (e) {
      if (isAppError(e) && e.code === 'Payments.InvalidMembership') {
        return reply.page({ title: t('onboarding.invalid.heading'), body: <InvalidMembership concierge={{ email: request.community.concierge_email, phone: request.community.concierge_phone }} />, status: 400 });
      }
      throw e;
    }
    if (hasPaid(o) || o.site.onboardingDisabled) return reply.redirectTo(stepPath(o), 303);
    try {
      return await paymentOutcome(request, reply, o, { token: back.token, planId: data.planId, acceptedTerms: data.acceptedTerms === '1' });
    } catch (e) {
      if (!isAppError(e) || !e.fields) throw e;
      return renderStep(request, reply, o, 'payment', { errors: messages(e), termsAccepted: data.acceptedTerms === '1', status: e.status });
    }
  });

  // ---------------------------------------------------------------------------------------------
  // Password

  app.post('/get-started/password', posting, async (request, reply) => {
    const body = formOf(PasswordForm, request);
    const o = await loaded(request, reply);
    if (!o) return reply;
    if (currentStep(o) !== 'password') return reply.redirectTo(stepPath(o), 303);
    try {
      const { onboarding, login } = await createCredentials(request, o, { username: str(body.username), password: str(body.password), confirm: body.confirm === undefined ? undefined : str(body.confirm) });
      setSessionCookies(reply, login, false);
      return reply.redirectTo(stepPath(onboarding), 303);
    } catch (e) {
      if (!isAppError(e) || !e.fields) throw e;
      await logOnboardingFailure(request, o, 'password', e);
      // The passwords are not sent back; the username is.
      return renderStep(request, reply, o, 'password', { errors: messages(e), values: { username: str(body.username).replace(/[\u0000-\u001f]/g, '').slice(0, 100) }, status: e.status });
    }
  });

  // ---------------------------------------------------------------------------------------------
  // Profile, contact, team, address, and "Skip for now"

  const shownText = (v: unknown, max = 300) => str(v).replace(/[\u0000-\u001f]/g, '').slice(0, max);

  const detailSteps: Array<{ step: 'profile' | 'contact' | 'team' | 'address'; save: (request: FastifyRequest, o: Onboarding, body: Body) => Promise<Onboarding>; values: (body: Body) => Record<string, string> }> = [
    {
      step: 'profile',
      save: (request, o, body) => saveProfileStep(request, o, { jobTitle: str(body.jobTitle), companyName: str(body.companyName), location: str(body.location) }),
      values: (body) => ({ jobTitle: shownText(body.jobTitle), companyName: shownText(body.companyName), location: shownText(body.location) }),
    },
    {
      step: 'contact',
      save: (request, o, body) => saveContactStep(request, o, { countryCode: body.countryCode, number: body.number }),
      values: (body) => ({ countryCode: shownText(body.countryCode, 2) || 'US', number: shownText(body.number, 40) }),
    },
    {
      step: 'team',
      save: (request, o, body) => saveTeamStep(request, o, { type: body.type, name: str(body.name), email: str(body.email), countryCode: body.countryCode, number: str(body.number) }),
      values: (body) => ({ type: body.type === 'pr' ? 'pr' : 'ea', name: shownText(body.name), email: shownText(body.email), countryCode: shownText(body.countryCode, 2) || 'US', number: shownText(body.number, 40) }),
    },
    {
      step: 'address',
      save: (request, o, body) => saveAddressStep(request, o, { street: body.street, city: body.city, region: body.region, postalCode: body.postalCode, country: body.country }),
      values: (body) => ({ street: shownText(body.street), city: shownText(body.city), region: shownText(body.region), postalCode: shownText(body.postalCode), country: shownText(body.country) }),
    },
  ];

  // ---------------------------------------------------------------------------------------------
  // Expert panels: ep-landing (join panels) and ep-question (answer the first open question)

  const signInFirst = (reply: FastifyReply) => reply.redirectTo(`/login?redirect=${encodeURIComponent(`${app.config.basePath}/get-started`)}`);
  /** The ticked ids as typed, for showing them again (well-formed ones only). */
  const pickedOf = (v: unknown): number[] => (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string' && /^[1-9]\d{0,9}$/.test(x)).slice(0, 50).map(Number);

  app.post('/get-started/ep-landing', posting, async (request, reply) => {
    const body = formOf(PanelsForm, request);
    const o = await loaded(request, reply);
    if (!o) return reply;
    if (!o.signedIn) return signInFirst(reply);
    try {
      return reply.redirectTo(stepPath(await saveExpertPanelsStep(request, o, { panelIds: body.panelIds })), 303);
    } catch (e) {
      if (!isAppError(e)) throw e;
      if (e.code === 'Onboarding.StepUnavailable') return reply.redirectTo(stepPath(o), 303);
      if (!e.fields) throw e;
      return renderStep(request, reply, o, 'ep-landing', { errors: messages(e), picked: pickedOf(body.panelIds), status: e.status });
    }
  });

  app.post('/get-started/ep-question', posting, async (request, reply) => {
    const body = formOf(QuestionForm, request);
    const o = await loaded(request, reply);
    if (!o) return reply;
    if (!o.signedIn) return signInFirst(reply);
    const typed = str(body.body);
    try {
      ensureText({ body: typed }, ['body']);
      return reply.redirectTo(stepPath(await answerExpertQuestionStep(request, o, { questionId: body.questionId, body: textToHtml(typed) })), 303);
    } catch (e) {
      if (!isAppError(e)) throw e;
      if (e.code === 'Onboarding.StepUnavailable') return reply.redirectTo(stepPath(o), 303);
      if (e.status >= 500 || e.code === 'NotAuthenticated') throw e;
      // A message about the text goes beside the field with the text as typed; any other (closed, picked up) on top.
      const errors = e.fields?.body ? messages(e) : { form: t(e.key, e.values) };
      const shown = typed.replace(/\u0000/g, '').slice(0, 100_000);
      // The text goes back into the form only under the question it was written for: closed or picked
      // up meanwhile, the step now shows the next question (with the message), never the text beneath it.
      const next = await expertQuestionDraft(request, o);
      const same = next !== null && String(next.id) === str(body.questionId);
      return renderStep(request, reply, o, 'ep-question', { errors, answer: same ? { value: shown, words: countWords(textToHtml(shown)) } : undefined, status: e.status });
    }
  });

  for (const step of ['ep-landing', 'ep-question'] as const) {
    app.post(`/get-started/${step}/skip`, posting, async (request, reply) => {
      const o = await loaded(request, reply);
      if (!o) return reply;
      if (!o.signedIn) return signInFirst(reply);
      try {
        return reply.redirectTo(stepPath(await skipStep(request, o, step)), 303);
      } catch (e) {
        if (isAppError(e) && e.code === 'Onboarding.StepUnavailable') return reply.redirectTo(stepPath(o), 303);
        throw e;
      }
    });
  }

  for (const d of detailSteps) {
    app.post(`/get-started/${d.step}`, posting, async (request, reply) => {
      const body = formOf(DetailsForm, request);
      const o = await loaded(request, reply);
      if (!o) return reply;
      if (!o.signedIn) return reply.redirectTo(`/login?redirect=${encodeURIComponent(`${app.config.basePath}/get-started`)}`);
      try {
        return reply.redirectTo(stepPath(await d.save(request, o, body)), 303);
      } catch (e) {
        if (!isAppError(e)) throw e;
        if (e.code === 'Onboarding.StepUnavailable') return reply.redirectTo(stepPath(o), 303);
        if (!e.fields) throw e;
        return renderStep(request, reply, o, d.step, { errors: messages(e), values: d.values(body), status: e.status });
      }
    });

    app.post(`/get-started/${d.step}/skip`, posting, async (request, reply) => {
      const o = await loaded(request, reply);
      if (!o) return reply;
      if (!o.signedIn) return reply.redirectTo(`/login?redirect=${encodeURIComponent(`${app.config.basePath}/get-started`)}`);
      try {
        return reply.redirectTo(stepPath(await skipStep(request, o, d.step)), 303);
      } catch (e) {
        if (isAppError(e) && e.code === 'Onboarding.StepUnavailable') return reply.redirectTo(stepPath(o), 303);
        throw e;
      }
    });
  }

}
