let installed = false;

/**
 * The header's <details> menus (More, the account menu, the mobile sidebar) open and close without
 * script; this adds what a menu button does from the keyboard: Escape closes the open menu and gives
 * the focus back to its summary. Installed by the bell's script, which every page with these menus
 * already loads (they are shown only to signed-in members, as the bell is), so no page gains a file.
 */
export function closeHeaderMenusOnEscape(): void {
  if (installed) return;
  installed = true;
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    const open = [...document.querySelectorAll<HTMLDetailsElement>('.site-header details[open]')];
    // The menu holding the focus first; otherwise the one open menu.
    const menu = open.find((d) => d.contains(document.activeElement)) ?? (open.length === 1 ? open[0] : undefined);
    if (!menu) return;
    menu.open = false;
    menu.querySelector<HTMLElement>(':scope > summary')?.focus();
  });
}
