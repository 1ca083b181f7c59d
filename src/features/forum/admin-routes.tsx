import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { AppError, isAppError, notFound } from '#src/core/errors.ts';
import { type FormBody as Body, str } from '#src/lib/form.ts';
import { staffAction, type StaffActionAgain } from '#src/lib/admin/act.ts';
import { adminMembersDeps, staffOf } from '#src/features/members/admin-routes.tsx';
import { setModerator } from '#src/features/members/admin-actions.ts';
import {
  ForumLog,
  ForumModerators,
  ForumOff,
  ForumOverview,
  ForumPostReplies,
  ForumPosts,
  ForumQueue,
  ForumReports,
  ForumSettings,
  ForumTopics,
  postsParams,
  type ForumStaffTab,
  type StaffForm,
} from '#views/admin/forum.tsx';
import type { ForumTargetKind } from '#src/db/types.ts';
import { listActions } from './actions-log.ts';
import { forumDeps, forumViewer } from './deps.ts';
import { mentionLinksUnder } from './mentions.ts';
import { approve, moderationQueue, reject, removeContent, restoreContent, setAllPostsWait, setLocked, setPinned } from './moderation.ts';
import { openReports, resolveReport } from './reports.ts';
import { allPostsWaitOf, forumCounts, listModerators, moderatorCandidates, openReportTarget, searchTerm, staffPost, staffPosts, staffReplies, STAFF_POST_STATUSES, type StaffPostQuery } from './staff.ts';
import { createTopic, listTopicsForStaff, moveTopic, renameTopic, setTopicArchived } from './topics-admin.ts';
import { isIdCursor } from './targets.ts';
import { requireId } from '#src/core/ids.ts';

/** The notices an action may come back with (`?done=<key>`): only these render. */
const DONE = [
  'approved',
  'rejected',
  'dismissed',
  'removed',
  'restored',
  'locked',
  'unlocked',
  'pinned',
  'unpinned',
  'topicCreated',
  'topicRenamed',
  'topicMoved',
  'topicArchived',
  'topicUnarchived',
  'moderatorOn',
  'moderatorOff',
  'settingsSaved',
] as const;
type Done = (typeof DONE)[number];

const kindOf = (value: unknown): ForumTargetKind => {
  if (value === 'post' || value === 'reply') return value;
  throw notFound();
};
const onOf = (value: unknown): boolean => {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new AppError('BadRequest.Validation');
};

/** A route's id parameter (`:id`, or the one named), a 404 unless it is a positive id. */
const idParam = (request: FastifyRequest, name = 'id'): number => requireId((request.params as Record<string, string | undefined>)[name]);
/** A form POST's fields (none: an empty body). */
const bodyOf = (request: FastifyRequest): Body => (request.body ?? {}) as Body;

/** The posts list's query from a query string (the list, its pages, and the actions' way back). */
function postQueryOf(q: Record<string, unknown>): StaffPostQuery {
  const status = (STAFF_POST_STATUSES as readonly string[]).includes(str(q.status)) ? (q.status as StaffPostQuery['status']) : null;
  const after = isIdCursor(q.after) ? q.after : null;
  return { q: typeof q.q === 'string' ? q.q : null, status, after };
}

/**
 * The staff's forum area (ADMIN only): /admin/forum and its sections. Every action is a plain form
 * POST that calls the moderation services (the same as GraphQL's), then redirects back with a notice;
 * a refused one re-renders its page with the message beside the field and the text kept. Where the
 * community's forum is off, every page says so and links to the site settings that turn it on.
 */
