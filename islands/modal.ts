/**
 * The modal without React, shared by ModalDialog.client.ts (any `a[data-modal]`) and
 * IntroduceDialog.client.ts (`a[data-introduce]`): what differs between them is only in `ModalOptions`.
 * A click on a matching link opens a native <dialog> (showModal: focus kept inside, Escape closes, a
 * backdrop click closes) holding `href?fragment=1`. A matching form inside posts by fetch to
 * `action?fragment=1` (urlencoded, with the x-csrf-token header): a 200 answer replaces the content
 * (field messages, typed values); a redirect is either followed (done: the browser goes there) or, for
 * a dialog that never expects one, a failure. Focus goes to the first of the `focus` selectors that
 * matches, else the heading; closing returns it to the link. Any failure offers the page itself.
 * No state lives in this module (the islands' bundles share it): each caller installs once.
 */

export type ModalLabels = { close: string; loading: string; failed: string; openPage: string };

export type ModalOptions = {
  labels: ModalLabels;
  /** The links that open the dialog, the forms inside it that post by fetch, and what closes it. */
  selectors: { link: string; form: string; cancel: string };
  /** The class names of the dialog, its close button and its content. */
  classes: { dialog: string; close: string; body: string };
  /** Where focus goes when content shows, tried in order; then the heading (made focusable). */
  focus: string[];
  /** The content's heading (the fallback for focus, and what labels the dialog). */
  heading: string;
  /**
   * A fixed id labelling the dialog (the content always has that heading); without it the dialog is
   * labelled by the content's first heading, or by the failure message.
   */
  labelledBy?: string;
  /** Whether a redirected answer to a post means done (go there) rather than a failure. */
  followRedirect: boolean;
  /** Island scripts by name, for islands inside a fragment (each shown fragment runs a fresh copy). */
  scripts?: Record<string, string>;
};

const FRAGMENT = 'fragment=1';
const fragmentUrl = (href: string) => `${href}${href.includes('?') ? '&' : '?'}${FRAGMENT}`;
const pageUrl = (href: string) => href.replace(/[?&]fragment=1(?=&|$)/, '').replace(/\?$/, '');

/** Listens for clicks on the options' links: call once per kind of dialog. */
export function installModal(options: ModalOptions): void {
  const { labels, selectors, classes, scripts = {} } = options;
  let dialog: HTMLDialogElement | null = null;
  let body: HTMLElement | null = null;
  let opener: HTMLElement | null = null;
  let counter = 0;

  function ensureDialog(): { dialog: HTMLDialogElement; body: HTMLElement } {
    if (dialog && body) return { dialog, body };
    const d = document.createElement('dialog');
    d.className = classes.dialog;
    if (options.labelledBy) d.setAttribute('aria-labelledby', options.labelledBy);
    const close = document.createElement('button');
    close.type = 'button';
    close.className = classes.close;
    close.textContent = labels.close;
    close.addEventListener('click', () => d.close());
    const b = document.createElement('div');
    b.className = classes.body;
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
      if (!form.matches(selectors.form)) return;
      e.preventDefault();
      void submit(form);
    });
    b.addEventListener('click', (e) => {
      if ((e.target as HTMLElement).closest(selectors.cancel)) {
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
    const heading = body.querySelector<HTMLElement>(options.heading);
    if (heading && !options.labelledBy) {
      if (!heading.id) heading.id = `modal-heading-${++counter}`;
      dialog.setAttribute('aria-labelledby', heading.id);
    }
    // Islands inside the fragment: their entry hydrates every instance on the page when it runs, so
    // a fresh copy of it (a distinct address) runs for each fragment shown.
    for (const el of body.querySelectorAll<HTMLElement>('[data-island]')) {
      const src = scripts[el.dataset.island ?? ''];
      if (src && src.startsWith('/')) void import(/* webpackIgnore: true */ `${src}?dialog=${++counter}`).catch(() => undefined);
    }
    let focus: HTMLElement | null = null;
    for (const selector of options.focus) focus ??= body.querySelector<HTMLElement>(selector);
    focus ??= heading;
    if (focus) {
      if (focus === heading) focus.tabIndex = -1;
      focus.focus();
    }
  }

  function failure(href: string) {
    const { dialog, body } = ensureDialog();
    body.textContent = '';
    const p = document.createElement('p');
    p.setAttribute('role', 'alert');
    p.textContent = labels.failed;
    if (!options.labelledBy) {
      p.id = `modal-heading-${++counter}`;
      dialog.setAttribute('aria-labelledby', p.id);
    }
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
      if (res.redirected && res.ok && options.followRedirect) {
        location.assign(res.url);
        return;
      }
      if (res.redirected || !res.ok) throw new Error(String(res.status));
      show(await res.text());
    } catch {
      failure(action);
    } finally {
      button?.removeAttribute('aria-disabled');
    }
  }

  document.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const link = (e.target as HTMLElement).closest<HTMLAnchorElement>(selectors.link);
    if (!link || typeof HTMLDialogElement !== 'function') return;
    e.preventDefault();
    void open(link);
  });
}
