// Expert panels (issue 15). A child process of this file seeds, with generate_series, three
// communities on one database:
// - `ep10`: a panel of 10 members, one sent batch of 10 questions: 100 answers;
// - `ep1000`: a panel of 10 members, 100 sent batches of 10 questions: 1,000 open questions and
//   10,000 answers in every state (open, can't answer, ignored, in review, accepted, declined; the
//   accepted answers of 20 questions published in roundups);
// - `epinvite`: a panel of 5,000 members and a draft batch of 3 questions.
// Measured:
// - page weight on the wire (Chromium, cold cache, encoded bytes) of the questions page and of an open
//   question's page, signed in as a panel member of `ep1000` (budgets: the product's, JS ≤ 100 KiB,
//   HTML + CSS ≤ 30 KiB);
// - SQL statements per request (the probe app's Server-Timing; budget ≤ 5) and requests/s with p50/p99
//   (autocannon, 10 connections) of the questions page (open and published tabs) and a question page,
//   at 100 answers and at 10,000;
// - the invitations: the batch of `epinvite` sent by the editors' service (its answer rows and the
//   invitation job in one transaction), then the durable queue (the invitation job, each member's
//   notification, the deliver job, the mail job) to a local SMTP sink: invitations per second from the
//   send to the last mail received, and each member's delay.
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import {
  BUDGETS,
  HOST,
  LOAD,
  benchAppEnv,
  cannon,
  errorMessage,
  get,
  isSignedInPage,
  kib,
  latencyOf,
  moduleDatabase,
  percentile,
  serverOf,
  sqlQueries,
  statusCounts,
  type BenchModule,
  type Latency,
  type Section,
} from './lib.ts';
import { childDatabase, exitWithParent, insertBenchCommunity, listenProbeAndLoad, serveIfStarted, spawnUntilReady, stopServer } from './server.ts';
import { loadAndWeigh, type Bytes, type WeighedFile } from './weight.ts';

const SCRIPT = fileURLToPath(import.meta.url);
/** The panels of the page communities: members each, questions per batch. */
const PANEL_MEMBERS = 10;
const PER_BATCH = 10;
const SIZES = [10, Number(process.env.BENCH_EP_QUESTIONS ?? 1_000)] as const;
const INVITE_MEMBERS = Number(process.env.BENCH_EP_INVITE_MEMBERS ?? 5_000);
const INVITE_QUESTIONS = 3;
const PUBLISHED_QUESTIONS = 20;
const SQL_BUDGET = 5;
const DELIVERY_TIMEOUT_MS = 300_000;
const START_TIMEOUT_MS = 600_000;
const ACCEPT_ENCODING = 'gzip, deflate, br';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

type Side = { questions: number; answers: number; openOfMember: number; code: string; probePort: number; loadPort: number; cookie: string; openQuestion: number };
type Delivery = {
  members: number;
  answerRows: number;
  sendMs: number;
  /** From the send until the invitation job had made every member's notification. */
  toldMs: number | null;
  mailed: number;
  firstToLastMs: number;
  perSecond: number;
  delayMs: { p50: number; p90: number; p99: number; max: number } | null;
  timedOut: boolean;
  linksSigned: number;
};
type ChildInfo = { sides: Side[]; seedMs: Record<string, number>; delivery: Delivery | { error: string } };

// ---- the child -----------------------------------------------------------------------------------

const WORDS =
  'pricing margin retention churn onboarding referral pipeline hiring culture remote team budget forecast runway investor board advisor customer segment positioning brand launch partner channel vendor contract negotiation cash flow invoice payroll benefits equity founder operator growth experiment metric dashboard quarter roadmap feature support service quality process playbook handbook mentor network conference community newsletter content podcast webinar sponsor outreach discount bundle upsell renewal subscription annual monthly tier premium value trust review feedback survey interview story lesson mistake win risk compliance insurance legal audit office lease supplier inventory logistics'.split(
    ' ',
  );
const sqlArray = (values: string[]) => `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]`;
const words = (seed: string, count: number, salt: number) =>
  `array_to_string(array(select (${sqlArray(WORDS)})[1 + ((${seed}) * ${salt} + i * ${salt + 6}) % ${WORDS.length}] from generate_series(1, ${count}) i), ' ')`;

