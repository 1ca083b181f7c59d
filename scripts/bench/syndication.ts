// Syndication (issue 29). A child process of this file seeds one community with 40 published articles
// (each at a public address, with some 600 words of text) and 10 published roundups, and one
// syndication feed of the newest 20 of them; it serves the community with a probe app (counting SQL
// statements) and two load apps (production mode) on the same database: one as deployed (a feed read
// at most once per SYNDICATION_CACHE_MS, 10 s, and answered from memory) and one with
// SYNDICATION_CACHE_MS=0 (what the feed carries read again on every request). Measured with
// autocannon (10 connections), as a feed reader asks (Accept-Encoding gzip, deflate, br):
// - the full answer (200, the RSS body) and the answer from its validator (If-None-Match: 304, no
//   body), requests/s and p99, on both apps;
// - the ratio of the 304's requests/s to the full answer's (issue 29: at least 10x);
// - for scale, the same app's bare route /health/live (no community, no session, no database);
// - SQL statements of each (Server-Timing of the probe app).
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ACCEPT_ENCODING, HOST, LOAD, cannon, get, latencyOf, moduleDatabase, serverOf, sqlQueries, statusCounts, type BenchModule, type Latency, benchAppEnv, kib } from './lib.ts';
import { childDatabase, exitWithParent, insertBenchCommunity, listenProbeAndLoad, serveIfStarted, spawnUntilReady, stopServer } from './server.ts';

const SCRIPT = fileURLToPath(import.meta.url);
const CODE = 'syndbench';
const SLUG = 'everything';
const ARTICLES = 40;
const ROUNDUPS = 10;
const LIMIT = 20;
const TARGET_RATIO = 10;
const START_TIMEOUT_MS = 300_000;
const FEED = `/feeds/${SLUG}.rss`;

type ChildInfo = { probePort: number; loadPort: number; readEveryTimePort: number; seedMs: number };

// ---- the child: one database, one community, three apps ------------------------------------------

