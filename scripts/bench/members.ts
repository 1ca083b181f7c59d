// The member directory at scale (issue 11): one community of 100 members and one of 10,000 (bulk
// inserted with generate_series), served by a child process of this file (production mode; a probe
// app per community counting SQL statements, a load app per community for the figures). Measured per
// community: the directory's first page, two searches (a misspelt company: the trigram path; a last
// name: the full-text path), on 10,000 the 50th page (reached by following the pages' next links), and
// the profile page when the profile area exists. Requests/s, p50/p99, SQL statements per request, and
// p99 at 10,000 against p99 at 100 (target: at most 1.3x, at most 5 statements).
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  HOST,
  benchAppEnv,
  moduleDatabase,
  LOAD,
  cannon,
  errorMessage,
  get,
  latencyOf,
  serverOf,
  sqlQueries,
  statusCounts,
  type BenchModule,
  type Latency,
  type Section,
  sqlArray,
} from './lib.ts';
import { childDatabase, insertBenchCommunity, serveIfStarted, serveSizes, spawnUntilReady, stopServer } from './server.ts';

const SCRIPT = fileURLToPath(import.meta.url);
const SIZES = [100, 10_000] as const;
const PAGE_50 = 50;
/** The p99 at 10,000 members may be at most this many times the p99 at 100. */
const FLAT_FACTOR = 1.3;
const SQL_BUDGET = 5;
const START_TIMEOUT_MS = 180_000;

/** What the child prints when it is ready: per community size, its apps' ports and a member's session. */
type Side = { size: number; probePort: number; loadPort: number; cookie: string; profileId: number; surname: string };
type ChildInfo = { sides: Side[]; seedMs: Record<string, number> };

// ---- the child: a database with the two communities, four apps -----------------------------------

const FIRST = ['Amara', 'Daniel', 'Priya', 'Marcus', 'Sofia', 'Kwame', 'Hannah', 'Ethan', 'Isabel', 'Jonah', 'Leila', 'Owen', 'Mei', 'Tobias', 'Rosa', 'Liam', 'Aisha', 'Noah', 'Grace', 'Mateo', 'Zoe', 'Omar', 'Nadia', 'Lucas', 'Elena', 'Farid', 'Julia', 'Kofi', 'Laura', 'Raj'];
const LAST_A = ['Al', 'Bar', 'Cal', 'Dan', 'Ell', 'Fer', 'Gal', 'Har', 'Ives', 'Jor', 'Kel', 'Lind', 'Mar', 'Nor', 'Ok', 'Pel', 'Quin', 'Ros', 'Sand', 'Tor', 'Ul', 'Vand', 'Wes', 'Yor', 'Zel'];
const LAST_B = ['ton', 'berg', 'ford', 'ley', 'man', 'son', 'wood', 'field', 'stein', 'ano', 'ez', 'ova', 'ski', 'well', 'ridge', 'more', 'dale', 'ham', 'quist', 'ari'];
const CO_A = ['Blue', 'North', 'Iron', 'Cedar', 'Summit', 'Harbor', 'Bright', 'Silver', 'Granite', 'Prairie', 'Coastal', 'Pioneer', 'Keystone', 'Evergreen', 'Redwood', 'Atlas', 'Beacon', 'Crescent', 'Delta', 'Falcon'];
const CO_B = ['Analytics', 'Logistics', 'Health', 'Capital', 'Hospitality', 'Energy', 'Legal', 'Robotics', 'Realty', 'Manufacturing', 'Design', 'Advisors', 'Software', 'Mobility', 'Foods', 'Studios', 'Learning', 'Apparel', 'Labs', 'Partners'];
const INDUSTRIES = ['Software', 'Healthcare', 'Finance', 'Manufacturing', 'Hospitality', 'Real Estate', 'Energy', 'Legal', 'Education', 'Retail', 'Logistics', 'Media'];
const CITIES = ['Austin, TX', 'Chicago, IL', 'Boston, MA', 'New York, NY', 'Miami, FL', 'Denver, CO', 'Philadelphia, PA', 'Seattle, WA', 'San Diego, CA', 'Pittsburgh, PA', 'Detroit, MI', 'Nashville, TN', 'San Francisco, CA', 'Atlanta, GA', 'Houston, TX', 'Phoenix, AZ', 'Portland, OR', 'Minneapolis, MN', 'Charlotte, NC', 'Dallas, TX'];
const TITLES = ['Chief Executive Officer', 'Founder', 'Co-Founder', 'President', 'Chief Operating Officer', 'Managing Partner', 'Chief Technology Officer', 'Chief Financial Officer', 'Managing Director', 'VP of Engineering'];


