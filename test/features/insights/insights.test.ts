import t from 'tap';
import { sql } from 'kysely';
import { fixedClock } from '#src/core/clock.ts';
import type { InsightsDeps } from '#src/features/insights/deps.ts';
import { computeHealth, healthOf } from '#src/features/insights/health.ts';
import { deleteExpiredEvents } from '#src/features/insights/retention.ts';
import { rollUp } from '#src/features/insights/rollup.ts';
import { parseRange } from '#src/features/insights/range.ts';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { addMembership, createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';

const html = { accept: 'text/html' };
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const IP = '203.0.113.77';
/** The text of an HTML fragment, tags dropped and spaces folded. */
const text = (s: string) => s.replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/&#x27;|&#39;/g, "'").replace(/\s+/g, ' ');

t.test('insights: events in, the roll-up, retention, health, the staff home, Google tags after consent, GraphQL', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle', forum_enabled: true, hosts: ['alpha.test'] });
  const beta = await createCommunity(db, { code: 'beta', app_name: 'Beta Guild', hosts: ['beta.test'] });
  const network = await createCommunity(db, { code: 'admin', app_name: 'Network Staff', hosts: ['admin.test'] });
  const clock = fixedClock('2026-11-21T12:00:00Z');
  const { app } = await startApp(t, db, { clock });

  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const bob = await createMember(db, alpha, { firstName: 'Bob', lastName: 'Quiet' });
  const sam = await createMember(db, alpha, { firstName: 'Sam', lastName: 'Staff', roles: ['ADMIN', 'MEMBER'] });
  await addMembership(db, beta, sam.id, { roles: ['ADMIN', 'MEMBER'] });
  await addMembership(db, network, sam.id, { roles: ['ADMIN', 'MEMBER'] });
  const bea = await createMember(db, beta, { firstName: 'Bea', lastName: 'Beta' });
  await db.updateTable('memberships').set({ joined_at: new Date('2026-01-10T00:00:00Z') }).execute();

  const s = {
    ada: await signIn(app, ada, alpha),
    bob: await signIn(app, bob, alpha),
    sam: await signIn(app, sam, alpha, ['ADMIN', 'MEMBER']),
    samNetwork: await signIn(app, sam, network, ['ADMIN', 'MEMBER']),
    bea: await signIn(app, bea, beta),
  };
  const deps = (community: { id: number }, over: Partial<InsightsDeps> = {}): InsightsDeps => ({ db: app.db, clock, community, retentionDays: 90, ...over });
  const get = (url: string, cookie: string, headers: Record<string, string> = {}) => app.inject({ url, headers: { ...html, cookie, ...headers } });
  /** The browser's beacon: a form with the page's CSRF token and the batch as JSON. */
  const beacon = async (cookie: string, events: unknown, headers: Record<string, string> = {}, host?: string) => {
    const c = await csrfFor(app, cookie, '/settings');
    return app.inject({
      method: 'POST',
      url: '/rest/events',
      headers: { cookie: c.cookie, 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', 'sec-fetch-site': 'same-origin', ...(host ? { host } : {}), ...headers },
      payload: new URLSearchParams({ _csrf: c.token, events: typeof events === 'string' ? events : JSON.stringify(events) }).toString(),
    });
  };
  const gql = (url: string, query: string, variables: object, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });
  const eventsOf = (userId: number) => db.selectFrom('insight_events').selectAll().where('user_id', '=', userId).orderBy('id').execute();

  await t.test('a batch from the browser: written before the answer, per community and member, without IP or user agent', async (t) => {
    const res = await beacon(
      s.ada.cookie,
      [
        { category: 'page', action: 'view', label: '/forum?token=secret#top', age: 1500 },
        { category: 'Offers', action: 'redeem', label: 'Ledgerly' },
        { category: 'search', action: 'members', label: null },
      ],
      { 'user-agent': IPHONE, 'x-forwarded-for': IP },
    );
    t.equal(res.statusCode, 202, res.body);
    t.same(res.json(), { accepted: 3 });
    const rows = await eventsOf(ada.id);
    t.same(
      rows.map((r) => [r.community_id, r.category, r.action, r.label, r.device]),
      [
        [alpha.id, 'page', 'view', '/forum', 'mobile'],
        [alpha.id, 'offers', 'redeem', 'Ledgerly', 'mobile'],
        [alpha.id, 'search', 'members', '', 'mobile'],
      ],
      "a page's query string and fragment are dropped; the category is read in lower case; the device is a class",
    );
    t.equal(rows[0]!.occurred_at.getTime(), clock.now().getTime() - 1500, 'the time: the server’s, less the age the browser gave');
    const columns = await sql<{ column_name: string }>`select column_name from information_schema.columns where table_name = 'insight_events'`.execute(db);
    t.notOk(columns.rows.some((c) => /ip|addr|agent|ua$/i.test(c.column_name)), 'no column for an address or a user agent');
    const stored = JSON.stringify(rows);
    t.notMatch(stored, IP, 'the address is stored nowhere in the event');
    t.notMatch(stored, 'iPhone', 'nor the user agent');
  });

  await t.test('the CSRF rule: the token in the body, and our own origin only; a bearer client needs neither', async (t) => {
    const noToken = await app.inject({ method: 'POST', url: '/rest/events', headers: { cookie: s.ada.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ events: '[{"category":"page","action":"view","label":"/"}]' }).toString() });
    t.equal(noToken.statusCode, 403, 'a cookie call without the token is refused');
    t.equal(noToken.json().error.code, 'BadRequest.Csrf');
    const one = [{ category: 'page', action: 'view', label: '/' }];
    t.equal((await beacon(s.ada.cookie, one, { 'sec-fetch-site': 'cross-site' })).statusCode, 403, 'another site');
    t.equal((await beacon(s.ada.cookie, one, { 'sec-fetch-site': 'same-site' })).statusCode, 403, "a sibling community's host (same site, another origin)");
    t.equal((await beacon(s.ada.cookie, one, { 'sec-fetch-site': '', origin: 'http://evil.example' })).statusCode, 403, 'an Origin not ours');
    const c = await csrfFor(app, s.ada.cookie, '/settings');
    const json = await app.inject({ method: 'POST', url: '/rest/events', headers: { cookie: c.cookie, 'content-type': 'application/json', 'x-csrf-token': c.token }, payload: JSON.stringify({ events: one }) });
    t.equal(json.statusCode, 202, 'a page script may send JSON with the token in its header');
    const bearer = await app.inject({ method: 'POST', url: '/rest/events', headers: { authorization: `Bearer ${s.bob.token}`, 'content-type': 'application/json' }, payload: JSON.stringify({ events: [{ category: 'app', action: 'open', label: 'ios 3.2' }] }) });
    t.equal(bearer.statusCode, 202, 'an app with its bearer token, no cookie, no CSRF token');
    t.same((await eventsOf(bob.id)).map((r) => [r.category, r.device]), [['app', 'app']], "an app's events are the 'app' device");
    const visitor = await app.inject({ method: 'POST', url: '/rest/events', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ events: one }) });
    t.equal(visitor.statusCode, 401, 'a visitor sends nothing');
  });

  await t.test('trackEvent on GraphQL, exactly as named: cookie with CSRF and bearer alike', async (t) => {
    const mutation = 'mutation ($c: String!, $a: String!, $l: String) { trackEvent(category: $c, action: $a, label: $l) }';
    const c = await csrfFor(app, s.ada.cookie, '/settings');
    const cookie = await gql('/graphql', mutation, { c: 'forum', a: 'reply-start', l: 'post 12' }, { cookie: c.cookie, 'x-csrf-token': c.token, 'sec-fetch-site': 'same-origin' });
    t.same(cookie.json(), { data: { trackEvent: true } });
    const bearer = await gql('/graphql', mutation, { c: 'Payment', a: 'card-error', l: 'declined' }, { authorization: `Bearer ${s.bob.token}` });
    t.same(bearer.json(), { data: { trackEvent: true } });
    const bad = await gql('/graphql', mutation, { c: 'ads', a: 'click' }, { authorization: `Bearer ${s.bob.token}` });
    t.equal(bad.json().errors?.[0]?.extensions?.code, 'Insights.Invalid', 'a category not allowed');
    const visitor = await gql('/graphql', mutation, { c: 'page', a: 'view' }, {});
    t.equal(visitor.json().errors?.[0]?.extensions?.code, 'NotAuthenticated');
    t.same((await eventsOf(bob.id)).map((r) => r.category), ['app', 'payment']);
  });

  await t.test('hostile or malformed batches are refused whole with a 4xx, never a 5xx', async (t) => {
    const before = (await eventsOf(ada.id)).length;
    const cases: [string, unknown][] = [
      ['a category not allowed', [{ category: 'ads', action: 'view', label: '' }]],
      ['no action', [{ category: 'page', action: '', label: '/' }]],
      ['a NUL byte', [{ category: 'page', action: 'view', label: '/a\u0000b' }]],
      ['a control character in the action', [{ category: 'forum', action: 'x\u0007', label: '' }]],
      ['a bidirectional override', [{ category: 'forum', action: 'post', label: 'abc\u202Edef' }]],
      ['an action too long', [{ category: 'forum', action: 'a'.repeat(65), label: '' }]],
      ['a label too long', [{ category: 'forum', action: 'post', label: 'x'.repeat(201) }]],
      ['a label that is a number', [{ category: 'forum', action: 'post', label: 5 }]],
      ['an age far in the past', [{ category: 'forum', action: 'post', label: '', age: 1e12 }]],
      ['too many', Array.from({ length: 51 }, () => ({ category: 'page', action: 'view', label: '/' }))],
      ['none', []],
      ['not a list', { category: 'page' }],
      ['not JSON', '[{"category": '],
      ['a number', 42],
    ];
    for (const [what, events] of cases) {
      const res = await beacon(s.ada.cookie, events);
      t.ok(res.statusCode >= 400 && res.statusCode < 500, `${what}: ${res.statusCode}`);
    }
    const huge = await beacon(s.ada.cookie, [{ category: 'page', action: 'view', label: 'x'.repeat(70_000) }]);
    t.ok(huge.statusCode >= 400 && huge.statusCode < 500, `a huge body: ${huge.statusCode}`);
    t.equal((await eventsOf(ada.id)).length, before, 'nothing of a refused batch is written');
  });

  await t.test('each member is limited (120 batches a minute), the others are not', async (t) => {
    const one = JSON.stringify({ events: [{ category: 'engagement', action: 'ping', label: '' }] });
    const send = (token: string, host = 'alpha.test') => app.inject({ method: 'POST', url: '/rest/events', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', host }, payload: one });
    const codes: number[] = [];
    for (let i = 0; i < 121; i++) codes.push((await send(s.bea.token, 'beta.test')).statusCode);
    t.equal(codes.filter((c) => c === 202).length, 120, 'the first 120 accepted');
    t.equal(codes.at(-1), 429, 'the 121st refused (RateLimited)');
    t.equal((await send(s.bob.token)).statusCode, 202, 'another member goes on');
    await db.deleteFrom('insight_events').where('user_id', '=', bea.id).execute();
  });

  // ---- The roll-up ----
  const at = (iso: string) => new Date(iso);
  const event = (community: { id: number }, userId: number, occurred: string, category = 'page', action = 'view', label = '/') => ({ community_id: community.id, user_id: userId, category, action, label, device: 'desktop' as const, occurred_at: at(occurred) });
  const snapshot = async () => ({
    days: await sql`select series, to_char(day, 'YYYY-MM-DD') as day, value from insight_days order by community_id, series, day`.execute(db).then((r) => r.rows),
    counts: await sql`select community_id, to_char(day, 'YYYY-MM-DD') as day, category, action, events, members from insight_event_counts order by 1, 2, 3, 4`.execute(db).then((r) => r.rows),
    members: await sql`select community_id, to_char(day, 'YYYY-MM-DD') as day, user_id from insight_member_days order by 1, 2, 3`.execute(db).then((r) => r.rows),
    periods: await sql`select community_id, period, to_char(starts, 'YYYY-MM-DD') as starts, category, action, events from insight_event_periods order by 1, 2, 3, 4, 5`.execute(db).then((r) => r.rows),
  });
  const value = async (community: { id: number }, series: string, day: string) =>
    Number((await sql<{ value: number }>`select value from insight_days where community_id = ${community.id} and series = ${series} and day = ${day}::date`.execute(db)).rows[0]?.value ?? 0);

  await t.test('the roll-up is exact, and the same when run twice or twice at once', async (t) => {
    await db.deleteFrom('insight_events').execute();
    await db
      .insertInto('insight_events')
      .values([
        event(alpha, ada.id, '2026-11-16T09:00:00Z'), // Monday
        event(alpha, ada.id, '2026-11-16T10:00:00Z', 'page', 'view', '/forum'),
        event(alpha, bob.id, '2026-11-16T23:59:59Z'),
        event(alpha, ada.id, '2026-11-17T00:00:00Z'),
        event(alpha, ada.id, '2026-11-17T08:00:00Z', 'offers', 'redeem', 'Ledgerly'),
        event(alpha, bob.id, '2026-11-09T08:00:00Z'), // the week before
        event(beta, bea.id, '2026-11-16T09:00:00Z'),
        event(beta, bea.id, '2026-11-16T09:01:00Z'),
      ])
      .execute();
    // The other areas' figures: a forum post and a reply, an offer redeemed, a message read, a member joined.
    const post = await db.insertInto('forum_posts').values({ community_id: alpha.id, author_id: ada.id, title: 'Hello', body_html: '<p>Hi</p>', body_text: 'Hi', created_at: at('2026-11-16T12:00:00Z') }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('forum_replies').values({ community_id: alpha.id, post_id: post.id, author_id: bob.id, body_html: '<p>Yes</p>', body_text: 'Yes', created_at: at('2026-11-17T12:00:00Z') }).execute();
    await db.insertInto('forum_replies').values({ community_id: alpha.id, post_id: post.id, author_id: bob.id, body_html: '<p>No</p>', body_text: 'No', status: 'removed', created_at: at('2026-11-17T13:00:00Z') }).execute();
    await db.updateTable('memberships').set({ joined_at: at('2026-11-18T10:00:00Z') }).where('user_id', '=', bob.id).where('community_id', '=', alpha.id).execute();

    await rollUp(deps(alpha));
    await rollUp(deps(beta));
    t.equal(await value(alpha, 'page_views', '2026-11-16'), 3, 'page views on Monday (the last second of the day included)');
    t.equal(await value(alpha, 'page_views', '2026-11-17'), 1, 'and Tuesday (from midnight)');
    t.equal(await value(alpha, 'events', '2026-11-17'), 2, 'every event on Tuesday');
    t.equal(await value(alpha, 'active.day', '2026-11-16'), 2, 'Ada and Bob active on Monday');
    t.equal(await value(alpha, 'active.week', '2026-11-16'), 3, 'this week: Ada and Bob (events) and Sam (signed in on Saturday), each once');
    t.equal(await value(alpha, 'active.week', '2026-11-09'), 1, 'the week before: Bob');
    t.equal(await value(alpha, 'forum.posts', '2026-11-16'), 1);
    t.equal(await value(alpha, 'forum.replies', '2026-11-17'), 1, 'a removed reply does not count');
    t.equal(await value(alpha, 'new_members', '2026-11-18'), 1);
    t.equal(await value(beta, 'page_views', '2026-11-16'), 2, "Beta's own");
    t.equal(await value(alpha, 'page_views', '2026-11-09'), 1);
    t.equal(await value(alpha, 'page_views@week', '2026-11-16'), 4, 'the week of the 16th, summed from its days');
    t.equal(await value(alpha, 'page_views@month', '2026-11-01'), 5, 'November');
    t.equal(await value(alpha, 'forum.replies@month', '2026-11-01'), 1);
    const counts = await sql<{ events: number; members: number }>`select events, members from insight_event_counts where community_id = ${alpha.id} and day = '2026-11-16' and category = 'page'`.execute(db);
    t.same(counts.rows, [{ events: 3, members: 2 }], 'events and members by category and action');
    const periods = await sql<{ period: string; starts: string; category: string; action: string; events: number }>`
      select period, to_char(starts, 'YYYY-MM-DD') as starts, category, action, events from insight_event_periods where community_id = ${alpha.id} order by 1, 2, 3, 4`.execute(db);
    t.same(
      periods.rows,
      [
        { period: 'month', starts: '2026-11-01', category: 'offers', action: 'redeem', events: 1 },
        { period: 'month', starts: '2026-11-01', category: 'page', action: 'view', events: 5 },
        { period: 'week', starts: '2026-11-09', category: 'page', action: 'view', events: 1 },
        { period: 'week', starts: '2026-11-16', category: 'offers', action: 'redeem', events: 1 },
        { period: 'week', starts: '2026-11-16', category: 'page', action: 'view', events: 4 },
      ],
      'events by category and action summed by week and month (the top events of a long range)',
    );

    const first = await snapshot();
    await rollUp(deps(alpha));
    t.same(await snapshot(), first, 'run again: the same rows');
    await Promise.all([rollUp(deps(alpha)), rollUp(deps(alpha)), rollUp(deps(beta))]);
    t.same(await snapshot(), first, 'run twice at once: the same rows');

    // A late event (an app's batch that waited) on a day already rolled up: the next run counts it.
    await db.insertInto('insight_events').values(event(alpha, ada.id, '2026-11-21T11:55:00Z')).execute();
    clock.advance(10 * 60_000);
    await rollUp(deps(alpha));
    t.equal(await value(alpha, 'page_views', '2026-11-21'), 1, 'the new day');
    t.equal(await value(alpha, 'page_views', '2026-11-16'), 3, 'Monday unchanged');
    t.equal(await value(alpha, 'page_views@week', '2026-11-16'), 5, "the week's sum follows");
  });

  await t.test("members' health follows the rule, set through the members area", async (t) => {
    t.equal(healthOf({ activeDays: 12, contributions: 4, activeDaysLong: 20, joinedDaysAgo: 300 }), 'Champion');
    t.equal(healthOf({ activeDays: 11, contributions: 9, activeDaysLong: 20, joinedDaysAgo: 300 }), 'Engaged', 'many contributions, fewer days');
    t.equal(healthOf({ activeDays: 4, contributions: 2, activeDaysLong: 4, joinedDaysAgo: 300 }), 'Engaged');
    t.equal(healthOf({ activeDays: 14, contributions: 0, activeDaysLong: 14, joinedDaysAgo: 300 }), 'Engaged', 'there most days');
    t.equal(healthOf({ activeDays: 2, contributions: 0, activeDaysLong: 2, joinedDaysAgo: 300 }), 'Healthy');
    t.equal(healthOf({ activeDays: 1, contributions: 1, activeDaysLong: 1, joinedDaysAgo: 300 }), 'Healthy', 'a contribution');
    t.equal(healthOf({ activeDays: 0, contributions: 0, activeDaysLong: 0, joinedDaysAgo: 3 }), 'New');
    t.equal(healthOf({ activeDays: 1, contributions: 0, activeDaysLong: 1, joinedDaysAgo: 300 }), 'Quiet');
    t.equal(healthOf({ activeDays: 0, contributions: 0, activeDaysLong: 0, joinedDaysAgo: 300 }), 'At risk');
    await computeHealth(deps(alpha));
    const health = Object.fromEntries((await db.selectFrom('memberships').select(['user_id', 'health']).where('community_id', '=', alpha.id).execute()).map((r) => [r.user_id, r.health]));
    t.equal(health[ada.id], 'Healthy', 'Ada: three days, a forum post');
    t.equal(health[bob.id], 'Healthy', 'Bob: three days, a reply');
    t.equal(health[sam.id], 'Quiet', 'Sam: signed in one day, nothing else');
    const view = await get(`/admin/members/alpha/${bob.id}`, s.sam.cookie);
    t.match(text(view.body), 'Healthy', "the staff's member view shows it");
  });

  // ---- The staff home ----
  await t.test('the staff home: charts drawn on the server, each with its table; SQL within budget', async (t) => {
    const res = await get('/admin?range=4w', s.sam.cookie);
    t.equal(res.statusCode, 200);
    t.ok(Number(/dur=(\d+)/.exec(String(res.headers['server-timing']))?.[1]) <= 5, `at most 5 SQL statements (${res.headers['server-timing']})`);
    const body = res.body;
    t.match(body, '<a href="/admin/groups">', 'the admin areas are still linked');
    for (const title of ['Active members per day', 'New members', 'Forum posts and replies', 'Expert answers and roundups', 'Offers redeemed', 'Messages from the team read', 'Page views', 'Articles through the review pipeline']) {
      t.match(body, new RegExp(`<figcaption[^>]*>${title}</figcaption>`), `the chart ${title}`);
    }
    t.equal((body.match(/<svg class="chart-svg"[^>]*aria-hidden="true"/g) ?? []).length, 8, 'eight pictures, hidden from assistive technology');
    t.equal((body.match(/<table class="chart-table" id="chart-/g) ?? []).length, 8, 'each with its table');
    t.notMatch(body, /<script[^>]*src="[^"]*(chart|Tracker)/i, 'no chart script, no tracker on a staff page');
    const forum = /<figure[^>]*aria-labelledby="chart-forum-title"[\s\S]*?<\/figure>/.exec(body)![0];
    t.match(text(forum), 'Day Posts Replies', "the forum table's heads");
    t.match(text(forum), 'Nov 16, 2026 1 0', 'Monday: one post');
    t.match(text(forum), 'Nov 17, 2026 0 1', 'Tuesday: one reply');
    const views = /<figure[^>]*aria-labelledby="chart-pageViews-title"[\s\S]*?<\/figure>/.exec(body)![0];
    t.match(text(views), 'Nov 16, 2026 3', 'page views on Monday');
    t.match(text(body), 'From Oct 25, 2026 to Nov 21, 2026', 'the last four weeks');
    const funnel = /<figure[^>]*aria-labelledby="chart-funnel-title"[\s\S]*?<\/figure>/.exec(body)![0];
    t.match(text(funnel), 'Stage Articles Started 0 Submitted for review 0', 'the funnel, stage by stage');
    t.match(text(body), 'Category Action Events offers redeem 1', 'the events besides page views');
  });

  await t.test('the date range: presets by week and month, dates of ones own, a bad range told beside its field', async (t) => {
    t.match((await get('/admin', s.sam.cookie)).body, 'Active members per week', 'the default, 12 weeks, by week');
    const weekly = await get('/admin', s.sam.cookie);
    t.match(text(weekly.body), 'Week of Active members Aug 24, 2026 0', 'weeks from the Monday of the first');
    const monthly = await get('/admin?range=24m', s.sam.cookie);
    t.match(monthly.body, 'Active members per month');
    t.match(text(monthly.body), 'November 2026', 'by month');
    const custom = await get('/admin?from=2026-11-16&to=2026-11-17', s.sam.cookie);
    t.equal(custom.statusCode, 200);
    t.match(text(custom.body), 'From Nov 16, 2026 to Nov 17, 2026');
    t.match(custom.body, 'value="2026-11-16"', 'the dates stay in their fields');
    const bad = await get('/admin?from=2026-02-31&to=2027-01-01', s.sam.cookie);
    t.equal(bad.statusCode, 400);
    t.match(bad.body, /id="insight-from-error"[^>]*>Enter a date as year-month-day/, 'the message beside From');
    t.match(bad.body, /id="insight-to-error"[^>]*>The last day cannot be after today/, 'and beside To');
    t.match(bad.body, 'value="2026-02-31"', 'what was typed is kept');
    t.match(bad.body, 'The period could not be read: the last 12 weeks are shown.');
    const reversed = await get('/admin?from=2026-11-17&to=2026-11-01', s.sam.cookie);
    t.match(reversed.body, 'The first day must be on or before the last day.');
    t.match((await get('/admin?from=2020-01-01&to=2026-11-01', s.sam.cookie)).body, 'at most two years');
    for (const hostile of ['?from=%00', '?range=%00', `?to=${'9'.repeat(50)}`, '?community=%00', '?range[]=x']) {
      const res = await get(`/admin${hostile}`, s.sam.cookie);
      t.ok(res.statusCode >= 200 && res.statusCode < 500, `${hostile}: ${res.statusCode}`);
    }
    const p = parseRange({ range: '6m' }, '2026-11-21');
    t.same([p.from, p.to], ['2026-05-24', '2026-11-21'], 'six months: 182 days to today');
  });

  await t.test("a network admin picks a brand: only theirs; the network's own community lands on the sites", async (t) => {
    const home = await get('/admin', s.sam.cookie);
    t.match(home.body, /<select id="insight-community" name="community">[\s\S]*alpha Council[\s\S]*beta Council/, 'the brands Sam administers');
    t.notMatch(home.body, />admin Council</, "not the network's own");
    const betaHome = await get('/admin?community=beta&range=4w', s.sam.cookie);
    t.equal(betaHome.statusCode, 200);
    t.match(betaHome.body, 'Insights: beta Council');
    const views = /<figure[^>]*aria-labelledby="chart-pageViews-title"[\s\S]*?<\/figure>/.exec(betaHome.body)![0];
    t.match(text(views), 'Nov 16, 2026 2', "Beta's page views, not Alpha's");
    t.match(betaHome.body, 'href="/admin?community=beta&amp;range=12w"', 'the presets keep the brand');
    t.equal((await get('/admin?community=gamma', s.sam.cookie)).statusCode, 404, 'a brand not theirs (or none) is not found');
    const netRoot = await get('/admin', s.samNetwork.cookie, { host: 'admin.test' });
    t.equal(netRoot.statusCode, 302);
    t.equal(netRoot.headers.location, '/admin/sites', "the network's staff land on the sites page (spec section 2)");
    const netBrand = await get('/admin?community=alpha&range=4w', s.samNetwork.cookie, { host: 'admin.test' });
    t.equal(netBrand.statusCode, 200, 'and see a brand they ask for');
    t.match(netBrand.body, 'Insights: alpha Council');
    const dashboards = await get('/admin/dashboards', s.samNetwork.cookie, { host: 'admin.test' });
    t.match(dashboards.body, 'href="/admin?community=alpha"', 'the dashboards page links each brand’s insights');
    t.equal((await get('/admin', s.ada.cookie)).statusCode, 303, 'a member is sent to sign in as staff');
  });

  await t.test('GraphQL: the staff read a series (another brand of theirs too); members cannot', async (t) => {
    const q = 'query ($s: String!, $f: String!, $t: String!, $c: String) { insightSeries(series: $s, from: $f, to: $t, community: $c) { series community points { day value } } }';
    const staff = { authorization: `Bearer ${s.sam.token}` };
    const res = await gql('/graphqlAdmin', q, { s: 'page_views', f: '2026-11-15', t: '2026-11-17' }, staff);
    t.same(res.json().data.insightSeries, { series: 'page_views', community: 'alpha', points: [{ day: '2026-11-15', value: 0 }, { day: '2026-11-16', value: 3 }, { day: '2026-11-17', value: 1 }] });
    const weekly = await gql('/graphqlAdmin', q, { s: 'active.week', f: '2026-11-10', t: '2026-11-21' }, staff);
    t.same(weekly.json().data.insightSeries.points.map((p: { day: string }) => p.day), ['2026-11-09', '2026-11-16'], 'a weekly series by its Mondays');
    const other = await gql('/graphqlAdmin', q, { s: 'page_views', f: '2026-11-16', t: '2026-11-16', c: 'beta' }, staff);
    t.same(other.json().data.insightSeries.points, [{ day: '2026-11-16', value: 2 }], "Beta's, for its admin");
    t.equal((await gql('/graphqlAdmin', q, { s: 'page_views', f: '2026-11-16', t: '2026-11-16', c: 'gamma' }, staff)).json().errors?.[0]?.extensions?.code, 'NotFound');
    t.equal((await gql('/graphqlAdmin', q, { s: 'nonsense', f: '2026-11-16', t: '2026-11-16' }, staff)).json().errors?.[0]?.extensions?.code, 'Insights.BadSeries');
    t.equal((await gql('/graphqlAdmin', q, { s: 'events', f: '2026-02-31', t: '2026-11-16' }, staff)).json().errors?.[0]?.extensions?.code, 'Insights.BadSeries');
    const member = await gql('/graphqlAdmin', q, { s: 'events', f: '2026-11-16', t: '2026-11-16' }, { authorization: `Bearer ${s.ada.token}` });
    t.ok(member.json().errors?.length, 'a member is refused');
    t.ok((await gql('/graphqlAdmin', '{ insightSeriesNames }', {}, staff)).json().data.insightSeriesNames.includes('active.week'));
  });

  // ---- Google tags ----
  await t.test('Google tags: nothing before consent; after it, only that community, only its pages, the CSP for exactly those hosts', async (t) => {
    const csp = (res: { headers: Record<string, unknown> }) => String(res.headers['content-security-policy']);
    const before = await get('/settings', s.ada.cookie);
    t.notMatch(before.body, 'consent-banner', 'no banner where no id is set');
    t.notMatch(csp(before), 'google', 'and no Google in the CSP');
    t.equal((await get('/analytics', s.ada.cookie)).statusCode, 404, 'no choice to make');

    await db.updateTable('communities').set({ google_analytics_id: 'G-TEST1234', google_tag_manager_id: 'GTM-ABCD12' }).where('id', '=', alpha.id).execute();
    app.communities.invalidate();
    const asked = await get('/settings', s.ada.cookie);
    t.match(asked.body, 'class="consent-banner"', 'the banner asks');
    t.match(asked.body, /<form class="consent-actions" action="\/analytics\/consent" method="post"><input type="hidden" name="_csrf"[\s\S]*value="granted"/, 'a plain form (no script needed)');
    t.notMatch(asked.body, 'googletagmanager', 'nothing of Google loads before the choice');
    t.notMatch(csp(asked), 'google');
    const visitor = await get('/login', '');
    t.match(visitor.body, 'class="consent-banner"', 'visitors are asked too');

    const c = await csrfFor(app, s.ada.cookie, '/settings');
    const choose = (choice: string) =>
      app.inject({ method: 'POST', url: '/analytics/consent', headers: { ...html, cookie: c.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ _csrf: c.token, choice, back: '/settings' }).toString() });
    const granted = await choose('granted');
    t.equal(granted.statusCode, 303);
    t.equal(granted.headers.location, '/settings', 'back to the page');
    const cookie = granted.cookies.find((k) => k.name === 'analytics_consent');
    t.equal(cookie?.value, 'granted');
    t.ok(cookie?.httpOnly, 'a cookie the page cannot read');
    const withConsent = `${s.ada.cookie}; analytics_consent=granted`;
    const loaded = await get('/settings', withConsent);
    t.notMatch(loaded.body, 'class="consent-banner"', 'no banner once chosen');
    t.match(loaded.body, /<script async nonce="[^"]+" src="https:\/\/www\.googletagmanager\.com\/gtag\/js\?id=G-TEST1234"><\/script>/, 'Google Analytics, with the nonce');
    t.match(loaded.body, "'GTM-ABCD12'", 'Tag Manager');
    const policy = csp(loaded);
    t.match(policy, /script-src [^;]*'self'[^;]* https:\/\/www\.googletagmanager\.com/, 'script-src adds Google’s tag host');
    t.match(policy, /connect-src [^;]*https:\/\/\*\.google-analytics\.com[^;]*https:\/\/\*\.analytics\.google\.com/, 'connect-src adds its collection hosts');
    t.notMatch(policy, /script-src [^;]*(unsafe-inline|\*)/, 'no wildcard, no unsafe-inline for scripts');
    const staffPage = await get('/admin', `${s.sam.cookie}; analytics_consent=granted`);
    t.notMatch(staffPage.body, 'googletagmanager', "not on the staff's pages");
    t.notMatch(csp(staffPage), 'google');
    const otherBrand = await get('/settings', `${s.bea.cookie}; analytics_consent=granted`, { host: 'beta.test' });
    t.notMatch(otherBrand.body, 'googletagmanager', 'not in another community (no id there)');
    t.notMatch(csp(otherBrand), 'google');
    const denied = await choose('denied');
    t.equal(denied.cookies.find((k) => k.name === 'analytics_consent')?.value, 'denied');
    const declined = await get('/settings', `${s.ada.cookie}; analytics_consent=denied`);
    t.notMatch(declined.body, 'googletagmanager', 'declined: nothing loads');
    t.notMatch(declined.body, 'class="consent-banner"', 'and no banner');
    t.match(declined.body, 'href="/analytics"', 'the footer offers the choice again');
    const page = await get('/analytics', `${s.ada.cookie}; analytics_consent=denied`);
    t.match(text(page.body), 'You chose not to allow Google Analytics.');
    t.equal((await app.inject({ method: 'POST', url: '/analytics/consent', headers: { cookie: c.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ _csrf: c.token, choice: 'maybe' }).toString() })).statusCode, 400, 'a choice that is not one');
    const away = await app.inject({ method: 'POST', url: '/analytics/consent', headers: { cookie: c.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ _csrf: c.token, choice: 'denied', back: '//evil.example/x' }).toString() });
    t.equal(away.headers.location, '/', 'never back to another site');
    await db.updateTable('communities').set({ google_analytics_id: null, google_tag_manager_id: null }).where('id', '=', alpha.id).execute();
    app.communities.invalidate();
  });

  await t.test("members' pages carry the first-party tracker; visitors' do not", async (t) => {
    const member = await get('/settings', s.ada.cookie);
    t.match(member.body, 'data-island="Tracker"', 'the tracker on a member page');
    t.match(member.body, '&quot;endpoint&quot;:&quot;/rest/events&quot;');
    t.notMatch((await get('/login', '')).body, 'data-island="Tracker"', 'none for a visitor');
  });
  await t.test('retention: raw events past their days are deleted by the job; their counts stay', async (t) => {
    const later = fixedClock('2027-02-20T12:00:00Z'); // 91 days after Nov 21
    await db.insertInto('insight_events').values(event(alpha, ada.id, '2027-02-19T09:00:00Z')).execute();
    const deleted = await deleteExpiredEvents(deps(alpha, { clock: later }));
    t.equal(deleted, 7, "Alpha's events older than 90 days");
    t.equal((await db.selectFrom('insight_events').select('id').where('community_id', '=', alpha.id).execute()).length, 1, 'the recent one stays');
    t.equal((await db.selectFrom('insight_events').select('id').where('community_id', '=', beta.id).execute()).length, 2, "Beta's are Beta's job");
    await rollUp(deps(alpha, { clock: later }));
    t.equal(await value(alpha, 'page_views', '2026-11-16'), 3, 'the old day keeps its count (never recomputed from deleted events)');
    t.equal(await value(alpha, 'page_views', '2027-02-19'), 1, 'the new one is counted');
  });
});
