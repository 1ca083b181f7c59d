// A day in the life (issue 26): one mixed workload that looks like a community at its busiest.
//
// A child process of this file migrates a database of its own, seeds the demo communities
// (seedDemo), adds MAX_MEMBERS bench members to the demo community `summit` (joined long ago, so their
// forum replies are not held for a moderator), one expert panel of all of them with an open batch of
// QUESTIONS questions (an open answer row per member and question), mints each member's session the
// way the other modules do (`sessionTokenFor`, as test/helpers/factories.ts `signIn` does), builds ONE
// production-mode app with BENCH_QUERY_COUNT=1 (every answer carries
// `server-timing: db;desc="SQL queries";dur=N`), with the job workers on as in production, and serves.
//
// The bench side simulates members, each with its own session cookie, `_csrf` cookie and token (from
// its first page), keep-alive connection and loop:
// - the notification bell: every 30 s (a random phase each), the island's real poll, POST /graphql
//   `{notifications(first:1){pageInfo{hasUnviewed}}}` with the x-csrf-token header;
// - an action picked by the weights of MIX below, then a think time of THINK_MS (uniform), then the next.
//
//   action            weight  requests
//   home                 12   GET /
//   forum list           14   GET /forum
//   forum post           24   GET /forum/post/{id}                      (a random published post)
//   directory             7   GET /members
//   directory search      3   GET /members/results?q={word}
//   profile              10   GET /profile/{id}                         (a random member of summit)
//   notifications        10   GET /notifications
//   like                  8   POST /forum/post/{id}/like (htmx: HX-Request, on=1/0 toggling)
//   reply                 4   POST /forum/post/{id}/reply (~40 words), then GET the 303's Location
//   autosave              6   POST /graphql articleAutoSaveRevision (~300 words; the first creates the article)
//   answer                2   GET /expert-panels/{q}[?edit=1], POST …/answer (~80 words), GET the 303's Location
//   think time: uniform 2–8 s (mean 5 s) → about 12 actions and 2 bell polls per member-minute.
//
// The ramp: N = STEPS members (new members join at the start of a step, staggered over its first
// SETTLE_S seconds; the earlier ones keep going), each step STEP_S seconds, of which the last
// STEP_S - SETTLE_S are measured (requests started in that window). A step passes with p99 < 250 ms
// over all its requests and zero failures (a timeout, an unexpected status, a page that is not
// signed in, a GraphQL error); the ramp stops at the first step that does not. Reported: the largest N
// that passed, and per step the requests, p50/p90/p99/max, failures, and the SQL statements per
// simulated member-minute (the sum of the Server-Timing counts of the window's requests / (N × minutes);
// the job workers' statements are not in it).
//
// Settings by environment: BENCH_DAY_STEPS="25,50,100" (default 25,50,100,200,400),
// BENCH_DAY_STEP_SECONDS (default 30), BENCH_DAY_P99_MS (default 250).
// Run alone: `npm run bench -- day` (add --backend=pglite or --backend=postgres for one database).
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { HOST, HTTP_TIMEOUT_MS, benchAppEnv, errorMessage, isSignedInPage, moduleDatabase, percentile, round1, serverOf, tags, type BenchModule, type Section } from './lib.ts';
import { childDatabase, exitWithParent, serveIfStarted, spawnUntilReady, stopServer } from './server.ts';

const SCRIPT = fileURLToPath(import.meta.url);
const COMMUNITY = 'summit';
const STEPS = (process.env.BENCH_DAY_STEPS ?? '25,50,100,200,400').split(',').map(Number).filter((n) => n > 0);
const MAX_MEMBERS = Math.max(...STEPS);
const STEP_S = Number(process.env.BENCH_DAY_STEP_SECONDS ?? 30);
const SETTLE_S = 5;
const P99_MS = Number(process.env.BENCH_DAY_P99_MS ?? 250);
const BELL_MS = 30_000;
const THINK_MS = [2_000, 8_000] as const;
const QUESTIONS = 3;
const START_TIMEOUT_MS = 300_000;

