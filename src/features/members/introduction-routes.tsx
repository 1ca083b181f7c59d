import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { isAppError, notFound, type AppError } from '#src/core/errors.ts';
import { z } from 'zod';
import { field, formOf, id, idParams, optionalId, paramsOf, queryOf } from '#src/lib/form.ts';
import { requestDeps } from '#src/lib/request-deps.ts';
import { IntroductionQueue, type ReviewForm } from '#src/features/members/views/admin-introductions.tsx';
import { IntroducePage, IntroduceForm, IntroduceRefused, IntroduceSent, MyIntroductions } from '#src/features/members/views/Introductions.tsx';
import {
  approveIntroduction,
  declineIntroduction,
  findIntroduction,
  introductionQueue,
  introductionTarget,
  listMyIntroductions,
  openPartners,
  openRequestBetween,
  REASON_MAX,
  REASON_MIN,
  requestIntroduction,
  type IntroDeps,
} from './introductions.ts';

export function introDeps(request: FastifyRequest): IntroDeps {
  const app = request.server;
  return { ...requestDeps(request), messages: app.messages, mailFrom: app.config.mailFrom };
}

const LIMITS = { min: REASON_MIN, max: REASON_MAX };

/** The dialog asks for the fragment alone (`?fragment=1`); anything else is the page. */
const FragmentQuery = z.object({ fragment: z.string().optional().catch(undefined) });
/** The member to be introduced to: an id, or NotFound. */
const TargetParams = z.object({ userId: id });
const IntroduceForm_ = z.object({ reason: field() });
/** The request just sent, or the one just reviewed, to name in the notice: one that is not an id is none. */
const SentQuery = z.object({ sent: optionalId.catch(null) });
const ReviewedQuery = z.object({ approved: optionalId.catch(null), declined: optionalId.catch(null) });
const ReviewForm_ = z.object({ note: field(), reason: field() });

