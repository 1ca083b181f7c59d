// Offers and benefits (issue 27). A child process of this file seeds two communities with partner
// offers (bulk inserts with generate_series): a small one (100 offers) and one of 10,000, each from 20
// partners in every category (a tenth featured, a twentieth EXEC), and serves each with a probe app
// (counting SQL statements) and a load app (production mode). Measured:
// - page weight on the wire (Chromium, cold cache, encoded bytes) of /offers and of an offer's page,
//   signed in as a member: HTML + CSS at most 30 KiB, and no React (no script of the page's own);
// - SQL statements per page (Server-Timing of the probe app): /offers, a category, a search, an offer
//   (budget: at most 5);
// - requests/s and p99 with autocannon (10 connections) of /offers and an offer's page, 100 offers
//   against 10,000 (p99 flat: at most 1.3x).
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { ACCEPT_ENCODING, CHROMIUM, CHROMIUM_ARGS, HOST, KIB, LOAD, cannon, get, isSignedInPage, kib, latencyOf, moduleDatabase, serverOf, sqlQueries, statusCounts, type BenchModule, type Latency, type Section, benchAppEnv, flatPagesSection, measureAtSizes } from './lib.ts';
import { childDatabase, insertBenchCommunity, serveIfStarted, serveSizes, spawnUntilReady, stopServer } from './server.ts';
import { loadAndWeigh, type Bytes, type WeighedFile } from './weight.ts';

const SCRIPT = fileURLToPath(import.meta.url);
const SMALL = 100;
const BIG = Number(process.env.BENCH_OFFERS_BIG ?? 10_000);
const SIZES = [SMALL, BIG] as const;
const PARTNERS = 20;
const WEIGHT_MAX_BYTES = 30 * KIB;
const SQL_BUDGET = 5;
const FLAT_FACTOR = 1.3;
const START_TIMEOUT_MS = 300_000;
const CATEGORIES = ['travel', 'software', 'finance', 'wellness', 'dining', 'events', 'learning', 'workspace', 'other'];

type Side = { size: number; code: string; probePort: number; loadPort: number; cookie: string; offerId: number };
type ChildInfo = { sides: Side[]; seedMs: Record<string, number> };

// ---- the child: one database, two communities, four apps ---------------------------------------

