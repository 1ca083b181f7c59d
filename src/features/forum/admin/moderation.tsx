import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, isAppError } from '#src/core/errors.ts';
import { field, formOf, idParams, paramsOf, queryOf } from '#src/lib/form.ts';
import { ForumQueue, ForumReports } from '#src/features/forum/views/admin.tsx';
import { forumDeps, forumViewer } from '../deps.ts';
import { mentionLinksUnder } from '../mentions.ts';
import { approve, moderationQueue, reject, removeContent } from '../moderation.ts';
import { openReports, resolveReport } from '../reports.ts';
import { openReportTarget } from '../staff.ts';
import { isIdCursor } from '../targets.ts';
import { after, AfterQuery, KindIdParams, type ForumStaffKit, type StaffForm } from './kit.tsx';

/** An approval's optional note, a rejection's reason (the service checks them, beside the field). */
const DecisionForm = z.object({ note: field(), reason: field() });
/** A report dismissed: the page of reports it was on. */
const DismissForm = z.object({ after });
/** A report's content removed: the reason, and the page of reports it was on. */
const RemoveForm = z.object({ after, reason: field() });

/** Staff moderation: what waits (approve, reject) and the members' reports (dismiss, remove). */
export function forumModerationPages(app: FastifyInstance, { admin, noticeOf, page, act }: ForumStaffKit) {
  // ---- Waiting posts and replies ----

  const queuePage = (request: FastifyRequest, reply: FastifyReply, form?: StaffForm, status?: number) =>
    page(request, reply, 'queue', async () => <ForumQueue items={(await moderationQueue(forumDeps(request), forumViewer(request))).map((item) => ({ ...item, bodyHtml: mentionLinksUnder(item.bodyHtml, request.server.config.basePath) }))} notice={form ? undefined : noticeOf(request)} form={form} />, status);

  app.get('/admin/forum/queue', admin, async (request, reply) => queuePage(request, reply));

  for (const decision of ['approve', 'reject'] as const) {
    app.post(`/admin/forum/queue/:kind/:id/${decision}`, admin, async (request, reply) => {
      const { kind, id } = paramsOf(KindIdParams, request);
      const form = formOf(DecisionForm, request);
      const name = decision === 'approve' ? 'note' : 'reason';
      return act(
        request,
        reply,
        async () => {
          if (decision === 'approve') await approve(forumDeps(request), forumViewer(request), kind, id, form.note);
          else await reject(forumDeps(request), forumViewer(request), kind, id, form.reason);
          return decision === 'approve' ? 'approved' : 'rejected';
        },
        { path: '/admin/forum/queue', key: `${kind}-${id}`, values: { [name]: form[name] }, render: (form, status) => queuePage(request, reply, form, status) },
      );
    });
  }

  // ---- Reports ----

  const reportsPage = (request: FastifyRequest, reply: FastifyReply, after: string | null, form?: StaffForm, status?: number) =>
    page(
      request,
      reply,
      'reports',
      async () => {
        const { reports, next } = await openReports(forumDeps(request), forumViewer(request), { after });
        return <ForumReports reports={reports} next={next} after={after} notice={form ? undefined : noticeOf(request)} form={form} />;
      },
      status,
    );

  app.get('/admin/forum/reports', admin, async (request, reply) => reportsPage(request, reply, queryOf(AfterQuery, request).after));

  const reportsBack = (after: string | null) => (isIdCursor(after) ? `/admin/forum/reports?after=${after}` : '/admin/forum/reports');

  app.post('/admin/forum/reports/:id/dismiss', admin, async (request, reply) => {
    const { id } = paramsOf(idParams, request);
    const { after } = formOf(DismissForm, request);
    return act(
      request,
      reply,
      async () => {
        await resolveReport(forumDeps(request), forumViewer(request), id, 'dismissed');
        return 'dismissed';
      },
      { path: reportsBack(after), key: `report-${id}`, values: {}, render: (form, status) => reportsPage(request, reply, null, form, status) },
    );
  });

  app.post('/admin/forum/reports/:id/remove', admin, async (request, reply) => {
    const { id } = paramsOf(idParams, request);
    const { after, reason } = formOf(RemoveForm, request);
    return act(
      request,
      reply,
      async () => {
        const deps = forumDeps(request);
        const viewer = forumViewer(request);
        const target = await openReportTarget(deps, id);
        if (!target) throw new AppError('Forum.AlreadyModerated');
        try {
          // Removing the content resolves every open report on it, this one included.
          await removeContent(deps, viewer, target.kind, target.id, reason);
        } catch (e) {
          // Already removed (by another report): this report is resolved as removed too.
          if (!isAppError(e) || e.code !== 'Forum.AlreadyModerated') throw e;
          await resolveReport(deps, viewer, id, 'removed');
        }
        return 'removed';
      },
      { path: reportsBack(after), key: `report-${id}`, values: { reason }, render: (form, status) => reportsPage(request, reply, null, form, status) },
    );
  });
}