async function serveMembers(target: string): Promise<void> {
  const { sql } = await import('kysely');
  const { db, pgliteDir, removeDir } = await childDatabase(target, 'bench-members-');

  const seedMs: Record<string, number> = {};
  for (const size of SIZES) {
    const t0 = performance.now();
    const code = `members${size}`;
    const cid = await insertBenchCommunity(db, code, `${size} Members`);
    // One statement each: the users, then their memberships (the trigger fills the search columns).
    await sql
      .raw(
        `insert into users (email, username, first_name, last_name, password_hash)
         select 'm' || g || '@${code}.bench.invalid', '${code}-' || g,
                (${sqlArray(FIRST)})[1 + g % ${FIRST.length}],
                (${sqlArray(LAST_A)})[1 + (g * 7) % ${LAST_A.length}] || (${sqlArray(LAST_B)})[1 + (g / ${LAST_A.length}) % ${LAST_B.length}],
                null
         from generate_series(1, ${size}) g`,
      )
      .execute(db);
    await sql
      .raw(
        `insert into memberships (community_id, user_id, roles, gate, company_name, job_title, location_name, location_familiar_name, industry, company_employee_count, is_founding, joined_at)
         select ${cid}, u.id, array['MEMBER']::text[], 'app',
                case when g = 1 then 'Lumen Analytics' else (${sqlArray(CO_A)})[1 + (g * 3) % ${CO_A.length}] || ' ' || (${sqlArray(CO_B)})[1 + (g / 3) % ${CO_B.length}] end,
                (${sqlArray(TITLES)})[1 + g % ${TITLES.length}],
                (${sqlArray(CITIES)})[1 + (g * 11) % ${CITIES.length}],
                split_part((${sqlArray(CITIES)})[1 + (g * 11) % ${CITIES.length}], ',', 1),
                (${sqlArray(INDUSTRIES)})[1 + (g * 5) % ${INDUSTRIES.length}],
                1 + (g * 37) % 3000,
                g % 9 = 0,
                now() - (g % 730) * interval '1 day'
         from users u, lateral (select split_part(split_part(u.email, '@', 1), 'm', 2)::int as g) s
         where u.email like '%@${code}.bench.invalid'`,
      )
      .execute(db);
    seedMs[code] = Math.round(performance.now() - t0);
  }
  await sql`analyze`.execute(db);

  const base = benchAppEnv(target, pgliteDir);
  const servers = await serveSizes(db, { env: base, sizes: SIZES, codeOf: (size) => `members${size}`, emailOf: (code) => `m1@${code}.bench.invalid`, removeDir });
  const sides: Side[] = [];
  for (const s of servers) {
    const other = await db.selectFrom('users').select(['id', 'last_name']).where('email', '=', `m2@${s.code}.bench.invalid`).executeTakeFirstOrThrow();
    sides.push({ size: s.size, probePort: s.probePort, loadPort: s.loadPort, cookie: s.cookie, profileId: other.id, surname: other.last_name });
  }
  process.stdout.write(`MEMBERS_READY ${JSON.stringify({ sides, seedMs } satisfies ChildInfo)}\n`);
}

function startChild(target: string): Promise<{ child: ChildProcess; info: ChildInfo }> {
  return spawnUntilReady<ChildInfo>(SCRIPT, target, 'MEMBERS_READY', START_TIMEOUT_MS, 'the members server');
}

// ---- the bench side ------------------------------------------------------------------------------

type Target = { key: string; label: string; path: string };
type Measured = {
  size: number;
  key: string;
  label: string;
  path: string;
  status: number;
  /** SQL statements of a steady request (the second of two), from the probe's Server-Timing. */
  sql: number | null;
  /** Members the page shows (profile links), a check that it measured a real page. */
  shown: number;
  requestsPerSecond: number | null;
  latencyMs: Latency | null;
  failures: string | null;
  skipped?: string;
};

const shownOn = (html: string) => (html.match(/<a href="\/profile\/\d+">/g) ?? []).length;
const nextLink = (html: string) => /<a href="([^"]+)" rel="next"/.exec(html)?.[1]?.replace(/&amp;/g, '&') ?? null;

