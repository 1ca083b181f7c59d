import type { ReactNode } from 'react';
import { FieldNotes, describedBy } from '#views/kit/form.tsx';
import { AdminTable, AdminTabFrame, typedIn, type TabForm } from '#views/admin/tab-frame.tsx';
import { Tabs } from '#views/kit/tabs.tsx';
import { usePage } from '#views/layout/page-context.tsx';

export { ActionForm, dateTime, FormError, Pager } from '#views/admin/tab-frame.tsx';

/**
 * The editors' expert panels area (/admin/expert-panels): panels, batches, questions, answers, and
 * the roundups (their own pages). Every action is a plain form (POST, then a redirect back with a
 * notice); a refused one comes back with its message beside the field and what was typed kept. The
 * frame, forms, tables and pager are the staff areas' shared ones (views/admin/tab-frame.tsx).
 */

export const EP_ADMIN_TABS = ['panels', 'batches', 'questions', 'answers', 'roundups'] as const;
export type EpAdminTab = (typeof EP_ADMIN_TABS)[number];

export const epAdminPath = (tab: EpAdminTab) => (tab === 'panels' ? '/admin/expert-panels' : `/admin/expert-panels/${tab}`);

/** A form that came back refused: which one (its key), what was typed, and the messages. */
export type EpForm = TabForm;

/** What a refused form of this key typed in `name`, and its message. */
export const typed = typedIn;

/** The frame of every page of the area: heading, the sections, the notice after an action. */
export function EpAdminPage({ tab, heading, notice, error, children }: { tab: EpAdminTab; heading: string; notice?: string; error?: string; children: ReactNode }) {
  const { t } = usePage();
  const tabs = EP_ADMIN_TABS.map((key) => ({ key, path: epAdminPath(key), label: t(`expertPanelsAdmin.tabs.${key}`) }));
  return (
    <AdminTabFrame className="page-admin ep-admin" heading={heading} tabs={<Tabs label={t('expertPanelsAdmin.tabsLabel')} tabs={tabs} current={tab} />} notice={notice} error={error}>
      {children}
    </AdminTabFrame>
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
  return (
    <AdminTable prefix="expertPanelsAdmin" section={section} columns={columns} empty={empty}>
      {children}
    </AdminTable>
  );
}
