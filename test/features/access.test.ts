import t from 'tap';
import { buildApp } from '#src/app.ts';
import { setupDatabase, startApp, testConfig } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';

t.test('every route declares its access, and the Guardian enforces it', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha' });
  const { app } = await startApp(t, db);

  await t.test('the app refuses to start when a route declares no access', async (t) => {
    const bad = await buildApp({ config: testConfig({ DEFAULT_COMMUNITY: 'alpha' }), db });
    t.teardown(() => bad.close());
    t.throws(() => bad.get('/undeclared', async () => 'hi'), /declares no access/);
    const alsoBad = await buildApp({ config: testConfig({ DEFAULT_COMMUNITY: 'alpha' }), db });
    t.teardown(() => alsoBad.close());
    t.throws(() => alsoBad.get('/typo', { config: { access: 'everyone' as never } }, async () => 'hi'), /unknown access/);
  });

  await t.test('member and admin routes', async (t) => {
    const guarded = await buildApp({ config: testConfig({ DEFAULT_COMMUNITY: 'alpha' }), db });
    t.teardown(() => guarded.close());
    guarded.get('/member-page', { config: { access: 'member' } }, async () => 'member page');
    guarded.get('/admin/area', { config: { access: 'admin' } }, async () => 'admin page');
    guarded.get('/onboarding-allowed', { config: { access: 'member', allowDuringOnboarding: true } }, async () => 'onboarding');
    guarded.post('/rest/thing', { config: { access: 'member' } }, async () => ({ ok: true }));
    await guarded.ready();
    const html = { accept: 'text/html' };
    const member = await createMember(db, alpha);
    const admin = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'] });
    const onboarding = await createMember(db, alpha, { gate: 'onboarding' });
    const m = await signIn(guarded, member, alpha);
    const a = await signIn(guarded, admin, alpha, ['ADMIN', 'MEMBER']);
    const o = await signIn(guarded, onboarding, alpha, ['MEMBER'], 'onboarding');

    await t.test('a visitor is sent to sign-in with a way back', async (t) => {
      const res = await guarded.inject({ url: '/member-page?section=team', headers: html });
      t.equal(res.statusCode, 303);
      t.equal(res.headers.location, '/login?redirect=%2Fmember-page%3Fsection%3Dteam');
    });

    await t.test('a visitor calling an API gets 401 with the catalogue code, and no body is read', async (t) => {
      const res = await guarded.inject({ method: 'POST', url: '/rest/thing', payload: { a: 1 } });
      t.equal(res.statusCode, 401);
      t.equal(res.json().error.code, 'NotAuthenticated');
    });

    await t.test('a member reaches member pages', async (t) => {
      const res = await guarded.inject({ url: '/member-page', headers: { ...html, cookie: m.cookie } });
      t.equal(res.statusCode, 200);
      t.equal(res.body, 'member page');
    });

    await t.test('visitors and members are sent from the admin area to the app sign-in with a redirect back; an API caller is refused', async (t) => {
      const visitor = await guarded.inject({ url: '/admin/area', headers: html });
      t.equal(visitor.statusCode, 303);
      t.equal(visitor.headers.location, '/login?redirect=%2Fadmin%2Farea');
      const res = await guarded.inject({ url: '/admin/area', headers: { ...html, cookie: m.cookie } });
      t.equal(res.statusCode, 303, 'spec section 2: non-admins go to the app login');
      t.equal(res.headers.location, '/login?redirect=%2Fadmin%2Farea');
      const login = await guarded.inject({ url: res.headers.location, headers: { ...html, cookie: m.cookie } });
      t.equal(login.statusCode, 200, 'no redirect loop through the sign-in page');
      t.match(login.body, 'Sign in with an admin account to open it.');
      const api = await guarded.inject({ url: '/admin/area', headers: { accept: 'application/json', cookie: m.cookie } });
      t.equal(api.statusCode, 403);
      t.equal(api.json().error.code, 'Forbidden');
    });

    await t.test('an admin reaches the admin area', async (t) => {
      const res = await guarded.inject({ url: '/admin/area', headers: { ...html, cookie: a.cookie } });
      t.equal(res.body, 'admin page');
    });

    await t.test('a member whose gate is onboarding is sent to onboarding', async (t) => {
      const res = await guarded.inject({ url: '/member-page', headers: { ...html, cookie: o.cookie } });
      t.equal(res.statusCode, 303);
      t.equal(res.headers.location, '/get-started');
      // A route that declares allowDuringOnboarding (as /get-started's do) lets them through.
      const allowed = await guarded.inject({ url: '/onboarding-allowed', headers: { ...html, cookie: o.cookie } });
      t.equal(allowed.body, 'onboarding');
      // From every page, public ones included (the guardian holds the gate, so no page can forget it).
      for (const url of ['/', '/expert-panels/roundups/any-roundup', '/members', '/settings', '/articles']) {
        const page = await guarded.inject({ url, headers: { ...html, cookie: o.cookie } });
        t.equal(page.statusCode, 303, `${url} sends them on`);
        t.equal(page.headers.location, '/get-started', `${url} goes to onboarding`);
      }
      t.equal((await guarded.inject({ url: '/get-started', headers: { ...html, cookie: o.cookie } })).headers.location, undefined, 'onboarding itself opens');
      t.equal((await guarded.inject({ url: '/password/forgot', headers: { ...html, cookie: o.cookie } })).statusCode, 200, 'password pages stay open');
      t.equal((await guarded.inject({ url: '/', headers: { ...html, cookie: m.cookie } })).statusCode, 200, 'a member past onboarding sees the home page');
    });
  });

  await t.test('sign-out revokes the session on the server, clears the cookies and goes to sign-in', async (t) => {
    const member = await createMember(db, alpha);
    const session = await signIn(app, member, alpha);
    const { token, cookie } = await csrfFor(app, session.cookie);
    const res = await app.inject({ method: 'POST', url: '/logout', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: `_csrf=${encodeURIComponent(token)}` });
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, '/login');
    const cleared = res.cookies.filter((c) => c.name === 'auth' || c.name === 'community');
    t.equal(cleared.length, 2);
    t.ok(cleared.every((c) => c.value === '' && c.expires! <= new Date()), 'both cookies expire');
    const after = await app.inject({ url: '/', headers: { accept: 'text/html', cookie: session.cookie } });
    t.match(after.body, '>Sign In</a>', 'the old cookie no longer signs anyone in');
  });

  await t.test('sign-out without the CSRF token is refused and the session lives on', async (t) => {
    const member = await createMember(db, alpha);
    const session = await signIn(app, member, alpha);
    const res = await app.inject({ method: 'POST', url: '/logout', headers: { cookie: session.cookie, accept: 'text/html' } });
    t.equal(res.statusCode, 403);
    t.match(res.body, 'This form has expired. Please reload the page and try again.');
    const after = await app.inject({ url: '/', headers: { accept: 'text/html', cookie: session.cookie } });
    t.match(after.body, 'Sign Out');
  });

  await t.test('a GET sign-out from another site is ignored; typed in or same-site it signs out', async (t) => {
    const member = await createMember(db, alpha);
    const session = await signIn(app, member, alpha);
    const cross = await app.inject({ url: '/logout', headers: { cookie: session.cookie, 'sec-fetch-site': 'cross-site' } });
    t.equal(cross.headers.location, '/');
    t.match((await app.inject({ url: '/', headers: { accept: 'text/html', cookie: session.cookie } })).body, 'Sign Out');
    const same = await app.inject({ url: '/account/logout', headers: { cookie: session.cookie, 'sec-fetch-site': 'same-origin' } });
    t.equal(same.headers.location, '/login');
    t.match((await app.inject({ url: '/', headers: { accept: 'text/html', cookie: session.cookie } })).body, '>Sign In</a>');
  });

});

t.test('the admin area front page is for admins only', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', name: 'Alpha Council' });
  const { app } = await startApp(t, db);
  const member = await createMember(db, alpha);
  const admin = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'] });
  const visitor = await app.inject({ url: '/admin', headers: { accept: 'text/html' } });
  t.equal(visitor.headers.location, '/login?redirect=%2Fadmin');
  const asMember = await app.inject({ url: '/admin', headers: { accept: 'text/html', cookie: (await signIn(app, member, alpha)).cookie } });
  t.equal(asMember.statusCode, 303);
  t.equal(asMember.headers.location, '/login?redirect=%2Fadmin');
  const asAdmin = await app.inject({ url: '/admin', headers: { accept: 'text/html', cookie: (await signIn(app, admin, alpha, ['ADMIN', 'MEMBER'])).cookie } });
  t.equal(asAdmin.statusCode, 200);
  t.match(asAdmin.body, 'Admin area: Alpha Council');
});