/** The address of the 50th page, reached as a member does: following the next links from /members. */
async function fiftiethPage(side: Side): Promise<{ path: string | null; sqlPerPage: number[] }> {
  let url: string | null = '/members';
  const sqlPerPage: number[] = [];
  for (let n = 1; url && n <= PAGE_50; n++) {
    if (n === PAGE_50) return { path: url, sqlPerPage };
    const res = await get(side.probePort, url, { accept: 'text/html', cookie: side.cookie });
    sqlPerPage.push(sqlQueries(res) ?? -1);
    url = nextLink(res.body.toString('utf8'));
  }
  return { path: null, sqlPerPage };
}

async function measure(side: Side, target: Target): Promise<Measured> {
  const headers = { accept: 'text/html', cookie: side.cookie };
  await get(side.probePort, target.path, headers);
  const probe = await get(side.probePort, target.path, headers);
  const base = { size: side.size, key: target.key, label: target.label, path: target.path, status: probe.status, sql: sqlQueries(probe), shown: shownOn(probe.body.toString('utf8')) };
  if (probe.status === 404 && target.key === 'profile') return { ...base, requestsPerSecond: null, latencyMs: null, failures: null, skipped: 'no profile page in this build (404)' };
  const url = `http://${HOST}:${side.loadPort}${target.path}`;
  await cannon(url, LOAD.warmupSeconds, headers);
  const r = await cannon(url, LOAD.durationSeconds, headers);
  const bad = r.non2xx + r.errors + r.timeouts;
  return {
    ...base,
    requestsPerSecond: Math.round(r.requests.average),
    latencyMs: latencyOf(r),
    failures: bad ? `${r.non2xx} non-2xx (${JSON.stringify(statusCounts(r))}), ${r.errors} errors, ${r.timeouts} timeouts` : null,
  };
}

async function runAgainst(target: string, log: (s: string) => void): Promise<{ results: Measured[]; seedMs: Record<string, number>; pageWalkSql: number[]; warnings: string[] }> {
  const { child, info } = await startChild(target);
  const warnings: string[] = [];
  try {
    log(`  members: communities seeded (${Object.entries(info.seedMs).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ')})`);
    const results: Measured[] = [];
    let pageWalkSql: number[] = [];
    const targetsOf = new Map<Side, Target[]>();
    for (const side of info.sides) {
      const targets: Target[] = [
        { key: 'first', label: 'Directory, first page  /members', path: '/members' },
        { key: 'search-typo', label: 'Search, misspelt company  ?q=Lumen Analitics', path: '/members/results?q=Lumen+Analitics' },
        { key: 'search-name', label: 'Search, a last name', path: `/members/results?q=${encodeURIComponent(side.surname)}` },
        { key: 'search-filtered', label: 'Search + filters  ?q=software&location=Austin, TX', path: `/members/results?q=software&location=${encodeURIComponent('Austin, TX')}` },
      ];
      if (side.size >= PAGE_50 * 24) {
        const walk = await fiftiethPage(side);
        pageWalkSql = walk.sqlPerPage;
        if (walk.path) targets.push({ key: 'page-50', label: `Directory, page ${PAGE_50} (followed next links)`, path: walk.path });
        else warnings.push(`${side.size}: the next links ended before page ${PAGE_50}`);
      }
      targets.push({ key: 'profile', label: 'Profile  /profile/{id}', path: `/profile/${side.profileId}` });
      targetsOf.set(side, targets);
      // Both apps warm (React's renderer, the statements PostgreSQL prepares) before anything is measured.
      for (const t of targets) await cannon(`http://${HOST}:${side.loadPort}${t.path}`, 1, { accept: 'text/html', cookie: side.cookie });
    }
    // Target by target, the 100 and the 10,000 one after the other: a slower minute of the machine
    // touches both sizes of a comparison alike.
    const keys = [...new Set([...targetsOf.values()].flat().map((t) => t.key))];
    for (const key of keys) {
      for (const side of info.sides) {
        const t = targetsOf.get(side)!.find((x) => x.key === key);
        if (!t) continue;
        log(`  members: ${side.size} members, ${t.label}…`);
        const m = await measure(side, t);
        if (!m.skipped && m.status !== 200) warnings.push(`${side.size} members, ${t.label}: answered ${m.status}`);
        if (m.failures) warnings.push(`${side.size} members, ${t.label}: ${m.failures}`);
        results.push(m);
      }
    }
    return { results, seedMs: info.seedMs, pageWalkSql, warnings };
  } finally {
    await stopServer(child);
  }
}

