// `npm run screenshots`: the README's pictures (issue 30). Starts the app in this process on a fresh
// embedded PGlite in a temporary directory with the demo seed (as `npm start` does on an empty
// database), signs in through the sign-in pages as the demo member (and the demo admin for the staff
// pages), and with Debian's Chromium takes each main page (scripts/look-pages.ts) at desktop width
// (1280) and phone width (375). Nothing leaves 127.0.0.1: the browser refuses every other address.
//
//   npm run screenshots                                   every page, light, into docs/screenshots/
//   npm run screenshots -- --out docs/look/before         another folder
//   npm run screenshots -- --only home,forum-thread       some pages (names: see LOOK_PAGES)
//   npm run screenshots -- --scheme both                  light and dark (dark files end in -dark)
//   npm run screenshots -- --base http://127.0.0.1:3000   a server already running (with the demo seed)
//
// Files: `<page>-desktop.png` (the first 1280 × 800 of the page) and `<page>-phone.png` (375 px wide:
// the whole page when it is at most two screens tall, else the first screen), palette PNGs through
// sharp, each aimed at 150 KB or less.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import sharp from 'sharp';
import { DEMO_ACCOUNTS, LOOK_PAGES, firstLinkIn, type LookPage, type Who } from './look-pages.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Debian's Chromium (`apt-get install chromium`); never a Playwright download. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export const DEVICES = {
  desktop: { viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
  phone: { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true },
} as const;
type Device = keyof typeof DEVICES;
type Scheme = 'light' | 'dark';

/** What a file may weigh; above it, fewer colours, then (phone) the first screen only. */
const MAX_BYTES = 150_000;
/** A phone picture shows the whole page when it is at most this many screens tall. */
const PHONE_FULL_PAGE_SCREENS = 2;

export type Options = { out: string; only: string[] | null; schemes: Scheme[]; base: string | null };

const USAGE = `usage: npm run screenshots -- [--out <dir>] [--only <name,…>] [--scheme light|dark|both] [--base <url>]
pages: ${LOOK_PAGES.map((p) => p.name).join(', ')}`;

export function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: { out: { type: 'string' }, only: { type: 'string' }, scheme: { type: 'string' }, base: { type: 'string' }, help: { type: 'boolean' } },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const only = values.only ? values.only.split(',').map((s) => s.trim()).filter(Boolean) : null;
  const unknown = (only ?? []).filter((n) => !LOOK_PAGES.some((p) => p.name === n));
  if (unknown.length) throw new UsageError(`unknown page(s): ${unknown.join(', ')}`);
  const scheme = values.scheme ?? 'light';
  if (!['light', 'dark', 'both'].includes(scheme)) throw new UsageError(`--scheme must be light, dark or both (got ${scheme})`);
  let base: string | null = null;
  if (values.base) {
    if (!URL.canParse(values.base) || !/^https?:$/.test(new URL(values.base).protocol)) throw new UsageError(`--base must be an http(s) URL (got ${values.base})`);
    base = values.base.replace(/\/+$/, '');
  }
  return {
    out: path.resolve(values.out ?? path.join(ROOT, 'docs/screenshots')),
    only,
    schemes: scheme === 'both' ? ['light', 'dark'] : [scheme as Scheme],
    base,
  };
}

export class UsageError extends Error {}

// ---- the app, when no --base is given ----------------------------------------------------------

/** The app on 127.0.0.1 on a fresh PGlite in a temporary directory, seeded with the demo; and how to stop it. */
async function startOwnApp(log: (s: string) => void): Promise<{ base: string; stop: () => Promise<void> }> {
  // Imported here: a run against --base does not load the application.
  const [{ buildApp }, { loadConfig }, { migrateToLatest, openDatabase }, { seedDemo }] = await Promise.all([
    import('#src/app.ts'),
    import('#src/config.ts'),
    import('#src/db/index.ts'),
    import('#src/features/seed.ts'),
  ]);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'screenshots-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeDir);
  const t = performance.now();
  // Only these settings (not this shell's environment: no DATABASE_URL, no SMTP): what `npm start`
  // shows a newcomer, without the job workers (nothing is due in a minute's run).
  const config = loadConfig({
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dir,
    COOKIE_SECRET: randomBytes(32).toString('hex'),
    DEFAULT_COMMUNITY: 'summit',
    SEED_DEMO: 'true',
    JOB_WORKERS: 'false',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '100000',
  });
  const { db } = await openDatabase(config);
  await migrateToLatest(db);
  await seedDemo(db, { production: false });
  const app = await buildApp({ config, db, ownsDb: true });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the app has no TCP address');
  log(`app: migrated, seeded and listening on 127.0.0.1:${address.port} in ${((performance.now() - t) / 1000).toFixed(1)} s (PGlite in ${dir})`);
  return {
    base: `http://127.0.0.1:${address.port}`,
    stop: async () => {
      const closing = app.close();
      app.server.closeAllConnections?.();
      await closing;
      removeDir();
    },
  };
}

// ---- the browser ---------------------------------------------------------------------------------

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A context that reaches only the app (and loopback): every other request is aborted. */
async function newContext(browser: Browser, base: string, device: Device, storageState?: Awaited<ReturnType<BrowserContext['storageState']>>): Promise<BrowserContext> {
  const d = DEVICES[device];
  const context = await browser.newContext({ ...d, deviceScaleFactor: 1, baseURL: base, storageState, reducedMotion: 'reduce', colorScheme: 'light', locale: 'en-US', timezoneId: 'UTC' });
  context.setDefaultTimeout(15_000);
  const allowed = new URL(base).hostname;
  await context.route('**', (route) => {
    const url = new URL(route.request().url());
    const local = (url.protocol === 'http:' || url.protocol === 'https:') && (LOOPBACK.has(url.hostname) || url.hostname === allowed || url.hostname.endsWith('.localhost'));
    return local ? route.continue() : route.abort('blockedbyclient');
  });
  return context;
}

