import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, isAppError, type FieldErrors } from '#src/core/errors.ts';
import { INVALID_CHARACTERS_CODE, INVALID_CHARACTERS_KEY, textField } from '#src/core/fields.ts';
import { loginResultView, setSessionCookies } from '#src/features/auth/index.ts';
import { declineError } from '../ledger.ts';
import { createCredentials } from './credentials.ts';
import { answerExpertQuestionStep, expertPanelsDraft, expertQuestionDraft, saveExpertPanelsStep, skipStep } from './details.ts';
import { submitPayment } from './payment.ts';
import { invalidMembership, linkSpent, loadOnboarding, onboardingData, type Onboarding } from './progress.ts';

/**
 * The onboarding calls of spec section 7 as JSON: GET /rest/get-started (the page's query string:
 * uid and dealId for an invitee; nothing for a signed-in member), POST /rest/get-started/payment and
 * POST /rest/get-started/password. They call the same services as the step pages. Cookie clients
 * send the CSRF token; bearer clients need none.
 *
 * Amounts in the answers are integer cents with `payment.currency` beside them (see types.ts).
 * Failures of the payment and password steps are tagged as payment errors (spec section 8): the
 * error carries `category: "Payment"`, and the server log records it with that category.
 */

const text = (max: number) => textField({ max });
const schemas = {
  query: z.object({ uid: text(100).optional(), dealId: text(100).optional() }).passthrough(),
  payment: z.object({
    uid: text(100).nullish(),
    dealId: text(100).nullish(),
    planId: z.union([text(12), z.number().int().positive().max(2_147_483_647)]).nullish(),
    email: text(254).nullish(),
    paymentToken: text(200),
    paymentNonce: text(200).nullish(),
    paymentEmail: text(254).nullish(),
    pricePointId: text(100).nullish(),
    productId: text(100).nullish(),
    acceptedTerms: z.boolean().optional(),
  }),
  password: z.object({ dealId: text(100).nullish(), uid: text(100).nullish(), username: text(200), password: text(1024) }),
  // The panel ids are checked by the expert panels' join service (one id or a list; 400 on panelIds).
  epLanding: z.object({ panelIds: z.unknown().optional() }),
  // The answer is HTML, sanitised and held to the panel's word range by submitAnswer (as GraphQL's answerExpertQuestion).
  epQuestion: z.object({ questionId: z.union([text(12), z.number().int().positive().max(2_147_483_647)]), body: z.string() }),
};

/** A payload of the wrong shape is 900 naming each field; a control character is 150. */
function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const fields: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const invalid = issue.message === INVALID_CHARACTERS_KEY;
    fields[issue.path.join('.') || 'body'] ??= invalid ? { code: INVALID_CHARACTERS_CODE, key: INVALID_CHARACTERS_KEY } : { code: 900, key: 'errors.client.missingInput' };
  }
  throw new AppError(Object.values(fields).every((f) => f.code === INVALID_CHARACTERS_CODE) ? INVALID_CHARACTERS_CODE : 900, { fields });
}

/**
 * Records a payment or password step failure, tagged as a payment error (category Payment) in the
 * server log: who, which step, which code. Never the card, the token or the password.
 */
export async function logOnboardingFailure(request: FastifyRequest, o: Onboarding | null, step: 'payment' | 'password', error: AppError): Promise<void> {
  request.log.info({ category: 'Payment', step: `onboarding.${step}`, code: String(error.code), userId: o?.user.id ?? null, communityId: request.community.id }, 'onboarding step refused');
}

/** A payment-tagged error answer: the catalogue's JSON shape, plus the category. */
class TaggedError extends Error {
  constructor(readonly error: AppError) {
    super(error.message);
  }
}

