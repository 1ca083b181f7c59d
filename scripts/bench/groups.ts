// Groups (issue 28). A child process of this file seeds two communities with the forum on, each with a
// public group of 30 people whose discussion holds 100 posts in one and 10,000 in the other (bulk
// inserts with generate_series), plus 9 other groups, and serves each with a probe app (counting SQL
// statements) and a load app (production mode). Measured, signed in as a member of the group:
// - page weight on the wire (Chromium, cold cache, encoded bytes) of /groups/{slug} and a post of its
//   discussion: HTML + CSS at most 30 KiB, and no React (no script of the page's own);
// - SQL statements per page (Server-Timing of the probe app): /groups, a group, a group's post
//   (budget: at most 5);
// - requests/s and p99 with autocannon (10 connections) of a group's page and a post, 100 posts
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
const BIG = Number(process.env.BENCH_GROUPS_BIG ?? 10_000);
const SIZES = [SMALL, BIG] as const;
const PEOPLE = 30;
const OTHER_GROUPS = 9;
const SLUG = 'founders-peer-group';
const WEIGHT_MAX_BYTES = 30 * KIB;
const SQL_BUDGET = 5;
const FLAT_FACTOR = 1.3;
const START_TIMEOUT_MS = 300_000;

type Side = { size: number; code: string; probePort: number; loadPort: number; cookie: string; postId: number };
type ChildInfo = { sides: Side[]; seedMs: Record<string, number> };

// ---- the child: one database, two communities, four apps ---------------------------------------

async function serveGroups(target: string): Promise<void> {
  const { sql } = await import('kysely');
  const { db, pgliteDir, removeDir } = await childDatabase(target, 'bench-groups-');
  const seedMs: Record<string, number> = {};
  const postIds: Record<string, number> = {};
  for (const size of SIZES) {
    const t0 = performance.now();
    const code = `groups${size}`;
    const cid = await insertBenchCommunity(db, code, `Groups ${size}`);
    await sql.raw(`update communities set forum_enabled = true where id = ${cid}`).execute(db);
    await sql
      .raw(`insert into users (email, username, first_name, last_name) select 'member' || g || '@${code}.bench.invalid', '${code}-member' || g, 'Member', 'Number ' || g from generate_series(1, ${PEOPLE}) g`)
      .execute(db);
    await sql
      .raw(`insert into memberships (community_id, user_id, roles, gate, company_name, job_title) select ${cid}, id, array['MEMBER'], 'app', 'Bench Co', 'Founder' from users where email like '%@${code}.bench.invalid'`)
      .execute(db);
    const group = await sql<{ id: number }>`insert into groups (community_id, name, slug, about_text, about_html, visibility) values (${cid}, 'Founders Peer Group', ${SLUG}, 'Founders comparing notes.', '<p>Founders comparing notes.</p>', 'public') returning id`.execute(db);
    const gid = group.rows[0]!.id;
    await sql
      .raw(
        `insert into groups (community_id, name, slug, about_text, about_html, visibility)
         select ${cid}, 'Group ' || g, 'group-' || g, 'Another group.', '<p>Another group.</p>', case when g % 3 = 0 then 'private' else 'public' end from generate_series(1, ${OTHER_GROUPS}) g`,
      )
      .execute(db);
    await sql
      .raw(
        `insert into group_members (community_id, group_id, user_id, role)
         select ${cid}, ${gid}, u.id, case when row_number() over (order by u.id) <= 2 then 'chair' else 'member' end from users u where u.email like '%@${code}.bench.invalid'`,
      )
      .execute(db);
    await sql
      .raw(
        `insert into forum_posts (community_id, group_id, author_id, title, body_html, body_text, status, reply_count, created_at, last_activity_at)
         select ${cid}, ${gid}, u.ids[1 + g % ${PEOPLE}], 'Post ' || g || ': how do you plan headcount next year?',
                '<p>We are torn between hiring ahead of the round or waiting. What did you do last year?</p>',
                'We are torn between hiring ahead of the round or waiting. What did you do last year?', 'published', 0,
                now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval
         from generate_series(1, ${size}) g, (select array_agg(id order by id) as ids from users where email like '%@${code}.bench.invalid') u`,
      )
      .execute(db);
    const post = await sql<{ id: number }>`select id from forum_posts where community_id = ${cid} and group_id = ${gid} order by last_activity_at desc limit 1`.execute(db);
    postIds[code] = post.rows[0]!.id;
    await sql
      .raw(
        `insert into forum_replies (community_id, post_id, author_id, body_html, body_text, status)
         select ${cid}, ${postIds[code]}, u.ids[1 + g % ${PEOPLE}], '<p>We hired ahead of the round and it paid off.</p>', 'We hired ahead of the round and it paid off.', 'published'
         from generate_series(1, 10) g, (select array_agg(id order by id) as ids from users where email like '%@${code}.bench.invalid') u`,
      )
      .execute(db);
    await sql.raw(`update forum_posts set reply_count = 10 where id = ${postIds[code]}`).execute(db);
    seedMs[code] = Math.round(performance.now() - t0);
  }
  await sql`analyze`.execute(db);

  const base = benchAppEnv(target, pgliteDir);
  const servers = await serveSizes(db, { env: base, sizes: SIZES, codeOf: (size) => `groups${size}`, emailOf: (code) => `member5@${code}.bench.invalid`, jobWorkers: false, removeDir });
  const sides: Side[] = servers.map((s) => ({ ...s, postId: postIds[s.code]! }));
  process.stdout.write(`GROUPS_READY ${JSON.stringify({ sides, seedMs } satisfies ChildInfo)}\n`);
}

