import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import { z } from 'zod';
import { field, formOf, id, idParams, optionalId, paramsOf, queryOf } from '#src/lib/form.ts';
import { isHtmx } from '#src/lib/negotiation.ts';
import { DeleteConfirm, PostForm, RemoveForm, ReplyEditForm, type PostFormErrors, type PostFormValues } from '#src/features/forum/views/ForumForms.tsx';
import { ForumList } from '#src/features/forum/views/ForumList.tsx';
import { ForumPost } from '#src/features/forum/views/ForumPost.tsx';
import { PostNotFound } from '#src/features/forum/views/PostNotFound.tsx';
import forumActionRoutes, { type PostPageExtra } from './action-routes.tsx';
import { ensureForumOn, forumDeps, forumViewer, isModerator } from './deps.ts';
import { allReactions, cursor, fieldMessages, KindIdParams, notice, PostParams, postPath } from './page-helpers.ts';
import { createPost, deletePost, editPost, getPost, listPosts } from './posts.ts';
import { encodeCursor } from './queries.ts';
import { mentionLinksUnder } from './mentions.ts';
import { createReply, deleteReply, editReply, getReply, listReplies } from './replies.ts';
import { LIST_PAGE_SIZE, POST_MAX, REPLIES_PAGE_SIZE, REPLY_MAX, TITLE_MAX, TOPICS_MAX } from './rules.ts';
import { htmlToText, textToHtml } from '#src/lib/rich-text.ts';
import { listTopics } from './topics.ts';
import { removeContent } from './moderation.ts';
import { groupPostPathFor } from './group-discussion.ts';

const LIMITS = { titleMax: TITLE_MAX, bodyMax: POST_MAX, topicsMax: TOPICS_MAX };

/** The list's query: a search (cut to 200 characters), a topic, a page; what does not fit is dropped. */
const ListQuery = z.object({
  q: z
    .string()
    .catch('')
    .optional()
    .transform((v) => (v ?? '').trim().slice(0, 200)),
  topic: optionalId.catch(null),
  after: cursor,
  notice,
});

/** A post page's query: its page of replies, a notice. */
const PostQuery = z.object({ after: cursor, notice });

/**
 * A post's form: title and text as typed (the service checks them and names the field), its topics
 * (one checkbox or several: ids, at most a hundred).
 */
const PostFormSchema = z.object({
  title: field(),
  body: field(),
  topicIds: z
    .union([id.transform((v) => [v]), z.array(id).max(100)])
    .optional(),
});

/** A reply's form: its text, and the page of replies it was written on. */
const ReplyForm = z.object({ body: field(), after: cursor });

/** A reply's edit form. */
const ReplyEditFormSchema = z.object({ body: field() });

/** A moderator's removal: the reason (required by the service, beside the field). */
const RemoveFormSchema = z.object({ reason: field() });

/**
 * The member's forum pages (issue 14): the list, a post with its replies, writing, editing and deleting
 * one's own, and (action-routes.tsx) likes, reactions, follows, reports and moderation. Only where the
 * community has a forum: elsewhere every one of them is a 404.
 */