export type Action = 'home' | 'forum-list' | 'forum-post' | 'directory' | 'directory-search' | 'profile' | 'notifications' | 'like' | 'reply' | 'autosave' | 'answer';
/** The mix of a member's actions (weights, out of 100); the bell is apart, every 30 s. */
export const MIX: Record<Action, number> = {
  home: 12,
  'forum-list': 14,
  'forum-post': 24,
  directory: 7,
  'directory-search': 3,
  profile: 10,
  notifications: 10,
  like: 8,
  reply: 4,
  autosave: 6,
  answer: 2,
};
const SEARCH_WORDS = ['software', 'Austin', 'founder', 'Amara', 'health', 'capital', 'Bench', 'design', 'Chicago', 'logistics'];

export type ChildInfo = { port: number; cookies: string[]; postIds: number[]; profileIds: number[]; questionIds: number[]; seedMs: number; startupMs: number };

// ---- the child -----------------------------------------------------------------------------------

/**
 * The demo seed: src/features/seed.ts since the areas refactor, src/db/seed.ts before it (a name
 * in a variable, so that this file runs, and type-checks, on either side of it).
 */
async function demoSeed(): Promise<{ seedDemo: (db: unknown, options: { production: boolean }) => Promise<unknown> }> {
  const places = ['#src/features/seed.ts', '#src/db/seed.ts'];
  for (const place of places) {
    try {
      return (await import(place)) as Awaited<ReturnType<typeof demoSeed>>;
    } catch (e) {
      // Only the seed file itself missing moves on; a missing import inside it is that file's error.
      const { code, url, message } = e as { code?: string; url?: string; message?: string };
      if (code !== 'ERR_MODULE_NOT_FOUND' || !String(url ?? message).includes(place.slice('#'.length))) throw e;
    }
  }
  throw new Error(`no demo seed at ${places.join(' or ')}`);
}

