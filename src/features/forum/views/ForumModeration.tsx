import type { QueueItem, ReportView } from '#src/features/forum/index.ts';
import { CsrfField } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { QueueItemCard, queueKey, ReasonForm } from '#src/features/forum/views/moderation-parts.tsx';
import { AuthorLine, itemHref, When } from '#src/features/forum/views/parts.tsx';

/** A form on this page that came back with a message: which one, what was typed. */
export type QueueForm = { key: string; reason: string; error: string };


/** The moderators' page: what waits for approval, and the open reports. */
export function ForumModeration({ queue, reports, olderReportsHref, notice, error, form }: { queue: QueueItem[]; reports: ReportView[]; olderReportsHref: string | null; notice?: string; error?: string; form?: QueueForm }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="forum narrow">
      <p>
        <a href={href('/forum')}>{t('forumPages.post.back')}</a>
      </p>
      <h1>{t('forumPages.queue.heading')}</h1>
      {notice ? <Alert kind="success">{notice}</Alert> : null}
      {error ? <Alert kind="error">{error}</Alert> : null}
      <h2>{t('forumPages.queue.waiting', { n: queue.length })}</h2>
      {queue.length === 0 ? <EmptyState title={t('forumPages.queue.emptyQueue')} /> : null}
      <ul className="plain forum-queue">
        {queue.map((item) => {
          const key = queueKey(item);
          const formKey = `reject-${key}`;
          const mine = form?.key === formKey ? form : undefined;
          return (
            <QueueItemCard
              key={key}
              item={item}
              heading={
                <>
                  {t('forumPages.queue.kind', { kind: item.targetKind })} <a href={href(itemHref(item.targetKind, item.id, item.postId))}>{t('forumPages.queue.in', { title: item.postTitle })}</a>
                </>
              }
              meta={
                <>
                  <p className="muted">{t(`forumPages.queue.why.${item.why}`, { n: item.reportCount })}</p>
                  <AuthorLine author={item.author} at={item.createdAt} />
                </>
              }
            >
              <div className="forum-moderate">
                <form method="post" action={href(`/forum/moderate/${item.targetKind}/${item.id}/approve`)} className="inline-form">
                  <CsrfField />
                  <input type="hidden" name="back" value="moderation" />
                  <button type="submit" className="button">
                    {t('forumPages.moderate.approve')}
                  </button>
                </form>
                <ReasonForm
                  action={`/forum/moderate/${item.targetKind}/${item.id}/reject`}
                  id={`reason-${formKey}`}
                  name="reason"
                  label={t('forumPages.moderate.reasonLabel')}
                  button={t('forumPages.moderate.reject')}
                  value={mine?.reason}
                  error={mine?.error}
                  fields={{ back: 'moderation' }}
                  required
                  secondary
                />
              </div>
            </QueueItemCard>
          );
        })}
      </ul>
      <h2>{t('forumPages.queue.reports', { n: reports.length })}</h2>
      {reports.length === 0 ? <EmptyState title={t('forumPages.queue.emptyReports')} /> : null}
      <ul className="plain forum-queue">
        {reports.map((r) => (
          <li key={r.id} className="card" id={`report-${r.id}`}>
            <h3>
              {t('forumPages.queue.kind', { kind: r.targetKind })} <a href={href(itemHref(r.targetKind, r.targetId, r.postId))}>{t('forumPages.queue.in', { title: r.postTitle })}</a>
            </h3>
            <p>
              {t('forumPages.queue.reportedBy', { name: r.reporter.name, reason: t(`forum.reportReasons.${r.reason}`) })} · <When at={r.createdAt} template="forumPages.queue.reportedAt" />
            </p>
            {r.description ? <p className="intro-text">{r.description}</p> : null}
            <AuthorLine author={r.author} />
            <p className="intro-text">{r.excerpt}</p>
            <div className="forum-moderate">
              <form method="post" action={href(`/forum/reports/${r.id}/dismiss`)} className="inline-form">
                <CsrfField />
                <input type="hidden" name="back" value="moderation" />
                <button type="submit" className="button button-secondary">
                  {t('forumPages.moderate.dismiss')}
                </button>
              </form>
              <form method="post" action={href(`/forum/reports/${r.id}/remove`)} className="inline-form">
                <CsrfField />
                <button type="submit" className="button">
                  {t('forumPages.moderate.remove')}
                </button>
              </form>
            </div>
          </li>
        ))}
      </ul>
      {olderReportsHref ? (
        <nav className="notif-pager" aria-label={t('forumPages.queue.reports', { n: reports.length })}>
          <a href={href(olderReportsHref)}>{t('forumPages.queue.olderReports')}</a>
        </nav>
      ) : null}
    </section>
  );
}
