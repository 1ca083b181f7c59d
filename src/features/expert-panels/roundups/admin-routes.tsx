import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError, notFound } from '#src/core/errors.ts';
import { htmlToText, textToHtml } from '#src/lib/rich-text.ts';
import { toCsv } from '#src/lib/csv.ts';
import { withAlert } from '#src/lib/alerts.ts';
import { type FormBody as Body, str } from '#src/lib/form.ts';
import { parseId } from '#src/core/ids.ts';
import { RoundupBoard } from '#views/admin/expert-panels/RoundupBoard.tsx';
import { RoundupNew } from '#views/admin/expert-panels/RoundupNew.tsx';
import { RoundupPage } from '#views/admin/expert-panels/RoundupPage.tsx';
import type { RoundupFormState } from '#views/admin/expert-panels/RoundupParts.tsx';
import { epDeps, epViewer } from '../deps.ts';
import { isRoundupStatus } from '../rules.ts';
import { exportRoundups, getRoundup, listRoundups, livePathOf, roundupQuestionChoices, searchWords } from './read.ts';
import { addRoundupAnswer, createRoundup, moveRoundup, moveRoundupAnswer, orderRoundupAnswers, removeRoundupAnswer, updateRoundup } from './service.ts';
import type { RoundupQuery } from './types.ts';

/** Refusals a form shows as its own message (above it), not as an error page. */
const FORM_LEVEL = new Set(['ExpertPanels.MoveNotAllowed', 'ExpertPanels.RoundupPublished', 'ExpertPanels.RoundupEmpty', 'ExpertPanels.Busy']);

const PATH = '/admin/expert-panels/roundups';

/**
 * The editors' roundups (issue 15), staff only: the board (filters, search, keyset pages, CSV), a
 * new roundup from a question with accepted answers, and one roundup's page (compose, answers,
 * moves). Every action is a plain form POST calling the same services as GraphQL, then a 303 back
 * with an alert; a refused one re-renders the page with the message beside the field and the text
 * typed kept.
 */