async function serveDay(target: string): Promise<void> {
  const started = performance.now();
  const [{ buildApp }, { loadConfig }, { seedDemo }, { AUTH_COOKIE }, { sessionTokenFor }, { sql }] = await Promise.all([
    import('#src/app.ts'),
    import('#src/config.ts'),
    demoSeed(),
    import('#src/features/auth/sessions.ts'),
    import('./sessions.ts'),
    import('kysely'),
  ]);
  const { db, pgliteDir, removeDir } = await childDatabase(target, 'bench-day-');
  // The seed refuses production by design; this is a throwaway bench database, seeded before the app.
  await seedDemo(db, { production: false });
  const t0 = performance.now();
  const community = await db.selectFrom('communities').selectAll().where('code', '=', COMMUNITY).executeTakeFirstOrThrow();
  const cid = community.id;
  await sql
    .raw(
      `insert into users (email, username, first_name, last_name, password_hash)
       select 'd' || g || '@day.bench.invalid', 'day-' || g,
              (array['Amara','Daniel','Priya','Marcus','Sofia','Kwame','Hannah','Ethan','Isabel','Jonah'])[1 + g % 10],
              (array['Okafor','Reyes','Shah','Lindqvist','Moreau','Mensah','Becker','Novak','Tanaka'])[1 + g % 9] || g, null
       from generate_series(1, ${MAX_MEMBERS}) g`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into memberships (community_id, user_id, roles, gate, company_name, job_title, location_name, location_familiar_name, industry, joined_at)
       select ${cid}, u.id, array['MEMBER']::text[], 'app',
              (array['Blue','North','Iron','Cedar','Harbor','Bright'])[1 + u.id % 6] || ' ' || (array['Analytics','Logistics','Health','Capital','Design','Software'])[1 + (u.id / 6) % 6],
              (array['Founder','Chief Executive Officer','President','Managing Partner'])[1 + u.id % 4],
              (array['Austin, TX','Chicago, IL','Boston, MA','Denver, CO'])[1 + u.id % 4],
              split_part((array['Austin, TX','Chicago, IL','Boston, MA','Denver, CO'])[1 + u.id % 4], ',', 1),
              (array['Software','Healthcare','Finance','Logistics'])[1 + u.id % 4],
              now() - interval '400 days'
       from users u where u.email like '%@day.bench.invalid'`,
    )
    .execute(db);
  // One panel of all the bench members, an open batch of QUESTIONS questions, an open answer each.
  const panel = await sql<{ id: number }>`insert into ep_panels (community_id, name, topic, min_words, max_words)
    values (${cid}, 'Operators (bench)', 'Running the business day to day', 50, 300) returning id`.execute(db);
  const pid = panel.rows[0]!.id;
  await sql.raw(`insert into ep_panel_members (panel_id, user_id, community_id) select ${pid}, u.id, ${cid} from users u where u.email like '%@day.bench.invalid'`).execute(db);
  const batch = await sql<{ id: number }>`insert into ep_batches (community_id, panel_id, title, deadline_at, status, sent_at, created_at)
    values (${cid}, ${pid}, 'This week: operations', now() + interval '7 days', 'sent', now() - interval '1 hour', now() - interval '2 hours') returning id`.execute(db);
  const bid = batch.rows[0]!.id;
  await sql
    .raw(
      `insert into ep_questions (community_id, batch_id, panel_id, title, brief_html, guidelines_html, position, created_at)
       select ${cid}, ${bid}, ${pid}, 'Question ' || k || ': what is the one process you would keep if you had to drop all the others?',
              '<p>Tell us about the process, why it matters and what it cost you to set up.</p>', '<ul><li>One concrete example.</li></ul>', k, now() - interval '2 hours'
       from generate_series(1, ${QUESTIONS}) k`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into ep_answers (community_id, question_id, user_id, status, sent_at, invited_at, status_at)
       select ${cid}, q.id, u.id, 'open', now() - interval '1 hour', now() - interval '1 hour', now() - interval '1 hour'
       from ep_questions q, users u where q.batch_id = ${bid} and u.email like '%@day.bench.invalid'`,
    )
    .execute(db);
  await sql`analyze`.execute(db);
  const seedMs = Math.round(performance.now() - t0);

  const config = loadConfig({ ...benchAppEnv(target, pgliteDir), DEFAULT_COMMUNITY: COMMUNITY });
  // One production app that counts SQL statements per request (Server-Timing) and runs the job
  // workers (the production default), as one server process of the community would.
  process.env.BENCH_QUERY_COUNT = '1';
  const app = await buildApp({ config, db, ownsDb: true });
  delete process.env.BENCH_QUERY_COUNT;
  await app.listen({ host: HOST, port: 0 });
  const port = (app.server.address() as { port: number }).port;

  const members = await db.selectFrom('users').select('email').where('email', 'like', '%@day.bench.invalid').orderBy('id').execute();
  const cookies: string[] = [];
  for (const m of members) cookies.push(`${AUTH_COOKIE}=${await sessionTokenFor(app, community, m.email)}`);
  const posts = await sql<{ id: number }>`select id from forum_posts where community_id = ${cid} and status = 'published' and deleted_at is null and locked_at is null order by id`.execute(db);
  const profiles = await sql<{ user_id: number }>`select user_id from memberships where community_id = ${cid} and is_active order by user_id`.execute(db);
  const questions = await sql<{ id: number }>`select id from ep_questions where batch_id = ${bid} order by id`.execute(db);

  exitWithParent(() => app.close(), removeDir);
  const info: ChildInfo = {
    port,
    cookies,
    postIds: posts.rows.map((r) => r.id),
    profileIds: profiles.rows.map((r) => r.user_id),
    questionIds: questions.rows.map((r) => r.id),
    seedMs,
    startupMs: Math.round(performance.now() - started),
  };
  process.stdout.write(`DAY_READY ${JSON.stringify(info)}\n`);
}

export function startChild(target: string): Promise<{ child: ChildProcess; info: ChildInfo }> {
  return spawnUntilReady<ChildInfo>(SCRIPT, target, 'DAY_READY', START_TIMEOUT_MS, 'the day server');
}

// ---- the bench side: HTTP as a browser ---------------------------------------------------------------

type Res = { status: number; headers: http.IncomingHttpHeaders; text: string };

