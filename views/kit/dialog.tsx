import type { ReactNode } from 'react';

/**
 * The kit's dialog: a native `<dialog>`, closed, whose close button is a `method="dialog"` form (it
 * needs no script). What opens it is a `DialogLink`: an ordinary link to a page with the same content
 * (it works without JavaScript), which the shell's script (islands/contact-dialog.ts, loaded by every
 * member page) opens in this dialog instead, with the focus held inside and given back on close.
 * For a dialog whose content is another page's form, fetched on demand, use `a[data-modal]`
 * (islands/ModalDialog.tsx) instead.
 */
export function Dialog({
  id,
  title,
  closeLabel,
  children,
  open = false,
  className,
}: {
  id: string;
  title: ReactNode;
  closeLabel: string;
  children: ReactNode;
  /** Drawn open, in the flow (not modal): the style page's way to show one without a script. */
  open?: boolean;
  className?: string;
}) {
  const headingId = `${id}-heading`;
  return (
    <dialog id={id} className={className ? `modal-dialog ${className}` : 'modal-dialog'} aria-labelledby={headingId} open={open || undefined}>
      <form method="dialog" className="modal-close">
        <button type="submit" className="button button-secondary button-compact">
          {closeLabel}
        </button>
      </form>
      <h2 id={headingId}>{title}</h2>
      {children}
    </dialog>
  );
}

/** A link to `href` (the page) that a script opens in the dialog `dialog` (its id) instead. */
export function DialogLink({ href, dialog, children, className }: { href: string; dialog: string; children: ReactNode; className?: string }) {
  return (
    <a href={href} className={className} data-dialog={dialog} aria-haspopup="dialog">
      {children}
    </a>
  );
}
