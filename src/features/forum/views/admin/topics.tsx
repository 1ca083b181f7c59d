import type { TopicView } from '#src/features/forum/index.ts';
import { CsrfField, Field } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { ForumStaffPage, ActionForm, FormError, StaffTable, type StaffForm } from '#src/features/forum/views/admin/frame.tsx';

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
      <StaffTable section="topics" columns={['name', 'posts', 'state', 'order', 'actions']} empty={topics.length === 0} wide>
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
                  {i > 0 ? <ActionForm action={`${base}/move`} label="↑" ariaLabel={t('forumStaff.topics.up', { name: topic.name })} fields={{ direction: 'up' }} secondary /> : null}
                  {i < topics.length - 1 ? <ActionForm action={`${base}/move`} label="↓" ariaLabel={t('forumStaff.topics.down', { name: topic.name })} fields={{ direction: 'down' }} secondary /> : null}
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
      </StaffTable>
    </ForumStaffPage>
  );
}
