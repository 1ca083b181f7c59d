import t, { type Test } from 'tap';
import { AppError } from '#src/core/errors.ts';
import type { RawDb as Db } from '#src/db/index.ts';
import type { Community } from '#src/db/types.ts';
import { approveIntroduction, declineIntroduction, requestIntroduction, type IntroDeps } from '#src/features/members/introductions.ts';
import {
  hasUnviewedNotifications,
  listNotifications,
  markAllRead,
  markRead,
  markViewed,
  openNotification,
  safeAppPath,
  type ListDeps,
} from '#src/features/notifications/list.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';

const HOUR = 3_600_000;

async function rejects(t: Test, p: Promise<unknown>, code: string | number, message: string) {
  try {
    await p;
    t.fail(`${message}: expected ${code}`);
  } catch (e) {
    t.equal((e as AppError).code, code, message);
  }
}

/** `count` notifications for a member, one an hour back from `now`, the newest last inserted (highest id). */
async function give(db: Db, community: Community, userId: number, count: number, now: Date, extra: { kind?: string; shown?: boolean; url?: string; prefix?: string } = {}) {
  const rows = Array.from({ length: count }, (_, i) => ({
    community_id: community.id,
    user_id: userId,
    kind: extra.kind ?? 'article_progress',
    url: extra.url ?? '/articles',
    message: `${extra.prefix ?? 'Note'} ${i + 1}`,
    created_at: new Date(now.getTime() - (count - i) * HOUR),
    shown: extra.shown ?? true,
  }));
  const out = await db.insertInto('notifications').values(rows).returning('id').execute();
  return out.map((r) => r.id);
}

