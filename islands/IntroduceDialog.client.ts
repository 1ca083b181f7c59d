import type { IntroduceDialogProps } from './IntroduceDialog.tsx';

let installed = false;

/**
 * The request-introduction modal without React: clicks on any `a[data-introduce]` open a native
 * <dialog> (showModal: focus kept inside, Escape closes, a backdrop) holding the request form, fetched
 * as a fragment of the request page. The form posts by fetch; the answer (the form again with its
 * field messages and the typed text, or the confirmation) replaces the dialog's content. Closing
 * returns focus to the link. Any failure falls back to the page itself.
 */
export default function enhanceIntroduce(_island: HTMLElement, { labels }: IntroduceDialogProps): void {
  if (installed) return;
  installed = true;
  let dialog: HTMLDialogElement | null = null;
  let body: HTMLElement | null = null;
  let opener: HTMLElement | null = null;

  const fragmentUrl = (href: string) => `${href}${href.includes('?') ? '&' : '?'}fragment=1`;

  function ensureDialog(): { dialog: HTMLDialogElement; body: HTMLElement } {
    if (dialog && body) return { dialog, body };
    dialog = document.createElement('dialog');
    dialog.className = 'modal introduce-modal';
    dialog.setAttribute('aria-labelledby', 'introduce-heading');
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'link-button introduce-close';
    close.textContent = labels.close;
    close.addEventListener('click', () => dialog!.close());
    body = document.createElement('div');
    body.className = 'introduce-body';
    dialog.append(close, body);
    dialog.addEventListener('close', () => {
      opener?.focus();
      opener = null;
    });
    // A click on the backdrop (the dialog element itself, outside its box) closes it.
    const d = dialog;
    d.addEventListener('click', (e) => {
      if (e.target !== d || e.detail === 0) return;
      const r = d.getBoundingClientRect();
      const inside = e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
      if (!inside) d.close();
    });
    body.addEventListener('submit', (e) => {
      const form = e.target as HTMLFormElement;
      if (!form.matches('form[data-introduce-form]')) return;
      e.preventDefault();
      void submit(form);
    });
    body.addEventListener('click', (e) => {
      const target = (e.target as HTMLElement).closest('[data-introduce-cancel]');
      if (target) {
        e.preventDefault();
        dialog!.close();
      }
    });
    document.body.appendChild(dialog);
    return { dialog, body };
  }

  function show(html: string) {
    const { body } = ensureDialog();
    body.innerHTML = html;
    const focus = body.querySelector<HTMLElement>('[aria-invalid="true"], textarea, [data-introduce-focus]') ?? body.querySelector<HTMLElement>('h2');
    if (focus) {
      if (focus.tagName === 'H2') focus.tabIndex = -1;
      focus.focus();
    }
  }

  function failure(href: string) {
    const { body } = ensureDialog();
    body.textContent = '';
    const p = document.createElement('p');
    p.setAttribute('role', 'alert');
    p.textContent = labels.failed;
    const a = document.createElement('a');
    a.href = href;
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
      // A page that is not the form (signed out, not found) is better seen whole.
      if (res.redirected || !res.ok) throw new Error(String(res.status));
      show(await res.text());
    } catch {
      failure(link.href);
    }
  }

  async function submit(form: HTMLFormElement) {
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    button?.setAttribute('aria-disabled', 'true');
    try {
      const data = new URLSearchParams();
      for (const [k, v] of new FormData(form)) if (typeof v === 'string') data.append(k, v);
      const res = await fetch(fragmentUrl(form.action), {
        method: 'POST',
        headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
        body: data.toString(),
        credentials: 'same-origin',
      });
      if (res.redirected || !res.ok) throw new Error(String(res.status));
      show(await res.text());
    } catch {
      failure(form.action.replace(/\?.*$/, ''));
    } finally {
      button?.removeAttribute('aria-disabled');
    }
  }

  document.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const link = (e.target as HTMLElement).closest<HTMLAnchorElement>('a[data-introduce]');
    if (!link) return;
    e.preventDefault();
    void open(link);
  });
}
