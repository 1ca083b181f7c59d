// Messages from the community team (issue 28). A child process of this file:
// - sends one message to every member of a community of MEMBERS (default 10,000) through the durable
//   queue (the staff's services, then the messages.send batches, each member's notification, the
//   deliver and mail jobs; one worker process) to a local SMTP sink: messages per second from send to
//   the last mail, and that no member got it twice (mails received = distinct recipients, and one
//   delivered row and one email delivery per member);
// - seeds two more communities whose reader has 100 and 100,000 messages from the team (bulk inserts
//   with generate_series) and serves each with a probe app (counting SQL) and a load app. Measured:
//   page weight of /messages on the wire (HTML + CSS at most 30 KiB, no React), SQL per page of
//   /messages, an older page and a message (at most 5), and p99 under load, 100 against 100,000
//   (flat: at most 1.3x).
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { ACCEPT_ENCODING, CHROMIUM, CHROMIUM_ARGS, HOST, KIB, LOAD, benchAppEnv, cannon, errorMessage, get, isSignedInPage, kib, latencyOf, mailSink, moduleDatabase, serverOf, sqlQueries, type BenchModule, type Latency, type Section, flatPagesSection } from './lib.ts';
import { childDatabase, insertBenchCommunity, serveIfStarted, serveSizes, spawnUntilReady, stopServer } from './server.ts';
import { loadAndWeigh, type Bytes } from './weight.ts';

const SCRIPT = fileURLToPath(import.meta.url);
const MEMBERS = Number(process.env.BENCH_MESSAGES_MEMBERS ?? 10_000);
const SMALL = 100;
const BIG = Number(process.env.BENCH_MESSAGES_BIG ?? 100_000);
const SIZES = [SMALL, BIG] as const;
const WEIGHT_MAX_BYTES = 30 * KIB;
const SQL_BUDGET = 5;
const FLAT_FACTOR = 1.3;
const START_TIMEOUT_MS = 600_000;
const DELIVERY_TIMEOUT_MS = 300_000;

type Side = { size: number; code: string; probePort: number; loadPort: number; cookie: string; messageId: number; olderCursor: string | null };
type Delivery = { members: number; sendMs: number; mailed: number; mails: number; perSecond: number; duplicateRows: number; timedOut: boolean } | { error: string };
type ChildInfo = { sides: Side[]; seedMs: Record<string, number>; delivery: Delivery };

// ---- the child ------------------------------------------------------------------------------------

