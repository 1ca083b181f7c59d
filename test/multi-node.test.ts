import t from 'tap';
import { sql } from 'kysely';
import { JobQueue } from '#src/lib/jobs/queue.ts';
import { PUBLISH_DUE_JOB, POLL_SCANS_JOB } from '#src/features/articles/jobs.ts';
import { DIGEST_JOB } from '#src/features/notifications/digest.ts';
import { freshDatabase, usingPostgres } from '#test/helpers/db.ts';
import { setPassword, GOOD_PASSWORD } from '#test/helpers/auth.ts';
import { createCommunity, createMember } from '#test/helpers/factories.ts';
import { startServerProcess } from '#test/helpers/server-process.ts';
import { DUNNING_JOB, RENEWAL_JOB, STALE_CHARGES_JOB } from '#src/features/payments/renewals/jobs.ts';
import { REMINDER_JOB } from '#src/features/expert-panels/invite/invitations.ts';
import { SWEEP_JOB } from '#src/features/badges/evaluate.ts';
import { DUE_SWEEP_JOB } from '#src/features/messages/delivery.ts';
import { ROLLUP_JOB, RETENTION_JOB } from '#src/features/insights/jobs.ts';

const SECRET = 'multi-node-secret-0123456789-0123456789-abcdef';

/** A node as a deployment runs it: its own process, on the shared database and Redis. */
const startNode = (databaseUrl: string) =>
  startServerProcess({
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    COOKIE_SECRET: SECRET,
    DEFAULT_COMMUNITY: 'alpha',
    SEED_DEMO: 'false',
    JOB_WORKERS: 'true',
    REDIS_URL: 'redis://127.0.0.1:6379',
    RATE_LIMIT_MAX: '100000',
  });

/** A client with a cookie jar: the cookies of one browser, sent to whichever node it talks to. */
class Client {
  cookies = new Map<string, string>();
  csrf = '';
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  async fetch(url: string, init: RequestInit = {}) {
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { cookie: this.header(), ...(init.headers as Record<string, string>) } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, ...v] = pair!.split('=');
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(c)) this.cookies.delete(k!);
      else this.cookies.set(k!, v.join('='));
    }
    const body = await res.text();
    const token = /<meta name="csrf-token" content="([^"]+)"/.exec(body)?.[1];
    if (token) this.csrf = token;
    return { status: res.status, body };
  }
  post(url: string, json: unknown) {
    return this.fetch(url, { method: 'POST', body: JSON.stringify(json), headers: { 'content-type': 'application/json', 'x-csrf-token': this.csrf } });
  }
}

t.test('two app processes on one PostgreSQL database', { skip: usingPostgres() ? false : 'needs PostgreSQL (DATABASE_URL): PGlite is one process by design' }, async (t) => {
  const { db, drop, url } = await freshDatabase();
  t.teardown(drop);
  const alpha = await createCommunity(db, { code: 'alpha' });
  const member = await createMember(db, alpha);
  await setPassword(db, member.id);
  const target = await createMember(db, alpha);
  await setPassword(db, target.id);

  const a = await startNode(url!);
  const b = await startNode(url!);
  t.teardown(async () => {
    for (const node of [a, b]) {
      node.proc.kill('SIGTERM');
      await node.exited;
    }
  });

  await t.test('a session made on one node works on the other, and a sign-out on one ends it on both', async (t) => {
    const browser = new Client();
    await browser.fetch(`${a.base}/login`);
    const login = await browser.post(`${a.base}/rest/login`, { username: member.email, password: GOOD_PASSWORD });
    t.equal(login.status, 200, 'signed in on A');
    t.match((await browser.fetch(`${b.base}/`)).body, 'Sign Out', 'B knows the session');
    t.equal((await browser.post(`${b.base}/rest/logout`, {})).status, 204, 'signed out on B');
    t.notMatch((await browser.fetch(`${a.base}/`)).body, 'Sign Out', 'A no longer knows it');
  });

  await t.test('the per-account password limit holds across both nodes', async (t) => {
    const browser = new Client();
    await browser.fetch(`${a.base}/login`);
    const statuses: string[] = [];
    for (let i = 0; i < 6; i++) {
      const node = i % 2 === 0 ? a : b;
      const res = await browser.post(`${node.base}/rest/login`, { username: target.email, password: 'wrong-password-1A!' });
      statuses.push(JSON.parse(res.body).error?.code ?? String(res.status));
    }
    t.same(statuses.slice(0, 4), Array(4).fill('NotAuthorized.Password'), 'wrong passwords, alternating nodes');
    t.same(statuses.slice(4), ['BadRequest.MaxAttempts', 'BadRequest.MaxAttempts'], 'the fifth locks the account on one node, and the other refuses too');
  });

  await t.test('a scheduled article is published exactly once, however many runs of the job race', async (t) => {
    const now = new Date();
    const article = await db
      .insertInto('articles')
      .values({ community_id: alpha.id, author_id: member.id, status: 'SCHEDULED', status_updated_at: now, scheduled_date: new Date(now.getTime() - 60_000), created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const revision = await db
      .insertInto('article_revisions')
      .values({ community_id: alpha.id, article_id: article.id, author_id: member.id, title: 'Raced', content: '<p>text</p>', word_count: 1, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.updateTable('articles').set({ current_revision_id: revision.id }).where('id', '=', article.id).execute();

    // Ten runs of the publishing job at once, as if every node's clock fired together.
    const queue = new JobQueue(db, { workers: false, onError: () => undefined });
    queue.define({ name: PUBLISH_DUE_JOB, handler: async () => undefined }, { name: POLL_SCANS_JOB, handler: async () => undefined });
    await queue.start();
    await Promise.all(Array.from({ length: 10 }, () => queue.enqueue(db, PUBLISH_DUE_JOB, {})));
    let status = '';
    for (let i = 0; i < 150 && status !== 'PUBLISHED'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await db.selectFrom('articles').select('status').where('id', '=', article.id).executeTakeFirstOrThrow()).status;
    }
    t.equal(status, 'PUBLISHED', 'published by a worker of one of the nodes');
    for (let i = 0; i < 100 && (await queue.counts(PUBLISH_DUE_JOB)).queued + (await queue.counts(PUBLISH_DUE_JOB)).active > 0; i++) await new Promise((r) => setTimeout(r, 200));
    await queue.stop();
    const moves = await db.selectFrom('article_status_events').select('to_status').where('article_id', '=', article.id).execute();
    t.same(moves.map((m) => m.to_status), ['PUBLISHED'], 'one move to PUBLISHED');
    // The article's own notice (a first published article also earns a badge, told apart).
    const notes = await db.selectFrom('notifications').select('id').where('user_id', '=', member.id).where('kind', '=', 'article_progress').execute();
    t.equal(notes.length, 1, 'one notification to the author');
    const schedules = await sql<{ name: string }>`select name from pgboss.schedule order by name`.execute(db);
    t.same(schedules.rows.map((r) => r.name), [POLL_SCANS_JOB, PUBLISH_DUE_JOB, DIGEST_JOB, RENEWAL_JOB, DUNNING_JOB, STALE_CHARGES_JOB, REMINDER_JOB, SWEEP_JOB, DUE_SWEEP_JOB, ROLLUP_JOB, RETENTION_JOB].sort(), 'each schedule exists once, for both nodes');
  });

  await t.test('SIGTERM: a node finishes and exits cleanly while the other keeps serving', async (t) => {
    b.proc.kill('SIGTERM');
    t.equal(await b.exited, 0, 'B exited with 0');
    t.equal((await fetch(`${a.base}/health`)).status, 200, 'A still answers');
  });
});
