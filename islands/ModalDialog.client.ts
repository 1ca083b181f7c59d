import type { ModalDialogProps } from './ModalDialog.tsx';

let installed = false;

const fragmentUrl = (href: string) => `${href}${href.includes('?') ? '&' : '?'}fragment=1`;
const pageUrl = (href: string) => href.replace(/[?&]fragment=1(?=&|$)/, '').replace(/\?$/, '');
const FIELDS = 'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled])';

/**
 * The generic modal, without React (the contract in the notes; islands/IntroduceDialog.client.ts is
 * the same idea for introductions). A click on any `a[data-modal]` opens a native <dialog> (showModal:
 * focus kept inside, Escape closes, a backdrop click closes) holding `href?fragment=1`, labelled by its
 * first heading. A `form[data-modal-form]` inside posts by fetch to `action?fragment=1` (urlencoded,
 * with the x-csrf-token header): a 200 answer replaces the content (field messages, typed values), a
 * redirected one means done and the browser goes there (the section page with its alert). Focus goes
 * to the first invalid field, else the first field; closing returns it to the link. Any failure offers
 * the page itself.
 */
export default function enhanceModals(_island: HTMLElement, { labels, scripts = {} }: ModalDialogProps): void {
  if (installed) return;
  installed = true;
  let dialog: HTMLDialogElement | null = null;
  let body: HTMLElement | null = null;
  let opener: HTMLElement | null = null;
  let counter = 0;

  function ensureDialog(): { dialog: HTMLDialogElement; body: HTMLElement } {
    if (dialog && body) return { dialog, body };
    const d = document.createElement('dialog');
    d.className = 'modal modal-dialog';
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'link-button modal-close';
    close.textContent = labels.close;
    close.addEventListener('click', () => d.close());
    const b = document.createElement('div');
    b.className = 'modal-body';
    d.append(close, b);
    d.addEventListener('close', () => {
      b.textContent = '';
      opener?.focus();
      opener = null;
    });
    // A click on the backdrop (the dialog element itself, outside its box) closes it.
    d.addEventListener('click', (e) => {
      if (e.target !== d || e.detail === 0) return;
      const r = d.getBoundingClientRect();
      const inside = e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
      if (!inside) d.close();
    });
    b.addEventListener('submit', (e) => {
      const form = e.target as HTMLFormElement;
      if (!form.matches('form[data-modal-form]')) return;
      e.preventDefault();
      void submit(form);
    });
    b.addEventListener('click', (e) => {
      if ((e.target as HTMLElement).closest('[data-modal-cancel]')) {
        e.preventDefault();
        d.close();
      }
    });
    document.body.appendChild(d);
    dialog = d;
    body = b;
    return { dialog: d, body: b };
  }

  function show(html: string) {
    const { dialog, body } = ensureDialog();
    body.innerHTML = html;
    const heading = body.querySelector<HTMLElement>('h1, h2, h3');
    if (heading) {
      if (!heading.id) heading.id = `modal-heading-${++counter}`;
      dialog.setAttribute('aria-labelledby', heading.id);
    }
    // Islands inside the fragment: their entry hydrates every instance on the page when it runs, so
    // a fresh copy of it (a distinct address) runs for each fragment shown.
    for (const el of body.querySelectorAll<HTMLElement>('[data-island]')) {
      const src = scripts[el.dataset.island ?? ''];
      if (src && src.startsWith('/')) void import(/* webpackIgnore: true */ `${src}?dialog=${++counter}`).catch(() => undefined);
    }
    const focus = body.querySelector<HTMLElement>('[aria-invalid="true"]') ?? body.querySelector<HTMLElement>(FIELDS) ?? heading;
    if (focus) {
      if (focus === heading) focus.tabIndex = -1;
      focus.focus();
    }
  }

  function failure(href: string) {
    const { dialog, body } = ensureDialog();
    body.textContent = '';
    const p = document.createElement('p');
    p.id = `modal-heading-${++counter}`;
    p.setAttribute('role', 'alert');
    p.textContent = labels.failed;
    dialog.setAttribute('aria-labelledby', p.id);
    const a = document.createElement('a');
    a.href = pageUrl(href);
    a.textContent = labels.openPage;
    body.append(p, a);
    a.focus();
  }

  async function open(link: HTMLAnchorElement) {
    opener = link;
    const { dialog, body } = ensureDialog();
    body.textContent = labels.loading;
    if (!dialog.open) dialog.showModal();
    try {
      const res = await fetch(fragmentUrl(link.href), { headers: { accept: 'text/html' }, credentials: 'same-origin' });
      // A page that is not the fragment (signed out, not found) is better seen whole.
      if (res.redirected || !res.ok) throw new Error(String(res.status));
      show(await res.text());
    } catch {
      failure(link.href);
    }
  }

  async function submit(form: HTMLFormElement) {
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    button?.setAttribute('aria-disabled', 'true');
    const action = form.getAttribute('action') ? form.action : location.href;
    try {
      const data = new URLSearchParams();
      for (const [k, v] of new FormData(form)) if (typeof v === 'string') data.append(k, v);
      const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
      const res = await fetch(fragmentUrl(action), {
        method: 'POST',
        headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', 'x-csrf-token': csrf },
        body: data.toString(),
        credentials: 'same-origin',
      });
      if (res.redirected && res.ok) {
        location.assign(res.url);
        return;
      }
      if (!res.ok) throw new Error(String(res.status));
      show(await res.text());
    } catch {
      failure(action);
    } finally {
      button?.removeAttribute('aria-disabled');
    }
  }

  document.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const link = (e.target as HTMLElement).closest<HTMLAnchorElement>('a[data-modal]');
    if (!link || typeof HTMLDialogElement !== 'function') return;
    e.preventDefault();
    void open(link);
  });
}
