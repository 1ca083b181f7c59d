import type { ReactNode } from 'react';
import { formatDate } from '#src/core/format.ts';
import type { ForumActionView, QueueItem, ReportView, TopicView } from '#src/features/forum/types.ts';
import type { ForumCounts, ModeratorRow, StaffPostQuery, StaffPostRow, StaffReplyRow } from '#src/features/forum/staff.ts';
import { Alert, CsrfField, Field, FieldNotes, Hidden, describedBy } from '#views/auth/parts.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/**
 * The staff's forum area (/admin/forum): an overview and one page per task (waiting posts and
 * replies, reports, posts, topics, moderators, settings, the log). Every action is a plain form
 * (POST, then a redirect back with a notice); a refused one comes back with its message beside the
 * field and what was typed kept.
 */

export const FORUM_STAFF_TABS = ['overview', 'queue', 'reports', 'posts', 'topics', 'moderators', 'settings', 'log'] as const;
export type ForumStaffTab = (typeof FORUM_STAFF_TABS)[number];

export const forumStaffPath = (tab: ForumStaffTab) => (tab === 'overview' ? '/admin/forum' : `/admin/forum/${tab}`);

/** The form that came back refused: which one (its key), what was typed, and the messages. */
export type StaffForm = { key: string; values: Record<string, string>; errors: Record<string, string> };

const dateTime = (value: Date) => `${formatDate(value)}, ${value.toISOString().slice(11, 16)} UTC`;

