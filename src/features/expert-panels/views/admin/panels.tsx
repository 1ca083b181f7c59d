import type { PanelDetail, PanelRow } from '#src/features/expert-panels/index.ts';
import { CsrfField, Field } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { ActionForm, EpAdminPage, EpTable, FormError, dateTime, typed, type EpForm } from '#src/features/expert-panels/views/admin/frame.tsx';

/** The fields of a panel (create and edit share them). */
function PanelFields({ prefix, form, formKey, panel }: { prefix: string; form?: EpForm; formKey: string; panel?: PanelRow }) {
  const { t } = usePage();
  const f = (name: string) => typed(form, formKey, name);
  return (
    <>
      <Field id={`${prefix}-name`} name="name" label={t('expertPanelsAdmin.panels.name')} error={f('name').error} defaultValue={f('name').value ?? panel?.name ?? ''} required />
      <Field id={`${prefix}-topic`} name="topic" label={t('expertPanelsAdmin.panels.topic')} error={f('topic').error} defaultValue={f('topic').value ?? panel?.topic ?? ''} />
      <Field id={`${prefix}-min`} name="minWords" inputMode="numeric" label={t('expertPanelsAdmin.panels.minWords')} error={f('minWords').error} defaultValue={f('minWords').value ?? String(panel?.minWords ?? 50)} required />
      <Field id={`${prefix}-max`} name="maxWords" inputMode="numeric" label={t('expertPanelsAdmin.panels.maxWords')} error={f('maxWords').error} defaultValue={f('maxWords').value ?? String(panel?.maxWords ?? 300)} required />
    </>
  );
}

export function EpPanels({ panels, notice, form }: { panels: PanelRow[]; notice?: string; form?: EpForm }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <EpAdminPage tab="panels" heading={t('expertPanelsAdmin.titles.panels')} notice={notice}>
      <p className="muted">{t('expertPanelsAdmin.panels.intro')}</p>
      <EpTable section="panels" columns={['name', 'topic', 'words', 'members', 'state']} empty={panels.length === 0}>
        {panels.map((p) => (
          <tr key={p.id}>
            <th scope="row">
              <a href={href(`/admin/expert-panels/panels/${p.id}`)}>{p.name}</a>
            </th>
            <td>{p.topic}</td>
            <td>{t('expertPanelsAdmin.panels.range', { min: p.minWords, max: p.maxWords })}</td>
            <td>{p.memberCount}</td>
            <td>{p.archived ? t('expertPanelsAdmin.panels.archived') : t('expertPanelsAdmin.panels.active')}</td>
          </tr>
        ))}
      </EpTable>
      <h2>{t('expertPanelsAdmin.panels.new')}</h2>
      <form method="post" action={href('/admin/expert-panels/panels')} className="stack" noValidate>
        <CsrfField />
        <PanelFields prefix="panel-new" form={form} formKey="panel-new" />
        <p>
          <button type="submit" className="button">
            {t('expertPanelsAdmin.panels.create')}
          </button>
        </p>
      </form>
    </EpAdminPage>
  );
}

export function EpPanel({ panel, notice, form }: { panel: PanelDetail; notice?: string; form?: EpForm }) {
  const { t } = usePage();
  const href = useHref();
  const base = `/admin/expert-panels/panels/${panel.id}`;
  const who = typed(form, 'member-add', 'who');
  return (
    <EpAdminPage tab="panels" heading={t('expertPanelsAdmin.panels.heading', { name: panel.name })} notice={notice}>
      <p>
        <a href={href('/admin/expert-panels')}>{t('expertPanelsAdmin.panels.back')}</a>
      </p>
      <p>{panel.archived ? t('expertPanelsAdmin.panels.isArchived') : t('expertPanelsAdmin.panels.range', { min: panel.minWords, max: panel.maxWords })}</p>
      <h2>{t('expertPanelsAdmin.panels.members')}</h2>
      <FormError form={form} formKey="member-remove" />
      <EpTable section="members" columns={['name', 'email', 'added', 'actions']} empty={panel.members.length === 0}>
        {panel.members.map((m) => (
          <tr key={m.member.id}>
            <th scope="row">
              {m.member.name}
              {m.member.isActive ? null : ` (${t('expertPanelsAdmin.members.inactive')})`}
              {m.member.jobTitle || m.member.companyName ? <span className="muted"> — {[m.member.jobTitle, m.member.companyName].filter(Boolean).join(', ')}</span> : null}
            </th>
            <td>{m.email}</td>
            <td>{dateTime(m.addedAt)}</td>
            <td>
              <ActionForm action={`${base}/members/${m.member.id}/remove`} label={t('expertPanelsAdmin.members.remove', { name: m.member.name })} secondary />
            </td>
          </tr>
        ))}
      </EpTable>
      <form method="post" action={href(`${base}/members`)} className="stack" noValidate>
        <CsrfField />
        <Field id="member-who" name="who" label={t('expertPanelsAdmin.members.who')} hint={t('expertPanelsAdmin.members.whoHint')} error={who.error} defaultValue={who.value ?? ''} required />
        <p>
          <button type="submit" className="button">
            {t('expertPanelsAdmin.members.add')}
          </button>
        </p>
      </form>
      <h2>{t('expertPanelsAdmin.panels.edit')}</h2>
      <form method="post" action={href(base)} className="stack" noValidate>
        <CsrfField />
        <PanelFields prefix="panel-edit" form={form} formKey="panel-edit" panel={panel} />
        <p>
          <button type="submit" className="button">
            {t('expertPanelsAdmin.panels.save')}
          </button>
        </p>
      </form>
      <ActionForm action={`${base}/archive`} label={t(panel.archived ? 'expertPanelsAdmin.panels.unarchive' : 'expertPanelsAdmin.panels.archive')} fields={{ archived: panel.archived ? 'false' : 'true' }} secondary />
    </EpAdminPage>
  );
}
