import t from 'tap';
import { sql } from 'kysely';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { signIn } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';

/**
 * The demo keeps the README's word: its accounts sign in where it says and land where it says, and
 * what "What to try" promises of the seeded demo is there, counts included. One seeded database for
 * the whole file; every claim is read through the pages (app.inject), as a new user would try it.
 */

const README = readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');

type Account = { who: string; emails: string[]; password: string };

/** The README's account table: the one whose header is `| who | email | password |`. */
function readmeAccounts(markdown: string): Account[] {
  const lines = markdown.split('\n');
  const header = lines.findIndex((l) => /^\|\s*who\s*\|\s*email\s*\|\s*password\s*\|\s*$/.test(l));
  if (header < 0) return [];
  const rows: Account[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [who = '', email = '', password = ''] = line.split('|').slice(1, -1).map((c) => c.trim());
    const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    rows.push({ who, emails: ticked(email).filter((e) => e.includes('@')), password: ticked(password)[0] ?? '' });
  }
  return rows;
}

/** A README link to the local demo, as a path (`http://localhost:3000/x?y` -> `/x?y`). */
function readmeLink(pattern: RegExp): string {
  const m = pattern.exec(README);
  if (!m) throw new Error(`The README has no link matching ${pattern}`);
  return m[0].replace(/^http:\/\/localhost:3000/, '').replace(/[.,:;)]+$/, '');
}

const WORDS: Record<string, number> = { no: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };
const number = (s: string) => WORDS[s.toLowerCase()] ?? Number(s);
const mainOf = (html: string) => /<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '';
const sectionOf = (html: string, id: string) => new RegExp(`<section[^>]*aria-labelledby="${id}"[^>]*>([\\s\\S]*?)</section>`).exec(html)?.[1] ?? '';
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');

/** The community a demo address belongs to, and the host that reaches it. */
const hostOf = (email: string) => (email.endsWith('@harbor-demo.example.com') ? 'harbor.localhost' : 'summit.localhost');