function send(agent: http.Agent, port: number, method: string, urlPath: string, headers: Record<string, string>, body?: string): Promise<Res> {
  return new Promise((resolve, reject) => {
    const h: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br', ...headers };
    if (body !== undefined) h['content-length'] = String(Buffer.byteLength(body));
    const req = http.request({ host: HOST, port, path: urlPath, method, headers: h, agent, timeout: HTTP_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          const raw = Buffer.concat(chunks);
          const enc = String(res.headers['content-encoding'] ?? '');
          const buf = enc === 'br' ? zlib.brotliDecompressSync(raw) : enc === 'gzip' ? zlib.gunzipSync(raw) : enc === 'deflate' ? zlib.inflateSync(raw) : raw;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: buf.toString('utf8') });
        } catch (e) {
          reject(e);
        }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timed out after ${HTTP_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

const sqlOf = (res: Res): number | null => {
  const v = res.headers['server-timing'];
  const m = v ? /(?:^|,)\s*db;[^,]*dur=([\d.]+)/.exec(Array.isArray(v) ? v.join(',') : v) : null;
  return m ? Number(m[1]) : null;
};

export type Sample = { at: number; ms: number; label: string; action: Action | 'bell'; ok: boolean; sql: number; why?: string };

const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;
const WEIGHTED: Action[] = Object.entries(MIX).flatMap(([a, w]) => Array.from({ length: w }, () => a as Action));
const words = (n: number, seed: number) => {
  const pool = 'we moved our weekly pipeline review to a shared board and it cut the meeting in half because everyone updates their deals before they walk in the real win was that the sales and finance teams now read the same numbers every monday morning'.split(' ');
  return Array.from({ length: n }, (_, i) => pool[(seed * 7 + i * 3) % pool.length]).join(' ');
};
const BELL_QUERY = JSON.stringify({ query: '{notifications(first:1){pageInfo{hasUnviewed}}}' });
const AUTOSAVE_MUTATION = 'mutation($id: ID, $t: String!, $c: String!) { articleAutoSaveRevision(articleId: $id, title: $t, content: $c) { id status } }';

export class Member {
  private agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  private csrfCookie = '';
  private csrfToken = '';
  private liked = new Set<number>();
  private articleId: string | null = null;
  private saves = 0;
  private answered = new Set<number>();
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;
  private inflight = new Set<number>();

  constructor(
    private readonly n: number,
    private readonly cookie: string,
    private readonly info: ChildInfo,
    private readonly record: (s: Sample) => void,
    private readonly began: (at: number, action: Action) => void = () => {},
  ) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { cookie: this.csrfCookie ? `${this.cookie}; ${this.csrfCookie}` : this.cookie, ...extra };
  }

  private keepCsrf(res: Res) {
    const c = (res.headers['set-cookie'] ?? []).map((x) => x.split(';')[0]!.trim()).find((x) => x.startsWith('_csrf='));
    if (c) this.csrfCookie = c;
    if (this.csrfToken && !c) return;
    const token = res.text.includes('csrf-token') ? tags(res.text, 'meta').find((m) => m.name === 'csrf-token')?.content : undefined;
    if (token) this.csrfToken = token;
  }

  /** One measured request; `check` says why the answer is a failure (or null). */
  private async req(action: Action | 'bell', label: string, method: string, urlPath: string, headers: Record<string, string>, body: string | undefined, check: (r: Res) => string | null): Promise<Res | null> {
    const at = performance.now();
    this.inflight.add(at);
    try {
      const res = await send(this.agent, this.info.port, method, urlPath, this.headers(headers), body);
      const ms = performance.now() - at;
      const why = check(res);
      this.record({ at, ms, label, action, ok: !why, sql: sqlOf(res) ?? 0, ...(why ? { why: `${label}: ${why}` } : {}) });
      return why ? null : res;
    } catch (e) {
      this.record({ at, ms: performance.now() - at, label, action, ok: false, sql: 0, why: `${label}: ${errorMessage(e)}` });
      return null;
    } finally {
      this.inflight.delete(at);
    }
  }

  private page(action: Action, label: string, urlPath: string): Promise<Res | null> {
    return this.req(action, label, 'GET', urlPath, { accept: 'text/html' }, undefined, (r) => {
      if (r.status !== 200) return `status ${r.status}`;
      if (!isSignedInPage(r.text)) return 'not signed in';
      this.keepCsrf(r);
      return null;
    });
  }

  private form(action: Action, label: string, urlPath: string, fields: Record<string, string>): Promise<Res | null> {
    const body = new URLSearchParams({ ...fields, _csrf: this.csrfToken }).toString();
    return this.req(action, label, 'POST', urlPath, { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' }, body, (r) =>
      r.status === 303 && r.headers.location ? null : `status ${r.status}${r.headers.location ? '' : ', no Location'}`,
    );
  }

  private graphql(action: Action | 'bell', label: string, body: string, ok: (json: { data?: Record<string, unknown> | null; errors?: unknown[] }) => boolean): Promise<Res | null> {
    return this.req(action, label, 'POST', '/graphql', { accept: 'application/json', 'content-type': 'application/json', 'x-csrf-token': this.csrfToken }, body, (r) => {
      if (r.status !== 200) return `status ${r.status}`;
      try {
        const json = JSON.parse(r.text) as { data?: Record<string, unknown> | null; errors?: { message?: string }[] };
        if (json.errors?.length) return `GraphQL error ${json.errors[0]?.message ?? ''}`;
        return ok(json) ? null : 'unexpected data';
      } catch {
        return 'not JSON';
      }
    });
  }

  private follow(action: Action, label: string, res: Res | null) {
    const location = res?.headers.location;
    return location ? this.page(action, label, location.replace(/^https?:\/\/[^/]+/, '')) : null;
  }

  async act(action: Action): Promise<void> {
    const { postIds, profileIds, questionIds } = this.info;
    switch (action) {
      case 'home':
        await this.page(action, 'GET /', '/');
        return;
      case 'forum-list':
        await this.page(action, 'GET /forum', '/forum');
        return;
      case 'forum-post':
        await this.page(action, 'GET /forum/post/{id}', `/forum/post/${pick(postIds)}`);
        return;
      case 'directory':
        await this.page(action, 'GET /members', '/members');
        return;
      case 'directory-search':
        await this.page(action, 'GET /members/results?q=', `/members/results?q=${encodeURIComponent(pick(SEARCH_WORDS))}`);
        return;
      case 'profile':
        await this.page(action, 'GET /profile/{id}', `/profile/${pick(profileIds)}`);
        return;
      case 'notifications':
        await this.page(action, 'GET /notifications', '/notifications');
        return;
      case 'like': {
        const id = pick(postIds);
        const on = this.liked.has(id) ? '0' : '1';
        const body = new URLSearchParams({ on, post: String(id), _csrf: this.csrfToken }).toString();
        const res = await this.req(action, 'POST /forum/post/{id}/like (htmx)', 'POST', `/forum/post/${id}/like`, { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', 'hx-request': 'true', 'x-csrf-token': this.csrfToken }, body, (r) =>
          r.status === 200 && r.text.includes(`like-post-${id}`) ? null : `status ${r.status}`,
        );
        if (res) {
          if (on === '1') this.liked.add(id);
          else this.liked.delete(id);
        }
        return;
      }
      case 'reply': {
        const id = pick(postIds);
        const res = await this.form(action, 'POST /forum/post/{id}/reply', `/forum/post/${id}/reply`, { body: `Member ${this.n}: ${words(40, this.n + Date.now())}.` });
        await this.follow(action, 'GET /forum/post/{id} (after reply)', res);
        return;
      }
      case 'autosave': {
        this.saves++;
        const content = `<p>Save ${this.saves}. ${words(100, this.saves)}.</p><p>${words(100, this.saves + 1)}.</p><p>${words(100, this.n)}.</p>`;
        const body = JSON.stringify({ query: AUTOSAVE_MUTATION, variables: { id: this.articleId, t: `How member ${this.n} runs the week`, c: content } });
        const res = await this.graphql(action, 'POST /graphql articleAutoSaveRevision', body, (j) => Boolean((j.data?.articleAutoSaveRevision as { id?: unknown } | null)?.id));
        if (res && !this.articleId) this.articleId = String((JSON.parse(res.text) as { data: { articleAutoSaveRevision: { id: unknown } } }).data.articleAutoSaveRevision.id);
        return;
      }
      case 'answer': {
        const q = pick(questionIds);
        const again = this.answered.has(q);
        const page = await this.page(action, 'GET /expert-panels/{q}', `/expert-panels/${q}${again ? '?edit=1' : ''}`);
        if (!page) return;
        const res = await this.form(action, 'POST /expert-panels/{q}/answer', `/expert-panels/${q}/answer`, { body: `${words(80, this.n + q + Date.now())}.`, ...(again ? { editing: '1' } : {}) });
        if (res) this.answered.add(q);
        await this.follow(action, 'GET /expert-panels/{q} (after answer)', res);
        return;
      }
    }
  }

  /** Signs in to the product agreement (once, not measured) and starts the loops after `delayMs`. */
  async prepare(): Promise<boolean> {
    // The first page gives the member its `_csrf` cookie and token, as a browser gets them.
    const first = await send(this.agent, this.info.port, 'GET', '/', this.headers({ accept: 'text/html' }));
    this.keepCsrf(first);
    if (!this.csrfToken || !this.csrfCookie) return false;
    // The product agreement (before the articles can be written), as the member would accept it once.
    const body = new URLSearchParams({ acknowledge: 'on', _csrf: this.csrfToken }).toString();
    const res = await send(this.agent, this.info.port, 'POST', '/articles/agreement', this.headers({ 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }), body);
    return res.status === 303;
  }

  /** Whether a request started before `t` is still waiting for its answer. */
  waitingSince(t: number): boolean {
    for (const at of this.inflight) if (at < t) return true;
    return false;
  }

  start(delayMs: number) {
    const think = () => THINK_MS[0] + Math.random() * (THINK_MS[1] - THINK_MS[0]);
    const loop = async () => {
      if (this.stopped) return;
      const action = pick(WEIGHTED);
      this.began(performance.now(), action);
      await this.act(action);
      if (!this.stopped) this.timers.push(setTimeout(loop, think()));
    };
    const bell = () => {
      if (this.stopped) return;
      void this.graphql('bell', 'POST /graphql bell poll', BELL_QUERY, (j) => typeof (j.data?.notifications as { pageInfo?: { hasUnviewed?: unknown } } | undefined)?.pageInfo?.hasUnviewed === 'boolean');
    };
    this.timers.push(setTimeout(loop, delayMs));
    const phase = Math.random() * BELL_MS;
    this.timers.push(
      setTimeout(() => {
        bell();
        this.timers.push(setInterval(bell, BELL_MS));
      }, phase),
    );
  }

  async stop() {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    const until = performance.now() + HTTP_TIMEOUT_MS + 1000;
    while (this.inflight.size > 0 && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
    this.agent.destroy();
  }
}

// ---- the ramp ------------------------------------------------------------------------------------

type Stats = { requests: number; perSecond: number; p50: number; p90: number; p99: number; max: number; failures: number; sqlPerMemberMinute: number; sqlPerRequest: number };
type Step = Stats & { members: number; seconds: number; pass: boolean; load: number[]; byLabel: Record<string, Stats>; failureSamples: string[] };

function statsOf(samples: Sample[], members: number, seconds: number): Stats {
  const ms = samples.map((s) => s.ms);
  const sqlSum = samples.reduce((a, s) => a + s.sql, 0);
  const q = (p: number) => (ms.length ? round1(percentile(ms, p)) : 0);
  return {
    requests: samples.length,
    perSecond: round1(samples.length / seconds),
    p50: q(50),
    p90: q(90),
    p99: q(99),
    max: ms.length ? round1(Math.max(...ms)) : 0,
    failures: samples.filter((s) => !s.ok).length,
    sqlPerMemberMinute: members ? round1(sqlSum / (members * (seconds / 60))) : 0,
    sqlPerRequest: samples.length ? round1(sqlSum / samples.length) : 0,
  };
}

async function ramp(info: ChildInfo, log: (s: string) => void): Promise<{ steps: Step[]; prepareFailures: number; nominal: ReturnType<typeof nominalSql> }> {
  const samples: Sample[] = [];
  const begun: { at: number; action: Action }[] = [];
  const windows: [number, number][] = [];
  const members: Member[] = [];
  const steps: Step[] = [];
  let prepareFailures = 0;
  try {
    for (const n of STEPS) {
      if (n > info.cookies.length) break;
      // The new members: their first page and the product agreement (not measured), then their loops.
      const joining: Member[] = [];
      for (let i = members.length; i < n; i++) joining.push(new Member(i + 1, info.cookies[i]!, info, (s) => samples.push(s), (at, action) => begun.push({ at, action })));
      for (let i = 0; i < joining.length; i += 10) {
        const ok = await Promise.all(joining.slice(i, i + 10).map((m) => m.prepare().catch(() => false)));
        prepareFailures += ok.filter((x) => !x).length;
      }
      const stepStart = performance.now();
      for (const m of joining) {
        m.start(Math.random() * SETTLE_S * 1000);
        members.push(m);
      }
      const from = stepStart + SETTLE_S * 1000;
      const to = stepStart + STEP_S * 1000;
      log(`  day: ${n} members (${joining.length} joining), ${STEP_S} s (${SETTLE_S} s settling)…`);
      await new Promise((r) => setTimeout(r, to - performance.now()));
      const load = os.loadavg().map((x) => Math.round(x * 100) / 100);
      // The window's requests: those started in it, every one answered (or failed, at most the HTTP timeout).
      while (members.some((m) => m.waitingSince(to))) await new Promise((r) => setTimeout(r, 50));
      windows.push([from, to]);
      const window = samples.filter((s) => s.at >= from && s.at < to);
      const seconds = (to - from) / 1000;
      const all = statsOf(window, n, seconds);
      const labels = [...new Set(window.map((s) => s.label))].sort();
      const byLabel = Object.fromEntries(labels.map((l) => [l, statsOf(window.filter((s) => s.label === l), n, seconds)]));
      const pass = all.failures === 0 && all.p99 < P99_MS && all.requests > 0;
      const failureSamples = [...new Set(window.filter((s) => !s.ok).map((s) => s.why ?? s.label))].slice(0, 5);
      steps.push({ members: n, seconds, pass, load, byLabel, failureSamples, ...all });
      log(`  day: ${n} members: ${all.requests} requests, p50 ${all.p50} ms, p99 ${all.p99} ms, ${all.failures} failures, ${all.sqlPerMemberMinute} SQL/member-min, load ${load.join(' ')} → ${pass ? 'pass' : 'over'}`);
      if (!pass) break;
    }
  } finally {
    await Promise.all(members.map((m) => m.stop()));
  }
  return { steps, prepareFailures, nominal: nominalSql(samples, begun, windows) };
}

/**
 * SQL statements per member-minute at the nominal pace, whatever the machine's load: 60 / mean think
 * time actions a minute in the proportions of MIX, plus the bell's 2 polls, each at the SQL per action
 * measured over all the steps' windows (an action's requests, the redirect followed included).
 * The measured figure per step falls when the server is slow (a member waits, so does fewer actions).
 */
function nominalSql(samples: Sample[], begun: { at: number; action: Action }[], windows: [number, number][]) {
  const inWindow = (at: number) => windows.some(([a, b]) => at >= a && at < b);
  const perAction: Partial<Record<Action | 'bell', number>> = {};
  const counted = samples.filter((s) => inWindow(s.at));
  const bells = counted.filter((s) => s.action === 'bell');
  if (bells.length) perAction.bell = round1(bells.reduce((a, s) => a + s.sql, 0) / bells.length);
  for (const action of Object.keys(MIX) as Action[]) {
    const n = begun.filter((b) => b.action === action && inWindow(b.at)).length;
    if (n) perAction[action] = round1(counted.filter((s) => s.action === action).reduce((a, s) => a + s.sql, 0) / n);
  }
  const actionsPerMinute = 60_000 / ((THINK_MS[0] + THINK_MS[1]) / 2);
  const missing = (Object.keys(MIX) as Action[]).filter((a) => perAction[a] === undefined);
  const total = Object.values(MIX).reduce((a, b) => a + b, 0);
  const perMinute = (Object.keys(MIX) as Action[]).reduce((sum, a) => sum + (actionsPerMinute * MIX[a] * (perAction[a] ?? 0)) / total, 0) + (60_000 / BELL_MS) * (perAction.bell ?? 0);
  return { perMemberMinute: round1(perMinute), actionsPerMinute, sqlPerAction: perAction, missing };
}

export const dayModule: BenchModule = {
  name: 'day',
  scope: 'server',
  describe: `a day in the life: members of summit on their own loops (bell every 30 s, pages, replies, likes, autosaves, answers), ramped ${STEPS.join(', ')} × ${STEP_S} s until p99 ≥ ${P99_MS} ms or a failure`,
  async run(ctx) {
    const server = serverOf(ctx);
    const { target, drop } = await moduleDatabase(server.backend, 'bench_day');
    try {
      ctx.log(`  day: seeding the demo and ${MAX_MEMBERS} members, minting their sessions…`);
      const { child, info } = await startChild(target);
      let result: Awaited<ReturnType<typeof ramp>>;
      try {
        result = await ramp(info, ctx.log);
      } finally {
        await stopServer(child);
      }
      const { steps, prepareFailures, nominal } = result;
      const passed = steps.filter((s) => s.pass);
      const best = passed.at(-1) ?? null;
      const warnings: string[] = [];
      if (prepareFailures) warnings.push(`${prepareFailures} members could not get their first page or accept the product agreement`);
      for (const s of steps) for (const f of s.failureSamples) warnings.push(`${s.members} members: ${f}`);
      const mixNote = Object.entries(MIX)
        .map(([a, w]) => `${a} ${w}`)
        .join(', ');
      const shown = best ?? steps.at(-1);
      const sections: Section[] = [
        {
          key: 'day',
          title: `A day in the life: the most active members served with p99 < ${P99_MS} ms and no failure (one production server process, SQL counted; ${STEP_S} s per step, the last ${STEP_S - SETTLE_S} s measured)`,
          head: ['members', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'failures', 'SQL/member-min', 'SQL/req', 'load avg', 'p99'],
          rows: steps.map((s) => [String(s.members), String(s.perSecond), String(s.p50), String(s.p90), String(s.p99), String(s.max), String(s.failures), String(s.sqlPerMemberMinute), String(s.sqlPerRequest), s.load.join(' '), s.pass ? 'pass' : 'over']),
          right: [true, true, true, true, true, true, true, true, true, false, false],
          notes: [
            `Largest N passing: ${best ? best.members : 'none'}${best && best.members === STEPS.at(-1) ? ' (the last step: at least that many; BENCH_DAY_STEPS for more)' : ''} (steps ${STEPS.join(', ')}; the ramp stops at the first step over).`,
            `SQL per member-minute at the nominal pace (${nominal.actionsPerMinute} actions in the mix + ${60_000 / BELL_MS} bell polls a minute, the SQL per action measured): ${nominal.perMemberMinute}${nominal.missing.length ? ` (no ${nominal.missing.join(', ')} in the windows: counted as 0)` : ''}; per action: ${Object.entries(nominal.sqlPerAction).map(([a, n]) => `${a} ${n}`).join(', ')}.`,
            `Server start (migrations, demo seed, ${MAX_MEMBERS} members, their sessions): ${(info.startupMs / 1000).toFixed(1)} s.`,
            `  Requests as a browser sends them (keep-alive, gzip/br). SQL/member-min: the window's Server-Timing counts / (N × minutes), the requests only (not the job workers'); it falls when the server is slow, the nominal figure does not.`,
            `  Mix (weights of a member's actions): ${mixNote}; think time ${THINK_MS[0] / 1000}–${THINK_MS[1] / 1000} s uniform; the bell's poll every ${BELL_MS / 1000} s apart.`,
          ],
        },
      ];
      if (shown) {
        sections.push({
          key: 'day-requests',
          title: 'A day in the life, by request, at the largest step passing (or the last step, when none passed)',
          head: ['members', 'request', 'count', 'p50 ms', 'p99 ms', 'max ms', 'failures', 'SQL/req'],
          rows: Object.entries(shown.byLabel).map(([l, s]) => [`${shown.members}${best ? '' : ' (over)'}`, l, String(s.requests), String(s.p50), String(s.p99), String(s.max), String(s.failures), String(s.sqlPerRequest)]),
          right: [true, false, true, true, true, true, true, true],
        });
      }
      return { sections, warnings, data: { nominalSql: nominal, mix: MIX, thinkMs: THINK_MS, bellMs: BELL_MS, stepSeconds: STEP_S, settleSeconds: SETTLE_S, p99Ms: P99_MS, largestPassing: best?.members ?? null, seedMs: info.seedMs, startupMs: info.startupMs, posts: info.postIds.length, profiles: info.profileIds.length, steps } };
    } finally {
      await drop();
    }
  },
};

serveIfStarted(SCRIPT, serveDay);
