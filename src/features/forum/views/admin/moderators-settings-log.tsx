import type { ForumActionView } from '#src/features/forum/index.ts';
import type { ModeratorRow } from '#src/features/forum/index.ts';
import { CsrfField, Field, Hidden } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { ForumStaffPage, Pager, StaffTable, dateTime } from '#src/features/forum/views/admin/frame.tsx';

export function ForumModerators({ moderators, q, candidates, notice, errors = {} }: { moderators: ModeratorRow[]; q: string; candidates: ModeratorRow[] | null; notice?: string; errors?: Record<string, string> }) {
  const { t, community } = usePage();
  const href = useHref();
  const keep = q ? { q } : {};
  return (
    <ForumStaffPage tab="moderators" notice={notice}>
      <p className="muted">{t('forumStaff.moderators.intro')}</p>
      <StaffTable section="moderators" columns={['name', 'email', 'state', 'actions']} empty={moderators.length === 0}>
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
      </StaffTable>
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
      <StaffTable section="log" columns={['when', 'who', 'what', 'target', 'note']} empty={actions.length === 0}>
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
      </StaffTable>
      <Pager base="/admin/forum/log" after={after} next={next} nextLabel={t('forumStaff.log.next')} firstLabel={t('forumStaff.log.first')} />
    </ForumStaffPage>
  );
}
