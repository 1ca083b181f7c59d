import type { ReactNode } from 'react';
import type { ForumCounts } from '#src/features/forum/index.ts';
import { AdminTable, AdminTabFrame, type TabForm } from '#views/admin/tab-frame.tsx';
import { Tabs } from '#views/kit/tabs.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

export { ActionForm, dateTime, FormError, Pager, typedIn } from '#views/admin/tab-frame.tsx';

/**
 * The staff's forum area (/admin/forum): an overview and one page per task (waiting posts and
 * replies, reports, posts, topics, moderators, settings, the log). Every action is a plain form
 * (POST, then a redirect back with a notice); a refused one comes back with its message beside the
 * field and what was typed kept. The frame, forms, tables and pager are the staff areas' shared ones
 * (views/admin/tab-frame.tsx).
 */

export const FORUM_STAFF_TABS = ['overview', 'queue', 'reports', 'posts', 'topics', 'moderators', 'settings', 'log'] as const;

export type ForumStaffTab = (typeof FORUM_STAFF_TABS)[number];

export const forumStaffPath = (tab: ForumStaffTab) => (tab === 'overview' ? '/admin/forum' : `/admin/forum/${tab}`);

/** The form that came back refused: which one (its key), what was typed, and the messages. */
export type StaffForm = TabForm;

/** The frame of every page of the area: heading, the sections, the notice after an action. */
export function ForumStaffPage({ tab, notice, error, heading, children }: { tab: ForumStaffTab; notice?: string; error?: string; heading?: string; children: ReactNode }) {
  const { t } = usePage();
  const tabs = FORUM_STAFF_TABS.map((key) => ({ key, path: forumStaffPath(key), label: t(`forumStaff.tabs.${key}`) }));
  return (
    <AdminTabFrame
      className="page-admin forum-staff"
      heading={heading ?? t(`forumStaff.titles.${tab}`)}
      tabs={<Tabs label={t('forumStaff.tabsLabel')} tabs={tabs} current={tab} className="forum-staff-tabs" />}
      notice={notice}
      error={error}
    >
      {children}
    </AdminTabFrame>
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
  return (
    <AdminTable prefix="forumStaff" section={section} columns={columns} empty={empty} tableClass={wide ? 'board forum-staff-board' : 'board'}>
      {children}
    </AdminTable>
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
          {counts.groupPosts ? ` ${t('forumStaff.overview.groupPosts', { n: counts.groupPosts })}` : null}
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
