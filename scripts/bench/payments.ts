// Payments (issue 13), in this process on a database of its own (PGlite, and PostgreSQL when it
// answers): charges per second through the sandbox processor with idempotency keys under 50 concurrent
// payers, each submitting twice at once with the same key (POST /rest/payment/pay-balance with an
// Idempotency-Key header, each payer from its own address), counting the charges the processor made
// per subscription: zero double charges is the target. Then the weight of /pay-now in Chromium (an
// overdue member's link, JavaScript on), the bytes received per resource type (encoded, cold cache).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { BUDGETS, KIB, errorMessage, kib, moduleDatabase, percentile, type BenchModule, type Section } from './lib.ts';
import { loadAndWeigh } from './weight.ts';

const PAYERS = 50;
const ROUNDS = 4;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

type ChargeFigures = {
  backend: string;
  payers: number;
  rounds: number;
  requests: number;
  payments: number;
  seconds: number;
  chargesPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  processorCharges: number;
  doubleCharges: number;
  non200: number;
  mismatchedAnswers: number;
};

type Weight = { status: number; bytes: Record<'html' | 'css' | 'js' | 'img' | 'other', number>; jsBudget: 'pass' | 'over'; htmlCssBudget: 'pass' | 'over' };

async function benchBackend(backend: 'pglite' | 'postgres', measureWeight: boolean): Promise<{ figures: ChargeFigures; weight: Weight | { error: string } | null }> {
  const [{ buildApp }, { loadConfig }, { createDatabase, migrateToLatest }, { SandboxProcessor }] = await Promise.all([
    import('#src/app.ts'),
    import('#src/config.ts'),
    import('#src/db/index.ts'),
    import('#src/features/payments/processor/sandbox/processor.ts'),
  ]);
  const dir = backend === 'pglite' ? mkdtempSync(path.join(os.tmpdir(), 'bench-payments-')) : undefined;
  const database = backend === 'postgres' ? await moduleDatabase('postgres', 'bench_payments') : null;
  const { db } = await createDatabase(dir ? { kind: 'pglite', dataDir: dir } : { kind: 'postgres', url: database!.target, poolSize: 10 });
  try {
    await migrateToLatest(db);
    const config = loadConfig({
      NODE_ENV: 'production',
      // The bench pays with the sandbox's test cards, so it names it (production refuses it unnamed).
      PAYMENT_PROCESSOR: 'sandbox',
      HOST: '127.0.0.1',
      PORT: '0',
      COOKIE_SECRET: randomBytes(32).toString('hex'),
      RATE_LIMIT_MAX: '100000000',
      LOG_LEVEL: 'silent',
      DEFAULT_COMMUNITY: 'paybench',
      ...(dir ? { DATA_DIR: dir } : { DATABASE_URL: database!.target }),
    });
    const app = await buildApp({ config, db, jobWorkers: false });
    await app.ready();
    try {
      const community = await db
        .insertInto('communities')
        .values({ code: 'paybench', name: 'Pay Bench Council', app_name: 'Pay Bench', familiar_name: 'Pay Bench', concierge_email: 'concierge@paybench.example.com', concierge_phone: '+1 (555) 010-0000', copyright_holder: 'Bench Inc', nav_more: JSON.stringify([]) })
        .returningAll()
        .executeTakeFirstOrThrow();
      await db.insertInto('payment_settings').values({ community_id: community.id, public_key: 'pk_sandbox_paybench_test', sub_domain: 'paybench' }).execute();
      const processor = app.cardProcessor;
      if (!(processor instanceof SandboxProcessor)) throw new Error('the bench needs the sandbox processor');

      // The payers: a member each, an overdue subscription, and a token the provider's script would make.
      const total = PAYERS * ROUNDS + 1;
      const users = await db
        .insertInto('users')
        .values(Array.from({ length: total }, (_, i) => ({ email: `payer${i}@paybench.invalid`, username: `payer-${i}`, first_name: 'Payer', last_name: `P${i}`, password_hash: null })))
        .returning('id')
        .execute();
      await db
        .insertInto('memberships')
        .values(users.map((u) => ({ community_id: community.id, user_id: u.id, roles: ['MEMBER'], gate: 'app' as const, company_name: 'Bench Co', job_title: 'Founder', location_name: 'Austin, TX', joined_at: new Date() })))
        .execute();
      const payers = users.map((u, i) => ({ userId: u.id, subscriptionId: `sub_bench_${i}_${randomBytes(12).toString('base64url')}`, amount: 50_000 + i, key: `bench-${i}-${randomBytes(8).toString('hex')}`, ip: `10.${Math.floor(i / 250)}.${i % 250}.1`, token: '' }));
      await db
        .insertInto('subscriptions')
        .values(payers.map((p) => ({ id: p.subscriptionId, community_id: community.id, user_id: p.userId, status: 'past_due' as const, outstanding_cents: p.amount, renews_at: new Date(Date.now() + 300 * 86_400_000), past_due_since: new Date() })))
        .execute();
      for (const p of payers) {
        const made = await processor.engine.tokenize('pk_sandbox_paybench_test', { firstName: 'Payer', lastName: 'Bench', number: '4242424242424242', cvv: '123', month: '12', year: String(new Date().getUTCFullYear() + 2), zip: '10001' });
        if (!made.ok) throw new Error('the sandbox refused the bench card');
        p.token = made.token;
      }

      const latencies: number[] = [];
      let non200 = 0;
      let mismatched = 0;
      const t0 = performance.now();
      for (let round = 0; round < ROUNDS; round++) {
        const group = payers.slice(round * PAYERS, (round + 1) * PAYERS);
        const answers = await Promise.all(
          group.map(async (p) => {
            const submit = async () => {
              const start = performance.now();
              const res = await app.inject({
                method: 'POST',
                url: '/rest/payment/pay-balance',
                remoteAddress: p.ip,
                headers: { 'content-type': 'application/json', 'idempotency-key': p.key },
                payload: JSON.stringify({ token: p.token, userId: p.userId, subscriptionId: p.subscriptionId }),
              });
              latencies.push(performance.now() - start);
              if (res.statusCode !== 200) non200 += 1;
              return res.statusCode === 200 ? (res.json() as { id: string }).id : null;
            };
            return Promise.all([submit(), submit()]);
          }),
        );
        for (const [a, b] of answers) if (a === null || a !== b) mismatched += 1;
      }
      const seconds = (performance.now() - t0) / 1000;
      const paid = payers.slice(0, PAYERS * ROUNDS);
      const charges = await db
        .selectFrom('sandbox_transactions')
        .select(['idempotency_key'])
        .where('sub_domain', '=', 'paybench')
        .where('kind', '=', 'charge')
        .execute();
      const settled = await db
        .selectFrom('payment_ledger')
        .select(['subscription_id'])
        .where('community_id', '=', community.id)
        .where('kind', '=', 'charge')
        .where('status', '=', 'succeeded')
        .execute();
      const perSubscription = new Map<string, number>();
      for (const r of settled) perSubscription.set(r.subscription_id!, (perSubscription.get(r.subscription_id!) ?? 0) + 1);
      const doubleCharges = [...perSubscription.values()].reduce((n, c) => n + Math.max(0, c - 1), 0) + Math.max(0, charges.length - paid.length);
      const figures: ChargeFigures = {
        backend,
        payers: PAYERS,
        rounds: ROUNDS,
        requests: latencies.length,
        payments: perSubscription.size,
        seconds: Number(seconds.toFixed(2)),
        chargesPerSecond: Number((perSubscription.size / seconds).toFixed(1)),
        latencyMs: { p50: Math.round(percentile(latencies, 50)), p99: Math.round(percentile(latencies, 99)), max: Math.round(Math.max(...latencies)) },
        processorCharges: charges.length,
        doubleCharges,
        non200,
        mismatchedAnswers: mismatched,
      };

      let weight: Weight | { error: string } | null = null;
      if (measureWeight) {
        const overdue = payers[payers.length - 1]!;
        weight = await pageWeight(app, `/pay-now?userId=${overdue.userId}&subscriptionId=${encodeURIComponent(overdue.subscriptionId)}`).catch((e) => ({ error: errorMessage(e) }));
      }
      return { figures, weight };
    } finally {
      await app.close();
    }
  } finally {
    await db.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await database?.drop();
  }
}

