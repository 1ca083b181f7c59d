import t from 'tap';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

t.test('health, legacy redirects and the path prefix', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle' });
  const { app } = await startApp(t, db);

  await t.test('the health endpoint checks the database', async (t) => {
    const res = await app.inject({ url: '/health' });
    t.equal(res.statusCode, 200);
    t.same(res.json(), { status: 'ok', database: 'ok' });
    t.same((await app.inject({ url: '/health/live' })).json(), { status: 'ok' });
  });

  await t.test('legacy account paths redirect, keeping the query string and the token', async (t) => {
    const cases: Array<[string, string]> = [
      ['/account/login?redirect=%2Fsettings&x=1', '/login?redirect=%2Fsettings&x=1'],
      ['/account/login', '/login'],
      ['/account/forgot-password', '/password/forgot'],
      ['/account/reset-password?token=abc.DEF-123', '/password/reset?token=abc.DEF-123'],
      ['/account/set-password?token=t%26k', '/password/setup?token=t%26k'],
    ];
    for (const [from, to] of cases) {
      const res = await app.inject({ url: from });
      t.equal(res.statusCode, 301, from);
      t.equal(res.headers.location, to, `${from} -> ${to}`);
    }
  });

  await t.test('legacy area paths send non-admins to /v2 and admins to the admin area', async (t) => {
    const member = await createMember(db, alpha);
    const admin = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'] });
    const m = await signIn(app, member, alpha);
    const a = await signIn(app, admin, alpha, ['ADMIN', 'MEMBER']);
    for (const area of ['forum', 'groups', 'members', 'profile', 'expert-panels', 'offers', 'notifications']) {
      t.equal((await app.inject({ url: `/v1/${area}/123`, headers: { cookie: m.cookie } })).headers.location, '/v2', `${area}: member`);
      t.equal((await app.inject({ url: `/v1/${area}` })).headers.location, '/v2', `${area}: visitor`);
    }
    // Every legacy area has its admin area now (an area not built would send admins to the admin home, decision 0010).
    t.equal((await app.inject({ url: '/v1/groups/7', headers: { cookie: a.cookie } })).headers.location, '/admin/groups', 'groups: the staff groups, now built');
    t.equal((await app.inject({ url: '/v1/notifications', headers: { cookie: a.cookie } })).headers.location, '/admin/messages', 'notifications: the staff messages, now built');
    t.equal((await app.inject({ url: '/v1/offers', headers: { cookie: a.cookie } })).headers.location, '/admin/marketplace', 'offers: the marketplace, now built');
    for (const area of ['forum', 'groups', 'members', 'profile', 'expert-panels', 'offers', 'notifications']) {
      const to = (await app.inject({ url: `/v1/${area}`, headers: { cookie: a.cookie } })).headers.location as string;
      const landed = await app.inject({ url: to, headers: { accept: 'text/html', cookie: a.cookie } });
      t.equal(landed.statusCode, 200, `${area}: the admin lands on ${to}, a page that exists`);
    }
    t.equal((await app.inject({ url: '/v2' })).headers.location, '/');
  });

  await t.test('every path goes through the path prefix', async (t) => {
    const prefixed = await startApp(t, db, { env: { BASE_PATH: '/v2' } });
    const home = await prefixed.app.inject({ url: '/v2', headers: { accept: 'text/html' } });
    t.equal(home.statusCode, 200);
    t.match(home.body, /href="\/v2\/static\/build\/app-[A-Z0-9]+\.css"/);
    t.match(home.body, 'href="/v2/login"');
    t.match(home.body, 'class="brand" href="/v2"');
    const legacy = await prefixed.app.inject({ url: '/v2/account/login?x=1' });
    t.equal(legacy.headers.location, '/v2/login?x=1');
    const css = await prefixed.app.inject({ url: '/v2/static/css/app.css' });
    t.equal(css.statusCode, 200);
    t.equal((await prefixed.app.inject({ url: '/v2/health' })).statusCode, 200);
    const missing = await prefixed.app.inject({ url: '/v2/nothing-here', headers: { accept: 'text/html' } });
    t.equal(missing.statusCode, 404);
    t.match(missing.body, 'href="/v2">Back to Home</a>');
  });

  await t.test('static files: built bundles are cached forever, others for an hour', async (t) => {
    const manifest = (await app.inject({ url: '/static/build/manifest.json' })).json();
    const file = manifest.islands.NotificationBell.file;
    const res = await app.inject({ url: `/static/build/${file}` });
    t.equal(res.statusCode, 200);
    t.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    t.equal((await app.inject({ url: '/static/css/app.css' })).headers['cache-control'], 'public, max-age=3600');
    const missing = await app.inject({ url: '/static/nope.css', headers: { accept: 'text/html' } });
    t.equal(missing.statusCode, 404);
  });
});
