import type { NotificationBellProps } from './NotificationBell.tsx';

let panels = 0;

/**
 * The bell in the browser, without React: it is the only island on most member pages, and React
 * (about 58 KiB on the wire) for a toggle was most of their JavaScript. NotificationBell.tsx renders
 * the link on the server; this turns it into a button that opens a compact panel (the list itself
 * arrives with the notifications capability), closed by Escape, a click outside or a second click.
 */
export default function enhanceBell(island: HTMLElement, { href, labels }: NotificationBellProps): void {
  const root = island.querySelector<HTMLElement>('.bell');
  const button = root?.querySelector<HTMLAnchorElement>('a.bell-button');
  if (!root || !button) return;
  const panelId = `bell-panel-${++panels}`;
  let panel: HTMLElement | null = null;

  const element = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text: string) => {
    const el = document.createElement(tag);
    el.className = className;
    el.textContent = text;
    return el;
  };
  const onDocument = (e: Event) => {
    if (e instanceof KeyboardEvent ? e.key === 'Escape' : !root.contains(e.target as Node)) setOpen(false);
  };
  function setOpen(open: boolean) {
    if (open === (panel !== null)) return;
    button!.setAttribute('aria-expanded', String(open));
    if (open) {
      panel = element('div', 'bell-panel', '');
      panel.id = panelId;
      const all = element('a', 'bell-all', labels.seeAll);
      all.href = href;
      panel.append(element('h2', 'bell-heading', labels.heading), element('p', 'bell-empty', labels.empty), all);
      root!.appendChild(panel);
      document.addEventListener('click', onDocument);
      document.addEventListener('keydown', onDocument);
    } else {
      panel?.remove();
      panel = null;
      document.removeEventListener('click', onDocument);
      document.removeEventListener('keydown', onDocument);
    }
  }

  button.setAttribute('role', 'button');
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', panelId);
  button.addEventListener('click', (e) => {
    e.preventDefault();
    setOpen(panel === null);
  });
  // A button answers the space bar as well as Enter.
  button.addEventListener('keydown', (e) => {
    if (e.key !== ' ') return;
    e.preventDefault();
    setOpen(panel === null);
  });
}
