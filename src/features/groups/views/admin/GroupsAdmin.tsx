import type { GroupForm, GroupsStaffForm, GroupVisibility, StaffGroupDetail, StaffGroupRow } from '#src/features/groups/index.ts';
import { ActionForm, AdminTable, AdminTabFrame, dateTime, FormError, typedIn } from '#views/admin/tab-frame.tsx';
import { Tabs as KitTabs } from '#views/kit/tabs.tsx';
import { CsrfField, describedBy, Field, FieldNotes, TextArea } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { Button } from '#views/kit/button.tsx';

const VISIBILITIES: readonly GroupVisibility[] = ['disabled', 'preview', 'private', 'public'];

function Tabs({ current }: { current: 'list' | 'new' | 'group' }) {
  const { t } = usePage();
  const tabs = [
    { key: 'list', path: '/admin/groups', label: t('groupsAdmin.tabs.list') },
    { key: 'new', path: '/admin/groups/new', label: t('groupsAdmin.tabs.new') },
  ];
  return <KitTabs label={t('groupsAdmin.tabs.label')} tabs={tabs} current={current} />;
}

/** /admin/groups: every group with its visibility and its people counted. */
export function GroupsAdmin({ rows, notice }: { rows: StaffGroupRow[]; notice?: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <AdminTabFrame className="groups-admin" heading={t('groupsAdmin.heading')} tabs={<Tabs current="list" />} notice={notice}>
      <AdminTable prefix="groupsAdmin" section="groups" columns={['name', 'slug', 'visibility', 'chairs', 'members', 'pending', 'updated']} empty={rows.length === 0}>
        {rows.map((r) => (
          <tr key={r.id}>
            <td>
              <a href={href(`/admin/groups/${r.id}`)}>{r.name}</a>
            </td>
            <td>{r.slug}</td>
            <td>{t(`groupsAdmin.visibility.${r.visibility}`)}</td>
            <td>{r.chairCount}</td>
            <td>{r.memberCount}</td>
            <td>{r.pendingCount}</td>
            <td>{dateTime(r.updatedAt)}</td>
          </tr>
        ))}
      </AdminTable>
    </AdminTabFrame>
  );
}

function VisibilityChoice({ value, error }: { value: string; error?: string }) {
  const { t } = usePage();
  return (
    <fieldset className={error ? 'field field-invalid' : 'field'} aria-describedby={describedBy('group-visibility', error)}>
      <legend>{t('groupsAdmin.field.visibility')}</legend>
      {VISIBILITIES.map((v) => (
        <div key={v} className="choice">
          <input type="radio" id={`group-visibility-${v}`} name="visibility" value={v} defaultChecked={value === v} />
          <label htmlFor={`group-visibility-${v}`}>
            {t(`groupsAdmin.visibility.${v}`)} <span className="muted">— {t(`groupsAdmin.visibilityHint.${v}`)}</span>
          </label>
        </div>
      ))}
      <FieldNotes id="group-visibility" error={error} />
    </fieldset>
  );
}

function GroupFields({ values, errors }: { values: GroupForm; errors: Record<string, string> }) {
  const { t } = usePage();
  const f = (k: string) => t(`groupsAdmin.field.${k}`);
  return (
    <>
      <Field id="group-name" name="name" label={f('name')} maxLength={200} defaultValue={values.name} error={errors.name} required />
      <Field id="group-slug" name="slug" label={f('slug')} hint={f('slugHint')} maxLength={80} defaultValue={values.slug} error={errors.slug} />
      <TextArea id="group-about" name="about" label={f('about')} hint={f('aboutHint')} value={values.about} error={errors.about} rows={6} />
      <VisibilityChoice value={values.visibility} error={errors.visibility} />
    </>
  );
}

