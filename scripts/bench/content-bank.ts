// The content bank (issue 29). A child process of this file seeds two communities with published
// articles (bulk inserts with generate_series; their marks are the migration's kind, one per article),
// 100 in one and 20,000 in the other, by 20 authors, a tenth with "Pricing" in the title, a fiftieth
// with "margins" in the text, every hundredth tagged; indexes them the way the first read does (the
// marks consumed 500 a transaction, timed), and serves each with a probe app (counting SQL statements)
// and a load app (production mode). Measured, signed in as the community's admin:
// - SQL statements per page (Server-Timing of the probe app): the library newest first, a search
//   whose word is in many titles, one whose word is in a few texts, a misspelt search (the trigram
//   tier), a tag's items (budget: at most 5);
// - requests/s and p99 with autocannon (10 connections) of each, 100 items against 20,000 (p99 flat:
//   at most 1.3x).
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ACCEPT_ENCODING, HOST, LOAD, benchAppEnv, cannon, flatPagesSection, get, latencyOf, measureAtSizes, moduleDatabase, serverOf, sqlArray, sqlQueries, statusCounts, type BenchModule, type Latency, type Section } from './lib.ts';
import { childDatabase, insertBenchCommunity, serveIfStarted, serveSizes, spawnUntilReady, stopServer } from './server.ts';

const SCRIPT = fileURLToPath(import.meta.url);
const SMALL = 100;
const BIG = Number(process.env.BENCH_BANK_BIG ?? 20_000);
const SIZES = [SMALL, BIG] as const;
const AUTHORS = 20;
const SQL_BUDGET = 5;
const FLAT_FACTOR = 1.3;
const START_TIMEOUT_MS = 900_000;
const SUBJECTS = ['Pricing', 'Hiring', 'Leadership', 'Fundraising', 'Climate', 'Operations', 'Culture', 'Growth', 'Board meetings', 'Sales'];
const ANGLES = ['in a downturn', 'for founders', 'that paid off', 'after the round', 'with a small team', 'across borders', 'in year one', 'at scale'];

type Side = { size: number; code: string; probePort: number; loadPort: number; cookie: string; tagId: number };
type ChildInfo = { sides: Side[]; seedMs: Record<string, number>; indexMs: Record<string, number> };

// ---- the child: one database, two communities, four apps ---------------------------------------

async function serveBank(target: string): Promise<void> {
  const [{ sql }, { refreshBankIndex }] = await Promise.all([
    import('kysely'),
    import('#src/features/content-bank/index-refresh.ts'),
  ]);
  const { db, pgliteDir, removeDir } = await childDatabase(target, 'bench-bank-');
  const seedMs: Record<string, number> = {};
  const indexMs: Record<string, number> = {};
  const tagIds: Record<string, number> = {};
  for (const size of SIZES) {
    const t0 = performance.now();
    const code = `bank${size}`;
    const cid = await insertBenchCommunity(db, code, `Bank ${size}`);
    await sql
      .raw(
        `insert into users (email, username, first_name, last_name) select 'author' || g || '@${code}.bench.invalid', '${code}-author' || g,
           (${sqlArray(['Amara', 'Daniel', 'Priya', 'Marcus', 'Sofia', 'Kwame', 'Hannah', 'Ethan'])})[1 + g % 8], (${sqlArray(['Okafor', 'Reyes', 'Shah', 'Lindqvist', 'Moreau', 'Mensah', 'Becker', 'Novak', 'Tanaka'])})[1 + g % 9]
         from generate_series(1, ${AUTHORS}) g`,
      )
      .execute(db);
    await sql.raw(`insert into users (email, username, first_name, last_name) values ('admin@${code}.bench.invalid', '${code}-admin', 'Sam', 'Staff')`).execute(db);
    await sql
      .raw(
        `insert into memberships (community_id, user_id, roles, gate, company_name, job_title)
         select ${cid}, id, case when email like 'admin@%' then array['ADMIN', 'MEMBER'] else array['MEMBER'] end, 'app', 'Bench Co', 'Founder' from users where email like '%@${code}.bench.invalid'`,
      )
      .execute(db);
    await sql
      .raw(
        `insert into articles (community_id, author_id, status, status_updated_at, published_date, article_url, created_at, updated_at)
         select ${cid}, a.ids[1 + g % ${AUTHORS}], 'PUBLISHED', now() - (g || ' hours')::interval, now() - (g || ' hours')::interval,
                'https://news.example.com/${code}/' || g, now() - (g || ' hours')::interval, now() - (g || ' hours')::interval
         from generate_series(1, ${size}) g, (select array_agg(id order by id) as ids from users where email like 'author%@${code}.bench.invalid') a`,
      )
      .execute(db);
    await sql
      .raw(
        `insert into article_revisions (community_id, article_id, author_id, title, content, word_count, created_at, updated_at)
         select a.community_id, a.id, a.author_id,
                (${sqlArray(SUBJECTS)})[1 + a.id % ${SUBJECTS.length}] || ' ' || (${sqlArray(ANGLES)})[1 + (a.id / ${SUBJECTS.length}) % ${ANGLES.length}] || ', part ' || a.id,
                '<p>What we changed, what it cost and what it did to the team. ' || case when a.id % 50 = 0 then 'We kept our margins by cutting scope, not people. ' else '' end ||
                'Three lessons for a company of fifty people, and what we would do again.</p>', 60, a.created_at, a.created_at
         from articles a where a.community_id = ${cid}`,
      )
      .execute(db);
    await sql.raw(`update articles a set current_revision_id = r.id from article_revisions r where r.article_id = a.id and a.community_id = ${cid}`).execute(db);
    // The triggers marked each article three times (insert, revision, update): one mark each, as the migration leaves a backlog.
    await sql.raw(`delete from bank_dirty where community_id = ${cid}`).execute(db);
    await sql.raw(`insert into bank_dirty (community_id, kind, item_id) select community_id, 'article', id from articles where community_id = ${cid} order by id`).execute(db);
    const tag = await sql<{ id: number }>`insert into bank_tags (community_id, name) values (${cid}, 'Finance') returning id`.execute(db);
    tagIds[code] = tag.rows[0]!.id;
    await sql.raw(`insert into bank_item_tags (community_id, tag_id, kind, item_id) select ${cid}, ${tagIds[code]}, 'article', id from articles where community_id = ${cid} and id % 100 = 0`).execute(db);
    seedMs[code] = Math.round(performance.now() - t0);
    const t1 = performance.now();
    await refreshBankIndex(db, { id: cid }, () => new Date());
    indexMs[code] = Math.round(performance.now() - t1);
  }
  await sql`analyze`.execute(db);

  const base = benchAppEnv(target, pgliteDir);
  const servers = await serveSizes(db, { env: base, sizes: SIZES, codeOf: (size) => `bank${size}`, emailOf: (code) => `admin@${code}.bench.invalid`, jobWorkers: false, removeDir });
  const sides: Side[] = servers.map((s) => ({ ...s, tagId: tagIds[s.code]! }));
  process.stdout.write(`BANK_READY ${JSON.stringify({ sides, seedMs, indexMs } satisfies ChildInfo)}\n`);
}

