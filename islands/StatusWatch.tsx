import { useEffect, useState } from 'react';

export type StatusWatchProps = { url: string; status: string; finished: string; intervalMs?: number };

/**
 * While the editors hold the article (FIRST_ROUND_EDIT, FINAL_EDIT), the member's page asks every
 * 15 seconds, and whenever the tab comes back into view, whether the status changed; when it has, it
 * says so and loads the page again, which then shows what the editors left. Without JavaScript a
 * reload does the same. Polling rather than a held connection: one cheap query, no proxy concerns.
 */
export default function StatusWatch({ url, status, finished, intervalMs = 15_000 }: StatusWatchProps) {
  const [done, setDone] = useState(false);
  useEffect(() => {
    let stopped = false;
    async function check() {
      if (stopped || document.visibilityState === 'hidden') return;
      try {
        const res = await fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } });
        if (!res.ok) return;
        const body = (await res.json()) as { status?: string | null };
        if (body.status !== status && !stopped) {
          stopped = true;
          setDone(true);
          window.setTimeout(() => location.reload(), 1200);
        }
      } catch {
        // Offline for a moment: the next tick tries again.
      }
    }
    const timer = window.setInterval(check, intervalMs);
    const onVisible = () => void check();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [url, status, intervalMs]);
  return (
    <p className="save-status" role="status" aria-live="polite">
      {done ? finished : ''}
    </p>
  );
}
