import { formatDate } from '#shared/format.ts';
import type { StaffPostQuery, StaffPostRow, StaffReplyRow } from '#src/features/forum/index.ts';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { Field } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { ReasonForm } from '#src/features/forum/views/moderation-parts.tsx';
import { ForumStaffPage, ActionForm, FormError, Pager, StaffTable, dateTime, type StaffForm, typedIn } from '#src/features/forum/views/admin/frame.tsx';

/** The posts list's query string (its pages and the actions' way back share it). */
export function postsParams(query: Pick<StaffPostQuery, 'q' | 'status' | 'after'>, withAfter = true): string {
  const p = new URLSearchParams();
  if (query.q) p.set('q', query.q);
  if (query.status) p.set('status', query.status);
  if (withAfter && query.after) p.set('after', query.after);
  return p.toString();
}

export function ForumPosts({ rows, next, query, notice, form, errors = {} }: { rows: StaffPostRow[]; next: string | null; query: StaffPostQuery; notice?: string; form?: StaffForm; errors?: Record<string, string> }) {
  const { t } = usePage();
  const href = useHref();
  const back = postsParams(query);
  const keep = { back };
  return (
    <ForumStaffPage tab="posts" notice={notice} error={form && form.errors.form && !rows.some((r) => `post-${r.id}` === form.key) ? form.errors.form : undefined}>
      <p className="muted">{t('forumStaff.posts.intro')}</p>
      <form method="get" action={href('/admin/forum/posts')} className="filters" aria-label={t('forumStaff.posts.filters')}>
        <Field id="fp-q" name="q" type="search" label={t('forumStaff.posts.search')} error={errors.q} defaultValue={query.q ?? ''} maxLength={200} />
        <div className="field">
          <label htmlFor="fp-status">{t('forumStaff.posts.status')}</label>
          <select id="fp-status" name="status" defaultValue={query.status ?? ''}>
            <option value="">{t('forumStaff.posts.anyStatus')}</option>
            {(['published', 'pending', 'rejected', 'removed'] as const).map((s) => (
              <option key={s} value={s}>
                {t(`forumStaff.status.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          {t('forumStaff.posts.apply')}
        </button>
      </form>
      <StaffTable section="posts" columns={['title', 'author', 'status', 'replies', 'reports', 'created', 'actions']} empty={rows.length === 0} wide>
        {rows.map((r) => {
          const key = `post-${r.id}`;
          const base = `/admin/forum/posts/${r.id}`;
          return (
            <tr key={r.id} id={key}>
              <th scope="row">
                {r.status === 'published' ? <a href={href(`/forum/post/${r.id}`)}>{r.title}</a> : r.title}
                {r.pinned ? <span className="badge">{t('forumStaff.posts.pinned')}</span> : null}
                {r.locked ? <span className="badge">{t('forumStaff.posts.locked')}</span> : null}
              </th>
              <td>{r.authorName}</td>
              <td>
                {t(`forumStaff.status.${r.status}`)}
                {r.moderationNote ? <p className="muted remark-text">{r.moderationNote}</p> : null}
              </td>
              <td>
                <a href={href(`/admin/forum/posts/${r.id}`)} aria-label={t('forumStaff.posts.repliesOf', { n: r.replyCount, title: r.title })}>
                  {r.replyCount}
                </a>
              </td>
              <td>{r.reportCount}</td>
              <td>{formatDate(r.createdAt)}</td>
              <td>
                <FormError form={form} formKey={key} />
                <div className="forum-staff-actions">
                  <ActionForm action={`${base}/lock`} label={t(r.locked ? 'forumStaff.posts.unlock' : 'forumStaff.posts.lock')} fields={{ ...keep, on: r.locked ? 'false' : 'true' }} secondary />
                  <ActionForm action={`${base}/pin`} label={t(r.pinned ? 'forumStaff.posts.unpin' : 'forumStaff.posts.pin')} fields={{ ...keep, on: r.pinned ? 'false' : 'true' }} secondary />
                  {r.status === 'removed' ? <ActionForm action={`${base}/restore`} label={t('forumStaff.posts.restore')} fields={keep} /> : null}
                </div>
                {r.status === 'published' || r.status === 'pending' ? (
                  <details className="forum-staff-more" open={form?.key === key ? true : undefined}>
                    <summary>{t('forumStaff.posts.removeMore')}</summary>
                    <ReasonForm
                    action={`${base}/remove`}
                    id={`remove-post-${r.id}`}
                    name="reason"
                    label={t('forumStaff.posts.removeReason', { title: r.title })}
                    button={t('forumStaff.posts.remove')}
                    {...typedIn(form, key, 'reason')}
                    fields={keep}
                    required
                    secondary
                  />
                  </details>
                ) : null}
              </td>
            </tr>
          );
        })}
      </StaffTable>
      <Pager base="/admin/forum/posts" after={query.after} next={next} params={postsParams(query, false)} nextLabel={t('forumStaff.posts.next')} firstLabel={t('forumStaff.posts.first')} />
    </ForumStaffPage>
  );
}

/** One post's replies in every state, with remove (and its reason) or restore for each. */
export function ForumPostReplies({ post, rows, next, after, notice, form }: { post: StaffPostRow; rows: StaffReplyRow[]; next: string | null; after: string | null; notice?: string; form?: StaffForm }) {
  const { t } = usePage();
  const href = useHref();
  const base = `/admin/forum/posts/${post.id}`;
  return (
    <ForumStaffPage
      tab="posts"
      heading={t('forumStaff.replies.heading', { title: post.title })}
      notice={notice}
      error={form?.errors.form && !rows.some((r) => `reply-${r.id}` === form.key) ? form.errors.form : undefined}
    >
      <p className="muted">
        {t('forumStaff.replies.post', { author: post.authorName, status: t(`forumStaff.status.${post.status}`), date: formatDate(post.createdAt) })}{' '}
        {post.status === 'published' ? <a href={href(`/forum/post/${post.id}`)}>{t('forumStaff.queue.open')}</a> : null}
      </p>
      <p>
        <a href={href('/admin/forum/posts')}>{t('forumStaff.replies.back')}</a>
      </p>
      {rows.length === 0 ? <EmptyState title={t('forumStaff.replies.none')} /> : null}
      <ol className="plain forum-staff-list">
        {rows.map((r) => {
          const key = `reply-${r.id}`;
          return (
            <li key={r.id} className="card" id={key}>
              <h2 className="h3">{t('forumStaff.replies.by', { author: r.authorName, time: dateTime(r.createdAt) })}</h2>
              <FormError form={form} formKey={key} />
              <p className="muted">
                {t(`forumStaff.status.${r.status}`)}
                {r.reportCount > 0 ? ` · ${t('forumStaff.queue.reports', { n: r.reportCount })}` : ''}
              </p>
              <p className="forum-staff-body remark-text">{r.bodyText}</p>
              {r.moderationNote ? <p className="muted remark-text">{t('forumStaff.replies.note', { note: r.moderationNote })}</p> : null}
              {r.status === 'removed' ? (
                <ActionForm action={`${base}/replies/${r.id}/restore`} label={t('forumStaff.posts.restore')} fields={{ after }} />
              ) : r.status === 'published' || r.status === 'pending' ? (
                <ReasonForm
                  action={`${base}/replies/${r.id}/remove`}
                  id={`remove-${key}`}
                  name="reason"
                  label={t('forumStaff.replies.removeReason')}
                  button={t('forumStaff.posts.remove')}
                  {...typedIn(form, key, 'reason')}
                  fields={{ after }}
                  required
                  secondary
                />
              ) : null}
            </li>
          );
        })}
      </ol>
      <Pager base={base} after={after} next={next} nextLabel={t('forumStaff.replies.next')} firstLabel={t('forumStaff.replies.first')} />
    </ForumStaffPage>
  );
}
