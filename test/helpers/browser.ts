import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Test } from 'tap';
import type { RawDb as Db } from '#src/db/index.ts';
import { startApp } from './app.ts';

/** Debian's Chromium (`apt-get install chromium`); never a Playwright download. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;

/** The WCAG 2.0/2.1 A and AA rules: what every page must pass. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

let axeSource: string | undefined;
function axeScript(): string {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
}

/** One headless Chromium for a test file, closed when that test ends. */
export async function launchBrowser(t: Test): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  t.teardown(() => browser.close());
  return browser;
}

/**
 * Switches the page's colour scheme in place (no reload) and waits for the transitions it starts
 * (a button's background eases between the schemes) to end, so that axe reads the settled colours.
 */
export async function setColorScheme(page: Page, colorScheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme });
  await page
    .evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))))
    .catch(() => page.waitForTimeout(300));
}

/** The app on a real port on 127.0.0.1 (closed when the test ends), and its address. */
export async function serveApp(t: Test, db: Db, env: Record<string, string> = {}): Promise<{ app: FastifyInstance; baseUrl: string }> {
  const { app } = await startApp(t, db, { env });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { app, baseUrl: `http://127.0.0.1:${port}` };
}

export type ContextOptions = {
  viewport?: { width: number; height: number };
  /** A session token from `signIn`: the context starts signed in. */
  token?: string;
  javaScriptEnabled?: boolean;
  /** Turns the page's CSP off. Not needed for axe any more (it is injected past the CSP); leave off to test the real CSP. */
  bypassCSP?: boolean;
};

/** A fresh browser context (its own cookies), closed when the test ends. */
export async function openContext(t: Test, browser: Browser, baseUrl: string, options: ContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    bypassCSP: options.bypassCSP ?? false,
    baseURL: baseUrl,
  });
  context.setDefaultTimeout(10_000);
  t.teardown(() => context.close());
  if (options.token) await setAuthCookie(context, baseUrl, options.token);
  return context;
}

export async function setAuthCookie(context: BrowserContext, baseUrl: string, token: string) {
  await context.addCookies([{ name: 'auth', value: token, url: baseUrl }]);
}

/**
 * Collects what goes wrong in the page: uncaught errors and console errors (a failed hydration, a
 * script the CSP refused). Read the array at the end of a test and expect it to be empty.
 */
export function collectPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
  });
  return problems;
}

type AxeResult = {
  violations: { id: string; impact: string | null; help: string; helpUrl: string; nodes: { target: unknown[]; failureSummary?: string }[] }[];
};

/**
 * Puts axe-core into the page through the DevTools protocol: the page's CSP does not govern that,
 * so axe runs on pages under the app's real CSP (islands hydrated by the real rules).
 */
