// The forum (issue 14), side by side with NodeBB. A child process of this file seeds two communities
// with a forum each (bulk inserts with generate_series): a small one (SMALL posts) and one of
// 100,000 posts, each with one post of 20 replies and one of 1,000 replies, and serves each with a
// probe app (counting SQL statements) and a load app (production mode). Measured:
// - page weight on the wire (Chromium, cold cache, encoded bytes) of /forum and of the 20-reply post,
//   signed in as a member (the forum is members-only: signed out it is the sign-in page), and whether
//   the page is whole without scripts (the replies are in the HTML);
// - SQL statements per page (Server-Timing of the probe app): the list, the 20-reply and the
//   1,000-reply post, at both sizes (budget: at most 5);
// - requests/s and p99 with autocannon (10 connections) of the post page, the list and the 1,000-reply
//   post, small forum against 100,000 posts (p99 flat: at most 1.3x);
// - NodeBB in the same run (first database only) when NODEBB_PEER_DIR holds an installed NodeBB: the
//   peer scripts (../shared/peers/nodebb) start, seed and measure it with its compression on; the
//   ratios our bytes / NodeBB's (budget ≤ 0.10) and our req/s / NodeBB's (budget ≥ 5).
import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  HOST,
  KIB,
  LOAD,
  ROOT,
  benchAppEnv,
  cannon,
  errorMessage,
  get,
  isSignedInPage,
  kib,
  latencyOf,
  moduleDatabase,
  serverOf,
  sqlQueries,
  statusCounts,
  type BenchModule,
  type Latency,
  type Section,
  ACCEPT_ENCODING,
  CHROMIUM,
  measurePage,
  seedBenchMembers,
  sqlArray,
} from './lib.ts';
import { childDatabase, insertBenchCommunity, serveIfStarted, serveSizes, spawnUntilReady, stopServer } from './server.ts';
import { weighSignedInPages, type Bytes, type WeighedFile } from './weight.ts';

const SCRIPT = fileURLToPath(import.meta.url);
const SMALL = 100;
const BIG = Number(process.env.BENCH_FORUM_BIG ?? 100_000);
const SIZES = [SMALL, BIG] as const;
const MEMBERS = 200;
const BIG_THREAD = 1_000;
/** Budgets (issue 14). */
const WEIGHT_MAX_BYTES = 65 * KIB;
const SQL_BUDGET = 5;
const FLAT_FACTOR = 1.3;
const NODEBB_BYTES_RATIO_MAX = 0.1;
const NODEBB_RPS_RATIO_MIN = 5;
const START_TIMEOUT_MS = 300_000;
/** What a browser asks for; NodeBB's compressed run sends the same (measure.mjs AC_HEADERS). */

type Side = { size: number; code: string; probePort: number; loadPort: number; cookie: string; post20: number; post1000: number };
type ChildInfo = { sides: Side[]; seedMs: Record<string, number> };

// ---- the child: one database, two forums, four apps -----------------------------------------------

const WORDS =
  'bench plane chisel dovetail joint glue clamp board oak maple walnut pine grain finish varnish oil wax sanding block router jig fence saw blade kerf mortise tenon rail stile panel drawer shelf cabinet workshop vise dog hole apron leg stretcher top flat square true winding sticks marking gauge knife line pencil measure twice cut once dust extraction shop vac hand tool power tool sharpening stone strop honing guide bevel angle edge burr flatten back lapping plate diamond water oil cedar cherry ash beech hardwood softwood plywood veneer edge banding biscuit dowel pocket screw hinge pull knob drawer slide runner groove rabbet dado chamfer roundover profile molding template pattern layout story stick reference face batch production client budget schedule estimate supplier lumber yard moisture meter acclimate seasoning stability movement seasonal cup twist bow check split knot figure quartersawn riftsawn flatsawn'.split(' ');
const TOPICS = ['Tools', 'Techniques', 'Projects', 'Materials', 'Business', 'Safety'];

/** SQL for `count` words picked deterministically from the seed expression `seed` (an integer). */
const words = (seed: string, count: number, salt: number) =>
  `array_to_string(array(select (${sqlArray(WORDS)})[1 + ((${seed}) * ${salt} + i * ${salt + 6}) % ${WORDS.length}] from generate_series(1, ${count}) i), ' ')`;

