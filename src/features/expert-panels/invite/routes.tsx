import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, isAppError } from '#src/core/errors.ts';
import { field, formOf, optionalId, queryOf } from '#src/lib/form.ts';
import { textToHtml } from '#src/lib/rich-text.ts';
import { InvitePage, type InviteProblem } from '#src/features/expert-panels/views/InvitePage.tsx';
import { epDeps } from '../deps.ts';
import { markAnswer, submitAnswer } from '../answers.ts';
import { invitationQuery, resolveInvitation, type ReadInvitation } from './links.ts';
import { linkMayAnswer, openInvitationQuestions } from './questions.ts';
import type { InviteFormState, InviteQuestionView } from './types.ts';

const NOTICES = ['submitted', 'cant_answer', 'ignored'] as const;
type Notice = (typeof NOTICES)[number];
const ACTIONS = ['submit', 'cant_answer', 'ignored'] as const;

/**
 * A link's fields (`ids`, `m`, `exp`, `sig`) as a query string or a form carries them: text (or a
 * field sent twice); the link's own reading (links.ts) refuses a bad one with the invitation's answer.
 */
const linkField = z.union([z.string(), z.array(z.string())]).optional();
const LinkFields = { ids: linkField, m: linkField, exp: linkField, sig: linkField };
/** The invitation's page: the link, and the notice after an answer (anything else shows none). */
const InviteQuery = z.object({ ...LinkFields, notice: z.enum(NOTICES).optional().catch(undefined) });
/**
 * An answer from the invitation's page: the link, the question (not an id: none, refused as a link
 * that does not load), the text as typed, and the button pressed (anything else: submit).
 */
const InviteForm = z.object({
  ...LinkFields,
  questionId: optionalId.catch(null),
  body: field(),
  action: z.enum(ACTIONS).optional().catch(undefined),
});
/** Errors about the answer's text: shown next to the field. */
const FIELD_CODES = new Set<unknown>(['ExpertPanels.AnswerRequired', 'ExpertPanels.AnswerTooLong', 'ExpertPanels.AnswerTooShort', 150]);

type Render = {
  link: ReadInvitation | null;
  questions: InviteQuestionView[];
  forms?: Record<number, InviteFormState>;
  problem?: InviteProblem | null;
  notice?: string | null;
  allDone?: boolean;
  /** The link alone authorises (signed out): say until when. */
  expires?: Date | null;
  status?: number;
};

/**
 * The expert-panel invite page (issue 15, decision 0035): `GET /expert-panels/invite?ids=&m=&exp=&sig=`
 * shows the open questions a signed invitation link names, to its member; `POST /expert-panels/invite`
 * answers one of them (send, can't answer, ignore) and comes back to the page. Public: signed out, a
 * valid link is what authorises, for its member and its questions only; signed in, the session must be
 * the link's member's (then an expired link still lists the questions). Where the link is not enough,
 * the page says so, offers to sign in, and keeps what the member typed. Every form carries the CSRF
 * token as usual (the page sets its cookie, signed in or not) and the link's fields.
 */