async function serveSyndication(target: string): Promise<void> {
  const [{ buildApp }, { loadConfig }, { sql }, { publishFeedList }] = await Promise.all([
    import('#src/app.ts'),
    import('#src/config.ts'),
    import('kysely'),
    import('#src/features/syndication/staff.ts'),
  ]);
  const { db, pgliteDir, removeDir } = await childDatabase(target, 'bench-syndication-');
  const t0 = performance.now();
  const cid = await insertBenchCommunity(db, CODE, 'Syndication Bench');
  await sql
    .raw(`insert into users (email, username, first_name, last_name) select 'writer' || g || '@${CODE}.bench.invalid', '${CODE}-writer' || g, 'Writer', 'Number ' || g from generate_series(1, 8) g`)
    .execute(db);
  await sql.raw(`insert into memberships (community_id, user_id, roles, gate) select ${cid}, id, array['MEMBER'], 'app' from users where email like '%@${CODE}.bench.invalid'`).execute(db);
  const paragraph = 'Every founder reaches the moment when the company outgrows the way decisions used to be made, and a short written memo sent the evening before turns the meeting into a conversation about disagreements & trade-offs. ';
  await sql
    .raw(
      `insert into articles (community_id, author_id, status, status_updated_at, published_date, article_url, created_at, updated_at)
       select ${cid}, u.ids[1 + g % 8], 'MANUALLY_PUBLISHED', now() - (g || ' hours')::interval, now() - (g || ' hours')::interval,
              'https://news.example.com/${CODE}/article-' || g || '?utm_source=feed&utm_medium=rss', now() - (g || ' days')::interval, now() - (g || ' hours')::interval
       from generate_series(1, ${ARTICLES}) g, (select array_agg(id order by id) as ids from users where email like '%@${CODE}.bench.invalid') u`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into article_revisions (community_id, article_id, author_id, title, content, word_count, created_at, updated_at)
       select a.community_id, a.id, a.author_id, 'Article ' || a.id || ': what we learned scaling from forty to a hundred people', '<p>' || repeat('${paragraph.replace(/'/g, "''")}', 16) || '</p>', 600, a.created_at, a.updated_at
       from articles a where a.community_id = ${cid}`,
    )
    .execute(db);
  await sql.raw(`update articles a set current_revision_id = r.id from article_revisions r where r.article_id = a.id and a.community_id = ${cid}`).execute(db);
  const panel = await sql<{ id: number }>`insert into ep_panels (community_id, name) values (${cid}, 'Growth') returning id`.execute(db);
  const batch = await sql<{ id: number }>`insert into ep_batches (community_id, panel_id, title, deadline_at) values (${cid}, ${panel.rows[0]!.id}, 'Batch', now()) returning id`.execute(db);
  const question = await sql<{ id: number }>`insert into ep_questions (community_id, panel_id, batch_id, title) values (${cid}, ${panel.rows[0]!.id}, ${batch.rows[0]!.id}, 'Which pricing move paid off?') returning id`.execute(db);
  await sql
    .raw(
      `insert into ep_roundups (community_id, question_id, title, slug, status, intro_html, published_at, created_at, updated_at)
       select ${cid}, ${question.rows[0]!.id}, 'Roundup ' || g || ': pricing moves that paid off', 'roundup-' || g, 'FINAL',
              '<p>We asked the panel which pricing change had the biggest effect on revenue last year. Three answers stood out.</p>',
              now() - (g * 3 || ' hours')::interval, now() - (g || ' days')::interval, now() - (g * 3 || ' hours')::interval
       from generate_series(1, ${ROUNDUPS}) g`,
    )
    .execute(db);
  const feed = await sql<{ id: number }>`insert into syndication_feeds (community_id, slug, title, description, item_limit) values (${cid}, ${SLUG}, 'Syndication Bench — everything', 'Articles and roundups.', ${LIMIT}) returning id`.execute(db);
  await sql`insert into syndication_feed_filters (community_id, feed_id, kind, value) values (${cid}, ${feed.rows[0]!.id}, 'type', 'article'), (${cid}, ${feed.rows[0]!.id}, 'type', 'roundup')`.execute(db);
  await publishFeedList(db, { id: cid });
  await sql`analyze`.execute(db);
  const seedMs = Math.round(performance.now() - t0);

  const base = { ...benchAppEnv(target, pgliteDir), DEFAULT_COMMUNITY: CODE };
  const config = loadConfig(base);
  const { probe, load, probePort, loadPort } = await listenProbeAndLoad((o) => buildApp({ config, db, jobWorkers: false, ...o }), false);
  const readEveryTime = await buildApp({ config: loadConfig({ ...base, SYNDICATION_CACHE_MS: '0' }), db, jobWorkers: false, ownsDb: true });
  await readEveryTime.listen({ host: HOST, port: 0 });
  const readEveryTimePort = (readEveryTime.server.address() as { port: number }).port;
  exitWithParent(async () => {
    for (const app of [probe, load, readEveryTime]) await app.close();
  }, removeDir);
  process.stdout.write(`SYNDICATION_READY ${JSON.stringify({ probePort, loadPort, readEveryTimePort, seedMs } satisfies ChildInfo)}\n`);
}

// ---- the bench side -------------------------------------------------------------------------------

type Run = { key: string; label: string; app: 'cached' | 'readEveryTime'; conditional: boolean; path?: string };
const RUNS: Run[] = [
  // The floor of the same app: a bare route (no community, no session, no rate limit), for scale.
  { key: 'floor', label: 'the floor: /health/live (bare route, no database)', app: 'cached', conditional: false, path: '/health/live' },
  { key: 'full', label: 'full answer (200), from memory', app: 'cached', conditional: false },
  { key: '304', label: 'from its validator (304)', app: 'cached', conditional: true },
  { key: 'full-read', label: 'full answer (200), read every request', app: 'readEveryTime', conditional: false },
  { key: '304-read', label: 'from its validator (304), read every request', app: 'readEveryTime', conditional: true },
];

type Measured = { key: string; label: string; status: number; requestsPerSecond: number; latencyMs: Latency; statusCodes: Record<string, number>; failures: string | null };

async function measure(port: number, run: Run, etag: string, ctx: Parameters<BenchModule['run']>[0]): Promise<Measured> {
  const headers: Record<string, string> = { accept: '*/*', 'accept-encoding': ACCEPT_ENCODING, ...(run.conditional ? { 'if-none-match': etag } : {}) };
  const expected = run.conditional ? 304 : 200;
  const path = run.path ?? FEED;
  const once = await get(port, path, headers);
  const url = `http://${HOST}:${port}${path}`;
  ctx.log(`  syndication: ${run.label}…`);
  await cannon(url, LOAD.warmupSeconds, headers);
  const r = await cannon(url, LOAD.durationSeconds, headers);
  const codes = statusCounts(r);
  const unexpected = Object.entries(codes).filter(([code]) => Number(code) !== expected).reduce((n, [, c]) => n + c, 0);
  const bad = unexpected + r.errors + r.timeouts;
  return {
    key: run.key,
    label: run.label,
    status: once.status,
    requestsPerSecond: Math.round(r.requests.average),
    latencyMs: latencyOf(r),
    statusCodes: codes,
    failures: bad ? `${unexpected} answers other than ${expected} (${JSON.stringify(codes)}), ${r.errors} errors, ${r.timeouts} timeouts` : null,
  };
}