async function serveForum(target: string): Promise<void> {
  const { sql } = await import('kysely');
  const { db, pgliteDir, removeDir } = await childDatabase(target, 'bench-forum-');

  const seedMs: Record<string, number> = {};
  const threads: Record<string, { post20: number; post1000: number }> = {};
  for (const size of SIZES) {
    const t0 = performance.now();
    const code = `forum${size}`;
    const cid = await insertBenchCommunity(db, code, `Forum ${size}`, { forum_enabled: true });
    // Members who joined long ago (a new member's posts wait for a moderator).
    await seedBenchMembers(db, cid, code, MEMBERS, { prefix: 'u', company: 'Bench Joinery' });
    await sql.raw(`insert into forum_topics (community_id, name, position) select ${cid}, (${sqlArray(TOPICS)})[g], g from generate_series(1, ${TOPICS.length}) g`).execute(db);
    const authors = `(select array_agg(id order by id) as ids from users where email like '%@${code}.bench.invalid') a`;
    // The posts: a title of 5–8 words, two paragraphs (about 60 words), older as g grows.
    await sql
      .raw(
        `insert into forum_posts (community_id, author_id, title, body_html, body_text, last_activity_at, created_at)
         select ${cid}, a.ids[1 + g % ${MEMBERS}], t.title, '<p>' || t.p1 || '.</p><p>' || t.p2 || '.</p>', t.p1 || E'.\\n\\n' || t.p2 || '.',
                now() - g * interval '1 minute' - interval '2 hours', now() - g * interval '1 minute' - interval '2 hours'
         from generate_series(1, ${size - 2}) g, ${authors},
              lateral (select initcap(${words('g', 6, 7)}) as title, initcap(${words('g', 32, 11)}) as p1, initcap(${words('g', 28, 13)}) as p2) t`,
      )
      .execute(db);
    // The two threads, the most recent posts: 20 and 1,000 replies of about 80 words (NodeBB's seed: 66–103).
    const thread = async (replies: number, title: string): Promise<number> => {
      const post = await sql<{ id: number }>`
        insert into forum_posts (community_id, author_id, title, body_html, body_text, reply_count, last_activity_at, created_at)
        values (${cid}, (select min(id) from users where email like ${`%@${code}.bench.invalid`}), ${title},
                ${'<p>I am rebuilding my workbench and would like advice on the top, the vise and the base. The old one racks when I plane across the grain.</p><ul><li>Laminated top or slab?</li><li>Leg vise or twin screw?</li></ul>'},
                ${'I am rebuilding my workbench and would like advice on the top, the vise and the base. The old one racks when I plane across the grain.\n\nLaminated top or slab?\nLeg vise or twin screw?'},
                ${replies}, now() - interval '1 hour', now() - interval '3 days')
        returning id`.execute(db);
      const id = post.rows[0]!.id;
      await sql
        .raw(
          `insert into forum_replies (community_id, post_id, author_id, body_html, body_text, created_at)
           select ${cid}, ${id}, a.ids[1 + g % ${MEMBERS}],
                  '<p><strong>Step ' || g || '.</strong> ' || t.p1 || '.</p><ul><li>' || t.l1 || '</li><li>' || t.l2 || '</li></ul><p>' || t.p2 || ', see <a href="https://example.com/bench">this write-up</a>.</p>',
                  'Step ' || g || '. ' || t.p1 || E'.\\n' || t.l1 || E'\\n' || t.l2 || E'\\n' || t.p2 || ', see this write-up.',
                  now() - interval '3 days' + g * interval '1 minute'
           from generate_series(1, ${replies}) g, ${authors},
                lateral (select initcap(${words(`g + ${id}`, 40, 17)}) as p1, ${words(`g + ${id}`, 8, 19)} as l1, ${words(`g + ${id}`, 9, 23)} as l2, initcap(${words(`g + ${id}`, 24, 29)}) as p2) t`,
        )
        .execute(db);
      return id;
    };
    const post1000 = await thread(BIG_THREAD, 'A thousand replies: the long-running finishing thread');
    const post20 = await thread(20, 'Rebuilding my workbench: top, vise and base');
    // One topic per post (the threads: two).
    await sql.raw(`insert into forum_post_topics (post_id, topic_id, community_id) select p.id, t.id, ${cid} from forum_posts p join forum_topics t on t.community_id = ${cid} and t.position = 1 + p.id % ${TOPICS.length} where p.community_id = ${cid}`).execute(db);
    await sql.raw(`insert into forum_post_topics (post_id, topic_id, community_id) select p.id, t.id, ${cid} from forum_posts p join forum_topics t on t.community_id = ${cid} and t.position = 1 + (p.id + 1) % ${TOPICS.length} where p.id in (${post20}, ${post1000})`).execute(db);
    threads[code] = { post20, post1000 };
    seedMs[code] = Math.round(performance.now() - t0);
  }
  await sql`analyze`.execute(db);

  const base = benchAppEnv(target, pgliteDir);
  const servers = await serveSizes(db, { env: base, sizes: SIZES, codeOf: (size) => `forum${size}`, emailOf: (code) => `u1@${code}.bench.invalid`, jobWorkers: false, removeDir });
  const sides: Side[] = servers.map((s) => ({ ...s, ...threads[s.code]! }));
  process.stdout.write(`FORUM_READY ${JSON.stringify({ sides, seedMs } satisfies ChildInfo)}\n`);
}

