import type { PostView, ReplyView } from '#src/features/forum/index.ts';
import { Alert } from '#views/kit/alert.tsx';
import { DateText } from '#views/kit/date-text.tsx';
import { CsrfField, Hidden, TextArea } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

type Typed = { values: Record<string, string>; errors: Record<string, string> };

function Moderate({ slug, postId, kind, id, removed, typed }: { slug: string; postId: number; kind: 'post' | 'reply'; id: number; removed: boolean; typed?: Typed }) {
  const { t } = usePage();
  const href = useHref();
  const key = `reason-${kind}-${id}`;
  const mine = typed?.values.target === `${kind}-${id}`;
  return (
    <form method="post" action={href(`/groups/${slug}/posts/${postId}/moderate`)} className="group-moderate" noValidate>
      <CsrfField />
      <Hidden name="kind" value={kind} />
      <Hidden name="id" value={String(id)} />
      <Hidden name="action" value={removed ? 'restore' : 'remove'} />
      {removed ? null : <TextArea id={key} name="reason" label={t('groups.moderate.reason')} value={mine ? (typed?.values.reason ?? '') : ''} error={typed?.errors[key]} rows={2} />}
      <button type="submit" className="button button-secondary">
        {removed ? t('groups.moderate.restore') : t('groups.moderate.remove')}
      </button>
    </form>
  );
}

/** `/groups/{slug}/posts/{id}`: a post of the group's discussion, its replies, the reply form; the chairs' remove and restore. */
export function GroupPostPage({ group, post, replies, next, notice, typed }: { group: { name: string; slug: string }; post: PostView; replies: ReplyView[]; next: string | null; notice?: string; typed?: Typed }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <article className="group-post">
      <p>
        <a href={href(`/groups/${group.slug}#discussion`)}>{t('groups.backTo', { name: group.name })}</a>
      </p>
      <h1>{post.title}</h1>
      <p className="muted">
        {post.author.name} · <DateText at={post.createdAt} />
        {post.status !== 'published' ? ` · ${t(`groups.status.${post.status}`)}` : ''}
      </p>
      {notice ? <Alert kind="success">{notice}</Alert> : null}
      {post.moderationNote ? <Alert kind="info">{t('groups.moderate.note', { note: post.moderationNote })}</Alert> : null}
      <div className="post-body" dangerouslySetInnerHTML={{ __html: post.bodyHtml }} />
      {post.abilities.canModerate ? <Moderate slug={group.slug} postId={post.id} kind="post" id={post.id} removed={post.status === 'removed'} typed={typed} /> : null}
      <section aria-labelledby="replies">
        <h2 id="replies">{t('groups.replies', { count: post.replyCount })}</h2>
        <ol className="replies">
          {replies.map((r) => (
            <li key={r.id} id={`reply-${r.id}`}>
              <p className="muted">
                {r.author.name} · <DateText at={r.createdAt} />
                {r.status !== 'published' ? ` · ${t(`groups.status.${r.status}`)}` : ''}
              </p>
              <div dangerouslySetInnerHTML={{ __html: r.bodyHtml }} />
              {r.abilities.canModerate && (r.abilities.canRemove || r.status === 'removed') ? <Moderate slug={group.slug} postId={post.id} kind="reply" id={r.id} removed={r.status === 'removed'} typed={typed} /> : null}
            </li>
          ))}
        </ol>
        {next ? (
          <p>
            <a href={href(`/groups/${group.slug}/posts/${post.id}?after=${encodeURIComponent(next)}`)} rel="next">
              {t('groups.moreReplies')}
            </a>
          </p>
        ) : null}
      </section>
      {post.abilities.canReply ? (
        <form method="post" action={href(`/groups/${group.slug}/posts/${post.id}/replies`)} noValidate>
          <CsrfField />
          <TextArea id="reply-body" name="body" label={t('groups.field.reply')} value={typed && !typed.values.target ? (typed.values.body ?? '') : ''} error={typed?.errors.body} rows={4} />
          <button type="submit" className="button">
            {t('groups.sendReply')}
          </button>
        </form>
      ) : null}
    </article>
  );
}