export default async function roundupAdminRoutes(app: FastifyInstance) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };

  const idParam = (request: FastifyRequest, name = 'id'): number => {
    const id = parseId((request.params as Record<string, string | undefined>)[name]);
    if (id === null) throw notFound();
    return id;
  };
  const bodyOf = (request: FastifyRequest): Body => (request.body ?? {}) as Body;

  /** A refusal as the form shows it: the fields' messages, else the form's own (or rethrown). */
  const refusal = (e: unknown): { errors: Record<string, string>; status: number } => {
    if (!isAppError(e)) throw e;
    if (e.fields && Object.keys(e.fields).length) return { errors: Object.fromEntries(Object.entries(e.fields).map(([f, v]) => [f, t(v.key, v.values)])), status: e.status };
    if (FORM_LEVEL.has(e.code as string)) return { errors: { form: t(e.key, e.values) }, status: e.status };
    throw e;
  };

  function queryOf(raw: Record<string, unknown>): RoundupQuery {
    return {
      status: isRoundupStatus(raw.status) ? raw.status : null,
      q: typeof raw.q === 'string' ? raw.q.slice(0, 1000) : null,
      after: typeof raw.after === 'string' && raw.after ? raw.after : null,
    };
  }

  // ---- The board ----

  app.get(PATH, admin, async (request, reply) => {
    const deps = epDeps(request);
    const viewer = epViewer(request);
    let query = queryOf(request.query as Record<string, unknown>);
    let errors: Record<string, string> = {};
    try {
      query = { ...query, q: searchWords(query.q) };
    } catch (e) {
      errors = refusal(e).errors;
      query = { status: query.status, q: null, after: null };
    }
    const page = await listRoundups(deps, viewer, query);
    return reply.page({ title: t('expertPanelsRoundups.board.title'), status: errors.q ? 400 : 200, body: <RoundupBoard rows={page.rows} next={page.next} query={query} errors={errors} /> });
  });

  app.get(`${PATH}/export.csv`, admin, async (request, reply) => {
    const raw = queryOf(request.query as Record<string, unknown>);
    const query = { ...raw, q: searchWords(raw.q), after: null };
    const { rows, truncated } = await exportRoundups(epDeps(request), epViewer(request), query);
    const origin = `${app.config.publicUrl}${app.config.basePath}`;
    const csv = toCsv(
      ['id', 'title', 'status', 'question', 'answers', 'created', 'updated', 'published', 'url'].map((c) => t(`expertPanelsRoundups.csv.${c}`)),
      rows.map((r) => [
        r.id,
        r.title,
        t(`expertPanelsRoundups.status.${r.status}`),
        r.questionTitle,
        r.answerCount,
        r.createdAt,
        r.updatedAt,
        r.publishedAt,
        r.status === 'FINAL' && r.slug ? `${origin}${livePathOf(r.slug)}` : '',
      ]),
    );
    const code = request.community.code.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
    if (truncated) reply.header('x-export-truncated', 'true');
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="roundups-${code}-${app.clock.now().toISOString().slice(0, 10)}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });

  // ---- A new roundup ----

  async function newPage(request: FastifyRequest, reply: FastifyReply, form: RoundupFormState, status?: number) {
    const questions = await roundupQuestionChoices(epDeps(request), epViewer(request));
    return reply.page({ title: t('expertPanelsRoundups.new.title'), status, body: <RoundupNew questions={questions} form={form} /> });
  }

  app.get(`${PATH}/new`, admin, async (request, reply) => {
    const questionId = parseId((request.query as Record<string, unknown>).questionId);
    return newPage(request, reply, { values: { questionId: questionId ? String(questionId) : '' }, errors: {} });
  });

  app.post(PATH, admin, async (request, reply) => {
    const body = bodyOf(request);
    const values = { questionId: str(body.questionId), title: str(body.title), intro: str(body.intro) };
    try {
      const { id } = await createRoundup(epDeps(request), epViewer(request), { questionId: parseId(values.questionId) ?? undefined, title: values.title, intro: textToHtml(values.intro) });
      return reply.redirectTo(withAlert(`${PATH}/${id}`, 'ep-roundup-created'));
    } catch (e) {
      const { errors, status } = refusal(e);
      return newPage(request, reply, { values, errors }, status);
    }
  });

  // ---- One roundup ----

  async function detailPage(request: FastifyRequest, reply: FastifyReply, id: number, refused?: { values?: Record<string, string>; errors: Record<string, string>; status: number }) {
    const roundup = await getRoundup(epDeps(request), epViewer(request), id);
    const values = refused?.values ?? { title: roundup.title, intro: htmlToText(roundup.introHtml) };
    return reply.page({
      title: t('expertPanelsRoundups.page.heading', { title: roundup.title }),
      status: refused?.status,
      body: <RoundupPage roundup={roundup} form={{ values, errors: refused?.errors ?? {} }} />,
    });
  }

  app.get(`${PATH}/:id`, admin, async (request, reply) => detailPage(request, reply, idParam(request)));

  /** Runs an action of the roundup's page: done, back to the page (at `hash`) with the alert; refused, the page with the message. */
  async function act(request: FastifyRequest, reply: FastifyReply, id: number, run: () => Promise<Parameters<typeof withAlert>[1]>, hash: string, values?: Record<string, string>) {
    try {
      const alert = await run();
      return reply.redirectTo(withAlert(`${PATH}/${id}#${hash}`, alert));
    } catch (e) {
      return detailPage(request, reply, id, { ...refusal(e), values });
    }
  }

  app.post(`${PATH}/:id`, admin, async (request, reply) => {
    const id = idParam(request);
    const body = bodyOf(request);
    const values = { title: str(body.title), intro: str(body.intro) };
    return act(
      request,
      reply,
      id,
      async () => {
        await updateRoundup(epDeps(request), epViewer(request), id, { title: values.title, intro: textToHtml(values.intro) });
        return 'ep-roundup-saved';
      },
      'compose',
      values,
    );
  });

  app.post(`${PATH}/:id/answers`, admin, async (request, reply) => {
    const id = idParam(request);
    const answerId = parseId(bodyOf(request).answerId);
    return act(
      request,
      reply,
      id,
      async () => {
        if (answerId === null) throw new AppError('ExpertPanels.Invalid', { fields: { answerIds: { code: 'ExpertPanels.Invalid', key: 'expertPanelsRoundups.errors.notAccepted' } } });
        await addRoundupAnswer(epDeps(request), epViewer(request), id, answerId);
        return 'ep-roundup-answers';
      },
      'answers',
    );
  });

  app.post(`${PATH}/:id/answers/:answerId/remove`, admin, async (request, reply) => {
    const id = idParam(request);
    const answerId = idParam(request, 'answerId');
    return act(
      request,
      reply,
      id,
      async () => {
        await removeRoundupAnswer(epDeps(request), epViewer(request), id, answerId);
        return 'ep-roundup-answers';
      },
      'answers',
    );
  });

  app.post(`${PATH}/:id/answers/:answerId/move`, admin, async (request, reply) => {
    const id = idParam(request);
    const answerId = idParam(request, 'answerId');
    const direction = bodyOf(request).direction;
    if (direction !== 'up' && direction !== 'down') throw new AppError('BadRequest.Validation');
    return act(
      request,
      reply,
      id,
      async () => {
        await moveRoundupAnswer(epDeps(request), epViewer(request), id, answerId, direction);
        return 'ep-roundup-answers';
      },
      `answer-${answerId}`,
    );
  });

  // Explicit places: `position-<answerId>` fields, 1 first.
  app.post(`${PATH}/:id/order`, admin, async (request, reply) => {
    const id = idParam(request);
    const body = bodyOf(request);
    const places: Record<number, string> = {};
    for (const [name, value] of Object.entries(body)) {
      const answerId = parseId(/^position-(\d+)$/.exec(name)?.[1]);
      if (answerId !== null && typeof value === 'string') places[answerId] = value;
    }
    return act(
      request,
      reply,
      id,
      async () => {
        await orderRoundupAnswers(epDeps(request), epViewer(request), id, places);
        return 'ep-roundup-answers';
      },
      'answers',
    );
  });

  app.post(`${PATH}/:id/move`, admin, async (request, reply) => {
    const id = idParam(request);
    const to = bodyOf(request).to;
    return act(
      request,
      reply,
      id,
      async () => {
        const moved = await moveRoundup(epDeps(request), epViewer(request), id, to);
        return moved.status === 'FINAL' ? 'ep-roundup-published' : 'ep-roundup-moved';
      },
      'moves',
    );
  });
}
