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
// Split by use case: expert-panels/seed.ts (the communities), expert-panels/child.ts (the child
// process: seeding, the invitations, the served apps), expert-panels/measure.ts (weight, SQL, load),
// and this file (the bench module: runs the child, measures, reports).
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BUDGETS, CHROMIUM, HOST, LOAD, cannon, errorMessage, kib, moduleDatabase, serverOf, type BenchModule, type Section } from './lib.ts';
import { spawnUntilReady, stopServer } from './server.ts';
import { TARGETS, measure, weigh, type Measured, type Weight } from './expert-panels/measure.ts';
import { DELIVERY_TIMEOUT_MS, INVITE_MEMBERS, INVITE_QUESTIONS, SIZES, SQL_BUDGET, START_TIMEOUT_MS, type ChildInfo } from './expert-panels/shared.ts';

/** The child process's script (it serves when run with a database target). */
const SCRIPT = fileURLToPath(new URL('./expert-panels/child.ts', import.meta.url));

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


