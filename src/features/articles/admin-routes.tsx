import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '#src/core/errors.ts';
import { canEditorEditText } from './guardian.ts';
import { ArticlesBoard } from '#src/features/articles/views/admin/board.tsx';
import { ArticleDetail, type FeedbackView, type TextForm } from '#src/features/articles/views/admin/detail.tsx';
import { BlackoutWindows, ProgramSettingsPage } from '#src/features/articles/views/admin/settings.tsx';
import { scanForRequest } from './copy-scan/stored.ts';
import { toCsv } from '#src/lib/csv.ts';
import { defaultPair, diffRevisions } from './diff.ts';
import { htmlToPlainParagraphs, plainParagraphsToHtml } from './plain.ts';
import { articleDeps, personOf } from './routes.tsx';
import { ARTICLE_STATUSES, type ArticleStatus } from './rules.ts';
import { addBlackoutWindow, deleteBlackout, listBlackoutWindows } from './blackouts.ts';
import { assignEditor, editArticleTextFromBoard, editorMoves, listRevisions, listStatusEvents, moveArticle } from './review.ts';
import { createFeedback, listFeedback, markFeedbackRead } from './feedback.ts';
import { exportBoard, latestCopyScan, listEditors, searchBoard, type BoardQuery } from './board.ts';
import { getArticle } from './queries.ts';
import { saveProgramSettings } from './byline-terms.ts';
import { cleanRichText } from '#src/lib/rich-text.ts';
import { field, formOf, idParams, optionalId, paramsOf, queryOf } from '#src/lib/form.ts';
import { wantsJson } from '#src/lib/negotiation.ts';
import { parseId } from '#src/core/ids.ts';
import { z } from 'zod';

const isStatus = (v: unknown): v is ArticleStatus => typeof v === 'string' && (ARTICLE_STATUSES as readonly string[]).includes(v);

/**
 * The board's filters from the query string (the board, its next pages and the CSV export share
 * them): one schema at the edge. A filter that is not one of its kind is no filter (null), as links
 * from older pages may carry anything.
 */
const BoardQueryString = z.object({
  status: z.enum(ARTICLE_STATUSES).nullable().catch(null),
  editor: z.union([z.literal('none'), z.string().transform(parseId)]).nullable().catch(null),
  author: z.string().transform(parseId).nullable().catch(null),
  q: z
    .string()
    .transform((q) => q.slice(0, 200))
    .nullable()
    .catch(null),
  sort: z.enum(['newest', 'oldest']).catch('newest'),
  after: z.string().nullable().catch(null),
  before: z.string().nullable().catch(null),
});

function boardQueryOf(request: FastifyRequest): BoardQuery {
  return queryOf(BoardQueryString, request);
}

/** The notice a page shows after a redirect (`?done=`): anything else is no notice. */
const DoneQuery = z.object({ done: z.string().optional().catch(undefined) });

/**
 * The article page's query string: the page of remarks (`before`) and the two revisions to compare;
 * one that is not an id is none (the defaults), as links from older pages may carry anything.
 */
const DetailQuery = z.object({ before: optionalId.catch(null), from: optionalId.catch(null), to: optionalId.catch(null) });

const ProgramSettingsForm = z.object({ terms: field(), guidelines: field(), applicationUrl: field() });
const BlackoutForm = z.object({ startsOn: field(), endsBefore: field() });
/** The editor to assign: an id, or none ('' from the form's first option, null from the island). */
const AssignForm = z.object({ editorId: optionalId });
const MoveForm = z.object({ to: field(), scheduledDate: field(), articleUrl: field(), note: field() });
/** The island posts the rich text as `content`; the form without JavaScript, plain `body` paragraphs. */
const BoardTextForm = z.object({ title: field(), body: field(), content: z.string().max(1_048_576).optional(), revisionId: optionalId });
const BoardFeedbackForm = z.object({ feedback: field() });