export default async function forumAdminRoutes(app: FastifyInstance) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };

  const noticeOf = (request: FastifyRequest) => {
    const done = (request.query as Record<string, unknown>).done;
    return typeof done === 'string' && (DONE as readonly string[]).includes(done) ? t(`forumStaff.done.${done}`) : undefined;
  };
  const fieldsOf = (e: AppError) => Object.fromEntries(Object.entries(e.fields ?? {}).map(([f, v]) => [f, t(v.key, v.values)]));

  /** The page, or where the forum is off, the notice that says so (staff must be able to find the switch). */
  async function page(request: FastifyRequest, reply: FastifyReply, tab: ForumStaffTab, body: () => Promise<ReactNode>, status?: number) {
    request.guardian.ensureAdmin();
    const title = t(`forumStaff.titles.${tab}`);
    if (!request.community.forum_enabled) {
      return reply.page({ title, body: <ForumOff sitePath={`/admin/sites/${encodeURIComponent(request.community.code)}`} /> });
    }
    return reply.page({ title, body: await body(), status });
  }

  /**
   * Runs an action; done, back to `path` with its notice. Refused with a message the form can show (a
   * field's, or the whole form's: already moderated, gone), the page comes back with it and what was
   * typed. Anything else (not found, forbidden, a malformed request) goes to the error handler.
   */
  const staffAct = staffAction<Done>(t, ['Forum.AlreadyModerated', 'Forum.PostNotFound', 'Forum.ReplyNotFound', 'Forum.TopicNotFound']);
  const act = (request: FastifyRequest, reply: FastifyReply, run: () => Promise<Done>, again: StaffActionAgain & { path: string }) =>
    staffAct(request, reply, async () => ({ done: await run(), path: again.path }), again);

  // ---- Overview ----

  app.get('/admin/forum', admin, async (request, reply) =>
    page(request, reply, 'overview', async () => <ForumOverview counts={await forumCounts(forumDeps(request))} notice={noticeOf(request)} />),
  );

  // ---- Waiting posts and replies ----

  const queuePage = (request: FastifyRequest, reply: FastifyReply, form?: StaffForm, status?: number) =>
    page(request, reply, 'queue', async () => <ForumQueue items={(await moderationQueue(forumDeps(request), forumViewer(request))).map((item) => ({ ...item, bodyHtml: mentionLinksUnder(item.bodyHtml, request.server.config.basePath) }))} notice={form ? undefined : noticeOf(request)} form={form} />, status);

  app.get('/admin/forum/queue', admin, async (request, reply) => queuePage(request, reply));

  for (const decision of ['approve', 'reject'] as const) {
    app.post(`/admin/forum/queue/:kind/:id/${decision}`, admin, async (request, reply) => {
      const params = request.params as { kind?: string; id?: string };
      const kind = kindOf(params.kind);
      const id = requireId(params.id);
      const body = bodyOf(request);
      const field = decision === 'approve' ? 'note' : 'reason';
      return act(
        request,
        reply,
        async () => {
          if (decision === 'approve') await approve(forumDeps(request), forumViewer(request), kind, id, body.note);
          else await reject(forumDeps(request), forumViewer(request), kind, id, body.reason);
          return decision === 'approve' ? 'approved' : 'rejected';
        },
        { path: '/admin/forum/queue', key: `${kind}-${id}`, values: { [field]: str(body[field]) }, render: (form, status) => queuePage(request, reply, form, status) },
      );
    });
  }

  // ---- Reports ----

  const afterOf = (value: unknown) => (typeof value === 'string' && value ? value : null);

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

  app.get('/admin/forum/reports', admin, async (request, reply) => reportsPage(request, reply, afterOf((request.query as Record<string, unknown>).after)));

  const reportsBack = (after: string | null) => (isIdCursor(after) ? `/admin/forum/reports?after=${after}` : '/admin/forum/reports');

  app.post('/admin/forum/reports/:id/dismiss', admin, async (request, reply) => {
    const id = idParam(request);
    const after = afterOf(bodyOf(request).after);
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
    const id = idParam(request);
    const body = bodyOf(request);
    const after = afterOf(body.after);
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
          await removeContent(deps, viewer, target.kind, target.id, body.reason);
        } catch (e) {
          // Already removed (by another report): this report is resolved as removed too.
          if (!isAppError(e) || e.code !== 'Forum.AlreadyModerated') throw e;
          await resolveReport(deps, viewer, id, 'removed');
        }
        return 'removed';
      },
      { path: reportsBack(after), key: `report-${id}`, values: { reason: str(body.reason) }, render: (form, status) => reportsPage(request, reply, null, form, status) },
    );
  });

  // ---- Posts ----

  async function postsPage(request: FastifyRequest, reply: FastifyReply, raw: Record<string, unknown>, form?: StaffForm, status?: number) {
    let query = postQueryOf(raw);
    let errors: Record<string, string> = {};
    try {
      query = { ...query, q: searchTerm(query.q) };
    } catch (e) {
      if (!isAppError(e) || !e.fields) throw e;
      errors = fieldsOf(e);
      query = { q: null, status: query.status, after: null };
      status ??= e.status;
    }
    return page(
      request,
      reply,
      'posts',
      async () => {
        const { rows, next } = await staffPosts(forumDeps(request), query);
        return <ForumPosts rows={rows} next={next} query={query} notice={form ? undefined : noticeOf(request)} form={form} errors={errors} />;
      },
      status,
    );
  }

  app.get('/admin/forum/posts', admin, async (request, reply) => {
    const raw = request.query as Record<string, unknown>;
    // A cursor that is no id (or beyond the database's ids) is a 400 here, as on every other list.
    if (raw.after != null && raw.after !== '' && !isIdCursor(raw.after)) throw new AppError('BadRequest.Validation');
    return postsPage(request, reply, raw);
  });

  /** Back to the list as it was (its search, state and page), rebuilt from the form's `back` field. */
  const postsBackOf = (body: Body): Record<string, unknown> => {
    const back = str(body.back).slice(0, 1000);
    return Object.fromEntries(new URLSearchParams(back));
  };
  const postsPath = (raw: Record<string, unknown>, id: number) => {
    let query = postQueryOf(raw);
    try {
      query = { ...query, q: searchTerm(query.q) };
    } catch {
      query = { q: null, status: null, after: null };
    }
    const qs = postsParams(query);
    return `/admin/forum/posts${qs ? `?${qs}` : ''}#post-${id}`;
  };

  const postAction = (name: 'lock' | 'pin' | 'restore' | 'remove') =>
    app.post(`/admin/forum/posts/:id/${name}`, admin, async (request, reply) => {
      const id = idParam(request);
      const body = bodyOf(request);
      const raw = postsBackOf(body);
      return act(
        request,
        reply,
        async () => {
          const deps = forumDeps(request);
          const viewer = forumViewer(request);
          switch (name) {
            case 'lock': {
              const on = onOf(body.on);
              await setLocked(deps, viewer, id, on);
              return on ? 'locked' : 'unlocked';
            }
            case 'pin': {
              const on = onOf(body.on);
              await setPinned(deps, viewer, id, on);
              return on ? 'pinned' : 'unpinned';
            }
            case 'restore':
              await restoreContent(deps, viewer, 'post', id);
              return 'restored';
            case 'remove':
              await removeContent(deps, viewer, 'post', id, body.reason);
              return 'removed';
          }
        },
        { path: postsPath(raw, id), key: `post-${id}`, values: { reason: str(body.reason) }, render: (form, status) => postsPage(request, reply, raw, form, status) },
      );
    });
  for (const name of ['lock', 'pin', 'restore', 'remove'] as const) postAction(name);

  // ---- One post's replies ----

  const repliesPage = (request: FastifyRequest, reply: FastifyReply, postId: number, after: string | null, form?: StaffForm, status?: number) =>
    page(
      request,
      reply,
      'posts',
      async () => {
        const deps = forumDeps(request);
        const [post, { rows, next }] = await Promise.all([staffPost(deps, postId), staffReplies(deps, postId, after)]);
        return <ForumPostReplies post={post} rows={rows} next={next} after={after} notice={form ? undefined : noticeOf(request)} form={form} />;
      },
      status,
    );

  app.get('/admin/forum/posts/:id', admin, async (request, reply) =>
    repliesPage(request, reply, idParam(request), afterOf((request.query as Record<string, unknown>).after)),
  );

  for (const name of ['remove', 'restore'] as const) {
    app.post(`/admin/forum/posts/:id/replies/:replyId/${name}`, admin, async (request, reply) => {
      const postId = idParam(request);
      const replyId = idParam(request, 'replyId');
      const body = bodyOf(request);
      const after = afterOf(body.after);
      const keep = isIdCursor(after) ? after : null;
      return act(
        request,
        reply,
        async () => {
          if (name === 'remove') await removeContent(forumDeps(request), forumViewer(request), 'reply', replyId, body.reason);
          else await restoreContent(forumDeps(request), forumViewer(request), 'reply', replyId);
          return name === 'remove' ? 'removed' : 'restored';
        },
        {
          path: `/admin/forum/posts/${postId}${keep ? `?after=${keep}` : ''}#reply-${replyId}`,
          key: `reply-${replyId}`,
          values: { reason: str(body.reason) },
          render: (form, status) => repliesPage(request, reply, postId, keep, form, status),
        },
      );
    });
  }

  // ---- Topics ----

  const topicsPage = (request: FastifyRequest, reply: FastifyReply, form?: StaffForm, status?: number) =>
    page(request, reply, 'topics', async () => <ForumTopics topics={await listTopicsForStaff(forumDeps(request), forumViewer(request), { includeArchived: true })} notice={form ? undefined : noticeOf(request)} form={form} />, status);

  app.get('/admin/forum/topics', admin, async (request, reply) => topicsPage(request, reply));

  /** A topic action's way back: the topics list at the topic; refused, the list again with the form. */
  const topicAgain = (request: FastifyRequest, reply: FastifyReply, id: number, values: Record<string, string> = {}) => ({
    path: `/admin/forum/topics#topic-${id}`,
    key: `topic-${id}`,
    values,
    render: (form: StaffForm, status: number) => topicsPage(request, reply, form, status),
  });

  app.post('/admin/forum/topics', admin, async (request, reply) => {
    const body = bodyOf(request);
    return act(
      request,
      reply,
      async () => {
        await createTopic(forumDeps(request), forumViewer(request), body.name);
        return 'topicCreated';
      },
      { path: '/admin/forum/topics', key: 'topic-new', values: { name: str(body.name) }, render: (form, status) => topicsPage(request, reply, form, status) },
    );
  });

  app.post('/admin/forum/topics/:id/rename', admin, async (request, reply) => {
    const id = idParam(request);
    const body = bodyOf(request);
    return act(
      request,
      reply,
      async () => {
        await renameTopic(forumDeps(request), forumViewer(request), id, body.name);
        return 'topicRenamed';
      },
      topicAgain(request, reply, id, { name: str(body.name) }),
    );
  });

  app.post('/admin/forum/topics/:id/move', admin, async (request, reply) => {
    const id = idParam(request);
    const direction = bodyOf(request).direction;
    if (direction !== 'up' && direction !== 'down') throw new AppError('BadRequest.Validation');
    return act(
      request,
      reply,
      async () => {
        await moveTopic(forumDeps(request), forumViewer(request), id, direction);
        return 'topicMoved';
      },
      topicAgain(request, reply, id),
    );
  });

  app.post('/admin/forum/topics/:id/archive', admin, async (request, reply) => {
    const id = idParam(request);
    const archived = onOf(bodyOf(request).archived);
    return act(
      request,
      reply,
      async () => {
        await setTopicArchived(forumDeps(request), forumViewer(request), id, archived);
        return archived ? 'topicArchived' : 'topicUnarchived';
      },
      topicAgain(request, reply, id),
    );
  });

  // ---- Moderators (the members area's flag: recorded in the member's staff history) ----

  app.get('/admin/forum/moderators', admin, async (request, reply) => {
    const raw = (request.query as Record<string, unknown>).q;
    let q: string | null = null;
    let errors: Record<string, string> = {};
    let status: number | undefined;
    try {
      q = searchTerm(raw);
    } catch (e) {
      if (!isAppError(e) || !e.fields) throw e;
      errors = fieldsOf(e);
      status = e.status;
    }
    return page(
      request,
      reply,
      'moderators',
      async () => {
        const deps = forumDeps(request);
        const [moderators, candidates] = await Promise.all([listModerators(deps), q ? moderatorCandidates(deps, q) : Promise.resolve(null)]);
        return <ForumModerators moderators={moderators} q={q ?? ''} candidates={candidates} notice={noticeOf(request)} errors={errors} />;
      },
      status,
    );
  });

  app.post('/admin/forum/moderators/:userId', admin, async (request, reply) => {
    const userId = idParam(request, 'userId');
    const body = bodyOf(request);
    const on = onOf(body.moderator);
    if (!request.community.forum_enabled) throw notFound();
    const { id, code, name } = request.community;
    await setModerator(adminMembersDeps(request), staffOf(request), { id, code, name }, userId, on);
    let q: string | null = null;
    try {
      q = searchTerm(body.q);
    } catch {
      q = null;
    }
    return reply.redirectTo(`/admin/forum/moderators?${q ? `q=${encodeURIComponent(q)}&` : ''}done=${on ? 'moderatorOn' : 'moderatorOff'}`);
  });

  // ---- Settings ----

  app.get('/admin/forum/settings', admin, async (request, reply) =>
    page(request, reply, 'settings', async () => <ForumSettings allPostsWait={await allPostsWaitOf(forumDeps(request))} notice={noticeOf(request)} />),
  );

  app.post('/admin/forum/settings', admin, async (request, reply) => {
    const body = bodyOf(request);
    const value = body.allPostsWait;
    if (value !== undefined && value !== 'on') throw new AppError('BadRequest.Validation');
    await setAllPostsWait(forumDeps(request), forumViewer(request), value === 'on');
    // This process forgets its cached communities now; the others hear the change.
    app.communities.invalidate();
    return reply.redirectTo('/admin/forum/settings?done=settingsSaved');
  });

  // ---- Log ----

  app.get('/admin/forum/log', admin, async (request, reply) => {
    const after = afterOf((request.query as Record<string, unknown>).after);
    return page(request, reply, 'log', async () => {
      const { actions, next } = await listActions(forumDeps(request), forumViewer(request), { after });
      return <ForumLog actions={actions} next={next} after={after} />;
    });
  });
}