/** The members of a bench community: `m{g}@{code}.bench.invalid`, joined long ago. */
async function seedMembers(db: import('#src/db/index.ts').Db, cid: number, code: string, count: number): Promise<void> {
  const { sql } = await import('kysely');
  await sql
    .raw(
      `insert into users (email, username, first_name, last_name, password_hash)
       select 'm' || g || '@${code}.bench.invalid', '${code}-' || g, (${sqlArray(['Amara', 'Daniel', 'Priya', 'Marcus', 'Sofia', 'Kwame', 'Hannah', 'Ethan'])})[1 + g % 8],
              (${sqlArray(['Okafor', 'Reyes', 'Shah', 'Lindqvist', 'Moreau', 'Mensah', 'Becker', 'Novak', 'Tanaka'])})[1 + g % 9], null
       from generate_series(1, ${count}) g`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into memberships (community_id, user_id, roles, gate, company_name, job_title, joined_at)
       select ${cid}, u.id, array['MEMBER']::text[], 'app', 'Bench Studio ' || u.id, 'Founder', now() - interval '400 days'
       from users u where u.email like '%@${code}.bench.invalid'`,
    )
    .execute(db);
}

/** A page community: one panel of PANEL_MEMBERS, `questions` open questions in sent batches, an answer row per question and member. */
async function seedPageCommunity(db: import('#src/db/index.ts').RawDb, code: string, questions: number): Promise<{ cid: number; openQuestion: number }> {
  const { sql } = await import('kysely');
  const cid = await insertBenchCommunity(db, code, `Panels ${questions}`);
  await seedMembers(db, cid, code, PANEL_MEMBERS);
  const panel = await sql<{ id: number }>`insert into ep_panels (community_id, name, topic, min_words, max_words)
    values (${cid}, 'Growth', 'Pricing, retention and the first hires', 50, 300) returning id`.execute(db);
  const pid = panel.rows[0]!.id;
  await sql.raw(`insert into ep_panel_members (panel_id, user_id, community_id) select ${pid}, u.id, ${cid} from users u where u.email like '%@${code}.bench.invalid'`).execute(db);
  const batches = Math.ceil(questions / PER_BATCH);
  // Batches sent an hour apart, the newest last; deadlines from 30 days on.
  await sql
    .raw(
      `insert into ep_batches (community_id, panel_id, title, deadline_at, status, sent_at, created_at)
       select ${cid}, ${pid}, 'Batch ' || g || ': ' || initcap(${words('g', 3, 5)}), now() + interval '30 days' + g * interval '1 hour', 'sent',
              now() - (${batches} - g + 1) * interval '1 hour', now() - (${batches} - g + 2) * interval '1 hour'
       from generate_series(1, ${batches}) g`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into ep_questions (community_id, batch_id, panel_id, title, brief_html, guidelines_html, position, created_at)
       select ${cid}, b.id, ${pid}, initcap(${words('b.id * 10 + k', 9, 7)}) || '?',
              '<p>' || initcap(${words('b.id * 10 + k', 45, 11)}) || '.</p><p>' || initcap(${words('b.id * 10 + k', 30, 13)}) || '.</p>',
              '<ul><li>Give one concrete example from your own business.</li><li>Keep to one idea; numbers help.</li><li>No promotion or links to your site.</li></ul>',
              k, b.created_at
       from ep_batches b, generate_series(1, ${PER_BATCH}) k
       where b.community_id = ${cid}`,
    )
    .execute(db);
  // Every question to every panel member, in every state: 12 of 20 open, 1 can't answer, 1 ignored,
  // 3 in review, 2 accepted, 1 declined; the answered ones about 120 words.
  await sql
    .raw(
      `insert into ep_answers (community_id, question_id, user_id, status, body_html, body_text, word_count, submitted_at, decided_at, decision_note, sent_at, invited_at, status_at)
       select ${cid}, q.id, u.id, s.status,
              case when s.answered then '<p>' || initcap(t.p1) || '.</p><p>' || initcap(t.p2) || '.</p>' else '' end,
              case when s.answered then initcap(t.p1) || E'.\\n\\n' || initcap(t.p2) || '.' else '' end,
              case when s.answered then 120 else 0 end,
              case when s.answered then b.sent_at + interval '20 minutes' end,
              case when s.status in ('accepted', 'declined') then b.sent_at + interval '40 minutes' end,
              case when s.status = 'declined' then 'Thank you: we chose answers with a worked example this time.' end,
              b.sent_at, b.sent_at, b.sent_at
       from ep_questions q join ep_batches b on b.id = q.batch_id, users u,
            lateral (select case when h < 12 then 'open' when h = 12 then 'cant_answer' when h = 13 then 'ignored' when h < 17 then 'submitted' when h < 19 then 'accepted' else 'declined' end as status,
                            h >= 14 as answered
                     from (select (q.id * 7 + u.id * 3) % 20 as h) x) s,
            lateral (select ${words('q.id + u.id', 60, 17)} as p1, ${words('q.id * 3 + u.id', 60, 19)} as p2) t
       where q.community_id = ${cid} and u.email like '%@${code}.bench.invalid'`,
    )
    .execute(db);
  // Roundups: the accepted answers of the first questions, published.
  await sql
    .raw(
      `insert into ep_roundups (community_id, question_id, title, intro_html, status, slug, published_at, created_at, updated_at)
       select ${cid}, q.id, 'Roundup: ' || q.title, '<p>What our panel said.</p>', 'FINAL', 'roundup-' || q.id, now() - interval '10 minutes', now() - interval '30 minutes', now() - interval '10 minutes'
       from ep_questions q
       where q.community_id = ${cid} and q.id in (select id from ep_questions where community_id = ${cid} order by id limit ${PUBLISHED_QUESTIONS})`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into ep_roundup_answers (roundup_id, answer_id, community_id, position)
       select r.id, a.id, ${cid}, row_number() over (partition by r.id order by a.id)
       from ep_roundups r join ep_answers a on a.question_id = r.question_id and a.community_id = ${cid} and a.status = 'accepted'
       where r.community_id = ${cid}`,
    )
    .execute(db);
  const open = await sql<{ question_id: number }>`select a.question_id from ep_answers a join users u on u.id = a.user_id
    where a.community_id = ${cid} and u.email = ${`m1@${code}.bench.invalid`} and a.status = 'open' order by a.sent_at desc, a.id desc limit 1`.execute(db);
  return { cid, openQuestion: open.rows[0]!.question_id };
}

async function serveExpertPanels(target: string): Promise<void> {
  const [{ buildApp }, { loadConfig }, { AUTH_COOKIE }, { sessionTokenFor }, { sql }, { SMTPServer }, { sendBatch }] = await Promise.all([
    import('#src/app.ts'),
    import('#src/config.ts'),
    import('#src/features/auth/sessions.ts'),
    import('./sessions.ts'),
    import('kysely'),
    import('smtp-server'),
    import('#src/features/expert-panels/admin/batches.ts'),
  ]);
  const { db, pgliteDir, removeDir } = await childDatabase(target, 'bench-ep-');
  const seedMs: Record<string, number> = {};
  const seeded: Record<string, { cid: number; openQuestion: number }> = {};
  for (const size of SIZES) {
    const t0 = performance.now();
    const code = `ep${size}`;
    seeded[code] = await seedPageCommunity(db, code, size);
    seedMs[code] = Math.round(performance.now() - t0);
  }

  // The invitation community: one panel of INVITE_MEMBERS, a draft batch of INVITE_QUESTIONS.
  const t0 = performance.now();
  const inviteCode = 'epinvite';
  const inviteCid = await insertBenchCommunity(db, inviteCode, 'Invite');
  await seedMembers(db, inviteCid, inviteCode, INVITE_MEMBERS);
  const editor = await sql<{ id: number }>`insert into users (email, username, first_name, last_name) values ('editor@epinvite.bench.invalid', 'epinvite-editor', 'Eda', 'Editor') returning id`.execute(db);
  const editorId = editor.rows[0]!.id;
  await sql`insert into memberships (community_id, user_id, roles, gate) values (${inviteCid}, ${editorId}, array['ADMIN']::text[], 'app')`.execute(db);
  const panel = await sql<{ id: number }>`insert into ep_panels (community_id, name, topic) values (${inviteCid}, 'Operators', 'Running the business day to day') returning id`.execute(db);
  const pid = panel.rows[0]!.id;
  await sql.raw(`insert into ep_panel_members (panel_id, user_id, community_id) select ${pid}, u.id, ${inviteCid} from users u where u.email like 'm%@epinvite.bench.invalid'`).execute(db);
  const batch = await sql<{ id: number }>`insert into ep_batches (community_id, panel_id, title, deadline_at) values (${inviteCid}, ${pid}, 'November questions', now() + interval '7 days') returning id`.execute(db);
  const batchId = batch.rows[0]!.id;
  await sql
    .raw(
      `insert into ep_questions (community_id, batch_id, panel_id, title, brief_html, position)
       select ${inviteCid}, ${batchId}, ${pid}, 'Question ' || k || ': ' || initcap(${words('k', 8, 7)}) || '?', '<p>' || initcap(${words('k', 40, 11)}) || '.</p>', k
       from generate_series(1, ${INVITE_QUESTIONS}) k`,
    )
    .execute(db);
  seedMs[inviteCode] = Math.round(performance.now() - t0);
  await sql`analyze`.execute(db);

  const base = benchAppEnv(target, pgliteDir);

  // The invitations first, on their own (no HTTP load meanwhile): an SMTP sink, one app whose workers run the jobs.
  const received = new Map<string, number>();
  let lastMailAt = 0;
  let linksSigned = 0;
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let text = '';
      stream.on('data', (d: Buffer) => {
        if (text.length < 20_000) text += d.toString('latin1');
      });
      stream.on('end', () => {
        const now = Date.now();
        if (/expert-panels\/invite|expert-panels\/invitation/i.test(text.replace(/=\r?\n/g, ''))) linksSigned += 1;
        for (const rcpt of session.envelope.rcptTo) received.set(rcpt.address.toLowerCase(), now);
        lastMailAt = now;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, HOST, resolve));
  const sinkPort = (sink.server.address() as { port: number }).port;
  let delivery: ChildInfo['delivery'];
  try {
    const config = loadConfig({ ...base, DEFAULT_COMMUNITY: inviteCode, SMTP_URL: `smtp://${HOST}:${sinkPort}` });
    const worker = await buildApp({ config, db, jobWorkers: true });
    await worker.ready();
    const community = await db.selectFrom('communities').selectAll().where('id', '=', inviteCid).executeTakeFirstOrThrow();
    const started = Date.now();
    const sent = await sendBatch(
      { db, clock: worker.clock, community, t: worker.t, notifier: worker.notifications, publicUrl: `${config.publicUrl}${config.basePath}`, jobs: worker.jobs },
      { userId: editorId, isStaff: true },
      batchId,
    );
    const sentAt = Date.now();
    const deadline = started + DELIVERY_TIMEOUT_MS;
    // When the invitation job had told everyone (their notifications committed), and when the mails arrived.
    let toldMs: number | null = null;
    while (received.size < sent.members && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      if (toldMs === null) {
        const told = await db.selectFrom('notifications').select((eb) => eb.fn.countAll<string>().as('n')).where('community_id', '=', inviteCid).executeTakeFirstOrThrow();
        if (Number(told.n) >= sent.members) toldMs = Date.now() - started;
      }
    }
    await worker.close();
    const delays = [...received.values()].map((at) => at - sentAt).sort((a, b) => a - b);
    const firstToLastMs = received.size ? lastMailAt - started : 0;
    delivery = {
      members: sent.members,
      answerRows: sent.answers,
      sendMs: sentAt - started,
      toldMs,
      mailed: received.size,
      firstToLastMs,
      perSecond: firstToLastMs ? Math.round((received.size / firstToLastMs) * 1000) : 0,
      delayMs: delays.length ? { p50: percentile(delays, 50), p90: percentile(delays, 90), p99: percentile(delays, 99), max: delays.at(-1)! } : null,
      timedOut: received.size < sent.members,
      linksSigned,
    };
  } catch (e) {
    delivery = { error: errorMessage(e) };
  } finally {
    await new Promise<void>((resolve) => sink.close(() => resolve()));
  }

  const apps: Awaited<ReturnType<typeof buildApp>>[] = [];
  const sides: Side[] = [];
  for (const size of SIZES) {
    const code = `ep${size}`;
    const { cid, openQuestion } = seeded[code]!;
    const config = loadConfig({ ...base, DEFAULT_COMMUNITY: code, JOB_WORKERS: 'false' });
    const { probe, load, probePort, loadPort } = await listenProbeAndLoad((o) => buildApp({ config, db, jobWorkers: false, ...o }), size === SIZES.at(-1));
    apps.push(probe, load);
    const community = await db.selectFrom('communities').selectAll().where('id', '=', cid).executeTakeFirstOrThrow();
    const token = await sessionTokenFor(load, community, `m1@${code}.bench.invalid`);
    const counts = await sql<{ questions: string; answers: string; open: string }>`select
        (select count(*) from ep_questions where community_id = ${cid} and closed_at is null) as questions,
        (select count(*) from ep_answers where community_id = ${cid}) as answers,
        (select count(*) from ep_answers a join users u on u.id = a.user_id where a.community_id = ${cid} and u.email = ${`m1@${code}.bench.invalid`} and a.status in ('open', 'cant_answer', 'ignored')) as open`.execute(db);
    const c = counts.rows[0]!;
    sides.push({ questions: Number(c.questions), answers: Number(c.answers), openOfMember: Number(c.open), code, probePort, loadPort, cookie: `${AUTH_COOKIE}=${token}`, openQuestion });
  }

  exitWithParent(async () => {
    for (const app of apps) await app.close();
  }, removeDir);
  process.stdout.write(`EP_READY ${JSON.stringify({ sides, seedMs, delivery } satisfies ChildInfo)}\n`);
}

