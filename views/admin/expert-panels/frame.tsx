import type { ReactNode } from 'react';
import { formatDate } from '#src/core/format.ts';
import { Alert, CsrfField, FieldNotes, Hidden, describedBy } from '#views/auth/parts.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/**
 * The editors' expert panels area (/admin/expert-panels): panels, batches, answers, and the roundups
 * (their own pages). Every action is a plain form (POST, then a redirect back with a notice); a
 * refused one comes back with its message beside the field and what was typed kept.
 */

export const EP_ADMIN_TABS = ['panels', 'batches', 'answers', 'roundups'] as const;
export type EpAdminTab = (typeof EP_ADMIN_TABS)[number];

export const epAdminPath = (tab: EpAdminTab) => (tab === 'panels' ? '/admin/expert-panels' : `/admin/expert-panels/${tab}`);

/** A form that came back refused: which one (its key), what was typed, and the messages. */
export type EpForm = { key: string; values: Record<string, string>; errors: Record<string, string> };

export const dateTime = (value: Date) => `${formatDate(value)}, ${value.toISOString().slice(11, 16)} UTC`;

/** What a refused form of this key typed in `name`, and its message. */
export function typed(form: EpForm | undefined, key: string, name: string): { value?: string; error?: string } {
  const mine = form?.key === key ? form : undefined;
  return { value: mine?.values[name], error: mine?.errors[name] };
}

function Tabs({ current }: { current: EpAdminTab }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <nav aria-label={t('expertPanelsAdmin.tabsLabel')}>
      <ul className="board-links">
        {EP_ADMIN_TABS.map((tab) => (
          <li key={tab}>
            <a href={href(epAdminPath(tab))} aria-current={tab === current ? 'page' : undefined}>
              {t(`expertPanelsAdmin.tabs.${tab}`)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The frame of every page of the area: heading, the sections, the notice after an action. */
export function EpAdminPage({ tab, heading, notice, error, children }: { tab: EpAdminTab; heading: string; notice?: string; error?: string; children: ReactNode }) {
  return (
    <section className="page-admin ep-admin">
      <h1>{heading}</h1>
      <Tabs current={tab} />
      {notice ? <Alert kind="success">{notice}</Alert> : null}
      {error ? <Alert kind="error">{error}</Alert> : null}
      {children}
    </section>
  );
}

/** A one-button form (with hidden fields). */
export function ActionForm({ action, label, fields = {}, secondary = false }: { action: string; label: string; fields?: Record<string, string | null | undefined>; secondary?: boolean }) {
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

/** A labelled textarea with its hint and error tied by aria-describedby. */
export function TextArea({ id, name, label, value, error, hint, rows = 4, required = false }: { id: string; name: string; label: string; value?: string; error?: string; hint?: string; rows?: number; required?: boolean }) {
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <textarea id={id} name={name} rows={rows} required={required} defaultValue={value ?? ''} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} />
      <FieldNotes id={id} error={error} hint={hint} />
    </div>
  );
}

/** A table in its scrolling region (texts under expertPanelsAdmin.<section>: tableLabel, col.<column>), or the "none" line. */
export function EpTable({ section, columns, empty, children }: { section: string; columns: readonly string[]; empty: boolean; children: ReactNode }) {
  const { t } = usePage();
  if (empty) return <p>{t(`expertPanelsAdmin.${section}.none`)}</p>;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={t(`expertPanelsAdmin.${section}.tableLabel`)}>
      <table className="board">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {t(`expertPanelsAdmin.${section}.col.${c}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** The message of a refused form of this key (its form-level error), if any. */
export function FormError({ form, formKey }: { form?: EpForm; formKey: string }) {
  if (form?.key !== formKey || !form.errors.form) return null;
  return <Alert kind="error">{form.errors.form}</Alert>;
}
