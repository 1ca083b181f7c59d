import type { ReactNode } from 'react';
import type { DashboardLink, SiteForm, SiteRow, SiteTextField } from '#src/features/communities/index.ts';
import { CsrfField } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { Button } from '#views/kit/button.tsx';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { Cell, Table } from '#views/kit/table.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/** The sites an admin administers (spec section 2, /admin/sites). */
export function SitesList({ sites, notice, canCreate = false }: { sites: SiteRow[]; notice?: string; canCreate?: boolean }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section>
      {notice ? <Alert kind="success">{notice}</Alert> : null}
      <h1>{t('sites.heading')}</h1>
      <p className="lead">{t('sites.intro')}</p>
      <p className="actions">
        {canCreate ? (
          <a className="button" href={href('/admin/sites/new')}>
            {t('sites.create')}
          </a>
        ) : null}
        <a className="button button-secondary" href={href('/admin/dashboards')}>
          {t('sites.dashboardsLink')}
        </a>
      </p>
      {sites.length === 0 ? (
        <EmptyState title={t('sites.empty')} action={canCreate ? <Button href={href('/admin/sites/new')}>{t('sites.create')}</Button> : undefined} />
      ) : (
        <Table
          label={t('sites.table.caption')}
          caption={t('sites.table.caption')}
          columns={[
            { key: 'name', label: t('sites.table.name') },
            { key: 'code', label: t('sites.table.code') },
            { key: 'hosts', label: t('sites.table.hosts') },
            { key: 'forum', label: t('sites.table.forum') },
            { key: 'members', label: t('sites.table.members'), numeric: true },
          ]}
        >
          {sites.map((s) => (
            <tr key={s.id} data-site={s.code}>
              <th scope="row">
                <a href={href(`/admin/sites/${s.code}`)} aria-label={t('sites.table.edit', { name: s.name })}>
                  {s.name}
                </a>
              </th>
              <td>{s.code}</td>
              <td>{s.hosts.length ? s.hosts.join(', ') : t('sites.table.noHosts')}</td>
              <td>{s.forumEnabled ? t('sites.table.on') : t('sites.table.off')}</td>
              <Cell numeric>{s.memberCount}</Cell>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

export type Contrast = { ratio: string; ok: boolean } | null;

export type SiteFormProps = {
  mode: 'new' | 'edit';
  form: SiteForm;
  errors: Record<string, string>;
  /** White text on each brand colour, for the note next to the field (null when the value is not a colour). */
  contrast: { colorPrimary: Contrast; colorAccent: Contrast };
  /** How many navMore rows to show (the filled ones and a few blank ones). */
  navRows: number;
  notice?: string;
  /** On edit: the site's current name (the heading) and code (the form's address). */
  name?: string;
};

/** Create or edit a site: every field of the spec's Community; works without JavaScript. */
export function SiteFormPage({ mode, form, errors, contrast, navRows, notice, name }: SiteFormProps) {
  const { t } = usePage();
  const href = useHref();
  const action = mode === 'new' ? '/admin/sites/new' : `/admin/sites/${form.code}`;
  const hasErrors = Object.keys(errors).length > 0;

  const described = (id: string, hint: boolean, extra?: string) => [hint ? `${id}-hint` : null, extra ?? null, errors[id] ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  const message = (id: string) =>
    errors[id] ? (
      <p className="field-error" id={`${id}-error`}>
        {errors[id]}
      </p>
    ) : null;

  const text = (field: SiteTextField, options: { hint?: string; type?: string; required?: boolean; autoComplete?: string; extra?: ReactNode; extraId?: string } = {}) => (
    <div className={errors[field] ? 'field field-invalid' : 'field'}>
      <label htmlFor={field}>{t(`sites.fields.${field}`)}</label>
      {options.hint ? (
        <p className="field-hint" id={`${field}-hint`}>
          {options.hint}
        </p>
      ) : null}
      <input
        id={field}
        name={field}
        type={options.type ?? 'text'}
        defaultValue={form[field]}
        required={options.required}
        autoComplete={options.autoComplete ?? 'off'}
        aria-invalid={errors[field] ? true : undefined}
        aria-describedby={described(field, Boolean(options.hint), options.extraId)}
      />
      {options.extra}
      {message(field)}
    </div>
  );

  const color = (field: 'colorPrimary' | 'colorAccent') => {
    const c = contrast[field];
    const noteId = `${field}-contrast`;
    const note = c ? (
      <p className="field-hint" id={noteId}>
        {t(c.ok ? 'sites.fields.contrastOk' : field === 'colorAccent' ? 'sites.fields.contrastLowAccent' : 'sites.fields.contrastLow', { color: form[field].trim(), ratio: c.ratio })}
      </p>
    ) : null;
    return text(field, { hint: t(field === 'colorPrimary' ? 'sites.fields.colorHint' : 'sites.fields.accentHint'), required: true, extra: note, extraId: c ? noteId : undefined });
  };

  const rows = Array.from({ length: navRows }, (_, i) => form.nav[i] ?? { label: '', link: '' });

  return (
    <section>
      <p>
        <a href={href('/admin/sites')}>{t('sites.back')}</a>
      </p>
      {notice ? <Alert kind="success">{notice}</Alert> : null}
      <h1>{mode === 'new' ? t('sites.new.heading') : t('sites.edit.heading', { name: name ?? form.name })}</h1>
      {hasErrors ? <Alert kind="error">{t('sites.errorSummary')}</Alert> : null}
      <form method="post" action={href(action)} className="stack" noValidate>
        <CsrfField />
        <fieldset className="panel stack">
          <legend>{t('sites.sections.identity')}</legend>
          {mode === 'new' ? text('code', { hint: t('sites.fields.codeHint'), required: true }) : <p>{t('sites.fields.codeFixed', { code: form.code })}</p>}
          {text('name', { required: true })}
          {text('appName', { required: true })}
          {text('familiarName', { required: true })}
        </fieldset>

        <fieldset className="panel stack">
          <legend>{t('sites.sections.hosts')}</legend>
          <div className={errors.hosts ? 'field field-invalid' : 'field'}>
            <label htmlFor="hosts">{t('sites.fields.hosts')}</label>
            <p className="field-hint" id="hosts-hint">
              {t('sites.fields.hostsHint')}
            </p>
            <textarea id="hosts" name="hosts" rows={3} defaultValue={form.hosts} autoCapitalize="none" spellCheck={false} aria-invalid={errors.hosts ? true : undefined} aria-describedby={described('hosts', true)} />
            {message('hosts')}
          </div>
        </fieldset>

        <fieldset className="panel stack">
          <legend>{t('sites.sections.look')}</legend>
          {color('colorPrimary')}
          {color('colorAccent')}
          {text('icon', { hint: t('sites.fields.imageHint') })}
          {text('authLogo', { hint: t('sites.fields.imageHint') })}
        </fieldset>

        <fieldset className="panel stack">
          <legend>{t('sites.sections.nav')}</legend>
          <p className="field-hint" id="nav-hint">
            {t('sites.fields.navHint')}
          </p>
          {errors.nav ? (
            <p className="field-error" id="nav-error">
              {errors.nav}
            </p>
          ) : null}
          {rows.map((row, i) => {
            const labelId = `nav.${i}.label`;
            const linkId = `nav.${i}.link`;
            return (
              <fieldset key={i} className="stack" data-nav-row={i}>
                <legend>{t('sites.fields.navRow', { n: i + 1 })}</legend>
                <div className={errors[labelId] ? 'field field-invalid' : 'field'}>
                  <label htmlFor={labelId}>{t('sites.fields.navLabel', { n: i + 1 })}</label>
                  <input id={labelId} name={labelId} type="text" defaultValue={row.label} aria-invalid={errors[labelId] ? true : undefined} aria-describedby={errors[labelId] ? `${labelId}-error` : 'nav-hint'} />
                  {message(labelId)}
                </div>
                <div className={errors[linkId] ? 'field field-invalid' : 'field'}>
                  <label htmlFor={linkId}>{t('sites.fields.navLink', { n: i + 1 })}</label>
                  <input id={linkId} name={linkId} type="text" inputMode="url" defaultValue={row.link} aria-invalid={errors[linkId] ? true : undefined} aria-describedby={errors[linkId] ? `${linkId}-error` : 'nav-hint'} />
                  {message(linkId)}
                </div>
              </fieldset>
            );
          })}
        </fieldset>

        <fieldset className="panel stack">
          <legend>{t('sites.sections.products')}</legend>
          <div className="check">
            <input id="forumEnabled" name="forumEnabled" type="checkbox" defaultChecked={form.forumEnabled} />
            <label htmlFor="forumEnabled">{t('sites.fields.forumEnabled')}</label>
          </div>
        </fieldset>

        <fieldset className="panel stack">
          <legend>{t('sites.sections.contact')}</legend>
          {text('conciergeEmail', { type: 'email', required: true })}
          {text('conciergePhone', { type: 'tel', required: true, hint: t('sites.fields.phoneHint') })}
          {text('copyrightHolder', { required: true })}
          {text('execLink', { type: 'url', hint: t('sites.fields.urlHint') })}
          {text('linkTerms', { type: 'url', hint: t('sites.fields.urlHint') })}
          {text('linkPrivacy', { type: 'url', hint: t('sites.fields.urlHint') })}
          {text('linkMembershipInfo', { type: 'url', hint: t('sites.fields.urlHint') })}
        </fieldset>

        <fieldset className="panel stack">
          <legend>{t('sites.sections.analytics')}</legend>
          {text('googleAnalytics', { hint: t('sites.fields.googleAnalyticsHint') })}
          {text('googleTagManager', { hint: t('sites.fields.googleTagManagerHint') })}
        </fieldset>

        <fieldset className="panel stack">
          <legend>{t('sites.sections.auth')}</legend>
          {text('authSlug', { hint: t('sites.fields.authSlugHint') })}
          {text('authBackgroundImage', { hint: t('sites.fields.imageHint') })}
          {text('authTextColor', { hint: t('sites.fields.authTextColorHint') })}
          {text('authPlayStoreLink', { type: 'url', hint: t('sites.fields.urlHint') })}
          {text('authAppStoreLink', { type: 'url', hint: t('sites.fields.urlHint') })}
        </fieldset>

        <button type="submit" className="button">
          {mode === 'new' ? t('sites.createSubmit') : t('sites.save')}
        </button>
      </form>
    </section>
  );
}

/** Every brand the admin administers, with outbound links to its admin area on its own host. */
export function DashboardsPage({ links }: { links: DashboardLink[] }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section>
      <p>
        <a href={href('/admin/sites')}>{t('sites.back')}</a>
      </p>
      <h1>{t('sites.dashboards.heading')}</h1>
      <p className="lead">{t('sites.dashboards.intro')}</p>
      {links.length === 0 ? (
        <EmptyState title={t('sites.empty')} />
      ) : (
        <ul className="card-links">
          {links.map((l) => (
            <li key={l.code} data-dashboard={l.code}>
              {l.url ? (
                <>
                  <a href={l.url} aria-label={t('sites.dashboards.open', { name: l.name })}>
                    {l.name}
                  </a>{' '}
                  {/* The brand's charts without leaving this host (the staff home, insights). */}
                  <a href={href(`/admin?community=${encodeURIComponent(l.code)}`)}>{t('sites.dashboards.insights', { name: l.name })}</a>
                </>
              ) : (
                <p>
                  {t('sites.dashboards.noHost', { name: l.name })} <a href={href(`/admin/sites/${l.code}`)}>{t('sites.dashboards.editSite')}</a>
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
