import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, isAppError } from '#src/core/errors.ts';
import { field, formOf, paramsOf, queryOf } from '#src/lib/form.ts';
import { htmlToText, textToHtml } from '#src/lib/rich-text.ts';
import { mentionLinksUnder, readGroupsWith, serveGroupPostsAt } from '#src/features/forum/index.ts';
import { GroupPage } from '#src/features/groups/views/GroupPage.tsx';
import { GroupPostEditPage, GroupPostPage } from '#src/features/groups/views/GroupPostPage.tsx';
import { GroupsList } from '#src/features/groups/views/GroupsList.tsx';
import { groupsDeps, groupsViewer } from './deps.ts';
import { deletePostInGroup, deleteReplyInGroup, editPostInGroup, editReplyInGroup, groupPost, groupPostOnly, groupPostPath, groupPosts, groupScope, moderateInGroup, postIdOf, postInGroup, replyInGroup } from './discussion.ts';
import { readGroupImage } from './images.ts';
import { readersOf } from './queries.ts';
import { decideRequest, groupViewOf, leaveGroup, listGroups, requestToJoin } from './members.ts';

const SlugParams = z.object({ slug: z.string().max(100) });
const PostParams = z.object({ slug: z.string().max(100), postId: z.string().max(40) });
const ReplyParams = z.object({ slug: z.string().max(100), postId: z.string().max(40), replyId: z.string().max(40) });
const RequestParams = z.object({ slug: z.string().max(100), requestId: z.string().max(40) });
const ImageParams = z.object({ file: z.string().max(100) });
const PageQuery = z.object({ after: z.string().max(200).optional().catch(undefined), done: z.enum(['requested', 'accepted', 'declined', 'posted', 'replied', 'removed', 'restored', 'left', 'edited', 'deleted']).optional().catch(undefined), 'edit-reply': z.string().max(40).optional().catch(undefined) }).passthrough();
const PostBody = z.object({ title: field(10_000), body: field(200_000) });
const ReplyBody = z.object({ body: field(200_000) });
const DecisionBody = z.object({ decision: z.enum(['accept', 'decline']) });
const ModerateBody = z.object({ kind: z.enum(['post', 'reply']), id: z.string().max(40), action: z.enum(['remove', 'restore']), reason: field(10_000) });

/** What a member types (paragraphs, lists, links as plain text) becomes the forum's rich text, as the forum's own forms do; what they typed is shown again as typed. */
const asHtml = <T extends { body: string }>(form: T): T => ({ ...form, body: textToHtml(form.body) });

type Typed = { values: Record<string, string>; errors: Record<string, string>; status: number };

/**
 * The members' groups (issue 28): /groups, /groups/{slug} (about, chairs, members, join requests, the
 * discussion's posts and the new-post form), /groups/{slug}/posts/{id} (a post, its replies, the reply
 * form, the chairs' remove and restore; the author's edit and delete of their own post and reply, the
 * reply's inline by `?edit-reply={id}`). Plain forms, POST-redirect-GET; no island.
 */
