let installed = false;

/**
 * The kit's dialogs (views/kit/dialog.tsx), Contact us among them (views/layout/contact.tsx): a click
 * on a link `a[data-dialog="<id>"]` opens the page's dialog of that id with showModal (focus held
 * inside, Escape or its Close button closes it) instead of following the link; closing gives the focus back to the link, or to the menu it was in.
 * Without this script, or on a page without the dialog, the link is the page. Installed by the bell's
 * script, which every member page already loads, so no page gains a file (the bell's page stays
 * within its 2 KiB of script: keep this small).
 */
export function openContactInDialog(): void {
  if (installed) return;
  installed = true;
  let back: HTMLElement | null = null;
  document.addEventListener('click', (e) => {
    const link = (e.target as Element).closest?.('a[data-dialog]') as HTMLElement | null | undefined;
    const dialog = link ? (document.getElementById(link.dataset.dialog ?? '') as HTMLDialogElement | null) : null;
    if (!link || !dialog?.showModal || e.button || e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    // A link in an open menu: the menu closes behind the dialog and its button gets the focus back.
    const menu = link.closest('details');
    if (menu) menu.open = false;
    back = (menu?.querySelector('summary') ?? link) as HTMLElement;
    if (!dialog.onclose) dialog.onclose = () => back?.focus();
    dialog.showModal();
  });
}
