// The expert-panels bench's child process: seeds the communities, measures the invitations through
// the queue to an SMTP sink, then serves the page communities for the load (see ../expert-panels.ts).
import { fileURLToPath } from 'node:url';
import { HOST, benchAppEnv, errorMessage, mailSink, percentile } from '../lib.ts';
import { childDatabase, exitWithParent, insertBenchCommunity, listenProbeAndLoad, serveIfStarted } from '../server.ts';
import { seedMembers, seedPageCommunity, words } from './seed.ts';
import { DELIVERY_TIMEOUT_MS, INVITE_MEMBERS, INVITE_QUESTIONS, SIZES, type ChildInfo, type Side } from './shared.ts';

export const CHILD_SCRIPT = fileURLToPath(import.meta.url);

export async function serveExpertPanels(target: string): Promise<void> {
  const [{ buildApp }, { loadConfig }, { AUTH_COOKIE }, { sessionTokenFor }, { sql }, { sendBatch }] = await Promise.all([
    import('#src/app.ts'),
    import('#src/config.ts'),
    import('#src/features/auth/sessions.ts'),
    import('../sessions.ts'),
    import('kysely'),
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
  let linksSigned = 0;
  const sink = await mailSink((text) => {
    if (/expert-panels\/invite|expert-panels\/invitation/i.test(text.replace(/=\r?\n/g, ''))) linksSigned += 1;
  });
  const { received } = sink;
  const sinkPort = sink.port;
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
    const firstToLastMs = received.size ? sink.lastMailAt() - started : 0;
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
    await sink.close();
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

serveIfStarted(CHILD_SCRIPT, serveExpertPanels);
