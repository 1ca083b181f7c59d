// The look's before/after (issue 30, docs/look.md): the main pages the README's pictures show
// (scripts/look-pages.ts, the same list as `npm run screenshots`) weighed as Chromium receives them
// from the bench server's probe app (production mode: hashed, precompressed stylesheet, compressed
// HTML): HTML and CSS encoded body bytes on a cold cache, against issue 10's budget of 30 KiB.
// `npm run bench -- look --backend=pglite` (the bytes do not depend on the database: measured on the
// first one only).
import { existsSync } from 'node:fs';
import { BUDGETS, CHROMIUM, DEMO_COMMUNITY, KIB, get, isSignedInPage, kib, serverOf, type BenchModule } from './lib.ts';
import { weighSignedInPages } from './weight.ts';
import { LOOK_PAGES, firstLinkIn, type LookPage } from '../look-pages.ts';

/** Signed in: the page offers to sign out (the member's user menu, the staff header, which has no user menu). */
const signedIn = (html: string) => isSignedInPage(html) || /<form[^>]*action="[^"]*\/logout"/.test(html);

type Weighed = { name: string; label: string; path: string; status: number; html: number; css: number; js: number; img: number; signedIn: boolean };

/** The page's path: its own, or the first matching link of the page it is found on (as the pictures find it). */
async function pathOf(port: number, cookie: string, spec: LookPage): Promise<string | null> {
  if (spec.path) return spec.path;
  const res = await get(port, spec.from!, { accept: 'text/html', cookie });
  return res.status === 200 ? firstLinkIn(res.body.toString('utf8'), spec.link!) : null;
}

export const lookModule: BenchModule = {
  name: 'look',
  scope: 'server',
  describe: 'the look (issue 30): HTML and CSS bytes of the main pages the README pictures',
  async run(ctx) {
    const server = serverOf(ctx);
    const warnings: string[] = [];
    if (!server.first) return { sections: [], warnings, data: null };
    if (!existsSync(CHROMIUM)) return { sections: [], warnings: [`no Chromium at ${CHROMIUM}: the look's page weight was not measured`], data: null };
    const { probePort, cookie, adminCookie } = server.info;
    const weighed: Weighed[] = [];
    for (const who of ['member', 'admin'] as const) {
      const session = who === 'member' ? cookie : adminCookie;
      const pages: (LookPage & { path: string })[] = [];
      for (const spec of LOOK_PAGES.filter((p) => p.who === who)) {
        const p = await pathOf(probePort, session, spec);
        if (p) pages.push({ ...spec, path: p });
        else warnings.push(`${spec.name}: no link like ${spec.link} on ${spec.from}: not weighed`);
      }
      for (const w of await weighSignedInPages(probePort, session, pages)) {
        weighed.push({ name: w.name, label: w.label, path: w.path, status: w.status, html: w.bytes.html, css: w.bytes.css, js: w.bytes.js, img: w.bytes.img, signedIn: signedIn(w.html) });
        if (w.status !== 200) warnings.push(`${w.name} (${w.path}) answered ${w.status}`);
        if (!signedIn(w.html)) warnings.push(`${w.name} (${w.path}) did not render signed in`);
        if (w.bytes.html + w.bytes.css > BUDGETS.htmlCssMaxBytes) warnings.push(`${w.name} (${w.path}): HTML+CSS ${kib(w.bytes.html + w.bytes.css)}, over ${BUDGETS.htmlCssMaxBytes / KIB} KiB`);
      }
    }
    return {
      sections: [
        {
          key: 'look-weight',
          title: `The look (issue 30): the README's pages in Chromium, signed in (${DEMO_COMMUNITY}; the member, the admin for /admin); cold cache; encoded body bytes; budget HTML+CSS ≤ ${BUDGETS.htmlCssMaxBytes / KIB} KiB`,
          head: ['picture', 'path', 'status', 'HTML', 'CSS', 'HTML+CSS bytes', 'HTML+CSS', `≤ ${BUDGETS.htmlCssMaxBytes / KIB} KiB`, 'js', 'img'],
          right: [false, false, true, true, true, true, true, false, true, true],
          rows: weighed.map((w) => [
            w.name,
            w.path,
            String(w.status),
            String(w.html),
            String(w.css),
            String(w.html + w.css),
            kib(w.html + w.css),
            w.html + w.css <= BUDGETS.htmlCssMaxBytes ? 'pass' : 'over',
            kib(w.js),
            kib(w.img),
          ]),
          notes: ['  (the pages of scripts/look-pages.ts, as `npm run screenshots` pictures them; docs/look.md keeps the before and after figures)'],
        },
      ],
      warnings,
      data: { pages: weighed },
    };
  },
};
