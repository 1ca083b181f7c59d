// The members' feed (issue 29). A child process of this file seeds two communities with the forum on,
// each with 30 members, a group of ten of them, 20 forum posts (10 of them featured) and 10 featured
// event links, and SMALL (10) or BIG (5,000) announcements (bulk inserts with generate_series): of
// them 3 pinned, one in ten for the group, one in five expired, one in ten scheduled ahead; the
// measured member (in the group) has marked every other one seen. Each is served with a probe app
// (counting SQL) and a load app (production mode). Measured, signed in as that member:
// - SQL statements of the signed-in home page `/` (Server-Timing of the probe app; the session's
//   included): budget at most 5, at both sizes;
// - requests/s and p99 of `/` under autocannon (10 connections), 10 against 5,000 announcements
//   (p99 flat: at most 1.3x);
// - the home page ships no island of the feed's own (only the shell's bell and the relative times).
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ACCEPT_ENCODING, HOST, LOAD, benchAppEnv, cannon, get, isSignedInPage, latencyOf, moduleDatabase, serverOf, sqlQueries, statusCounts, type BenchModule, type Latency, flatPagesSection, measureAtSizes } from './lib.ts';
import { childDatabase, insertBenchCommunity, serveIfStarted, serveSizes, spawnUntilReady, stopServer } from './server.ts';

const SCRIPT = fileURLToPath(import.meta.url);
const SMALL = 10;
const BIG = Number(process.env.BENCH_FEEDS_BIG ?? 5_000);
const SIZES = [SMALL, BIG] as const;
const PEOPLE = 30;
const SQL_BUDGET = 5;
const FLAT_FACTOR = 1.3;
const START_TIMEOUT_MS = 300_000;
/** The islands a signed-in page of the shell carries anyway (Tracker, the insights' page view, is a script without React): the feed adds none. */
const SHELL_ISLANDS = ['NotificationBell', 'RelativeTimes', 'Tracker'];

type Side = { size: number; code: string; probePort: number; loadPort: number; cookie: string };
type ChildInfo = { sides: Side[]; seedMs: Record<string, number> };

// ---- the child: one database, two communities, four apps ---------------------------------------

async function serveFeeds(target: string): Promise<void> {
  const { sql } = await import('kysely');
  const { db, pgliteDir, removeDir } = await childDatabase(target, 'bench-feeds-');
  const seedMs: Record<string, number> = {};
  for (const size of SIZES) {
    const t0 = performance.now();
    const code = `feeds${size}`;
    const cid = await insertBenchCommunity(db, code, `Feeds ${size}`, { forum_enabled: true });
    const people = `select array_agg(id order by id) as ids from users where email like '%@${code}.bench.invalid'`;
    await sql.raw(`insert into users (email, username, first_name, last_name) select 'member' || g || '@${code}.bench.invalid', '${code}-member' || g, 'Member', 'Number ' || g from generate_series(1, ${PEOPLE}) g`).execute(db);
    await sql
      .raw(`insert into memberships (community_id, user_id, roles, gate, company_name, job_title, joined_at) select ${cid}, id, array['MEMBER'], 'app', 'Bench Co', 'Founder', now() - interval '400 days' from users where email like '%@${code}.bench.invalid'`)
      .execute(db);
    const staff = await sql<{ id: number }>`select id from users where email = ${`member1@${code}.bench.invalid`}`.execute(db);
    const staffId = staff.rows[0]!.id;
    await sql.raw(`update memberships set roles = array['ADMIN', 'MEMBER'] where community_id = ${cid} and user_id = ${staffId}`).execute(db);
    const group = await sql<{ id: number }>`insert into groups (community_id, name, slug, about_text, about_html, visibility) values (${cid}, 'Founders', 'founders', 'Founders.', '<p>Founders.</p>', 'private') returning id`.execute(db);
    const gid = group.rows[0]!.id;
    await sql.raw(`insert into group_members (community_id, group_id, user_id, role) select ${cid}, ${gid}, u.ids[g], 'member' from (${people}) u, generate_series(1, 10) g`).execute(db);
    // Forum posts, half of them featured, and event links a month ahead.
    await sql
      .raw(
        `insert into forum_posts (community_id, author_id, title, body_html, body_text, status, reply_count, created_at, last_activity_at)
         select ${cid}, u.ids[1 + g % ${PEOPLE}], 'Post ' || g || ': how do you plan headcount?', '<p>Hiring ahead or waiting?</p>', 'Hiring ahead or waiting?', 'published', 0, now() - (g || ' hours')::interval, now() - (g || ' hours')::interval
         from generate_series(1, 20) g, (${people}) u`,
      )
      .execute(db);
    await sql
      .raw(
        `insert into feed_featured (community_id, kind, item_id, title, pinned, created_by, created_at)
         select ${cid}, 'forum_post', p.id, p.title, p.id % 7 = 0, ${staffId}, now() - (row_number() over (order by p.id) || ' hours')::interval
         from (select id, title from forum_posts where community_id = ${cid} order by id limit 10) p`,
      )
      .execute(db);
    await sql
      .raw(
        `insert into feed_featured (community_id, kind, title, url, event_at, place, ends_at, created_by, created_at)
         select ${cid}, 'event', 'Event ' || g, 'https://example.com/events/' || g, date_trunc('day', now()) + interval '30 days', 'Denver', date_trunc('day', now()) + interval '31 days', ${staffId}, now() - (g || ' minutes')::interval
         from generate_series(1, 10) g`,
      )
      .execute(db);
    // The announcements: 3 pinned, 1 in 10 for the group, 1 in 5 expired, 1 in 10 scheduled ahead.
    await sql
      .raw(
        `insert into feed_announcements (community_id, title, body_html, audience, group_id, pinned, published_at, starts_at, ends_at, created_by, created_at, updated_at)
         select ${cid}, 'Announcement ' || g || ': the programme for next quarter', '<p>Seats are open for the dinner series.</p><ul><li>Austin</li><li>Denver</li></ul>',
                case when g % 10 = 3 then 'group' else 'everyone' end, case when g % 10 = 3 then ${gid} end, g <= 3,
                now() - (g || ' minutes')::interval - interval '1 day',
                case when g % 10 = 7 then now() + interval '7 days' when g % 5 = 1 and g > 3 then now() - interval '30 days' else now() - (g || ' minutes')::interval end,
                case when g % 5 = 1 and g > 3 then now() - interval '1 hour' end,
                ${staffId}, now() - interval '2 days', now() - interval '2 days'
         from generate_series(1, ${size}) g`,
      )
      .execute(db);
    // The measured member (in the group) has seen every other announcement.
    const member = await sql<{ id: number }>`select id from users where email = ${`member5@${code}.bench.invalid`}`.execute(db);
    await sql.raw(`insert into feed_seen (community_id, announcement_id, user_id) select ${cid}, a.id, ${member.rows[0]!.id} from feed_announcements a where a.community_id = ${cid} and a.id % 2 = 0`).execute(db);
    seedMs[code] = Math.round(performance.now() - t0);
  }
  await sql`analyze`.execute(db);

  const base = benchAppEnv(target, pgliteDir);
  const servers = await serveSizes(db, { env: base, sizes: SIZES, codeOf: (size) => `feeds${size}`, emailOf: (code) => `member5@${code}.bench.invalid`, jobWorkers: false, removeDir });
  const sides: Side[] = servers;
  process.stdout.write(`FEEDS_READY ${JSON.stringify({ sides, seedMs } satisfies ChildInfo)}\n`);
}