/** Signs in through the pages a person uses: the member's two steps, or the staff's sign-in with its community. */
async function signIn(page: Page, base: string, who: Who): Promise<void> {
  if (who === 'member') {
    const { email, password } = DEMO_ACCOUNTS.member;
    await page.goto(`${base}/login`);
    await page.fill('#email', email);
    await page.locator('form[action$="/login"] button[type=submit]').click();
    await page.waitForSelector('#password');
    await page.fill('#password', password);
    await Promise.all([page.waitForURL((url) => !url.pathname.startsWith(`${new URL(base).pathname.replace(/\/$/, '')}/login`)), page.locator('form[action$="/login/password"] button[type=submit]').click()]);
  } else {
    const { email, password, community } = DEMO_ACCOUNTS.admin;
    await page.goto(`${base}/login-admin`);
    await page.fill('#email', email);
    await page.fill('#password', password);
    await page.selectOption('#community', community).catch(() => {});
    await Promise.all([page.waitForURL((url) => !url.pathname.endsWith('/login-admin')), page.locator('form[action$="/login-admin"] button[type=submit]').click()]);
  }
  // Signed in: the page offers to sign out (the member's user menu, the staff header).
  if (!(await page.locator('form[action$="/logout"]').count())) throw new Error(`signing in as the demo ${who} did not work (now at ${page.url()}): is the demo seed there?`);
}

/** Loads the page and lets it settle: network idle (islands' requests), web fonts, no caret. */
async function open(page: Page, url: string): Promise<void> {
  const res = await page.goto(url, { waitUntil: 'load' });
  if (!res || res.status() >= 400) throw new Error(`${url} answered ${res?.status() ?? 'nothing'}`);
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => {});
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** The page's address: its path, or the first matching link of the page it is found on. */
async function addressOf(page: Page, base: string, spec: LookPage): Promise<string> {
  if (spec.path) return `${base}${spec.path}`;
  await open(page, `${base}${spec.from!}`);
  const found = firstLinkIn(await page.content(), spec.link!);
  if (!found) throw new Error(`no link like ${spec.link} on ${spec.from}`);
  return `${base}${found}`;
}

/** A palette PNG of at most MAX_BYTES when it can be (fewer colours until it fits). */
async function compress(png: Buffer): Promise<Buffer> {
  let out = png;
  for (const colours of [256, 128, 64]) {
    out = await sharp(png).png({ palette: true, colours, compressionLevel: 9, effort: 10 }).toBuffer();
    if (out.length <= MAX_BYTES) break;
  }
  return out;
}

async function shoot(page: Page, device: Device): Promise<{ image: Buffer; full: boolean }> {
  const screen = DEVICES[device].viewport.height;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const full = device === 'phone' && height <= screen * PHONE_FULL_PAGE_SCREENS;
  let image = await compress(await page.screenshot({ fullPage: full, animations: 'disabled', caret: 'hide', type: 'png' }));
  if (full && image.length > MAX_BYTES) return { image: await compress(await page.screenshot({ animations: 'disabled', caret: 'hide', type: 'png' })), full: false };
  return { image, full };
}

export type Written = { file: string; bytes: number; width: number; height: number };

export async function takeScreenshots(options: Options, log: (s: string) => void = (s) => console.error(s)): Promise<Written[]> {
  const pages = LOOK_PAGES.filter((p) => !options.only || options.only.includes(p.name));
  const own = options.base ? null : await startOwnApp(log);
  const base = options.base ?? own!.base;
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const written: Written[] = [];
  try {
    mkdirSync(options.out, { recursive: true });
    for (const who of ['member', 'admin'] as const) {
      const mine = pages.filter((p) => p.who === who);
      if (!mine.length) continue;
      // Signed in once (desktop); the phone context starts from the same cookies.
      const desktop = await newContext(browser, base, 'desktop');
      const page = await desktop.newPage();
      await signIn(page, base, who);
      const state = await desktop.storageState();
      const phone = await newContext(browser, base, 'phone', state);
      const phonePage = await phone.newPage();
      try {
        for (const spec of mine) {
          const url = await addressOf(page, base, spec);
          for (const [device, p] of [['desktop', page], ['phone', phonePage]] as const) {
            for (const scheme of options.schemes) {
              await p.emulateMedia({ colorScheme: scheme });
              await open(p, url);
              const { image, full } = await shoot(p, device);
              const meta = await sharp(image).metadata();
              const file = path.join(options.out, `${spec.name}-${device}${scheme === 'dark' ? '-dark' : ''}.png`);
              writeFileSync(file, image);
              written.push({ file, bytes: image.length, width: meta.width ?? 0, height: meta.height ?? 0 });
              log(`${path.relative(process.cwd(), file)}  ${meta.width}×${meta.height}${full ? ' (whole page)' : ''}  ${(image.length / 1000).toFixed(0)} KB${image.length > MAX_BYTES ? '  (over 150 KB)' : ''}`);
            }
          }
        }
      } finally {
        await phone.close();
        await desktop.close();
      }
    }
  } finally {
    await browser.close();
    await own?.stop();
  }
  return written;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const options = parseOptions(process.argv.slice(2));
    const t = performance.now();
    const written = await takeScreenshots(options);
    console.error(`${written.length} picture(s) in ${path.relative(process.cwd(), options.out) || '.'} in ${((performance.now() - t) / 1000).toFixed(1)} s.`);
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${(e as Error).message}\n${USAGE}`);
      process.exit(2);
    }
    console.error(e);
    process.exit(1);
  }
}
