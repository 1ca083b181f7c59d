export type NotificationBellProps = {
  /** The notifications page (with the path prefix). */
  href: string;
  /** The member GraphQL endpoint (with the path prefix). */
  graphqlUrl: string;
  /** The server's dot: a notification not yet seen in the bell. */
  unread: boolean;
  labels: { label: string; labelUnread: string; heading: string; empty: string; seeAll: string; unread: string; loading: string; failed: string; justNow: string };
};

/**
 * The bell as the server renders it: a plain link to the notifications page with the server's unread
 * dot, which works without JavaScript. In the browser it is enhanced without React by
 * NotificationBell.client.ts (a button that opens the newest seven, and a poll for the dot); esbuild
 * bundles that file as this island's entry.
 */
export default function NotificationBell({ href, unread, labels }: NotificationBellProps) {
  return (
    <div className="bell">
      <a className="bell-button" href={href} aria-label={unread ? labels.labelUnread : labels.label}>
        <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
          <path d="M13.73 21a2 2 0 0 1-3.46 0" />
        </svg>
        <span className="bell-dot" data-testid="bell-dot" hidden={!unread} />
      </a>
    </div>
  );
}
