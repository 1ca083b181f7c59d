import t from 'tap';
import type { RawDb as Db } from '#src/db/index.ts';
import { deliveryJobs } from '#src/features/notifications/delivery.ts';
import { sendPushes } from '#src/features/notifications/push-delivery.ts';
import { addPushToken, addSubscription, checkSubscription, DEVICES_MAX, endpointAllowed, TOKEN_MAX } from '#src/features/notifications/push/tokens.ts';
import type { MobilePushMessage, PushProvider, PushResult } from '#src/features/notifications/push/types.ts';
import { vapidKeys, VapidWebPush } from '#src/features/notifications/push/web-push.ts';
import { setupDatabase, startApp, testClock, testConfig } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';
import { browserKeys, fakeWebPushService } from '#test/helpers/push.ts';

/** A mobile provider the test steers: it records each push and answers per token. */
class FakeProvider implements PushProvider {
  readonly sent: MobilePushMessage[] = [];
  answers = new Map<string, PushResult | 'fail'>();
  async send(m: MobilePushMessage): Promise<PushResult> {
    const a = this.answers.get(m.token) ?? 'sent';
    if (a === 'fail') throw new Error('provider down');
    this.sent.push(m);
    return a;
  }
}

const tokensOf = (db: Db, userId: number) =>
  db.selectFrom('push_tokens').select(['token', 'platform', 'community_id', 'user_id', 'last_used_at']).where('user_id', '=', userId).orderBy('id').execute();

