// The expert-panels bench's measures from the bench side: page weight in Chromium, SQL per request and load.
import { chromium, type Browser } from 'playwright-core';
import { HOST, LOAD, cannon, get, isSignedInPage, latencyOf, sqlQueries, statusCounts, type Latency } from '../lib.ts';
import { loadAndWeigh, type Bytes, type WeighedFile } from '../weight.ts';
import { ACCEPT_ENCODING, CHROMIUM, CHROMIUM_ARGS, type Side } from './shared.ts';

export type Weight = { key: string; label: string; path: string; status: number; bytes: Bytes; total: number; files: WeighedFile[]; signedIn: boolean; rowsInHtml: number };

export async function weigh(side: Side): Promise<Weight[]> {
  const pages = [
    { key: 'list', label: 'Questions  /expert-panels', path: '/expert-panels' },
    { key: 'question', label: 'An open question  /expert-panels/{id}', path: `/expert-panels/${side.openQuestion}` },
  ];
  const [name, ...rest] = side.cookie.split('=');
  const value = rest.join('=');
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const weights: Weight[] = [];
  try {
    for (const p of pages) {
      const base = `http://${HOST}:${side.probePort}`;
      // The first load warms the server; the second is measured (a cold browser cache each time).
      for (let i = 0; i < 2; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        await context.addCookies([{ name: name!, value, domain: HOST, path: '/', httpOnly: true, sameSite: 'Lax' }]);
        try {
          const page = await context.newPage();
          const w = await loadAndWeigh(page, `${base}${p.path}`);
          if (i === 0) continue;
          const html = (await get(side.probePort, p.path, { accept: 'text/html', cookie: side.cookie })).body.toString('utf8');
          const total = Object.values(w.bytes).reduce((a, b) => a + b, 0);
          const rowsInHtml = (html.match(/href="\/expert-panels\/\d+"/g) ?? []).length;
          weights.push({ ...p, status: w.status, bytes: w.bytes, total, files: w.files, signedIn: isSignedInPage(html), rowsInHtml });
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
  }
  return weights;
}

// ---- the bench side: SQL and load ----------------------------------------------------------------------

export type Target = { key: string; label: string; path: (s: Side) => string };
export const TARGETS: Target[] = [
  { key: 'list', label: 'Questions, open tab  /expert-panels', path: () => '/expert-panels' },
  { key: 'published', label: 'Questions, published tab', path: () => '/expert-panels?tab=published' },
  { key: 'question', label: 'An open question  /expert-panels/{id}', path: (s) => `/expert-panels/${s.openQuestion}` },
];

export type Measured = { size: number; key: string; label: string; status: number; sql: number | null; requestsPerSecond: number; latencyMs: Latency; failures: string | null };

export async function measure(side: Side, target: Target): Promise<Measured> {
  const p = target.path(side);
  const headers = { accept: 'text/html', cookie: side.cookie, 'accept-encoding': ACCEPT_ENCODING };
  await get(side.probePort, p, headers);
  let sql: number | null = null;
  let status = 0;
  for (let i = 0; i < 3; i++) {
    const r = await get(side.probePort, p, headers);
    status = r.status;
    const n = sqlQueries(r);
    if (n !== null) sql = Math.max(sql ?? 0, n);
  }
  const url = `http://${HOST}:${side.loadPort}${p}`;
  await cannon(url, LOAD.warmupSeconds, headers);
  const r = await cannon(url, LOAD.durationSeconds, headers);
  const bad = r.non2xx + r.errors + r.timeouts;
  return {
    size: side.questions,
    key: target.key,
    label: target.label,
    status,
    sql,
    requestsPerSecond: Math.round(r.requests.average),
    latencyMs: latencyOf(r),
    failures: bad ? `${r.non2xx} non-2xx (${JSON.stringify(statusCounts(r))}), ${r.errors} errors, ${r.timeouts} timeouts` : null,
  };
}
