// Onboarding (issue 13), in this process on a PGlite database of its own with the demo seed: the
// weight of each step as Chromium receives it. A browser walks the demo invitee's link from the
// payment step to complete (JavaScript on: the card form island and the provider's script take the
// card); at each step the same address is loaded again in a fresh context with the same cookies, so
// each figure is that step with a cold cache: encoded bytes received per resource type.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { BUDGETS, CHROMIUM, CHROMIUM_ARGS, KIB, errorMessage, kib, type BenchModule, type Section } from './lib.ts';
import { loadAndWeigh, type Bytes } from './weight.ts';

const PASSWORD = 'Bench-Onboard-2026!';

type StepWeight = { step: string; path: string; status: number; bytes: Bytes };

/** One cold load of `url` in a fresh context carrying `state`'s cookies. */
async function coldWeight(browser: Browser, state: Awaited<ReturnType<BrowserContext['storageState']>>, url: string): Promise<{ status: number; bytes: Bytes }> {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 }, storageState: state });
  try {
    return await loadAndWeigh(await context.newPage(), url);
  } finally {
    await context.close();
  }
}

async function fillCard(page: Page) {
  await page.getByLabel('First name').fill('Elena');
  await page.getByLabel('Last name').fill('Voss');
  await page.getByLabel('Card number').fill('4242424242424242');
  await page.getByLabel('CVV').fill('123');
  await page.getByLabel('Month').fill('12');
  await page.getByLabel('Year').fill(String(new Date().getUTCFullYear() + 2));
  await page.getByLabel('Zip code').fill('10001');
}

async function measure(): Promise<StepWeight[]> {
  const [{ buildApp }, { loadConfig }, { createDatabase, migrateToLatest }, { seedDemo }, { DEMO_INVITEE }] = await Promise.all([
    import('#src/app.ts'),
    import('#src/config.ts'),
    import('#src/db/index.ts'),
    import('#src/features/seed.ts'),
    import('#src/features/payments/seed.ts'),
  ]);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-onboarding-'));
  const { db } = await createDatabase({ kind: 'pglite', dataDir: dir });
  try {
    await migrateToLatest(db);
    await seedDemo(db, { production: false });
    // Production settings (compression, hashed bundles), on the demo data the README names.
    const config = loadConfig({ NODE_ENV: 'production', PAYMENT_PROCESSOR: 'sandbox', HOST: '127.0.0.1', PORT: '0', COOKIE_SECRET: randomBytes(32).toString('hex'), RATE_LIMIT_MAX: '100000', LOG_LEVEL: 'silent', DEFAULT_COMMUNITY: 'summit', DATA_DIR: dir });
    const app = await buildApp({ config, db, jobWorkers: false });
    await app.ready();
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    try {
      const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
      const page = await context.newPage();
      const weights: StepWeight[] = [];
      const weigh = async (step: string) => {
        const url = page.url();
        const w = await coldWeight(browser, await context.storageState(), url);
        weights.push({ step, path: new URL(url).pathname, ...w });
      };
      const submit = async (name: string | RegExp) => Promise.all([page.waitForLoadState('domcontentloaded'), page.getByRole('button', { name }).click()]);

      await page.goto(`${base}/get-started?uid=${DEMO_INVITEE.uid}&dealId=${DEMO_INVITEE.dealId}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await weigh('payment (card form island + the provider script)');
      await page.getByLabel(/I accept the/).check();
      await fillCard(page);
      await Promise.all([page.waitForURL(/\/get-started\/password/), page.getByRole('button', { name: /^Pay / }).click()]);
      await weigh('password');
      await page.getByLabel('Username', { exact: true }).fill('elena.voss.bench');
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
      await Promise.all([page.waitForURL(/\/get-started\/profile/), submit('Create my sign-in')]);
      await weigh('profile');
      await Promise.all([page.waitForURL(/\/get-started\/contact/), submit('Skip for now')]);
      await weigh('contact');
      await Promise.all([page.waitForURL(/\/get-started\/team/), submit('Skip for now')]);
      await weigh('team');
      await Promise.all([page.waitForURL(/\/get-started\/ep-landing/), submit('Skip for now')]);
      await weigh('ep-landing (the expert panels to join)');
      await page.getByRole('checkbox', { name: 'Leadership & Teams' }).check();
      await Promise.all([page.waitForURL(/\/get-started\/ep-question/), submit('Join and continue')]);
      await weigh('ep-question (an open question and its answer form)');
      await Promise.all([page.waitForURL(/\/get-started\/complete/), submit('Skip for now')]);
      await weigh('complete');
      await context.close();
      return weights;
    } finally {
      await browser.close();
      await app.close();
    }
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const onboardingModule: BenchModule = {
  name: 'onboarding',
  scope: 'process',
  describe: 'onboarding: the weight of each step in Chromium (the demo invitee, JavaScript on, cold cache per step)',
  async run(ctx) {
    const warnings: string[] = [];
    if (!existsSync(CHROMIUM)) return { sections: [], warnings: [`no Chromium at ${CHROMIUM}`], data: null };
    ctx.log('onboarding [pglite]…');
    let weights: StepWeight[] = [];
    try {
      weights = await measure();
    } catch (e) {
      warnings.push(`onboarding: ${errorMessage(e)}`);
    }
    for (const w of weights) {
      if (w.bytes.js > BUDGETS.jsMaxBytes) warnings.push(`${w.path}: JS over budget`);
      if (w.bytes.html + w.bytes.css > BUDGETS.htmlCssMaxBytes) warnings.push(`${w.path}: HTML+CSS over budget`);
    }
    const sections: Section[] = [
      {
        key: 'onboarding-weight',
        title: 'Onboarding steps in Chromium (the demo invitee, 375 px, cold cache per step, encoded bytes)',
        head: ['step', 'path', 'status', 'html', 'css', 'js', 'img', 'other', `js ≤ ${BUDGETS.jsMaxBytes / KIB} KiB`, `html+css ≤ ${BUDGETS.htmlCssMaxBytes / KIB} KiB`],
        right: [false, false, true, true, true, true, true, true, false, false],
        rows: weights.map((w) => [
          w.step,
          w.path,
          String(w.status),
          kib(w.bytes.html),
          kib(w.bytes.css),
          kib(w.bytes.js),
          kib(w.bytes.img),
          kib(w.bytes.other),
          w.bytes.js <= BUDGETS.jsMaxBytes ? 'pass' : 'over',
          w.bytes.html + w.bytes.css <= BUDGETS.htmlCssMaxBytes ? 'pass' : 'over',
        ]),
      },
    ];
    return { sections, warnings, data: weights };
  },
};

// `node --import tsx scripts/bench/onboarding.ts`: this module alone, its report on stdout.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const out = await onboardingModule.run({ log: (line) => console.error(line) });
  console.log(JSON.stringify(out, null, 2));
  process.exit(0);
}