// ---- the bench side: weight ----------------------------------------------------------------------------

type Weight = { key: string; label: string; path: string; status: number; bytes: Bytes; htmlCss: number; files: WeighedFile[]; signedIn: boolean; react: boolean; pageScripts: string[] };

async function weigh(side: Side): Promise<Weight[]> {
  const pages = [
    { key: 'group', label: 'A group  /groups/{slug}', path: `/groups/${SLUG}` },
    { key: 'post', label: 'A post  /groups/{slug}/posts/{id}', path: `/groups/${SLUG}/posts/${side.postId}` },
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
  { key: 'group', label: 'A group  /groups/{slug}', path: () => `/groups/${SLUG}`, load: true },
  { key: 'post', label: 'A post  /groups/{slug}/posts/{id}', path: (s) => `/groups/${SLUG}/posts/${s.postId}`, load: true },
  { key: 'list', label: 'Groups  /groups', path: () => '/groups', load: false },
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

export const groupsModule: BenchModule = {
  name: 'groups',
  scope: 'server',
  describe: `groups, ${SMALL} and ${BIG.toLocaleString('en-US')} posts in a group: page weight signed in, SQL per page, a group and a post under load (p99 flat)`,
  async run(ctx) {
    const server = serverOf(ctx);
    const warnings: string[] = [];
    const { target, drop } = await moduleDatabase(server.backend, 'bench_groups');
    let child: ChildProcess | null = null;
    try {
      const started = await spawnUntilReady<ChildInfo>(SCRIPT, target, 'GROUPS_READY', START_TIMEOUT_MS, 'the groups server');
      child = started.child;
      const info = started.info;
      ctx.log(`  groups: seeded (${Object.entries(info.seedMs).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ')})`);
      const small = info.sides.find((s) => s.size === SMALL)!;
      const big = info.sides.find((s) => s.size === BIG)!;

      let weights: Weight[] = [];
      if (server.first) {
        if (!existsSync(CHROMIUM)) warnings.push(`no Chromium at ${CHROMIUM}: groups page weight not measured`);
        else {
          ctx.log('  groups: page weight in Chromium…');
          weights = await weigh(big);
          for (const w of weights) {
            if (w.status !== 200) warnings.push(`${w.label}: answered ${w.status}`);
            if (!w.signedIn) warnings.push(`${w.label}: did not render signed in`);
            if (w.react || w.pageScripts.length) warnings.push(`${w.label}: scripts of its own (${w.pageScripts.join(', ')}${w.react ? ', React' : ''})`);
          }
        }
      }

      const results = await measureAtSizes({ ctx, name: 'groups', unit: 'posts', sides: [small, big], targets: TARGETS, measure, warnings });
      await stopServer(child);
      child = null;

      const sections: Section[] = [];
      if (weights.length) {
        sections.push({
          key: 'groups-weight',
          title: `Groups page weight in Chromium (signed in as a member of the group; cold cache; encoded body bytes; ${BIG.toLocaleString('en-US')} posts; budget: HTML + CSS at most ${WEIGHT_MAX_BYTES / KIB} KiB, no React)`,
          head: ['page', 'status', 'html', 'css', 'html+css', 'js (shell)', 'img', `≤ ${WEIGHT_MAX_BYTES / KIB} KiB`, 'React'],
          right: [false, true, true, true, true, true, true, false, false],
          rows: weights.map((w) => [w.label, String(w.status), kib(w.bytes.html), kib(w.bytes.css), kib(w.htmlCss), kib(w.bytes.js), kib(w.bytes.img), w.htmlCss <= WEIGHT_MAX_BYTES ? 'pass' : 'over', w.react ? 'yes' : 'no']),
          notes: weights.map((w) => `  ${w.key}: ${w.files.map((f) => `${f.url.replace(/^https?:\/\/[^/]+/, '').replace(/^\/static\/build\//, '')} ${kib(f.bytes)}`).join(', ')}`),
        });
      }
      sections.push(
        flatPagesSection({
          key: 'groups-pages',
          title: `Groups: SQL per page (budget ≤ ${SQL_BUDGET}) and load (${LOAD.connections} connections, ${LOAD.durationSeconds} s; p99 at ${BIG.toLocaleString('en-US')} posts ≤ ${FLAT_FACTOR}x at ${SMALL})`,
          sizeHead: 'posts',
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

serveIfStarted(SCRIPT, serveGroups);
