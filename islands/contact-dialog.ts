let installed = false;

/**
 * Contact us as a native <dialog> (views/layout/contact.tsx): a click on a Contact us link opens the
 * page's #contact-dialog with showModal (focus held inside, Escape closes) instead of going to
 * /contact; closing gives the focus back to the link; a click on the backdrop closes it. Without this
 * script, or on a page without the dialog, the link is the page. Installed by the bell's script,
 * which every member page already loads, so no page gains a file.
 */
export function openContactInDialog(): void {
  if (installed) return;
  installed = true;
  let opener: HTMLElement | null = null;
  let openerMenu: HTMLDetailsElement | null = null;
  document.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const link = (e.target as Element | null)?.closest<HTMLAnchorElement>('a[data-contact-dialog]');
    const dialog = document.getElementById('contact-dialog') as HTMLDialogElement | null;
    if (!link || !dialog || typeof dialog.showModal !== 'function' || dialog.open) return;
    e.preventDefault();
    opener = link;
    // A link inside an open <details> menu: the menu closes behind the dialog, and its button gets
    // the focus back (the link is hidden in the closed menu).
    openerMenu = link.closest<HTMLDetailsElement>('details[open]');
    if (openerMenu) openerMenu.open = false;
    dialog.showModal();
    if (!dialog.dataset.enhanced) {
      dialog.dataset.enhanced = '1';
      dialog.addEventListener('close', () => {
        (openerMenu?.querySelector<HTMLElement>(':scope > summary') ?? opener)?.focus();
        opener = null;
        openerMenu = null;
      });
      dialog.addEventListener('click', (ev) => {
        if (ev.target !== dialog || ev.detail === 0) return;
        const r = dialog.getBoundingClientRect();
        if (ev.clientX < r.left || ev.clientX > r.right || ev.clientY < r.top || ev.clientY > r.bottom) dialog.close();
      });
    }
  });
}
