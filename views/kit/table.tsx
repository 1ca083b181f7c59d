import type { ReactNode } from 'react';

/**
 * The kit's table (the staff area's calm, dense style): in its own scrolling region (a phone scrolls
 * the table, never the page; the region is focusable so the keyboard can scroll it too), the head
 * optionally sticky, numeric columns right-aligned in tabular figures, a row tinted under the pointer.
 * Rows are the caller's `<tr>`s; a numeric cell is `<Cell numeric>` (or `<td className="num">`, and
 * `<th scope="row" className="num">` for a row's head).
 */
export type Column = { key: string; label: ReactNode; numeric?: boolean };

export function Table({
  label,
  columns,
  children,
  sticky = false,
  className,
  caption,
  captionHidden = false,
}: {
  /** Names the scrolling region (and the table, for a screen reader's list of tables). */
  label: string;
  columns: readonly Column[];
  children: ReactNode;
  /** The head stays in view while the rows scroll inside a region of limited height. */
  sticky?: boolean;
  /** The table's own classes (e.g. `board forum-staff-board`); the kit's `table` is always there. */
  className?: string;
  /**
   * The table's `<caption>`: where no heading sits right above the table, what it lists (and in what
   * order). Shown as a quiet line at the top of its box, or only to assistive technology with
   * `captionHidden`.
   */
  caption?: ReactNode;
  captionHidden?: boolean;
}) {
  const regionClass = sticky ? 'table-scroll table-scroll-sticky' : 'table-scroll';
  return (
    <div className={regionClass} tabIndex={0} role="region" aria-label={label}>
      <table className={className ? `table ${className}` : 'table board'}>
        {caption ? <caption className={captionHidden ? 'visually-hidden' : 'table-caption'}>{caption}</caption> : null}
        <TableHead columns={columns} />
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** The head row of a kit table (also the loading placeholder's, which draws the same head). */
export function TableHead({ columns }: { columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c.key} scope="col" className={c.numeric ? 'num' : undefined}>
            {c.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** A cell; `numeric` right-aligns it (with its column's head). */
export function Cell({ numeric = false, children, className }: { numeric?: boolean; children?: ReactNode; className?: string }) {
  const classes = [numeric ? 'num' : '', className ?? ''].filter(Boolean).join(' ');
  return <td className={classes || undefined}>{children}</td>;
}
