import t from 'tap';
import { buildApp } from '#src/app.ts';
import { AppError } from '#src/core/errors.ts';
import { setupDatabase, startApp, testConfig } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';

t.test('security baseline and error rendering', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', concierge_email: 'help@alpha.example.com', concierge_phone: '+1 (555) 010-2000' });
  const { app } = await startApp(t, db);

  await t.test('pages carry a nonce-based CSP and the usual security headers', async (t) => {
    const member = await createMember(db, alpha);
    const { cookie } = await signIn(app, member, alpha);
    const res = await app.inject({ url: '/', headers: { accept: 'text/html', cookie } });
    const csp = String(res.headers['content-security-policy']);
    const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(csp)?.[1];
    t.ok(nonce, 'script-src has a nonce');
    t.match(res.body, `<script type="module" nonce="${nonce}"`, 'the island script carries it');
    t.notMatch(csp, 'unsafe-inline');
    t.match(csp, "frame-ancestors 'none'");
    t.match(csp, "object-src 'none'");
    t.equal(res.headers['x-content-type-options'], 'nosniff');
    t.equal(res.headers['referrer-policy'], 'strict-origin-when-cross-origin');
    t.equal(res.headers['cache-control'], 'no-store');
    const again = await app.inject({ url: '/', headers: { accept: 'text/html', cookie } });
    t.not(/nonce-([^']+)/.exec(String(again.headers['content-security-policy']))?.[1], nonce, 'a new nonce every response');
  });

  await t.test('the CSRF cookie is HttpOnly and SameSite, and Secure in production', async (t) => {
    const res = await app.inject({ url: '/', headers: { accept: 'text/html' } });
    const c = res.cookies.find((x) => x.name === '_csrf')!;
    t.equal(c.httpOnly, true);
    t.equal(c.sameSite, 'Lax');
    t.notOk(c.secure);
    const prod = await startApp(t, db, { env: { NODE_ENV: 'production', PAYMENT_PROCESSOR: 'sandbox', COOKIE_SECRET: 'a-production-secret-of-sufficient-length-42', DEFAULT_COMMUNITY: 'alpha' } });
    const p = await prod.app.inject({ url: '/', headers: { accept: 'text/html' } });
    t.equal(p.cookies.find((x) => x.name === '_csrf')!.secure, true);
    t.match(String(p.headers['strict-transport-security']), 'max-age=31536000');
    t.notOk(p.headers['server-timing'], 'no query counts in production');
  });

  await t.test('every answer but the public static files is Cache-Control no-store, unless its route says otherwise', async (t) => {
    const api = await app.inject({ method: 'POST', url: '/rest/login', headers: { 'content-type': 'application/json' }, payload: '{}' });
    t.equal(api.headers['cache-control'], 'no-store', 'a REST error');
    const missing = await app.inject({ url: '/rest/nothing-here', headers: { accept: 'application/json' } });
    t.equal(missing.statusCode, 404);
    t.equal(missing.headers['cache-control'], 'no-store', 'a 404');
    const css = await app.inject({ url: '/static/css/app.css' });
    t.equal(css.statusCode, 200);
    t.equal(css.headers['cache-control'], 'public, max-age=3600', 'a static file keeps its own');
    const worker = await app.inject({ url: '/sw.js' });
    t.equal(worker.headers['cache-control'], 'no-cache', 'a route that sets its own keeps it');
  });

  await t.test('a forged or missing CSRF token is refused on a form POST', async (t) => {
    const member = await createMember(db, alpha);
    const session = await signIn(app, member, alpha);
    const { cookie } = await csrfFor(app, session.cookie);
    const res = await app.inject({
      method: 'POST',
      url: '/logout',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      payload: '_csrf=forged-token',
    });
    t.equal(res.statusCode, 403);
    const other = await csrfFor(app); // a token minted for another browser's secret
    const mixed = await app.inject({
      method: 'POST',
      url: '/logout',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${encodeURIComponent(other.token)}`,
    });
    t.equal(mixed.statusCode, 403, 'a token is bound to its own secret cookie');
  });

  await t.test('errors: 5xx details never reach the user; the notice offers a retry and the concierge', async (t) => {
    const crashing = await buildApp({ config: testConfig({ DEFAULT_COMMUNITY: 'alpha' }), db });
    t.teardown(() => crashing.close());
    crashing.get('/boom', { config: { access: 'public' } }, async () => {
      throw new Error('secret stack detail: password=hunter2');
    });
    crashing.get('/rest/boom', { config: { access: 'public' } }, async () => {
      throw new Error('secret stack detail');
    });
    crashing.get('/refused', { config: { access: 'public' } }, async () => {
      throw new AppError('NotAuthorized.Password');
    });
    await crashing.ready();
    const page = await crashing.inject({ url: '/boom?x=1', headers: { accept: 'text/html' } });
    t.equal(page.statusCode, 500);
    t.match(page.body, '<h1>Something went wrong</h1>');
    t.match(page.body, 'Something went wrong. Please try again.');
    t.match(page.body, 'href="/boom?x=1">Try again</a>');
    t.match(page.body, 'mailto:help@alpha.example.com');
    t.match(page.body, 'tel:+15550102000');
    t.match(page.body, '<a href="/contact" data-dialog="contact-dialog" aria-haspopup="dialog">Contact us</a>', 'and the Contact us page');
    t.notMatch(page.body, 'hunter2');
    const fragment = await crashing.inject({ url: '/boom', headers: { 'hx-request': 'true' } });
    t.equal(fragment.statusCode, 500);
    t.notMatch(fragment.body, '<html', 'htmx gets a fragment');
    t.match(fragment.body, 'Something went wrong');
    const json = await crashing.inject({ url: '/rest/boom' });
    t.same(json.json(), { error: { code: 'UnknownError', message: 'Something went wrong. Please try again.' } });
    const refused = await crashing.inject({ url: '/refused', headers: { accept: 'application/json' } });
    t.equal(refused.statusCode, 401);
    t.same(refused.json(), { error: { code: 'NotAuthorized.Password', message: 'Password is incorrect.' } });
  });

  await t.test('a global rate limit, and stricter per-route limits', async (t) => {
    const limited = await buildApp({ config: testConfig({ DEFAULT_COMMUNITY: 'alpha', RATE_LIMIT_MAX: '5' }), db });
    t.teardown(() => limited.close());
    limited.get('/strict', { config: { access: 'public', rateLimit: { max: 2, timeWindow: '1 minute' } } }, async () => 'ok');
    await limited.ready();
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await limited.inject({ url: '/strict' })).statusCode);
    t.same(codes, [200, 200, 429], 'the route allows 2 a minute');
    // A page brings its stylesheet, scripts and images: a company's members behind one address load
    // many. None of them uses up the page limit (nor is refused).
    const assets = [];
    for (let i = 0; i < 12; i++) assets.push((await limited.inject({ url: '/static/css/app.css' })).statusCode);
    for (let i = 0; i < 12; i++) assets.push((await limited.inject({ url: '/sw.js' })).statusCode);
    for (let i = 0; i < 12; i++) assets.push((await limited.inject({ url: '/avatars/aaaaaaaaaaaaaaaa/64.webp' })).statusCode);
    t.notOk(assets.includes(429), 'static files, the service worker and avatars are never refused for the page limit');
    t.equal(assets.filter((c) => c === 200).length, 24, 'the static files are served');
    const pages = [];
    for (let i = 0; i < 6; i++) pages.push((await limited.inject({ url: '/', headers: { accept: 'text/html' } })).statusCode);
    t.same(pages, [200, 200, 200, 200, 200, 429], 'the app allows 5 a minute');
    const notice = await limited.inject({ url: '/', headers: { accept: 'text/html' } });
    t.match(notice.body, '<h1>Something went wrong</h1>', 'the small notice of a refusal under load');
    t.match(notice.body, '>Try again</a>');
    t.match(notice.body, 'mailto:help@alpha.example.com', 'offers the concierge too');
    t.match(notice.body, '<a href="/contact">Contact us</a>');
    const res = await limited.inject({ url: '/', headers: { accept: 'application/json' } });
    t.equal(res.json().error.code, 'RateLimited');
  });
});