// ---- the bench side: SQL and load ------------------------------------------------------------------------

type Target = { key: string; label: string; path: (s: Side) => string; load: boolean };
const TARGETS: Target[] = [
  { key: 'newest', label: 'The library, newest first', path: () => '/admin/content-bank', load: true },
  { key: 'title', label: 'Search "pricing" (in a tenth of the titles)', path: () => '/admin/content-bank?q=pricing', load: true },
  { key: 'text', label: 'Search "margins" (in a fiftieth of the texts)', path: () => '/admin/content-bank?q=margins', load: true },
  { key: 'typo', label: 'Search "leadrship" (a typo: the trigram tier)', path: () => '/admin/content-bank?q=leadrship', load: true },
  { key: 'tag', label: "A tag's items (one item in a hundred)", path: (s) => `/admin/content-bank?tag=${s.tagId}`, load: true },
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

export const contentBankModule: BenchModule = {
  name: 'content-bank',
  scope: 'server',
  describe: `content bank, ${SMALL} and ${BIG.toLocaleString('en-US')} items: indexing the backlog, SQL per search page, searches under load (p99 flat)`,
  async run(ctx) {
    const server = serverOf(ctx);
    const warnings: string[] = [];
    const { target, drop } = await moduleDatabase(server.backend, 'bench_bank');
    let child: ChildProcess | null = null;
    try {
      const started = await spawnUntilReady<ChildInfo>(SCRIPT, target, 'BANK_READY', START_TIMEOUT_MS, 'the content bank server');
      child = started.child;
      const info = started.info;
      ctx.log(`  content-bank: seeded (${Object.entries(info.seedMs).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ')}), indexed (${Object.entries(info.indexMs).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ')})`);
      const small = info.sides.find((s) => s.size === SMALL)!;
      const big = info.sides.find((s) => s.size === BIG)!;
      const results = await measureAtSizes({ ctx, name: 'content-bank', unit: 'items', sides: [small, big], targets: TARGETS, measure, warnings });
      await stopServer(child);
      child = null;
      const sections: Section[] = [
        flatPagesSection({
          key: 'content-bank-pages',
          title: `Content bank: SQL per page (budget ≤ ${SQL_BUDGET}) and load (${LOAD.connections} connections, ${LOAD.durationSeconds} s; p99 at ${BIG.toLocaleString('en-US')} items ≤ ${FLAT_FACTOR}x at ${SMALL})`,
          sizeHead: 'items',
          results,
          small: SMALL,
          big: BIG,
          sqlBudget: SQL_BUDGET,
          flatFactor: FLAT_FACTOR,
        }),
        {
          key: 'content-bank-index',
          title: 'Content bank: indexing a backlog of marks (the first read after an import), 500 a transaction',
          head: ['items', 'seed', 'index'],
          right: [true, true, true],
          rows: SIZES.map((size) => [size.toLocaleString('en-US'), `${((info.seedMs[`bank${size}`] ?? 0) / 1000).toFixed(1)} s`, `${((info.indexMs[`bank${size}`] ?? 0) / 1000).toFixed(1)} s`]),
        },
      ];
      return { sections, warnings, data: { seedMs: info.seedMs, indexMs: info.indexMs, results } };
    } finally {
      if (child) await stopServer(child);
      await drop();
    }
  },
};

serveIfStarted(SCRIPT, serveBank);
