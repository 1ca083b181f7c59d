// Every page the bench knows, signed out, as a member and as an admin: SQL statements per request
// (the probe app's Server-Timing, on every database), and page weight as Chromium receives it (on the
// first database only: the bytes do not depend on it): encoded body sizes by resource type from the
// network (CDP), with a cold cache, then a second load with the cache warm. Issue 10's budgets are
// checked on the cold figures.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type CDPSession } from 'playwright-core';
import { prepareArticlePage, type AutosaveSql } from './articles.ts';
import {
  AUTOSAVE,
  BUDGETS,
  HOST,
  KIB,
  errorMessage,
  get,
  isSignedInPage,
  kib,
  serverOf,
  sharedCsrf,
  sqlQueries,
  type BenchModule,
  type Response,
  type Section,
  CHROMIUM,
  CHROMIUM_ARGS,
} from './lib.ts';

/** Debian's Chromium; never a Playwright download. */
const VIEWPORT = { width: 1280, height: 800 };
/** After `load`, how long a page may keep the network busy (islands' own requests) before the figures are read. */
const SETTLE_MS = 2000;

type Who = 'visitor' | 'member' | 'admin';

type PageSpec = {
  key: string;
  label: string;
  /** The path, or how to make it from what the earlier steps left (the draft's article id). */
  path: string | ((shared: Map<string, unknown>) => string | null);
  who: Who;
  expectStatus: number;
  /** This page's JS budget; BUDGETS.jsMaxBytes when not given. */
  jsMaxBytes?: number;
  /** Taken as the demo member just before this page is measured (the pages are measured in this order). */
  before?: 'accept-agreement' | 'save-draft' | 'find-profile' | 'find-amplify';
  /** A page of the articles area: warn when it renders the product-agreement gate instead. */
  articles?: boolean;
  /** Text the page must contain (a warning otherwise). */
  expectText?: string;
};