async function serveOffers(target: string): Promise<void> {
  const { sql } = await import('kysely');
  const { db, pgliteDir, removeDir } = await childDatabase(target, 'bench-offers-');
  const seedMs: Record<string, number> = {};
  const offerIds: Record<string, number> = {};
  const cats = `array[${CATEGORIES.map((c) => `'${c}'`).join(',')}]`;
  for (const size of SIZES) {
    const t0 = performance.now();
    const code = `offers${size}`;
    const cid = await insertBenchCommunity(db, code, `Offers ${size}`);
    await sql.raw(`update communities set exec_link = 'https://example.com/exec' where id = ${cid}`).execute(db);
    const user = await db.insertInto('users').values({ email: `member@${code}.bench.invalid`, username: `${code}-member`, first_name: 'Amara', last_name: 'Okafor', password_hash: null }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('memberships').values({ community_id: cid, user_id: user.id, roles: ['MEMBER'], gate: 'app', company_name: 'Bench Co', job_title: 'Founder' }).execute();
    await sql
      .raw(`insert into partners (community_id, name, website, contact, logo) select ${cid}, 'Partner ' || g, 'https://example.com/p' || g, 'partners@example.com', 'img/partners/ledgerly.svg' from generate_series(1, ${PARTNERS}) g`)
      .execute(db);
    await sql
      .raw(
        `insert into offers (community_id, partner_id, title, value_line, description_html, category, tier, redemption, code, terms, featured, position, status, ends_at)
         select ${cid}, p.ids[1 + g % ${PARTNERS}], 'Offer ' || g || ': a partner benefit for members', (10 + g % 40) || '% off the first year',
                '<p>What the member gets from this partner, in two short sentences. Month-end close within five working days.</p>',
                (${cats})[1 + g % ${CATEGORIES.length}], case when g % 20 = 0 then 'exec' else 'everyone' end, 'code', 'CODE' || g,
                'New customers only.', g % 10 = 0, g % 50, 'published', case when g % 7 = 0 then now() + interval '90 days' else null end
         from generate_series(1, ${size}) g, (select array_agg(id order by id) as ids from partners where community_id = ${cid}) p`,
      )
      .execute(db);
    const offer = await sql<{ id: number }>`select id from offers where community_id = ${cid} and tier = 'everyone' order by id desc limit 1`.execute(db);
    offerIds[code] = offer.rows[0]!.id;
    seedMs[code] = Math.round(performance.now() - t0);
  }
  await sql`analyze`.execute(db);

  const base = benchAppEnv(target, pgliteDir);
  const servers = await serveSizes(db, { env: base, sizes: SIZES, codeOf: (size) => `offers${size}`, emailOf: (code) => `member@${code}.bench.invalid`, jobWorkers: false, removeDir });
  const sides: Side[] = servers.map((s) => ({ ...s, offerId: offerIds[s.code]! }));
  process.stdout.write(`OFFERS_READY ${JSON.stringify({ sides, seedMs } satisfies ChildInfo)}\n`);
}

// ---- the bench side: weight ----------------------------------------------------------------------------

type Weight = { key: string; label: string; path: string; status: number; bytes: Bytes; htmlCss: number; files: WeighedFile[]; signedIn: boolean; react: boolean; pageScripts: string[] };

async function weigh(side: Side): Promise<Weight[]> {
  const pages = [
    { key: 'list', label: 'Offers  /offers', path: '/offers' },
    { key: 'offer', label: 'An offer  /offers/{id}', path: `/offers/${side.offerId}` },
  ];
  const [name, ...rest] = side.cookie.split('=');
  const value = rest.join('=');
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const weights: Weight[] = [];
  try {
    for (const p of pages) {
      for (let i = 0; i < 2; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        await context.addCookies([{ name: name!, value, domain: HOST, path: '/', httpOnly: true, sameSite: 'Lax' }]);
        try {
          const page = await context.newPage();
          const w = await loadAndWeigh(page, `http://${HOST}:${side.probePort}${p.path}`);
          if (i === 0) continue;
          const text = (await get(side.probePort, p.path, { accept: 'text/html', cookie: side.cookie })).body.toString('utf8');
          const islands = [...text.matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]!);
          const react = w.files.some((f) => f.kind === 'js' && /react/i.test(f.url));
          weights.push({ ...p, status: w.status, bytes: w.bytes, htmlCss: w.bytes.html + w.bytes.css, files: w.files, signedIn: isSignedInPage(text), react, pageScripts: islands.filter((x) => x !== 'NotificationBell') });
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

// ---- the bench side: SQL and load ------------------------------------------------------------------------

type Target = { key: string; label: string; path: (s: Side) => string; load: boolean };
const TARGETS: Target[] = [
  { key: 'list', label: 'Offers  /offers', path: () => '/offers', load: true },
  { key: 'offer', label: 'An offer  /offers/{id}', path: (s) => `/offers/${s.offerId}`, load: true },
  { key: 'category', label: 'A category  /offers?category=finance', path: () => '/offers?category=finance', load: false },
  { key: 'exec', label: 'EXEC  /offers/exec', path: () => '/offers/exec', load: false },
];

type Measured = { size: number; key: string; label: string; status: number; sql: number | null; requestsPerSecond: number | null; latencyMs: Latency | null; failures: string | null };

async function measure(side: Side, target: Target): Promise<Measured> {
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
  if (!target.load) return { size: side.size, key: target.key, label: target.label, status, sql, requestsPerSecond: null, latencyMs: null, failures: null };
  const url = `http://${HOST}:${side.loadPort}${p}`;
  await cannon(url, LOAD.warmupSeconds, headers);
  const r = await cannon(url, LOAD.durationSeconds, headers);
  const bad = r.non2xx + r.errors + r.timeouts;
  return {
    size: side.size,
    key: target.key,
    label: target.label,
    status,
    sql,
    requestsPerSecond: Math.round(r.requests.average),
    latencyMs: latencyOf(r),
    failures: bad ? `${r.non2xx} non-2xx (${JSON.stringify(statusCounts(r))}), ${r.errors} errors, ${r.timeouts} timeouts` : null,
  };
}

export const offersModule: BenchModule = {
  name: 'offers',
  scope: 'server',
  describe: `offers, ${SMALL} and ${BIG.toLocaleString('en-US')}: page weight signed in, SQL per page, list and offer under load (p99 flat)`,
  async run(ctx) {
    const server = serverOf(ctx);
    const warnings: string[] = [];
    const { target, drop } = await moduleDatabase(server.backend, 'bench_offers');
    let child: ChildProcess | null = null;
    try {
      const started = await spawnUntilReady<ChildInfo>(SCRIPT, target, 'OFFERS_READY', START_TIMEOUT_MS, 'the offers server');
      child = started.child;
      const info = started.info;
      ctx.log(`  offers: seeded (${Object.entries(info.seedMs).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ')})`);
      const small = info.sides.find((s) => s.size === SMALL)!;
      const big = info.sides.find((s) => s.size === BIG)!;

      let weights: Weight[] = [];
      if (server.first) {
        if (!existsSync(CHROMIUM)) warnings.push(`no Chromium at ${CHROMIUM}: offers page weight not measured`);
        else {
          ctx.log('  offers: page weight in Chromium…');
          weights = await weigh(big);
          for (const w of weights) {
            if (w.status !== 200) warnings.push(`${w.label}: answered ${w.status}`);
            if (!w.signedIn) warnings.push(`${w.label}: did not render signed in`);
            if (w.react || w.pageScripts.length) warnings.push(`${w.label}: scripts of its own (${w.pageScripts.join(', ')}${w.react ? ', React' : ''})`);
          }
        }
      }

      const results = await measureAtSizes({ ctx, name: 'offers', unit: 'offers', sides: [small, big], targets: TARGETS, measure, warnings });
      await stopServer(child);
      child = null;

      const sections: Section[] = [];
      if (weights.length) {
        sections.push({
          key: 'offers-weight',
          title: `Offers page weight in Chromium (signed in as a member; cold cache; encoded body bytes; ${BIG.toLocaleString('en-US')} offers; budget: HTML + CSS at most ${WEIGHT_MAX_BYTES / KIB} KiB, no React)`,
          head: ['page', 'status', 'html', 'css', 'html+css', 'js (shell)', 'img', `≤ ${WEIGHT_MAX_BYTES / KIB} KiB`, 'React'],
          right: [false, true, true, true, true, true, true, false, false],
          rows: weights.map((w) => [w.label, String(w.status), kib(w.bytes.html), kib(w.bytes.css), kib(w.htmlCss), kib(w.bytes.js), kib(w.bytes.img), w.htmlCss <= WEIGHT_MAX_BYTES ? 'pass' : 'over', w.react ? 'yes' : 'no']),
          notes: weights.map((w) => `  ${w.key}: ${w.files.map((f) => `${f.url.replace(/^https?:\/\/[^/]+/, '').replace(/^\/static\/build\//, '')} ${kib(f.bytes)}`).join(', ')}`),
        });
      }
      sections.push(
        flatPagesSection({
          key: 'offers-pages',
          title: `Offers: SQL per page (budget ≤ ${SQL_BUDGET}) and load (${LOAD.connections} connections, ${LOAD.durationSeconds} s; p99 at ${BIG.toLocaleString('en-US')} offers ≤ ${FLAT_FACTOR}x at ${SMALL})`,
          sizeHead: 'offers',
          results,
          small: SMALL,
          big: BIG,
          sqlBudget: SQL_BUDGET,
          flatFactor: FLAT_FACTOR,
        }),
      );
      return { sections, warnings, data: { seedMs: info.seedMs, weights: weights.map(({ files, ...w }) => ({ ...w, files: files.length })), results } };
    } finally {
      if (child) await stopServer(child);
      await drop();
    }
  },
};

serveIfStarted(SCRIPT, serveOffers);