function Tabs({ current }: { current: ForumStaffTab }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <nav aria-label={t('forumStaff.tabsLabel')}>
      <ul className="board-links forum-staff-tabs">
        {FORUM_STAFF_TABS.map((tab) => (
          <li key={tab}>
            <a href={href(forumStaffPath(tab))} aria-current={tab === current ? 'page' : undefined}>
              {t(`forumStaff.tabs.${tab}`)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The frame of every page of the area: heading, the sections, the notice after an action. */
export function ForumStaffPage({ tab, notice, error, heading, children }: { tab: ForumStaffTab; notice?: string; error?: string; heading?: string; children: ReactNode }) {
  const { t } = usePage();
  return (
    <section className="page-admin forum-staff">
      <h1>{heading ?? t(`forumStaff.titles.${tab}`)}</h1>
      <Tabs current={tab} />
      {notice ? <Alert kind="success">{notice}</Alert> : null}
      {error ? <Alert kind="error">{error}</Alert> : null}
      {children}
    </section>
  );
}

/** The community has no forum: say so, and where to turn it on (instead of a 404 staff cannot explain). */
export function ForumOff({ sitePath }: { sitePath: string }) {
  const { t, community } = usePage();
  const href = useHref();
  return (
    <section className="page-admin forum-staff">
      <h1>{t('forumStaff.off.heading')}</h1>
      <p>{t('forumStaff.off.text', { community: community.name })}</p>
      <p>
        <a href={href(sitePath)}>{t('forumStaff.off.link')}</a>
      </p>
    </section>
  );
}

/** A one-button form (with hidden fields). */
function ActionForm({ action, label, fields = {}, secondary = false }: { action: string; label: string; fields?: Record<string, string | null | undefined>; secondary?: boolean }) {
  const href = useHref();
  return (
    <form method="post" action={href(action)} className="inline-form">
      <CsrfField />
      {Object.entries(fields).map(([name, value]) => (
        <Hidden key={name} name={name} value={value} />
      ))}
      <button type="submit" className={secondary ? 'button button-secondary' : 'button'}>
        {label}
      </button>
    </form>
  );
}

/** A form with one text area (a reason or a note) and its button; its message beside it. */
function ReasonForm({
  action,
  id,
  name,
  label,
  button,
  form,
  formKey,
  required = false,
  secondary = false,
  fields = {},
}: {
  action: string;
  id: string;
  name: string;
  label: string;
  button: string;
  form?: StaffForm;
  formKey: string;
  required?: boolean;
  secondary?: boolean;
  fields?: Record<string, string | null | undefined>;
}) {
  const href = useHref();
  const mine = form?.key === formKey ? form : undefined;
  const error = mine?.errors[name];
  return (
    <form method="post" action={href(action)} className="stack" noValidate>
      <CsrfField />
      {Object.entries(fields).map(([n, value]) => (
        <Hidden key={n} name={n} value={value} />
      ))}
      <div className={error ? 'field field-invalid' : 'field'}>
        <label htmlFor={id}>{label}</label>
        <textarea id={id} name={name} rows={2} required={required} defaultValue={mine?.values[name] ?? ''} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error)} />
        <FieldNotes id={id} error={error} />
      </div>
      <button type="submit" className={secondary ? 'button button-secondary' : 'button'}>
        {button}
      </button>
    </form>
  );
}

/** The message of a refused one-button form of this key, if any. */
function FormError({ form, formKey }: { form?: StaffForm; formKey: string }) {
  if (form?.key !== formKey || !form.errors.form) return null;
  return <Alert kind="error">{form.errors.form}</Alert>;
}

export function ForumOverview({ counts, notice }: { counts: ForumCounts; notice?: string }) {
  const { t, community } = usePage();
  const href = useHref();
  const waiting = counts.pendingPosts + counts.pendingReplies;
  return (
    <ForumStaffPage tab="overview" notice={notice}>
      <p className="muted">{t('forumStaff.overview.intro', { community: community.name })}</p>
      <ul className="forum-staff-counts">
        <li>
          <a href={href('/admin/forum/queue')}>{t('forumStaff.overview.waiting', { n: waiting })}</a>
        </li>
        <li>
          <a href={href('/admin/forum/reports')}>{t('forumStaff.overview.reports', { n: counts.openReports })}</a>
        </li>
        <li>
          <a href={href('/admin/forum/posts')}>{t('forumStaff.overview.posts', { n: counts.posts })}</a>
        </li>
        <li>
          <a href={href('/admin/forum/topics')}>{t('forumStaff.overview.topics', { n: counts.topics })}</a>
        </li>
        <li>
          <a href={href('/admin/forum/moderators')}>{t('forumStaff.overview.moderators', { n: counts.moderators })}</a>
        </li>
        <li>
          <a href={href('/admin/forum/settings')}>{counts.allPostsWait ? t('forumStaff.overview.allWait') : t('forumStaff.overview.someWait')}</a>
        </li>
      </ul>
      <p>
        <a href={href('/forum')}>{t('forumStaff.overview.seeForum')}</a>
      </p>
    </ForumStaffPage>
  );
}

export function ForumQueue({ items, notice, form }: { items: QueueItem[]; notice?: string; form?: StaffForm }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <ForumStaffPage tab="queue" notice={notice} error={form?.errors.form && !items.some((i) => `${i.targetKind}-${i.id}` === form.key) ? form.errors.form : undefined}>
      <p className="muted">{t('forumStaff.queue.intro')}</p>
      {items.length === 0 ? <p>{t('forumStaff.queue.none')}</p> : null}
      <ul className="plain forum-staff-list">
        {items.map((item) => {
          const key = `${item.targetKind}-${item.id}`;
          const base = `/admin/forum/queue/${item.targetKind}/${item.id}`;
          return (
            <li key={key} className="card" id={`queue-${key}`}>
              <h2 className="h3">{item.targetKind === 'post' ? item.postTitle : t('forumStaff.queue.inPost', { title: item.postTitle })}</h2>
              <FormError form={form} formKey={key} />
              <p className="muted">
                {t('forumStaff.queue.by', { kind: t(`forumStaff.kind.${item.targetKind}`), author: item.author.name, time: dateTime(item.createdAt) })}
                {' · '}
                {t(`forumStaff.why.${item.why}`)}
                {item.reportCount > 0 ? ` · ${t('forumStaff.queue.reports', { n: item.reportCount })}` : ''}
              </p>
              <div className="forum-staff-body" dangerouslySetInnerHTML={{ __html: item.bodyHtml }} />
              <p>
                <a href={href(`/forum/post/${item.postId}`)}>{t('forumStaff.queue.open')}</a>
              </p>
              <div className="admin-actions">
                <ReasonForm action={`${base}/approve`} id={`note-${key}`} name="note" label={t('forumStaff.queue.note')} button={t('forumStaff.queue.approve')} form={form} formKey={key} />
                <ReasonForm
                  action={`${base}/reject`}
                  id={`reason-${key}`}
                  name="reason"
                  label={t('forumStaff.queue.reason')}
                  button={t('forumStaff.queue.reject')}
                  form={form}
                  formKey={key}
                  required
                  secondary
                />
              </div>
            </li>
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
      {reports.length === 0 ? <p>{t('forumStaff.reports.none')}</p> : null}
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
                  form={form}
                  formKey={key}
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

function Pager({ base, after, next, nextLabel, firstLabel, params = '' }: { base: string; after: string | null; next: string | null; nextLabel: string; firstLabel: string; params?: string }) {
  const href = useHref();
  if (!after && !next) return null;
  const join = (extra: string) => {
    const qs = [params, extra].filter(Boolean).join('&');
    return href(qs ? `${base}?${qs}` : base);
  };
  return (
    <ul className="board-links">
      {after ? (
        <li>
          <a href={join('')}>{firstLabel}</a>
        </li>
      ) : null}
      {next ? (
        <li>
          <a href={join(`after=${encodeURIComponent(next)}`)} rel="next">
            {nextLabel}
          </a>
        </li>
      ) : null}
    </ul>
  );
}

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
      {rows.length === 0 ? (
        <p>{t('forumStaff.posts.none')}</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t('forumStaff.posts.tableLabel')}>
          <table className="board forum-staff-board">
            <thead>
              <tr>
                {(['title', 'author', 'status', 'replies', 'reports', 'created', 'actions'] as const).map((c) => (
                  <th key={c} scope="col">
                    {t(`forumStaff.posts.col.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
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
                          form={form}
                          formKey={key}
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
            </tbody>
          </table>
        </div>
      )}
      <Pager base="/admin/forum/posts" after={query.after} next={next} params={postsParams(query, false)} nextLabel={t('forumStaff.posts.next')} firstLabel={t('forumStaff.posts.first')} />
    </ForumStaffPage>
  );
}

export function ForumTopics({ topics, notice, form }: { topics: TopicView[]; notice?: string; form?: StaffForm }) {
  const { t } = usePage();
  const href = useHref();
  const creating = form?.key === 'topic-new' ? form : undefined;
  return (
    <ForumStaffPage tab="topics" notice={notice} error={form?.errors.form && !topics.some((x) => `topic-${x.id}` === form.key) ? form.errors.form : undefined}>
      <p className="muted">{t('forumStaff.topics.intro')}</p>
      <h2>{t('forumStaff.topics.new')}</h2>
      <form method="post" action={href('/admin/forum/topics')} className="filters" noValidate>
        <CsrfField />
        <Field id="topic-new" name="name" label={t('forumStaff.topics.name')} error={creating?.errors.name} defaultValue={creating?.values.name ?? ''} required />
        <button type="submit" className="button">
          {t('forumStaff.topics.create')}
        </button>
      </form>
      {topics.length === 0 ? (
        <p>{t('forumStaff.topics.none')}</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t('forumStaff.topics.tableLabel')}>
          <table className="board forum-staff-board">
            <thead>
              <tr>
                {(['name', 'posts', 'state', 'order', 'actions'] as const).map((c) => (
                  <th key={c} scope="col">
                    {t(`forumStaff.topics.col.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {topics.map((topic, i) => {
                const key = `topic-${topic.id}`;
                const mine = form?.key === key ? form : undefined;
                const base = `/admin/forum/topics/${topic.id}`;
                return (
                  <tr key={topic.id} id={key}>
                    <th scope="row">{topic.name}</th>
                    <td>{topic.postCount ?? ''}</td>
                    <td>{topic.archived ? t('forumStaff.topics.archived') : t('forumStaff.topics.active')}</td>
                    <td>
                      <div className="forum-staff-actions">
                        {i > 0 ? (
                          <form method="post" action={href(`${base}/move`)} className="inline-form">
                            <CsrfField />
                            <input type="hidden" name="direction" value="up" />
                            <button type="submit" className="button button-secondary" aria-label={t('forumStaff.topics.up', { name: topic.name })}>
                              ↑
                            </button>
                          </form>
                        ) : null}
                        {i < topics.length - 1 ? (
                          <form method="post" action={href(`${base}/move`)} className="inline-form">
                            <CsrfField />
                            <input type="hidden" name="direction" value="down" />
                            <button type="submit" className="button button-secondary" aria-label={t('forumStaff.topics.down', { name: topic.name })}>
                              ↓
                            </button>
                          </form>
                        ) : null}
                      </div>
                    </td>
                    <td>
                      <FormError form={form} formKey={key} />
                      <form method="post" action={href(`${base}/rename`)} className="forum-staff-actions" noValidate>
                        <CsrfField />
                        <Field id={`rename-${topic.id}`} name="name" label={t('forumStaff.topics.rename', { name: topic.name })} error={mine?.errors.name} defaultValue={mine?.values.name ?? topic.name} required />
                        <button type="submit" className="button button-secondary">
                          {t('forumStaff.topics.renameButton')}
                        </button>
                      </form>
                      <ActionForm action={`${base}/archive`} label={t(topic.archived ? 'forumStaff.topics.unarchive' : 'forumStaff.topics.archive')} fields={{ archived: topic.archived ? 'false' : 'true' }} secondary />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </ForumStaffPage>
  );
}

export function ForumModerators({ moderators, q, candidates, notice, errors = {} }: { moderators: ModeratorRow[]; q: string; candidates: ModeratorRow[] | null; notice?: string; errors?: Record<string, string> }) {
  const { t, community } = usePage();
  const href = useHref();
  const keep = q ? { q } : {};
  return (
    <ForumStaffPage tab="moderators" notice={notice}>
      <p className="muted">{t('forumStaff.moderators.intro')}</p>
      {moderators.length === 0 ? (
        <p>{t('forumStaff.moderators.none')}</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t('forumStaff.moderators.tableLabel')}>
          <table className="board">
            <thead>
              <tr>
                {(['name', 'email', 'state', 'actions'] as const).map((c) => (
                  <th key={c} scope="col">
                    {t(`forumStaff.moderators.col.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {moderators.map((m) => (
                <tr key={m.userId}>
                  <th scope="row">
                    <a href={href(`/admin/members/${encodeURIComponent(community.code)}/${m.userId}`)}>{m.name}</a>
                  </th>
                  <td>{m.email}</td>
                  <td>{m.isActive ? t('forumStaff.moderators.active') : t('forumStaff.moderators.inactive')}</td>
                  <td>
                    <form method="post" action={href(`/admin/forum/moderators/${m.userId}`)} className="inline-form">
                      <CsrfField />
                      <input type="hidden" name="moderator" value="false" />
                      <button type="submit" className="button button-secondary" aria-label={t('forumStaff.moderators.remove', { name: m.name })}>
                        {t('forumStaff.moderators.removeButton')}
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>{t('forumStaff.moderators.find')}</h2>
      <form method="get" action={href('/admin/forum/moderators')} className="filters">
        <Field id="fm-q" name="q" type="search" label={t('forumStaff.moderators.search')} error={errors.q} defaultValue={q} maxLength={200} />
        <button type="submit" className="button">
          {t('forumStaff.moderators.searchButton')}
        </button>
      </form>
      {candidates === null ? null : candidates.length === 0 ? (
        <p role="status">{t('forumStaff.moderators.noMatch')}</p>
      ) : (
        <ul className="plain forum-staff-list">
          {candidates.map((m) => (
            <li key={m.userId} className="forum-staff-actions">
              <span>
                {m.name} <span className="muted">{m.email}</span>
              </span>
              <form method="post" action={href(`/admin/forum/moderators/${m.userId}`)} className="inline-form">
                <CsrfField />
                <input type="hidden" name="moderator" value="true" />
                {Object.entries(keep).map(([n, v]) => (
                  <Hidden key={n} name={n} value={v} />
                ))}
                <button type="submit" className="button" aria-label={t('forumStaff.moderators.appoint', { name: m.name })}>
                  {t('forumStaff.moderators.appointButton')}
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
    </ForumStaffPage>
  );
}

export function ForumSettings({ allPostsWait, notice }: { allPostsWait: boolean; notice?: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <ForumStaffPage tab="settings" notice={notice}>
      <p className="muted">{t('forumStaff.settings.intro')}</p>
      <form method="post" action={href('/admin/forum/settings')} className="stack">
        <CsrfField />
        <div className="field">
          <div className="check">
            <input id="allPostsWait" name="allPostsWait" type="checkbox" value="on" defaultChecked={allPostsWait} aria-describedby="allPostsWait-hint" />
            <label htmlFor="allPostsWait">{t('forumStaff.settings.allWait')}</label>
          </div>
          <p className="field-hint" id="allPostsWait-hint">
            {t('forumStaff.settings.allWaitHint')}
          </p>
        </div>
        <button type="submit" className="button">
          {t('forumStaff.settings.save')}
        </button>
      </form>
    </ForumStaffPage>
  );
}

export function ForumLog({ actions, next, after }: { actions: ForumActionView[]; next: string | null; after: string | null }) {
  const { t } = usePage();
  const href = useHref();
  const targetName = (kind: string) => (['post', 'reply', 'topic', 'report', 'community'].includes(kind) ? t(`forumStaff.log.kinds.${kind}`) : kind);
  const actionName = (a: string) => {
    try {
      return t(`forumAdmin.actions.${a}`);
    } catch {
      return a;
    }
  };
  return (
    <ForumStaffPage tab="log">
      <p className="muted">{t('forumStaff.log.intro')}</p>
      {actions.length === 0 ? (
        <p>{t('forumStaff.log.none')}</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t('forumStaff.log.tableLabel')}>
          <table className="board">
            <thead>
              <tr>
                {(['when', 'who', 'what', 'target', 'note'] as const).map((c) => (
                  <th key={c} scope="col">
                    {t(`forumStaff.log.col.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {actions.map((a) => (
                <tr key={a.id}>
                  <td>{dateTime(a.createdAt)}</td>
                  <td>{a.actor?.name ?? t('forumStaff.log.nobody')}</td>
                  <th scope="row">{actionName(a.action)}</th>
                  <td>
                    {a.targetKind === 'post' ? (
                      <a href={href(`/forum/post/${a.targetId}`)}>{t('forumStaff.log.target', { kind: targetName(a.targetKind), id: a.targetId })}</a>
                    ) : (
                      t('forumStaff.log.target', { kind: targetName(a.targetKind), id: a.targetId })
                    )}
                  </td>
                  <td className="remark-text">{a.note ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager base="/admin/forum/log" after={after} next={next} nextLabel={t('forumStaff.log.next')} firstLabel={t('forumStaff.log.first')} />
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
      {rows.length === 0 ? <p>{t('forumStaff.replies.none')}</p> : null}
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
                  form={form}
                  formKey={key}
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