const PAGES: PageSpec[] = [
  { key: 'home-signed-out', label: 'Home, signed out  /', path: '/', who: 'visitor', expectStatus: 200 },
  { key: 'login', label: 'Sign in  /login', path: '/login', who: 'visitor', expectStatus: 200 },
  { key: 'password-forgot', label: 'Forgot password  /password/forgot', path: '/password/forgot', who: 'visitor', expectStatus: 200 },
  { key: 'login-admin', label: 'Admin sign in  /login-admin', path: '/login-admin', who: 'visitor', expectStatus: 200 },
  { key: 'not-found', label: '404  /no-such-page', path: '/no-such-page', who: 'visitor', expectStatus: 404 },
  { key: 'home-signed-in', label: 'Home, signed in  / (bell)', path: '/', who: 'member', expectStatus: 200 },
  { key: 'members-directory', label: 'Member directory  /members', path: '/members', who: 'member', expectStatus: 200 },
  // Another member's profile: the first card of the directory (its Request introduction opens a dialog).
  {
    key: 'members-profile',
    label: 'A member profile  /profile/{id}',
    path: (shared) => (shared.get('profileId') ? `/profile/${shared.get('profileId')}` : null),
    who: 'member',
    expectStatus: 200,
    before: 'find-profile',
    expectText: 'Request introduction',
  },
  { key: 'notifications', label: 'Notifications  /notifications', path: '/notifications', who: 'member', expectStatus: 200 },
  { key: 'settings-security', label: 'Settings, security  /settings', path: '/settings', who: 'member', expectStatus: 200 },
  { key: 'settings-notifications', label: 'Settings, notifications  /settings/notifications', path: '/settings/notifications', who: 'member', expectStatus: 200 },
  { key: 'settings-devices', label: 'Settings, push devices  /settings/notifications/devices', path: '/settings/notifications/devices', who: 'member', expectStatus: 200 },
  { key: 'settings-team', label: 'Settings, team  /settings/team', path: '/settings/team', who: 'member', expectStatus: 200 },
  { key: 'settings-billing', label: 'Settings, billing  /settings/billing', path: '/settings/billing', who: 'member', expectStatus: 200 },
  // Payments (issue 13): the demo's overdue member's public link (the README's).
  { key: 'pay-now', label: 'Pay now (overdue member)  /pay-now?userId=&subscriptionId=', path: '/pay-now?userId=11&subscriptionId=sub_demo_overdue_jW7q2Lk9Xs4v', who: 'visitor', expectStatus: 200, expectText: 'Jonah' },
  { key: 'articles-agreement', label: 'Product agreement  /articles/agreement', path: '/articles/agreement', who: 'member', expectStatus: 200 },
  { key: 'articles-guidelines', label: 'Guidelines  /articles/guidelines', path: '/articles/guidelines', who: 'member', expectStatus: 200 },
  // As the demo member after accepting the product agreement (POST /articles/agreement).
  {
    key: 'articles-editor-new',
    label: 'Article editor, no draft yet  /articles/edit',
    path: '/articles/edit',
    who: 'member',
    expectStatus: 200,
    jsMaxBytes: BUDGETS.articleEditorJsMaxBytes,
    before: 'accept-agreement',
    articles: true,
  },
  {
    key: 'articles-editor',
    label: `Article editor, ${AUTOSAVE.words}-word draft  /articles/edit`,
    path: '/articles/edit',
    who: 'member',
    expectStatus: 200,
    jsMaxBytes: BUDGETS.articleEditorJsMaxBytes,
    before: 'save-draft',
    articles: true,
    expectText: 'Draft 1, save 1:',
  },
  { key: 'articles-dashboard', label: 'Articles dashboard  /articles (draft in flight)', path: '/articles', who: 'member', expectStatus: 200, articles: true },
  { key: 'articles-published', label: 'Published articles  /articles/published', path: '/articles/published', who: 'member', expectStatus: 200, articles: true },
  // After the agreement (accepted above): the published page's Amplify link leads to Amara's seeded article.
  {
    key: 'articles-amplify',
    label: 'Amplify a published article  /articles/amplify/{id}',
    path: (shared) => (shared.get('amplifyPath') as string | undefined) ?? null,
    who: 'member',
    expectStatus: 200,
    before: 'find-amplify',
  },
  { key: 'articles-settings', label: 'Article settings  /articles/settings', path: '/articles/settings', who: 'member', expectStatus: 200, articles: true },
  { key: 'admin-home', label: 'Admin home  /admin', path: '/admin', who: 'admin', expectStatus: 200 },
  { key: 'admin-articles', label: 'Admin articles board  /admin/articles', path: '/admin/articles', who: 'admin', expectStatus: 200 },
  {
    key: 'admin-article',
    label: 'Admin article (the draft)  /admin/articles/:id',
    path: (shared) => (shared.get('draftArticleId') ? `/admin/articles/${String(shared.get('draftArticleId'))}` : null),
    who: 'admin',
    expectStatus: 200,
  },
  { key: 'admin-saved-cards', label: "Admin: a member's saved cards  /admin/members/summit/{id}/cards", path: '/admin/members/summit/2/cards', who: 'admin', expectStatus: 200 },
  { key: 'admin-articles-settings', label: 'Admin article settings  /admin/articles/settings', path: '/admin/articles/settings', who: 'admin', expectStatus: 200 },
  { key: 'admin-blackouts', label: 'Admin blackout dates  /admin/articles/blackouts', path: '/admin/articles/blackouts', who: 'admin', expectStatus: 200 },
];

/** The product-agreement gate (AgreementGate): a form that posts to /articles/agreement. */
const isAgreementGate = (html: string) => /<form[^>]*action="[^"]*\/articles\/agreement"/.test(html);

// ---- Chromium: what travels ---------------------------------------------------------------------

type Kind = 'html' | 'css' | 'js' | 'img' | 'xhr' | 'other';
const KINDS: Kind[] = ['html', 'css', 'js', 'img', 'xhr', 'other'];
type Transfer = { url: string; kind: Kind; status: number; encoding: string; bodyBytes: number; fromCache: boolean };
/** One load of a page: encoded body bytes by kind, and every response. */
type Load = { bytes: Record<Kind, number>; requests: number; transfers: Transfer[] };

