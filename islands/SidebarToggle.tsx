import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';

export type SidebarToggleProps = {
  target: string;
  openLabel: string;
  closeLabel: string;
  /** Open at load below the computer width (the page was asked for with guidelines=true). */
  openAtLoad?: boolean;
};

/**
 * The editor's slide-over sidebar below the computer width (spec section 2). Without JavaScript the
 * sidebar simply follows the editor on narrow screens. Hydrated, it slides over from the right behind
 * this button as a modal panel: the rest of the page is inert while it is open, its Close button is
 * its first control (rendered into the slot `<target>-close` at its top), Escape closes it, and focus
 * goes back to this button.
 */
export default function SidebarToggle({ target, openLabel, closeLabel, openAtLoad = false }: SidebarToggleProps) {
  const [ready, setReady] = useState(false);
  const [open, setOpen] = useState(false);
  const [closeSlot, setCloseSlot] = useState<HTMLElement | null>(null);
  const wasOpen = useRef(false);
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const panel = document.getElementById(target);
    if (!panel) return;
    panel.classList.add('slideover');
    panel.tabIndex = -1;
    setCloseSlot(document.getElementById(`${target}-close`));
    setReady(true);
    // Arriving at a place inside the sidebar (after sending feedback: #feedback) opens it.
    const anchor = location.hash.length > 1 ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    // So does asking for the guidelines (guidelines=true).
    if ((openAtLoad || (anchor && panel.contains(anchor))) && window.matchMedia('(max-width: 860px)').matches) setOpen(true);
    return () => panel.classList.remove('slideover');
    // Mounted once: openAtLoad is the page's initial state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target]);

  useEffect(() => {
    const panel = document.getElementById(target);
    if (!panel || !ready) return;
    panel.toggleAttribute('data-open', open);
    if (!open) {
      panel.removeAttribute('role');
      panel.removeAttribute('aria-modal');
      if (wasOpen.current) toggle.current?.focus();
      wasOpen.current = false;
      return;
    }
    wasOpen.current = true;
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-modal', 'true');
    // Everything but the panel is inert while it is open: focus and clicks stay inside.
    const madeInert: Element[] = [];
    for (let node: Element | null = panel; node && node !== document.body; node = node.parentElement) {
      for (const sibling of Array.from(node.parentElement?.children ?? [])) {
        if (sibling === node || sibling.hasAttribute('inert') || sibling.tagName === 'SCRIPT') continue;
        sibling.setAttribute('inert', '');
        madeInert.push(sibling);
      }
    }
    panel.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      for (const el of madeInert) el.removeAttribute('inert');
      document.removeEventListener('keydown', onKey);
    };
  }, [open, ready, target]);

  if (!ready) return null;
  return (
    <>
      <div className="slideover-controls">
        <button ref={toggle} id={`${target}-toggle`} type="button" className="button button-secondary slideover-toggle" aria-expanded={open} aria-controls={target} onClick={() => setOpen(true)}>
          {openLabel}
        </button>
      </div>
      {closeSlot
        ? createPortal(
            <button type="button" className="button button-secondary slideover-close" hidden={!open} onClick={() => setOpen(false)}>
              {closeLabel}
            </button>,
            closeSlot,
          )
        : null}
    </>
  );
}
