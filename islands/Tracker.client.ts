import type { TrackerProps } from './Tracker.tsx';

type Queued = { category: string; action: string; label: string; at: number };
type Track = (category: string, action: string, label?: string) => void;

let started = false;

/** The first-party page views and trackEvent (see Tracker.tsx). */
export default function enhanceTracker(_island: HTMLElement, { endpoint }: TrackerProps): void {
  if (started) return;
  started = true;
  const w = window as unknown as { trackEvent?: Track; gtag?: (...a: unknown[]) => void };
  const queue: Queued[] = [];
  let timer = 0;
  const flush = () => {
    clearTimeout(timer);
    timer = 0;
    while (queue.length) {
      const now = Date.now();
      const events = queue.splice(0, 20).map((e) => ({ category: e.category, action: e.action, label: e.label, age: now - e.at }));
      // A form body carries the page's CSRF token: a beacon sends no header of ours, but our cookies (same origin).
      const body = new URLSearchParams({ _csrf: document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '', events: JSON.stringify(events) });
      if (!navigator.sendBeacon?.(endpoint, body)) void fetch(endpoint, { method: 'POST', body, keepalive: true, credentials: 'same-origin' }).catch(() => undefined);
    }
  };
  const track: Track = (category, action, label = '') => {
    queue.push({ category: String(category), action: String(action), label: String(label ?? '').slice(0, 200), at: Date.now() });
    if (category !== 'page') w.gtag?.('event', action, { event_category: category, event_label: label });
    if (queue.length >= 20) flush();
    else if (!timer) timer = window.setTimeout(flush, 3000);
  };
  w.trackEvent = track;
  const view = () => track('page', 'view', location.pathname);
  view();
  // htmx history navigation (a pushed or restored address) is a route change too.
  for (const name of ['htmx:pushedIntoHistory', 'htmx:replacedInHistory', 'htmx:historyRestore']) document.addEventListener(name, view);
  document.addEventListener('click', (e) => {
    const el = (e.target as Element | null)?.closest?.('[data-track]');
    const [category, action, label] = (el?.getAttribute('data-track') ?? '').split('|');
    if (category && action) track(category, action, label);
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush();
  });
  window.addEventListener('pagehide', flush);
}