/** /admin/groups/new */
export function GroupNew({ values, errors }: { values: GroupForm; errors: Record<string, string> }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <AdminTabFrame className="groups-admin" heading={t('groupsAdmin.heading')} tabs={<Tabs current="new" />} error={errors.form}>
      <h2>{t('groupsAdmin.newTitle')}</h2>
      <form method="post" action={href('/admin/groups')} noValidate>
        <CsrfField />
        <GroupFields values={values} errors={errors} />
        <Button>
          {t('groupsAdmin.create')}
        </Button>
      </form>
    </AdminTabFrame>
  );
}

/** /admin/groups/{id}: the group's form, image, people (search, pasted addresses, remove), CSV and log. */
export function GroupEdit({ group, form, notice, search, found }: { group: StaffGroupDetail; form?: GroupsStaffForm; notice?: string; search: string; found: { id: number; name: string; email: string; companyName: string | null }[] | null }) {
  const { t } = usePage();
  const href = useHref();
  const mine = (key: string) => (form?.key === key ? form : undefined);
  const g = mine('group');
  const values: GroupForm = g ? { name: g.values.name ?? '', slug: g.values.slug ?? '', about: g.values.about ?? '', visibility: g.values.visibility ?? '' } : { name: group.name, slug: group.slug, about: group.about, visibility: group.visibility };
  const imageError = typedIn(form, 'image', 'image').error;
  const people = mine('people');
  const chairs = group.people.filter((p) => p.role === 'chair');
  const members = group.people.filter((p) => p.role === 'member');
  return (
    <AdminTabFrame className="groups-admin" heading={t('groupsAdmin.heading')} tabs={<Tabs current="group" />} notice={notice}>
      <h2>{group.name}</h2>
      <p>
        {t(`groupsAdmin.visibility.${group.visibility}`)} ·{' '}
        {group.visibility !== 'disabled' ? <a href={href(`/groups/${group.slug}`)}>{t('groupsAdmin.viewPage')}</a> : t('groupsAdmin.noPage')}
      </p>
      <section aria-labelledby="group-details">
        <h3 id="group-details">{t('groupsAdmin.detailsHeading')}</h3>
        <FormError form={form} formKey="group" />
        <form method="post" action={href(`/admin/groups/${group.id}`)} noValidate>
          <CsrfField />
          <GroupFields values={values} errors={g?.errors ?? {}} />
          <Button>
            {t('groupsAdmin.save')}
          </Button>
        </form>
      </section>
      <section aria-labelledby="group-image">
        <h3 id="group-image">{t('groupsAdmin.field.image')}</h3>
        {group.image ? <img src={href(group.image.path)} alt="" width={320} height={180} className="group-image" /> : <p>{t('groupsAdmin.noImage')}</p>}
        <form method="post" action={href(`/admin/groups/${group.id}/image`)} encType="multipart/form-data">
          <CsrfField />
          <div className={imageError ? 'field field-invalid' : 'field'}>
            <label htmlFor="group-image-file">{t('groupsAdmin.field.imageFile')}</label>
            <p className="field-hint" id="group-image-file-hint">
              {t('groupsAdmin.field.imageHint')}
            </p>
            <input id="group-image-file" type="file" name="image" accept="image/jpeg,image/png,image/webp" aria-invalid={imageError ? true : undefined} aria-describedby={imageError ? 'group-image-file-error group-image-file-hint' : 'group-image-file-hint'} />
            {imageError ? (
              <p className="field-error" id="group-image-file-error">
                {imageError}
              </p>
            ) : null}
          </div>
          <Button kind="secondary">
            {t('groupsAdmin.upload')}
          </Button>
        </form>
      </section>
      <section aria-labelledby="people">
        <h3 id="people">{t('groupsAdmin.peopleHeading', { chairs: chairs.length, members: members.length })}</h3>
        <p>
          <a href={href(`/admin/groups/${group.id}/people.csv`)}>{t('groupsAdmin.csvLink')}</a>
        </p>
        <FormError form={form} formKey="people" />
        <AdminTable prefix="groupsAdmin" section="people" columns={['name', 'email', 'role', 'added', 'actions']} empty={group.people.length === 0}>
          {group.people.map((p) => (
            <tr key={p.userId}>
              <td>
                {p.name}
                {p.active ? null : <span className="muted"> · {t('groupsAdmin.inactive')}</span>}
              </td>
              <td>{p.email}</td>
              <td>{t(`groupsAdmin.role.${p.role}`)}</td>
              <td>{dateTime(p.addedAt)}</td>
              <td>
                <ActionForm action={`/admin/groups/${group.id}/people/${p.userId}/remove`} label={t('groupsAdmin.remove')} ariaLabel={t('groupsAdmin.removeLabel', { name: p.name })} secondary />
                <ActionForm
                  action={`/admin/groups/${group.id}/people`}
                  label={p.role === 'chair' ? t('groupsAdmin.makeMember') : t('groupsAdmin.makeChair')}
                  ariaLabel={(p.role === 'chair' ? t('groupsAdmin.makeMemberLabel', { name: p.name }) : t('groupsAdmin.makeChairLabel', { name: p.name }))}
                  fields={{ userId: String(p.userId), role: p.role === 'chair' ? 'member' : 'chair' }}
                  secondary
                />
              </td>
            </tr>
          ))}
        </AdminTable>
        <h4>{t('groupsAdmin.pasteHeading')}</h4>
        <form method="post" action={href(`/admin/groups/${group.id}/people`)} noValidate>
          <CsrfField />
          <TextArea id="people-emails" name="emails" label={t('groupsAdmin.field.emails')} hint={t('groupsAdmin.field.emailsHint')} value={people?.values.emails ?? ''} error={people?.errors.emails} rows={4} />
          <RoleSelect value={people?.values.role ?? 'member'} />
          <Button>
            {t('groupsAdmin.add')}
          </Button>
        </form>
        <h4>{t('groupsAdmin.searchHeading')}</h4>
        <form method="get" action={href(`/admin/groups/${group.id}`)} role="search">
          <Field id="people-search" name="q" type="search" label={t('groupsAdmin.field.search')} defaultValue={search} maxLength={100} />
          <Button kind="secondary">
            {t('groupsAdmin.searchButton')}
          </Button>
        </form>
        {found ? (
          found.length === 0 ? (
            <p>{t('groupsAdmin.searchNone')}</p>
          ) : (
            <ul className="group-found">
              {found.map((m) => (
                <li key={m.id}>
                  {m.name} <span className="muted">{m.email}</span>{' '}
                  <ActionForm action={`/admin/groups/${group.id}/people`} label={t('groupsAdmin.addMember')} ariaLabel={t('groupsAdmin.addMemberLabel', { name: m.name })} fields={{ userId: String(m.id), role: 'member' }} secondary />
                  <ActionForm action={`/admin/groups/${group.id}/people`} label={t('groupsAdmin.addChair')} ariaLabel={t('groupsAdmin.addChairLabel', { name: m.name })} fields={{ userId: String(m.id), role: 'chair' }} secondary />
                </li>
              ))}
            </ul>
          )
        ) : null}
      </section>
      <section aria-labelledby="group-log">
        <h3 id="group-log">{t('groupsAdmin.logHeading')}</h3>
        <AdminTable prefix="groupsAdmin" section="log" columns={['when', 'who', 'what', 'detail']} empty={group.log.length === 0}>
          {group.log.map((l) => (
            <tr key={l.id}>
              <td>{dateTime(l.createdAt)}</td>
              <td>{l.actorName ?? '—'}</td>
              <td>{t(`groupsAdmin.actions.${l.action}`)}</td>
              <td>{l.detail}</td>
            </tr>
          ))}
        </AdminTable>
      </section>
    </AdminTabFrame>
  );
}

function RoleSelect({ value }: { value: string }) {
  const { t } = usePage();
  return (
    <div className="field">
      <label htmlFor="people-role">{t('groupsAdmin.field.role')}</label>
      <select id="people-role" name="role" defaultValue={value}>
        <option value="member">{t('groupsAdmin.role.member')}</option>
        <option value="chair">{t('groupsAdmin.role.chair')}</option>
      </select>
    </div>
  );
}