export default async function groupsRoutes(app: FastifyInstance) {
  const t = app.t;
  const member = { config: { access: 'member' as const } };
  const notFound = () => new AppError('Groups.NotFound');
  serveGroupPostsAt(groupPostPath);
  readGroupsWith(readersOf);
  const call = (request: FastifyRequest) => ({ deps: groupsDeps(request), viewer: groupsViewer(request) });
  const noticeOf = (request: FastifyRequest) => {
    const { done } = queryOf(PageQuery, request);
    return done ? t(`groups.done.${done}`) : undefined;
  };
  const fieldsOf = (e: AppError) => Object.fromEntries(Object.entries(e.fields ?? {}).map(([f, v]) => [f, t(v.key, v.values)]));
  const base = app.config.basePath;

  app.get('/groups', member, async (request, reply) => {
    const { deps, viewer } = call(request);
    const lists = await listGroups(deps, viewer);
    return reply.page({ title: t('groups.list.title'), body: <GroupsList mine={lists.mine} others={lists.others} notice={noticeOf(request)} /> });
  });

  app.get('/groups/images/:file', member, async (request, reply) => {
    const { file } = paramsOf(ImageParams, request, notFound);
    const key = /^([A-Za-z0-9_-]{16,64})\.webp$/.exec(file)?.[1];
    if (!key) throw notFound();
    const image = await readGroupImage(groupsDeps(request), groupsViewer(request), key);
    if (!image) throw notFound();
    return reply.header('content-type', image.content_type).header('cache-control', 'private, max-age=31536000, immutable').send(image.bytes);
  });

  const groupPage = async (request: FastifyRequest, reply: FastifyReply, slug: string, typed?: Typed) => {
    const { deps, viewer } = call(request);
    const { after } = queryOf(PageQuery, request);
    // The group is read once (with its chairs) and handed to the page and to the discussion's scope.
    const { group: loaded, scope } = await groupScope(deps, viewer, slug);
    const [group, posts] = await Promise.all([
      groupViewOf(deps, loaded),
      loaded.abilities.canRead && deps.community.forum_enabled ? groupPosts(deps, viewer, scope, after ?? null) : Promise.resolve({ posts: [], next: null }),
    ]);
    return reply.page({
      title: group.name,
      status: typed?.status,
      body: <GroupPage group={group} posts={posts.posts} next={posts.next} after={after ?? null} notice={typed ? undefined : noticeOf(request)} typed={typed} />,
    });
  };

  app.get('/groups/:slug', member, async (request, reply) => groupPage(request, reply, paramsOf(SlugParams, request, notFound).slug));

  app.post('/groups/:slug/join', member, async (request, reply) => {
    const { slug } = paramsOf(SlugParams, request, notFound);
    const { deps, viewer } = call(request);
    const done = await requestToJoin(deps, viewer, slug);
    return reply.redirectTo(`/groups/${done.slug}?done=requested`);
  });

  // Leaving (a member, or a chair who is not the last): logged; back to the group if it is still theirs to see, else to the list.
  app.post('/groups/:slug/leave', member, async (request, reply) => {
    const { slug } = paramsOf(SlugParams, request, notFound);
    const { deps, viewer } = call(request);
    const done = await leaveGroup(deps, viewer, slug);
    return reply.redirectTo(done.stillSees ? `/groups/${done.slug}?done=left` : '/groups?done=left');
  });

  app.post('/groups/:slug/requests/:requestId', member, async (request, reply) => {
    const { slug, requestId } = paramsOf(RequestParams, request, notFound);
    const { decision } = formOf(DecisionBody, request);
    const { deps, viewer } = call(request);
    const done = await decideRequest(deps, viewer, slug, requestId, decision === 'accept');
    return reply.redirectTo(`/groups/${done.slug}?done=${decision === 'accept' ? 'accepted' : 'declined'}#requests`);
  });

  app.post('/groups/:slug/posts', member, async (request, reply) => {
    const { slug } = paramsOf(SlugParams, request, notFound);
    const body = formOf(PostBody, request);
    const { deps, viewer } = call(request);
    try {
      const post = await postInGroup(deps, viewer, slug, asHtml(body));
      return reply.redirectTo(`/groups/${slug}/posts/${post.id}?done=posted`);
    } catch (e) {
      if (!isAppError(e) || !e.fields) throw e;
      return groupPage(request, reply, slug, { values: body, errors: fieldsOf(e), status: e.status });
    }
  });

  // A refusal of a change that is no field's (the edit window closed meanwhile) is told beside the text.
  const refusalOf = (e: unknown): Record<string, string> | null => {
    if (!isAppError(e)) return null;
    if (e.fields) return fieldsOf(e);
    return e.code === 'Forum.EditWindowClosed' ? { body: t(e.key, e.values) } : null;
  };

  const postPage = async (request: FastifyRequest, reply: FastifyReply, slug: string, postId: string, typed?: Typed) => {
    const { deps, viewer } = call(request);
    const query = queryOf(PageQuery, request);
    const after = query.after;
    // The inline edit form of one's reply: asked for (`?edit-reply={id}`), or shown again with what was typed.
    const editing = typed?.values.target?.startsWith('edit-reply-') ? Number(typed.values.target.slice('edit-reply-'.length)) : Number(query['edit-reply'] ?? NaN);
    const { group, scope } = await groupScope(deps, viewer, slug);
    const view = await groupPost(deps, viewer, scope, postId, after ?? null);
    const mineToEdit = view.replies.find((r) => r.id === editing && r.abilities.canEdit);
    const target = `edit-reply-${editing}`;
    const editingReply = mineToEdit
      ? { id: mineToEdit.id, body: typed?.values.target === target ? (typed.values.body ?? '') : htmlToText(mineToEdit.bodyHtml), error: typed?.errors[target] }
      : null;
    return reply.page({
      title: view.post.title,
      status: typed?.status,
      body: (
        <GroupPostPage
          group={{ name: group.name, slug: group.slug }}
          post={{ ...view.post, bodyHtml: mentionLinksUnder(view.post.bodyHtml, base) }}
          replies={view.replies.map((r) => ({ ...r, bodyHtml: mentionLinksUnder(r.bodyHtml, base) }))}
          next={view.next}
          notice={typed ? undefined : noticeOf(request)}
          typed={typed}
          editing={editingReply}
        />
      ),
    });
  };

  app.get('/groups/:slug/posts/:postId', member, async (request, reply) => {
    const { slug, postId } = paramsOf(PostParams, request, notFound);
    return postPage(request, reply, slug, postId);
  });

  app.post('/groups/:slug/posts/:postId/replies', member, async (request, reply) => {
    const { slug, postId } = paramsOf(PostParams, request, notFound);
    const body = formOf(ReplyBody, request);
    const { deps, viewer } = call(request);
    try {
      const r = await replyInGroup(deps, viewer, slug, postId, asHtml(body));
      return reply.redirectTo(`/groups/${slug}/posts/${r.postId}?done=replied#reply-${r.id}`);
    } catch (e) {
      if (!isAppError(e) || (!e.fields && e.code !== 'Forum.Locked')) throw e;
      return postPage(request, reply, slug, postId, { values: body, errors: e.fields ? fieldsOf(e) : { body: t(e.key) }, status: e.status });
    }
  });

  app.post('/groups/:slug/posts/:postId/moderate', member, async (request, reply) => {
    const { slug, postId } = paramsOf(PostParams, request, notFound);
    const body = formOf(ModerateBody, request);
    const { deps, viewer } = call(request);
    try {
      await moderateInGroup(deps, viewer, slug, body.kind, body.id, body.action, body.reason);
      return reply.redirectTo(`/groups/${slug}/posts/${postId}?done=${body.action === 'remove' ? 'removed' : 'restored'}`);
    } catch (e) {
      if (!isAppError(e) || !e.fields) throw e;
      return postPage(request, reply, slug, postId, { values: { reason: body.reason, target: `${body.kind}-${body.id}` }, errors: { [`reason-${body.kind}-${body.id}`]: Object.values(fieldsOf(e))[0] ?? '' }, status: e.status });
    }
  });

  // The author edits or deletes their own post or reply, in the group's scope (the forum's window and rules; anyone else: 404).
  const editPage = async (request: FastifyRequest, reply: FastifyReply, slug: string, postId: string, typed?: Typed) => {
    const { deps, viewer } = call(request);
    const { group, scope } = await groupScope(deps, viewer, slug);
    const post = await groupPostOnly(deps, viewer, scope, postId);
    if (!typed && !post.abilities.canEdit) throw new AppError(post.author.id === viewer.userId && scope.canPost && post.status !== 'removed' ? 'Forum.EditWindowClosed' : 'Forum.PostNotFound');
    return reply.page({
      title: t('groups.editPost'),
      status: typed?.status,
      body: <GroupPostEditPage group={{ name: group.name, slug: group.slug }} postId={post.id} values={typed?.values ?? { title: post.title, body: htmlToText(post.bodyHtml) }} errors={typed?.errors ?? {}} />,
    });
  };

  app.get('/groups/:slug/posts/:postId/edit', member, async (request, reply) => {
    const { slug, postId } = paramsOf(PostParams, request, notFound);
    return editPage(request, reply, slug, postId);
  });

  app.post('/groups/:slug/posts/:postId/edit', member, async (request, reply) => {
    const { slug, postId } = paramsOf(PostParams, request, notFound);
    const body = formOf(PostBody, request);
    const { deps, viewer } = call(request);
    const { group, scope } = await groupScope(deps, viewer, slug);
    try {
      const post = await editPostInGroup(deps, viewer, scope, postId, asHtml(body));
      return reply.redirectTo(`/groups/${group.slug}/posts/${post.id}?done=edited`);
    } catch (e) {
      const errors = refusalOf(e);
      if (!errors || !isAppError(e)) throw e;
      return editPage(request, reply, slug, postId, { values: body, errors, status: e.status });
    }
  });

  app.post('/groups/:slug/posts/:postId/delete', member, async (request, reply) => {
    const { slug, postId } = paramsOf(PostParams, request, notFound);
    const { deps, viewer } = call(request);
    const { group, scope } = await groupScope(deps, viewer, slug);
    await deletePostInGroup(deps, viewer, scope, postId);
    return reply.redirectTo(`/groups/${group.slug}?done=deleted#discussion`);
  });

  app.get('/groups/:slug/posts/:postId/replies/:replyId/edit', member, async (request, reply) => {
    const { slug, postId, replyId } = paramsOf(ReplyParams, request, notFound);
    const id = Number(replyId);
    if (!Number.isSafeInteger(id) || id <= 0) throw new AppError('Forum.ReplyNotFound');
    return reply.redirectTo(`/groups/${encodeURIComponent(slug)}/posts/${encodeURIComponent(postId)}?edit-reply=${id}#reply-${id}`);
  });

  app.post('/groups/:slug/posts/:postId/replies/:replyId/edit', member, async (request, reply) => {
    const { slug, postId, replyId } = paramsOf(ReplyParams, request, notFound);
    const body = formOf(ReplyBody, request);
    const { deps, viewer } = call(request);
    const { group, scope } = await groupScope(deps, viewer, slug);
    try {
      const r = await editReplyInGroup(deps, viewer, scope, postId, replyId, asHtml(body));
      return reply.redirectTo(`/groups/${group.slug}/posts/${r.postId}?done=edited#reply-${r.id}`);
    } catch (e) {
      const errors = refusalOf(e);
      if (!errors || !isAppError(e)) throw e;
      const target = `edit-reply-${replyId}`;
      return postPage(request, reply, slug, postId, { values: { body: body.body, target }, errors: { [target]: errors.body ?? Object.values(errors)[0] ?? '' }, status: e.status });
    }
  });

  app.post('/groups/:slug/posts/:postId/replies/:replyId/delete', member, async (request, reply) => {
    const { slug, postId, replyId } = paramsOf(ReplyParams, request, notFound);
    const { deps, viewer } = call(request);
    const { group, scope } = await groupScope(deps, viewer, slug);
    await deleteReplyInGroup(deps, viewer, scope, postId, replyId);
    return reply.redirectTo(`/groups/${group.slug}/posts/${postIdOf(postId)}?done=deleted#replies`);
  });
}
