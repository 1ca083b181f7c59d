import type { BankItem, BankKind } from '#src/features/content-bank/index.ts';
import { Tabs } from '#views/kit/tabs.tsx';
import { describedBy, FieldNotes } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/** The content bank's tabs, listed once. */
export const BANK_TABS = [
  { key: 'library', path: '/admin/content-bank' },
  { key: 'tags', path: '/admin/content-bank/tags' },
  { key: 'collections', path: '/admin/content-bank/collections' },
  { key: 'assets', path: '/admin/content-bank/assets' },
] as const;
export type BankTab = (typeof BANK_TABS)[number]['key'];

export function BankTabs({ current }: { current: BankTab | null }) {
  const { t } = usePage();
  return <Tabs label={t('contentBank.tabs.label')} tabs={BANK_TABS.map((tab) => ({ ...tab, label: t(`contentBank.tabs.${tab.key}`) }))} current={current ?? ''} />;
}

/** A labelled select with its message. */
export function Select({ id, name, label, value, options, error, placeholder }: { id: string; name: string; label: string; value: string; options: { value: string; label: string }[]; error?: string; placeholder?: string }) {
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error)}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldNotes id={id} error={error} />
    </div>
  );
}

/** An item's page in the bank. */
export const itemHref = (kind: BankKind, id: number) => `/admin/content-bank/items/${kind}/${id}`;

/** An address as a link target: an application path gets the base path, an absolute one stays. */
export function useOpenHref() {
  const href = useHref();
  return (url: string) => (url.startsWith('/') ? href(url) : url);
}

/** An item's title, linked to its page in the bank, with its summary below. */
export function ItemTitle({ item }: { item: BankItem }) {
  const href = useHref();
  return (
    <>
      <a href={href(itemHref(item.kind, item.id))}>{item.title}</a>
      {item.summary ? <span className="bank-summary muted">{item.summary}</span> : null}
    </>
  );
}

/** A size in KB, rounded up. */
export const kilobytes = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));