// ---- the bench side: weight ------------------------------------------------------------------------

type Weight = { key: string; label: string; path: string; status: number; bytes: Bytes; total: number; files: WeighedFile[]; signedIn: boolean; repliesInHtml: number | null };

const stepsIn = (html: string) => new Set(html.match(/Step \d+\./g) ?? []).size;

async function weigh(side: Side): Promise<{ weights: Weight[]; signedOut: { status: number; location: string | null } }> {
  const pages = [
    { key: 'list', label: 'Forum list  /forum', path: '/forum' },
    { key: 'post20', label: 'Post with 20 replies  /forum/post/{id}', path: `/forum/post/${side.post20}` },
  ];
  const weights = (await weighSignedInPages(side.probePort, side.cookie, pages)).map(({ html, ...w }) => ({
    ...w,
    signedIn: isSignedInPage(html),
    repliesInHtml: w.key === 'post20' ? stepsIn(html) : null,
  }));
  const out = await get(side.probePort, '/forum', { accept: 'text/html' });
  return { weights, signedOut: { status: out.status, location: (out.headers.location as string | undefined) ?? null } };
}

// ---- the bench side: SQL and load ----------------------------------------------------------------------

type Target = { key: string; label: string; path: (s: Side) => string };
const TARGETS: Target[] = [
  { key: 'post20', label: 'Post, 20 replies  /forum/post/{id}', path: (s) => `/forum/post/${s.post20}` },
  { key: 'list', label: 'Forum list  /forum', path: () => '/forum' },
  { key: 'post1000', label: `Post, ${BIG_THREAD.toLocaleString('en-US')} replies (first page)`, path: (s) => `/forum/post/${s.post1000}` },
];

type Measured = { size: number; key: string; label: string; path: string; status: number; sql: number | null; requestsPerSecond: number | null; latencyMs: Latency | null; failures: string | null };

async function measure(side: Side, target: Target): Promise<Measured> {
  const p = target.path(side);
  return { size: side.size, key: target.key, label: target.label, path: p, ...(await measurePage(side, side.cookie, p)) };
}

// ---- NodeBB ------------------------------------------------------------------------------------------

type NodeBBPage = { total: { bytes: number; requests: number; headerBytes: number }; byType: Record<string, { bytes: number; requests: number; headerBytes: number }> };
type NodeBBResults = {
  date: string;
  chromium: string;
  pages: Record<string, NodeBBPage>;
  throughput?: { topic: { median: { requestsPerSecAvg: number; latencyMsP99: number; latencyMsP50: number; total: number; non2xx: number; loadavg1mBefore: number } } };
};

const PEER_SCRIPTS = process.env.NODEBB_PEER_SCRIPTS ?? path.resolve(ROOT, '../shared/peers/nodebb');