t.test('notifications', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'] });
  const { app } = await startApp(t, db, { clock });
  const now = clock.now();
  const deps: ListDeps = { db, clock, community: alpha };
  const betaDeps: ListDeps = { db, clock, community: beta };

  await t.test('pages of ten, newest first, forwards and backwards by cursor', async (t) => {
    const ann = await createMember(db, alpha, { firstName: 'Ann' });
    const ids = await give(db, alpha, ann.id, 25, now);
    const first = await listNotifications(deps, ann.id);
    t.equal(first.items.length, 10);
    t.same(first.items.map((n) => n.message).slice(0, 2), ['Note 25', 'Note 24'], 'newest first');
    t.equal(first.hasNextPage, true);
    t.equal(first.hasPreviousPage, false);
    t.equal(await hasUnviewedNotifications(deps, ann.id), true);
    const second = await listNotifications(deps, ann.id, { first: 10, after: first.endCursor });
    t.same(second.items.map((n) => n.message), Array.from({ length: 10 }, (_, i) => `Note ${15 - i}`));
    t.equal(second.hasPreviousPage, true);
    t.equal(second.hasNextPage, true);
    const third = await listNotifications(deps, ann.id, { first: 10, after: second.endCursor });
    t.equal(third.items.length, 5);
    t.equal(third.hasNextPage, false);
    t.equal(third.items.at(-1)!.id, ids[0]);
    const back = await listNotifications(deps, ann.id, { last: 10, before: third.startCursor });
    t.same(back.items.map((n) => n.id), second.items.map((n) => n.id), 'backwards from the third page gives the second');
    t.equal(back.hasPreviousPage, true);
    t.equal(back.hasNextPage, true);
    const top = await listNotifications(deps, ann.id, { last: 10, before: back.startCursor });
    t.same(top.items.map((n) => n.id), first.items.map((n) => n.id));
    t.equal(top.hasPreviousPage, false);
    const bell = await listNotifications(deps, ann.id, { first: 7 });
    t.equal(bell.items.length, 7);

    await rejects(t, listNotifications(deps, ann.id, { after: 'abc' }), 'Notifications.BadRequest', 'a malformed cursor');
    await rejects(t, listNotifications(deps, ann.id, { after: '0' }), 'Notifications.BadRequest', 'cursor zero');
    await rejects(t, listNotifications(deps, ann.id, { before: '99999999999' }), 'Notifications.BadRequest', 'a cursor beyond the range');
    await rejects(t, listNotifications(deps, ann.id, { first: 51 }), 'Notifications.BadRequest', 'more than 50');
    await rejects(t, listNotifications(deps, ann.id, { first: -1 }), 'Notifications.BadRequest', 'a negative page');
    await rejects(t, listNotifications(deps, ann.id, { first: 5, last: 5 }), 'Notifications.BadRequest', 'first and last');
  });

  await t.test('read and viewed: one, all, viewed up to the newest seen; only the web channel; by kind', async (t) => {
    const bo = await createMember(db, alpha, { firstName: 'Bo' });
    const [a, b, c] = await give(db, alpha, bo.id, 3, now);
    const [hidden] = await give(db, alpha, bo.id, 1, now, { shown: false, prefix: 'Hidden' });
    const [intro] = await give(db, alpha, bo.id, 1, now, { kind: 'introductions', prefix: 'Intro' });
    const list = await listNotifications(deps, bo.id);
    t.notOk(list.items.some((n) => n.id === hidden), 'a notification off the web channel is not listed');
    t.equal(list.items.length, 4);

    const [read] = await markRead(deps, bo.id, [String(a)]);
    t.equal(read!.hasRead, true);
    t.equal(read!.hasViewed, true, 'reading is viewing');
    t.same(await markRead(deps, bo.id, [String(hidden)]), [], 'a hidden one cannot be marked');

    t.equal(await markViewed(deps, bo.id, String(b)), 1, 'viewed up to b: b (a already)');
    t.equal(await hasUnviewedNotifications(deps, bo.id), true, 'c and the introduction are newer');
    t.equal(await markViewed(deps, bo.id), 2);
    t.equal(await hasUnviewedNotifications(deps, bo.id), false, 'the dot goes');
    t.equal((await listNotifications(deps, bo.id)).items.filter((n) => !n.hasRead).length, 3, 'viewed is not read');

    const introOnly = await listNotifications(deps, bo.id, { kind: 'introductions' });
    t.same(introOnly.items.map((n) => n.id), [intro]);
    t.equal(await markAllRead(deps, bo.id, 'introductions'), 1, 'mark all of one kind');
    t.equal(await markAllRead(deps, bo.id), 2, 'then the rest');
    t.ok((await listNotifications(deps, bo.id)).items.every((n) => n.hasRead));
    t.equal(await markAllRead(deps, bo.id), 0);
    t.ok(c, 'c was read by mark all');
  });

  await t.test('tenancy: another member, or a member of another community, sees and changes nothing', async (t) => {
    const cy = await createMember(db, alpha, { firstName: 'Cy' });
    const dee = await createMember(db, alpha, { firstName: 'Dee' });
    const eve = await createMember(db, beta, { firstName: 'Eve' });
    const [mine] = await give(db, alpha, cy.id, 1, now);
    t.same((await listNotifications(deps, dee.id)).items, [], 'another member sees nothing');
    t.same((await listNotifications(betaDeps, cy.id)).items, [], 'the same member in another community sees nothing');
    t.same(await markRead(deps, dee.id, [String(mine)]), []);
    t.equal(await markAllRead(betaDeps, eve.id), 0);
    t.equal(await markViewed(betaDeps, cy.id), 0);
    await rejects(t, openNotification(deps, dee.id, mine!), 'NotFound', 'another member cannot open it');
    await rejects(t, openNotification(betaDeps, cy.id, mine!), 'NotFound', 'nor from another community');
    const row = await db.selectFrom('notifications').selectAll().where('id', '=', mine!).executeTakeFirstOrThrow();
    t.equal(row.read_at, null);
    t.equal(row.viewed_at, null);
  });

  await t.test('links lead only to paths of this site', async (t) => {
    t.equal(safeAppPath('/articles/edit'), '/articles/edit');
    t.equal(safeAppPath('/members/introductions?x=1#y'), '/members/introductions?x=1#y');
    for (const bad of ['https://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)', '/a\nb', '', 'articles']) {
      t.equal(safeAppPath(bad), '/notifications', JSON.stringify(bad));
    }
  });

  await t.test('introduction outcomes notify the requester in the same transaction', async (t) => {
    const ida = await createMember(db, alpha, { firstName: 'Ida', lastName: 'Asker' });
    const jo = await createMember(db, alpha, { firstName: 'Jo', lastName: 'Target' });
    const kim = await createMember(db, alpha, { firstName: 'Kim', lastName: 'Other' });
    const staff = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Sam', lastName: 'Staff' });
    const introDeps: IntroDeps = {
      db,
      clock,
      community: alpha,
      t: app.t,
      messages: app.messages,
      publicUrl: `${app.config.publicUrl}${app.config.basePath}`,
      mailFrom: app.config.mailFrom,
      notifier: app.notifications,
    };
    const reason = 'We both build warehouses in Texas and could share what we learned.';
    const one = await requestIntroduction(introDeps, ida.id, { targetId: jo.id, reason });
    const two = await requestIntroduction(introDeps, ida.id, { targetId: kim.id, reason });
    await approveIntroduction(introDeps, staff.id, one.id, '');
    await declineIntroduction(introDeps, staff.id, two.id, 'Kim is away this month.');
    const page = await listNotifications(deps, ida.id);
    t.same(
      page.items.map((n) => [n.kind, n.url, n.message]),
      [
        ['introductions', '/members/introductions', 'Your request to meet Kim Other was declined. See the team’s reason in your introduction requests.'],
        ['introductions', '/members/introductions', 'The community team introduced you to Jo Target. Look for the introduction in your email.'],
      ],
    );
    t.same((await listNotifications(deps, jo.id)).items, [], 'the target is told by mail only');
  });

  await t.test('GraphQL: bearer and cookie+CSRF; bad cursors and ids are refused', async (t) => {
    const lu = await createMember(db, alpha, { firstName: 'Lu' });
    const other = await createMember(db, alpha, { firstName: 'Mo' });
    const ids = await give(db, alpha, lu.id, 12, now, { url: '/articles/edit' });
    const [othersId] = await give(db, alpha, other.id, 1, now);
    const bearer = (await signIn(app, lu, alpha)).token;
    const gql = (query: string, variables: object, headers: Record<string, string>, host?: string) =>
      app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...(host ? { host } : {}), ...headers }, payload: JSON.stringify({ query, variables }) });
    const auth = { authorization: `Bearer ${bearer}` };
    const LIST = 'query L($first: Int, $last: Int, $after: String, $before: String) { notifications(first: $first, last: $last, after: $after, before: $before) { edges { cursor node { id url message hasRead createdAt } } nodes { id } pageInfo { hasNextPage hasPreviousPage hasUnviewed startCursor endCursor } } }';

    const res = await gql(LIST, { first: 10 }, auth);
    const conn = res.json().data?.notifications;
    t.equal(conn?.edges.length, 10, res.body);
    t.same(conn.edges[0].node, { id: String(ids[11]), url: '/articles/edit', message: 'Note 12', hasRead: false, createdAt: new Date(now.getTime() - HOUR).toISOString() });
    t.equal(conn.edges[0].cursor, String(ids[11]));
    t.equal(conn.nodes.length, 10);
    t.same(conn.pageInfo, { hasNextPage: true, hasPreviousPage: false, hasUnviewed: true, startCursor: String(ids[11]), endCursor: String(ids[2]) });
    const next = (await gql(LIST, { first: 10, after: conn.pageInfo.endCursor }, auth)).json().data.notifications;
    t.same(next.nodes.map((n: { id: string }) => n.id), [String(ids[1]), String(ids[0])]);
    const prev = (await gql(LIST, { last: 3, before: next.pageInfo.startCursor }, auth)).json().data.notifications;
    t.same(prev.nodes.map((n: { id: string }) => n.id), [String(ids[4]), String(ids[3]), String(ids[2])]);

    for (const [name, vars] of [
      ['a word cursor', { after: 'nope' }],
      ['a NUL cursor', { before: '\u0000' }],
      ['a huge page', { first: 1000 }],
      ['first and last', { first: 1, last: 1 }],
    ] as const) {
      const bad = await gql(LIST, vars, auth);
      t.equal(bad.json().errors?.[0]?.extensions?.code, 'Notifications.BadRequest', name);
      t.ok(bad.statusCode < 500, `${name}: ${bad.statusCode}`);
    }
    const badId = await gql('mutation { notificationsMarkAsRead(notificationIds: ["x"]) { id } }', {}, auth);
    t.equal(badId.json().errors?.[0]?.extensions?.code, 'Notifications.BadRequest');
    const noIds = await gql('mutation { notificationsMarkAsRead { id } }', {}, auth);
    t.equal(noIds.json().errors?.[0]?.extensions?.code, 'Notifications.BadRequest', 'the ids are required');
    const tooMany = await gql('mutation M($ids: [ID!]!) { notificationsMarkAsRead(notificationIds: $ids) { id } }', { ids: Array.from({ length: 101 }, (_, i) => String(i + 1)) }, auth);
    t.equal(tooMany.json().errors?.[0]?.extensions?.code, 'Notifications.BadRequest', 'at most 100 ids');

    const marked = await gql('mutation M($ids: [ID!]!) { notificationsMarkAsRead(notificationIds: $ids) { id hasRead } }', { ids: [String(ids[11]), String(othersId)] }, auth);
    t.same(marked.json().data?.notificationsMarkAsRead, [{ id: String(ids[11]), hasRead: true }], 'another member’s id changes nothing');
    const viewed = await gql(`mutation { notificationsMarkAsViewed(upTo: "${ids[11]}") }`, {}, auth);
    t.equal(viewed.json().data?.notificationsMarkAsViewed, 11);
    t.equal((await gql('{ notifications(first: 1) { pageInfo { hasUnviewed } } }', {}, auth)).json().data.notifications.pageInfo.hasUnviewed, false);

    // Cookie clients (our pages) need the CSRF header.
    const browser = await csrfFor(app, (await signIn(app, lu, alpha)).cookie, '/notifications');
    const noToken = await gql('mutation { notificationsMarkAllAsRead }', {}, { cookie: browser.cookie });
    t.ok(noToken.statusCode === 403 || noToken.json().errors?.[0]?.extensions?.code === 'BadRequest.Csrf', 'a cookie without the CSRF token is refused');
    const all = await gql('mutation { notificationsMarkAllAsRead }', {}, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.equal(all.json().data?.notificationsMarkAllAsRead, 11, all.body);
    const poll = await gql('{ notifications(first: 1) { pageInfo { hasUnviewed } } }', {}, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.equal(poll.json().data?.notifications.pageInfo.hasUnviewed, false);

    const signedOut = await gql('{ notifications { nodes { id } } }', {}, {});
    t.ok(signedOut.json().errors?.length, 'signed out: refused');
    // The member's bearer token is for alpha: on beta's host it is not a session there.
    const elsewhere = await gql('{ notifications { nodes { id } } }', {}, auth, 'beta.test');
    t.notOk(elsewhere.json().data?.notifications?.nodes?.length, 'nothing of alpha on beta');
  });

  await t.test('a page of none still says whether there are more; a notifier link that is not ours is stored as the list', async (t) => {
    const zed = await createMember(db, alpha, { firstName: 'Zed' });
    await give(db, alpha, zed.id, 2, now);
    const none = await listNotifications(deps, zed.id, { first: 0 });
    t.same([none.items.length, none.hasNextPage], [0, true]);
    const id = await db.transaction().execute((trx) =>
      app.notifications.notify(trx as unknown as Db, { communityId: alpha.id, userId: zed.id, kind: 'account_security', url: 'https://evil.example/x', message: 'm', createdAt: now }),
    );
    const row = await db.selectFrom('notifications').select('url').where('id', '=', id).executeTakeFirstOrThrow();
    t.equal(row.url, '/notifications', 'email, push and the list all get a path of this site');
  });

  await t.test('opening marks read only on a navigation, not from an image or a fetch of another page', async (t) => {
    const ivy = await createMember(db, alpha, { firstName: 'Ivy' });
    const [id] = await give(db, alpha, ivy.id, 1, now, { url: '/articles' });
    const { cookie } = await signIn(app, ivy, alpha);
    const asImage = await app.inject({ url: `/notifications/${id}/open`, headers: { cookie, 'sec-fetch-dest': 'image', 'sec-fetch-site': 'cross-site' } });
    t.equal(asImage.statusCode, 303);
    t.equal(asImage.headers.location, '/notifications');
    t.equal((await db.selectFrom('notifications').select('read_at').where('id', '=', id!).executeTakeFirstOrThrow()).read_at, null, 'still unread');
    const click = await app.inject({ url: `/notifications/${id}/open`, headers: { cookie, 'sec-fetch-dest': 'document', 'sec-fetch-site': 'same-origin' } });
    t.equal(click.headers.location, '/articles');
    t.not((await db.selectFrom('notifications').select('read_at').where('id', '=', id!).executeTakeFirstOrThrow()).read_at, null, 'read');
  });

  await t.test('the page without JavaScript: list, open, mark one, mark all, option, paging, hostile input', async (t) => {
    const nia = await createMember(db, alpha, { firstName: 'Nia' });
    const [evil] = await give(db, alpha, nia.id, 1, new Date(now.getTime() - 30 * 24 * HOUR), { url: '//evil.example/x', prefix: 'Old' });
    const ids = await give(db, alpha, nia.id, 11, now, { url: '/articles/edit' });
    const [intro] = await give(db, alpha, nia.id, 1, now, { kind: 'introductions', url: '/members/introductions', prefix: 'Intro' });
    const as = await csrfFor(app, (await signIn(app, nia, alpha)).cookie, '/notifications');
    const get = (url: string) => app.inject({ url, headers: { cookie: as.cookie, accept: 'text/html' } });
    const post = (url: string, fields: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url,
        headers: { cookie: as.cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        payload: new URLSearchParams({ _csrf: as.token, ...fields }).toString(),
      });

    const page = await get('/notifications');
    t.equal(page.statusCode, 200);
    t.match(page.body, '<h1 id="notif-heading">Notifications</h1>');
    t.match(page.body, 'Intro 1');
    t.match(page.body, '1 hour ago');
    // Relative times are marked with their ISO time; the page loads the script that refreshes them,
    // worded by the locale's messages (spec section 9: each minute within the first hour, hourly within three).
    t.match(page.body, /<time class="notif-time muted" dateTime="[0-9T:.Z-]+" data-rel="">1 hour ago<\/time>/);
    t.match(page.body, /data-island="RelativeTimes" data-props="[^"]*&quot;justNow&quot;:&quot;just now&quot;,&quot;minutes&quot;:\{&quot;one&quot;:&quot;# minute ago&quot;,&quot;other&quot;:&quot;# minutes ago&quot;\},&quot;hours&quot;:\{&quot;one&quot;:&quot;# hour ago&quot;,&quot;other&quot;:&quot;# hours ago&quot;\}/);
    t.equal((page.body.match(/data-island="RelativeTimes"/g) ?? []).length, 1, 'once a page');
    t.notMatch((await get('/settings')).body, 'RelativeTimes', 'a page without relative times loads no such script');
    t.match(page.body, 'Mark all as read');
    t.equal((page.body.match(/class="notif-item is-unread"/g) ?? []).length, 10, 'ten a page, all unread');
    t.match(page.body, '<span class="notif-badge">Unread</span>', 'unread is said in words, not colour alone');
    t.match(page.body, `href="/notifications/${intro}/open"`);
    t.match(page.body, 'href="/settings/notifications">Choose which notifications you receive, and where</a>', 'the footer link');
    t.match(page.body, /data-testid="bell-dot"(?! hidden)/, 'the bell has its dot on the server');
    const olderHref = /href="(\/notifications\?after=\d+)">Older notifications/.exec(page.body)?.[1];
    t.ok(olderHref, 'a link to older notifications');
    const older = await get(olderHref!.replace(/&amp;/g, '&'));
    t.match(older.body, 'Old 1');
    t.match(older.body, 'Oct 22, 2026', 'a date after 21 days');
    t.match(older.body, 'Newer notifications');

    const opened = await get(`/notifications/${intro}/open`);
    t.equal(opened.statusCode, 303);
    t.equal(opened.headers.location, '/members/introductions');
    t.not((await db.selectFrom('notifications').select('read_at').where('id', '=', intro!).executeTakeFirstOrThrow()).read_at, null, 'opening marks it read');
    const openedEvil = await get(`/notifications/${evil}/open`);
    t.equal(openedEvil.headers.location, '/notifications', 'a link elsewhere is refused: the list instead');
    t.equal((await get('/notifications/abc/open')).statusCode, 404);
    t.equal((await get('/notifications/99999/open')).statusCode, 404);

    const one = await post(`/notifications/${ids[10]}/read`, { after: String(ids[5]) });
    t.equal(one.statusCode, 303);
    t.equal(one.headers.location, `/notifications?after=${ids[5]}&alert=notification-read`, 'back to the same place, with an alert');
    const alerted = await get(one.headers.location as string);
    t.match(alerted.body, 'Marked as read.');
    t.equal((await post('/notifications/99999/read')).statusCode, 404);
    const noCsrf = await app.inject({ method: 'POST', url: '/notifications/read-all', headers: { cookie: as.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    t.equal(noCsrf.statusCode, 403);

    const narrowed = await get('/notifications?option=introductions');
    t.match(narrowed.body, 'Notifications: Introductions');
    t.match(narrowed.body, 'href="/settings/notifications#introductions">Manage settings</a>');
    t.match(narrowed.body, 'href="/notifications">See all notifications</a>');
    t.notMatch(narrowed.body, 'Note 1');
    t.equal((await get('/notifications?option=nope')).statusCode, 404, 'an unknown option is not found');

    const all = await post('/notifications/read-all', { option: 'bogus', after: 'x' });
    t.equal(all.headers.location, '/notifications?alert=notifications-read', 'bad place fields are dropped');
    const after = await get(all.headers.location as string);
    t.notMatch(after.body, 'is-unread');
    t.notMatch(after.body, 'Mark all as read');
    t.match(after.body, 'All notifications are marked as read.');

    for (const q of ['after=abc', 'before=%00', 'after=99999999999', 'after=1&after=2', 'option=%00']) {
      const res = await get(`/notifications?${q}`);
      t.ok(res.statusCode >= 400 && res.statusCode < 500, `${q}: ${res.statusCode}`);
    }

    const empty = await createMember(db, alpha, { firstName: 'Oz' });
    const emptyPage = await app.inject({ url: '/notifications', headers: { cookie: (await signIn(app, empty, alpha)).cookie, accept: 'text/html' } });
    t.match(emptyPage.body, 'You have no notifications yet.');
    t.match(emptyPage.body, /data-testid="bell-dot" hidden/, 'no dot without anything unviewed');
    const signedOut = await app.inject({ url: '/notifications', headers: { accept: 'text/html' } });
    t.ok([302, 303].includes(signedOut.statusCode), 'signed out: to sign-in');
  });
});

t.test('the demo: every member starts with a history, the newest unread and unseen', async (t) => {
  const db = await setupDatabase(t, { seeded: true });
  const rows = await db
    .selectFrom('notifications')
    .innerJoin('users', 'users.id', 'notifications.user_id')
    .select(['users.email', 'notifications.kind', 'notifications.read_at', 'notifications.viewed_at', 'notifications.created_at', 'notifications.url'])
    .execute();
  // The expert panels' demo adds what its services would have told the panels' members (its own test).
  const byMember = new Map<string, typeof rows>();
  for (const r of rows) if (!r.kind.startsWith('expert_')) byMember.set(r.email, [...(byMember.get(r.email) ?? []), r]);
  // Members who have joined: an invitee still in onboarding (the payments demo's) has no history yet.
  const members = await db.selectFrom('memberships').innerJoin('users', 'users.id', 'memberships.user_id').select('users.email').where('users.username', '!=', 'admin').where('memberships.gate', '=', 'app').execute();
  t.equal(byMember.size, new Set(members.map((m) => m.email)).size, 'every demo member has notifications');
  for (const [email, list] of byMember) {
    if (list.length < 6 || list.length > 15) t.fail(`${email}: ${list.length}`);
    const unseen = list.filter((n) => n.viewed_at === null).length;
    if (unseen < 2 || unseen > 3) t.fail(`${email}: ${unseen} unseen`);
  }
  const amara = byMember.get('amara.okafor@summit-demo.example.com')!;
  t.ok(amara.some((n) => n.read_at !== null), 'some read');
  t.ok(amara.some((n) => n.viewed_at === null), 'the bell shows the dot for Amara');
  t.ok(new Set(rows.map((r) => r.kind)).size >= 4, 'several kinds');
  const oldest = Math.min(...[...byMember.values()].flat().map((r) => new Date(r.created_at).getTime()));
  t.ok(Date.now() - oldest <= 43 * 86_400_000, 'over the last six weeks');
});
