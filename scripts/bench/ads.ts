// Ads (issue 27): 10,000 page views that show ads cost no database write per view. In this process: an
// app on a fresh PGlite with one community, a member and its two live ads (a masthead and a medium
// square); the member views a light page with the shell (/contact) 10,000 times; every statement sent
// to the database meanwhile is seen (PGlite's query, wrapped), and those that read or write an ad are
// counted; then the app closes (its last flush) and the stored impressions are read back.
import { randomBytes } from 'node:crypto';
import { percentile, type BenchModule } from './lib.ts';

const VIEWS = Number(process.env.BENCH_ADS_VIEWS ?? 10_000);

export type AdsBench = {
  views: number;
  seconds: number;
  viewsPerMinute: number;
  p50Ms: number;
  p99Ms: number;
  /** Every statement sent while the pages were viewed (sessions included). */
  statements: number;
  /** Of those, the ones naming ads or ad_daily_counts (the timer's flushes during the run included). */
  adStatements: number;
  adWrites: number;
  /** Statements per request, from Server-Timing (what the request itself issued). */
  sqlPerView: { min: number; max: number; total: number };
  flushes: number;
  flushStatements: number;
  impressionsStored: number;
  impressionsExpected: number;
};

export async function measureAds(views = VIEWS): Promise<AdsBench> {
  const [{ buildApp }, { loadConfig }, { createDatabase, migrateToLatest, pgliteOf }, { startSession, AUTH_COOKIE }, { adCounterFor }] = await Promise.all([
    import('#src/app.ts'),
    import('#src/config.ts'),
    import('#src/db/index.ts'),
    import('#src/features/auth/sessions.ts'),
    import('#src/features/ads/counter.ts'),
  ]);
  const { db } = await createDatabase({ kind: 'pglite' });
  await migrateToLatest(db);
  const community = await db
    .insertInto('communities')
    .values({ code: 'bench', name: 'Bench', app_name: 'Bench', familiar_name: 'Bench', concierge_email: 'concierge@bench.example', concierge_phone: '+1 555 0100', copyright_holder: 'Bench Inc' })
    .returningAll()
    .executeTakeFirstOrThrow();
  const user = await db.insertInto('users').values({ email: 'member@bench.example', username: 'ada-bench', first_name: 'Ada', last_name: 'Bench' }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('memberships').values({ community_id: community.id, user_id: user.id, roles: ['MEMBER'], gate: 'app' }).execute();
  await db
    .insertInto('ads')
    .values([
      { community_id: community.id, shape: 'MASTHEAD', image_url: 'img/ads/masthead-partner.svg', link: 'https://example.com/ad', alt_text: 'Masthead' },
      { community_id: community.id, shape: 'MEDIUM_SQUARE', image_url: 'img/ads/square-retreat.svg', link: 'https://example.com/square', alt_text: 'Square' },
    ])
    .execute();
  const config = loadConfig({ NODE_ENV: 'test', COOKIE_SECRET: randomBytes(32).toString('hex'), DEFAULT_COMMUNITY: 'bench', RATE_LIMIT_MAX: '100000000', LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, db, jobWorkers: false, ownsDb: true });
  await app.ready();
  const { token } = await startSession(app.db, app.sessionTokens, app.clock, { userId: user.id, community, roles: ['MEMBER'], gate: 'app', basePath: '' });
  const headers = { accept: 'text/html', cookie: `${AUTH_COOKIE}=${token}` };
  // Warm: the community, the ads and the page's code.
  for (let i = 0; i < 20; i++) await app.inject({ url: '/contact', headers });
  const counter = adCounterFor(app.db, app.clock);
  await counter.flush();
  const flushesBefore = counter.flushes;
  const flushStatementsBefore = counter.flushStatements;
  const stored = async () => Number((await db.selectFrom('ad_daily_counts').select((eb) => eb.fn.sum<number>('impressions').as('n')).executeTakeFirst())?.n ?? 0);
  const storedBefore = await stored();

  const pglite = pgliteOf(db) as unknown as { query: (sql: string, ...rest: unknown[]) => Promise<unknown> };
  const query = pglite.query;
  const seen: string[] = [];
  pglite.query = (sql: string, ...rest: unknown[]) => (seen.push(sql), query.call(pglite, sql, ...rest));
  const perView: number[] = [];
  const ms: number[] = [];
  const started = performance.now();
  try {
    for (let i = 0; i < views; i++) {
      // In-process requests on PGlite resolve without I/O: let the event loop turn (as a server's
      // network does between requests), so that the flush timer runs as it would in production.
      if (i % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
      const t = performance.now();
      const res = await app.inject({ url: '/contact', headers });
      ms.push(performance.now() - t);
      if (res.statusCode !== 200 || !res.body.includes('class="ad ad-masthead"')) throw new Error(`view ${i}: ${res.statusCode}, ads shown: ${res.body.includes('class="ad ')}`);
      perView.push(Number(/dur=(\d+)/.exec(String(res.headers['server-timing']))?.[1] ?? 0));
    }
  } finally {
    pglite.query = query;
  }
  const seconds = (performance.now() - started) / 1000;
  const adStatements = seen.filter((q) => /\bads\b|ad_daily_counts/.test(q));
  const flushes = counter.flushes - flushesBefore;
  const flushStatements = counter.flushStatements - flushStatementsBefore;
  // The app's close flushes what is left; the database stays open for the read (closed below).
  await counter.close();
  const impressionsStored = (await stored()) - storedBefore;
  await app.close();
  return {
    views,
    seconds: Math.round(seconds * 10) / 10,
    viewsPerMinute: Math.round((views / seconds) * 60),
    p50Ms: Math.round(percentile(ms, 50) * 10) / 10,
    p99Ms: Math.round(percentile(ms, 99) * 10) / 10,
    statements: seen.length,
    adStatements: adStatements.length,
    adWrites: adStatements.filter((q) => /^\s*(insert|update|delete)/i.test(q)).length,
    sqlPerView: { min: Math.min(...perView), max: Math.max(...perView), total: perView.reduce((a, b) => a + b, 0) },
    flushes,
    flushStatements,
    impressionsStored,
    impressionsExpected: 2 * views,
  };
}

export const adsModule: BenchModule = {
  name: 'ads',
  scope: 'process',
  describe: `ads: ${VIEWS.toLocaleString('en-US')} member page views with a masthead and a square, statements counted`,
  async run() {
    const r = await measureAds();
    const warnings: string[] = [];
    if (r.adWrites > r.flushStatements) warnings.push(`ad writes (${r.adWrites}) beyond the flushes' (${r.flushStatements})`);
    if (r.impressionsStored !== r.impressionsExpected) warnings.push(`stored ${r.impressionsStored} impressions, expected ${r.impressionsExpected}`);
    return {
      data: r,
      warnings,
      sections: [
        {
          key: 'ads',
          title: `Ads: ${r.views.toLocaleString('en-US')} member page views (/contact, the shell with a masthead and a medium square) in this process on PGlite; every statement sent meanwhile seen`,
          head: ['views', 'seconds', 'views/min', 'p50 ms', 'p99 ms', 'statements (all)', 'SQL per view (min–max)', 'ad statements', 'ad writes', 'flushes', 'impressions stored'],
          rows: [
            [
              String(r.views),
              String(r.seconds),
              String(r.viewsPerMinute),
              String(r.p50Ms),
              String(r.p99Ms),
              String(r.statements),
              `${r.sqlPerView.min}–${r.sqlPerView.max}`,
              String(r.adStatements),
              String(r.adWrites),
              String(r.flushes),
              `${r.impressionsStored} of ${r.impressionsExpected}`,
            ],
          ],
          right: Array(11).fill(true),
          notes: [
            'ad statements: those naming ads or ad_daily_counts while the pages were viewed; the only ones are the timer\'s flushes (one upsert per community every 15 s), never one per view.',
            'impressions stored: read back after the app closed (its last flush).',
          ],
        },
      ],
    };
  },
};
