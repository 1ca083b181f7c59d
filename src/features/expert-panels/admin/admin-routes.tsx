import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { z } from 'zod';
import { isAppError } from '#src/core/errors.ts';
import { withDone } from '#src/lib/admin/act.ts';
import { toCsv } from '#src/lib/csv.ts';
import { htmlToText, textToHtml } from '#src/lib/rich-text.ts';
import { field, formOf, id, idParams, optionalId, paramsOf, queryOf } from '#src/lib/form.ts';
import { EpAnswer, EpAnswers } from '#src/features/expert-panels/views/admin/answers.tsx';
import { EpBatch, EpBatches } from '#src/features/expert-panels/views/admin/batches.tsx';
import type { EpForm } from '#src/features/expert-panels/views/admin/frame.tsx';
import { EpPanel, EpPanels } from '#src/features/expert-panels/views/admin/panels.tsx';
import { epDeps, epViewer, type EpDeps, type EpViewer } from '../deps.ts';
import type { AnswerFilters } from './admin-types.ts';
import { addQuestion, closeQuestion, createBatch, getBatch, questionSummary, removeQuestion, reopenQuestion, sendBatch, updateQuestion } from './batches.ts';
import { batchBoard, batchQueryOf } from './question-board.ts';
import { addPanelMember, createPanel, getPanel, listPanels, removePanelMember, setPanelArchived, updatePanel } from './panels.ts';
import { editorPosts } from './form-post.ts';
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

/** `?done=<key>`: the notice an action came back with; anything else shows none. */
const DoneQuery = z.object({ done: z.enum(DONE).optional().catch(undefined) });

/** The edge schemas of the area's forms: fields as typed (the services check them and name the field). */
const PanelForm = z.object({ name: field(), topic: field(), minWords: field(), maxWords: field() });
const ArchiveForm = z.object({ archived: z.enum(['true', 'false']).transform((v) => v === 'true') });
const MemberForm = z.object({ who: field() });
const MemberParams = z.object({ id, userId: id });
const BatchForm = z.object({ panelId: field(), title: field(), deadline: field() });
const QuestionForm = z.object({ title: field(), brief: field(), guidelines: field() });
const AnswerEditForm = z.object({ body: field() });
const DecisionForm = z.object({ decision: field(), note: field() });
/** The answers' board: filters that do not fit are dropped (the search is checked by the service, beside its field). */
const AnswersQuery = z.object({
  status: z.string().optional().catch(undefined),
  panelId: optionalId.catch(null),
  questionId: optionalId.catch(null),
  q: z.string().optional().catch(undefined),
  sort: z.string().optional().catch(undefined),
  after: z
    .string()
    .max(40)
    .optional()
    .catch(undefined)
    .transform((v) => v ?? null),
});

/** The batches list: filters and a page as the links carry them; what does not fit is dropped. */
const BatchesQuery = z.object({
  panelId: optionalId.catch(null),
  state: z.string().optional().catch(undefined),
  q: z.string().optional().catch(undefined),
  after: z.string().optional().catch(undefined),
});