// ---- the bench side: weight ------------------------------------------------------------------------

type Weight = { key: string; label: string; path: string; status: number; bytes: Bytes; total: number; files: WeighedFile[]; signedIn: boolean; rowsInHtml: number };

async function weigh(side: Side): Promise<Weight[]> {
  const pages = [
    { key: 'list', label: 'Questions  /expert-panels', path: '/expert-panels' },
    { key: 'question', label: 'An open question  /expert-panels/{id}', path: `/expert-panels/${side.openQuestion}` },
  ];
  const [name, ...rest] = side.cookie.split('=');
  const value = rest.join('=');
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const weights: Weight[] = [];
  try {
    for (const p of pages) {
      const base = `http://${HOST}:${side.probePort}`;
      // The first load warms the server; the second is measured (a cold browser cache each time).
      for (let i = 0; i < 2; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        await context.addCookies([{ name: name!, value, domain: HOST, path: '/', httpOnly: true, sameSite: 'Lax' }]);
        try {
          const page = await context.newPage();
          const w = await loadAndWeigh(page, `${base}${p.path}`);
          if (i === 0) continue;
          const html = (await get(side.probePort, p.path, { accept: 'text/html', cookie: side.cookie })).body.toString('utf8');
          const total = Object.values(w.bytes).reduce((a, b) => a + b, 0);
          const rowsInHtml = (html.match(/href="\/expert-panels\/\d+"/g) ?? []).length;
          weights.push({ ...p, status: w.status, bytes: w.bytes, total, files: w.files, signedIn: isSignedInPage(html), rowsInHtml });
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

// ---- the bench side: SQL and load ----------------------------------------------------------------------

type Target = { key: string; label: string; path: (s: Side) => string };
const TARGETS: Target[] = [
  { key: 'list', label: 'Questions, open tab  /expert-panels', path: () => '/expert-panels' },
  { key: 'published', label: 'Questions, published tab', path: () => '/expert-panels?tab=published' },
  { key: 'question', label: 'An open question  /expert-panels/{id}', path: (s) => `/expert-panels/${s.openQuestion}` },
];

type Measured = { size: number; key: string; label: string; status: number; sql: number | null; requestsPerSecond: number; latencyMs: Latency; failures: string | null };

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
  const url = `http://${HOST}:${side.loadPort}${p}`;
  await cannon(url, LOAD.warmupSeconds, headers);
  const r = await cannon(url, LOAD.durationSeconds, headers);
  const bad = r.non2xx + r.errors + r.timeouts;
  return {
    size: side.questions,
    key: target.key,
    label: target.label,
    status,
    sql,
    requestsPerSecond: Math.round(r.requests.average),
    latencyMs: latencyOf(r),
    failures: bad ? `${r.non2xx} non-2xx (${JSON.stringify(statusCounts(r))}), ${r.errors} errors, ${r.timeouts} timeouts` : null,
  };
}

// ---- the module ----------------------------------------------------------------------------------------

export const expertPanelsModule: BenchModule = {
  name: 'expert-panels',
  scope: 'server',
  describe: `expert panels: questions pages at ${SIZES.map((s) => s.toLocaleString('en-US')).join(' and ')} open questions (weight, SQL, p99), invitations to a panel of ${INVITE_MEMBERS.toLocaleString('en-US')} through the queue to an SMTP sink`,
  async run(ctx) {
    const server = serverOf(ctx);
    const warnings: string[] = [];
    const { target, drop } = await moduleDatabase(server.backend, 'bench_ep');
    let child: ChildProcess | null = null;
    try {
      const started = await spawnUntilReady<ChildInfo>(SCRIPT, target, 'EP_READY', START_TIMEOUT_MS, 'the expert-panels server');
      child = started.child;
      const info = started.info;
      ctx.log(`  expert-panels: seeded (${Object.entries(info.seedMs).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ')})`);
      const big = info.sides.at(-1)!;

      let weights: Weight[] = [];
      if (server.first) {
        if (!existsSync(CHROMIUM)) warnings.push(`no Chromium at ${CHROMIUM}: expert-panels page weight not measured`);
        else {
          ctx.log('  expert-panels: page weight in Chromium…');
          weights = await weigh(big);
          for (const w of weights) {
            if (w.status !== 200) warnings.push(`${w.label}: answered ${w.status}`);
            if (!w.signedIn) warnings.push(`${w.label}: did not render signed in`);
          }
        }
      }

      for (const side of info.sides) for (const t of TARGETS) await cannon(`http://${HOST}:${side.loadPort}${t.path(side)}`, 1, { accept: 'text/html', cookie: side.cookie });
      const results: Measured[] = [];
      for (const t of TARGETS) {
        for (const side of info.sides) {
          ctx.log(`  expert-panels: ${side.questions.toLocaleString('en-US')} questions, ${t.label}…`);
          const m = await measure(side, t);
          if (m.status !== 200) warnings.push(`${side.questions} questions, ${t.label}: answered ${m.status}`);
          if (m.failures) warnings.push(`${side.questions} questions, ${t.label}: ${m.failures}`);
          results.push(m);
        }
      }
      await stopServer(child);
      child = null;

      const sections: Section[] = [];
      if (weights.length) {
        const htmlCss = (w: Weight) => w.bytes.html + w.bytes.css;
        sections.push({
          key: 'ep-weight',
          title: `Expert-panels page weight in Chromium (signed in as a panel member of ${big.questions.toLocaleString('en-US')} open questions; cold cache; encoded body bytes; budgets: JS ≤ ${BUDGETS.jsMaxBytes / 1024} KiB, HTML + CSS ≤ ${BUDGETS.htmlCssMaxBytes / 1024} KiB)`,
          head: ['page', 'status', 'html', 'css', 'js', 'img', 'other', 'total', 'requests', 'budgets'],
          right: [false, true, true, true, true, true, true, true, true, false],
          rows: weights.map((w) => [
            w.label,
            String(w.status),
            kib(w.bytes.html),
            kib(w.bytes.css),
            kib(w.bytes.js),
            kib(w.bytes.img),
            kib(w.bytes.other),
            kib(w.total),
            String(w.files.length),
            w.bytes.js <= BUDGETS.jsMaxBytes && htmlCss(w) <= BUDGETS.htmlCssMaxBytes ? 'pass' : 'over',
          ]),
          notes: [
            ...weights.map((w) => `  ${w.key}: ${w.files.map((f) => `${f.url.replace(/^https?:\/\/[^/]+/, '').replace(/^\/static\/build\//, '')} ${kib(f.bytes)}`).join(', ')}`),
            ...weights.filter((w) => w.key === 'list').map((w) => `  The questions page links ${w.rowsInHtml} questions in its HTML (a page of the open tab).`),
          ],
        });
      }
      sections.push({
        key: 'ep-load',
        title: `Expert-panels pages under load (signed in; ${LOAD.connections} connections; ${LOAD.warmupSeconds} s warm-up then ${LOAD.durationSeconds} s per target; SQL from the probe app's Server-Timing, budget ≤ ${SQL_BUDGET})`,
        head: ['open questions', 'answers', 'target', 'req/s', 'p50 ms', 'p99 ms', 'SQL', 'SQL', 'failures'],
        right: [true, true, false, true, true, true, true, false, false],
        rows: results.map((m) => {
          const side = info.sides.find((s) => s.questions === m.size)!;
          return [
            m.size.toLocaleString('en-US'),
            side.answers.toLocaleString('en-US'),
            m.label,
            String(m.requestsPerSecond),
            String(m.latencyMs.p50),
            String(m.latencyMs.p99),
            m.sql === null ? '?' : String(m.sql),
            (m.sql ?? 99) <= SQL_BUDGET ? 'pass' : 'over',
            m.failures ?? 'none',
          ];
        }),
        notes: [
          `  The member measured belongs to the panel: ${info.sides.map((s) => `${s.openOfMember.toLocaleString('en-US')} of their ${s.questions.toLocaleString('en-US')} questions open in ${s.code}`).join('; ')}.`,
          `  Seeding with generate_series: ${Object.entries(info.seedMs).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ')}.`,
          ...TARGETS.map((t) => {
            const [s, b] = info.sides.map((side) => results.find((m) => m.key === t.key && m.size === side.questions));
            return s && b ? `  ${t.label}: p99 at ${b.size.toLocaleString('en-US')} / p99 at ${s.size} = ${(b.latencyMs.p99 / Math.max(s.latencyMs.p99, 1)).toFixed(2)}.` : '';
          }),
        ].filter(Boolean),
      });
      const d = info.delivery;
      if ('error' in d) warnings.push(`invitations: ${d.error}`);
      else {
        if (d.timedOut) warnings.push(`invitations: ${d.mailed} of ${d.members} mails arrived within ${DELIVERY_TIMEOUT_MS / 1000} s`);
        sections.push({
          key: 'ep-invitations',
          title: `Invitations: a batch of ${INVITE_QUESTIONS} questions sent to a panel of ${d.members.toLocaleString('en-US')} members (the editors' service, then the invitation job, each member's notification, the deliver and mail jobs; one worker process) to a local SMTP sink`,
          head: ['members', 'answer rows', 'send (ms)', 'all told (s)', 'mails', 'send → last mail (s)', 'invitations/s', 'delay p50 (s)', 'p90 (s)', 'p99 (s)', 'max (s)'],
          right: [true, true, true, true, true, true, true, true, true, true, true],
          rows: [
            [
              d.members.toLocaleString('en-US'),
              d.answerRows.toLocaleString('en-US'),
              String(d.sendMs),
              d.toldMs === null ? '-' : (d.toldMs / 1000).toFixed(1),
              d.mailed.toLocaleString('en-US'),
              (d.firstToLastMs / 1000).toFixed(1),
              String(d.perSecond),
              d.delayMs ? (d.delayMs.p50 / 1000).toFixed(1) : '-',
              d.delayMs ? (d.delayMs.p90 / 1000).toFixed(1) : '-',
              d.delayMs ? (d.delayMs.p99 / 1000).toFixed(1) : '-',
              d.delayMs ? (d.delayMs.max / 1000).toFixed(1) : '-',
            ],
          ],
          notes: [
            '  all told: from the send until the invitation job had committed every member\'s notification (each with its deliver job); the mails follow through the deliver and mail jobs.',
            `  ${d.linksSigned.toLocaleString('en-US')} of the ${d.mailed.toLocaleString('en-US')} mails carry the member's signed invitation link.`,
          ],
        });
      }
      return { sections, warnings, data: { seedMs: info.seedMs, sides: info.sides.map(({ cookie: _c, ...s }) => s), weights, results, delivery: info.delivery } };
    } catch (e) {
      throw new Error(`expert-panels bench: ${errorMessage(e)}`);
    } finally {
      if (child) await stopServer(child);
      await drop();
    }
  },
};

serveIfStarted(SCRIPT, serveExpertPanels);
