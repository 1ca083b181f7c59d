/** The articles program's settings on the editors' side: blackout windows, and the terms, guidelines and application form. */
import { formatDate } from '#shared/format.ts';
import { CsrfField, FieldNotes } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { Table } from '#views/kit/table.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

type Blackout = { id: number; startsOn: string; endsBefore: string };

/** The community's blackout windows: list, delete, and a form to add one. */
export function BlackoutWindows({
  windows,
  today,
  values,
  errors,
  notice,
}: {
  windows: Blackout[];
  /** YYYY-MM-DD in UTC, to say which window is in force. */
  today: string;
  values: { startsOn: string; endsBefore: string };
  errors: Record<string, string>;
  notice?: string;
}) {
  const { t } = usePage();
  const href = useHref();
  const state = (w: Blackout) => (today >= w.endsBefore ? 'past' : today >= w.startsOn ? 'active' : 'upcoming');
  const field = (name: 'startsOn' | 'endsBefore') => ({
    id: `bw-${name}`,
    name,
    type: 'date',
    defaultValue: values[name],
    required: true,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': [errors[name] ? `bw-${name}-error` : null, 'bw-hint'].filter(Boolean).join(' '),
  });
  return (
    <section>
      <p>
        <a href={href('/admin/articles')}>{t('admin.articles.back')}</a>
      </p>
      {notice ? <Alert kind="success">{notice}</Alert> : null}
      {errors.form ? <Alert kind="error">{errors.form}</Alert> : null}
      <h1>{t('admin.articles.blackouts.heading')}</h1>
      <p>{t('admin.articles.blackouts.intro')}</p>
      {windows.length === 0 ? (
        <EmptyState title={t('admin.articles.blackouts.none')} />
      ) : (
        <Table
          label={t('admin.articles.blackouts.heading')}
          columns={[
            { key: 'start', label: t('admin.articles.blackouts.colStart') },
            { key: 'end', label: t('admin.articles.blackouts.colEnd') },
            { key: 'state', label: t('admin.articles.blackouts.colState') },
            { key: 'actions', label: <span className="visually-hidden">{t('admin.articles.blackouts.colActions')}</span> },
          ]}
        >
          {windows.map((w) => (
            <tr key={w.id}>
              <th scope="row">
                <time dateTime={w.startsOn}>{formatDate(w.startsOn)}</time>
              </th>
              <td>
                <time dateTime={w.endsBefore}>{formatDate(w.endsBefore)}</time>
              </td>
              <td>{t(`admin.articles.blackouts.${state(w)}`)}</td>
              <td>
                <form method="post" action={href(`/admin/articles/blackouts/${w.id}/delete`)}>
                  <CsrfField />
                  <button type="submit" className="button button-secondary" aria-label={t('admin.articles.blackouts.deleteLabel', { start: formatDate(w.startsOn), end: formatDate(w.endsBefore) })}>
                    {t('admin.articles.blackouts.delete')}
                  </button>
                </form>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <h2>{t('admin.articles.blackouts.addHeading')}</h2>
      <form method="post" action={href('/admin/articles/blackouts')} className="stack" noValidate>
        <CsrfField />
        <p className="field-hint" id="bw-hint">
          {t('admin.articles.blackouts.hint')}
        </p>
        <div className={errors.startsOn ? 'field field-invalid' : 'field'}>
          <label htmlFor="bw-startsOn">{t('admin.articles.blackouts.startsOn')}</label>
          <input {...field('startsOn')} />
          <FieldNotes id="bw-startsOn" error={errors.startsOn} />
        </div>
        <div className={errors.endsBefore ? 'field field-invalid' : 'field'}>
          <label htmlFor="bw-endsBefore">{t('admin.articles.blackouts.endsBefore')}</label>
          <input {...field('endsBefore')} />
          <FieldNotes id="bw-endsBefore" error={errors.endsBefore} />
        </div>
        <button type="submit" className="button">
          {t('admin.articles.blackouts.add')}
        </button>
      </form>
    </section>
  );
}

/** The community's publishing program: terms, guidelines, and the optional external application form. */
export function ProgramSettingsPage({ values, errors, notice }: { values: { terms: string; guidelines: string; applicationUrl: string }; errors: Record<string, string>; notice?: string }) {
  const { t } = usePage();
  const href = useHref();
  const k = (key: string) => t(`admin.articles.settings.${key}`);
  const described = (name: string) => [`ps-${name}-hint`, errors[name] ? `ps-${name}-error` : null].filter(Boolean).join(' ');
  const message = (name: string) =>
    errors[name] ? (
      <p className="field-error" id={`ps-${name}-error`}>
        {errors[name]}
      </p>
    ) : null;
  return (
    <section>
      <p>
        <a href={href('/admin/articles')}>{t('admin.articles.back')}</a>
      </p>
      {notice ? <Alert kind="success">{notice}</Alert> : null}
      <h1>{k('heading')}</h1>
      <form method="post" action={href('/admin/articles/settings')} className="stack" noValidate>
        <CsrfField />
        <div className={errors.terms ? 'field field-invalid' : 'field'}>
          <label htmlFor="ps-terms">{k('terms')}</label>
          <p className="field-hint" id="ps-terms-hint">
            {k('termsHint')}
          </p>
          <textarea id="ps-terms" name="terms" rows={8} defaultValue={values.terms} aria-invalid={errors.terms ? true : undefined} aria-describedby={described('terms')} />
          {message('terms')}
        </div>
        <div className={errors.guidelines ? 'field field-invalid' : 'field'}>
          <label htmlFor="ps-guidelines">{k('guidelines')}</label>
          <p className="field-hint" id="ps-guidelines-hint">
            {k('guidelinesHint')}
          </p>
          <textarea id="ps-guidelines" name="guidelines" rows={8} defaultValue={values.guidelines} aria-invalid={errors.guidelines ? true : undefined} aria-describedby={described('guidelines')} />
          {message('guidelines')}
        </div>
        <div className={errors.applicationUrl ? 'field field-invalid' : 'field'}>
          <label htmlFor="ps-applicationUrl">{k('applicationUrl')}</label>
          <p className="field-hint" id="ps-applicationUrl-hint">
            {k('applicationUrlHint')}
          </p>
          <input id="ps-applicationUrl" name="applicationUrl" type="url" defaultValue={values.applicationUrl} aria-invalid={errors.applicationUrl ? true : undefined} aria-describedby={described('applicationUrl')} />
          {message('applicationUrl')}
        </div>
        <button type="submit" className="button">
          {k('save')}
        </button>
      </form>
    </section>
  );
}