async function serveMessages(target: string): Promise<void> {
  const [{ buildApp }, { loadConfig }, { sql }, compose, { jobDeps }] = await Promise.all([
    import('#src/app.ts'),
    import('#src/config.ts'),
    import('kysely'),
    import('#src/features/messages/compose.ts'),
    import('#src/features/messages/deps.ts'),
  ]);
  const { db, pgliteDir, removeDir } = await childDatabase(target, 'bench-messages-');
  const base = benchAppEnv(target, pgliteDir);
  const seedMs: Record<string, number> = {};

  // Delivery: MEMBERS members, one staff member, one message to the whole community.
  let delivery: Delivery;
  const t0 = performance.now();
  const sendCode = 'msgsend';
  const sendId = await insertBenchCommunity(db, sendCode, 'Messages send');
  await sql
    .raw(`insert into users (email, username, first_name, last_name) select 'm' || g || '@msgsend.bench.invalid', 'msgsend-m' || g, 'Member', 'N' || g from generate_series(1, ${MEMBERS + 1}) g`)
    .execute(db);
  await sql
    .raw(
      `insert into memberships (community_id, user_id, roles, gate, company_name, job_title)
       select ${sendId}, id, case when email = 'm1@msgsend.bench.invalid' then array['ADMIN','MEMBER'] else array['MEMBER'] end, 'app', 'Bench Co', 'Founder' from users where email like '%@msgsend.bench.invalid'`,
    )
    .execute(db);
  seedMs[sendCode] = Math.round(performance.now() - t0);
  const staff = await db.selectFrom('users').select('id').where('email', '=', 'm1@msgsend.bench.invalid').executeTakeFirstOrThrow();
  let mails = 0;
  const sink = await mailSink(() => {
    mails += 1;
  });
  try {
    const worker = await buildApp({ config: loadConfig({ ...base, DEFAULT_COMMUNITY: sendCode, SMTP_URL: `smtp://${HOST}:${sink.port}` }), db, jobWorkers: true });
    await worker.ready();
    const deps = jobDeps(worker, { id: sendId });
    const viewer = { userId: staff.id, isStaff: true };
    const started = Date.now();
    const id = await compose.createMessage(deps, viewer, { ...compose.blankMessageForm(), subject: 'Bench message', body: 'To every member.', audienceKind: 'community' });
    await compose.sendMessage(deps, viewer, id);
    const deadline = started + DELIVERY_TIMEOUT_MS;
    while (sink.received.size < MEMBERS + 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    await new Promise((r) => setTimeout(r, 1000)); // a late duplicate would land here
    const sendMs = (sink.lastMailAt() || Date.now()) - started;
    await worker.close();
    const dup = await sql<{ n: string }>`select count(*) as n from (select user_id from notification_deliveries where community_id = ${sendId} and channel = 'email' group by user_id, notification_id having count(*) > 1
      union all select r.user_id from message_recipients r join notifications n on n.id = r.notification_id where r.message_id = ${id} group by r.user_id having count(*) > 1) d`.execute(db);
    delivery = { members: MEMBERS + 1, sendMs, mailed: sink.received.size, mails, perSecond: sendMs ? Math.round((sink.received.size / sendMs) * 1000) : 0, duplicateRows: Number(dup.rows[0]?.n ?? 0), timedOut: sink.received.size < MEMBERS + 1 };
  } catch (e) {
    delivery = { error: errorMessage(e) };
  } finally {
    await sink.close();
  }

  // The inbox: a reader with 100 and one with 100,000 messages from the team.
  const ids: Record<string, number> = {};
  for (const size of SIZES) {
    const t1 = performance.now();
    const code = `msgs${size}`;
    const cid = await insertBenchCommunity(db, code, `Messages ${size}`);
    const user = await db.insertInto('users').values({ email: `member@${code}.bench.invalid`, username: `${code}-member`, first_name: 'Amara', last_name: 'Okafor', password_hash: null }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('memberships').values({ community_id: cid, user_id: user.id, roles: ['MEMBER'], gate: 'app', company_name: 'Bench Co', job_title: 'Founder' }).execute();
    await sql
      .raw(
        `insert into team_messages (community_id, sender_id, subject, body_html, audience, audience_count, status, recipients_ready, sent_at, created_at)
         select ${cid}, ${user.id}, 'A message from the team, number ' || g, '<p>Two short paragraphs of news for members.</p><p>And a second one.</p>', '{"kind":"community"}', 1, 'SENT', true,
                now() - (${size} - g) * interval '1 minute', now() - (${size} - g) * interval '1 minute' from generate_series(1, ${size}) g`,
      )
      .execute(db);
    await sql
      .raw(
        `insert into message_recipients (community_id, message_id, user_id, state, delivered_at, read_at)
         select ${cid}, id, ${user.id}, 'delivered', sent_at, case when id % 3 = 0 then null else sent_at end from team_messages where community_id = ${cid}`,
      )
      .execute(db);
    const last = await sql<{ id: number }>`select id from team_messages where community_id = ${cid} order by id desc limit 1`.execute(db);
    ids[code] = last.rows[0]!.id;
    seedMs[code] = Math.round(performance.now() - t1);
  }
  await sql`analyze`.execute(db);

  const servers = await serveSizes(db, { env: { ...base, JOB_WORKERS: 'false' }, sizes: SIZES, codeOf: (size) => `msgs${size}`, emailOf: (code) => `member@${code}.bench.invalid`, jobWorkers: false, removeDir });
  const sides: Side[] = [];
  for (const s of servers) {
    const first = (await get(s.probePort, '/messages', { accept: 'text/html', cookie: s.cookie })).body.toString('utf8');
    const olderCursor = /href="\/messages\?after=([^"]+)" rel="next"/.exec(first)?.[1] ?? null;
    sides.push({ ...s, messageId: ids[s.code]!, olderCursor });
  }
  process.stdout.write(`MESSAGES_READY ${JSON.stringify({ sides, seedMs, delivery } satisfies ChildInfo)}\n`);
}

