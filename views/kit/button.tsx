import type { ReactNode } from 'react';

/**
 * The kit's button (docs/design-system.md): one look for every press, drawn as a `<button>` or, with
 * `href`, as a link that looks like one. Kinds: primary (the one main action of a form or page),
 * secondary (the others), quiet (a low-key action in a dense row), danger (deletes or ends something).
 */
export type ButtonKind = 'primary' | 'secondary' | 'quiet' | 'danger';
export type ButtonSize = 'normal' | 'compact';

type Common = {
  kind?: ButtonKind;
  size?: ButtonSize;
  /** Extra classes of the call site (layout only: its look is the kit's). */
  className?: string;
  children: ReactNode;
  /** The accessible name where the text is a symbol or says less than the row does. */
  ariaLabel?: string;
};

export type ButtonProps = Common &
  (
    | { href?: undefined; type?: 'submit' | 'button' | 'reset'; name?: string; value?: string; disabled?: boolean; form?: string; formAction?: string }
    | { href: string; download?: boolean; rel?: string }
  );

/** The classes of a kind and size: `button`, then `button-secondary` etc. (primary has none of its own). */
export function buttonClass(kind: ButtonKind = 'primary', size: ButtonSize = 'normal', extra?: string): string {
  return ['button', kind === 'primary' ? '' : `button-${kind}`, size === 'compact' ? 'button-compact' : '', extra ?? ''].filter(Boolean).join(' ');
}

export function Button(props: ButtonProps) {
  const className = buttonClass(props.kind, props.size, props.className);
  if (props.href !== undefined) {
    return (
      <a className={className} href={props.href} aria-label={props.ariaLabel} download={props.download || undefined} rel={props.rel}>
        {props.children}
      </a>
    );
  }
  return (
    <button
      type={props.type ?? 'submit'}
      className={className}
      name={props.name}
      value={props.value}
      disabled={props.disabled || undefined}
      form={props.form}
      formAction={props.formAction}
      aria-label={props.ariaLabel}
    >
      {props.children}
    </button>
  );
}

/** Buttons side by side (wrapping on a phone), the main one first. */
export function ButtonRow({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={className ? `button-row ${className}` : 'button-row'}>{children}</div>;
}
