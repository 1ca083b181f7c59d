// What one page load brings over the wire, as Chromium counts it: the encoded body bytes of every
// response, by resource type (shared by the payments, onboarding and forum modules).
import type { Page } from 'playwright-core';

export type Bytes = Record<'html' | 'css' | 'js' | 'img' | 'other', number>;
/** One response of the load: its address, kind and encoded body bytes. */
export type WeighedFile = { url: string; kind: keyof Bytes; bytes: number };

/** Loads `url` in `page` (a fresh context: a cold cache) and counts what arrived until the network is idle. */
export async function loadAndWeigh(page: Page, url: string): Promise<{ status: number; bytes: Bytes; files: WeighedFile[] }> {
  const bytes: Bytes = { html: 0, css: 0, js: 0, img: 0, other: 0 };
  const files: WeighedFile[] = [];
  const pending: Promise<void>[] = [];
  page.on('requestfinished', (request) => {
    pending.push(
      request.sizes().then((s) => {
        const type = request.resourceType();
        const kind = type === 'document' ? 'html' : type === 'stylesheet' ? 'css' : type === 'script' ? 'js' : type === 'image' ? 'img' : 'other';
        // Chromium answers -1 for a body it did not see (a cancelled or opaque response).
        const size = Math.max(0, s.responseBodySize);
        bytes[kind] += size;
        files.push({ url: request.url(), kind, bytes: size });
      }),
    );
  });
  const res = await page.goto(url, { waitUntil: 'load' });
  await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => {});
  await Promise.all(pending);
  return { status: res?.status() ?? 0, bytes, files };
}

/**
 * Signed-in pages as a member's Chromium loads them from the app on `port` (`cookie` is the session
 * cookie, `name=value`): each page loaded twice in a fresh context (a cold browser cache each time),
 * the first to warm the server, the second weighed; with the page's HTML as the server sends it, for a
 * module to check what it holds.
 */
export async function weighSignedInPages<P extends { path: string }>(
  port: number,
  cookie: string,
  pages: readonly P[],
): Promise<(P & { status: number; bytes: Bytes; total: number; files: WeighedFile[]; html: string })[]> {
  const { chromium } = await import('playwright-core');
  const { CHROMIUM, CHROMIUM_ARGS, HOST, get } = await import('./lib.ts');
  const [name, ...rest] = cookie.split('=');
  const value = rest.join('=');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const weighed: (P & { status: number; bytes: Bytes; total: number; files: WeighedFile[]; html: string })[] = [];
  try {
    for (const p of pages) {
      for (let i = 0; i < 2; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        await context.addCookies([{ name: name!, value, domain: HOST, path: '/', httpOnly: true, sameSite: 'Lax' }]);
        try {
          const w = await loadAndWeigh(await context.newPage(), `http://${HOST}:${port}${p.path}`);
          if (i === 0) continue;
          const html = (await get(port, p.path, { accept: 'text/html', cookie })).body.toString('utf8');
          weighed.push({ ...p, ...w, total: Object.values(w.bytes).reduce((a, b) => a + b, 0), html });
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
  }
  return weighed;
}
