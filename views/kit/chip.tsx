import type { ReactNode } from 'react';

/**
 * A chip: a small rounded control that filters or toggles. As a link (`href`) it is a filter, the
 * chosen one aria-current; as a button it toggles a state (aria-pressed) in its form, posted like any
 * other button, so it works without JavaScript. A label that is not a control is a Badge.
 */
export type ChipProps = { children: ReactNode; className?: string; ariaLabel?: string } & (
  | { href: string; current?: boolean }
  | { href?: undefined; pressed?: boolean; name?: string; value?: string; disabled?: boolean }
);

export function Chip(props: ChipProps) {
  const className = props.className ? `chip ${props.className}` : 'chip';
  if (props.href !== undefined) {
    return (
      <a href={props.href} className={className} aria-current={props.current ? 'true' : undefined} aria-label={props.ariaLabel}>
        {props.children}
      </a>
    );
  }
  return (
    <button type="submit" className={className} name={props.name} value={props.value} aria-pressed={props.pressed ?? false} disabled={props.disabled || undefined} aria-label={props.ariaLabel}>
      {props.children}
    </button>
  );
}

/** Chips in a row that wraps. */
export function ChipList({ label, children }: { label?: string; children: ReactNode }) {
  return (
    <div className="chip-list" role={label ? 'group' : undefined} aria-label={label}>
      {children}
    </div>
  );
}
