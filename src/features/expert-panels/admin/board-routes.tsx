import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, isAppError } from '#src/core/errors.ts';
import { toCsv } from '#src/lib/csv.ts';
import { field, formOf, idParams, optionalId, paramsOf, queryOf } from '#src/lib/form.ts';
import { COUNT_COLUMNS, EpQuestions, questionsParams } from '#src/features/expert-panels/views/admin/questions.tsx';
import { epDeps, epViewer } from '../deps.ts';
import type { QuestionFilters } from './admin-types.ts';
import { closeQuestion, reopenQuestion } from './batches.ts';
import { listPanels } from './panels.ts';
import { afterOf, batchTitle, typedSearch, questionBoard, questionFiltersOf, questionsForExport } from './question-board.ts';

const PATH = '/admin/expert-panels/questions';
const DONE = ['questionClosed', 'questionReopened'] as const;

/** The board's filters and page, as a query string carries them: what does not fit is dropped (the search is checked beside its field). */
const BoardFilters = {
  panelId: optionalId.catch(null),
  batchId: optionalId.catch(null),
  state: z.string().optional().catch(undefined),
  status: z.string().optional().catch(undefined),
  q: z.string().optional().catch(undefined),
  sort: z.string().optional().catch(undefined),
  after: z.string().optional().catch(undefined),
};
const BoardQuery = z.object({ ...BoardFilters, done: z.enum(DONE).optional().catch(undefined) });
/** Close or reopen from the board, with the filters and page it was on (cut to a sane length). */
const BoardForm = z.object({
  ...BoardFilters,
  action: z.enum(['close', 'reopen']),
  q: field().transform((v) => v.slice(0, 1000)),
});

/**
 * The editors' questions board (issue 15), staff only: every question of the community's panels and
 * batches with filters, search, sort, keyset pages and CSV, and close/reopen per row. The buttons are
 * plain POSTs (CSRF by the plugins) calling the same services as the batch page and GraphQL, then a
 * 303 back to the board with the filters and page it was on.
 */
export default async function expertPanelsBoardRoutes(app: FastifyInstance) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };

  const call = (request: FastifyRequest) => {
    request.guardian.ensureAdmin();
    return { deps: epDeps(request), viewer: epViewer(request) };
  };

  /** The filters from a query string or a form; a search that cannot be used is shown beside the field and ignored. */
  const filtersOf = (raw: Record<string, unknown>): { filters: QuestionFilters; searchError?: string; searchTyped?: string } => {
    try {
      return { filters: questionFiltersOf(raw) };
    } catch (e) {
      if (!isAppError(e) || !e.fields?.q) throw e;
      return { filters: questionFiltersOf({ ...raw, q: undefined }), searchError: t(e.fields.q.key, e.fields.q.values), searchTyped: typedSearch(raw.q) };
    }
  };

  app.get(PATH, admin, async (request, reply) => {
    const { deps, viewer } = call(request);
    const query = queryOf(BoardQuery, request);
    const { filters, searchError, searchTyped } = filtersOf(query);
    const after = searchError ? null : afterOf(query.after);
    const [board, panels, batch] = await Promise.all([
      questionBoard(deps, viewer, filters, { after }),
      listPanels(deps, viewer),
      filters.batchId ? batchTitle(deps, viewer, filters.batchId) : Promise.resolve(null),
    ]);
    const done = query.done ? t(`expertPanelsAdmin.done.${query.done}`) : undefined;
    return reply.page({
      title: t('expertPanelsAdmin.titles.questions'),
      status: searchError ? 400 : 200,
      body: <EpQuestions rows={board.rows} next={board.next} after={after} filters={filters} panels={panels} batch={batch} notice={done} searchError={searchError} searchTyped={searchTyped} />,
    });
  });

  app.get(`${PATH}/export.csv`, admin, async (request, reply) => {
    const { deps, viewer } = call(request);
    const { filters, searchError } = filtersOf(queryOf(BoardQuery, request));
    if (searchError) throw new AppError('BadRequest.Validation');
    const rows = await questionsForExport(deps, viewer, filters);
    const csv = toCsv(
      ['id', 'question', 'panel', 'batch', 'deadline', 'state', ...COUNT_COLUMNS, 'closed', 'created'].map((c) => t(`expertPanelsAdmin.csvQuestions.${c}`)),
      rows.map((r) => [r.id, r.title, r.panelName, r.batchTitle, r.deadlineAt, t(`expertPanelsAdmin.questionState.${r.state}`), ...COUNT_COLUMNS.map((s) => r.counts[s]), r.closedAt, r.createdAt]),
    );
    const code = request.community.code.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="expert-questions-${code}-${app.clock.now().toISOString().slice(0, 10)}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });

  /** Close or reopen from the board (`action`), then back to the board as it was (the filters and page sent with the button). */
  app.post(`${PATH}/:id/board`, admin, async (request, reply) => {
    const { id } = paramsOf(idParams, request);
    const body = formOf(BoardForm, request);
    const action = body.action;
    const { deps, viewer } = call(request);
    if (action === 'close') await closeQuestion(deps, viewer, id);
    else await reopenQuestion(deps, viewer, id);
    const { filters, searchError } = filtersOf({ panelId: body.panelId, batchId: body.batchId, state: body.state, q: body.q, sort: body.sort });
    const after = searchError ? null : afterOf(body.after);
    const qs = [questionsParams(searchError ? { ...filters, q: null } : filters), after ? `after=${encodeURIComponent(after)}` : '', `done=${action === 'close' ? 'questionClosed' : 'questionReopened'}`].filter(Boolean).join('&');
    return reply.redirectTo(`${PATH}?${qs}#question-row-${id}`);
  });
}
