import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '#src/core/errors.ts';
import { str } from '#src/lib/form.ts';
import { ForumPostReplies, ForumPosts, postsParams } from '#src/features/forum/views/admin.tsx';
import { forumDeps, forumViewer } from '../deps.ts';
import { removeContent, restoreContent, setLocked, setPinned } from '../moderation.ts';
import { staffPost, staffPosts, staffReplies } from '../staff.ts';
import { isIdCursor } from '../targets.ts';
import { afterOf, bodyOf, idParam, onOf, postQueryOf, searchTerm, type Body, type ForumStaffKit, type StaffForm } from './kit.tsx';

/** Staff's posts: the list (search, state, pages) with lock, pin, remove and restore; one post's replies (remove, restore). */
export function forumPostsPages(app: FastifyInstance, { admin, noticeOf, fieldsOf, page, act }: ForumStaffKit) {
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
}
