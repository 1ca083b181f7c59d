import type { PostView, ReplyView } from '#src/features/forum/index.ts';
import { Alert } from '#views/kit/alert.tsx';
import { DateText } from '#views/kit/date-text.tsx';
import { CsrfField, Field, Hidden, TextArea } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { Button } from '#views/kit/button.tsx';

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
      <Button kind="secondary">
        {removed ? t('groups.moderate.restore') : t('groups.moderate.remove')}
      </Button>
    </form>
  );
}

/** The author's edit and delete of their own post or reply (shown where its abilities allow), as plain forms. */
function OwnChanges({ base, canEdit, canDelete, editHref, label }: { base: string; canEdit: boolean; canDelete: boolean; editHref: string; label: string }) {
  const { t } = usePage();
  const href = useHref();
  if (!canEdit && !canDelete) return null;
  return (
    <p className="own-changes">
      {canEdit ? (
        <Button kind="secondary" href={href(editHref)} ariaLabel={t('groups.own.editLabel', { what: label })}>
          {t('groups.own.edit')}
        </Button>
      ) : null}{' '}
      {canDelete ? (
        <form method="post" action={href(`${base}/delete`)} className="inline-form">
          <CsrfField />
          <Button kind="danger" ariaLabel={t('groups.own.deleteLabel', { what: label })}>
            {t('groups.own.delete')}
          </Button>
        </form>
      ) : null}
    </p>
  );
}

/** `/groups/{slug}/posts/{id}/edit`: the author edits their post (the forum's rules), refusals beside the field. */
export function GroupPostEditPage({ group, postId, values, errors }: { group: { name: string; slug: string }; postId: number; values: Record<string, string>; errors: Record<string, string> }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <article className="group-post-edit">
      <p>
        <a href={href(`/groups/${group.slug}/posts/${postId}`)}>{t('groups.own.cancel')}</a>
      </p>
      <h1>{t('groups.editPost')}</h1>
      <form method="post" action={href(`/groups/${group.slug}/posts/${postId}/edit`)} noValidate>
        <CsrfField />
        <Field id="post-title" name="title" label={t('groups.field.title')} maxLength={400} defaultValue={values.title ?? ''} error={errors.title} />
        <TextArea id="post-body" name="body" label={t('groups.field.body')} hint={t('groups.field.bodyHint')} value={values.body ?? ''} error={errors.body} rows={8} />
        <Button>
          {t('groups.own.save')}
        </Button>
      </form>
    </article>
  );
}

/** `/groups/{slug}/posts/{id}`: a post of the group's discussion, its replies, the reply form; the chairs' remove and restore. */
export function GroupPostPage({
  group,
  post,
  replies,
  next,
  notice,
  typed,
  editing,
}: {
  group: { name: string; slug: string };
  post: PostView;
  replies: ReplyView[];
  next: string | null;
  notice?: string;
  typed?: Typed;
  /** The viewer's reply edited inline (`?edit-reply={id}`), with its text and refusal. */
  editing?: { id: number; body: string; error?: string } | null;
}) {
  const postBase = `/groups/${group.slug}/posts/${post.id}`;
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
      <OwnChanges base={postBase} canEdit={post.abilities.canEdit} canDelete={post.abilities.canDelete} editHref={`${postBase}/edit`} label={post.title} />
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
              {editing?.id === r.id ? (
                <form method="post" action={href(`${postBase}/replies/${r.id}/edit`)} noValidate>
                  <CsrfField />
                  <TextArea id={`edit-reply-${r.id}`} name="body" label={t('groups.own.editReply')} value={editing.body} error={editing.error} rows={4} />
                  <Button>
                    {t('groups.own.save')}
                  </Button>{' '}
                  <a href={href(`${postBase}#reply-${r.id}`)}>{t('groups.own.cancel')}</a>
                </form>
              ) : (
                <>
                  <div dangerouslySetInnerHTML={{ __html: r.bodyHtml }} />
                  <OwnChanges base={`${postBase}/replies/${r.id}`} canEdit={r.abilities.canEdit} canDelete={r.abilities.canDelete} editHref={`${postBase}?edit-reply=${r.id}#reply-${r.id}`} label={t('groups.own.yourReply')} />
                </>
              )}
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
          <Button>
            {t('groups.sendReply')}
          </Button>
        </form>
      ) : null}
    </article>
  );
}
