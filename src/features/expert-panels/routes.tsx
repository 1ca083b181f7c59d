import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, isAppError } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import { countWords } from '#src/lib/plain-text.ts';
import { htmlToText, textToHtml } from '#src/lib/rich-text.ts';
import { withAlert } from '#src/lib/alerts.ts';
import { field, formOf, id, paramsOf, queryOf } from '#src/lib/form.ts';
import { isHtmx } from '#src/lib/negotiation.ts';
import { EpLive, QuestionList, QuestionRow } from '#src/features/expert-panels/views/QuestionList.tsx';
import { QuestionNotFound, QuestionPage, type AnswerFormState } from '#src/features/expert-panels/views/QuestionPage.tsx';
import { markAnswer, submitAnswer } from './answers.ts';
import { epDeps, epViewer } from './deps.ts';
import { questionPath } from './queries.ts';
import { getQuestion, listMemberQuestions, memberQuestionRow } from './questions.ts';
import { MEMBER_TABS } from './rules.ts';

/** The member's list: a tab and a page as sent (the service refuses an unknown tab or a bad cursor: 400). */
const ListQuery = z.object({ tab: z.string().optional(), after: z.string().optional() });
/** `/expert-panels/:questionId`: not an id is the same 'Question not found' as a question not sent to this member. */
const QuestionParams = z.object({ questionId: id });
const questionNotFound = () => new AppError('ExpertPanels.QuestionNotFound');
/** The question's page, in edit mode (`?edit=1`) or not. */
const QuestionQuery = z.object({ edit: z.string().optional().catch(undefined) });
/** An answer as typed (the service checks it, beside the field), and whether it was an edit. */
const AnswerForm = z.object({ body: field(), editing: field() });
/** "Can't answer" or "Ignore" (anything else is refused by the service). */
const MarkForm = z.object({ mark: field() });

type PageExtra = { form?: AnswerFormState; editing?: boolean; error?: string; status?: number };

/** A refusal the page shows (a 4xx of ours), else rethrown (not found, signed out, 5xx go to the error handler). */
const shownOnPage = (e: unknown): e is AppError => isAppError(e) && e.status < 500 && e.code !== 'ExpertPanels.QuestionNotFound' && e.code !== 'NotAuthenticated' && e.code !== 'NotFound';

/**
 * The member's expert-panel pages (issue 15): their questions by tab (`/expert-panels`) and one
 * question with its answer form (`/expert-panels/{questionId}`). Forms are plain POSTs answered by a
 * redirect (303) with an alert, or by the same page with the message beside the field and the text
 * as typed.
 */
export default async function expertPanelRoutes(app: FastifyInstance) {
  const t = app.t;
  const member = { config: { access: 'member' as const } };

  // A question not sent to this member, another community's or a missing one: 'Question not found'.
  app.setErrorHandler(async (err, request, reply) => {
    if (isAppError(err) && err.code === 'ExpertPanels.QuestionNotFound' && !isHtmx(request)) {
      return reply.page({ title: t(err.key), body: <QuestionNotFound message={t(err.key)} />, status: 404 });
    }
    throw err;
  });

  app.get('/expert-panels', member, async (request, reply) => {
    const query = queryOf(ListQuery, request);
    const page = await listMemberQuestions(epDeps(request), epViewer(request), { tab: query.tab ?? 'open', after: query.after });
    const older = new URLSearchParams();
    if (page.tab !== 'open') older.set('tab', page.tab);
    if (page.next) older.set('after', page.next);
    return reply.page({
      title: t('expertPanels.list.title'),
      htmx: true,
      body: <QuestionList tab={page.tab} tabs={MEMBER_TABS} counts={page.counts} rows={page.rows} olderHref={page.next ? `/expert-panels?${older.toString()}` : null} />,
    });
  });

  async function questionPage(request: FastifyRequest, reply: FastifyReply, questionId: number, extra: PageExtra = {}) {
    const question = await getQuestion(epDeps(request), epViewer(request), questionId);
    const a = question.answer;
    const editing = Boolean(extra.editing) && a.editable && a.status === 'submitted';
    let form: AnswerFormState | null = null;
    if (a.editable && (a.status !== 'submitted' || editing)) {
      form = extra.form ?? (editing ? { value: htmlToText(a.bodyHtml), words: a.wordCount } : { value: '', words: 0 });
    }
    return reply.page({ title: question.title, status: extra.status, body: <QuestionPage question={question} form={form} editing={editing} error={extra.error} /> });
  }

  const idOf = (request: FastifyRequest) => paramsOf(QuestionParams, request, questionNotFound).questionId;

  app.get('/expert-panels/:questionId', member, async (request, reply) => {
    const id = idOf(request);
    return questionPage(request, reply, id, { editing: queryOf(QuestionQuery, request).edit === '1' });
  });

  app.post('/expert-panels/:questionId/answer', member, async (request, reply) => {
    const id = idOf(request);
    const form = formOf(AnswerForm, request);
    const typed = form.body;
    const editing = form.editing === '1';
    try {
      ensureText({ body: typed }, ['body']);
      const saved = await submitAnswer(epDeps(request), epViewer(request), id, { body: textToHtml(typed) });
      return reply.redirectTo(withAlert(questionPath(id), saved.answer.editedAt ? 'expert-answer-updated' : 'expert-answer-submitted'));
    } catch (e) {
      if (!shownOnPage(e)) throw e;
      const field = e.fields?.body;
      // A message about the text goes beside the field, with the text as typed; any other on top.
      if (field) {
        const words = countWords(textToHtml(typed));
        return questionPage(request, reply, id, { editing, form: { value: typed, error: t(field.key, field.values), words }, status: e.status });
      }
      return questionPage(request, reply, id, { editing, error: t(e.key, e.values), status: e.status });
    }
  });

  /**
   * "Can't answer" / "Ignore": a plain POST goes back to the list with its alert (or, refused, to the
   * question's page with the message); with htmx (from the list) the row alone comes back, its new
   * state shown, and the polite live region says what happened. A refusal comes back as the row with
   * the message beside its buttons (htmx swaps only a 2xx answer).
   */
  app.post('/expert-panels/:questionId/mark', member, async (request, reply) => {
    const id = idOf(request);
    const { mark } = formOf(MarkForm, request);
    const deps = epDeps(request);
    const viewer = epViewer(request);
    try {
      await markAnswer(deps, viewer, id, mark);
    } catch (e) {
      if (!shownOnPage(e) || e.code === 'ExpertPanels.Invalid') throw e;
      if (isHtmx(request)) return reply.fragment(<QuestionRow row={await memberQuestionRow(deps, viewer, id)} error={t(e.key, e.values)} />);
      return questionPage(request, reply, id, { error: t(e.key, e.values), status: e.status });
    }
    if (isHtmx(request)) {
      const row = await memberQuestionRow(deps, viewer, id);
      return reply.fragment(
        <>
          <QuestionRow row={row} />
          <EpLive text={t(mark === 'ignored' ? 'expertPanels.list.liveIgnored' : 'expertPanels.list.liveCantAnswer', { title: row.title })} />
        </>,
      );
    }
    return reply.redirectTo(withAlert('/expert-panels', mark === 'ignored' ? 'expert-question-ignored' : 'expert-question-cant-answer'));
  });
}
