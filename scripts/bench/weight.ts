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
