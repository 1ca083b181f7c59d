import type { QueueItem, ReportView } from '#src/features/forum/index.ts';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { QueueItemCard, queueKey, ReasonForm } from '#src/features/forum/views/moderation-parts.tsx';
import { ForumStaffPage, ActionForm, FormError, Pager, dateTime, type StaffForm, typedIn } from '#src/features/forum/views/admin/frame.tsx';

export function ForumQueue({ items, notice, form }: { items: QueueItem[]; notice?: string; form?: StaffForm }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <ForumStaffPage tab="queue" notice={notice} error={form?.errors.form && !items.some((i) => queueKey(i) === form.key) ? form.errors.form : undefined}>
      <p className="muted">{t('forumStaff.queue.intro')}</p>
      {items.length === 0 ? <EmptyState title={t('forumStaff.queue.none')} /> : null}
      <ul className="plain forum-staff-list">
        {items.map((item) => {
          const key = queueKey(item);
          const base = `/admin/forum/queue/${item.targetKind}/${item.id}`;
          return (
            <QueueItemCard
              key={key}
              item={item}
              level={2}
              heading={item.targetKind === 'post' ? item.postTitle : t('forumStaff.queue.inPost', { title: item.postTitle })}
              before={<FormError form={form} formKey={key} />}
              meta={
                <p className="muted">
                  {t('forumStaff.queue.by', { kind: t(`forumStaff.kind.${item.targetKind}`), author: item.author.name, time: dateTime(item.createdAt) })}
                  {' · '}
                  {t(`forumStaff.why.${item.why}`)}
                  {item.reportCount > 0 ? ` · ${t('forumStaff.queue.reports', { n: item.reportCount })}` : ''}
                </p>
              }
            >
              <p>
                <a href={href(`/forum/post/${item.postId}`)}>{t('forumStaff.queue.open')}</a>
              </p>
              <div className="admin-actions">
                <ReasonForm action={`${base}/approve`} id={`note-${key}`} name="note" label={t('forumStaff.queue.note')} button={t('forumStaff.queue.approve')} {...typedIn(form, key, 'note')} />
                <ReasonForm
                  action={`${base}/reject`}
                  id={`reason-${key}`}
                  name="reason"
                  label={t('forumStaff.queue.reason')}
                  button={t('forumStaff.queue.reject')}
                  {...typedIn(form, key, 'reason')}
                  required
                  secondary
                />
              </div>
            </QueueItemCard>
          );
        })}
      </ul>
    </ForumStaffPage>
  );
}

export function ForumReports({ reports, next, after, notice, form }: { reports: ReportView[]; next: string | null; after: string | null; notice?: string; form?: StaffForm }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <ForumStaffPage tab="reports" notice={notice} error={form?.errors.form && !reports.some((r) => `report-${r.id}` === form.key) ? form.errors.form : undefined}>
      <p className="muted">{t('forumStaff.reports.intro')}</p>
      {reports.length === 0 ? <EmptyState title={t('forumStaff.reports.none')} /> : null}
      <ul className="plain forum-staff-list">
        {reports.map((r) => {
          const key = `report-${r.id}`;
          return (
            <li key={r.id} className="card" id={key}>
              <h2 className="h3">{t('forumStaff.reports.reason', { reason: t(`forum.reportReasons.${r.reason}`) })}</h2>
              <FormError form={form} formKey={key} />
              <p className="muted">{t('forumStaff.reports.by', { reporter: r.reporter.name, time: dateTime(r.createdAt) })}</p>
              {r.description ? <p className="remark-text">{r.description}</p> : null}
              <p>
                {t('forumStaff.reports.against', { kind: t(`forumStaff.kind.${r.targetKind}`), author: r.author.name })}{' '}
                <a href={href(`/forum/post/${r.postId}`)}>{r.postTitle}</a>
              </p>
              <blockquote className="forum-staff-body remark-text">{r.excerpt}</blockquote>
              <div className="admin-actions">
                <ActionForm action={`/admin/forum/reports/${r.id}/dismiss`} label={t('forumStaff.reports.dismiss')} fields={{ after }} secondary />
                <ReasonForm
                  action={`/admin/forum/reports/${r.id}/remove`}
                  id={`remove-${key}`}
                  name="reason"
                  label={t('forumStaff.reports.removeReason')}
                  button={t('forumStaff.reports.remove')}
                  {...typedIn(form, key, 'reason')}
                  fields={{ after }}
                  required
                />
              </div>
            </li>
          );
        })}
      </ul>
      <Pager base="/admin/forum/reports" after={after} next={next} nextLabel={t('forumStaff.reports.next')} firstLabel={t('forumStaff.reports.first')} />
    </ForumStaffPage>
  );
}
