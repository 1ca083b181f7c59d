// The main pages of the product, as the README's pictures show them (scripts/screenshots.ts) and as
// the look bench weighs them (scripts/bench/look.ts): one list, so that the before/after report of
// issue 30 (docs/look.md) puts the same pages side by side in bytes and in pictures.

export type Who = 'member' | 'admin';

export type LookPage = {
  /** The file name's stem: `<name>-desktop.png`, `<name>-phone.png`. */
  name: string;
  label: string;
  who: Who;
  /** The path, under the base address. */
  path?: string;
  /** Or: the first link matching `link` inside the `<main>` of the page at `from` (a thread, a profile). */
  from?: string;
  link?: RegExp;
};

export const LOOK_PAGES: readonly LookPage[] = [
  { name: 'home', label: 'Home  /', who: 'member', path: '/' },
  { name: 'forum', label: 'Forum list  /forum', who: 'member', path: '/forum' },
  { name: 'forum-thread', label: 'A thread  /forum/post/{id} (the first of the list)', who: 'member', from: '/forum', link: /\/forum\/post\/\d+(?=["?#])/ },
  { name: 'articles', label: 'Articles  /articles', who: 'member', path: '/articles' },
  { name: 'members', label: 'Member directory  /members', who: 'member', path: '/members' },
  { name: 'profile', label: 'A profile  /profile/{id} (the first of the directory)', who: 'member', from: '/members', link: /\/profile\/\d+(?=["?#])/ },
  { name: 'messages', label: 'Messages  /messages', who: 'member', path: '/messages' },
  { name: 'offers', label: 'Offers  /offers', who: 'member', path: '/offers' },
  { name: 'admin', label: 'Staff home  /admin', who: 'admin', path: '/admin' },
  { name: 'admin-members', label: 'Staff: members  /admin/members', who: 'admin', path: '/admin/members' },
];

/** The demo's accounts (README "Demo data"): the member the pictures are taken as, and the admin. */
export const DEMO_ACCOUNTS = {
  member: { email: 'amara.okafor@summit-demo.example.com', password: 'Demo-Member-2026!' },
  admin: { email: 'admin@example.com', password: 'Demo-Admin-2026!', community: 'summit' },
} as const;

/**
 * The first link of the page's `<main>` (the whole page when it has none) that matches `link`: the
 * path it names, e.g. `/forum/post/12`. Null when there is none.
 */
export function firstLinkIn(html: string, link: RegExp): string | null {
  const start = html.search(/<main\b/i);
  const end = start >= 0 ? html.indexOf('</main>', start) : -1;
  const main = start >= 0 ? html.slice(start, end > start ? end : undefined) : html;
  return link.exec(main)?.[0] ?? null;
}
