import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '#src/core/errors.ts';
import { ArticleDetail, ArticlesBoard } from '#views/admin/articles.tsx';
import { articleDeps, personOf } from './routes.tsx';
import { ARTICLE_STATUSES, nextStatuses, type ArticleStatus } from './rules.ts';
import { assignEditor, getArticle, latestCopyScan, listEditors, listRevisions, listStatusEvents, moveArticle, searchBoard, type BoardQuery } from './service.ts';
import { type FormBody as Body } from '#src/lib/form.ts';

const isStatus = (v: unknown): v is ArticleStatus => typeof v === 'string' && (ARTICLE_STATUSES as readonly string[]).includes(v);

/** The editors' side of articles in the admin area (ADMIN only). */
export default async function articleAdminRoutes(app: FastifyInstance) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };

  app.get('/admin/articles', admin, async (request, reply) => {
    const q = request.query as Record<string, string | undefined>;
    const query: BoardQuery = {
      status: isStatus(q.status) ? q.status : null,
      editor: q.editor === 'none' ? 'none' : Number(q.editor) > 0 ? Number(q.editor) : null,
      q: q.q?.slice(0, 200) ?? null,
      sort: q.sort === 'oldest' ? 'oldest' : 'newest',
      after: q.after ?? null,
    };
    const deps = articleDeps(request);
    const [board, editors] = await Promise.all([searchBoard(deps, personOf(request), query), listEditors(deps)]);
    return reply.page({
      title: t('admin.articles.title'),
      body: <ArticlesBoard rows={board.rows} query={query} editors={editors} tooMany={board.tooMany} next={board.next} />,
    });
  });

  async function detail(request: FastifyRequest, reply: FastifyReply, id: number, extra: { errors?: Record<string, string>; notice?: string; status?: number } = {}) {
    const deps = articleDeps(request);
    const person = personOf(request);
    const article = await getArticle(deps, person, id);
    const [editors, revisions, events, scan] = await Promise.all([listEditors(deps), listRevisions(deps, person, id), listStatusEvents(deps, person, id), latestCopyScan(deps, id)]);
    return reply.page({
      title: t('admin.articles.detailTitle'),
      status: extra.status,
      body: (
        <ArticleDetail
          article={article}
          editors={editors}
          next={nextStatuses('editor', article.status)}
          revisions={revisions}
          events={events}
          scan={scan}
          errors={extra.errors ?? {}}
          notice={extra.notice}
        />
      ),
    });
  }

  const idOf = (request: FastifyRequest) => {
    const id = Number((request.params as { id: string }).id);
    if (!Number.isSafeInteger(id) || id <= 0) throw new AppError('NotFound');
    return id;
  };

  app.get('/admin/articles/:id', admin, async (request, reply) => {
    const q = request.query as Record<string, string | undefined>;
    const notice = q.done === 'moved' ? t('admin.articles.moved') : q.done === 'assigned' ? t('admin.articles.assigned') : undefined;
    return detail(request, reply, idOf(request), { notice });
  });

  app.post('/admin/articles/:id/editor', admin, async (request, reply) => {
    const id = idOf(request);
    const body = (request.body ?? {}) as Body;
    try {
      await assignEditor(articleDeps(request), personOf(request), { articleId: id, editorId: Number(body.editorId) > 0 ? Number(body.editorId) : null });
      return reply.redirectTo(`/admin/articles/${id}?done=assigned`);
    } catch (e) {
      if (!isAppError(e) || e.code === 'NotFound') throw e;
      return detail(request, reply, id, { errors: { form: t(Object.values(e.fields ?? {})[0]?.key ?? e.key) }, status: e.status });
    }
  });

  app.post('/admin/articles/:id/move', admin, async (request, reply) => {
    const id = idOf(request);
    const body = (request.body ?? {}) as Body;
    if (!isStatus(body.to)) throw new AppError('Articles.TransitionRefused');
    try {
      await moveArticle(articleDeps(request), personOf(request), {
        articleId: id,
        to: body.to,
        // datetime-local has no zone: the form says UTC.
        scheduledDate: body.scheduledDate ? `${body.scheduledDate}Z` : undefined,
        articleUrl: body.articleUrl,
        note: body.note?.trim().slice(0, 500) || undefined,
      });
      return reply.redirectTo(`/admin/articles/${id}?done=moved`);
    } catch (e) {
      if (!isAppError(e) || e.code === 'NotFound') throw e;
      const errors = Object.fromEntries(Object.entries(e.fields ?? {}).map(([f, v]) => [f, t(v.key)]));
      if (Object.keys(errors).length === 0) errors.form = t(e.key);
      return detail(request, reply, id, { errors, status: e.status });
    }
  });
}