export const syndicationModule: BenchModule = {
  name: 'syndication',
  scope: 'server',
  describe: `a syndication feed (${LIMIT} items) under load: the full answer against the 304 from its validator, from memory and read on every request`,
  async run(ctx) {
    const server = serverOf(ctx);
    const warnings: string[] = [];
    const { target, drop } = await moduleDatabase(server.backend, 'bench_syndication');
    let child: ChildProcess | null = null;
    try {
      const started = await spawnUntilReady<ChildInfo>(SCRIPT, target, 'SYNDICATION_READY', START_TIMEOUT_MS, 'the syndication server');
      child = started.child;
      const info = started.info;
      ctx.log(`  syndication: seeded in ${(info.seedMs / 1000).toFixed(1)} s`);

      // What one answer is: its size, validator and SQL statements (the probe: the first read, then from memory).
      const headers = { accept: '*/*', 'accept-encoding': ACCEPT_ENCODING };
      const first = await get(info.probePort, FEED, headers);
      const warm = await get(info.probePort, FEED, headers);
      const etag = String(warm.headers.etag ?? '');
      const notModified = await get(info.probePort, FEED, { ...headers, 'if-none-match': etag });
      const plain = await get(info.loadPort, FEED, { accept: '*/*' });
      if (first.status !== 200 || !etag) warnings.push(`the feed answered ${first.status}${etag ? '' : ' without an ETag'}`);
      if (notModified.status !== 304) warnings.push(`the feed asked with its validator answered ${notModified.status}`);
      const items = (plain.body.toString('utf8').match(/<item>/g) ?? []).length;
      if (items !== LIMIT) warnings.push(`the feed carries ${items} items, not ${LIMIT}`);
      const other = await get(info.readEveryTimePort, FEED, headers);
      if (other.headers.etag !== etag) warnings.push('the app reading on every request answers another ETag for the same feed');

      const results: Measured[] = [];
      for (const run of RUNS) {
        const m = await measure(run.app === 'cached' ? info.loadPort : info.readEveryTimePort, run, etag, ctx);
        if (m.failures) warnings.push(`${run.label}: ${m.failures}`);
        results.push(m);
      }
      await stopServer(child);
      child = null;

      const by = (key: string) => results.find((r) => r.key === key)!;
      const ratio = (a: string, b: string) => by(a).requestsPerSecond / Math.max(1, by(b).requestsPerSecond);
      const ratios = [
        { label: '304 / full answer read every request (what the validator saves)', value: ratio('304', 'full-read') },
        { label: '304 / full answer from memory', value: ratio('304', 'full') },
        { label: '304 read every request / full answer read every request', value: ratio('304-read', 'full-read') },
      ];
      const bytes = { plain: plain.body.length, encoded: warm.body.length, encoding: String(warm.headers['content-encoding'] ?? 'none') };
      return {
        sections: [
          {
            key: 'syndication-load',
            title:
              `Syndication: a feed of ${LIMIT} items (RSS ${kib(bytes.plain)}, ${bytes.encoding} ${kib(bytes.encoded)}) under load (${LOAD.connections} connections, ${LOAD.durationSeconds} s; ` +
              `SQL: first read ${sqlQueries(first) ?? '-'}, from memory ${sqlQueries(warm) ?? '-'}, 304 ${sqlQueries(notModified) ?? '-'})`,
            head: ['answer', 'req/s', 'p50 ms', 'p99 ms'],
            right: [false, true, true, true],
            rows: results.map((m) => [m.label, String(m.requestsPerSecond), String(m.latencyMs.p50), String(m.latencyMs.p99)]),
          },
          {
            key: 'syndication-ratio',
            title: `Syndication: requests/s of the 304 against the full answer (target ≥ ${TARGET_RATIO}x against the full answer read every request)`,
            head: ['ratio', 'x', `≥ ${TARGET_RATIO}x`],
            right: [false, true, false],
            rows: ratios.map((r, i) => [r.label, r.value.toFixed(1), i === 0 ? (r.value >= TARGET_RATIO ? 'pass' : 'under') : '']),
          },
        ],
        warnings,
        data: { seedMs: info.seedMs, bytes, sql: { first: sqlQueries(first), warm: sqlQueries(warm), notModified: sqlQueries(notModified) }, results, ratios },
      };
    } finally {
      if (child) await stopServer(child);
      await drop();
    }
  },
};

serveIfStarted(SCRIPT, serveSyndication);
