import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, isAppError, type ErrorCode } from '#src/core/errors.ts';
import { htmlToText, textToHtml } from '#src/lib/rich-text.ts';
import { toCsv } from '#src/lib/csv.ts';
import { withAlert } from '#src/lib/alerts.ts';
import { field, formOf, id, idParams, optionalId, paramsOf, queryOf } from '#src/lib/form.ts';
import { parseId } from '#src/core/ids.ts';
import { RoundupBoard } from '#src/features/expert-panels/views/admin/RoundupBoard.tsx';
import { RoundupNew } from '#src/features/expert-panels/views/admin/RoundupNew.tsx';
import { RoundupPage } from '#src/features/expert-panels/views/admin/RoundupPage.tsx';
import type { RoundupFormState } from '#src/features/expert-panels/views/admin/RoundupParts.tsx';
import { editorPosts, type FormAction } from '../admin/form-post.ts';
import { epDeps, epViewer, type EpDeps, type EpViewer } from '../deps.ts';
import { ROUNDUP_STATUSES } from '../rules.ts';
import { exportRoundups, getRoundup, listRoundups, livePathOf, roundupQuestionChoices, searchWords } from './read.ts';
import { addRoundupAnswer, createRoundup, moveRoundup, moveRoundupAnswer, orderRoundupAnswers, removeRoundupAnswer, updateRoundup } from './service.ts';
import type { RoundupQuery } from './types.ts';

/** Refusals a form shows as its own message (above it), not as an error page. */
const FORM_LEVEL: readonly ErrorCode[] = ['ExpertPanels.MoveNotAllowed', 'ExpertPanels.RoundupPublished', 'ExpertPanels.RoundupEmpty', 'ExpertPanels.Busy'];

type Alert = Parameters<typeof withAlert>[1];

const PATH = '/admin/expert-panels/roundups';