t.test('push', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle' });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'], app_name: 'Beta Club' });
  const { app } = await startApp(t, db, { clock });
  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Push' });
  const bob = await createMember(db, alpha, { firstName: 'Bob', lastName: 'Push' });
  const bea = await createMember(db, beta, { firstName: 'Bea', lastName: 'Other' });
  const mobile = new FakeProvider();
  app.push.mobile = mobile;
  const service = await fakeWebPushService(t);
  app.push.web = new VapidWebPush(vapidKeys(testConfig())!, { agent: service.agent, timeoutMs: 5000 });

  const gql = (query: string, variables: object, headers: Record<string, string>, host?: string) =>
    app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...(host ? { host } : {}), ...headers }, payload: JSON.stringify({ query, variables }) });
  const ADD = 'mutation A($token: String!, $isIos: Boolean, $isFcm: Boolean) { notificationsPushTokenAdd(token: $token, isIos: $isIos, isFcm: $isFcm) }';
  const REMOVE = 'mutation R($token: String!) { notificationsPushTokenRemove(token: $token) }';

  await t.test('GraphQL: add and remove tokens by bearer and by cookie with CSRF; reassignment; tenancy; hostile input', async (t) => {
    const bearer = { authorization: `Bearer ${(await signIn(app, ada, alpha)).token}` };
    let res = await gql(ADD, { token: 'ios-token-aaaa', isIos: true }, bearer);
    t.same(res.json(), { data: { notificationsPushTokenAdd: true } }, res.body);
    res = await gql(ADD, { token: 'fcm:token-bbbb', isFcm: true }, bearer);
    t.equal(res.json().data?.notificationsPushTokenAdd, true);
    res = await gql(ADD, { token: 'plain-token-cccc' }, bearer);
    t.equal(res.json().data?.notificationsPushTokenAdd, true);
    t.same(
      (await tokensOf(db, ada.id)).map((r) => [r.token, r.platform, r.community_id]),
      [['ios-token-aaaa', 'ios', alpha.id], ['fcm:token-bbbb', 'fcm', alpha.id], ['plain-token-cccc', 'fcm', alpha.id]],
      'iOS if isIos, else FCM',
    );
    res = await gql(ADD, { token: 'ios-token-aaaa', isIos: true }, bearer);
    t.equal((await tokensOf(db, ada.id)).length, 3, 'adding again keeps one row');

    const browser = await csrfFor(app, (await signIn(app, bob, alpha)).cookie, '/settings/notifications/devices');
    const noCsrf = await gql(ADD, { token: 'plain-token-cccc' }, { cookie: browser.cookie });
    t.ok(noCsrf.statusCode === 403 || noCsrf.json().errors?.[0]?.extensions?.code === 'BadRequest.Csrf', 'a cookie without the CSRF token is refused');
    res = await gql(ADD, { token: 'plain-token-cccc' }, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.equal(res.json().data?.notificationsPushTokenAdd, true, res.body);
    t.same((await tokensOf(db, ada.id)).map((r) => r.token), ['ios-token-aaaa', 'fcm:token-bbbb'], 'the device moved away from Ada…');
    t.same((await tokensOf(db, bob.id)).map((r) => r.token), ['plain-token-cccc'], '…to Bob, who registered it last');

    // Another community: its own row for the same device; Bea cannot remove Ada's token.
    const beaBearer = { authorization: `Bearer ${(await signIn(app, bea, beta)).token}` };
    res = await gql(ADD, { token: 'ios-token-aaaa', isIos: true }, beaBearer, 'beta.test');
    t.equal(res.json().data?.notificationsPushTokenAdd, true, res.body);
    res = await gql(REMOVE, { token: 'fcm:token-bbbb' }, beaBearer, 'beta.test');
    t.equal(res.json().data?.notificationsPushTokenRemove, true);
    t.equal((await tokensOf(db, ada.id)).length, 2, 'another community’s member removes nothing of Ada’s');
    t.same((await tokensOf(db, bea.id)).map((r) => [r.token, r.community_id]), [['ios-token-aaaa', beta.id]], 'the same device in beta is beta’s row');
    res = await gql(REMOVE, { token: 'plain-token-cccc' }, bearer);
    t.equal((await tokensOf(db, bob.id)).length, 1, 'Ada cannot remove Bob’s token');

    for (const [label, token] of [['NUL', 'abc\u0000def'], ['empty', ''], ['spaces inside', 'a b'], ['markup', '<script>'], ['huge', 'x'.repeat(5000)]] as const) {
      res = await gql(ADD, { token, isIos: true }, bearer);
      t.equal(res.json().errors?.[0]?.extensions?.code, 'Push.InvalidToken', `${label}: Push.InvalidToken`);
      t.ok(res.statusCode < 500, `${label}: not a 5xx`);
    }
    res = await gql(REMOVE, { token: 'x'.repeat(100_000) }, bearer);
    t.equal(res.json().errors?.[0]?.extensions?.code, 'Push.InvalidToken', 'a huge token to remove');
    res = await gql(ADD, { token: 'signed-out-token' }, {});
    t.equal(res.json().errors?.[0]?.extensions?.code, 'NotAuthenticated', 'signed out');

    res = await gql(REMOVE, { token: 'ios-token-aaaa' }, bearer);
    t.equal(res.json().data?.notificationsPushTokenRemove, true);
    t.same((await tokensOf(db, ada.id)).map((r) => r.token), ['fcm:token-bbbb'], 'removed');
  });

  await t.test('the Web Push subscription routes: CSRF, validation, tenancy', async (t) => {
    const jar = await csrfFor(app, (await signIn(app, ada, alpha)).cookie, '/settings/notifications/devices');
    const post = (url: string, body: unknown, headers: Record<string, string> = { cookie: jar.cookie, 'x-csrf-token': jar.token }) =>
      app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, payload: JSON.stringify(body) });
    const sub = { endpoint: `${service.origin}/push/ada-browser`, expirationTime: null, keys: browserKeys() };

    let res = await post('/notifications/push/subscription', sub, { cookie: jar.cookie });
    t.equal(res.statusCode, 403, 'no CSRF header: refused');
    res = await post('/notifications/push/subscription', sub);
    t.equal(res.statusCode, 201, res.body);
    const row = await db.selectFrom('push_tokens').selectAll().where('token', '=', sub.endpoint).executeTakeFirstOrThrow();
    t.same([row.platform, row.user_id, row.community_id, row.keys], ['web', ada.id, alpha.id, sub.keys], 'stored with its keys');

    const bad: [string, unknown][] = [
      ['http endpoint', { ...sub, endpoint: 'http://push.example.com/x' }],
      ['not a URL', { ...sub, endpoint: 'nope' }],
      ['NUL in endpoint', { ...sub, endpoint: 'https://push.example.com/\u0000' }],
      ['huge endpoint', { ...sub, endpoint: `https://push.example.com/${'x'.repeat(3000)}` }],
      ['credentials in endpoint', { ...sub, endpoint: 'https://u:p@push.example.com/x' }],
      ['short p256dh', { ...sub, keys: { ...sub.keys, p256dh: 'AAAA' } }],
      ['long auth', { ...sub, keys: { ...sub.keys, auth: Buffer.alloc(32).toString('base64url') } }],
      ['no keys', { endpoint: sub.endpoint }],
      ['keys not strings', { ...sub, keys: { p256dh: 1, auth: null } }],
      ['an array', [sub]],
      ['null', null],
    ];
    for (const [label, body] of bad) {
      res = await post('/notifications/push/subscription', body);
      t.equal(res.statusCode, 400, `${label}: 400`);
    }
    const { checkSubscription } = await import('#src/features/notifications/push/tokens.ts');
    t.throws(() => checkSubscription({ ...sub, endpoint: 'https://127.0.0.1:9/x' }, true), 'production refuses a loopback endpoint');
    t.throws(() => checkSubscription({ ...sub, endpoint: 'https://192.168.1.2/x' }, true), 'production refuses a private address');
    t.throws(() => checkSubscription({ ...sub, endpoint: 'https://localhost/x' }, true), 'production refuses localhost');
    t.ok(checkSubscription({ ...sub, endpoint: 'https://fcm.googleapis.com/fcm/send/abc' }, true), 'a push service is fine');

    const signedOut = await app.inject({ method: 'POST', url: '/notifications/push/subscription', headers: { 'content-type': 'application/json', accept: 'application/json' }, payload: JSON.stringify(sub) });
    t.ok([401, 403].includes(signedOut.statusCode), `signed out: ${signedOut.statusCode}`);

    // Bob cannot delete Ada's subscription.
    const bobJar = await csrfFor(app, (await signIn(app, bob, alpha)).cookie, '/settings/notifications/devices');
    res = await post('/notifications/push/subscription/delete', { endpoint: sub.endpoint }, { cookie: bobJar.cookie, 'x-csrf-token': bobJar.token });
    t.equal(res.statusCode, 200);
    t.ok(await db.selectFrom('push_tokens').select('id').where('token', '=', sub.endpoint).executeTakeFirst(), 'still Ada’s');
    res = await post('/notifications/push/subscription/delete', { endpoint: 'x'.repeat(10_000) });
    t.equal(res.statusCode, 400, 'a huge endpoint to delete: 400');
    res = await post('/notifications/push/subscription/delete', { endpoint: sub.endpoint });
    t.equal(res.statusCode, 200);
    t.notOk(await db.selectFrom('push_tokens').select('id').where('token', '=', sub.endpoint).executeTakeFirst(), 'Ada turned it off');

    const worker = await app.inject({ url: '/sw.js' });
    t.equal(worker.statusCode, 200, 'the service worker');
    t.match(worker.headers['content-type'], /javascript/);
    t.match(worker.body, "addEventListener('push'");
  });

  await t.test('delivery: notify → every device; gone tokens removed; a retry never sends twice; a failure is retried alone', async (t) => {
    const cy = await createMember(db, alpha, { firstName: 'Cy', lastName: 'Devices' });
    // Email delivery is another slice's: Cy keeps email off for introductions so the job runs push alone here.
    await db.insertInto('notification_preferences').values({ community_id: alpha.id, user_id: cy.id, option: 'introductions', channel: 'email', selected: false }).execute();
    const member = { communityId: alpha.id, userId: cy.id };
    const { addPushToken, addSubscription } = await import('#src/features/notifications/push/tokens.ts');
    await addPushToken(db, member, { token: 'cy-ios', isIos: true }, clock.now());
    await addPushToken(db, member, { token: 'cy-android' }, clock.now());
    await addPushToken(db, member, { token: 'cy-old-phone' }, clock.now());
    await addSubscription(db, member, { endpoint: `${service.origin}/push/cy-browser`, keys: browserKeys() }, clock.now(), false);
    await addSubscription(db, member, { endpoint: `${service.origin}/push/cy-expired`, keys: browserKeys() }, clock.now(), false);
    // Cy's device in another community gets nothing from alpha.
    await addPushToken(db, { communityId: beta.id, userId: cy.id }, { token: 'cy-ios' }, clock.now());
    mobile.answers.set('cy-old-phone', 'gone');
    service.answer((r) => ({ status: r.url.endsWith('cy-expired') ? 410 : 201 }));
    const before = service.received.length;

    const id = await app.notifications.notify(db, { communityId: alpha.id, userId: cy.id, kind: 'introductions', url: '/members/introductions', message: 'Bob would like to meet you', createdAt: clock.now() });
    await app.jobs.drain();
    const toCy = mobile.sent.filter((m) => m.token.startsWith('cy-'));
    t.same(toCy.map((m) => [m.token, m.platform]).sort(), [['cy-android', 'fcm'], ['cy-ios', 'ios'], ['cy-old-phone', 'fcm']], 'each mobile device once, alpha’s only');
    t.same(toCy[0] && { title: toCy[0].title, body: toCy[0].body, url: toCy[0].url }, { title: 'Alpha Circle', body: 'Bob would like to meet you', url: `${app.config.publicUrl}/members/introductions` }, 'title, body, absolute link');
    const web = service.received.slice(before);
    t.same(web.map((r) => r.url).sort(), ['/push/cy-browser', '/push/cy-expired'], 'each browser once');
    const left = await db.selectFrom('push_tokens').select(['token', 'last_used_at']).where('community_id', '=', alpha.id).where('user_id', '=', cy.id).orderBy('id').execute();
    t.same(left.map((r) => r.token), ['cy-ios', 'cy-android', `${service.origin}/push/cy-browser`], 'gone tokens removed (the old phone, the expired browser)');
    t.ok(left.every((r) => r.last_used_at?.getTime() === clock.now().getTime()), 'last used now');

    // The job again (a retry after a crash): nothing is sent twice.
    const handler = deliveryJobs(app)[0]!.handler as (data: { id: number; communityId: number }) => Promise<void>;
    const sentBefore = mobile.sent.length;
    const webBefore = service.received.length;
    await handler({ id, communityId: alpha.id });
    t.equal(mobile.sent.length, sentBefore, 'no mobile push twice');
    t.equal(service.received.length, webBefore, 'no Web Push twice');

    // A provider down for one device: the others are sent, the job fails, the retry sends only that one.
    const id2 = await app.notifications.notify(db, { communityId: alpha.id, userId: cy.id, kind: 'introductions', url: '/members/introductions', message: 'Second', createdAt: clock.now() });
    mobile.answers.set('cy-ios', 'fail');
    await t.rejects(handler({ id: id2, communityId: alpha.id }), /provider down/, 'the job fails (and is retried)');
    t.same(mobile.sent.filter((m) => m.body === 'Second').map((m) => m.token), ['cy-android'], 'the others were sent');
    t.equal(service.received.length, webBefore + 1, 'the browser too');
    const claims = await db.selectFrom('notification_deliveries').select('target').where('notification_id', '=', id2).orderBy('target').execute();
    t.notOk(claims.some((c) => c.target === 'cy-ios'), 'the failed push’s claim was released');
    mobile.answers.delete('cy-ios');
    await handler({ id: id2, communityId: alpha.id });
    t.same(mobile.sent.filter((m) => m.body === 'Second').map((m) => m.token), ['cy-android', 'cy-ios'], 'the retry sent only the failed one');
    t.equal(service.received.length, webBefore + 1, 'the browser not again');

    // Push off for the kind: nothing.
    await db.insertInto('notification_preferences').values({ community_id: alpha.id, user_id: cy.id, option: 'introductions', channel: 'push', selected: false }).execute();
    const count = mobile.sent.length;
    await app.notifications.notify(db, { communityId: alpha.id, userId: cy.id, kind: 'introductions', url: '/x', message: 'Third', createdAt: clock.now() });
    await app.jobs.drain();
    t.equal(mobile.sent.length, count, 'push off: no push');

    // Web Push off on the server: browsers are skipped, not removed.
    const dan = await createMember(db, alpha, { firstName: 'Dan', lastName: 'Web' });
    await db.insertInto('notification_preferences').values({ community_id: alpha.id, user_id: dan.id, option: 'introductions', channel: 'email', selected: false }).execute();
    await addSubscription(db, { communityId: alpha.id, userId: dan.id }, { endpoint: `${service.origin}/push/dan`, keys: browserKeys() }, clock.now(), false);
    const webPush = app.push.web;
    app.push.web = null;
    await app.notifications.notify(db, { communityId: alpha.id, userId: dan.id, kind: 'introductions', url: '/x', message: 'Dan', createdAt: clock.now() });
    await app.jobs.drain();
    app.push.web = webPush;
    t.ok(await db.selectFrom('push_tokens').select('id').where('user_id', '=', dan.id).executeTakeFirst(), 'kept for when Web Push is back');
  });

  await t.test('the devices page without JavaScript: list and remove; tenancy', async (t) => {
    const eve = await createMember(db, alpha, { firstName: 'Eve', lastName: 'Page' });
    const { addPushToken, addSubscription } = await import('#src/features/notifications/push/tokens.ts');
    const me = { communityId: alpha.id, userId: eve.id };
    await addPushToken(db, me, { token: 'eve-ios', isIos: true }, new Date('2026-11-01T10:00:00Z'));
    await addSubscription(db, me, { endpoint: 'https://fcm.googleapis.com/fcm/send/eve', keys: browserKeys() }, new Date('2026-11-02T10:00:00Z'), false);
    const session = await signIn(app, eve, alpha);
    const page = await app.inject({ url: '/settings/notifications/devices', headers: { cookie: session.cookie, accept: 'text/html' } });
    t.equal(page.statusCode, 200);
    t.match(page.body, 'Devices and browsers');
    t.match(page.body, 'iPhone or iPad app');
    t.match(page.body, 'Browser');
    t.match(page.body, 'through fcm.googleapis.com');
    t.match(page.body, 'Added Nov 1, 2026');
    t.match(page.body, 'Not notified yet');
    t.match(page.body, 'Notifications in this browser need JavaScript', 'without JavaScript it says so');
    t.match(page.body, 'Turn on notifications in this browser');
    t.notMatch(page.body, 'eve-ios', 'tokens are not shown');

    const signedOut = await app.inject({ url: '/settings/notifications/devices', headers: { accept: 'text/html' } });
    t.equal(signedOut.statusCode, 303, 'signed out: to sign in');
    t.match(signedOut.headers.location, /^\/login/);

    const rows = await db.selectFrom('push_tokens').select(['id', 'token']).where('user_id', '=', eve.id).orderBy('id').execute();
    const jar = await csrfFor(app, session.cookie, '/settings/notifications/devices');
    const remove = (id: number | string, cookie = jar.cookie, token = jar.token, host?: string) =>
      app.inject({ method: 'POST', url: `/settings/notifications/devices/${id}/remove`, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...(host ? { host } : {}) }, payload: `_csrf=${encodeURIComponent(token)}` });

    let res = await remove(rows[0]!.id, jar.cookie, 'wrong');
    t.equal(res.statusCode, 403, 'a wrong CSRF token');
    const other = await csrfFor(app, (await signIn(app, ada, alpha)).cookie, '/settings/notifications/devices');
    res = await remove(rows[0]!.id, other.cookie, other.token);
    t.equal(res.statusCode, 404, 'another member’s device: not found');
    const beaJar = await csrfFor(app, (await signIn(app, bea, beta)).cookie, 'http://beta.test/settings/notifications/devices');
    res = await app.inject({ method: 'POST', url: `/settings/notifications/devices/${rows[0]!.id}/remove`, headers: { host: 'beta.test', cookie: beaJar.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: `_csrf=${encodeURIComponent(beaJar.token)}` });
    t.equal(res.statusCode, 404, 'another community: not found');
    for (const id of ['abc', '0', '99999999999', '%00']) {
      res = await remove(id);
      t.ok(res.statusCode >= 400 && res.statusCode < 500, `id ${id}: ${res.statusCode}`);
    }
    res = await remove(rows[0]!.id);
    t.equal(res.statusCode, 303, 'removed: back to the page');
    t.equal(res.headers.location, '/settings/notifications/devices?alert=push-device-removed');
    const after = await app.inject({ url: res.headers.location as string, headers: { cookie: session.cookie, accept: 'text/html' } });
    t.match(after.body, 'The device was removed: it gets no more notifications.', 'the alert');
    t.notMatch(after.body, 'iPhone or iPad app', 'the device is gone from the list');
    t.same((await db.selectFrom('push_tokens').select('token').where('user_id', '=', eve.id).execute()).map((r) => r.token), ['https://fcm.googleapis.com/fcm/send/eve']);
  });
  await t.test('endpoints: in production only a known push service over https:443; checked again before each push', async (t) => {
    const keys = browserKeys();
    const refused = [
      'https://localhost./x',
      'https://localhost/x',
      'https://127.0.0.1/x',
      'https://10.0.0.1/x',
      'https://[::1]/x',
      'https://metadata.internal/x',
      'https://push.example.com/x',
      'https://fcm.googleapis.com.evil.example/x',
      'https://evilfcm.googleapis.com/x',
      'https://fcm.googleapis.com:8443/fcm/send/abc',
      'https://fcm.googleapis.com:80/fcm/send/abc',
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://push.apple.com/x',
      'https://notify.windows.com/x',
      'https://a.notify.windows.com.evil.example/x',
    ];
    for (const endpoint of refused) {
      t.throws(() => checkSubscription({ endpoint, keys }, true), { code: 'Push.InvalidSubscription' }, `production refuses ${endpoint}`);
      t.notOk(endpointAllowed(endpoint, true), `not allowed at send time: ${endpoint}`);
    }
    const accepted = [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://FCM.googleapis.com./fcm/send/abc',
      'https://fcm.googleapis.com:443/fcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://updates-autopush.stage.mozaws.push.services.mozilla.com/wpush/v2/abc',
      'https://web.push.apple.com/QGx',
      'https://wns2-par02p.notify.windows.com/w/?token=abc',
      'https://db5p.notify.windows.com/w/?token=abc',
    ];
    for (const endpoint of accepted) t.ok(checkSubscription({ endpoint, keys }, true), `production accepts ${endpoint}`);
    t.ok(checkSubscription({ endpoint: `${service.origin}/push/dev`, keys }, false), 'outside production a local push service is fine (tests)');
    t.throws(() => checkSubscription({ endpoint: 'https://fcm.googleapis.com/fcm/send/é', keys }, true), 'non-ASCII: refused');

    // A browser subscribed before the rule (a local address): production skips it and deletes it.
    const fay = await createMember(db, alpha, { firstName: 'Fay', lastName: 'Stored' });
    await db.insertInto('notification_preferences').values({ community_id: alpha.id, user_id: fay.id, option: 'introductions', channel: 'email', selected: false }).execute();
    await db.insertInto('push_tokens').values({ community_id: alpha.id, user_id: fay.id, token: `${service.origin}/push/fay-stored`, platform: 'web', keys: JSON.stringify(keys), created_at: clock.now() }).execute();
    await addPushToken(db, { communityId: alpha.id, userId: fay.id }, { token: 'fay-phone' }, clock.now());
    const id = await app.notifications.notify(db, { communityId: alpha.id, userId: fay.id, kind: 'introductions', url: '/members/introductions', message: 'For Fay', createdAt: clock.now() });
    const notification = await db.selectFrom('notifications').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const webBefore = service.received.length;
    await sendPushes(db, app.push, () => clock.now(), { notification, member: { communityId: alpha.id, userId: fay.id, email: 'fay@example.com', firstName: 'Fay' }, community: alpha, choices: {} as never, emailDigest: false }, 'https://alpha.test', true);
    t.equal(service.received.length, webBefore, 'nothing POSTed to the refused endpoint');
    t.same((await tokensOf(db, fay.id)).map((r) => r.token), ['fay-phone'], 'the refused subscription is deleted, the phone kept');
    t.ok(mobile.sent.some((m) => m.token === 'fay-phone' && m.body === 'For Fay'), 'the phone was pushed');
    await app.jobs.drain();
    t.equal(service.received.length, webBefore, 'the job finds nothing more to send there');
  });

  await t.test('at most 10 devices per member and platform: the least recently used is evicted', async (t) => {
    t.equal(DEVICES_MAX, 10);
    const gus = await createMember(db, alpha, { firstName: 'Gus', lastName: 'Many' });
    const me = { communityId: alpha.id, userId: gus.id };
    const at = (i: number) => new Date(Date.UTC(2026, 10, 1, 10, i));
    for (let i = 1; i <= 10; i++) await addPushToken(db, me, { token: `gus-${i}` }, at(i));
    await addPushToken(db, me, { token: 'gus-ios', isIos: true }, at(0));
    await addSubscription(db, me, { endpoint: `${service.origin}/push/gus-browser`, keys: browserKeys() }, at(0), false);
    await addPushToken(db, { communityId: beta.id, userId: gus.id }, { token: 'gus-beta' }, at(0));
    // gus-1 and gus-2 were used lately: the oldest of the never-used ones goes first.
    await db.updateTable('push_tokens').set({ last_used_at: at(30) }).where('token', 'in', ['gus-1', 'gus-2']).execute();
    const fcm = async () => (await tokensOf(db, gus.id)).filter((r) => r.platform === 'fcm' && r.community_id === alpha.id).map((r) => r.token).sort();
    t.equal((await fcm()).length, 10);

    await addPushToken(db, me, { token: 'gus-11' }, at(11));
    let now = await fcm();
    t.equal(now.length, 10, 'still 10 after an 11th');
    t.notOk(now.includes('gus-3'), 'the oldest never-used one is evicted');
    t.ok(['gus-1', 'gus-2', 'gus-11'].every((k) => now.includes(k)), 'the recently used ones and the new one stay');
    await addPushToken(db, me, { token: 'gus-12' }, at(12));
    now = await fcm();
    t.equal(now.length, 10);
    t.notOk(now.includes('gus-4'), 'then the next oldest');
    await addPushToken(db, me, { token: 'gus-12' }, at(13));
    t.same(await fcm(), now, 'adding a token again evicts nothing');
    const rest = (await tokensOf(db, gus.id)).filter((r) => r.platform !== 'fcm' || r.community_id !== alpha.id).map((r) => r.token).sort();
    t.same(rest, [`${service.origin}/push/gus-browser`, 'gus-beta', 'gus-ios'].sort(), 'other platforms and communities untouched');
  });

  await t.test('a token longer than the indexes take is a 400, never a 500; remove takes what add takes', async (t) => {
    const bearer = { authorization: `Bearer ${(await signIn(app, ada, alpha)).token}` };
    t.equal(TOKEN_MAX, 512);
    for (const length of [513, 3000, 4096]) {
      for (const query of [ADD, REMOVE]) {
        const res = await gql(query, { token: 'a'.repeat(length), isIos: true }, bearer);
        t.equal(res.json().errors?.[0]?.extensions?.code, 'Push.InvalidToken', `${length} characters: Push.InvalidToken`);
        t.equal(res.statusCode, 400, `${length} characters: a 400, not a 5xx`);
      }
    }
    const longest = 'b'.repeat(512);
    let res = await gql(ADD, { token: longest }, bearer);
    t.equal(res.json().data?.notificationsPushTokenAdd, true, '512 characters: added');
    t.ok((await tokensOf(db, ada.id)).some((r) => r.token === longest));
    res = await gql(REMOVE, { token: ` ${longest} ` }, bearer);
    t.equal(res.json().data?.notificationsPushTokenRemove, true, '…and removed');
    t.notOk((await tokensOf(db, ada.id)).some((r) => r.token === longest));
  });

  await t.test('signing out deletes the Web Push subscription this session made', async (t) => {
    const hal = await createMember(db, alpha, { firstName: 'Hal', lastName: 'Shared' });
    const post = (url: string, body: unknown, jar: { cookie: string; token: string }) =>
      app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', accept: 'application/json', cookie: jar.cookie, 'x-csrf-token': jar.token }, payload: JSON.stringify(body) });
    const shared = await csrfFor(app, (await signIn(app, hal, alpha)).cookie, '/settings/notifications/devices');
    const own = await csrfFor(app, (await signIn(app, hal, alpha)).cookie, '/settings/notifications/devices');
    const sharedEndpoint = `${service.origin}/push/hal-shared`;
    const ownEndpoint = `${service.origin}/push/hal-own`;
    t.equal((await post('/notifications/push/subscription', { endpoint: sharedEndpoint, keys: browserKeys() }, shared)).statusCode, 201);
    t.equal((await post('/notifications/push/subscription', { endpoint: ownEndpoint, keys: browserKeys() }, own)).statusCode, 201);
    await addPushToken(db, { communityId: alpha.id, userId: hal.id }, { token: 'hal-phone' }, clock.now());
    const stored = await db.selectFrom('push_tokens').select(['token', 'session_id']).where('user_id', '=', hal.id).where('platform', '=', 'web').execute();
    t.ok(stored.every((r) => r.session_id && r.session_id.length > 20), 'each subscription knows its session');

    const out = await app.inject({ method: 'POST', url: '/logout', headers: { cookie: shared.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: `_csrf=${encodeURIComponent(shared.token)}` });
    t.ok(out.statusCode >= 300 && out.statusCode < 400, `signed out: ${out.statusCode}`);
    t.same((await tokensOf(db, hal.id)).map((r) => r.token).sort(), ['hal-phone', ownEndpoint].sort(), 'the shared computer’s subscription is gone; the other browser and the phone stay');

    const rest = await app.inject({ method: 'POST', url: '/rest/logout', headers: { cookie: own.cookie, 'x-csrf-token': own.token, 'content-type': 'application/json' }, payload: '{}' });
    t.ok(rest.statusCode < 400, `REST sign-out: ${rest.statusCode}`);
    t.same((await tokensOf(db, hal.id)).map((r) => r.token), ['hal-phone'], 'signing out through REST too');
  });
});
