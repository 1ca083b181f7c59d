import { useEffect, useState } from 'react';

export type SidebarToggleProps = { target: string; openLabel: string; closeLabel: string };

/**
 * The editor's slide-over sidebar below the computer width (spec section 2). Without JavaScript the
 * sidebar simply follows the editor on narrow screens; hydrated, it slides over from the right behind
 * this button, closes with its Close button or Escape, and gives focus back to the button.
 */
export default function SidebarToggle({ target, openLabel, closeLabel }: SidebarToggleProps) {
  const [ready, setReady] = useState(false);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const panel = document.getElementById(target);
    if (!panel) return;
    panel.classList.add('slideover');
    panel.tabIndex = -1;
    setReady(true);
    // Arriving at a place inside the sidebar (after sending feedback: #feedback) opens it.
    const anchor = location.hash.length > 1 ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (anchor && panel.contains(anchor) && window.matchMedia('(max-width: 860px)').matches) setOpen(true);
    return () => panel.classList.remove('slideover');
  }, [target]);

  useEffect(() => {
    const panel = document.getElementById(target);
    if (!panel || !ready) return;
    panel.toggleAttribute('data-open', open);
    if (!open) return;
    panel.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, ready, target]);

  function close() {
    setOpen(false);
    document.getElementById(`${target}-toggle`)?.focus();
  }

  if (!ready) return null;
  return (
    <div className="slideover-controls">
      <button type="button" id={`${target}-toggle`} className="button button-secondary slideover-toggle" aria-expanded={open} aria-controls={target} onClick={() => setOpen((o) => !o)}>
        {openLabel}
      </button>
      {open ? (
        <>
          <div className="slideover-backdrop" onClick={close} aria-hidden="true" />
          <button type="button" className="button button-secondary slideover-close" onClick={close}>
            {closeLabel}
          </button>
        </>
      ) : null}
    </div>
  );
}