export default async function inviteRoutes(app: FastifyInstance) {
  const t = app.t;
  const base = app.config.basePath;
  const secret = app.config.cookieSecret;
  // A signed link from an email, answered with or without signing in: not held back by the onboarding gate.
  const visitor = { config: { access: 'public' as const, allowDuringOnboarding: true } };

  const invitePath = (link: ReadInvitation, extra = '') => `/expert-panels/invite?${invitationQuery(link.fields)}${extra}`;
  const signInHref = (to: string) => `${base}/login?redirect=${encodeURIComponent(`${base}${to}`)}`;
  const signedInId = (request: FastifyRequest) => (request.guardian.isSignedIn ? request.guardian.userId : null);

  function render(request: FastifyRequest, reply: FastifyReply, r: Render) {
    return reply.page({
      title: t('expertPanelsInvite.title'),
      status: r.status ?? 200,
      body: (
        <InvitePage
          link={r.link?.fields ?? null}
          questions={r.questions}
          forms={r.forms ?? {}}
          problem={r.problem ?? null}
          notice={r.notice ?? null}
          allDone={r.allDone ?? false}
          signedIn={signedInId(request) !== null}
          expires={r.expires ?? null}
        />
      ),
    });
  }

  /** The link could not be used: why, and (signed out) the way to sign in. */
  function refused(request: FastifyRequest, reply: FastifyReply, error: AppError, link: ReadInvitation | null) {
    const signedIn = signedInId(request) !== null;
    let problem: InviteProblem = { message: t(error.key) };
    if (error.code === 'ExpertPanels.InviteLoadFailed') {
      if (signedIn && link) problem = { message: `${t(error.key)} ${t('expertPanelsInvite.otherMember')}` };
      else if (!signedIn) problem = { message: link ? `${t(error.key)} ${t('expertPanelsInvite.expiredSignIn')}` : t(error.key), signInHref: signInHref(link ? invitePath(link) : '/expert-panels') };
    }
    return render(request, reply, { link: null, questions: [], problem, status: error.status });
  }

  app.get('/expert-panels/invite', visitor, async (request, reply) => {
    const query = queryOf(InviteQuery, request);
    const access = resolveInvitation(secret, request.community.id, query, app.clock.now(), signedInId(request));
    if (!access.ok) return refused(request, reply, access.error, access.link);
    const questions = await openInvitationQuestions(app.db, request.community, access.link.userId, access.link.questionIds);
    const notice = query.notice ? t(`expertPanelsInvite.notices.${query.notice}`) : null;
    if (questions.length === 0) {
      // Just answered the last one: say so, not that there is nothing to answer.
      if (notice) return render(request, reply, { link: access.link, questions, notice, allDone: true });
      return refused(request, reply, new AppError('ExpertPanels.InviteNoneUnanswered'), access.link);
    }
    return render(request, reply, { link: access.link, questions, notice, expires: access.via === 'link' ? access.link.expiresAt : null });
  });

  app.post('/expert-panels/invite', visitor, async (request, reply) => {
    const body = formOf(InviteForm, request);
    const typed = body.body;
    const questionId = body.questionId;
    const action = body.action ?? 'submit';
    const communityId = request.community.id;
    const access = resolveInvitation(secret, communityId, body, app.clock.now(), signedInId(request));
    if (!access.ok) {
      if (!access.link) return refused(request, reply, access.error, null);
      // Expired (signed out) or another member signed in: the question again with the text typed,
      // and the way to sign in as the link's member (in a new tab: this page keeps the text).
      const link = access.link;
      const questions = questionId !== null && link.questionIds.includes(questionId) ? await openInvitationQuestions(app.db, request.community, link.userId, [questionId]) : [];
      const signedIn = signedInId(request) !== null;
      const problem: InviteProblem = signedIn
        ? { message: `${t(access.error.key)} ${t('expertPanelsInvite.otherMemberKeep')}` }
        : { message: `${t(access.error.key)} ${t('expertPanelsInvite.expiredKeep')}`, signInHref: signInHref(invitePath(link)), newTab: true };
      return render(request, reply, { link, questions, forms: questionId ? { [questionId]: { value: typed } } : {}, problem, status: signedIn ? 403 : 401 });
    }
    const link = access.link;
    if (questionId === null || !link.questionIds.includes(questionId)) return refused(request, reply, new AppError('ExpertPanels.InviteLoadFailed'), null);
    // The link alone (signed out) authorises only what its page offers: a question whose answer is still
    // open, for an active member. A submitted or marked one is for the member's own page, signed in.
    if (access.via === 'link' && !(await linkMayAnswer(app.db, request.community, link.userId, questionId))) {
      return refused(request, reply, new AppError('ExpertPanels.InviteNoneUnanswered'), link);
    }
    const viewer = { userId: link.userId, isStaff: false };
    try {
      if (action === 'submit') await submitAnswer(epDeps(request), viewer, questionId, { body: textToHtml(typed) });
      else await markAnswer(epDeps(request), viewer, questionId, action);
    } catch (e) {
      if (!isAppError(e) || e.status >= 500) throw e;
      const questions = await openInvitationQuestions(app.db, request.community, link.userId, link.questionIds);
      const field = e.fields?.body;
      const form: InviteFormState =
        field || FIELD_CODES.has(e.code) ? { value: typed, error: field ? t(field.key, field.values) : t(e.key, e.values) } : { value: typed, formError: t(e.key, e.values) };
      const listed = questions.some((q) => q.id === questionId);
      return render(request, reply, {
        link,
        questions,
        forms: { [questionId]: form },
        problem: listed ? null : { message: t(e.key, e.values) },
        expires: access.via === 'link' ? link.expiresAt : null,
        status: e.status,
      });
    }
    const notice: Notice = action === 'submit' ? 'submitted' : action;
    return reply.redirectTo(invitePath(link, `&notice=${notice}`), 303);
  });
}