/** The board's query: a state, a search (cut to 1000; checked by the service beside its field), a page; what does not fit is dropped. */
const BoardQuery = z.object({
  status: z
    .enum(ROUNDUP_STATUSES)
    .optional()
    .catch(undefined)
    .transform((v) => v ?? null),
  q: z
    .string()
    .optional()
    .catch(undefined)
    .transform((v) => (v === undefined ? null : v.slice(0, 1000))),
  after: z
    .string()
    .optional()
    .catch(undefined)
    .transform((v) => v || null),
}) satisfies z.ZodType<RoundupQuery>;
/** A new roundup's page, from a question (`?questionId=`; not an id: none chosen). */
const NewQuery = z.object({ questionId: optionalId.catch(null) });
/** A roundup's fields as typed (the service checks them, beside the field); a new one names its question. */
const ComposeForm = z.object({ title: field(), intro: field() });
const NewForm = ComposeForm.extend({ questionId: field() });
const AnswerForm = z.object({ answerId: field() });
const AnswerParams = z.object({ id, answerId: id });
const MoveAnswerForm = z.object({ direction: z.enum(['up', 'down']) });
const MoveForm = z.object({ to: field() });
/** Explicit places: `position-<answerId>` fields (1 first); any other field is not a place. */
const OrderForm = z.record(z.string(), z.union([z.string(), z.array(z.string())])).transform((body) => {
  const places: Record<number, string> = {};
  for (const [name, value] of Object.entries(body)) {
    const answerId = parseId(/^position-(\d+)$/.exec(name)?.[1]);
    if (answerId !== null && typeof value === 'string') places[answerId] = value;
  }
  return places;
});

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

  /** Every form POST here: done, a 303 back with its alert; refused, its page with the messages (../admin/form-post.ts). */
  const post = editorPosts<Alert>(app, { formLevel: FORM_LEVEL, back: withAlert });

  // ---- The board ----

  app.get(PATH, admin, async (request, reply) => {
    const deps = epDeps(request);
    const viewer = epViewer(request);
    let query: RoundupQuery = queryOf(BoardQuery, request);
    let errors: Record<string, string> = {};
    try {
      query = { ...query, q: searchWords(query.q) };
    } catch (e) {
      if (!isAppError(e) || !e.fields || Object.keys(e.fields).length === 0) throw e;
      errors = Object.fromEntries(Object.entries(e.fields).map(([f, v]) => [f, t(v.key, v.values)]));
      query = { status: query.status, q: null, after: null };
    }
    const page = await listRoundups(deps, viewer, query);
    return reply.page({ title: t('expertPanelsRoundups.board.title'), status: errors.q ? 400 : 200, body: <RoundupBoard rows={page.rows} next={page.next} query={query} errors={errors} /> });
  });

  app.get(`${PATH}/export.csv`, admin, async (request, reply) => {
    const raw = queryOf(BoardQuery, request);
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
    const { questionId } = queryOf(NewQuery, request);
    return newPage(request, reply, { values: { questionId: questionId ? String(questionId) : '' }, errors: {} });
  });

  post(PATH, (request, reply) => {
    const values = formOf(NewForm, request);
    return {
      values,
      page: (refused, status) => newPage(request, reply, { values, errors: refused.errors }, status),
      run: async (deps, viewer) => {
        const { id } = await createRoundup(deps, viewer, { questionId: parseId(values.questionId) ?? undefined, title: values.title, intro: textToHtml(values.intro) });
        return ['ep-roundup-created', `${PATH}/${id}`];
      },
    };
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

  app.get(`${PATH}/:id`, admin, async (request, reply) => detailPage(request, reply, paramsOf(idParams, request).id));

  /** An action of the roundup's page: done, back to the page (at `hash`) with the alert; refused, the page with the message (and `values` typed, if any). */
  const onRoundup = (request: FastifyRequest, reply: FastifyReply, hash: string, run: (deps: EpDeps, viewer: EpViewer, id: number) => Promise<Alert>, values?: Record<string, string>): FormAction<Alert> => {
    const { id } = paramsOf(idParams, request);
    return {
      values,
      page: (refused, status) => detailPage(request, reply, id, { ...refused, status }),
      run: async (deps, viewer) => [await run(deps, viewer, id), `${PATH}/${id}#${hash}`],
    };
  };

  post(`${PATH}/:id`, (request, reply) => {
    paramsOf(idParams, request);
    const values = formOf(ComposeForm, request);
    return onRoundup(request, reply, 'compose', async (deps, viewer, id) => (await updateRoundup(deps, viewer, id, { title: values.title, intro: textToHtml(values.intro) }), 'ep-roundup-saved'), values);
  });

  post(`${PATH}/:id/answers`, (request, reply) => {
    const { id } = paramsOf(idParams, request);
    const answerId = parseId(formOf(AnswerForm, request).answerId);
    return onRoundup(request, reply, 'answers', async (deps, viewer) => {
      if (answerId === null) throw new AppError('ExpertPanels.Invalid', { fields: { answerIds: { code: 'ExpertPanels.Invalid', key: 'expertPanelsRoundups.errors.notAccepted' } } });
      await addRoundupAnswer(deps, viewer, id, answerId);
      return 'ep-roundup-answers';
    });
  });

  post(`${PATH}/:id/answers/:answerId/remove`, (request, reply) => {
    const { answerId } = paramsOf(AnswerParams, request);
    return onRoundup(request, reply, 'answers', async (deps, viewer, id) => (await removeRoundupAnswer(deps, viewer, id, answerId), 'ep-roundup-answers'));
  });

  post(`${PATH}/:id/answers/:answerId/move`, (request, reply) => {
    const { id, answerId } = paramsOf(AnswerParams, request);
    const { direction } = formOf(MoveAnswerForm, request);
    return onRoundup(request, reply, `answer-${answerId}`, async (deps, viewer) => (await moveRoundupAnswer(deps, viewer, id, answerId, direction), 'ep-roundup-answers'));
  });

  // Explicit places: `position-<answerId>` fields, 1 first.
  post(`${PATH}/:id/order`, (request, reply) => {
    paramsOf(idParams, request);
    const places = formOf(OrderForm, request);
    return onRoundup(request, reply, 'answers', async (deps, viewer, id) => (await orderRoundupAnswers(deps, viewer, id, places), 'ep-roundup-answers'));
  });

  post(`${PATH}/:id/move`, (request, reply) => {
    paramsOf(idParams, request);
    const { to } = formOf(MoveForm, request);
    return onRoundup(request, reply, 'moves', async (deps, viewer, id) => ((await moveRoundup(deps, viewer, id, to)).status === 'FINAL' ? 'ep-roundup-published' : 'ep-roundup-moved'));
  });
}
