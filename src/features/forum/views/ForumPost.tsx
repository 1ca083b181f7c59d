import type { ForumStatus, ForumTargetKind, PostView, ReplyView } from '#src/features/forum/index.ts';
import { CsrfField, Hidden } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { itemLinksInner, replyArticleInner, stateNoteHtml } from '#src/features/forum/views/item-html.ts';
import { AuthorLine, FollowButton, ForumLive, ItemActions, StatusBadges, TextArea, TopicLinks, useHtmlContext, type Back } from '#src/features/forum/views/parts.tsx';

/** A moderator's reject (or approve) form that came back with a message, and what was typed. */
export type ModerateForm = { kind: ForumTargetKind; id: number; reason: string; error: string };

export type ForumPostProps = {
  post: PostView;
  replies: ReplyView[];
  /** The cursor of this page of replies (null on the first). */
  after: string | null;
  laterHref: string | null;
  reply: { value: string; error?: string };
  replyMax: number;
  notice?: string;
  error?: string;
  moderate?: ModerateForm;
};

/** Approve, or reject with a reason for the author: inline on a pending post or reply, for moderators and staff. */
function ModerateInline({ kind, id, back, form }: { kind: ForumTargetKind; id: number; back: Back; form?: ModerateForm }) {
  const { t } = usePage();
  const href = useHref();
  const mine = form && form.kind === kind && form.id === id ? form : undefined;
  const reasonId = `reject-${kind}-${id}`;
  return (
    <div className="forum-moderate">
      <form method="post" action={href(`/forum/moderate/${kind}/${id}/approve`)} className="inline-form">
        <CsrfField />
        <input type="hidden" name="back" value={String(back.postId)} />
        <button type="submit" className="button">
          {t('forumPages.moderate.approve')}
        </button>
      </form>
      <form method="post" action={href(`/forum/moderate/${kind}/${id}/reject`)} className="stack">
        <CsrfField />
        <input type="hidden" name="back" value={String(back.postId)} />
        <TextArea id={reasonId} name="reason" label={t('forumPages.moderate.reasonLabel')} value={mine?.reason ?? ''} error={mine?.error} rows={2} />
        <p>
          <button type="submit" className="button button-secondary">
            {t('forumPages.moderate.reject')}
          </button>
        </p>
      </form>
    </div>
  );
}

/** A pending, rejected or removed item's note, if any (item-html.ts). */
function StateNote({ status, note, kind }: { status: ForumStatus; note: string | null; kind: ForumTargetKind }) {
  const html = stateNoteHtml(status, note, kind, useHtmlContext());
  return html ? <div dangerouslySetInnerHTML={{ __html: html }} /> : null;
}

/**
 * A reply: its article is written as a string (item-html.ts: 20 of them make most of the page), and a
 * moderator's approve and reject forms follow it on a waiting reply.
 */
function ReplyItem({ reply, back, moderate }: { reply: ReplyView; back: Back; moderate?: ModerateForm }) {
  const { t } = usePage();
  const ctx = useHtmlContext();
  return (
    <li className="forum-reply" id={`reply-${reply.id}`}>
      <article aria-label={t('forumPages.post.replyBy', { name: reply.author.name })} dangerouslySetInnerHTML={{ __html: replyArticleInner(reply, back, ctx) }} />
      {reply.status === 'pending' && reply.abilities.canModerate ? <ModerateInline kind="reply" id={reply.id} back={back} form={moderate} /> : null}
    </li>
  );
}

/** A post, its replies (a page at a time), and the reply form. */
export function ForumPost({ post, replies, after, laterHref, reply, replyMax, notice, error, moderate }: ForumPostProps) {
  const { t } = usePage();
  const href = useHref();
  const back: Back = { postId: post.id, after };
  return (
    <div className="forum narrow">
      <p>
        <a href={href('/forum')}>{t('forumPages.post.back')}</a>
      </p>
      {notice ? <Alert kind="success">{notice}</Alert> : null}
      {error ? <Alert kind="error">{error}</Alert> : null}
      <ForumLive />
      <article id="post" className="forum-post" aria-labelledby="post-title">
        <h1 id="post-title">{post.title}</h1>
        <p className="forum-badges">
          <StatusBadges status={post.status} pinned={post.pinned} locked={post.locked} />
        </p>
        <AuthorLine author={post.author} at={post.createdAt} edited={post.editedAt !== null} />
        <TopicLinks topics={post.topics} />
        <StateNote status={post.status} note={post.moderationNote} kind="post" />
        <div className="forum-body" dangerouslySetInnerHTML={{ __html: post.bodyHtml }} />
        {post.status === 'published' ? (
          <div className="forum-actions">
            <ItemActions kind="post" id={post.id} likeCount={post.likeCount} liked={post.likedByMe} reactions={post.reactions} back={back} />
            <FollowButton postId={post.id} followed={post.followedByMe} back={back} />
          </div>
        ) : null}
        <ul className="forum-links" dangerouslySetInnerHTML={{ __html: itemLinksInner('post', post.id, post.abilities, post.reportedByMe, useHtmlContext()) }} />
        {post.status === 'pending' && post.abilities.canModerate ? <ModerateInline kind="post" id={post.id} back={back} form={moderate} /> : null}
      </article>

      <section className="forum-replies" aria-labelledby="replies-heading">
        <h2 id="replies-heading">{t('forumPages.post.repliesHeading', { n: post.replyCount })}</h2>
        {replies.length === 0 && !after ? <p className="muted">{t('forumPages.post.noReplies')}</p> : null}
        <ol className="plain">
          {replies.map((r) => (
            <ReplyItem key={r.id} reply={r} back={back} moderate={moderate} />
          ))}
        </ol>
        {after || laterHref ? (
          <nav className="notif-pager" aria-label={t('forumPages.post.replyPages')}>
            {after ? <a href={href(`/forum/post/${post.id}`)}>{t('forumPages.post.earlier')}</a> : <span />}
            {laterHref ? <a href={href(laterHref)}>{t('forumPages.post.later')}</a> : null}
          </nav>
        ) : null}
      </section>

      {post.status === 'published' ? (
        post.abilities.canReply ? (
          <section className="forum-reply-form" aria-labelledby="reply-heading">
            <h2 id="reply-heading">{t('forumPages.post.replyHeading')}</h2>
            <form method="post" action={href(`/forum/post/${post.id}/reply`)} className="stack" noValidate>
              <CsrfField />
              <Hidden name="after" value={after} />
              <TextArea id="reply-body" name="body" label={t('forumPages.post.replyLabel')} value={reply.value} error={reply.error} hint={t('forumPages.post.replyHint', { max: replyMax })} rows={5} />
              <p>
                <button type="submit" className="button">
                  {t('forumPages.post.replySubmit')}
                </button>
              </p>
            </form>
          </section>
        ) : post.locked ? (
          <p className="muted">{t('forumPages.post.lockedNote')}</p>
        ) : null
      ) : null}
    </div>
  );
}