t.test("the README's demo, tried as a new user would", async (t) => {
  const db = await setupDatabase(t, { seeded: true });
  const { app } = await startApp(t, db, { env: { DEFAULT_COMMUNITY: 'summit' } });
  const community = (code: string) => db.selectFrom('communities').selectAll().where('code', '=', code).executeTakeFirstOrThrow();
  const summit = await community('summit');
  const userByEmail = (email: string) => db.selectFrom('users').select(['id', 'first_name', 'last_name']).where('email', '=', email).executeTakeFirstOrThrow();
  const amara = await userByEmail('amara.okafor@summit-demo.example.com');
  const daniel = await userByEmail('daniel.reyes@summit-demo.example.com');
  const { cookie: amaraCookie } = await signIn(app, amara, summit);
  let ip = 10;
  /** A browser without JavaScript, each on its own address (the sign-in limits count per address). */
  const browser = (host = 'summit.localhost') => new FormBrowser(app, `198.51.100.${ip++}`, host);
  const asAmara = (url: string) => app.inject({ url, headers: { host: 'summit.localhost', cookie: amaraCookie, accept: 'text/html' } });

  const accounts = readmeAccounts(README);

  await t.test('the account table lists the admin, members, the moderator, the overdue member and the invitee', async (t) => {
    t.ok(accounts.length >= 5, `${accounts.length} rows`);
    const emails = accounts.flatMap((a) => a.emails);
    for (const email of ['admin@example.com', 'amara.okafor@summit-demo.example.com', 'rosa.delgado@harbor-demo.example.com', 'daniel.reyes@summit-demo.example.com', 'jonah.whitaker@summit-demo.example.com', 'elena.voss@summit-demo.example.com']) {
      t.ok(emails.includes(email), email);
    }
  });

  await t.test('every account with a password signs in as the README says, and lands where it says', async (t) => {
    for (const account of accounts.filter((a) => a.password)) {
      for (const email of account.emails) {
        if (/admin/i.test(account.who)) {
          // "Staff sign in at /login-admin and pick the community."
          const b = browser();
          const res = await b.post('/login-admin', { email, password: account.password, community: 'summit' }, '/login-admin');
          t.equal(res.statusCode, 303, `${email} signs in as staff`);
          t.equal(res.headers.location, '/admin', 'and lands in the admin area');
          t.equal((await b.get('/admin/members')).statusCode, 200, 'the staff’s members page opens');
          // "Network Staff: its admins land on the sites page."
          const staff = browser('admin.localhost');
          const own = await staff.post('/login-admin', { email, password: account.password, community: 'admin' }, '/login-admin');
          t.equal(own.statusCode, 303);
          const landed = String(own.headers.location);
          const sites = landed === '/admin/sites' ? landed : String((await staff.get(landed)).headers.location ?? landed);
          t.equal(sites, '/admin/sites', 'the staff’s own community lands on the sites page');
          continue;
        }
        const b = browser(hostOf(email));
        const step = await b.post('/login', { email });
        t.equal(step.statusCode, 200, `${email}: the password step`);
        const res = await b.post('/login/password', { email, password: account.password });
        t.equal(res.statusCode, 303, `${email} signs in with the README's password`);
        t.equal(res.headers.location, '/', 'to the home page');
        const home = await b.get('/');
        if (/overdue/i.test(account.who)) {
          t.equal(home.statusCode, 303, `${email}: the first page is the overdue page`);
          t.match(String(home.headers.location), /^\/billing\/overdue\?next=/);
          const overdue = await b.get(String(home.headers.location));
          t.equal(overdue.statusCode, 200);
          t.match(textOf(overdue.body), 'Your membership payment is overdue');
          t.match(textOf(overdue.body), 'Jonah');
        } else {
          t.equal(home.statusCode, 200, `${email}: the home page`);
          t.match(home.body, 'Sign Out');
          if (/moderator/i.test(account.who)) t.equal((await b.get('/forum/moderation')).statusCode, 200, `${email} moderates the forum`);
        }
      }
    }
  });

  await t.test('the invitee has no password, and her invitation link from the README opens onboarding', async (t) => {
    const invitee = accounts.find((a) => !a.password);
    t.ok(invitee, 'a row without a password');
    t.same(invitee!.emails, ['elena.voss@summit-demo.example.com']);
    const b = browser();
    const refused = await b.post('/login/password', { email: invitee!.emails[0]!, password: 'Demo-Member-2026!' });
    t.not(refused.statusCode, 303, 'no password signs her in');
    const link = readmeLink(/http:\/\/localhost:3000\/get-started\?\S+/);
    t.match(link, /uid=onb_demo_elena_/);
    let res = await b.get(link);
    for (let hops = 0; res.statusCode === 303 && hops < 3; hops++) res = await b.get(String(res.headers.location));
    t.equal(res.statusCode, 200, 'the link opens her onboarding');
    t.match(textOf(res.body), 'Your membership', 'at the membership offer and the card');
    t.match(textOf(res.body), 'Elena');
  });

  await t.test('Home: Amara sees her article on its way, her pending introduction and her post waiting for approval', async (t) => {
    t.match(README, /your own open items \(an article on its way, a pending\s+introduction, a forum post waiting\s+for approval\)/);
    t.match(README, /what is new for you first, counted\s+and with faces/);
    const res = await asAmara('/');
    t.equal(res.statusCode, 200);
    const open = sectionOf(mainOf(res.body), 'home-open');
    const text = textOf(open);
    t.match(text, 'Your article is with the editors', 'an article on its way');
    t.match(open, '<a href="/articles">', 'leading to her articles');
    t.match(open, '<a href="/members/introductions">Your introduction to Daniel Reyes</a>', 'a pending introduction');
    t.match(text, 'your post waits for a moderator', 'a forum post waiting for approval');
    const waiting = await db.selectFrom('forum_posts').select(['id', 'title']).where('author_id', '=', amara.id).where('status', '=', 'pending').executeTakeFirstOrThrow();
    t.match(open, `<a href="/forum/post/${waiting.id}">`, 'leading to the post');
  });

  await t.test('Articles: a member who has published is past the terms; her published article has its Amplify link', async (t) => {
    for (const url of ['/articles', '/articles/published', '/articles/agreement']) {
      const res = await asAmara(url);
      t.equal(res.statusCode, 200, url);
      t.notMatch(res.body, 'Before you write', `${url}: not the terms again`);
    }
    const published = await asAmara('/articles/published');
    t.match(textOf(published.body), 'Why Our Leadership Meeting Now Starts the Night Before');
    t.match(published.body, /href="\/articles\/amplify/, 'an Amplify link');
    t.match(textOf((await asAmara('/articles')).body), 'Plan in Ranges, Not Numbers', 'the article on its way is on her dashboard');
    // Every demo author has accepted the terms (the product asks for them before a first article).
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from (select distinct community_id, author_id from articles) a
      where not exists (select 1 from article_agreements g where g.community_id = a.community_id and g.user_id = a.author_id and g.kind = 'PRODUCT')`.execute(db);
    t.equal(rows[0]!.n, 0, 'no author without the product agreement');
  });

  await t.test("the forum's moderation queue and the staff's forum page count what the README says", async (t) => {
    const claim = /a forum of (\d+) posts over four months \((\w+) waiting for approval[^;)]*; one post reported by (\w+) members?: (\d+) open reports?\)/.exec(README);
    t.ok(claim, 'the README states the forum’s numbers');
    const [, posts, waiting, reporters, reports] = claim!;
    const staff = browser();
    await staff.post('/login-admin', { email: 'admin@example.com', password: 'Demo-Admin-2026!', community: 'summit' }, '/login-admin');
    const overview = textOf(mainOf((await staff.get('/admin/forum')).body));
    t.match(overview, `${number(waiting!)} posts and replies wait for approval`);
    t.match(overview, `${number(reports!)} open reports`);
    t.match(overview, `${number(posts!)} posts`);
    t.equal(number(reporters!), number(reports!), 'each reporter made one report');
    // Daniel's moderation page: the posts waiting, and the reported post.
    const { cookie } = await signIn(app, daniel, summit);
    const moderation = await app.inject({ url: '/forum/moderation', headers: { host: 'summit.localhost', cookie, accept: 'text/html' } });
    t.equal(moderation.statusCode, 200);
    const pending = await db.selectFrom('forum_posts').select('title').where('community_id', '=', summit.id).where('status', '=', 'pending').execute();
    t.equal(pending.length, number(waiting!));
    const page = textOf(moderation.body);
    for (const p of pending) t.match(page, p.title, `the queue shows "${p.title}"`);
    t.match(page, 'Exclusive for Summit members: 40% off our pantry gift boxes', 'and the reported post');
  });

  await t.test('Members: Elena, still in onboarding, is not in the directory; a misspelt company still finds Amara', async (t) => {
    for (const url of ['/members', '/members/results?q=Voss', '/members/results?q=Elena', '/members/browse?letter=V', '/members?tab=discover', '/members/results?industry=Biotechnology']) {
      const res = await asAmara(url);
      t.equal(res.statusCode, 200, url);
      t.notMatch(res.body, 'Elena Voss', `${url}: not Elena`);
      t.notMatch(res.body, 'Voss Biotech');
    }
    t.notMatch((await asAmara('/members')).body, '<option value="Biotechnology">', 'her industry is not a filter option');
    t.match(textOf((await asAmara('/members/results?q=Lumen+Analitics')).body), 'Amara Okafor');
  });

  await t.test('Staff: the deactivated demo member is not an account the README signs in with', async (t) => {
    const deactivated = await db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.email', 'users.first_name', 'users.last_name'])
      .where('memberships.community_id', '=', summit.id)
      .where('memberships.is_active', '=', false)
      .execute();
    t.same(deactivated.map((d) => `${d.first_name} ${d.last_name}`), ['Ines Moreau']);
    t.match(README, 'Ines Moreau is deactivated');
    const emails = accounts.flatMap((a) => a.emails);
    t.notOk(deactivated.some((d) => emails.includes(d.email)));
  });

  await t.test('the public links of the README answer signed out: pay-now, the roundup', async (t) => {
    const payNow = await app.inject({ url: readmeLink(/http:\/\/localhost:3000\/pay-now\?\S+/), headers: { host: 'summit.localhost', accept: 'text/html' } });
    t.equal(payNow.statusCode, 200);
    t.match(textOf(payNow.body), 'Jonah');
    const roundup = await app.inject({ url: readmeLink(/http:\/\/localhost:3000\/expert-panels\/roundups\/\S+/), headers: { host: 'summit.localhost', accept: 'text/html' } });
    t.equal(roundup.statusCode, 200);
  });

  await t.test("the content bank: a misspelt search finds the roundup, and Best of 2026 holds six items", async (t) => {
    const claim = /the collection "Best of 2026" holds (\w+) items/.exec(README.replace(/\s+/g, ' '));
    t.ok(claim, 'the README states the collection');
    const staff = browser();
    await staff.post('/login-admin', { email: 'admin@example.com', password: 'Demo-Admin-2026!', community: 'summit' }, '/login-admin');
    const found = textOf(mainOf((await staff.get('/admin/content-bank?q=pricinng')).body));
    t.match(found, 'Pricing moves that paid off', 'the typo finds the roundup');
    const collections = await staff.get('/admin/content-bank/collections');
    const id = /href="\/admin\/content-bank\/collections\/(\d+)">Best of 2026</.exec(collections.body)?.[1];
    t.ok(id, 'Best of 2026 is listed');
    const collection = await staff.get(`/admin/content-bank/collections/${id}`);
    t.equal([...mainOf(collection.body).matchAll(/<tr>/g)].length - 1, number(claim![1]!), 'its items, in rows');
  });

  await t.test("Syndication: the README's feed addresses answer, carry what it says, and pages advertise them", async (t) => {
    const feeds = [...README.matchAll(/http:\/\/(localhost|harbor\.localhost):3000(\/feeds\/[a-z0-9-]+\.(?:rss|atom|json))/g)].map((m) => ({ host: m[1] === 'localhost' ? 'summit.localhost' : 'harbor.localhost', path: m[2]! }));
    t.same(feeds.map((f) => f.path), ['/feeds/summit-everything.rss', '/feeds/expert-roundups.rss', '/feeds/harbor-published.json', '/feeds/summit-everything.rss']);
    const items = async (f: { host: string; path: string }) => {
      const res = await app.inject({ url: f.path, headers: { host: f.host } });
      t.equal(res.statusCode, 200, f.path);
      return f.path.endsWith('.json') ? (JSON.parse(res.body).items as unknown[]).length : (res.body.match(/<item>/g) ?? []).length;
    };
    t.equal(await items(feeds[0]!), 2, 'its published article and its published roundup');
    t.equal(await items(feeds[1]!), 1, 'the roundup alone');
    t.equal(await items(feeds[2]!), 0, "Harbor's: empty");
    const page = await app.inject({ url: '/login', headers: { host: 'summit.localhost', accept: 'text/html' } });
    t.match(page.body, '<link rel="alternate" type="application/rss+xml" title="Summit — everything (RSS)" href="/feeds/summit-everything.rss"/>');
    const first = await app.inject({ url: '/feeds/summit-everything.rss', headers: { host: 'summit.localhost' } });
    t.equal((await app.inject({ url: '/feeds/summit-everything.rss', headers: { host: 'summit.localhost', 'if-none-match': String(first.headers.etag) } })).statusCode, 304);
  });

  await t.test("Harbor's forum is off: its pages do not exist", async (t) => {
    const rosa = await userByEmail('rosa.delgado@harbor-demo.example.com');
    const { cookie } = await signIn(app, rosa, await community('harbor'));
    t.equal((await app.inject({ url: '/forum', headers: { host: 'harbor.localhost', cookie, accept: 'text/html' } })).statusCode, 404);
  });
});