function kindOf(mime: string, cdpType: string): Kind {
  if (cdpType === 'Document') return 'html';
  if (/css/.test(mime) || cdpType === 'Stylesheet') return 'css';
  if (/javascript|ecmascript/.test(mime) || cdpType === 'Script') return 'js';
  if (cdpType === 'XHR' || cdpType === 'Fetch' || cdpType === 'EventSource') return 'xhr';
  if (/^image\/|^font\//.test(mime) || cdpType === 'Image' || cdpType === 'Font') return 'img';
  return 'other';
}

type Rec = { url: string; type: string; mime: string; status: number; encoding: string; headerBytes: number; dataBytes: number; totalBytes: number | null; fromCache: boolean };

/** Records what the network delivers to a page, from Chromium's DevTools protocol. */
function recordNetwork(cdp: CDPSession) {
  let records = new Map<string, Rec>();
  cdp.on('Network.requestWillBeSent', (e) => {
    records.set(e.requestId, { url: e.request.url, type: e.type ?? 'Other', mime: '', status: 0, encoding: '', headerBytes: 0, dataBytes: 0, totalBytes: null, fromCache: false });
  });
  cdp.on('Network.requestServedFromCache', (e) => {
    const r = records.get(e.requestId);
    if (r) r.fromCache = true;
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = records.get(e.requestId);
    if (!r) return;
    r.type = e.type ?? r.type;
    r.mime = e.response.mimeType;
    r.status = e.response.status;
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    r.encoding = headers['content-encoding'] ?? '';
    r.headerBytes = e.response.encodedDataLength ?? 0;
    if (e.response.fromDiskCache || e.response.fromPrefetchCache || e.response.fromServiceWorker) r.fromCache = true;
  });
  cdp.on('Network.dataReceived', (e) => {
    const r = records.get(e.requestId);
    if (r) r.dataBytes += e.encodedDataLength;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = records.get(e.requestId);
    if (r) r.totalBytes = e.encodedDataLength;
  });
  return {
    /** What arrived since the last take, and start afresh. */
    take(): Load {
      const transfers: Transfer[] = [...records.values()]
        .filter((r) => !r.url.startsWith('data:'))
        .map((r) => {
          // The encoded body: what dataReceived reported, or the whole transfer less its headers.
          const body = r.fromCache ? 0 : Math.max(r.dataBytes, r.totalBytes === null ? 0 : r.totalBytes - r.headerBytes);
          return { url: r.url, kind: kindOf(r.mime, r.type), status: r.status, encoding: r.encoding, bodyBytes: body, fromCache: r.fromCache };
        });
      records = new Map();
      const bytes = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
      for (const t of transfers) bytes[t.kind] += t.bodyBytes;
      return { bytes, requests: transfers.filter((t) => !t.fromCache).length, transfers };
    },
  };
}

/** The page in a fresh browser context (an empty cache), then once more in the same context (a warm cache). */
async function loadTwice(browser: Browser, baseUrl: string, path: string, cookie: string | null): Promise<{ cold: Load; warm: Load; status: number }> {
  const context = await browser.newContext({ viewport: VIEWPORT, baseURL: baseUrl });
  try {
    if (cookie) {
      const [name, ...value] = cookie.split('=');
      await context.addCookies([{ name: name!, value: value.join('='), url: baseUrl }]);
    }
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const network = recordNetwork(cdp);
    const visit = async () => {
      const res = await page.goto(path, { waitUntil: 'load' });
      await page.waitForLoadState('networkidle', { timeout: SETTLE_MS }).catch(() => {});
      return res?.status() ?? 0;
    };
    const status = await visit();
    const cold = network.take();
    await visit();
    const warm = network.take();
    return { cold, warm, status };
  } finally {
    await context.close();
  }
}

// ---- the module ---------------------------------------------------------------------------------

type Verdict = 'pass' | 'over' | 'n/a';

type PageResult = {
  key: string;
  label: string;
  path: string | null;
  who: Who;
  status: number;
  expectedStatus: number;
  islands: string[];
  htmx: boolean;
  sqlQueries: { steady: number | null; samples: (number | null)[]; communityCacheMiss: number | null };
  /** Chromium's figures (first database only). */
  weight?: {
    cold: Load;
    warm: Load;
    budgets: { jsZeroWithoutScripts: Verdict; jsMax: Verdict; jsMaxBytes: number; htmlCssMax: Verdict; warmOnlyHtml: Verdict };
  };
  warnings: string[];
};

const cookieFor = (who: Who, info: { cookie: string; adminCookie: string }) => (who === 'member' ? info.cookie : who === 'admin' ? info.adminCookie : null);

async function measureSql(port: number, path: string, cookie: string | null, coldHost: string) {
  const headers: Record<string, string> = { accept: 'text/html,application/xhtml+xml', 'accept-encoding': 'identity' };
  if (cookie) headers.cookie = cookie;
  // One request to warm the caches (community per host: 10 s; ads per community: 30 s), then samples.
  await get(port, path, headers);
  const samples: Response[] = [];
  for (let i = 0; i < 3; i++) samples.push(await get(port, path, headers));
  const cold = await get(port, path, { ...headers, host: coldHost });
  const sql = samples.map(sqlQueries);
  const numeric = sql.filter((n): n is number => n !== null);
  return { res: samples[samples.length - 1]!, sql: { steady: numeric.length ? Math.max(...numeric) : null, samples: sql, communityCacheMiss: sqlQueries(cold) } };
}

export const pagesModule: BenchModule = {
  name: 'pages',
  scope: 'server',
  describe: `pages: SQL per request for ${PAGES.length} pages; on the first database, page weight in Chromium (cold, then warm)`,
  async run(ctx) {
    const server = serverOf(ctx);
    const { info, shared } = server;
    const csrf = await sharedCsrf(ctx, 'probe');
    const warnings: string[] = [];
    let browser: Browser | null = null;
    if (server.first) {
      if (!existsSync(CHROMIUM)) warnings.push(`no Chromium at ${CHROMIUM}: page weight not measured`);
      else {
        try {
          browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
        } catch (e) {
          warnings.push(`Chromium did not start: ${errorMessage(e)}`);
        }
      }
    }
    const baseUrl = `http://${HOST}:${info.probePort}`;
    const results: PageResult[] = [];
    let autosaveSql: AutosaveSql | undefined;
    try {
      for (const [i, spec] of PAGES.entries()) {
        const pageWarnings: string[] = [];
        if (spec.before === 'find-profile') {
          const directory = (await get(info.probePort, '/members', { cookie: info.cookie, accept: 'text/html' })).body.toString('utf8');
          const id = /href="\/profile\/(\d+)"/.exec(directory)?.[1];
          if (id) shared.set('profileId', id);
          else pageWarnings.push('no profile link on /members');
        } else if (spec.before === 'find-amplify') {
          const published = (await get(info.probePort, '/articles/published', { cookie: info.cookie, accept: 'text/html' })).body.toString('utf8');
          const amplify = /href="(\/articles\/amplify\/\d+)"/.exec(published)?.[1];
          if (amplify) shared.set('amplifyPath', amplify);
          else pageWarnings.push('no amplify link on /articles/published');
        } else if (spec.before) {
          const prep = await prepareArticlePage(info.probePort, info.cookie, csrf, spec.before);
          pageWarnings.push(...prep.warnings);
          autosaveSql ??= prep.autosaveSql;
          if (prep.articleId) shared.set('draftArticleId', prep.articleId);
        }
        const path = typeof spec.path === 'string' ? spec.path : spec.path(shared);
        if (!path) {
          results.push({ key: spec.key, label: spec.label, path: null, who: spec.who, status: 0, expectedStatus: spec.expectStatus, islands: [], htmx: false, sqlQueries: { steady: null, samples: [], communityCacheMiss: null }, warnings: ['not measured: an earlier step did not give its path'] });
          continue;
        }
        const cookie = cookieFor(spec.who, info);
        const { res, sql } = await measureSql(info.probePort, path, cookie, `bench-cold-${i}.invalid`);
        const html = res.body.toString('utf8');
        const islands = [...new Set([...html.matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]!))];
        const htmx = /<script[^>]+src="[^"]*\/htmx-[^"]*\.js"/.test(html);
        if (res.status !== spec.expectStatus) pageWarnings.push(`status ${res.status}, expected ${spec.expectStatus}`);
        if (spec.who === 'visitor' && isSignedInPage(html)) pageWarnings.push('the page rendered signed in');
        if (spec.who === 'member' && !isSignedInPage(html)) pageWarnings.push('the page did not render signed in');
        if (spec.articles && isAgreementGate(html)) pageWarnings.push('the page rendered the product-agreement gate (the agreement was not accepted)');
        if (spec.expectText && !html.includes(spec.expectText)) pageWarnings.push(`the page does not contain "${spec.expectText}"`);
        if (sql.steady === null) pageWarnings.push('no Server-Timing query count in the response');

        const result: PageResult = { key: spec.key, label: spec.label, path, who: spec.who, status: res.status, expectedStatus: spec.expectStatus, islands, htmx, sqlQueries: sql, warnings: pageWarnings };
        if (browser) {
          try {
            const { cold, warm, status } = await loadTwice(browser, baseUrl, path, cookie);
            if (status !== spec.expectStatus) pageWarnings.push(`Chromium got status ${status}`);
            for (const t of cold.transfers) if (t.status >= 400 && t.kind !== 'html') pageWarnings.push(`${t.url} answered ${t.status}`);
            const jsMaxBytes = spec.jsMaxBytes ?? BUDGETS.jsMaxBytes;
            const staticWarm = warm.bytes.css + warm.bytes.js + warm.bytes.img + warm.bytes.other;
            result.weight = {
              cold,
              warm,
              budgets: {
                jsZeroWithoutScripts: islands.length || htmx ? 'n/a' : cold.bytes.js === 0 ? 'pass' : 'over',
                jsMax: cold.bytes.js <= jsMaxBytes ? 'pass' : 'over',
                jsMaxBytes,
                htmlCssMax: cold.bytes.html + cold.bytes.css <= BUDGETS.htmlCssMaxBytes ? 'pass' : 'over',
                warmOnlyHtml: staticWarm === 0 ? 'pass' : 'over',
              },
            };
          } catch (e) {
            pageWarnings.push(`Chromium: ${errorMessage(e)}`);
          }
        }
        results.push(result);
      }
    } finally {
      await browser?.close().catch(() => {});
    }

    const sections: Section[] = [];
    const weighed = results.filter((p) => p.weight);
    if (weighed.length) {
      const kb = (n: number) => kib(n);
      sections.push({
        key: 'page-weight',
        title:
          'Page weight as Chromium receives it (encoded bodies from the network, CDP; production mode; a fresh browser context: cold cache; ' +
          `then the same page again in that context: warm). Budgets: no JS where the page has no island and no htmx; JS ≤ ${kib(BUDGETS.jsMaxBytes)} ` +
          `(the article editor ≤ ${kib(BUDGETS.articleEditorJsMaxBytes)}); HTML + CSS ≤ ${kib(BUDGETS.htmlCssMaxBytes)}; warm: only the HTML (and the islands' own calls) travels.`,
        head: ['page', 'status', 'scripts', 'HTML', 'CSS', 'JS', 'img', 'xhr', 'HTML+CSS', 'requests', 'warm: bytes', 'warm: requests', 'budgets'],
        rows: weighed.map((p) => {
          const w = p.weight!;
          const c = w.cold.bytes;
          const verdicts = [
            w.budgets.jsZeroWithoutScripts === 'n/a' ? null : `JS=0 ${w.budgets.jsZeroWithoutScripts}`,
            `JS≤${Math.round(w.budgets.jsMaxBytes / KIB)}K ${w.budgets.jsMax}`,
            `HTML+CSS≤30K ${w.budgets.htmlCssMax}`,
            `warm ${w.budgets.warmOnlyHtml}`,
          ].filter(Boolean);
          const warmTotal = KINDS.reduce((n, k) => n + w.warm.bytes[k], 0);
          const warmKinds = KINDS.filter((k) => w.warm.bytes[k] > 0).join('+') || 'nothing';
          return [
            p.label,
            String(p.status) + (p.status === p.expectedStatus ? '' : ` (expected ${p.expectedStatus})`),
            [...p.islands, ...(p.htmx ? ['htmx'] : [])].join(',') || '-',
            kb(c.html),
            kb(c.css),
            kb(c.js),
            kb(c.img),
            kb(c.xhr + c.other),
            kb(c.html + c.css),
            String(w.cold.requests),
            `${kb(warmTotal)} (${warmKinds})`,
            String(w.warm.requests),
            verdicts.join(' · '),
          ];
        }),
        right: [false, false, false, true, true, true, true, true, true, true, false, true, false],
        notes: weighed.flatMap((p) => [
          `  ${p.label}:`,
          ...p.weight!.cold.transfers
            .filter((t) => t.kind !== 'html')
            .map((t) => `      ${t.kind} ${new URL(t.url).pathname}: ${kib(t.bodyBytes)}${t.encoding ? ` ${t.encoding}` : ' (no encoding)'}${t.fromCache ? ' (cache)' : ''}`),
        ]),
      });
    }
    sections.push({
      key: 'page-sql',
      title: 'SQL statements per request (probe app, warm caches; "miss": the same page for a host the community cache has not seen)',
      head: ['page', 'SQL/req', 'miss'],
      rows: results.map((p) => [p.label, String(p.sqlQueries.steady ?? '?'), String(p.sqlQueries.communityCacheMiss ?? '?')]),
      right: [false, true, true],
      notes: autosaveSql ? [`One autosave (with the article's id): ${autosaveSql.save ?? '?'} SQL statements; the first, which creates the article: ${autosaveSql.firstSaveCreatingTheArticle ?? '?'}`] : [],
    });
    for (const p of results) warnings.push(...p.warnings.map((w) => `${p.label}: ${w}`));
    return { data: { pages: results, autosaveSql }, warnings, sections };
  },
};
