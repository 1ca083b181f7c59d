import type { ReactNode } from 'react';
import { formatDate } from '#shared/format.ts';
import { CsrfField, Hidden } from '#views/kit/form.tsx';
import { Alert, Toast } from '#views/kit/alert.tsx';
import { buttonClass } from '#views/kit/button.tsx';
import { Table } from '#views/kit/table.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/**
 * The staff areas' frame with tabs (the forum's /admin/forum and the expert panels' /admin/expert-panels
 * share it): a heading, the tabs (the kit's Tabs), the notice (a Toast) or error after an action; the
 * one-button forms, the tables in their scrolling region, and the keyset pager their boards use.
 */

/** A form that came back refused: which one (its key), what was typed, and the messages. */
export type TabForm = { key: string; values: Record<string, string>; errors: Record<string, string> };

export const dateTime = (value: Date) => `${formatDate(value)}, ${value.toISOString().slice(11, 16)} UTC`;

/** What a refused form of this key typed in `name`, and its message. */
export function typedIn(form: TabForm | undefined, formKey: string, name: string): { value?: string; error?: string } {
  const mine = form?.key === formKey ? form : undefined;
  return { value: mine?.values[name], error: mine?.errors[name] };
}

/** The frame of every page of a staff area: its section class, heading, tabs, and the notice after an action. */
export function AdminTabFrame({ className, heading, tabs, notice, error, children }: { className: string; heading: string; tabs: ReactNode; notice?: string; error?: string; children: ReactNode }) {
  return (
    <section className={className}>
      <h1>{heading}</h1>
      {tabs}
      {notice ? <Toast>{notice}</Toast> : null}
      {error ? <Alert kind="error">{error}</Alert> : null}
      {children}
    </section>
  );
}

/** A one-button form (with hidden fields). */
export function ActionForm({
  action,
  label,
  fields = {},
  secondary = false,
  ariaLabel,
}: {
  action: string;
  label: string;
  fields?: Record<string, string | null | undefined>;
  secondary?: boolean;
  /** The button's accessible name where its text is a symbol (↑, ↓) or says less than the row does. */
  ariaLabel?: string;
}) {
  const href = useHref();
  return (
    <form method="post" action={href(action)} className="inline-form">
      <CsrfField />
      {Object.entries(fields).map(([name, value]) => (
        <Hidden key={name} name={name} value={value} />
      ))}
      <button type="submit" className={buttonClass(secondary ? 'secondary' : 'primary')} aria-label={ariaLabel}>
        {label}
      </button>
    </form>
  );
}

/**
 * A staff table (its texts under `<prefix>.<section>`: none, tableLabel, col.<column>): when `empty`,
 * the "none" line; else the kit's Table (its scrolling region, its head) with `children` as its rows.
 */
export function AdminTable({ prefix, section, columns, empty, tableClass = 'board', children }: { prefix: string; section: string; columns: readonly string[]; empty: boolean; tableClass?: string; children: ReactNode }) {
  const { t } = usePage();
  if (empty) return <p>{t(`${prefix}.${section}.none`)}</p>;
  return (
    <Table label={t(`${prefix}.${section}.tableLabel`)} columns={columns.map((c) => ({ key: c, label: t(`${prefix}.${section}.col.${c}`) }))} className={tableClass}>
      {children}
    </Table>
  );
}

/** The message of a refused one-button form of this key, if any. */
export function FormError({ form, formKey }: { form?: TabForm; formKey: string }) {
  if (form?.key !== formKey || !form.errors.form) return null;
  return <Alert kind="error">{form.errors.form}</Alert>;
}

/** A keyset board's links: back to the first page (when not on it) and the next page (when there is one), keeping `params`. */
export function Pager({ base, after, next, nextLabel, firstLabel, params = '' }: { base: string; after: string | null; next: string | null; nextLabel: string; firstLabel: string; params?: string }) {
  const href = useHref();
  if (!after && !next) return null;
  const join = (extra: string) => {
    const qs = [params, extra].filter(Boolean).join('&');
    return href(qs ? `${base}?${qs}` : base);
  };
  return (
    <ul className="board-links">
      {after ? (
        <li>
          <a href={join('')}>{firstLabel}</a>
        </li>
      ) : null}
      {next ? (
        <li>
          <a href={join(`after=${encodeURIComponent(next)}`)} rel="next">
            {nextLabel}
          </a>
        </li>
      ) : null}
    </ul>
  );
}

/** One change of a status in a staff log: when, who (null: the system, or someone since removed), from (null: created) and to. */
export type StatusChange = { at: Date; actorName: string | null; from: string | null; to: string };

/**
 * A thing's status log (an offer's, a message's): a section with its heading and a table of when,
 * who and the change, read from `${prefix}.log.*` (heading, none, tableLabel, col.*, moved, created)
 * and `nobody` for a change no one is named for.
 */
export function StatusLog({ id, prefix, events, status, nobody }: { id: string; prefix: string; events: readonly StatusChange[]; status: (s: string) => string; nobody: string }) {
  const { t } = usePage();
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{t(`${prefix}.log.heading`)}</h2>
      <AdminTable prefix={prefix} section="log" columns={['when', 'who', 'change']} empty={events.length === 0}>
        {events.map((e, i) => (
          <tr key={i}>
            <td>{dateTime(e.at)}</td>
            <td>{e.actorName ?? nobody}</td>
            <td>{e.from ? t(`${prefix}.log.moved`, { from: status(e.from), to: status(e.to) }) : t(`${prefix}.log.created`, { to: status(e.to) })}</td>
          </tr>
        ))}
      </AdminTable>
    </section>
  );
}