export default async function forumRoutes(app: FastifyInstance) {
  const t = app.t;
  const member = { config: { access: 'member' as const } };

  app.addHook('preHandler', async (request) => {
    ensureForumOn(request.community);
  });

  // A missing, removed or other community's post (or reply): 'Post not found', with the way back.
  app.setErrorHandler(async (err, request, reply) => {
    if (isAppError(err) && (err.code === 'Forum.PostNotFound' || err.code === 'Forum.ReplyNotFound') && !isHtmx(request)) {
      return reply.page({ title: t('forum.errors.postNotFound'), body: <PostNotFound message={t(err.key)} />, status: 404 });
    }
    throw err;
  });

  /** The post page: the post, a page of its replies, the reply form; also re-rendered with a refused form. */
  async function postPage(request: FastifyRequest, reply: FastifyReply, postId: number, extra: PostPageExtra = {}) {
    const deps = forumDeps(request);
    const viewer = forumViewer(request);
    const after = extra.after ?? null;
    const post = await getPost(deps, viewer, postId);
    const replies = await listReplies(deps, viewer, postId, { after, first: REPLIES_PAGE_SIZE, post });
    const base = request.server.config.basePath;
    return reply.page({
      title: post.title,
      htmx: true,
      status: extra.status,
      body: (
        <ForumPost
          post={{ ...post, bodyHtml: mentionLinksUnder(post.bodyHtml, base), reactions: allReactions(post.reactions) }}
          replies={replies.replies.map((r) => ({ ...r, bodyHtml: mentionLinksUnder(r.bodyHtml, base), reactions: allReactions(r.reactions) }))}
          after={after}
          laterHref={replies.next ? postPath(postId, { after: replies.next }) : null}
          reply={extra.reply ?? { value: '' }}
          replyMax={REPLY_MAX}
          notice={extra.notice}
          error={extra.error}
          moderate={extra.moderate}
        />
      ),
    });
  }

  /** Not one's own (403), or too late (409): the post page says which. */
  const refusedChange = (request: FastifyRequest, reply: FastifyReply, postId: number, mine: boolean) =>
    postPage(request, reply, postId, { error: t(mine ? 'forum.errors.editWindowClosed' : 'forum.errors.notYours'), status: mine ? 409 : 403 });

  app.get('/forum', member, async (request, reply) => {
    const deps = forumDeps(request);
    const viewer = forumViewer(request);
    const { q, topic: topicId, after, notice } = queryOf(ListQuery, request);
    let qError: string | undefined;
    try {
      ensureText({ q });
    } catch (e) {
      if (!isAppError(e)) throw e;
      qError = t(e.fields?.q?.key ?? e.key);
    }
    const [topics, page, canModerate] = await Promise.all([
      listTopics(deps, {}),
      qError ? Promise.resolve({ pinned: [], posts: [], next: null }) : listPosts(deps, viewer, { q: q || null, topicId, after, first: LIST_PAGE_SIZE }),
      isModerator(deps, viewer),
    ]);
    const older = new URLSearchParams();
    if (q) older.set('q', q);
    if (topicId !== null) older.set('topic', String(topicId));
    if (page.next) older.set('after', page.next);
    return reply.page({
      title: t('forumPages.list.title'),
      status: qError ? 400 : 200,
      body: (
        <ForumList
          pinned={page.pinned}
          posts={page.posts}
          topics={topics.filter((x) => !x.archived)}
          topicId={topicId}
          q={qError ? '' : q}
          olderHref={page.next ? `/forum?${older.toString()}` : null}
          canModerate={canModerate}
          qError={qError}
          notice={notice ? t(`forumPages.notices.${notice}`) : undefined}
        />
      ),
    });
  });

  async function postFormPage(request: FastifyRequest, reply: FastifyReply, mode: 'new' | 'edit', values: PostFormValues, errors: PostFormErrors = {}, status = 200, postId?: number) {
    const topics = (await listTopics(forumDeps(request), {})).filter((x) => !x.archived || values.topicIds.includes(x.id));
    return reply.page({
      title: t(mode === 'new' ? 'forumPages.form.newTitle' : 'forumPages.form.editTitle'),
      status,
      body: <PostForm mode={mode} postId={postId} values={values} errors={errors} topics={topics} limits={LIMITS} />,
    });
  }

  app.get('/forum/new', member, async (request, reply) => {
    forumViewer(request);
    return postFormPage(request, reply, 'new', { title: '', body: '', topicIds: [] });
  });

  app.post('/forum/new', member, async (request, reply) => {
    const deps = forumDeps(request);
    const viewer = forumViewer(request);
    const form = formOf(PostFormSchema, request);
    const typed: PostFormValues = { title: form.title, body: form.body, topicIds: form.topicIds ?? [] };
    try {
      ensureText({ title: typed.title, body: typed.body }, ['body']);
      const post = await createPost(deps, viewer, { title: typed.title, body: textToHtml(typed.body), topicIds: typed.topicIds });
      return reply.redirectTo(postPath(post.id, { notice: post.status === 'pending' ? 'createdPending' : 'created' }));
    } catch (e) {
      if (!isAppError(e) || e.status >= 500 || e.code === 'NotFound' || e.code === 'Forbidden' || e.code === 'NotAuthenticated') throw e;
      const messages = fieldMessages(e, t);
      return postFormPage(request, reply, 'new', typed, messages, e.status);
    }
  });

  app.get('/forum/post/:postId', member, async (request, reply) => {
    const { postId } = paramsOf(PostParams, request);
    const { after, notice } = queryOf(PostQuery, request);
    try {
      return await postPage(request, reply, postId, { after, notice: notice ? t(`forumPages.notices.${notice}`) : undefined });
    } catch (e) {
      // A group's post (its notifications link here): to a reader of the group, its page in the group;
      // to anyone else the same 404 as an unknown post (decision 0056).
      if (!isAppError(e) || e.code !== 'Forum.PostNotFound') throw e;
      const path = await groupPostPathFor(forumDeps(request), forumViewer(request), postId);
      if (!path) throw e;
      return reply.redirectTo(path, 302);
    }
  });

  app.post('/forum/post/:postId/reply', member, async (request, reply) => {
    const { postId } = paramsOf(PostParams, request);
    const deps = forumDeps(request);
    const viewer = forumViewer(request);
    const { body: typed, after } = formOf(ReplyForm, request);
    try {
      ensureText({ body: typed }, ['body']);
      const created = await createReply(deps, viewer, postId, { body: textToHtml(typed) });
      // The new reply is the thread's last as this member sees it (their own waiting replies count too):
      // the first page while it shows it, else a page that starts at the new reply.
      // Only to find the page: nothing is shown, so no visit is recorded (decision 0065).
      const firstPage = await listReplies(deps, viewer, postId, { first: REPLIES_PAGE_SIZE, record: false });
      const page = firstPage.replies.some((r) => r.id === created.id) ? null : encodeCursor([created.id - 1]);
      return reply.redirectTo(postPath(postId, { after: page, notice: created.status === 'pending' ? 'repliedPending' : 'replied', anchor: `reply-${created.id}` }));
    } catch (e) {
      if (!isAppError(e) || e.status >= 500 || e.code === 'NotFound' || e.code === 'Forum.PostNotFound' || e.code === 'NotAuthenticated') throw e;
      // Locked meanwhile: the page no longer offers the form, so the message goes on top.
      if (e.code === 'Forum.Locked') return postPage(request, reply, postId, { after, error: t(e.key), status: e.status });
      const messages = fieldMessages(e, t);
      return postPage(request, reply, postId, { after, reply: { value: typed, error: messages.body ?? messages.form }, status: e.status });
    }
  });

  // Editing one's own post or reply, on a page of its own.
  app.get('/forum/post/:postId/edit', member, async (request, reply) => {
    const viewer = forumViewer(request);
    const post = await getPost(forumDeps(request), viewer, paramsOf(PostParams, request).postId);
    if (!post.abilities.canEdit) return refusedChange(request, reply, post.id, post.author.id === viewer.userId);
    return postFormPage(request, reply, 'edit', { title: post.title, body: htmlToText(post.bodyHtml), topicIds: post.topics.map((x) => x.id) }, {}, 200, post.id);
  });

  app.post('/forum/post/:postId/edit', member, async (request, reply) => {
    const { postId } = paramsOf(PostParams, request);
    const form = formOf(PostFormSchema, request);
    const typed: PostFormValues = { title: form.title, body: form.body, topicIds: form.topicIds ?? [] };
    try {
      ensureText({ title: typed.title, body: typed.body }, ['body']);
      await editPost(forumDeps(request), forumViewer(request), postId, { title: typed.title, body: textToHtml(typed.body), topicIds: typed.topicIds });
      return reply.redirectTo(postPath(postId, { notice: 'edited', anchor: 'post' }));
    } catch (e) {
      if (!isAppError(e) || e.status >= 500 || e.code === 'NotFound' || e.code === 'Forum.PostNotFound' || e.code === 'NotAuthenticated') throw e;
      return postFormPage(request, reply, 'edit', typed, fieldMessages(e, t), e.status, postId);
    }
  });

  app.get('/forum/reply/:id/edit', member, async (request, reply) => {
    const deps = forumDeps(request);
    const viewer = forumViewer(request);
    const found = await getReply(deps, viewer, paramsOf(idParams, request).id);
    const post = await getPost(deps, viewer, found.postId);
    if (!found.abilities.canEdit) return refusedChange(request, reply, post.id, found.author.id === viewer.userId);
    return reply.page({
      title: t('forumPages.form.editReplyTitle'),
      body: <ReplyEditForm replyId={found.id} postId={post.id} postTitle={post.title} body={htmlToText(found.bodyHtml)} />,
    });
  });

  app.post('/forum/reply/:id/edit', member, async (request, reply) => {
    const { id } = paramsOf(idParams, request);
    const deps = forumDeps(request);
    const viewer = forumViewer(request);
    const { body: typed } = formOf(ReplyEditFormSchema, request);
    try {
      ensureText({ body: typed }, ['body']);
      const edited = await editReply(deps, viewer, id, { body: textToHtml(typed) });
      return reply.redirectTo(postPath(edited.postId, { notice: 'edited', anchor: `reply-${id}` }));
    } catch (e) {
      if (!isAppError(e) || e.status >= 500 || e.code === 'NotFound' || e.code === 'Forum.ReplyNotFound' || e.code === 'NotAuthenticated') throw e;
      const found = await getReply(deps, viewer, id);
      const post = await getPost(deps, viewer, found.postId);
      const messages = fieldMessages(e, t);
      return reply.page({
        title: t('forumPages.form.editReplyTitle'),
        status: e.status,
        body: <ReplyEditForm replyId={id} postId={post.id} postTitle={post.title} body={typed} error={messages.body ?? messages.form} />,
      });
    }
  });

  // Deleting one's own: a confirmation page (no script needed), then the POST. Someone else's (a
  // moderator's to act on) is removed with a reason instead: the page sends them to that form.
  app.get('/forum/:kind/:id/delete', member, async (request, reply) => {
    const deps = forumDeps(request);
    const viewer = forumViewer(request);
    const { kind, id } = paramsOf(KindIdParams, request);
    if (kind === 'post') {
      const post = await getPost(deps, viewer, id);
      if (post.abilities.canRemove) return reply.redirectTo(`/forum/post/${id}/remove`);
      return reply.page({ title: t('forumPages.delete.postTitle'), body: <DeleteConfirm kind="post" id={id} postId={id} title={post.title} /> });
    }
    const found = await getReply(deps, viewer, id);
    if (found.abilities.canRemove) return reply.redirectTo(`/forum/reply/${id}/remove`);
    const post = await getPost(deps, viewer, found.postId);
    return reply.page({ title: t('forumPages.delete.replyTitle'), body: <DeleteConfirm kind="reply" id={id} postId={post.id} title={post.title} /> });
  });

  app.post('/forum/:kind/:id/delete', member, async (request, reply) => {
    const deps = forumDeps(request);
    const viewer = forumViewer(request);
    const { kind, id } = paramsOf(KindIdParams, request);
    if (kind === 'post') {
      try {
        await deletePost(deps, viewer, id);
      } catch (e) {
        if (!isAppError(e) || (e.code !== 'Forum.EditWindowClosed' && e.code !== 'Forum.NotYours' && e.code !== 'Forum.UseRemove')) throw e;
        if (e.code === 'Forum.UseRemove') return removePage(request, reply, 'post', id, { status: e.status, formError: t(e.key) });
        const post = await getPost(deps, viewer, id);
        return reply.page({ title: t('forumPages.delete.postTitle'), status: e.status, body: <DeleteConfirm kind="post" id={id} postId={id} title={post.title} error={t(e.key, e.values)} /> });
      }
      return reply.redirectTo('/forum?notice=deleted');
    }
    const found = await getReply(deps, viewer, id);
    try {
      await deleteReply(deps, viewer, id);
    } catch (e) {
      if (!isAppError(e) || (e.code !== 'Forum.EditWindowClosed' && e.code !== 'Forum.NotYours' && e.code !== 'Forum.UseRemove')) throw e;
      if (e.code === 'Forum.UseRemove') return removePage(request, reply, 'reply', id, { status: e.status, formError: t(e.key) });
      const post = await getPost(deps, viewer, found.postId);
      return reply.page({ title: t('forumPages.delete.replyTitle'), status: e.status, body: <DeleteConfirm kind="reply" id={id} postId={post.id} title={post.title} error={t(e.key, e.values)} /> });
    }
    return reply.redirectTo(postPath(found.postId, { notice: 'deleted', anchor: 'replies-heading' }));
  });

  // A moderator (or staff) takes someone else's post or reply down with a reason, through
  // moderation's removal: logged for staff, its author told, restorable (moderation.ts).
  async function removePage(request: FastifyRequest, reply: FastifyReply, kind: 'post' | 'reply', id: number, extra: { status?: number; reason?: string; error?: string; formError?: string } = {}) {
    const deps = forumDeps(request);
    const viewer = forumViewer(request);
    const item = kind === 'post' ? await getPost(deps, viewer, id) : await getReply(deps, viewer, id);
    const postId = kind === 'post' ? id : (item as Awaited<ReturnType<typeof getReply>>).postId;
    const post = kind === 'post' ? (item as Awaited<ReturnType<typeof getPost>>) : await getPost(deps, viewer, postId);
    // Not a moderator, or the item is gone: the member-facing not-yours answer.
    if (!item.abilities.canRemove && !extra.status) throw new AppError('Forum.NotYours');
    return reply.page({
      title: t(kind === 'post' ? 'forumPages.remove.postTitle' : 'forumPages.remove.replyTitle'),
      status: extra.status,
      body: <RemoveForm kind={kind} id={id} postId={postId} title={post.title} authorName={item.author.name} reason={extra.reason ?? ''} error={extra.error} formError={extra.formError} />,
    });
  }

  app.get('/forum/:kind/:id/remove', member, async (request, reply) => {
    const { kind, id } = paramsOf(KindIdParams, request);
    return removePage(request, reply, kind, id);
  });

  app.post('/forum/:kind/:id/remove', member, async (request, reply) => {
    const { kind, id } = paramsOf(KindIdParams, request);
    const deps = forumDeps(request);
    const viewer = forumViewer(request);
    const { reason } = formOf(RemoveFormSchema, request);
    const postId = kind === 'post' ? id : (await getReply(deps, viewer, id)).postId;
    try {
      await removeContent(deps, viewer, kind, id, reason);
    } catch (e) {
      if (!isAppError(e) || e.status >= 500 || ['NotAuthenticated', 'NotFound', 'Forum.NotModerator', 'Forum.PostNotFound', 'Forum.ReplyNotFound'].includes(String(e.code))) throw e;
      const messages = fieldMessages(e, t);
      return removePage(request, reply, kind, id, { status: e.status, reason, error: messages.reason, formError: messages.reason ? undefined : messages.form });
    }
    return reply.redirectTo(postPath(postId, { notice: 'removed', anchor: kind === 'post' ? 'post' : `reply-${id}` }));
  });

  await app.register(forumActionRoutes, { postPage });
}
