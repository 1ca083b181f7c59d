import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isAppError } from '#src/core/errors.ts';
import { field, formOf, id, idParams, paramsOf, queryOf } from '#src/lib/form.ts';
import type { StaffPostQuery } from '../staff.ts';
import { ForumPostReplies, ForumPosts, postsParams } from '#src/features/forum/views/admin.tsx';
import { forumDeps, forumViewer } from '../deps.ts';
import { removeContent, restoreContent, setLocked, setPinned } from '../moderation.ts';
import { staffPost, staffPosts, staffReplies } from '../staff.ts';
import { isIdCursor } from '../targets.ts';
import { after, AfterQuery, PostsQuery, postQueryOf, searchTerm, staffOn, type ForumStaffKit, type StaffForm } from './kit.tsx';

/** The posts list as asked for: a cursor that is no id (or beyond the database's ids) is a 400 here, as on every other list. */
const PostsListQuery = PostsQuery.extend({
  after: z
    .union([z.literal(''), z.string().refine(isIdCursor)])
    .optional()
    .transform((v) => v || null),
});
/**
 * A post's action: the list to go back to (its query string, as the form carries it) and, for a
 * removal, the reason (the service checks it, beside the field).
 */
const PostActionForm = z.object({ back: field(), reason: field() });
/** Locking or pinning: on or off. */
const PostSwitchForm = PostActionForm.extend({ on: staffOn });
/** `/admin/forum/posts/:id/replies/:replyId/...` */
const ReplyParams = z.object({ id, replyId: id });
/** A reply's action: the page of replies it was on and, for a removal, the reason. */
const ReplyActionForm = z.object({ after, reason: field() });

/** Staff's posts: the list (search, state, pages) with lock, pin, remove and restore; one post's replies (remove, restore). */
export function forumPostsPages(app: FastifyInstance, { admin, noticeOf, fieldsOf, page, act }: ForumStaffKit) {
  // ---- Posts ----

  async function postsPage(request: FastifyRequest, reply: FastifyReply, asked: StaffPostQuery, form?: StaffForm, status?: number) {
    let query = asked;
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
    return postsPage(request, reply, queryOf(PostsListQuery, request));
  });

  /** Back to the list as it was (its search, state and page), rebuilt from the form's `back` field. */
  const postsBackOf = (back: string): StaffPostQuery => postQueryOf(Object.fromEntries(new URLSearchParams(back.slice(0, 1000))));
  const postsPath = (asked: StaffPostQuery, id: number) => {
    let query = asked;
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
      const { id } = paramsOf(idParams, request);
      const body = name === 'lock' || name === 'pin' ? formOf(PostSwitchForm, request) : { ...formOf(PostActionForm, request), on: false };
      const raw = postsBackOf(body.back);
      return act(
        request,
        reply,
        async () => {
          const deps = forumDeps(request);
          const viewer = forumViewer(request);
          switch (name) {
            case 'lock': {
              const on = body.on;
              await setLocked(deps, viewer, id, on);
              return on ? 'locked' : 'unlocked';
            }
            case 'pin': {
              const on = body.on;
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
        { path: postsPath(raw, id), key: `post-${id}`, values: { reason: body.reason }, render: (form, status) => postsPage(request, reply, raw, form, status) },
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
    repliesPage(request, reply, paramsOf(idParams, request).id, queryOf(AfterQuery, request).after),
  );

  for (const name of ['remove', 'restore'] as const) {
    app.post(`/admin/forum/posts/:id/replies/:replyId/${name}`, admin, async (request, reply) => {
      const { id: postId, replyId } = paramsOf(ReplyParams, request);
      const body = formOf(ReplyActionForm, request);
      const after = body.after;
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
          values: { reason: body.reason },
          render: (form, status) => repliesPage(request, reply, postId, keep, form, status),
        },
      );
    });
  }
}
