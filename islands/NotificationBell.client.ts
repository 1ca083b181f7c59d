import { openContactInDialog } from './contact-dialog.ts';
import { closeHeaderMenusOnEscape } from './header-menus.ts';
import type { NotificationBellProps } from './NotificationBell.tsx';

type Node = { id: string; message: string; hasRead: boolean; createdAt: string };

/** Spec section 9: the unviewed flag is polled every 30 seconds; the bell shows the newest 7. */
const POLL_MS = 30_000;
const DAY = 864e5;

let panels = 0;

/**
 * The bell in the browser, without React (it is the only island on most member pages): the server
 * renders a link with the unread dot; this turns it into a button that opens a compact panel with
 * the newest seven notifications (each a link through /notifications/:id/open, which marks it read)
 * and marks them viewed (the dot goes). While the page is visible it asks every 30 seconds, and once
 * on becoming visible again, whether anything new is unviewed. Escape or a click outside closes the
 * panel; Escape gives the focus back to the bell.
 */
export default function enhanceBell(island: HTMLElement, { href, graphqlUrl, unread, labels }: NotificationBellProps): void {
  closeHeaderMenusOnEscape();
  openContactInDialog();
  const root = island.querySelector<HTMLElement>('.bell');
  const button = root?.querySelector<HTMLAnchorElement>('a.bell-button');
  const dot = root?.querySelector<HTMLElement>('.bell-dot');
  if (!root || !button || !dot) return;
  const panelId = `bell-panel-${++panels}`;
  let panel: HTMLElement | null = null;
  const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';

  const gql = (query: string) =>
    fetch(graphqlUrl, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token },
      body: JSON.stringify({ query }),
    })
      .then((r) => r.json())
      .then((j) => {
        if (!j.data) throw new Error('graphql');
        return j.data;
      });
  const setDot = (on: boolean) => {
    dot.hidden = !on;
    button.setAttribute('aria-label', on ? labels.labelUnread : labels.label);
  };
  setDot(unread);
  const poll = () => {
    if (document.visibilityState === 'visible') gql('{notifications(first:1){pageInfo{hasUnviewed}}}').then((d) => setDot(d.notifications.pageInfo.hasUnviewed), () => {});
  };
  setInterval(poll, POLL_MS);
  document.addEventListener('visibilitychange', poll);

  const element = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text: string) => {
    const el = document.createElement(tag);
    el.className = className;
    el.textContent = text;
    return el;
  };
  const rtf = new Intl.RelativeTimeFormat('en');
  const date = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
  /** As the server words it (src/core/format.ts formatRelative): a date after 21 days. */
  const when = (iso: string) => {
    const ms = Math.max(0, Date.now() - Date.parse(iso));
    if (ms > 21 * DAY) return date.format(new Date(iso));
    if (ms < 6e4) return labels.justNow;
    const [n, unit] = ms < 36e5 ? [ms / 6e4, 'minute'] : ms < DAY ? [ms / 36e5, 'hour'] : [ms / DAY, 'day'];
    return rtf.format(-Math.floor(n), unit as Intl.RelativeTimeFormatUnit);
  };
  function fill(body: HTMLElement, nodes: Node[]) {
    if (!nodes.length) return body.replaceChildren(element('p', 'bell-empty', labels.empty));
    const list = element('ul', 'bell-list', '');
    for (const n of nodes) {
      const link = element('a', n.hasRead ? 'bell-item' : 'bell-item is-unread', '');
      link.href = `${href}/${encodeURIComponent(n.id)}/open`;
      if (!n.hasRead) link.append(element('span', 'notif-badge', labels.unread), ' ');
      link.append(element('span', 'bell-message', n.message), element('span', 'bell-time', when(n.createdAt)));
      const li = document.createElement('li');
      li.append(link);
      list.append(li);
    }
    body.replaceChildren(list);
    gql(`mutation{notificationsMarkAsViewed(upTo:${JSON.stringify(nodes[0]!.id)})}`).then(() => setDot(false), () => {});
  }

  const onDocument = (e: Event) => {
    if (e instanceof KeyboardEvent) {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.focus();
    } else if (!root.contains(e.target as Element)) setOpen(false);
  };
  function setOpen(open: boolean) {
    if (open === (panel !== null)) return;
    button!.setAttribute('aria-expanded', String(open));
    if (open) {
      panel = element('div', 'bell-panel', '');
      panel.id = panelId;
      const body = element('div', 'bell-body', '');
      body.append(element('p', 'bell-empty', labels.loading));
      const all = element('a', 'bell-all', labels.seeAll);
      all.href = href;
      panel.append(element('h2', 'bell-heading', labels.heading), body, all);
      root!.appendChild(panel);
      document.addEventListener('click', onDocument);
      document.addEventListener('keydown', onDocument);
      gql('{notifications(first:7){nodes{id message hasRead createdAt}}}').then(
        (d) => fill(body, d.notifications.nodes),
        () => body.replaceChildren(element('p', 'bell-empty', labels.failed)),
      );
    } else {
      panel?.remove();
      panel = null;
      document.removeEventListener('click', onDocument);
      document.removeEventListener('keydown', onDocument);
    }
  }

  button.setAttribute('role', 'button');
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', panelId);
  button.addEventListener('click', (e) => {
    e.preventDefault();
    setOpen(panel === null);
  });
  // A button answers the space bar as well as Enter.
  button.addEventListener('keydown', (e) => {
    if (e.key !== ' ') return;
    e.preventDefault();
    setOpen(panel === null);
  });
}
