import type { SavedCardsProps } from './SavedCards.tsx';

type Snapshot = () => void;

/**
 * Optimistic saved-card actions and lazily loaded auth logs (see SavedCards.tsx). The forms post to
 * the same routes as without JavaScript, asking for JSON: one answer path, one set of rules.
 */
export default function enhanceSavedCards(island: HTMLElement, { labels }: SavedCardsProps): void {
  const root = island.closest<HTMLElement>('[data-saved-cards]');
  if (!root) return;
  const status = island.querySelector<HTMLElement>('[data-cards-status]');
  const error = island.querySelector<HTMLElement>('[data-cards-error]');
  const prompt = root.querySelector<HTMLElement>('[data-update-prompt]');
  const skeleton = root.querySelector<HTMLTemplateElement>('template[data-log-skeleton]');
  let queue: Promise<unknown> = Promise.resolve();

  const say = (ok: boolean, text: string) => {
    if (status) status.textContent = ok ? text : '';
    if (error) error.textContent = ok ? '' : text;
  };

  const cards = () => Array.from(root.querySelectorAll<HTMLElement>('li[data-card-id]'));

  /** Shows a card as the default or not: its badge, and its two actions hidden for the default. */
  function mark(card: HTMLElement, isDefault: boolean) {
    card.dataset.default = isDefault ? 'true' : 'false';
    const badge = card.querySelector<HTMLElement>('[data-default-badge]');
    if (badge) badge.hidden = !isDefault;
    for (const f of card.querySelectorAll<HTMLFormElement>('form[data-card-action]')) f.hidden = isDefault;
  }

  function refreshPrompt() {
    const d = cards().find((c) => !c.hidden && c.dataset.default === 'true');
    if (prompt) prompt.hidden = !(d && d.dataset.needsAttention === 'true');
  }

  async function post(form: HTMLFormElement): Promise<{ ok: boolean; message: string | null }> {
    const body = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (typeof v === 'string') body.append(k, v);
    try {
      const res = await fetch(form.action, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
      });
      const json = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
      return { ok: res.ok, message: json?.error?.message ?? null };
    } catch {
      return { ok: false, message: null };
    }
  }

  function apply(form: HTMLFormElement, card: HTMLElement): Snapshot {
    if (form.dataset.cardAction === 'default') {
      const before = cards().find((c) => c.dataset.default === 'true') ?? null;
      if (before) mark(before, false);
      mark(card, true);
      refreshPrompt();
      return () => {
        mark(card, false);
        if (before) mark(before, true);
        refreshPrompt();
      };
    }
    card.hidden = true;
    return () => {
      card.hidden = false;
    };
  }

  root.addEventListener('submit', (e) => {
    const form = e.target as HTMLFormElement;
    if (!form.matches('form[data-card-action]')) return;
    const card = form.closest<HTMLElement>('li[data-card-id]');
    if (!card) return;
    e.preventDefault();
    const isDefault = form.dataset.cardAction === 'default';
    const undo = apply(form, card);
    // The focus must not be lost with a hidden button: it goes to the card's heading or the list.
    const focusTarget = isDefault ? card.querySelector<HTMLElement>('.saved-card-title') : root.querySelector<HTMLElement>('h1');
    if (focusTarget) {
      focusTarget.tabIndex = -1;
      focusTarget.focus();
    }
    queue = queue.then(async () => {
      const result = await post(form);
      if (result.ok) say(true, isDefault ? labels.defaultChanged : labels.removed);
      else {
        undo();
        say(false, result.message ?? (isDefault ? labels.changeDefaultFailed : labels.deleteFailed));
      }
    });
  });

  // Each log loads once, when its <details> is first opened.
  for (const details of root.querySelectorAll<HTMLDetailsElement>('details[data-auth-log]')) {
    details.addEventListener('toggle', async () => {
      if (!details.open || details.dataset.loaded) return;
      details.dataset.loaded = 'loading';
      const body = details.querySelector<HTMLElement>('[data-log-body]');
      if (!body) return;
      if (skeleton) body.replaceChildren(skeleton.content.cloneNode(true));
      try {
        const res = await fetch(`${details.dataset.authLog}?fragment=1`, { credentials: 'same-origin', headers: { accept: 'text/html' } });
        if (!res.ok) throw new Error(String(res.status));
        body.innerHTML = await res.text();
        details.dataset.loaded = 'true';
      } catch {
        const p = document.createElement('p');
        p.className = 'field-error';
        p.setAttribute('role', 'alert');
        p.textContent = labels.logFailed;
        body.replaceChildren(p);
        delete details.dataset.loaded;
      }
    });
  }
}
