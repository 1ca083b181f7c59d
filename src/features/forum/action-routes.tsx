import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '#src/core/errors.ts';
import { z } from 'zod';
import { field, formOf, idParams, paramsOf, queryOf } from '#src/lib/form.ts';
import { isHtmx } from '#src/lib/negotiation.ts';
import { ReportForm } from '#src/features/forum/views/ForumForms.tsx';
import { ForumModeration, type QueueForm } from '#src/features/forum/views/ForumModeration.tsx';
import type { ModerateForm } from '#src/features/forum/views/ForumPost.tsx';
import { FollowButton, ForumLive, LikeButton, Reactions } from '#src/features/forum/views/parts.tsx';
import { forumDeps, forumViewer, isModerator, type ForumDeps, type ForumViewer } from './deps.ts';
import { mentionLinksUnder } from './mentions.ts';
import { approve, moderationQueue, reject } from './moderation.ts';
import { allReactions, BackFields, cursor, fieldMessages, KindIdParams, notice, postPath, ReactFields, reactionToggleOf, toggleOn } from './page-helpers.ts';
import { parseId } from '#src/core/ids.ts';
import { getPost } from './posts.ts';
import { followPost, likePost, likeReply, react, unlikePost, unlikeReply } from './reactions.ts';
import { getReply } from './replies.ts';
import { openReports, reportContent, resolveReport } from './reports.ts';
import { REPORT_DESCRIPTION_MAX, REPORT_REASONS } from './rules.ts';
import type { ForumTargetKind, ReactionCount } from './types.ts';

/** A like or a follow: on or off, and the way back. */
const ToggleForm = z.object({ on: toggleOn, ...BackFields });
/** A reaction given or taken back (ReactFields), and the way back. */
const ReactForm = z.object({ ...ReactFields, ...BackFields });
/** A report: its reason and description as typed (the service checks them and names the field). */
const ReportFormSchema = z.object({ reason: field(), description: field() });
/**
 * A moderator's approval (an optional note) or rejection (a reason), and where it came from: the
 * moderators' page (`moderation`) or the post page (the post's id).
 */
const ModerateFormSchema = z.object({ note: field(), reason: field(), back: field(20) });
/** The moderators' page: a page of open reports, a notice. */
const ModerationQuery = z.object({ after: cursor, notice });

/** What the post page may show beside the post: a refused reply or moderation form, a notice. */
export type PostPageExtra = {
  after?: string | null;
  reply?: { value: string; error?: string };
  notice?: string;
  error?: string;
  moderate?: ModerateForm;
  status?: number;
};

export type PostPage = (request: FastifyRequest, reply: FastifyReply, postId: number, extra?: PostPageExtra) => Promise<unknown>;

/** Errors that are the request's own fault or a missing item: the error handler says so as it is. */
const passOn = (e: unknown) => !isAppError(e) || ['NotAuthenticated', 'NotFound', 'Forbidden', 'Forum.PostNotFound', 'Forum.ReplyNotFound', 'BadRequest.Validation', 'BadRequest.Csrf', 150].includes(e.code);

/**
 * With htmx, only a 2xx answer is swapped in: every failure but a signed-out or malformed request comes
 * back as the button with a message beside it (the item gone: its own message; else the action's).
 */
const htmxPassOn = (e: unknown) => isAppError(e) && ['NotAuthenticated', 'BadRequest.Validation', 'BadRequest.Csrf', 150, 'Forum.Invalid'].includes(e.code);
const htmxMessage = (e: unknown, t: (key: string) => string, fallback: string) => (isAppError(e) && e.status === 404 ? t(e.key) : t(fallback));

/** The state of a post or reply as its buttons show it, read again (after a failed action). */
async function itemState(deps: ForumDeps, viewer: ForumViewer, kind: ForumTargetKind, id: number) {
  const item = kind === 'post' ? await getPost(deps, viewer, id) : await getReply(deps, viewer, id);
  return { likeCount: item.likeCount, likedByMe: item.likedByMe, reactions: item.reactions, postId: kind === 'post' ? id : (item as { postId: number }).postId };
}