// ---- the bench side ----------------------------------------------------------------------------------

type Weight = { label: string; status: number; bytes: Bytes; htmlCss: number; signedIn: boolean; react: boolean };

async function weigh(side: Side): Promise<Weight[]> {
  const pages = [
    { label: 'From the team  /messages', path: '/messages' },
    { label: 'A message  /messages/team/{id}', path: `/messages/team/${side.messageId}` },
  ];
  const [name, ...rest] = side.cookie.split('=');
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const weights: Weight[] = [];
  try {
    for (const p of pages) {
      // Two cold contexts: the first warms the server, the second is weighed (cold cache, encoded bytes).
      for (let i = 0; i < 2; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        await context.addCookies([{ name: name!, value: rest.join('='), domain: HOST, path: '/', httpOnly: true, sameSite: 'Lax' }]);
        try {
          const page = await context.newPage();
          const w = await loadAndWeigh(page, `http://${HOST}:${side.probePort}${p.path}`);
          if (i === 0) continue;
          const text = (await get(side.probePort, p.path, { accept: 'text/html', cookie: side.cookie })).body.toString('utf8');
          weights.push({ label: p.label, status: w.status, bytes: w.bytes, htmlCss: w.bytes.html + w.bytes.css, signedIn: isSignedInPage(text), react: w.files.some((f) => f.kind === 'js' && /react/i.test(f.url)) });
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

type Target = { key: string; label: string; path: (s: Side) => string | null; load: boolean };
const TARGETS: Target[] = [
  { key: 'inbox', label: 'From the team  /messages', path: () => '/messages', load: true },
  { key: 'older', label: 'An older page  /messages?after=…', path: (s) => (s.olderCursor ? `/messages?after=${s.olderCursor}` : null), load: false },
  { key: 'message', label: 'A message  /messages/team/{id}', path: (s) => `/messages/team/${s.messageId}`, load: true },
];

type Measured = { size: number; key: string; label: string; status: number; sql: number | null; requestsPerSecond: number | null; latencyMs: Latency | null };

async function measure(side: Side, target: Target): Promise<Measured | null> {
  const p = target.path(side);
  if (!p) return null;
  const headers = { accept: 'text/html', cookie: side.cookie, 'accept-encoding': ACCEPT_ENCODING };
  let sql: number | null = null;
  let status = 0;
  for (let i = 0; i < 3; i++) {
    const r = await get(side.probePort, p, headers);
    status = r.status;
    const n = sqlQueries(r);
    if (n !== null) sql = Math.max(sql ?? 0, n);
  }
  if (!target.load) return { size: side.size, key: target.key, label: target.label, status, sql, requestsPerSecond: null, latencyMs: null };
  const url = `http://${HOST}:${side.loadPort}${p}`;
  await cannon(url, LOAD.warmupSeconds, headers);
  const r = await cannon(url, LOAD.durationSeconds, headers);
  return { size: side.size, key: target.key, label: target.label, status, sql, requestsPerSecond: Math.round(r.requests.average), latencyMs: latencyOf(r) };
}

export const messagesModule: BenchModule = {
  name: 'messages',
  scope: 'server',
  describe: `messages from the team: one message to ${MEMBERS.toLocaleString('en-US')} members through the queue to an SMTP sink (no one twice); /messages at ${SMALL} and ${BIG.toLocaleString('en-US')} messages (weight, SQL, p99 flat)`,
  async run(ctx) {
    const server = serverOf(ctx);
    const warnings: string[] = [];
    const { target, drop } = await moduleDatabase(server.backend, 'bench_messages');
    let child: ChildProcess | null = null;
    try {
      const started = await spawnUntilReady<ChildInfo>(SCRIPT, target, 'MESSAGES_READY', START_TIMEOUT_MS, 'the messages server');
      child = started.child;
      const info = started.info;
      ctx.log(`  messages: seeded and sent (${Object.entries(info.seedMs).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ')})`);
      const d = info.delivery;
      if ('error' in d) warnings.push(`delivery failed: ${d.error}`);
      else {
        if (d.timedOut) warnings.push(`delivery: ${d.mailed} of ${d.members} mailed before the timeout`);
        if (d.mails !== d.mailed || d.duplicateRows) warnings.push(`delivery: someone got the message twice (${d.mails} mails to ${d.mailed} addresses; ${d.duplicateRows} duplicate rows)`);
      }
      const small = info.sides.find((s) => s.size === SMALL)!;
      const big = info.sides.find((s) => s.size === BIG)!;
      let weights: Weight[] = [];
      if (server.first && existsSync(CHROMIUM)) {
        weights = await weigh(big);
        for (const w of weights) {
          if (w.status !== 200 || !w.signedIn) warnings.push(`${w.label}: answered ${w.status}${w.signedIn ? '' : ', not signed in'}`);
          if (w.react) warnings.push(`${w.label}: loads React`);
          if (w.htmlCss > WEIGHT_MAX_BYTES) warnings.push(`${w.label}: HTML + CSS ${kib(w.htmlCss)} over ${WEIGHT_MAX_BYTES / KIB} KiB`);
        }
      }
      const results: Measured[] = [];
      for (const t of TARGETS) {
        for (const side of [small, big]) {
          ctx.log(`  messages: ${side.size.toLocaleString('en-US')} messages, ${t.label}…`);
          const m = await measure(side, t);
          if (!m) continue;
          if (m.status !== 200) warnings.push(`${side.size} messages, ${t.label}: answered ${m.status}`);
          if (m.sql !== null && m.sql > SQL_BUDGET) warnings.push(`${side.size} messages, ${t.label}: ${m.sql} SQL statements`);
          results.push(m);
        }
      }
      await stopServer(child);
      child = null;

      const sections: Section[] = [];
      if (!('error' in d)) {
        sections.push({
          key: 'messages-delivery',
          title: `A message to every member of a community of ${d.members.toLocaleString('en-US')} (the staff's send, the messages.send batches, each notification, the deliver and mail jobs; one worker process) to a local SMTP sink`,
          head: ['members', 'mailed', 'mails', 'send → last mail', 'messages/s', 'no one twice'],
          right: [true, true, true, true, true, false],
          rows: [[d.members.toLocaleString('en-US'), String(d.mailed), String(d.mails), `${(d.sendMs / 1000).toFixed(1)} s`, String(d.perSecond), d.mails === d.mailed && !d.duplicateRows ? 'pass' : 'FAIL']],
        });
      }
      if (weights.length) {
        sections.push({
          key: 'messages-weight',
          title: `Messages page weight in Chromium (signed in; ${BIG.toLocaleString('en-US')} messages; budget: HTML + CSS ≤ ${WEIGHT_MAX_BYTES / KIB} KiB, no React)`,
          head: ['page', 'status', 'html', 'css', 'html+css', `≤ ${WEIGHT_MAX_BYTES / KIB} KiB`, 'React'],
          right: [false, true, true, true, true, false, false],
          rows: weights.map((w) => [w.label, String(w.status), kib(w.bytes.html), kib(w.bytes.css), kib(w.htmlCss), w.htmlCss <= WEIGHT_MAX_BYTES ? 'pass' : 'over', w.react ? 'yes' : 'no']),
        });
      }
      sections.push(
        flatPagesSection({
          key: 'messages-pages',
          title: `Messages: SQL per page (≤ ${SQL_BUDGET}) and load (${LOAD.connections} connections, ${LOAD.durationSeconds} s; p99 at ${BIG.toLocaleString('en-US')} ≤ ${FLAT_FACTOR}x at ${SMALL})`,
          sizeHead: 'messages',
          results,
          small: SMALL,
          big: BIG,
          sqlBudget: SQL_BUDGET,
          flatFactor: FLAT_FACTOR,
        }),
      );
      return { sections, warnings, data: { seedMs: info.seedMs, delivery: d, weights, results } };
    } finally {
      if (child) await stopServer(child);
      await drop();
    }
  },
};

serveIfStarted(SCRIPT, serveMessages);