function sh(command: string, env: Record<string, string>, log: (s: string) => void, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    // nodebb.sh by its absolute path: its restart re-runs "$0" from NodeBB's folder.
    execFile('bash', ['-c', `. ./env.sh && ${command.replaceAll('./nodebb.sh', `'${PEER_SCRIPTS}/nodebb.sh'`)}`], { cwd: PEER_SCRIPTS, env: { ...process.env, ...env }, timeout: timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${command}: ${errorMessage(err)}\n${String(stderr).slice(-2000)}`));
      else {
        log(`  forum: NodeBB: ${command}: done`);
        resolve(String(stdout));
      }
    });
  });
}

/** NodeBB measured by its peer scripts with its compression on, or why not. */
export async function measureNodeBB(log: (s: string) => void): Promise<{ results: NodeBBResults | null; skipped: string | null }> {
  const peerDir = process.env.NODEBB_PEER_DIR;
  if (!peerDir) return { results: null, skipped: 'NODEBB_PEER_DIR is not set (e.g. NODEBB_PEER_DIR=/work/nodebb-peer)' };
  if (!existsSync(path.join(peerDir, 'nodebb', 'config.json')) || !existsSync(path.join(peerDir, 'node22'))) return { results: null, skipped: `no installed NodeBB under ${peerDir} (run the peer's setup.sh)` };
  if (!existsSync(path.join(PEER_SCRIPTS, 'measure.mjs'))) return { results: null, skipped: `no peer scripts at ${PEER_SCRIPTS}` };
  const label = 'forum-bench';
  const env = {
    PEER_DIR: peerDir,
    LABEL: label,
    RUNS: process.env.NODEBB_RUNS ?? '1',
    AC_DURATION: process.env.NODEBB_AC_DURATION ?? String(LOAD.durationSeconds + 2),
    AC_WARMUP: String(LOAD.warmupSeconds + 1),
    AC_REPEAT: process.env.NODEBB_AC_REPEAT ?? '1',
    AC_CONNECTIONS: String(LOAD.connections),
    AC_HEADERS: `accept-encoding=${ACCEPT_ENCODING}`,
  };
  const out = path.join(peerDir, `results-${label}.json`);
  rmSync(out, { force: true });
  try {
    log('  forum: NodeBB: start, seed, compression on, restart…');
    await sh('./nodebb.sh start', env, log, 180_000);
    await sh('node seed.mjs', env, log, 300_000);
    await sh('node set-config.mjs useCompression=1 && ./nodebb.sh restart', env, log, 180_000);
    log('  forum: NodeBB: measure.mjs (page weight in Chromium, then autocannon on the topic)…');
    await sh('node measure.mjs', env, log, 600_000);
    return { results: JSON.parse(readFileSync(out, 'utf8')) as NodeBBResults, skipped: null };
  } finally {
    await sh('node set-config.mjs useCompression=0', env, log, 60_000).catch((e) => log(`  forum: NodeBB: ${errorMessage(e)}`));
    await sh('./nodebb.sh stop', env, log, 120_000).catch((e) => log(`  forum: NodeBB: ${errorMessage(e)}`));
  }
}

/** NodeBB measured once per bench run (the first database's module run), for every database's ratios. */
let nodebbOnce: Awaited<ReturnType<typeof measureNodeBB>> | null = null;

/** NodeBB's bytes as ours are counted: encoded bodies, without the response headers measure.mjs includes. */
const nodebbBody = (p: NodeBBPage) => p.total.bytes - p.total.headerBytes;

// ---- the module ----------------------------------------------------------------------------------------

export const forumModule: BenchModule = {
  name: 'forum',
  scope: 'server',
  describe: `forum of ${SMALL} and ${BIG.toLocaleString('en-US')} posts: page weight signed in, SQL per page, post page under load; NodeBB side by side`,
  async run(ctx) {
    const server = serverOf(ctx);
    const warnings: string[] = [];
    const { target, drop } = await moduleDatabase(server.backend, 'bench_forum');
    let child: ChildProcess | null = null;
    try {
      const started = await spawnUntilReady<ChildInfo>(SCRIPT, target, 'FORUM_READY', START_TIMEOUT_MS, 'the forum server');
      child = started.child;
      const info = started.info;
      ctx.log(`  forum: seeded (${Object.entries(info.seedMs).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ')})`);
      const small = info.sides.find((s) => s.size === SMALL)!;
      const big = info.sides.find((s) => s.size === BIG)!;

      // Page weight: on the first database (the bytes do not depend on it), the 100,000-post forum.
      let weights: Weight[] = [];
      let signedOut: { status: number; location: string | null } | null = null;
      if (server.first) {
        if (!existsSync(CHROMIUM)) warnings.push(`no Chromium at ${CHROMIUM}: forum page weight not measured`);
        else {
          ctx.log('  forum: page weight in Chromium…');
          ({ weights, signedOut } = await weigh(big));
          for (const w of weights) {
            if (w.status !== 200) warnings.push(`${w.label}: answered ${w.status}`);
            if (!w.signedIn) warnings.push(`${w.label}: did not render signed in`);
            if (w.repliesInHtml !== null && w.repliesInHtml < 20) warnings.push(`${w.label}: ${w.repliesInHtml} of 20 replies in the HTML`);
          }
        }
      }

      // SQL and load: target by target, the small forum and the big one one after the other.
      for (const side of info.sides) for (const t of TARGETS) await cannon(`http://${HOST}:${side.loadPort}${t.path(side)}`, 1, { accept: 'text/html', cookie: side.cookie });
      const results: Measured[] = [];
      for (const t of TARGETS) {
        for (const side of [small, big]) {
          ctx.log(`  forum: ${side.size.toLocaleString('en-US')} posts, ${t.label}…`);
          const m = await measure(side, t);
          if (m.status !== 200) warnings.push(`${side.size} posts, ${t.label}: answered ${m.status}`);
          if (m.failures) warnings.push(`${side.size} posts, ${t.label}: ${m.failures}`);
          results.push(m);
        }
      }
      await stopServer(child);
      child = null;

      // NodeBB, once (with the first database), with our server stopped; its figures are kept for the
      // later databases' rows (the requests/s ratio is per database; NodeBB runs on PostgreSQL).
      if (server.first || !nodebbOnce) {
        try {
          nodebbOnce = await measureNodeBB(ctx.log);
        } catch (e) {
          nodebbOnce = { results: null, skipped: `failed: ${errorMessage(e)}` };
        }
        if (nodebbOnce.skipped) warnings.push(`NodeBB not measured: ${nodebbOnce.skipped}`);
      }
      const nodebb = nodebbOnce;

      const sections: Section[] = [];
      if (weights.length) {
        sections.push({
          key: 'forum-weight',
          title: `Forum page weight in Chromium (signed in as a member; cold cache; encoded body bytes; the ${BIG.toLocaleString('en-US')}-post forum; budget: at most ${WEIGHT_MAX_BYTES / KIB} KiB in all)`,
          head: ['page', 'status', 'html', 'css', 'js', 'img', 'other', 'total', 'requests', `≤ ${WEIGHT_MAX_BYTES / KIB} KiB`],
          right: [false, true, true, true, true, true, true, true, true, false],
          rows: weights.map((w) => [w.label, String(w.status), kib(w.bytes.html), kib(w.bytes.css), kib(w.bytes.js), kib(w.bytes.img), kib(w.bytes.other), kib(w.total), String(w.files.length), w.total <= WEIGHT_MAX_BYTES ? 'pass' : 'over']),
          notes: [
            ...weights.map((w) => `  ${w.key}: ${w.files.map((f) => `${f.url.replace(/^https?:\/\/[^/]+/, '').replace(/^\/static\/build\//, '')} ${kib(f.bytes)}`).join(', ')}`),
            ...weights.filter((w) => w.repliesInHtml !== null).map((w) => `  Without scripts: ${w.repliesInHtml} of 20 replies are in the page's HTML.`),
            signedOut ? `  Signed out: not possible (members only): /forum answers ${signedOut.status}${signedOut.location ? ` → ${signedOut.location}` : ''}.` : '',
          ].filter(Boolean),
        });
      }
      const rows = results.map((m) => [
        m.size.toLocaleString('en-US'),
        m.label,
        String(m.requestsPerSecond ?? '-'),
        m.latencyMs ? String(m.latencyMs.p50) : '-',
        m.latencyMs ? String(m.latencyMs.p99) : '-',
        m.sql === null ? '?' : String(m.sql),
        (m.sql ?? 99) <= SQL_BUDGET ? 'pass' : 'over',
        m.failures ?? 'none',
      ]);
      sections.push({
        key: 'forum-load',
        title: `Forum pages under load (signed in; ${LOAD.connections} connections, accept-encoding: ${ACCEPT_ENCODING}; ${LOAD.warmupSeconds} s warm-up then ${LOAD.durationSeconds} s per target; SQL from the probe app's Server-Timing, budget ≤ ${SQL_BUDGET})`,
        head: ['posts', 'target', 'req/s', 'p50 ms', 'p99 ms', 'SQL', 'SQL', 'failures'],
        right: [true, false, true, true, true, true, false, false],
        rows,
        notes: [`  Seeding with generate_series: ${Object.entries(info.seedMs).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ')}.`],
      });
      const flat: string[][] = [];
      for (const t of TARGETS) {
        const s = results.find((m) => m.size === SMALL && m.key === t.key);
        const b = results.find((m) => m.size === BIG && m.key === t.key);
        if (!s?.latencyMs || !b?.latencyMs) continue;
        const ratio = b.latencyMs.p99 / Math.max(s.latencyMs.p99, 1);
        flat.push([t.label, String(s.latencyMs.p99), String(b.latencyMs.p99), ratio.toFixed(2), ratio <= FLAT_FACTOR ? 'pass' : 'over']);
      }
      sections.push({
        key: 'forum-flat',
        title: `Flat from ${SMALL} to ${BIG.toLocaleString('en-US')} posts (p99 at most ${FLAT_FACTOR}x)`,
        head: ['target', `p99 ${SMALL}`, `p99 ${BIG.toLocaleString('en-US')}`, 'ratio', 'p99'],
        right: [false, true, true, true, false],
        rows: flat,
      });

      const ratios: Record<string, number> = {};
      if (nodebb.results) {
        const nb = nodebb.results;
        const vs: string[][] = [];
        const loadNotes: string[] = [];
        for (const [ours, theirs, label] of [
          ['list', 'category', 'Forum list vs NodeBB category page'],
          ['post20', 'topic', 'Post with 20 replies vs NodeBB topic'],
        ] as const) {
          const w = weights.find((x) => x.key === ours);
          const p = nb.pages[theirs];
          if (!w || !p) continue;
          const ratio = w.total / nodebbBody(p);
          ratios[`bytes-${ours}`] = ratio;
          vs.push([label, kib(w.total), String(w.files.length), kib(nodebbBody(p)), kib(p.total.bytes), String(p.total.requests), ratio.toFixed(3), ratio <= NODEBB_BYTES_RATIO_MAX ? 'pass' : 'over']);
        }
        const ourPost = results.find((m) => m.size === SMALL && m.key === 'post20');
        const theirPost = nb.throughput?.topic.median;
        if (ourPost?.requestsPerSecond && theirPost) {
          const ratio = ourPost.requestsPerSecond / Math.max(theirPost.requestsPerSecAvg, 1);
          ratios['rps-post20'] = ratio;
          if (theirPost.non2xx) warnings.push(`NodeBB answered ${theirPost.non2xx} of ${theirPost.total} topic requests with a non-2xx status under load (its too-busy 503s): its req/s counts them`);
          if (ourPost.latencyMs) loadNotes.push(`  Load average (1 min) as NodeBB's load began: ${theirPost.loadavg1mBefore.toFixed(1)}; NodeBB p50 ${theirPost.latencyMsP50} ms, ours ${ourPost.latencyMs.p50} ms.`);
          vs.push([`Post page req/s (p99 ms) vs NodeBB topic`, `${ourPost.requestsPerSecond} (${ourPost.latencyMs!.p99})`, '', `${Math.round(theirPost.requestsPerSecAvg)} (${theirPost.latencyMsP99})`, '', '', ratio.toFixed(1), ratio >= NODEBB_RPS_RATIO_MIN ? 'pass' : 'under']);
        }
        sections.push({
          key: 'forum-nodebb',
          title: `Side by side with NodeBB (same run, same machine; NodeBB ${nb.chromium ? `in Chromium ${nb.chromium}, ` : ''}signed out, its compression on; ours signed in; budgets: bytes ≤ ${NODEBB_BYTES_RATIO_MAX}x, req/s ≥ ${NODEBB_RPS_RATIO_MIN}x)`,
          head: ['what', 'ours', 'requests', 'NodeBB (bodies)', 'NodeBB (with headers)', 'requests', 'ratio', 'budget'],
          right: [false, true, true, true, true, true, true, false],
          rows: vs,
          notes: ['  Bytes: encoded bodies on both sides (NodeBB\'s measure.mjs counts headers too: shown apart). Load: autocannon, 10 connections, accept-encoding gzip, deflate, br on both.', ...loadNotes],
        });
      }
      return { sections, warnings, data: { seedMs: info.seedMs, weights, signedOut, results, nodebb: nodebb.results ? { pages: nodebb.results.pages, throughput: nodebb.results.throughput, date: nodebb.results.date } : { skipped: nodebb.skipped }, ratios } };
    } catch (e) {
      throw new Error(`forum bench: ${errorMessage(e)}`);
    } finally {
      if (child) await stopServer(child);
      await drop();
    }
  },
};

serveIfStarted(SCRIPT, serveForum);