async function injectAxe(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { exceptionDetails } = await cdp.send('Runtime.evaluate', { expression: axeScript(), returnByValue: true });
    if (exceptionDetails) throw new Error(`axe-core did not load: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
  } finally {
    await cdp.detach();
  }
}

/**
 * The rules that depend on colour (text and links against their background). Everything else axe
 * checks reads the markup and layout, which a colour scheme does not change: a page checked in full
 * in one scheme needs only these in the other.
 */
export const AXE_COLOUR_RULES = ['color-contrast', 'link-in-text-block'] as const;

/** `rules`: only these rules (e.g. AXE_COLOUR_RULES), instead of every WCAG 2.1 A/AA one. */
export type AxeOptions = { rules?: readonly string[] };

/**
 * Runs axe-core's WCAG 2.1 A/AA rules on the page as it is now and fails with every violation's id,
 * impact, help text and the selectors of the offending nodes. Works with or without `bypassCSP`;
 * for a context with JavaScript off use `expectNoAxeViolationsWithoutJavaScript`.
 */
export async function expectNoAxeViolations(t: Test, page: Page, what = page.url(), options: AxeOptions = {}) {
  // axe waits on timers, which never fire in a page with JavaScript off: fail instead of hanging.
  const timersRun = await Promise.race([
    page.evaluate(() => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 0))),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1000).unref()),
  ]);
  if (!timersRun) {
    t.fail(`axe cannot run on ${what}: its context has JavaScript off (use expectNoAxeViolationsWithoutJavaScript)`);
    return;
  }
  if (!(await page.evaluate(() => 'axe' in window))) await injectAxe(page);
  const result = await page.evaluate(
    ({ tags, rules }) =>
      (window as unknown as { axe: { run: (c: Document, o: unknown) => Promise<AxeResult> } }).axe
        .run(document, { runOnly: rules ? { type: 'rule', values: rules } : { type: 'tag', values: tags }, resultTypes: ['violations'] })
        .then((r) => ({
          violations: r.violations.map((v) => ({
            id: v.id,
            impact: v.impact,
            help: v.help,
            helpUrl: v.helpUrl,
            nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
          })),
        })),
    { tags: AXE_TAGS, rules: options.rules ?? null },
  );
  const report = result.violations
    .map(
      (v) =>
        `- ${v.id} (${v.impact}): ${v.help} <${v.helpUrl}>\n` +
        v.nodes.map((n) => `    ${JSON.stringify(n.target)}${n.failureSummary ? `: ${n.failureSummary.replace(/\s*\n\s*/g, ' ')}` : ''}`).join('\n'),
    )
    .join('\n');
  t.equal(result.violations.length, 0, `no WCAG 2.1 A/AA violations on ${what}${report ? `:\n${report}` : ''}`, {
    violations: result.violations.map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target) })),
  });
}

/** Per browser: the scratch context and page that axe a JavaScript-off page's markup, and what they serve now. */
type Scratch = { page: Page; serving: { url: string; html: string }; queue: Promise<void> };
const scratches = new WeakMap<Browser, Promise<Scratch>>();

function scratchFor(browser: Browser) {
  let scratch = scratches.get(browser);
  if (!scratch) {
    scratch = (async () => {
      const serving = { url: '', html: '' };
      const context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: true });
      await context.route(
        () => true,
        (route) => {
          const request = route.request();
          if (request.url() === serving.url) return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: serving.html });
          return request.resourceType() === 'script' ? route.abort() : route.continue();
        },
      );
      return { page: await context.newPage(), serving, queue: Promise.resolve() };
    })();
    scratches.set(browser, scratch);
  }
  return scratch;
}

/**
 * axe on a page of a context with JavaScript off. axe itself needs JavaScript, so the page's HTML as
 * it is now is served again, at the same address (its styles and images load from the app), to a
 * scratch page with JavaScript on that refuses every script: the same markup, never hydrated. The
 * scratch page (its own context, no cookies) is made once per browser and reused.
 */
export async function expectNoAxeViolationsWithoutJavaScript(t: Test, browser: Browser, page: Page, what = page.url(), options: AxeOptions & { colorScheme?: 'light' | 'dark' } = {}) {
  const url = page.url();
  const html = await page.content();
  const viewport = page.viewportSize() ?? DESKTOP;
  const scratch = await scratchFor(browser);
  // One check at a time on the scratch page (a file may check pages side by side).
  const turn = scratch.queue.then(async () => {
    const { page: copy, serving } = scratch;
    serving.url = url.split('#')[0]!;
    serving.html = html;
    await copy.setViewportSize(viewport);
    await copy.emulateMedia({ colorScheme: options.colorScheme ?? 'light' });
    await copy.goto(url);
    await expectNoAxeViolations(t, copy, `${what} (without JavaScript)`, options);
    await copy.goto('about:blank');
  });
  scratch.queue = turn.catch(() => {});
  await turn;
}

/** The path of the page's URL, without origin or query. */
export const pathOf = (page: Page) => new URL(page.url()).pathname;

/** Every script the page receives from now on: its address and its source (recorded once its body is read). */
export function recordScripts(page: Page): { url: string; source: string }[] {
  const scripts: { url: string; source: string }[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    void res.text().then(
      (source) => scripts.push({ url: res.url(), source }),
      () => scripts.push({ url: res.url(), source: '' }),
    );
  });
  return scripts;
}

const BUILD_DIR = path.resolve(import.meta.dirname, '../../static/build');

/** The size of a built script's brotli copy: what the server sends a browser that accepts br. */
export const brotliBytes = (url: string) => statSync(path.join(BUILD_DIR, new URL(url).pathname.replace(/^\/static\/build\//, '')) + '.br').size;

async function scrollWidth(page: Page) {
  return page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
}

/** The outermost elements that stick out past the right edge, to say what to fix. */
async function overflowing(page: Page) {
  return page.evaluate(() => {
    const inner = window.innerWidth;
    const out: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= inner + 0.5) continue;
      const parent = el.parentElement?.getBoundingClientRect();
      if (parent && parent.right > inner + 0.5) continue;
      out.push(`${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''} (right ${Math.round(r.right)})`);
    }
    return out.slice(0, 5);
  });
}

/** WCAG 1.4.10 Reflow: the page does not scroll sideways; a failure names what sticks out. */
export async function expectNoSidewaysScroll(t: Test, page: Page, what: string) {
  const { scroll, inner } = await scrollWidth(page);
  const culprits = scroll > inner ? await overflowing(page) : [];
  t.ok(scroll <= inner, `${what}: no sideways scroll (scrollWidth ${scroll} <= ${inner})${culprits.length ? `: ${culprits.join(', ')}` : ''}`);
}

/** The phone widths every page is checked at: 320 px (WCAG 1.4.10 Reflow) and 375 px (a common phone). */
export const PHONE_WIDTHS = [320, 375] as const;

/**
 * The page as it is now, at each phone width in turn (page.setViewportSize, the page is not loaded
 * again): no sideways scroll, and no axe violation (with JavaScript off, axe on the page's markup, as
 * `expectNoAxeViolationsWithoutJavaScript`). One walk through a journey checks both widths at every
 * step; the viewport is left at the last width. `axe: false` checks only the sideways scroll.
 */
export async function expectReflowAndAxeAtPhoneWidths(
  t: Test,
  page: Page,
  what: string,
  { browser, javaScriptEnabled, axe = true, widths = PHONE_WIDTHS }: { browser: Browser; javaScriptEnabled: boolean; axe?: boolean; widths?: readonly number[] },
) {
  const height = page.viewportSize()?.height ?? 740;
  for (const width of widths) {
    await page.setViewportSize({ width, height });
    const at = `${what} at ${width} px`;
    await expectNoSidewaysScroll(t, page, at);
    if (!axe) continue;
    if (javaScriptEnabled) await expectNoAxeViolations(t, page, at);
    else await expectNoAxeViolationsWithoutJavaScript(t, browser, page, at);
  }
}