/** What was typed, kept for the form that comes back (cut to a sane length). */
const keep = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([n, v]) => [n, v.slice(0, 120_000)]));

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
    const { done } = queryOf(DoneQuery, request);
    return done ? t(`expertPanelsAdmin.done.${done}`) : undefined;
  };
  const call = (request: FastifyRequest) => {
    request.guardian.ensureAdmin();
    return { deps: epDeps(request), viewer: epViewer(request) };
  };

  async function page(request: FastifyRequest, reply: FastifyReply, title: string, body: () => Promise<ReactNode>, status?: number) {
    request.guardian.ensureAdmin();
    return reply.page({ title, body: await body(), status });
  }

  /**
   * One form POST of this area: which form it is (`key`), what was typed to keep, the page it comes
   * back on when refused, and what it does (the notice and the way back); see ./form-post.ts.
   */
  type Action = {
    key: string;
    keep?: Record<string, string>;
    page: (form: EpForm, status: number) => Promise<unknown>;
    run: (deps: EpDeps, viewer: EpViewer) => Promise<readonly [Done, string]>;
  };
  const editorPost = editorPosts<Done>(app, { formLevel: ['ExpertPanels.BatchSent', 'ExpertPanels.NotInReview', 'ExpertPanels.RoundupPublished', 'ExpertPanels.Busy'], back: withDone });
  const post = (url: string, action: (request: FastifyRequest, reply: FastifyReply) => Action | Promise<Action>) =>
    editorPost(url, async (request, reply) => {
      const a = await action(request, reply);
      return { values: a.keep ? keep(a.keep) : {}, page: (refused, status) => a.page({ key: a.key, values: refused.values ?? {}, errors: refused.errors }, status), run: a.run };
    });

  // ---- Panels ----

  const panelsPage = (request: FastifyRequest, reply: FastifyReply, form?: EpForm, status?: number) =>
    page(request, reply, t('expertPanelsAdmin.titles.panels'), async () => {
      const { deps, viewer } = call(request);
      return <EpPanels panels={await listPanels(deps, viewer)} notice={form ? undefined : noticeOf(request)} form={form} />;
    }, status);

  app.get('/admin/expert-panels', admin, async (request, reply) => panelsPage(request, reply));

  post('/admin/expert-panels/panels', (request, reply) => {
    const form = formOf(PanelForm, request);
    return {
      key: 'panel-new',
      keep: form,
      page: (again, status) => panelsPage(request, reply, again, status),
      run: async (deps, viewer) => ['panelCreated', `/admin/expert-panels/panels/${await createPanel(deps, viewer, form)}`],
    };
  });

  const panelPage = (request: FastifyRequest, reply: FastifyReply, id: number, form?: EpForm, status?: number) =>
    page(request, reply, t('expertPanelsAdmin.titles.panel'), async () => {
      const { deps, viewer } = call(request);
      return <EpPanel panel={await getPanel(deps, viewer, id)} notice={form ? undefined : noticeOf(request)} form={form} />;
    }, status);

  app.get('/admin/expert-panels/panels/:id', admin, async (request, reply) => panelPage(request, reply, paramsOf(idParams, request).id));

  /** An action on one panel: its page, back and again. */
  const onPanel = (request: FastifyRequest, reply: FastifyReply, key: string, run: (deps: EpDeps, viewer: EpViewer, id: number) => Promise<Done>, typed?: Record<string, string>): Action => {
    const { id } = paramsOf(idParams, request);
    return { key, keep: typed, page: (form, status) => panelPage(request, reply, id, form, status), run: async (deps, viewer) => [await run(deps, viewer, id), `/admin/expert-panels/panels/${id}`] };
  };

  post('/admin/expert-panels/panels/:id', (request, reply) => {
    paramsOf(idParams, request);
    const form = formOf(PanelForm, request);
    return onPanel(request, reply, 'panel-edit', async (deps, viewer, id) => (await updatePanel(deps, viewer, id, form), 'panelSaved'), form);
  });

  post('/admin/expert-panels/panels/:id/archive', (request, reply) => {
    paramsOf(idParams, request);
    const { archived } = formOf(ArchiveForm, request);
    return onPanel(request, reply, 'panel-archive', async (deps, viewer, id) => (await setPanelArchived(deps, viewer, id, archived), archived ? 'panelArchived' : 'panelUnarchived'));
  });

  post('/admin/expert-panels/panels/:id/members', (request, reply) => {
    paramsOf(idParams, request);
    const form = formOf(MemberForm, request);
    return onPanel(request, reply, 'member-add', async (deps, viewer, id) => (await addPanelMember(deps, viewer, id, form.who), 'memberAdded'), form);
  });

  post('/admin/expert-panels/panels/:id/members/:userId/remove', (request, reply) => {
    const { userId } = paramsOf(MemberParams, request);
    return onPanel(request, reply, 'member-remove', async (deps, viewer, id) => (await removePanelMember(deps, viewer, id, userId), 'memberRemoved'));
  });

  // ---- Batches and questions ----

  const batchesPage = (request: FastifyRequest, reply: FastifyReply, form?: EpForm, status?: number) =>
    page(request, reply, t('expertPanelsAdmin.titles.batches'), async () => {
      const { deps, viewer } = call(request);
      const { filters, searchError, searchTyped, after } = batchQueryOf(queryOf(BatchesQuery, request), t);
      const [page, panels] = await Promise.all([batchBoard(deps, viewer, filters, { after }), listPanels(deps, viewer)]);
      return <EpBatches batches={page.rows} next={page.next} after={after} filters={filters} searchError={searchError} searchTyped={searchTyped} panels={panels} notice={form ? undefined : noticeOf(request)} form={form} />;
    }, status);

  app.get('/admin/expert-panels/batches', admin, async (request, reply) => batchesPage(request, reply));

  post('/admin/expert-panels/batches', (request, reply) => {
    const form = formOf(BatchForm, request);
    return {
      key: 'batch-new',
      keep: form,
      page: (again, status) => batchesPage(request, reply, again, status),
      run: async (deps, viewer) => ['batchCreated', `/admin/expert-panels/batches/${await createBatch(deps, viewer, form)}`],
    };
  });

  const batchPage = (request: FastifyRequest, reply: FastifyReply, id: number, form?: EpForm, status?: number) =>
    page(request, reply, t('expertPanelsAdmin.titles.batch'), async () => {
      const { deps, viewer } = call(request);
      const batch = await getBatch(deps, viewer, id);
      const questions = batch.questions.map((q) => ({ ...q, briefText: htmlToText(q.briefHtml), guidelinesText: htmlToText(q.guidelinesHtml) }));
      return <EpBatch batch={batch} questions={questions} notice={form ? undefined : noticeOf(request)} form={form} />;
    }, status);

  app.get('/admin/expert-panels/batches/:id', admin, async (request, reply) => batchPage(request, reply, paramsOf(idParams, request).id));

  const questionInput = (form: z.infer<typeof QuestionForm>) => ({ title: form.title, brief: textToHtml(form.brief), guidelines: textToHtml(form.guidelines) });

  post('/admin/expert-panels/batches/:id/questions', (request, reply) => {
    const { id } = paramsOf(idParams, request);
    const form = formOf(QuestionForm, request);
    return {
      key: 'question-new',
      keep: form,
      page: (again, status) => batchPage(request, reply, id, again, status),
      run: async (deps, viewer) => ['questionAdded', `/admin/expert-panels/batches/${id}#question-${await addQuestion(deps, viewer, id, questionInput(form))}`],
    };
  });

  post('/admin/expert-panels/batches/:id/send', (request, reply) => {
    const { id } = paramsOf(idParams, request);
    return { key: 'send', page: (form, status) => batchPage(request, reply, id, form, status), run: async (deps, viewer) => (await sendBatch(deps, viewer, id), ['batchSent', `/admin/expert-panels/batches/${id}`]) };
  });

  /** A question's action: its batch page comes back (found through the question, this community's only). */
  const onQuestion = (action: 'save' | 'remove' | 'close' | 'reopen') => async (request: FastifyRequest, reply: FastifyReply): Promise<Action> => {
    const { id } = paramsOf(idParams, request);
    const form = action === 'save' ? formOf(QuestionForm, request) : null;
    const { deps, viewer } = call(request);
    const { batchId } = await questionSummary(deps, viewer, id);
    return {
      key: `question-${id}`,
      keep: form ?? undefined,
      page: (form, status) => batchPage(request, reply, batchId, form, status),
      run: async (deps, viewer) => {
        if (form) await updateQuestion(deps, viewer, id, questionInput(form));
        if (action === 'remove') await removeQuestion(deps, viewer, id);
        if (action === 'close') await closeQuestion(deps, viewer, id);
        if (action === 'reopen') await reopenQuestion(deps, viewer, id);
        const done: Done = action === 'save' ? 'questionSaved' : action === 'remove' ? 'questionRemoved' : action === 'close' ? 'questionClosed' : 'questionReopened';
        return [done, `/admin/expert-panels/batches/${batchId}${action === 'remove' ? '' : `#question-${id}`}`];
      },
    };
  };

  post('/admin/expert-panels/questions/:id', onQuestion('save'));
  post('/admin/expert-panels/questions/:id/remove', onQuestion('remove'));
  post('/admin/expert-panels/questions/:id/close', onQuestion('close'));
  post('/admin/expert-panels/questions/:id/reopen', onQuestion('reopen'));

  // ---- Answers ----

  /** The board's filters from the query string; a search that cannot be used is shown beside the field and ignored. */
  const filtersOf = (request: FastifyRequest): { filters: AnswerFilters; searchError?: string } => {
    const q = queryOf(AnswersQuery, request);
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
      const { after } = queryOf(AnswersQuery, request);
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

  app.get('/admin/expert-panels/answers/:id', admin, async (request, reply) => answerPage(request, reply, paramsOf(idParams, request).id));

  /** An action on one answer: its page, back and again. */
  const onAnswer = (request: FastifyRequest, reply: FastifyReply, key: string, run: (deps: EpDeps, viewer: EpViewer, id: number) => Promise<Done>, typed?: Record<string, string>): Action => {
    const { id } = paramsOf(idParams, request);
    return { key, keep: typed, page: (form, status) => answerPage(request, reply, id, form, status), run: async (deps, viewer) => [await run(deps, viewer, id), `/admin/expert-panels/answers/${id}`] };
  };

  post('/admin/expert-panels/answers/:id/review', (request, reply) => onAnswer(request, reply, 'review', async (deps, viewer, id) => (await startReview(deps, viewer, id), 'reviewStarted')));

  post('/admin/expert-panels/answers/:id/edit', (request, reply) => {
    paramsOf(idParams, request);
    const form = formOf(AnswerEditForm, request);
    return onAnswer(request, reply, 'edit', async (deps, viewer, id) => (await editAnswer(deps, viewer, id, { body: textToHtml(form.body.slice(0, 200_000)) }), 'answerEdited'), form);
  });

  post('/admin/expert-panels/answers/:id/decide', (request, reply) => {
    paramsOf(idParams, request);
    const form = formOf(DecisionForm, request);
    return onAnswer(request, reply, 'decide', async (deps, viewer, id) => ((await decideAnswer(deps, viewer, id, decisionOf(form.decision), form.note)) === 'accepted' ? 'accepted' : 'declined'), { note: form.note });
  });
}