/** Introductions: the request page (and its dialog fragment), the member's requests, the staff queue. */
export default async function introductionRoutes(app: FastifyInstance) {
  const t = app.t;
  const member = { config: { access: 'member' as const } };
  const admin = { config: { access: 'admin' as const } };
  const fieldMessage = (e: AppError, field: string) => {
    const f = e.fields?.[field];
    return f ? t(f.key, f.values) : undefined;
  };
  /** The dialog asks for the fragment alone (`?fragment=1`); otherwise the whole page. */
  const wantsFragment = (request: FastifyRequest) => queryOf(FragmentQuery, request).fragment === '1';
  const userIdOf = (request: FastifyRequest) => paramsOf(TargetParams, request, notFound).userId;

  /**
   * The page, or for the dialog its fragment. A fragment that carries field messages answers 200: the
   * dialog shows whatever markup comes back, and a 4xx would only add a console error in the browser.
   */
  async function respond(request: FastifyRequest, reply: FastifyReply, title: string, page: ReactNode, fragment: ReactNode, status = 200) {
    if (wantsFragment(request)) return reply.fragment(fragment, 200);
    return reply.page({ title, body: page, status });
  }

  app.get('/profile/:userId/introduce', member, async (request, reply) => {
    const deps = introDeps(request);
    const me = request.guardian.userId!;
    let target;
    try {
      target = await introductionTarget(deps, me, userIdOf(request));
    } catch (e) {
      if (!isAppError(e) || e.code !== 'Introductions.Self') throw e;
      const body = <IntroduceRefused message={t(e.key)} />;
      return respond(request, reply, t('introductions.request.title'), body, body, 400);
    }
    // A request between the two is already with the team: say so rather than offer a form that would be refused.
    const open = await openRequestBetween(deps, me, target.id);
    const openMessage = open
      ? t(open.requesterId === me ? 'introductions.errors.openRequest' : 'introductions.errors.openRequestReverse', { name: target.name })
      : undefined;
    return respond(
      request,
      reply,
      t('introductions.request.title'),
      <IntroducePage target={target} reason="" limits={LIMITS} openMessage={openMessage} />,
      <IntroduceForm target={target} reason="" limits={LIMITS} inDialog openMessage={openMessage} />,
    );
  });

  app.post('/profile/:userId/introduce', member, async (request, reply) => {
    const deps = introDeps(request);
    const me = request.guardian.userId!;
    const targetId = userIdOf(request);
    const { reason } = formOf(IntroduceForm_, request);
    try {
      const created = await requestIntroduction(deps, me, { targetId, reason });
      if (wantsFragment(request)) return reply.fragment(<IntroduceSent target={created.target} />, 201);
      return reply.redirectTo(`/members/introductions?sent=${created.id}`);
    } catch (e) {
      if (!isAppError(e)) throw e;
      if (e.code === 'Introductions.Self') {
        const page = <IntroduceRefused message={t(e.key)} />;
        return respond(request, reply, t('introductions.request.title'), page, page, 400);
      }
      const error = fieldMessage(e, 'reason');
      if (!error) throw e;
      // Nothing typed is lost: the form comes back with the text and the message beside it.
      const target = await introductionTarget(deps, me, targetId);
      return respond(
        request,
        reply,
        t('introductions.request.title'),
        <IntroducePage target={target} reason={reason} error={error} limits={LIMITS} />,
        <IntroduceForm target={target} reason={reason} error={error} limits={LIMITS} inDialog />,
        e.status,
      );
    }
  });

  app.get('/members/introductions', member, async (request, reply) => {
    const deps = introDeps(request);
    const me = request.guardian.userId!;
    const [requests, open] = await Promise.all([listMyIntroductions(deps, me), openPartners(deps, me)]);
    const sentId = queryOf(SentQuery, request).sent;
    const sent = sentId ? requests.find((r) => r.id === sentId) : undefined;
    // "Ask again" where the newest request to a member was declined and nothing is open between the two now.
    const newestTo = new Map<number, (typeof requests)[number]>();
    for (const r of requests) if (!newestTo.has(r.target.id)) newestTo.set(r.target.id, r);
    const askAgain = [...newestTo.values()].filter((r) => r.status === 'DECLINED' && r.target.isActive && !open.has(r.target.id)).map((r) => r.target.id);
    return reply.page({
      title: t('introductions.mine.title'),
      body: <MyIntroductions requests={requests} askAgain={askAgain} notice={sent ? t('introductions.request.sent', { name: sent.target.name }) : undefined} />,
    });
  });

  async function queuePage(request: FastifyRequest, reply: FastifyReply, extra: { notice?: string; form?: ReviewForm; status?: number } = {}) {
    const { pending, reviewed } = await introductionQueue(introDeps(request));
    return reply.page({
      title: t('introductions.admin.title'),
      status: extra.status,
      body: <IntroductionQueue pending={pending} reviewed={reviewed} notice={extra.notice} form={extra.form} />,
    });
  }

  app.get('/admin/members/introductions', admin, async (request, reply) => {
    const q = queryOf(ReviewedQuery, request);
    const doneId = q.approved ?? q.declined;
    const done = doneId ? await findIntroduction(introDeps(request), doneId) : undefined;
    const notice =
      done && done.status !== 'PENDING'
        ? t(done.status === 'APPROVED' ? 'introductions.admin.approved' : 'introductions.admin.declined', { requester: done.requester.name, target: done.target.name })
        : undefined;
    return queuePage(request, reply, { notice });
  });

  for (const action of ['approve', 'decline'] as const) {
    app.post(`/admin/members/introductions/:id/${action}`, admin, async (request, reply) => {
      const { id } = paramsOf(idParams, request, notFound);
      const body = formOf(ReviewForm_, request);
      const deps = introDeps(request);
      const me = request.guardian.userId!;
      try {
        if (action === 'approve') await approveIntroduction(deps, me, id, body.note);
        else await declineIntroduction(deps, me, id, body.reason);
        return reply.redirectTo(`/admin/members/introductions?${action === 'approve' ? 'approved' : 'declined'}=${id}`);
      } catch (e) {
        if (!isAppError(e) || e.code === 'NotFound' || e.code === 'Forbidden') throw e;
        const typed = action === 'approve' ? { note: body.note } : { reason: body.reason };
        const errors =
          e.fields && Object.keys(e.fields).length > 0
            ? Object.fromEntries(Object.entries(e.fields).map(([f, v]) => [f, t(v.key, v.values)]))
            : { form: t(e.key, e.values) };
        return queuePage(request, reply, { form: { id, ...typed, errors }, status: e.status });
      }
    });
  }
}
