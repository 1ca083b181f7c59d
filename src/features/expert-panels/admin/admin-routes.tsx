import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { AppError, isAppError, notFound } from '#src/core/errors.ts';
import { toCsv } from '#src/features/articles/csv.ts';
import { htmlToText, textToHtml } from '#src/features/forum/text-format.ts';
import { type FormBody as Body, positiveId, str } from '#src/lib/form.ts';
import { EpAnswer, EpAnswers } from '#views/admin/expert-panels/answers.tsx';
import { EpBatch, EpBatches } from '#views/admin/expert-panels/batches.tsx';
import type { EpForm } from '#views/admin/expert-panels/frame.tsx';
import { EpPanel, EpPanels } from '#views/admin/expert-panels/panels.tsx';
import { epDeps, epViewer } from '../deps.ts';
import type { AnswerFilters } from './admin-types.ts';
import { addQuestion, closeQuestion, createBatch, getBatch, questionSummary, removeQuestion, reopenQuestion, sendBatch, updateQuestion } from './batches.ts';
import { batchBoard, batchQueryOf } from './question-board.ts';
import { addPanelMember, createPanel, getPanel, listPanels, removePanelMember, setPanelArchived, updatePanel } from './panels.ts';
import { answerBoard, answerFiltersOf, answersForExport, decideAnswer, decisionOf, editAnswer, getAnswer, startReview } from './review.ts';

/** The notices an action may come back with (`?done=<key>`): only these render. */
const DONE = [
  'panelCreated',
  'panelSaved',
  'panelArchived',
  'panelUnarchived',
  'memberAdded',
  'memberRemoved',
  'batchCreated',
  'questionAdded',
  'questionSaved',
  'questionRemoved',
  'batchSent',
  'questionClosed',
  'questionReopened',
  'reviewStarted',
  'answerEdited',
  'accepted',
  'declined',
] as const;
type Done = (typeof DONE)[number];

const idOf = (value: unknown): number => {
  const id = positiveId(value);
  if (id === null) throw notFound();
  return id;
};
const idParam = (request: FastifyRequest, name = 'id'): number => idOf((request.params as Record<string, string | undefined>)[name]);
const bodyOf = (request: FastifyRequest): Body => (request.body ?? {}) as Body;
/** What was typed, kept for the form that comes back (strings only, cut to a sane length). */
const keep = (body: Body, names: readonly string[]) => Object.fromEntries(names.map((n) => [n, str(body[n]).slice(0, 120_000)]));

/**
 * The editors' expert panels area (staff only): /admin/expert-panels (panels), its batches and their
 * questions, the answers' board and one answer's review. Every action is a plain form POST (CSRF by
 * the plugins) that calls the same services as GraphQL, then redirects back with a notice; a refused
 * one re-renders its page with the message beside the field and the text kept.
 */
