import t from 'tap';
import { brotliDecompressSync } from 'node:zlib';
import { parseAtomFeed, parseJsonFeed, parseRssFeed } from 'feedsmith';
import { fixedClock } from '#src/core/clock.ts';
import type { RawDb } from '#src/db/index.ts';
import type { ArticleStatusValue, Community, RoundupStatus } from '#src/db/types.ts';
import { moveArticle } from '#src/features/articles/review.ts';
import { addToCollection, createCollection } from '#src/features/content-bank/collections.ts';
import { createTag, tagItem } from '#src/features/content-bank/tags.ts';
import { startApp, setupDatabase } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';

/**
 * Syndication (issue 29): each community's feeds in RSS 2.0, Atom and JSON Feed, valid by their
 * specifications (parsed with feedsmith, a maintained feed parser, and checked for well-formed XML,
 * absolute links, dates and unique ids), carrying this community's published work only; ETag and
 * Last-Modified answered by 304; the staff's tab without JavaScript; GraphQL; the page head's links.
 */

const RFC822 = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const ABSOLUTE = /^https?:\/\/[^\s/]+\//;

/** What makes XML not well-formed, as a strict parser would refuse it (feed parsers forgive): a list of problems, empty when fine. */
function xmlProblems(text: string): string[] {
  const problems: string[] = [];
  if (!text.startsWith('<?xml version="1.0" encoding="utf-8"?>')) problems.push('no XML declaration first');
  if (/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(text)) problems.push('a character XML 1.0 does not allow');
  const badAmp = /&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/;
  const body = text.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  let roots = 0;
  const token = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|([^<]+)|(<)/gy;
  for (let m = token.exec(body); m; m = token.exec(body)) {
    if (m[6]) {
      problems.push(`a stray < at ${m.index}`);
      break;
    }
    if (m[5] !== undefined) {
      if (badAmp.test(m[5])) problems.push(`an unescaped & in text near ${JSON.stringify(m[5].slice(0, 40))}`);
      if (stack.length === 0 && m[5].trim()) problems.push('text outside the root');
      continue;
    }
    if (badAmp.test(m[3] ?? '')) problems.push(`an unescaped & in an attribute of <${m[2]}>`);
    if (m[1]) {
      if (stack.pop() !== m[2]) problems.push(`</${m[2]}> closes nothing open`);
    } else if (!m[4]) {
      if (stack.length === 0) roots++;
      stack.push(m[2]!);
    } else if (stack.length === 0) roots++;
  }
  if (token.lastIndex !== 0 && token.lastIndex < body.length) problems.push('unreadable markup');
  if (stack.length) problems.push(`unclosed <${stack.join('>, <')}>`);
  if (roots !== 1) problems.push(`${roots} root elements`);
  return problems;
}

const DAY = 24 * 3600 * 1000;

