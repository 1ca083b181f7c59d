import type { RelativeTimesProps } from './RelativeTimes.tsx';

const MINUTE = 6e4;
const HOUR = 36e5;
let started = false;

/** Rewords each marked relative time as src/core/format.ts formatRelative does, at the moment its words change. */
export default function enhanceRelativeTimes(_island: HTMLElement, labels: RelativeTimesProps): void {
  if (started) return;
  started = true;
  const rules = new Intl.PluralRules(labels.locale);
  const plural = (forms: Record<string, string>, n: number) => (forms[rules.select(n)] ?? forms.other ?? '#').replace('#', String(n));
  const update = (el: HTMLElement) => {
    if (!el.isConnected) return;
    const elapsed = Math.max(0, Date.now() - Date.parse(el.getAttribute('datetime') ?? el.dataset.relAt ?? ''));
    // Older than a day (or no time): the server's words stand.
    if (!(elapsed < 24 * HOUR)) return;
    const n = elapsed < MINUTE ? 0 : elapsed < HOUR ? Math.floor(elapsed / MINUTE) : Math.floor(elapsed / HOUR);
    const text = elapsed < MINUTE ? labels.justNow : plural(elapsed < HOUR ? labels.minutes : labels.hours, n);
    const template = el.dataset.rel;
    el.textContent = template ? template.replace('{when}', text) : text;
    if (elapsed >= 3 * HOUR) return;
    const step = elapsed < HOUR ? MINUTE : HOUR;
    setTimeout(() => update(el), step - (elapsed % step) + 50);
  };
  const scan = (root: Element) => {
    if (root.matches('[data-rel]')) update(root as HTMLElement);
    for (const el of root.querySelectorAll<HTMLElement>('[data-rel]')) update(el);
  };
  scan(document.body);
  // Fragments htmx brings in later (more replies, a new one) carry their own.
  document.addEventListener('htmx:load', (e) => scan(e.target as Element));
}