/**
 * The forum's actions: like, react, follow (each a plain POST that returns to the item, or with htmx a
 * fragment that replaces its button), reporting, and moderation (the moderators' page and the inline
 * approve / reject forms on a waiting post or reply).
 */
export default async function forumActionRoutes(app: FastifyInstance, { postPage }: { postPage: PostPage }) {
  const t = app.t;
  const member = { config: { access: 'member' as const } };

  /** Back to the item on its page of replies, after a plain POST. */
  const backTo = (kind: ForumTargetKind, id: number, back: { post: number | null; after: string | null }) => {
    const postId = kind === 'post' ? id : back.post;
    if (postId === null) throw new AppError('BadRequest.Validation');
    return { postId, after: back.after, path: postPath(postId, { after: back.after, anchor: kind === 'post' ? 'post' : `reply-${id}` }) };
  };

  app.post('/forum/:kind/:id/like', member, async (request, reply) => {
    const { kind, id } = paramsOf(KindIdParams, request);
    const form = formOf(ToggleForm, request);
    const on = form.on;
    const back = backTo(kind, id, form);
    const deps = forumDeps(request);
    const viewer = forumViewer(request);
    try {
      const set = kind === 'post' ? (on ? likePost : unlikePost) : on ? likeReply : unlikeReply;
      const result = await set(deps, viewer, id);
      if (isHtmx(request)) {
        const count = t('forumPages.post.likeCount', { n: result.likeCount });
        return reply.fragment(
          <>
            <LikeButton kind={kind} id={id} count={result.likeCount} liked={result.likedByMe} />
            <ForumLive text={t(result.likedByMe ? 'forumPages.post.liveLiked' : 'forumPages.post.liveUnliked', { count })} />
          </>,
        );
      }
      return reply.redirectTo(back.path);
    } catch (e) {
      if (isHtmx(request) ? htmxPassOn(e) : passOn(e)) throw e;
      request.log.warn({ err: e }, 'like failed');
      const message = htmxMessage(e, t, 'forum.errors.likeFailed');
      if (isHtmx(request)) {
        // htmx swaps only a 2xx answer: the button comes back as it was, with the message beside it.
        const state = await itemState(deps, viewer, kind, id).catch(() => null);
        return reply.fragment(<LikeButton kind={kind} id={id} count={state?.likeCount ?? 0} liked={state?.likedByMe ?? !on} error={message} />);
      }
      return postPage(request, reply, back.postId, { after: back.after, error: message, status: isAppError(e) ? e.status : 500 });
    }
  });

  app.post('/forum/:kind/:id/react', member, async (request, reply) => {
    const { kind, id } = paramsOf(KindIdParams, request);
    const form = formOf(ReactForm, request);
    const { reaction, on } = reactionToggleOf(form);
    const back = backTo(kind, id, form);
    const deps = forumDeps(request);
    const viewer = forumViewer(request);
    try {
      const reactions = await react(deps, viewer, kind, id, reaction, on);
      if (isHtmx(request)) {
        const n = reactions.find((r) => r.reaction === reaction)?.count ?? 0;
        return reply.fragment(
          <>
            <Reactions kind={kind} id={id} reactions={allReactions(reactions)} />
            <ForumLive text={t(on ? 'forumPages.post.liveReactionOn' : 'forumPages.post.liveReactionOff', { reaction: t(`forum.reactions.${reaction}`), n })} />
          </>,
        );
      }
      return reply.redirectTo(back.path);
    } catch (e) {
      if (isHtmx(request) ? htmxPassOn(e) : passOn(e) || (isAppError(e) && e.code === 'Forum.Invalid')) throw e;
      request.log.warn({ err: e }, 'reaction failed');
      const message = htmxMessage(e, t, 'forum.errors.reactionFailed');
      if (isHtmx(request)) {
        const state = await itemState(deps, viewer, kind, id).catch(() => null);
        const reactions: ReactionCount[] = state?.reactions ?? [];
        return reply.fragment(<Reactions kind={kind} id={id} reactions={allReactions(reactions)} error={message} />);
      }
      return postPage(request, reply, back.postId, { after: back.after, error: message, status: isAppError(e) ? e.status : 500 });
    }
  });

  app.post('/forum/post/:id/follow', member, async (request, reply) => {
    const { id } = paramsOf(idParams, request);
    const form = formOf(ToggleForm, request);
    const on = form.on;
    const back = backTo('post', id, form);
    const deps = forumDeps(request);
    const viewer = forumViewer(request);
    try {
      const result = await followPost(deps, viewer, id, on);
      if (isHtmx(request)) {
        return reply.fragment(
          <>
            <FollowButton postId={id} followed={result.followedByMe} back={back} />
            <ForumLive text={t(result.followedByMe ? 'forumPages.post.liveFollowed' : 'forumPages.post.liveUnfollowed')} />
          </>,
        );
      }
      return reply.redirectTo(back.path);
    } catch (e) {
      if (isHtmx(request) ? htmxPassOn(e) : passOn(e)) throw e;
      request.log.warn({ err: e }, 'follow failed');
      const message = htmxMessage(e, t, 'forum.errors.followFailed');
      if (isHtmx(request)) return reply.fragment(<FollowButton postId={id} followed={!on} back={back} error={message} />);
      return postPage(request, reply, id, { after: back.after, error: message, status: isAppError(e) ? e.status : 500 });
    }
  });

  // Reporting a post or reply: a page with the reasons and a description.
  async function reportPage(request: FastifyRequest, reply: FastifyReply, kind: ForumTargetKind, id: number, typed: { reason: string; description: string }, errors: Record<string, string> = {}, status = 200) {
    const deps = forumDeps(request);
    const viewer = forumViewer(request);
    const item = kind === 'post' ? await getPost(deps, viewer, id) : await getReply(deps, viewer, id);
    const postId = kind === 'post' ? id : (item as { postId: number }).postId;
    const post = kind === 'post' ? (item as Awaited<ReturnType<typeof getPost>>) : await getPost(deps, viewer, postId);
    const anchor = kind === 'post' ? 'post' : `reply-${id}`;
    if (item.reportedByMe) return reply.redirectTo(postPath(postId, { notice: 'alreadyReported', anchor }));
    if (!item.abilities.canReport) return reply.redirectTo(postPath(postId, { anchor }));
    return reply.page({
      title: t('forumPages.report.title'),
      status,
      body: (
        <ReportForm
          kind={kind}
          id={id}
          postId={postId}
          postTitle={post.title}
          authorName={item.author.name}
          reasons={REPORT_REASONS}
          reason={typed.reason}
          description={typed.description}
          max={REPORT_DESCRIPTION_MAX}
          errors={errors}
        />
      ),
    });
  }

  app.get('/forum/report/:kind/:id', member, async (request, reply) => {
    const { kind, id } = paramsOf(KindIdParams, request);
    return reportPage(request, reply, kind, id, { reason: '', description: '' });
  });

  app.post('/forum/report/:kind/:id', member, async (request, reply) => {
    const { kind, id } = paramsOf(KindIdParams, request);
    const typed = formOf(ReportFormSchema, request);
    const deps = forumDeps(request);
    const viewer = forumViewer(request);
    try {
      await reportContent(deps, viewer, kind, id, typed);
    } catch (e) {
      if (isAppError(e) && e.code === 'Forum.AlreadyReported') {
        // A second submit (or a report sent again): back to the item, told it is already reported.
        const postId = kind === 'post' ? id : (await getReply(deps, viewer, id)).postId;
        return reply.redirectTo(postPath(postId, { notice: 'alreadyReported', anchor: kind === 'post' ? 'post' : `reply-${id}` }));
      }
      if (!isAppError(e) || e.status >= 500 || ['NotAuthenticated', 'NotFound', 'Forum.PostNotFound', 'Forum.ReplyNotFound'].includes(String(e.code))) throw e;
      return reportPage(request, reply, kind, id, typed, fieldMessages(e, t), e.status);
    }
    const postId = kind === 'post' ? id : (await getReply(deps, viewer, id)).postId;
    return reply.redirectTo(postPath(postId, { notice: 'reported', anchor: kind === 'post' ? 'post' : `reply-${id}` }));
  });

  // Moderation: the queue and the open reports (moderators and staff), and the forms that act on them.
  async function moderationPage(request: FastifyRequest, reply: FastifyReply, extra: { notice?: string; error?: string; form?: QueueForm; status?: number } = {}) {
    const deps = forumDeps(request);
    const viewer = forumViewer(request);
    if (!(await isModerator(deps, viewer))) throw new AppError('Forum.NotModerator');
    const { after } = queryOf(ModerationQuery, request);
    const [queue, reports] = await Promise.all([moderationQueue(deps, viewer), openReports(deps, viewer, { after })]);
    return reply.page({
      title: t('forumPages.queue.title'),
      status: extra.status,
      body: (
        <ForumModeration
          queue={queue.map((item) => ({ ...item, bodyHtml: mentionLinksUnder(item.bodyHtml, request.server.config.basePath) }))}
          reports={reports.reports}
          olderReportsHref={reports.next ? `/forum/moderation?after=${encodeURIComponent(reports.next)}` : null}
          notice={extra.notice}
          error={extra.error}
          form={extra.form}
        />
      ),
    });
  }

  app.get('/forum/moderation', member, async (request, reply) => {
    const { notice } = queryOf(ModerationQuery, request);
    return moderationPage(request, reply, { notice: notice ? t(`forumPages.notices.${notice}`) : undefined });
  });

  for (const action of ['approve', 'reject'] as const) {
    app.post(`/forum/moderate/:kind/:id/${action}`, member, async (request, reply) => {
      const { kind, id } = paramsOf(KindIdParams, request);
      const form = formOf(ModerateFormSchema, request);
      const fromQueue = form.back === 'moderation';
      const backPost = kind === 'post' ? id : parseId(form.back);
      const deps = forumDeps(request);
      const viewer = forumViewer(request);
      const notice = action === 'approve' ? 'approved' : 'rejected';
      try {
        if (action === 'approve') await approve(deps, viewer, kind, id, form.note);
        else await reject(deps, viewer, kind, id, form.reason);
      } catch (e) {
        if (!isAppError(e) || e.status >= 500 || ['NotAuthenticated', 'NotFound', 'Forum.NotModerator', 'Forum.PostNotFound', 'Forum.ReplyNotFound'].includes(String(e.code))) throw e;
        const messages = fieldMessages(e, t);
        const fieldError = messages.reason ?? messages.note;
        if (fromQueue || backPost === null) {
          return moderationPage(request, reply, {
            status: e.status,
            error: fieldError ? undefined : messages.form,
            form: fieldError ? { key: `reject-${kind}-${id}`, reason: form.reason, error: fieldError } : undefined,
          });
        }
        return postPage(request, reply, backPost, {
          status: e.status,
          error: fieldError ? undefined : messages.form,
          moderate: fieldError ? { kind, id, reason: form.reason, error: fieldError } : undefined,
        });
      }
      if (fromQueue || backPost === null) return reply.redirectTo(`/forum/moderation?notice=${notice}`);
      return reply.redirectTo(postPath(backPost, { notice, anchor: kind === 'post' ? 'post' : `reply-${id}` }));
    });
  }

  for (const resolution of ['dismiss', 'remove'] as const) {
    app.post(`/forum/reports/:id/${resolution}`, member, async (request, reply) => {
      const { id } = paramsOf(idParams, request);
      try {
        await resolveReport(forumDeps(request), forumViewer(request), id, resolution === 'dismiss' ? 'dismissed' : 'removed');
      } catch (e) {
        if (!isAppError(e) || e.code !== 'Forum.AlreadyModerated') throw e;
        return moderationPage(request, reply, { status: e.status, error: t(e.key) });
      }
      return reply.redirectTo(`/forum/moderation?notice=${resolution === 'dismiss' ? 'dismissed' : 'removed'}`);
    });
  }
}
