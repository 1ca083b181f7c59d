import type { ReactNode } from 'react';
import { formatDate } from '#src/core/format.ts';
import type { ForumCounts } from '#src/features/forum/staff.ts';
import { Alert, CsrfField, Hidden } from '#views/auth/parts.tsx';
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

export const dateTime = (value: Date) => `${formatDate(value)}, ${value.toISOString().slice(11, 16)} UTC`;

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
export function ActionForm({
  action,
  label,
  fields = {},
  secondary = false,
  ariaLabel,
}: {
  action: string;
  label: string;
  fields?: Record<string, string | null | undefined>;
  secondary?: boolean;
  /** The button's accessible name where its text is a symbol (↑, ↓). */
  ariaLabel?: string;
}) {
  const href = useHref();
  return (
    <form method="post" action={href(action)} className="inline-form">
      <CsrfField />
      {Object.entries(fields).map(([name, value]) => (
        <Hidden key={name} name={name} value={value} />
      ))}
      <button type="submit" className={secondary ? 'button button-secondary' : 'button'} aria-label={ariaLabel}>
        {label}
      </button>
    </form>
  );
}

/**
 * One of the staff's tables (its texts under forumStaff.<section>: none, tableLabel, col.<column>):
 * when `empty`, the "none" line; else the table in its scrolling region, its head, and `children` as
 * the body's rows. `wide`: the board with action columns (forum-staff-board).
 */
export function StaffTable({
  section,
  columns,
  empty,
  wide = false,
  children,
}: {
  section: 'moderators' | 'log' | 'posts' | 'topics';
  columns: readonly string[];
  empty: boolean;
  wide?: boolean;
  children: ReactNode;
}) {
  const { t } = usePage();
  if (empty) return <p>{t(`forumStaff.${section}.none`)}</p>;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={t(`forumStaff.${section}.tableLabel`)}>
      <table className={wide ? 'board forum-staff-board' : 'board'}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {t(`forumStaff.${section}.col.${c}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** The message of a refused one-button form of this key, if any. */
export function FormError({ form, formKey }: { form?: StaffForm; formKey: string }) {
  if (form?.key !== formKey || !form.errors.form) return null;
  return <Alert kind="error">{form.errors.form}</Alert>;
}

export function Pager({ base, after, next, nextLabel, firstLabel, params = '' }: { base: string; after: string | null; next: string | null; nextLabel: string; firstLabel: string; params?: string }) {
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

/** What a refused reason form of this key typed, and its message: for ReasonForm's value and error. */
export function typedIn(form: StaffForm | undefined, formKey: string, name: string): { value?: string; error?: string } {
  const mine = form?.key === formKey ? form : undefined;
  return { value: mine?.values[name], error: mine?.errors[name] };
}