/** The editors' side of articles in the admin area (ADMIN only). */
export default async function articleAdminRoutes(app: FastifyInstance) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };
  const fieldErrors = (e: AppError) => Object.fromEntries(Object.entries(e.fields ?? {}).map(([f, v]) => [f, t(v.key)]));

  app.get('/admin/articles', admin, async (request, reply) => {
    const query = boardQueryOf(request);
    const deps = articleDeps(request);
    const person = personOf(request);
    // Words that cannot be searched for (a control character) come back in the search field with the
    // message beside it, over the board as the other filters give it.
    let errors: { q?: string } = {};
    const board = await searchBoard(deps, person, query).catch((e: unknown) => {
      if (!isAppError(e) || !e.fields?.q) throw e;
      errors = { q: t(e.fields.q.key) };
      return searchBoard(deps, person, { ...query, q: null, after: null, before: null });
    });
    const editors = await listEditors(deps);
    return reply.page({
      title: t('admin.articles.title'),
      status: errors.q ? 400 : 200,
      body: (
        <ArticlesBoard rows={board.rows} query={query} statuses={ARTICLE_STATUSES} editors={editors} tooMany={board.tooMany} next={board.next} previous={board.previous} total={board.total} errors={errors} />
      ),
    });
  });

  // Static paths before /admin/articles/:id (find-my-way prefers them anyway; ids are digits only).
  app.get('/admin/articles/export.csv', admin, async (request, reply) => {
    const query = { ...boardQueryOf(request), after: null, before: null };
    const { rows, truncated } = await exportBoard(articleDeps(request), personOf(request), query);
    const name = (first: string | null, last: string | null) => (first === null ? '' : `${first} ${last ?? ''}`.trim());
    const csv = toCsv(
      ['id', 'title', 'status', 'authorName', 'authorEmail', 'editorName', 'wordCount', 'created', 'statusUpdated', 'scheduledDate', 'publishedDate', 'articleUrl'].map((c) => t(`admin.articles.csv.${c}`)),
      rows.map((r) => [
        r.id,
        r.title ?? '',
        r.status,
        name(r.author_first, r.author_last),
        r.author_email,
        name(r.editor_first, r.editor_last),
        r.word_count ?? 0,
        r.created_at,
        r.status_updated_at,
        r.scheduled_date,
        r.published_date,
        r.article_url,
      ]),
    );
    const code = request.community.code.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
    const filename = `articles-${code}-${app.clock.now().toISOString().slice(0, 10)}.csv`;
    if (truncated) reply.header('x-export-truncated', 'true');
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });

  async function blackoutsPage(request: FastifyRequest, reply: FastifyReply, extra: { values?: { startsOn: string; endsBefore: string }; errors?: Record<string, string>; notice?: string; status?: number } = {}) {
    const windows = await listBlackoutWindows(articleDeps(request), personOf(request));
    return reply.page({
      title: t('admin.articles.blackouts.title'),
      status: extra.status,
      body: (
        <BlackoutWindows
          windows={windows}
          today={app.clock.now().toISOString().slice(0, 10)}
          values={extra.values ?? { startsOn: '', endsBefore: '' }}
          errors={extra.errors ?? {}}
          notice={extra.notice}
        />
      ),
    });
  }

  app.get('/admin/articles/settings', admin, async (request, reply) => {
    const c = request.community;
    const notice = queryOf(DoneQuery, request).done === 'saved' ? t('admin.articles.settings.saved') : undefined;
    const values = { terms: c.article_terms ?? '', guidelines: c.article_guidelines ?? '', applicationUrl: c.article_application_url ?? '' };
    return reply.page({ title: t('admin.articles.settings.title'), body: <ProgramSettingsPage values={values} errors={{}} notice={notice} /> });
  });

  app.post('/admin/articles/settings', admin, async (request, reply) => {
    const { terms, guidelines, applicationUrl } = formOf(ProgramSettingsForm, request);
    const values = { terms, guidelines, applicationUrl };
    try {
      await saveProgramSettings(articleDeps(request), personOf(request), values);
      // Every process caches communities for a few seconds; this one forgets them now.
      app.communities.invalidate();
      return reply.redirectTo('/admin/articles/settings?done=saved');
    } catch (e) {
      if (!isAppError(e) || e.status === 403) throw e;
      const errors = Object.fromEntries(Object.entries(e.fields ?? {}).map(([field, f]) => [field, t(f.key)]));
      return reply.page({ title: t('admin.articles.settings.title'), body: <ProgramSettingsPage values={values} errors={errors} />, status: 400 });
    }
  });

  app.get('/admin/articles/blackouts', admin, async (request, reply) => {
    const { done } = queryOf(DoneQuery, request);
    const notice = done === 'added' ? t('admin.articles.blackouts.added') : done === 'deleted' ? t('admin.articles.blackouts.deleted') : undefined;
    return blackoutsPage(request, reply, { notice });
  });

  app.post('/admin/articles/blackouts', admin, async (request, reply) => {
    const body = formOf(BlackoutForm, request);
    const values = { startsOn: body.startsOn.trim(), endsBefore: body.endsBefore.trim() };
    try {
      await addBlackoutWindow(articleDeps(request), personOf(request), values);
      return reply.redirectTo('/admin/articles/blackouts?done=added');
    } catch (e) {
      if (!isAppError(e) || e.status === 403) throw e;
      const errors = fieldErrors(e);
      if (Object.keys(errors).length === 0) errors.form = t(e.key);
      return blackoutsPage(request, reply, { values, errors, status: e.status });
    }
  });

  app.post('/admin/articles/blackouts/:id/delete', admin, async (request, reply) => {
    const { id } = paramsOf(idParams, request);
    await deleteBlackout(articleDeps(request), personOf(request), id);
    return reply.redirectTo('/admin/articles/blackouts?done=deleted');
  });

  async function detail(
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    extra: {
      errors?: Record<string, string>;
      notice?: string;
      status?: number;
      text?: { title: string; body: string; content: string };
      feedback?: string;
      move?: { to?: string; scheduledDate?: string; articleUrl?: string; note?: string };
    } = {},
  ) {
    const deps = articleDeps(request);
    const person = personOf(request);
    const q = request.method === 'GET' ? queryOf(DetailQuery, request) : { before: null, from: null, to: null };
    const article = await getArticle(deps, person, id);
    const before = q.before;
    const [editors, revisions, events, scan, thread, next] = await Promise.all([
      listEditors(deps),
      listRevisions(deps, person, id),
      listStatusEvents(deps, person, id),
      latestCopyScan(deps, id),
      listFeedback(deps, person, { articleId: id, before }),
      editorMoves(deps, person, article),
    ]);
    // The editors have now seen what the author wrote (the page above still shows what was unread).
    await markFeedbackRead(deps, person, id);

    // Compare the two chosen revisions, by default the one before the latest and the latest.
    const byId = new Map(revisions.map((r) => [r.id, r]));
    const pick = (chosen: number | null, fallback: number | undefined) => {
      return chosen !== null && byId.has(chosen) ? chosen : (fallback ?? null);
    };
    const pair = defaultPair(revisions.map((r) => r.id));
    const from = pick(q.from, pair?.from);
    const to = pick(q.to, pair?.to);
    const a = from !== null ? byId.get(from) : undefined;
    const b = to !== null ? byId.get(to) : undefined;
    const result = a && b && a.id !== b.id ? diffRevisions(a, b) : null;

    // After a refused save the form keeps what was typed, even if the status changed meanwhile.
    // A second save after "the text changed since" goes on from the revision now current.
    const text: TextForm = extra.text
      ? { editable: true, ...extra.text, revisionId: article.current_revision_id }
      : {
          editable: canEditorEditText(person, article),
          title: article.title ?? '',
          body: htmlToPlainParagraphs(article.content ?? ''),
          content: article.content ?? '',
          revisionId: article.current_revision_id,
        };
    const feedback: FeedbackView = {
      remarks: thread.remarks,
      older: thread.pageInfo.hasPreviousPage ? thread.pageInfo.startCursor : null,
      paged: before !== null,
      value: extra.feedback ?? '',
    };
    return reply.page({
      title: t('admin.articles.detailTitle'),
      status: extra.status,
      body: (
        <ArticleDetail
          article={article}
          editors={editors}
          next={next}
          revisions={revisions.map((r) => ({ ...r, content: cleanRichText(r.content) }))}
          events={events}
          scan={scan}
          errors={extra.errors ?? {}}
          notice={extra.notice}
          diff={{ from, to, result }}
          text={text}
          feedback={feedback}
          move={extra.move}
        />
      ),
    });
  }

  const idParam = (request: FastifyRequest) => paramsOf(idParams, request).id;

  const NOTICES: Record<string, string> = {
    moved: 'admin.articles.moved',
    assigned: 'admin.articles.assigned',
    text: 'admin.articles.text.saved',
    feedback: 'admin.articles.feedback.sent',
    scanned: 'admin.articles.scanned',
  };

  app.get('/admin/articles/:id', admin, async (request, reply) => {
    const { done } = queryOf(DoneQuery, request);
    const notice = done && Object.hasOwn(NOTICES, done) ? t(NOTICES[done]!) : undefined;
    return detail(request, reply, idParam(request), { notice });
  });

  // The article page's form posts here and is sent back to the page; the board's assign-editor modal
  // (islands/AssignEditor.tsx) asks for JSON: the article's editor and a message to announce.
  app.post('/admin/articles/:id/editor', admin, async (request, reply) => {
    const id = idParam(request);
    const { editorId } = formOf(AssignForm, request);
    const json = wantsJson(request);
    const deps = articleDeps(request);
    try {
      const article = await assignEditor(deps, personOf(request), { articleId: id, editorId });
      if (!json) return reply.redirectTo(`/admin/articles/${id}?done=assigned`);
      const editor = article.editor_id === null ? undefined : (await listEditors(deps)).find((e) => e.id === article.editor_id);
      const editorName = editor ? `${editor.first_name} ${editor.last_name}` : null;
      const title = article.title?.trim() || t('articles.pages.untitled');
      return reply.header('cache-control', 'no-store').send({
        article: { id: article.id, editorId: article.editor_id, editorName },
        message: editorName ? t('admin.articles.assignModal.done', { editor: editorName, title }) : t('admin.articles.assignModal.doneNone', { title }),
      });
    } catch (e) {
      if (!isAppError(e) || e.code === 'NotFound') throw e;
      const message = t(Object.values(e.fields ?? {})[0]?.key ?? e.key);
      if (json) return reply.code(e.status).send({ error: { code: e.publicCode, message, ...(e.fields ? { fields: e.fields } : {}) } });
      return detail(request, reply, id, { errors: { form: message }, status: e.status });
    }
  });

  app.post('/admin/articles/:id/move', admin, async (request, reply) => {
    const id = idParam(request);
    const body = formOf(MoveForm, request);
    if (!isStatus(body.to)) throw new AppError('Articles.TransitionRefused');
    try {
      await moveArticle(articleDeps(request), personOf(request), {
        articleId: id,
        to: body.to,
        // datetime-local has no zone: the form says UTC.
        scheduledDate: body.scheduledDate ? `${body.scheduledDate}Z` : undefined,
        articleUrl: body.articleUrl,
        note: body.note.trim().slice(0, 500) || undefined,
      });
      return reply.redirectTo(`/admin/articles/${id}?done=moved`);
    } catch (e) {
      if (!isAppError(e) || e.code === 'NotFound') throw e;
      const errors = fieldErrors(e);
      if (Object.keys(errors).length === 0) errors.form = t(e.key);
      const move = { to: body.to, scheduledDate: body.scheduledDate, articleUrl: body.articleUrl, note: body.note };
      return detail(request, reply, id, { errors, status: e.status, move });
    }
  });

  app.post('/admin/articles/:id/text', admin, async (request, reply) => {
    const id = idParam(request);
    const body = formOf(BoardTextForm, request);
    // The rich-text island posts `content`; the form without JavaScript, plain `body` paragraphs.
    const rich = body.content ?? null;
    const content = rich ?? plainParagraphsToHtml(body.body);
    const typed = { title: body.title, body: rich === null ? body.body : htmlToPlainParagraphs(rich), content: cleanRichText(content) };
    try {
      await editArticleTextFromBoard(articleDeps(request), personOf(request), { articleId: id, title: typed.title, content, baseRevisionId: body.revisionId });
      return reply.redirectTo(`/admin/articles/${id}?done=text#text`);
    } catch (e) {
      if (!isAppError(e) || e.code === 'NotFound' || e.status === 403) throw e;
      const errors = fieldErrors(e);
      if (Object.keys(errors).length === 0) errors.form = t(e.key);
      return detail(request, reply, id, { errors, status: e.status, text: typed });
    }
  });

  // Scan the current text again (a failed scan, or a text the editors corrected): a new result row.
  app.post('/admin/articles/:id/scan', admin, async (request, reply) => {
    const id = idParam(request);
    await scanForRequest(request, id);
    return reply.redirectTo(`/admin/articles/${id}?done=scanned#scan`);
  });

  app.post('/admin/articles/:id/feedback', admin, async (request, reply) => {
    const id = idParam(request);
    const body = formOf(BoardFeedbackForm, request);
    try {
      await createFeedback(articleDeps(request), personOf(request), { articleId: id, feedback: body.feedback });
      return reply.redirectTo(`/admin/articles/${id}?done=feedback#feedback`);
    } catch (e) {
      if (!isAppError(e) || e.code === 'NotFound' || e.status === 403) throw e;
      const errors = { feedback: fieldErrors(e).feedback ?? t('articles.errors.feedback') };
      return detail(request, reply, id, { errors, status: e.status, feedback: body.feedback });
    }
  });
}