export default async function expertPanelsAdminRoutes(app: FastifyInstance) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };

  const noticeOf = (request: FastifyRequest) => {
    const done = (request.query as Record<string, unknown>).done;
    return typeof done === 'string' && (DONE as readonly string[]).includes(done) ? t(`expertPanelsAdmin.done.${done}`) : undefined;
  };
  const fieldsOf = (e: AppError) => Object.fromEntries(Object.entries(e.fields ?? {}).map(([f, v]) => [f, t(v.key, v.values)]));
  const call = (request: FastifyRequest) => {
    request.guardian.ensureAdmin();
    return { deps: epDeps(request), viewer: epViewer(request) };
  };

  async function page(request: FastifyRequest, reply: FastifyReply, title: string, body: () => Promise<ReactNode>, status?: number) {
    request.guardian.ensureAdmin();
    return reply.page({ title, body: await body(), status });
  }

  /** Runs an action: done, back to `path` with its notice; a refusal the form can show comes back on its page. */
  async function act(request: FastifyRequest, reply: FastifyReply, run: () => Promise<{ done: Done; path: string }>, again: { key: string; values: Record<string, string>; render: (form: EpForm, status: number) => Promise<unknown> }) {
    request.guardian.ensureAdmin();
    try {
      const { done, path } = await run();
      const [base, hash] = path.split('#', 2) as [string, string | undefined];
      return await reply.redirectTo(`${base}${base.includes('?') ? '&' : '?'}done=${done}${hash ? `#${hash}` : ''}`);
    } catch (e) {
      if (!isAppError(e)) throw e;
      const known = e.fields && Object.keys(e.fields).length > 0;
      const formLevel = e.code === 'ExpertPanels.BatchSent' || e.code === 'ExpertPanels.NotInReview' || e.code === 'ExpertPanels.RoundupPublished' || e.code === 'ExpertPanels.Busy';
      if (!known && !formLevel) throw e;
      const errors = known ? fieldsOf(e) : { form: t(e.key, e.values) };
      return again.render({ key: again.key, values: again.values, errors }, e.status);
    }
  }

  // ---- Panels ----

  const panelsPage = (request: FastifyRequest, reply: FastifyReply, form?: EpForm, status?: number) =>
    page(request, reply, t('expertPanelsAdmin.titles.panels'), async () => {
      const { deps, viewer } = call(request);
      return <EpPanels panels={await listPanels(deps, viewer)} notice={form ? undefined : noticeOf(request)} form={form} />;
    }, status);

  app.get('/admin/expert-panels', admin, async (request, reply) => panelsPage(request, reply));

  const PANEL_FIELDS = ['name', 'topic', 'minWords', 'maxWords'] as const;

  app.post('/admin/expert-panels/panels', admin, async (request, reply) => {
    const body = bodyOf(request);
    return act(
      request,
      reply,
      async () => {
        const { deps, viewer } = call(request);
        const id = await createPanel(deps, viewer, body);
        return { done: 'panelCreated', path: `/admin/expert-panels/panels/${id}` };
      },
      { key: 'panel-new', values: keep(body, PANEL_FIELDS), render: (form, status) => panelsPage(request, reply, form, status) },
    );
  });

  const panelPage = (request: FastifyRequest, reply: FastifyReply, id: number, form?: EpForm, status?: number) =>
    page(request, reply, t('expertPanelsAdmin.titles.panel'), async () => {
      const { deps, viewer } = call(request);
      return <EpPanel panel={await getPanel(deps, viewer, id)} notice={form ? undefined : noticeOf(request)} form={form} />;
    }, status);

  app.get('/admin/expert-panels/panels/:id', admin, async (request, reply) => panelPage(request, reply, idParam(request)));

  app.post('/admin/expert-panels/panels/:id', admin, async (request, reply) => {
    const id = idParam(request);
    const body = bodyOf(request);
    return act(
      request,
      reply,
      async () => {
        const { deps, viewer } = call(request);
        await updatePanel(deps, viewer, id, body);
        return { done: 'panelSaved', path: `/admin/expert-panels/panels/${id}` };
      },
      { key: 'panel-edit', values: keep(body, PANEL_FIELDS), render: (form, status) => panelPage(request, reply, id, form, status) },
    );
  });

  app.post('/admin/expert-panels/panels/:id/archive', admin, async (request, reply) => {
    const id = idParam(request);
    const archived = str(bodyOf(request).archived);
    if (archived !== 'true' && archived !== 'false') throw new AppError('BadRequest.Validation');
    return act(
      request,
      reply,
      async () => {
        const { deps, viewer } = call(request);
        await setPanelArchived(deps, viewer, id, archived === 'true');
        return { done: archived === 'true' ? 'panelArchived' : 'panelUnarchived', path: `/admin/expert-panels/panels/${id}` };
      },
      { key: 'panel-archive', values: {}, render: (form, status) => panelPage(request, reply, id, form, status) },
    );
  });

  app.post('/admin/expert-panels/panels/:id/members', admin, async (request, reply) => {
    const id = idParam(request);
    const body = bodyOf(request);
    return act(
      request,
      reply,
      async () => {
        const { deps, viewer } = call(request);
        await addPanelMember(deps, viewer, id, body.who);
        return { done: 'memberAdded', path: `/admin/expert-panels/panels/${id}` };
      },
      { key: 'member-add', values: keep(body, ['who']), render: (form, status) => panelPage(request, reply, id, form, status) },
    );
  });

  app.post('/admin/expert-panels/panels/:id/members/:userId/remove', admin, async (request, reply) => {
    const id = idParam(request);
    const userId = idParam(request, 'userId');
    return act(
      request,
      reply,
      async () => {
        const { deps, viewer } = call(request);
        await removePanelMember(deps, viewer, id, userId);
        return { done: 'memberRemoved', path: `/admin/expert-panels/panels/${id}` };
      },
      { key: 'member-remove', values: {}, render: (form, status) => panelPage(request, reply, id, form, status) },
    );
  });

  // ---- Batches and questions ----

  const batchesPage = (request: FastifyRequest, reply: FastifyReply, form?: EpForm, status?: number) =>
    page(request, reply, t('expertPanelsAdmin.titles.batches'), async () => {
      const { deps, viewer } = call(request);
      const { filters, searchError, searchTyped, after } = batchQueryOf(request.query as Record<string, unknown>, t);
      const [page, panels] = await Promise.all([batchBoard(deps, viewer, filters, { after }), listPanels(deps, viewer)]);
      return <EpBatches batches={page.rows} next={page.next} after={after} filters={filters} searchError={searchError} searchTyped={searchTyped} panels={panels} notice={form ? undefined : noticeOf(request)} form={form} />;
    }, status);

  app.get('/admin/expert-panels/batches', admin, async (request, reply) => batchesPage(request, reply));

  app.post('/admin/expert-panels/batches', admin, async (request, reply) => {
    const body = bodyOf(request);
    return act(
      request,
      reply,
      async () => {
        const { deps, viewer } = call(request);
        const id = await createBatch(deps, viewer, body);
        return { done: 'batchCreated', path: `/admin/expert-panels/batches/${id}` };
      },
      { key: 'batch-new', values: keep(body, ['panelId', 'title', 'deadline']), render: (form, status) => batchesPage(request, reply, form, status) },
    );
  });

  const batchPage = (request: FastifyRequest, reply: FastifyReply, id: number, form?: EpForm, status?: number) =>
    page(request, reply, t('expertPanelsAdmin.titles.batch'), async () => {
      const { deps, viewer } = call(request);
      const batch = await getBatch(deps, viewer, id);
      const questions = batch.questions.map((q) => ({ ...q, briefText: htmlToText(q.briefHtml), guidelinesText: htmlToText(q.guidelinesHtml) }));
      return <EpBatch batch={batch} questions={questions} notice={form ? undefined : noticeOf(request)} form={form} />;
    }, status);

  app.get('/admin/expert-panels/batches/:id', admin, async (request, reply) => batchPage(request, reply, idParam(request)));

  const QUESTION_FIELDS = ['title', 'brief', 'guidelines'] as const;
  const questionInput = (body: Body) => ({ title: body.title, brief: textToHtml(str(body.brief)), guidelines: textToHtml(str(body.guidelines)) });

  app.post('/admin/expert-panels/batches/:id/questions', admin, async (request, reply) => {
    const id = idParam(request);
    const body = bodyOf(request);
    return act(
      request,
      reply,
      async () => {
        const { deps, viewer } = call(request);
        const qid = await addQuestion(deps, viewer, id, questionInput(body));
        return { done: 'questionAdded', path: `/admin/expert-panels/batches/${id}#question-${qid}` };
      },
      { key: 'question-new', values: keep(body, QUESTION_FIELDS), render: (form, status) => batchPage(request, reply, id, form, status) },
    );
  });

  app.post('/admin/expert-panels/batches/:id/send', admin, async (request, reply) => {
    const id = idParam(request);
    return act(
      request,
      reply,
      async () => {
        const { deps, viewer } = call(request);
        await sendBatch(deps, viewer, id);
        return { done: 'batchSent', path: `/admin/expert-panels/batches/${id}` };
      },
      { key: 'send', values: {}, render: (form, status) => batchPage(request, reply, id, form, status) },
    );
  });

  /** A question's action: its batch page comes back (found through the question, this community's only). */
  const questionAction = (action: 'save' | 'remove' | 'close' | 'reopen') => async (request: FastifyRequest, reply: FastifyReply) => {
    const id = idParam(request);
    const body = bodyOf(request);
    const { deps, viewer } = call(request);
    const { batchId } = await questionSummary(deps, viewer, id);
    return act(
      request,
      reply,
      async () => {
        if (action === 'save') await updateQuestion(deps, viewer, id, questionInput(body));
        if (action === 'remove') await removeQuestion(deps, viewer, id);
        if (action === 'close') await closeQuestion(deps, viewer, id);
        if (action === 'reopen') await reopenQuestion(deps, viewer, id);
        const done: Done = action === 'save' ? 'questionSaved' : action === 'remove' ? 'questionRemoved' : action === 'close' ? 'questionClosed' : 'questionReopened';
        return { done, path: `/admin/expert-panels/batches/${batchId}${action === 'remove' ? '' : `#question-${id}`}` };
      },
      { key: `question-${id}`, values: action === 'save' ? keep(body, QUESTION_FIELDS) : {}, render: (form, status) => batchPage(request, reply, batchId, form, status) },
    );
  };

  app.post('/admin/expert-panels/questions/:id', admin, questionAction('save'));
  app.post('/admin/expert-panels/questions/:id/remove', admin, questionAction('remove'));
  app.post('/admin/expert-panels/questions/:id/close', admin, questionAction('close'));
  app.post('/admin/expert-panels/questions/:id/reopen', admin, questionAction('reopen'));

  // ---- Answers ----

  /** The board's filters from the query string; a search that cannot be used is shown beside the field and ignored. */
  const filtersOf = (request: FastifyRequest): { filters: AnswerFilters; searchError?: string } => {
    const q = request.query as Record<string, unknown>;
    try {
      return { filters: answerFiltersOf(q) };
    } catch (e) {
      if (!isAppError(e) || !e.fields?.q) throw e;
      return { filters: answerFiltersOf({ ...q, q: undefined }), searchError: t(e.fields.q.key, e.fields.q.values) };
    }
  };

  app.get('/admin/expert-panels/answers', admin, async (request, reply) =>
    page(request, reply, t('expertPanelsAdmin.titles.answers'), async () => {
      const { deps, viewer } = call(request);
      const { filters, searchError } = filtersOf(request);
      const afterRaw = (request.query as Record<string, unknown>).after;
      const after = typeof afterRaw === 'string' && afterRaw.length <= 40 ? afterRaw : null;
      const [board, panels, question] = await Promise.all([
        answerBoard(deps, viewer, filters, { after }),
        listPanels(deps, viewer),
        filters.questionId ? questionSummary(deps, viewer, filters.questionId) : Promise.resolve(null),
      ]);
      return <EpAnswers rows={board.rows} next={board.next} after={after} filters={filters} panels={panels} question={question} searchError={searchError} />;
    }),
  );

  app.get('/admin/expert-panels/answers/export.csv', admin, async (request, reply) => {
    const { deps, viewer } = call(request);
    const { filters } = filtersOf(request);
    const rows = await answersForExport(deps, viewer, filters);
    const csv = toCsv(
      ['id', 'question', 'panel', 'member', 'email', 'company', 'status', 'words', 'submitted', 'decided', 'score', 'text'].map((c) => t(`expertPanelsAdmin.csv.${c}`)),
      rows.map((r) => [r.id, r.questionTitle, r.panelName, r.member.name, r.email, r.member.companyName, r.status, r.wordCount, r.submittedAt, r.decidedAt, r.scan?.aggregatedScore ?? null, r.text]),
    );
    const code = request.community.code.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="expert-answers-${code}-${app.clock.now().toISOString().slice(0, 10)}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });

  const answerPage = (request: FastifyRequest, reply: FastifyReply, id: number, form?: EpForm, status?: number) =>
    page(request, reply, t('expertPanelsAdmin.titles.answer'), async () => {
      const { deps, viewer } = call(request);
      const answer = await getAnswer(deps, viewer, id);
      return <EpAnswer answer={answer} bodyText={htmlToText(answer.bodyHtml)} notice={form ? undefined : noticeOf(request)} form={form} />;
    }, status);

  app.get('/admin/expert-panels/answers/:id', admin, async (request, reply) => answerPage(request, reply, idParam(request)));

  app.post('/admin/expert-panels/answers/:id/review', admin, async (request, reply) => {
    const id = idParam(request);
    return act(
      request,
      reply,
      async () => {
        const { deps, viewer } = call(request);
        await startReview(deps, viewer, id);
        return { done: 'reviewStarted', path: `/admin/expert-panels/answers/${id}` };
      },
      { key: 'review', values: {}, render: (form, status) => answerPage(request, reply, id, form, status) },
    );
  });

  app.post('/admin/expert-panels/answers/:id/edit', admin, async (request, reply) => {
    const id = idParam(request);
    const body = bodyOf(request);
    return act(
      request,
      reply,
      async () => {
        const { deps, viewer } = call(request);
        await editAnswer(deps, viewer, id, { body: textToHtml(str(body.body).slice(0, 200_000)) });
        return { done: 'answerEdited', path: `/admin/expert-panels/answers/${id}` };
      },
      { key: 'edit', values: keep(body, ['body']), render: (form, status) => answerPage(request, reply, id, form, status) },
    );
  });

  app.post('/admin/expert-panels/answers/:id/decide', admin, async (request, reply) => {
    const id = idParam(request);
    const body = bodyOf(request);
    return act(
      request,
      reply,
      async () => {
        const { deps, viewer } = call(request);
        const status = await decideAnswer(deps, viewer, id, decisionOf(body.decision), body.note);
        return { done: status === 'accepted' ? 'accepted' : 'declined', path: `/admin/expert-panels/answers/${id}` };
      },
      { key: 'decide', values: keep(body, ['note']), render: (form, status) => answerPage(request, reply, id, form, status) },
    );
  });
}