t.test('syndication: feeds, validity, tenancy, validators, the staff tab, GraphQL, the page head', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', name: 'Alpha Circle', app_name: 'Alpha Circle', hosts: ['alpha.test'] });
  const beta = await createCommunity(db, { code: 'beta', name: 'Beta Guild', app_name: 'Beta Guild', hosts: ['beta.test'] });
  const clock = fixedClock('2026-11-21T12:00:00Z');
  const { app } = await startApp(t, db, { clock });
  const now = () => clock.now();

  const staff = await createMember(db, alpha, { firstName: 'Sam', lastName: 'Staff', roles: ['ADMIN', 'MEMBER'] });
  const writer = await createMember(db, alpha, { firstName: 'Wren', lastName: 'Writer' });
  const bea = await createMember(db, beta, { firstName: 'Bea', lastName: 'Beta', roles: ['ADMIN', 'MEMBER'] });
  const s = { staff: await signIn(app, staff, alpha, ['ADMIN', 'MEMBER']), writer: await signIn(app, writer, alpha), bea: await signIn(app, bea, beta, ['ADMIN', 'MEMBER']) };

  // ---- the community's work: published with an address (in), and everything that must stay out ----
  const article = async (c: Community, authorId: number, o: { title: string; status: ArticleStatusValue; url?: string | null; daysAgo: number; content?: string }) => {
    const at = new Date(now().getTime() - o.daysAgo * DAY);
    const published = o.status === 'PUBLISHED' || o.status === 'MANUALLY_PUBLISHED';
    const a = await db
      .insertInto('articles')
      .values({ community_id: c.id, author_id: authorId, status: o.status, status_updated_at: at, published_date: published ? at : null, article_url: o.url ?? null, created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const r = await db
      .insertInto('article_revisions')
      .values({ community_id: c.id, article_id: a.id, author_id: authorId, title: o.title, content: o.content ?? '<p>Words of the article.</p>', word_count: 4, created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.updateTable('articles').set({ current_revision_id: r.id }).where('id', '=', a.id).execute();
    return a.id;
  };
  const questionOf = async (c: Community) => {
    const panel = await db.insertInto('ep_panels').values({ community_id: c.id, name: 'Growth' }).returning('id').executeTakeFirstOrThrow();
    const batch = await db.insertInto('ep_batches').values({ community_id: c.id, panel_id: panel.id, title: 'Batch', deadline_at: now() }).returning('id').executeTakeFirstOrThrow();
    return (await db.insertInto('ep_questions').values({ community_id: c.id, panel_id: panel.id, batch_id: batch.id, title: 'Which pricing move paid off?' }).returning('id').executeTakeFirstOrThrow()).id;
  };
  const roundup = async (c: Community, questionId: number, o: { title: string; slug: string; status: RoundupStatus; daysAgo: number; intro?: string }) => {
    const at = new Date(now().getTime() - o.daysAgo * DAY);
    return (
      await db
        .insertInto('ep_roundups')
        .values({ community_id: c.id, question_id: questionId, title: o.title, slug: o.slug, status: o.status, intro_html: o.intro ?? '<p>What the panel said.</p>', published_at: o.status === 'FINAL' ? at : null, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  };
  const HOSTILE_TITLE = 'Growth & <Scale>: "quotes", \'apostrophes\', ]]> and a control\u0001 character 🚀';
  await article(alpha, writer.id, { title: HOSTILE_TITLE, status: 'MANUALLY_PUBLISHED', url: 'https://news.example.com/a?x=1&y=2', daysAgo: 3, content: '<p>Tom &amp; Jerry &lt;3 long words here.</p>' });
  await article(alpha, writer.id, { title: 'Published on its schedule', status: 'PUBLISHED', url: 'https://news.example.com/scheduled', daysAgo: 10 });
  await article(alpha, writer.id, { title: 'Published without an address', status: 'PUBLISHED', url: null, daysAgo: 4 });
  await article(alpha, writer.id, { title: 'Still in review', status: 'SUBMITTED_FOR_REVIEW', daysAgo: 1 });
  await article(alpha, staff.id, { title: 'Trashed after publishing', status: 'TRASHED', url: 'https://news.example.com/trashed', daysAgo: 2 });
  const qa = await questionOf(alpha);
  await roundup(alpha, qa, { title: 'Pricing moves that paid off', slug: 'pricing-moves', status: 'FINAL', daysAgo: 5, intro: '<p>Three leaders on <strong>pricing</strong> &amp; revenue.</p>' });
  await roundup(alpha, qa, { title: 'A roundup in review', slug: 'in-review', status: 'EDITOR_REVIEW', daysAgo: 1 });
  await article(beta, bea.id, { title: 'Beta secret article', status: 'MANUALLY_PUBLISHED', url: 'https://beta.example.com/secret', daysAgo: 1 });
  await roundup(beta, await questionOf(beta), { title: 'Beta secret roundup', slug: 'beta-roundup', status: 'FINAL', daysAgo: 1 });

  const get = (url: string, o: { host?: string; cookie?: string; headers?: Record<string, string> } = {}) =>
    app.inject({ url, headers: { host: o.host ?? 'alpha.test', ...(o.cookie ? { cookie: o.cookie } : {}), ...o.headers } });
  // One CSRF pair per session serves every form it posts (the token goes with its `_csrf` cookie).
  const pairs = new Map<string, Promise<{ token: string; cookie: string }>>();
  const csrf = (cookie: string) => {
    if (!pairs.has(cookie)) pairs.set(cookie, csrfFor(app, cookie, '/contact'));
    return pairs.get(cookie)!;
  };
  const post = async (url: string, cookie: string, form: Record<string, string | string[]>, host = 'alpha.test') => {
    const c = await csrf(cookie);
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...form, _csrf: c.token })) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
    return app.inject({ method: 'POST', url, headers: { accept: 'text/html', host, cookie: c.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: body.toString() });
  };
  const idFrom = (location: unknown) => Number(/\/admin\/feeds\/syndication\/(\d+)/.exec(String(location))?.[1]);
  const sqlOf = (r: { headers: Record<string, unknown> }) => Number(/db;[^,]*dur=(\d+)/.exec(String(r.headers['server-timing']))?.[1]);

  await get('/login');
  const loginBefore = await get('/login');
  t.notMatch(loginBefore.body, 'rel="alternate"', 'no feed yet: nothing advertised');

  let everything = 0;
  let roundupsOnly = 0;

  await t.test('staff create feeds without JavaScript; refusals beside the field keep what was typed', async (t) => {
    t.equal((await get('/admin/feeds/syndication', { cookie: s.writer.cookie })).statusCode, 303, 'a member is sent to sign in as staff');
    const page = await get('/admin/feeds/syndication', { cookie: s.staff.cookie });
    t.equal(page.statusCode, 200);
    t.match(page.body, 'aria-current="page">Syndication</a>', 'the Syndication tab of /admin/feeds');
    t.match(page.body, 'No syndication feeds yet');
    const bad = await post('/admin/feeds/syndication', s.staff.cookie, { title: '', slug: 'Bad Slug!', description: 'typed description', limit: '500' });
    t.equal(bad.statusCode, 400);
    for (const m of ['Give the feed a title.', 'lowercase letters, digits and single hyphens', 'Give a whole number from 1 to 100.', 'Choose what the feed carries']) t.match(bad.body, m);
    t.match(bad.body, 'typed description', 'what was typed is kept');
    t.match(bad.body, 'value="Bad Slug!"');
    t.match(bad.body, 'aria-invalid="true"');
    t.equal((await post('/admin/feeds/syndication', s.staff.cookie, { title: 'Nul\u0000', types: 'article', limit: '5' })).statusCode, 400, 'a NUL byte is 400');
    t.equal((await post('/admin/feeds/syndication', s.staff.cookie, { title: 'x'.repeat(20_000), types: 'article', limit: '5' })).statusCode, 400, 'a huge value is 400');
    t.equal((await post('/admin/feeds/syndication', s.staff.cookie, { title: 'Odd', types: 'podcasts', limit: '5' })).statusCode, 400, 'an unknown type');
    const made = await post('/admin/feeds/syndication', s.staff.cookie, { title: 'Alpha — everything', slug: '', description: 'All we publish.', types: ['article', 'roundup'], limit: '20', enabled: 'on' });
    t.equal(made.statusCode, 303);
    everything = idFrom(made.headers.location);
    t.match(String(made.headers.location), /\?done=created$/);
    const roundups = await post('/admin/feeds/syndication', s.staff.cookie, { title: 'Roundups', slug: 'roundups', types: 'roundup', limit: '1', enabled: 'on' });
    t.equal(roundups.statusCode, 303);
    roundupsOnly = idFrom(roundups.headers.location);
    const taken = await post('/admin/feeds/syndication', s.staff.cookie, { title: 'Copy', slug: 'roundups', types: 'roundup', limit: '3' });
    t.equal(taken.statusCode, 400);
    t.match(taken.body, 'Another feed of this community has this address.');
    const beaSame = await post('/admin/feeds/syndication', s.bea.cookie, { title: 'Beta roundups', slug: 'roundups', types: 'roundup', limit: '5', enabled: 'on' }, 'beta.test');
    t.equal(beaSame.statusCode, 303, 'a slug is unique within its community only');
    const list = await get('/admin/feeds/syndication', { cookie: s.staff.cookie });
    t.match(list.body, 'href="http://alpha.test/feeds/alpha-everything.rss"', 'absolute addresses, the slug made from the title');
    t.match(list.body, 'http://alpha.test/feeds/alpha-everything.atom');
    t.match(list.body, 'http://alpha.test/feeds/alpha-everything.json');
    t.notMatch(list.body, 'Beta roundups', "another community's feed is not listed");
    const detail = await get(`/admin/feeds/syndication/${everything}`, { cookie: s.staff.cookie });
    t.equal(detail.statusCode, 200);
    t.match(detail.body, /<input id="address-rss" type="text" readOnly="" value="http:\/\/alpha.test\/feeds\/alpha-everything.rss"/, 'the addresses in read-only fields to copy');
    t.match(detail.body, 'What it carries now (3 items)', 'the preview: the items the feed carries');
    t.match(detail.body, 'Pricing moves that paid off');
    t.notMatch(detail.body, 'Still in review');
    t.equal((await get(`/admin/feeds/syndication/${everything}`, { cookie: s.bea.cookie, host: 'beta.test' })).statusCode, 404, "another community's feed is 404 to its staff");
    t.equal((await get('/admin/feeds/syndication/99999999999', { cookie: s.staff.cookie })).statusCode, 404);
    t.equal((await get('/admin/feeds/syndication/abc', { cookie: s.staff.cookie })).statusCode, 404);
  });

  await t.test('each format is valid by its specification, with only this community’s published public work', async (t) => {
    const [rssRes, atomRes, jsonRes] = await Promise.all(['rss', 'atom', 'json'].map((f) => get(`/feeds/alpha-everything.${f}`)));
    t.equal(rssRes!.headers['content-type'], 'application/rss+xml; charset=utf-8');
    t.equal(atomRes!.headers['content-type'], 'application/atom+xml; charset=utf-8');
    t.equal(jsonRes!.headers['content-type'], 'application/feed+json; charset=utf-8');
    for (const r of [rssRes!, atomRes!]) t.same(xmlProblems(r.body), [], 'well-formed XML');

    const expected = [HOSTILE_TITLE.replace('\u0001', ''), 'Pricing moves that paid off', 'Published on its schedule'];
    const rss = parseRssFeed(rssRes!.body);
    t.equal(rss.title, 'Alpha — everything');
    t.equal(rss.link, 'http://alpha.test/');
    t.equal(rss.description, 'All we publish.');
    t.match(rss.lastBuildDate, RFC822);
    t.same(rss.atom?.links?.find((l) => l.rel === 'self')?.href, 'http://alpha.test/feeds/alpha-everything.rss');
    t.same(rss.items?.map((i) => i.title), expected, 'newest first; escaped text comes back as typed (less the control character)');
    for (const item of rss.items ?? []) {
      t.match(item.link, ABSOLUTE);
      t.match(item.pubDate, RFC822);
      t.equal(item.guid?.isPermaLink, false);
      t.match(item.guid?.value, /^urn:uuid:[0-9a-f-]{36}$/);
    }
    t.equal(rss.items?.[0]?.link, 'https://news.example.com/a?x=1&y=2', "an article's link: its public address");
    t.equal(rss.items?.[1]?.link, 'http://alpha.test/expert-panels/roundups/pricing-moves', "a roundup's: its live page");
    t.same(rss.items?.[0]?.dc?.creators, ['Wren Writer']);
    t.match(rss.items?.[0]?.description, '<p>Tom &amp; Jerry &lt;3 long words here.</p>', 'the description is HTML escaped once for XML');
    t.equal(new Set(rss.items?.map((i) => i.guid?.value)).size, 3, 'unique guids');

    const atom = parseAtomFeed(atomRes!.body);
    t.match(atom.id, /^urn:uuid:/);
    t.match(atom.updated, RFC3339);
    t.ok(atom.authors?.length, 'the feed names its author (the community)');
    t.same(atom.links?.find((l) => l.rel === 'self')?.href, 'http://alpha.test/feeds/alpha-everything.atom');
    t.same(atom.entries?.map((e) => (typeof e.title === 'string' ? e.title : e.title?.value)), expected);
    for (const e of atom.entries ?? []) {
      t.match(e.id, /^urn:uuid:/);
      t.match(e.updated, RFC3339);
      t.match(e.published, RFC3339);
      t.match(e.links?.[0]?.href, ABSOLUTE);
    }
    t.same(atom.entries?.map((e) => e.id), rss.items?.map((i) => i.guid?.value), 'an item keeps its id in every format');

    const json = JSON.parse(jsonRes!.body);
    t.equal(json.version, 'https://jsonfeed.org/version/1.1');
    const parsed = parseJsonFeed(json);
    t.equal(parsed.feed_url, 'http://alpha.test/feeds/alpha-everything.json');
    t.same(parsed.items?.map((i) => i.title), expected);
    for (const i of parsed.items ?? []) {
      t.ok(i.id && (i.content_html || i.content_text), 'an id and a content');
      t.match(i.url, ABSOLUTE);
      t.match(i.date_published, RFC3339);
    }
    t.same(parsed.items?.map((i) => i.id), rss.items?.map((i) => i.guid?.value));

    for (const body of [rssRes!.body, atomRes!.body, jsonRes!.body]) {
      for (const outside of ['Beta secret', 'Still in review', 'without an address', 'Trashed', 'A roundup in review']) t.notMatch(body, outside, `${outside}: not in the feed`);
    }

    const roundups = parseRssFeed((await get('/feeds/roundups.rss')).body);
    t.same(roundups.items?.map((i) => i.title), ['Pricing moves that paid off'], 'a feed of roundups only, at its limit (1)');
    const betaFeed = await get('/feeds/roundups.json', { host: 'beta.test' });
    t.same(JSON.parse(betaFeed.body).items.map((i: { title: string }) => i.title), ['Beta secret roundup'], "the same slug in another community: that community's items only");
    t.match(JSON.parse(betaFeed.body).home_page_url, 'http://beta.test/');
    t.equal((await get('/feeds/alpha-everything.rss', { host: 'beta.test' })).statusCode, 404, "another community's feed is not found on this host");
  });

  await t.test('validators: ETag and Last-Modified on every answer, 304 for each, 200 once the community publishes', async (t) => {
    const first = await get('/feeds/alpha-everything.atom');
    const etag = String(first.headers.etag);
    const lastModified = String(first.headers['last-modified']);
    t.match(etag, /^W\/".+"$/);
    t.match(lastModified, RFC822);
    t.match(String(first.headers['cache-control']), /^public, max-age=\d+$/);
    t.match(String(first.headers.vary), /accept-encoding/i);
    t.equal(sqlOf(await get('/feeds/alpha-everything.atom')), 0, 'served from memory: no query');

    const byEtag = await get('/feeds/alpha-everything.atom', { headers: { 'if-none-match': etag } });
    t.equal(byEtag.statusCode, 304);
    t.equal(byEtag.body, '', 'no body');
    t.equal(byEtag.headers.etag, etag);
    t.equal(byEtag.headers['last-modified'], lastModified);
    t.equal(sqlOf(byEtag), 0, 'a 304 costs no query');
    t.equal((await get('/feeds/alpha-everything.atom', { headers: { 'if-none-match': `"other", ${etag.replace(/^W\//, '')}` } })).statusCode, 304, 'weak comparison, in a list');
    t.equal((await get('/feeds/alpha-everything.atom', { headers: { 'if-none-match': '*' } })).statusCode, 304);
    t.equal((await get('/feeds/alpha-everything.atom', { headers: { 'if-modified-since': lastModified } })).statusCode, 304, 'If-Modified-Since');
    t.equal((await get('/feeds/alpha-everything.atom', { headers: { 'if-modified-since': new Date(Date.parse(lastModified) - 1000).toUTCString() } })).statusCode, 200, 'an older date: the feed');
    t.equal((await get('/feeds/alpha-everything.atom', { headers: { 'if-none-match': '"stale"', 'if-modified-since': lastModified } })).statusCode, 200, 'If-None-Match wins over If-Modified-Since');
    t.equal((await get('/feeds/alpha-everything.atom', { headers: { 'if-modified-since': 'yesterday-ish' } })).statusCode, 200, 'a date that is none: the feed');
    t.not((await get('/feeds/alpha-everything.rss')).headers.etag, etag, 'each format its own validator');

    // A member's article is published (by the articles area's own service): within the cache's time
    // the old answer stands; after it, the feed changes and so does its validator.
    const newer = await article(alpha, writer.id, { title: 'Just published', status: 'READY_TO_PUBLISH', daysAgo: 0 });
    clock.advance(60_000);
    await moveArticle({ db: app.db, clock, community: alpha, t: app.t, notifier: app.notifications }, { userId: staff.id, isStaff: true }, { articleId: newer, to: 'MANUALLY_PUBLISHED', articleUrl: 'https://news.example.com/just-published' });
    clock.advance(11_000);
    const changed = await get('/feeds/alpha-everything.atom', { headers: { 'if-none-match': etag } });
    t.equal(changed.statusCode, 200, 'the old validator no longer matches');
    t.match(changed.body, 'Just published');
    t.not(changed.headers.etag, etag);
    t.ok(Date.parse(String(changed.headers['last-modified'])) > Date.parse(lastModified), 'Last-Modified moved on');
    t.equal((await get('/feeds/alpha-everything.atom', { headers: { 'if-modified-since': lastModified } })).statusCode, 200);
    t.equal((await get('/feeds/alpha-everything.atom', { headers: { 'if-none-match': String(changed.headers.etag) } })).statusCode, 304, 'the new one does');

    // An item leaves the feed: a new validator, and Last-Modified goes forward, never back.
    const before = Date.parse(String(changed.headers['last-modified']));
    await db.updateTable('articles').set({ status: 'TRASHED' }).where('id', '=', newer).execute();
    clock.advance(11_000);
    const left = await get('/feeds/alpha-everything.atom', { headers: { 'if-modified-since': String(changed.headers['last-modified']) } });
    t.equal(left.statusCode, 200);
    t.notMatch(left.body, 'Just published');
    t.ok(Date.parse(String(left.headers['last-modified'])) > before);
  });

  await t.test('another process on the same database answers the same validators', async (t) => {
    const other = (await startApp(t, db, { clock })).app;
    const a = await get('/feeds/alpha-everything.json');
    const b = await other.inject({ url: '/feeds/alpha-everything.json', headers: { host: 'alpha.test' } });
    t.equal(b.statusCode, 200);
    t.equal(b.headers.etag, a.headers.etag);
    t.equal(b.headers['last-modified'], a.headers['last-modified']);
    t.equal(b.body, a.body);
  });

  await t.test('compressed once, as the client takes it', async (t) => {
    const plain = await get('/feeds/alpha-everything.json');
    const br = await get('/feeds/alpha-everything.json', { headers: { 'accept-encoding': 'gzip, br' } });
    t.equal(br.headers['content-encoding'], 'br');
    t.equal(brotliDecompressSync(br.rawPayload).toString('utf8'), plain.body);
    t.equal((await get('/feeds/alpha-everything.json', { headers: { 'accept-encoding': 'gzip;q=1, br;q=0' } })).headers['content-encoding'], 'gzip');
    const notModified = await get('/feeds/alpha-everything.json', { headers: { 'accept-encoding': 'br', 'if-none-match': String(plain.headers.etag) } });
    t.equal(notModified.statusCode, 304);
    t.equal(notModified.rawPayload.length, 0);
  });

  await t.test('hostile addresses and headers are 4xx or the feed, never 5xx; links never on a host the community does not own', async (t) => {
    for (const url of ['/feeds/%00.rss', '/feeds/..%2F..%2Fetc.rss', '/feeds/ALPHA-EVERYTHING.rss', '/feeds/alpha-everything.xml', '/feeds/alpha-everything', `/feeds/${'a'.repeat(5000)}.rss`, '/feeds/alpha-everything.rss%00', '/feeds/-x-.json', '/feeds/%E0%A4%A.rss']) {
      const r = await get(url);
      t.ok(r.statusCode >= 400 && r.statusCode < 500, `${url.slice(0, 60)}: ${r.statusCode}`);
    }
    for (const headers of <Record<string, string>[]>[{ 'if-none-match': '\u0001'.repeat(10) }, { 'if-none-match': 'x'.repeat(50_000) }, { 'if-modified-since': '\u0000' }, { 'if-modified-since': '9'.repeat(5000) }, { 'accept-encoding': 'br;q=abc, *;q=' }, { 'accept-encoding': ','.repeat(5000) }]) {
      t.equal((await get('/feeds/alpha-everything.rss', { headers })).statusCode, 200, JSON.stringify(headers).slice(0, 60));
    }
    const evil = await get('/feeds/alpha-everything.rss', { host: 'evil.example' });
    t.equal(evil.statusCode, 200, 'an unknown host is the default community (alpha)');
    t.notMatch(evil.body, 'evil.example', 'its links are on the public address, not the host asked');
    t.match(evil.body, `<link>${app.config.publicUrl}/</link>`);
  });

  await t.test('disabled and deleted feeds are 404 and no longer advertised; the log says who did what', async (t) => {
    const head = await get('/login');
    const links = [...head.body.matchAll(/<link rel="alternate" type="([^"]+)" title="([^"]+)" href="([^"]+)"\/>/g)].map((m) => `${m[1]} ${m[3]}`);
    t.same(links.sort(), [
      'application/atom+xml /feeds/alpha-everything.atom',
      'application/atom+xml /feeds/roundups.atom',
      'application/feed+json /feeds/alpha-everything.json',
      'application/feed+json /feeds/roundups.json',
      'application/rss+xml /feeds/alpha-everything.rss',
      'application/rss+xml /feeds/roundups.rss',
    ]);
    t.match(head.body, 'title="Alpha — everything (RSS)"');
    t.equal(sqlOf(head), sqlOf(loginBefore), 'the links cost a page no query');
    t.match((await get('/articles', { cookie: s.writer.cookie })).body, 'rel="alternate" type="application/rss+xml"', "on a member's page too");
    t.notMatch((await get('/admin/feeds/syndication', { cookie: s.staff.cookie })).body, 'rel="alternate"', 'not on the staff pages');
    t.notMatch((await get('/login', { host: 'beta.test' })).body, 'alpha-everything', "another community's pages advertise their own");

    t.equal((await post(`/admin/feeds/syndication/${roundupsOnly}/disable`, s.staff.cookie, {})).statusCode, 303);
    t.equal((await get('/feeds/roundups.rss')).statusCode, 404, 'a disabled feed is not found');
    t.notMatch((await get('/login')).body, '/feeds/roundups.rss', 'nor advertised');
    t.equal((await get('/feeds/roundups.rss', { host: 'beta.test' })).statusCode, 200, "the other community's feed of that slug is untouched");
    t.equal((await post(`/admin/feeds/syndication/${roundupsOnly}/enable`, s.staff.cookie, {})).statusCode, 303);
    t.equal((await get('/feeds/roundups.rss')).statusCode, 200, 'enabled again');

    const renamed = await post(`/admin/feeds/syndication/${roundupsOnly}`, s.staff.cookie, { title: 'Expert roundups', slug: 'expert-roundups', description: '', types: 'roundup', limit: '5', enabled: 'on' });
    t.equal(renamed.statusCode, 303);
    t.equal((await get('/feeds/roundups.rss')).statusCode, 404, 'the old address is gone');
    t.equal(parseRssFeed((await get('/feeds/expert-roundups.rss')).body).title, 'Expert roundups', 'the new one answers at once');
    const badSave = await post(`/admin/feeds/syndication/${roundupsOnly}`, s.staff.cookie, { title: 'Kept title', slug: 'expert-roundups', types: [], limit: '0' });
    t.equal(badSave.statusCode, 400);
    t.match(badSave.body, 'value="Kept title"');
    t.match(badSave.body, 'Choose what the feed carries');

    const unconfirmed = await post(`/admin/feeds/syndication/${roundupsOnly}/delete`, s.staff.cookie, {});
    t.equal(unconfirmed.statusCode, 400);
    t.match(unconfirmed.body, 'Tick the box to confirm');
    t.equal((await post(`/admin/feeds/syndication/${roundupsOnly}/delete`, s.staff.cookie, { confirm: 'on' })).statusCode, 303);
    t.equal((await get('/feeds/expert-roundups.rss')).statusCode, 404, 'a deleted feed is not found');
    t.equal((await post(`/admin/feeds/syndication/${roundupsOnly}/delete`, s.staff.cookie, { confirm: 'on' })).statusCode, 404, 'deleting twice: not found');

    const log = (await get('/admin/feeds/syndication', { cookie: s.staff.cookie })).body;
    for (const what of ['Created', 'Disabled', 'Enabled', 'Changed', 'Deleted']) t.match(log, `<td>${what}</td>`);
    t.match(log, 'address: roundups → expert-roundups');
    t.match(log, 'Sam Staff');
    const rows = await db.selectFrom('syndication_feed_actions').select(['community_id', 'actor_id']).execute();
    t.ok(rows.every((r) => (r.community_id === alpha.id ? r.actor_id === staff.id : r.actor_id === bea.id)), 'each line names its community and who acted');
  });

  await t.test('GraphQL for staff: the same services, another community’s feed not found', async (t) => {
    const gql = async (query: string, variables: Record<string, unknown>, cookie = s.staff.cookie, host = 'alpha.test') => {
      const c = await csrf(cookie);
      const res = await app.inject({ method: 'POST', url: '/graphqlAdmin', headers: { host, cookie: c.cookie, 'x-csrf-token': c.token, 'content-type': 'application/json', accept: 'application/json' }, payload: JSON.stringify({ query, variables }) });
      return res.json() as { data?: Record<string, any>; errors?: { extensions?: { code?: unknown; fields?: Record<string, unknown> } }[] };
    };
    const list = await gql('{ syndicationFeeds { id slug enabled types addresses { rss atom json } } }', {});
    t.same(list.data?.syndicationFeeds.map((f: { slug: string }) => f.slug), ['alpha-everything']);
    t.equal(list.data?.syndicationFeeds[0].addresses.json, 'http://alpha.test/feeds/alpha-everything.json');
    const created = await gql('mutation($i: SyndicationFeedInput!) { syndicationFeedCreate(input: $i) { id slug limit enabled items { type title url } log { action actorName } } }', { i: { title: 'Articles only', types: ['ARTICLE'], limit: 2 } });
    t.equal(created.data?.syndicationFeedCreate.slug, 'articles-only');
    t.same(created.data?.syndicationFeedCreate.items.map((i: { type: string }) => i.type), ['ARTICLE', 'ARTICLE']);
    t.same(created.data?.syndicationFeedCreate.log, [{ action: 'created', actorName: 'Sam Staff' }]);
    const id = created.data?.syndicationFeedCreate.id;
    const refused = await gql('mutation($id: ID!, $i: SyndicationFeedInput!) { syndicationFeedUpdate(id: $id, input: $i) { id } }', { id, i: { title: '', types: [], limit: 500 } });
    t.ok(refused.errors?.[0]?.extensions?.fields?.title && refused.errors[0].extensions.fields.limit && refused.errors[0].extensions.fields.types, 'each field named');
    const off = await gql('mutation($id: ID!) { syndicationFeedSetEnabled(id: $id, enabled: false) { enabled } }', { id });
    t.equal(off.data?.syndicationFeedSetEnabled.enabled, false);
    t.equal((await get('/feeds/articles-only.json')).statusCode, 404);
    const theirs = await gql('query($id: ID!) { syndicationFeed(id: $id) { id } }', { id }, s.bea.cookie, 'beta.test');
    t.ok(theirs.errors?.length, "another community's staff: not found");
    t.equal((await gql('mutation($id: ID!) { syndicationFeedDelete(id: $id) }', { id }, s.bea.cookie, 'beta.test')).data?.syndicationFeedDelete ?? null, null, 'nor deleted by them');
    t.equal((await gql('mutation($id: ID!) { syndicationFeedDelete(id: $id) }', { id })).data?.syndicationFeedDelete, true);
    const log = await gql('{ syndicationFeedsLog { action feedSlug } }', {});
    t.same(log.data?.syndicationFeedsLog.slice(0, 3), [{ action: 'deleted', feedSlug: 'articles-only' }, { action: 'disabled', feedSlug: 'articles-only' }, { action: 'created', feedSlug: 'articles-only' }]);
  });

  await t.test('feeds by the content bank’s tags and collections: only the chosen items; another community’s tag refused; a change reaches readers within the cache time', async (t) => {
    const bank = { db, clock, community: alpha, publicUrl: '' };
    const asStaff = { userId: staff.id, isStaff: true };
    const tagged = await article(alpha, writer.id, { title: 'Tagged pricing article', status: 'MANUALLY_PUBLISHED', url: 'https://news.example.com/tagged', daysAgo: 6 });
    const later = await article(alpha, writer.id, { title: 'Tagged later', status: 'MANUALLY_PUBLISHED', url: 'https://news.example.com/later', daysAgo: 7 });
    await article(alpha, writer.id, { title: 'Untagged article', status: 'MANUALLY_PUBLISHED', url: 'https://news.example.com/untagged', daysAgo: 8 });
    const collected = await roundup(alpha, qa, { title: 'Collected roundup', slug: 'collected', status: 'FINAL', daysAgo: 9 });
    const tag = await createTag(bank, asStaff, 'Pricing');
    await tagItem(bank, asStaff, tag, { kind: 'article', id: tagged });
    const collection = await createCollection(bank, asStaff, { name: 'Best of', description: '' });
    await addToCollection(bank, asStaff, collection, { kind: 'roundup', id: collected });
    const betaTag = await createTag({ ...bank, community: beta }, { userId: bea.id, isStaff: true }, 'Beta only');

    const form = await get('/admin/feeds/syndication', { cookie: s.staff.cookie });
    t.match(form.body, /<input type="checkbox" id="feed-tags-\d+" name="tags" value="\d+"\/><label for="feed-tags-\d+">Pricing<\/label>/, "the form offers the community's tags");
    t.match(form.body, '>Best of</label>', 'and its collections');
    t.notMatch(form.body, 'Beta only', "never another community's");
    const theirs = await post('/admin/feeds/syndication', s.staff.cookie, { title: 'Sneaky', types: 'article', tags: String(betaTag), limit: '5', description: 'kept' });
    t.equal(theirs.statusCode, 400, "another community's tag id is refused");
    t.match(theirs.body, "Choose among this community&#x27;s tags");
    t.match(theirs.body, 'kept', 'what was typed is kept');
    t.equal((await post('/admin/feeds/syndication', s.staff.cookie, { title: 'Bad id', types: 'article', collections: 'abc', limit: '5' })).statusCode, 400, 'a bad id is 400');

    const byTag = await post('/admin/feeds/syndication', s.staff.cookie, { title: 'Pricing', slug: 'pricing', types: ['article', 'roundup'], tags: String(tag), limit: '20', enabled: 'on' });
    t.equal(byTag.statusCode, 303);
    const byCollection = await post('/admin/feeds/syndication', s.staff.cookie, { title: 'Best of', slug: 'best-of', types: ['article', 'roundup'], collections: String(collection), limit: '20', enabled: 'on' });
    t.equal(byCollection.statusCode, 303);
    const detail = await get(String(byTag.headers.location).replace(/\?.*$/, ''), { cookie: s.staff.cookie });
    t.match(detail.body.match(/<input[^>]*name="tags"[^>]*>/)?.[0], /checked=""/, "the saved tag is ticked");
    t.match(detail.body, 'What it carries now (1 item)');

    const titles = async (slug: string) => {
      const [rss, atom, json] = await Promise.all(['rss', 'atom', 'json'].map((f) => get(`/feeds/${slug}.${f}`)));
      for (const r of [rss!, atom!]) t.same(xmlProblems(r.body), [], `${slug}: well-formed XML`);
      const parsed = parseRssFeed(rss!.body);
      t.same(parseAtomFeed(atom!.body).entries?.map((e) => (typeof e.title === 'string' ? e.title : e.title?.value)), parsed.items?.map((i) => i.title), `${slug}: Atom carries the same`);
      t.same(parseJsonFeed(JSON.parse(json!.body)).items?.map((i) => i.title), parsed.items?.map((i) => i.title), `${slug}: JSON Feed carries the same`);
      return parsed.items?.map((i) => i.title) ?? [];
    };
    t.same(await titles('pricing'), ['Tagged pricing article'], 'a feed by a tag: only the tagged items');
    t.same(await titles('best-of'), ['Collected roundup'], 'a feed by a collection: only its items');

    const before = await get('/feeds/pricing.json');
    await tagItem(bank, asStaff, tag, { kind: 'article', id: later });
    t.equal((await get('/feeds/pricing.json', { headers: { 'if-none-match': String(before.headers.etag) } })).statusCode, 304, 'within the cache time: still the 304 from memory');
    clock.advance(11_000);
    t.same(await titles('pricing'), ['Tagged pricing article', 'Tagged later'], 'after the cache time: the newly tagged item is in');
    const after = await get('/feeds/pricing.json', { headers: { 'if-none-match': String(before.headers.etag) } });
    t.equal(after.statusCode, 200, 'and the old validator no longer matches');
    t.not(after.headers.etag, before.headers.etag);

    const gql = async (query: string, variables: Record<string, unknown>) => {
      const c = await csrfFor(app, s.staff.cookie, '/');
      const res = await app.inject({ method: 'POST', url: '/graphqlAdmin', headers: { host: 'alpha.test', cookie: c.cookie, 'x-csrf-token': c.token, 'content-type': 'application/json', accept: 'application/json' }, payload: JSON.stringify({ query, variables }) });
      return res.json() as { data?: Record<string, any>; errors?: { extensions?: { fields?: Record<string, unknown> } }[] };
    };
    const made = await gql('mutation($i: SyndicationFeedInput!) { syndicationFeedCreate(input: $i) { tags collections items { title } } }', { i: { title: 'By tag over GraphQL', types: ['ARTICLE'], tags: [String(tag)] } });
    t.same(made.data?.syndicationFeedCreate, { tags: [String(tag)], collections: [], items: [{ title: 'Tagged pricing article' }, { title: 'Tagged later' }] }, 'GraphQL: tags in, only the tagged items');
    const refused = await gql('mutation($i: SyndicationFeedInput!) { syndicationFeedCreate(input: $i) { id } }', { i: { title: 'Theirs', types: ['ARTICLE'], tags: [String(betaTag)] } });
    t.ok(refused.errors?.[0]?.extensions?.fields?.tags, "GraphQL: another community's tag refused beside tags");
  });
});