export async function restRoutes(app: FastifyInstance) {
  const open = { config: { access: 'public' as const, allowDuringOnboarding: true } };
  // Like the sign-in calls, these work for a cookie-less JSON client holding only the invitation link
  // (csrf: false: with our cookies the CSRF token is still required; a bearer client needs none).
  const posting = { config: { ...open.config, csrf: false as const, rateLimit: { max: 30, timeWindow: '1 minute' } } };

  app.get('/rest/get-started', open, async (request) => {
    const query = parse(schemas.query, request.query);
    const o = await loadOnboarding(app, request.community, { identity: request.identity, uid: query.uid, dealId: query.dealId });
    // Once the invitee has credentials, the link alone no longer tells who they are: sign in.
    if (linkSpent(o)) throw invalidMembership();
    return onboardingData(app, o);
  });

  /** Runs a step; a refusal answers the catalogue's JSON with category "Payment" and is logged. */
  async function tagged<T>(request: FastifyRequest, step: 'payment' | 'password', run: (setOnboarding: (o: Onboarding) => void) => Promise<T>): Promise<T> {
    let o: Onboarding | null = null;
    try {
      return await run((v) => (o = v));
    } catch (e) {
      if (!isAppError(e)) throw e;
      await logOnboardingFailure(request, o, step, e);
      throw new TaggedError(e);
    }
  }

  app.setErrorHandler(async (err, request, reply) => {
    if (!(err instanceof TaggedError)) throw err;
    const e = err.error;
    return reply.code(e.status).send({ error: { code: e.publicCode, message: app.t(e.key, e.values), category: 'Payment', ...(e.fields ? { fields: e.fields } : {}) } });
  });

  app.post('/rest/get-started/payment', posting, async (request) =>
    tagged(request, 'payment', async (seen) => {
      const query = parse(schemas.query, request.query);
      const body = parse(schemas.payment, request.body);
      const o = await loadOnboarding(app, request.community, { identity: request.identity, uid: body.uid ?? query.uid, dealId: body.dealId ?? query.dealId });
      seen(o);
      const outcome = await submitPayment(app, o, {
        token: body.paymentToken,
        planId: body.planId ?? undefined,
        dealId: body.uid || query.uid ? undefined : (body.dealId ?? undefined),
        pricePointId: body.pricePointId ?? undefined,
        acceptedTerms: body.acceptedTerms,
        actorId: request.identity.loggedIn ? request.identity.user.id : null,
      });
      if (outcome.status === 'refused') throw declineError(outcome.result.code);
      return { ledgerId: outcome.ledgerId, onboarding: onboardingData(app, outcome.onboarding) };
    }),
  );

  app.post('/rest/get-started/password', posting, async (request, reply) =>
    tagged(request, 'password', async (seen) => {
      const body = parse(schemas.password, request.body);
      const query = parse(schemas.query, request.query);
      const o = await loadOnboarding(app, request.community, { identity: request.identity, uid: body.uid ?? query.uid, dealId: body.dealId ?? query.dealId });
      seen(o);
      const { onboarding, login } = await createCredentials(request, o, { username: body.username, password: body.password });
      setSessionCookies(reply, login, false);
      return { ...loginResultView(login), onboarding: onboardingData(app, onboarding) };
    }),
  );

  // ---------------------------------------------------------------------------------------------
  // Expert panels (decision 0036): a signed-in member (bearer, or cookie + CSRF) joins panels and
  // answers the first open question. Errors are the catalogue's JSON, field keys under error.fields.

  const member = async (request: FastifyRequest) => {
    const o = await loadOnboarding(app, request.community, { identity: request.identity });
    if (!o.signedIn) throw new AppError('NotAuthenticated');
    return o;
  };

  app.get('/rest/get-started/ep-landing', open, async (request) => {
    const o = await member(request);
    return { panels: await expertPanelsDraft(request, o), onboarding: onboardingData(app, o) };
  });

  app.post('/rest/get-started/ep-landing', posting, async (request) => {
    const body = parse(schemas.epLanding, request.body);
    const o = await member(request);
    const next = await saveExpertPanelsStep(request, o, { panelIds: body.panelIds });
    return { panels: await expertPanelsDraft(request, next), onboarding: onboardingData(app, next) };
  });

  app.get('/rest/get-started/ep-question', open, async (request) => {
    const o = await member(request);
    return { question: await expertQuestionDraft(request, o), onboarding: onboardingData(app, o) };
  });

  app.post('/rest/get-started/ep-question', posting, async (request) => {
    const body = parse(schemas.epQuestion, request.body);
    const o = await member(request);
    const next = await answerExpertQuestionStep(request, o, { questionId: body.questionId, body: body.body });
    return { onboarding: onboardingData(app, next) };
  });

  for (const step of ['ep-landing', 'ep-question'] as const) {
    app.post(`/rest/get-started/${step}/skip`, posting, async (request) => {
      const o = await member(request);
      return { onboarding: onboardingData(app, await skipStep(request, o, step)) };
    });
  }
}