export const membersModule: BenchModule = {
  name: 'members',
  scope: 'server',
  describe: `member directory with ${SIZES.join(' and ')} members: first page, searches, page ${PAGE_50}, profile (${LOAD.warmupSeconds} s warm-up + ${LOAD.durationSeconds} s each)`,
  async run(ctx) {
    const server = serverOf(ctx);
    const { target, drop } = await moduleDatabase(server.backend, 'bench_members');
    try {
      const { results, seedMs, pageWalkSql, warnings } = await runAgainst(target, ctx.log);
      const rows = results.map((m) => [
        m.size.toLocaleString('en-US'),
        m.label,
        m.skipped ? 'skipped' : String(m.requestsPerSecond),
        m.latencyMs ? String(m.latencyMs.p50) : '-',
        m.latencyMs ? String(m.latencyMs.p99) : '-',
        m.sql === null ? '?' : String(m.sql),
        String(m.shown),
        m.skipped ?? m.failures ?? 'none',
      ]);
      const compare: string[][] = [];
      for (const key of ['first', 'search-typo', 'search-name', 'search-filtered', 'profile']) {
        const small = results.find((m) => m.size === SIZES[0] && m.key === key);
        const big = results.find((m) => m.size === SIZES[1] && m.key === key);
        if (!small?.latencyMs || !big?.latencyMs) continue;
        const ratio = big.latencyMs.p99 / Math.max(small.latencyMs.p99, 1);
        const sqlOk = (small.sql ?? 99) <= SQL_BUDGET && (big.sql ?? 99) <= SQL_BUDGET;
        compare.push([small.label, String(small.latencyMs.p99), String(big.latencyMs.p99), ratio.toFixed(2), ratio <= FLAT_FACTOR ? 'pass' : 'over', `${small.sql} / ${big.sql}`, sqlOk ? 'pass' : 'over']);
      }
      const page50 = results.find((m) => m.key === 'page-50');
      const firstBig = results.find((m) => m.key === 'first' && m.size === SIZES[1]);
      if (page50?.latencyMs && firstBig?.latencyMs) {
        const ratio = page50.latencyMs.p99 / Math.max(firstBig.latencyMs.p99, 1);
        compare.push([`Page ${PAGE_50} vs first page (10,000)`, String(firstBig.latencyMs.p99), String(page50.latencyMs.p99), ratio.toFixed(2), ratio <= FLAT_FACTOR ? 'pass' : 'over', `${firstBig.sql} / ${page50.sql}`, (page50.sql ?? 99) <= SQL_BUDGET ? 'pass' : 'over']);
      }
      const sections: Section[] = [
        {
          key: 'members',
          title: `Member directory (production mode; ${LOAD.connections} connections, ${LOAD.warmupSeconds} s warm-up then ${LOAD.durationSeconds} s per target; SQL from the probe app's Server-Timing)`,
          head: ['members', 'target', 'req/s', 'p50 ms', 'p99 ms', 'SQL', 'shown', 'failures'],
          rows,
          right: [true, false, true, true, true, true, true, false],
          notes: [
            `  Seeding with generate_series: ${Object.entries(seedMs).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ')}.`,
            pageWalkSql.length ? `  SQL per page while following the next links to page ${PAGE_50}: min ${Math.min(...pageWalkSql)}, max ${Math.max(...pageWalkSql)}.` : '',
          ].filter(Boolean),
        },
        {
          key: 'members-flat',
          title: `Flat from ${SIZES[0]} to ${SIZES[1].toLocaleString('en-US')} members (p99 at 10,000 at most ${FLAT_FACTOR}x p99 at 100; at most ${SQL_BUDGET} SQL statements at both sizes; a search takes a third statement when the full-text matches do not fill the page and the typo tier runs)`,
          head: ['target', `p99 ${SIZES[0]}`, `p99 ${SIZES[1]}`, 'ratio', 'p99', 'SQL', 'SQL'],
          rows: compare,
          right: [false, true, true, true, false, true, false],
        },
      ];
      return { data: { results, seedMs, pageWalkSql }, warnings, sections };
    } catch (e) {
      throw new Error(`members bench: ${errorMessage(e)}`);
    } finally {
      await drop();
    }
  },
};

serveIfStarted(SCRIPT, serveMembers);
