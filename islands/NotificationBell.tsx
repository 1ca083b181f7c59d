import { useEffect, useId, useRef, useState } from 'react';

export type NotificationBellProps = {
  href: string;
  unread: boolean;
  labels: { label: string; labelUnread: string; heading: string; empty: string; seeAll: string };
};

/**
 * The bell: without JavaScript a plain link to the notifications page; hydrated, it opens a compact
 * panel (the list itself arrives with the notifications capability).
 */
export default function NotificationBell({ href, unread, labels }: NotificationBellProps) {
  const [hydrated, setHydrated] = useState(false);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('click', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('click', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  const label = unread ? labels.labelUnread : labels.label;
  const icon = (
    <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
      <path d="M13.73 21a2 2 0 0 1-3.46 0" />
    </svg>
  );
  return (
    <div className="bell" ref={root}>
      <a
        className="bell-button"
        href={href}
        aria-label={label}
        aria-expanded={hydrated ? open : undefined}
        aria-controls={hydrated ? panelId : undefined}
        role={hydrated ? 'button' : undefined}
        onClick={(e) => {
          e.preventDefault();
          setOpen((o) => !o);
        }}
      >
        {icon}
        {unread ? <span className="bell-dot" data-testid="bell-dot" /> : null}
      </a>
      {hydrated && open ? (
        <div className="bell-panel" id={panelId}>
          <h2 className="bell-heading">{labels.heading}</h2>
          <p className="bell-empty">{labels.empty}</p>
          <a className="bell-all" href={href}>
            {labels.seeAll}
          </a>
        </div>
      ) : null}
    </div>
  );
}
