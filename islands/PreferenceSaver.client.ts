import type { PreferenceSaverProps } from './PreferenceSaver.tsx';

const SELECT = 'mutation($id: ID!, $selected: Boolean!) { notificationsPreferenceSelection(id: $id, selected: $selected) { id selected } }';
const DIGEST = 'mutation($enabled: Boolean!) { notificationsEmailDigest(enabled: $enabled) }';

/**
 * Saves each change of the preferences form at once through GraphQL (cookie + x-csrf-token), one
 * request after another (a quick on-off-on ends as the member left it). A change that fails is put
 * back, and the failure is announced; a success says "Saved." politely.
 */
export default function enhancePreferences(island: HTMLElement, { endpoint, labels }: PreferenceSaverProps): void {
  const form = island.closest<HTMLFormElement>('form[data-preferences-form]');
  if (!form) return;
  const saved = island.querySelector<HTMLElement>('[data-preference-saved]');
  const failed = island.querySelector<HTMLElement>('[data-preference-failed]');
  const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
  const submit = form.querySelector<HTMLElement>('[data-preferences-submit]');
  if (submit) submit.hidden = true;
  form.addEventListener('submit', (e) => e.preventDefault());

  let queue: Promise<unknown> = Promise.resolve();
  let savedTimer = 0;

  async function call(query: string, variables: Record<string, unknown>): Promise<Record<string, unknown>> {
    const res = await fetch(endpoint, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify({ query, variables }),
    });
    const json = (await res.json()) as { data?: Record<string, unknown> | null; errors?: unknown[] };
    if (!res.ok || json.errors?.length || !json.data) throw new Error('save failed');
    return json.data;
  }

  function report(ok: boolean) {
    if (ok) {
      if (failed) failed.textContent = '';
      if (saved) {
        saved.textContent = labels.saved;
        window.clearTimeout(savedTimer);
        savedTimer = window.setTimeout(() => (saved.textContent = ''), 3000);
      }
    } else {
      if (saved) saved.textContent = '';
      if (failed) failed.textContent = labels.failed;
    }
  }

  function save(run: () => Promise<boolean>, undo: () => void) {
    queue = queue.then(async () => {
      let ok = false;
      try {
        ok = await run();
      } catch {
        ok = false;
      }
      if (!ok) undo();
      report(ok);
    });
  }

  form.addEventListener('change', (e) => {
    const input = e.target as HTMLInputElement;
    if (input.matches('input[type="checkbox"][data-preference]')) {
      const selected = input.checked;
      save(
        async () => {
          const data = await call(SELECT, { id: input.dataset.preference, selected });
          return (data.notificationsPreferenceSelection as { selected?: boolean } | null)?.selected === selected;
        },
        () => {
          if (input.checked === selected) input.checked = !selected;
        },
      );
    } else if (input.matches('input[type="radio"][data-digest]') && input.checked) {
      const enabled = input.value === 'daily';
      const other = form.querySelector<HTMLInputElement>(`input[type="radio"][data-digest][value="${enabled ? 'immediate' : 'daily'}"]`);
      save(
        async () => (await call(DIGEST, { enabled })).notificationsEmailDigest === enabled,
        () => {
          if (input.checked && other) other.checked = true;
        },
      );
    }
  });
}