/** The page in Chromium, cold cache: encoded bytes received per resource type. */
async function pageWeight(app: import('fastify').FastifyInstance, pagePath: string): Promise<Weight | { error: string }> {
  if (!existsSync(CHROMIUM)) return { error: `no Chromium at ${CHROMIUM}` };
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const { status, bytes } = await loadAndWeigh(await context.newPage(), `${address}${pagePath}`);
    await context.close();
    return { status, bytes, jsBudget: bytes.js <= BUDGETS.jsMaxBytes ? 'pass' : 'over', htmlCssBudget: bytes.html + bytes.css <= BUDGETS.htmlCssMaxBytes ? 'pass' : 'over' };
  } finally {
    await browser.close();
  }
}

export const paymentsModule: BenchModule = {
  name: 'payments',
  scope: 'process',
  describe: `payments: charges/s through the sandbox, ${PAYERS} concurrent payers each submitting twice with one key (${ROUNDS} rounds); /pay-now weight in Chromium`,
  async run(ctx) {
    const warnings: string[] = [];
    const runs: Array<{ figures: ChargeFigures; weight: Weight | { error: string } | null }> = [];
    for (const backend of ['pglite', 'postgres'] as const) {
      try {
        ctx.log(`payments [${backend}]…`);
        runs.push(await benchBackend(backend, backend === 'pglite'));
      } catch (e) {
        warnings.push(`${backend}: ${errorMessage(e)}`);
      }
    }
    for (const r of runs) if (r.figures.doubleCharges > 0) warnings.push(`${r.figures.backend}: ${r.figures.doubleCharges} double charges`);
    const sections: Section[] = [
      {
        key: 'payments-charges',
        title: `Charges through the sandbox: ${PAYERS} concurrent payers, each submitting twice with the same Idempotency-Key (${ROUNDS} rounds)`,
        head: ['database', 'payments', 'requests', 'seconds', 'charges/s', 'p50 ms', 'p99 ms', 'processor charges', 'double charges', 'non-200', 'answers differing'],
        right: [false, true, true, true, true, true, true, true, true, true, true],
        rows: runs.map(({ figures: f }) => [f.backend, String(f.payments), String(f.requests), String(f.seconds), String(f.chargesPerSecond), String(f.latencyMs.p50), String(f.latencyMs.p99), String(f.processorCharges), String(f.doubleCharges), String(f.non200), String(f.mismatchedAnswers)]),
        notes: ['Each request is the whole REST call (parse, limits, balance, ledger row, card profile from the token, charge, settle), in process (light-my-request).'],
      },
    ];
    const weight = runs.find((r) => r.weight)?.weight;
    if (weight && 'error' in weight) warnings.push(`/pay-now weight: ${weight.error}`);
    else if (weight) {
      sections.push({
        key: 'payments-pay-now-weight',
        title: '/pay-now in Chromium (an overdue member, cold cache, encoded bytes)',
        head: ['status', 'html', 'css', 'js', 'img', 'other', `js ≤ ${BUDGETS.jsMaxBytes / KIB} KiB`, `html+css ≤ ${BUDGETS.htmlCssMaxBytes / KIB} KiB`],
        rows: [[String(weight.status), kib(weight.bytes.html), kib(weight.bytes.css), kib(weight.bytes.js), kib(weight.bytes.img), kib(weight.bytes.other), weight.jsBudget, weight.htmlCssBudget]],
      });
    }
    return { sections, warnings, data: runs };
  },
};

// `node --import tsx scripts/bench/payments.ts`: this module alone, its report on stdout.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const out = await paymentsModule.run({ log: (line) => console.error(line) });
  console.log(JSON.stringify(out, null, 2));
  process.exit(0);
}