// ---- the bench side ----------------------------------------------------------------------------------

type Target = { key: string; label: string; path: (s: Side) => string; load: boolean };
const TARGETS: Target[] = [{ key: 'home', label: 'Home, signed in, with the feed  /', path: () => '/', load: true }];

type Measured = { size: number; key: string; label: string; status: number; sql: number | null; requestsPerSecond: number | null; latencyMs: Latency | null; failures: string | null; signedIn: boolean; islands: string[]; feedItems: number };

async function measure(side: Side, target: Target): Promise<Measured> {
  const p = target.path(side);
  const headers = { accept: 'text/html', cookie: side.cookie, 'accept-encoding': ACCEPT_ENCODING };
  await get(side.probePort, p, headers);
  let sql: number | null = null;
  let status = 0;
  let html = '';
  for (let i = 0; i < 3; i++) {
    const r = await get(side.probePort, p, { ...headers, 'accept-encoding': 'identity' });
    status = r.status;
    html = r.body.toString('utf8');
    const n = sqlQueries(r);
    if (n !== null) sql = Math.max(sql ?? 0, n);
  }
  const islands = [...new Set([...html.matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]!))];
  const feedItems = (/<section class="home-feed feed"[\s\S]*?<\/section>/.exec(html)?.[0].match(/<article class="feed-item"/g) ?? []).length;
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
    signedIn: isSignedInPage(html),
    islands,
    feedItems,
  };
}

export const feedsModule: BenchModule = {
  name: 'feeds',
  scope: 'server',
  describe: `the members' feed, ${SMALL} and ${BIG.toLocaleString('en-US')} announcements: the signed-in home page's SQL and p99 under load (flat)`,
  async run(ctx) {
    const server = serverOf(ctx);
    const warnings: string[] = [];
    const { target, drop } = await moduleDatabase(server.backend, 'bench_feeds');
    let child: ChildProcess | null = null;
    try {
      const started = await spawnUntilReady<ChildInfo>(SCRIPT, target, 'FEEDS_READY', START_TIMEOUT_MS, 'the feeds server');
      child = started.child;
      const info = started.info;
      ctx.log(`  feeds: seeded (${Object.entries(info.seedMs).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ')})`);
      const small = info.sides.find((s) => s.size === SMALL)!;
      const big = info.sides.find((s) => s.size === BIG)!;
      const results = await measureAtSizes({ ctx, name: 'feeds', unit: 'announcements', sides: [small, big], targets: TARGETS, measure, warnings });
      await stopServer(child);
      child = null;
      for (const m of results) {
        if (!m.signedIn) warnings.push(`${m.size} announcements: the home page did not render signed in`);
        const own = m.islands.filter((i) => !SHELL_ISLANDS.includes(i));
        if (own.length) warnings.push(`${m.size} announcements: the home page carries islands of its own (${own.join(', ')})`);
        if (m.feedItems === 0) warnings.push(`${m.size} announcements: the feed showed nothing`);
      }
      const section = flatPagesSection({
        key: 'feeds-pages',
        title: `Feeds: the signed-in home page with the member's feed, SQL per request (budget ≤ ${SQL_BUDGET}, the session's included) and load (${LOAD.connections} connections, ${LOAD.durationSeconds} s; p99 at ${BIG.toLocaleString('en-US')} announcements ≤ ${FLAT_FACTOR}x at ${SMALL})`,
        sizeHead: 'announcements',
        results,
        small: SMALL,
        big: BIG,
        sqlBudget: SQL_BUDGET,
        flatFactor: FLAT_FACTOR,
      });
      section.notes = results.map((m) => `  ${m.size.toLocaleString('en-US')} announcements: ${m.feedItems} items in the feed; islands: ${m.islands.join(', ') || 'none'}`);
      return { sections: [section], warnings, data: { seedMs: info.seedMs, results } };
    } finally {
      if (child) await stopServer(child);
      await drop();
    }
  },
};

serveIfStarted(SCRIPT, serveFeeds);
