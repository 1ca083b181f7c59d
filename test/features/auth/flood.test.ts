import t from 'tap';
import { passwordHashing } from '#src/core/passwords.ts';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { GOOD_PASSWORD, setPassword } from '#test/helpers/auth.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';

const BUSY = 'We are busy checking other sign-ins. Please try again in a few seconds.';

t.test('a burst of wrong passwords from many addresses: quick, small 429s past the queue, no 5xx, and other pages still answer', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha' });
  const { app } = await startApp(t, db, { env: { RATE_LIMIT_MAX: '100000' } });
  const victim = await createMember(db, alpha);
  await setPassword(db, victim.id);
  const reader = await createMember(db, alpha);
  const { cookie: readerCookie } = await signIn(app, reader, alpha);
  const { token, cookie } = await csrfFor(app);
  // Three times what the gate runs and queues; each guess from its own address, so no sign-in limit refuses it first.
  const burst = 3 * (passwordHashing.concurrency + passwordHashing.queueLimit);

  const guess = (i: number) =>
    app.inject({
      method: 'POST',
      url: i % 2 ? '/rest/login' : '/login/password',
      remoteAddress: `10.20.${i >> 8}.${i & 255}`,
      headers: i % 2 ? { cookie, 'x-csrf-token': token, 'content-type': 'application/json' } : { cookie, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
      payload: i % 2 ? JSON.stringify({ username: victim.email, password: `Wrong-${i}-pw` }) : new URLSearchParams({ _csrf: token, email: victim.email, password: `Wrong-${i}-pw` }).toString(),
    });
  const [answers, page] = await Promise.all([
    Promise.all(Array.from({ length: burst }, (_, i) => guess(i))),
    app.inject({ url: '/', headers: { cookie: readerCookie, accept: 'text/html' } }),
  ]);

  const statuses = answers.map((a) => a.statusCode);
  t.notOk(statuses.some((s) => s >= 500), `no 5xx: ${JSON.stringify(statuses)}`);
  const busy = answers.filter((a) => a.statusCode === 429);
  const checked = answers.filter((a) => a.statusCode === 401);
  t.ok(busy.length > 0, `some guesses refused as busy: ${busy.length}`);
  t.ok(checked.length >= passwordHashing.concurrency + passwordHashing.queueLimit - 1, `the queue was served: ${checked.length} checked`);
  t.equal(busy.length + checked.length, burst, 'every guess is either checked (401) or refused (429)');
  t.same(busy.filter((a) => a.headers['retry-after'] !== '5').length, 0, 'every busy answer says when to retry (Retry-After: 5)');
  t.same(busy.filter((a) => a.body.length >= 1024).map((a) => a.body.length), [], 'every busy answer is small (under 1 KiB), not a page');
  const json = busy.filter((a) => String(a.headers['content-type']).startsWith('application/json'));
  t.ok(json.length > 0 && json.every((a) => a.body === JSON.stringify({ error: { code: 'Busy.PasswordChecks', message: BUSY } })), 'REST: the catalogue code Busy.PasswordChecks');
  const html = busy.filter((a) => String(a.headers['content-type']).startsWith('text/html'));
  t.ok(html.length > 0 && html.every((a) => a.body.includes(BUSY)), 'the form: a small page saying so');
  t.equal(page.statusCode, 200, 'a signed-in page answers during the burst');

  // Refused guesses are not counted against the member: the right password still works after the burst.
  const after = await app.inject({
    method: 'POST',
    url: '/rest/login',
    remoteAddress: '10.20.99.1',
    headers: { cookie, 'x-csrf-token': token, 'content-type': 'application/json' },
    payload: JSON.stringify({ username: victim.email, password: GOOD_PASSWORD }),
  });
  t.equal(after.statusCode, 200, 'the member signs in once the burst is over');
});

t.test('refusals under a flood are cheap: no query, no page shell', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha' });
  const queries = (res: { headers: Record<string, unknown> }) => Number(/dur=(\d+)/.exec(String(res.headers['server-timing']))?.[1]);

  await t.test('a guess on a locked account: the lockout view, without the shell and without a query', async (t) => {
    const { app } = await startApp(t, db, { env: { RATE_LIMIT_MAX: '100000' } });
    const victim = await createMember(db, alpha);
    await setPassword(db, victim.id);
    const { token, cookie } = await csrfFor(app);
    const guess = () =>
      app.inject({
        method: 'POST',
        url: '/login/password',
        remoteAddress: '198.51.100.77',
        headers: { cookie, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: token, email: victim.email, password: 'Wrong-pass-1' }).toString(),
      });
    for (let i = 0; i < 5; i++) await guess();
    const refused = await guess();
    t.equal(refused.statusCode, 429);
    t.match(refused.body, 'Try again in 10 minutes', 'the lockout view');
    t.notMatch(refused.body, 'class="site-header"', 'without the shell');
    t.equal(queries(refused), 0, 'the lock is known: no SQL');
  });

  await t.test('the global rate limit: a small answer, the limiter’s Retry-After, no query', async (t) => {
    const { app } = await startApp(t, db, { env: { RATE_LIMIT_MAX: '2' } });
    const get = () => app.inject({ url: '/', remoteAddress: '198.51.100.78', headers: { accept: 'text/html' } });
    await get();
    await get();
    const refused = await get();
    t.equal(refused.statusCode, 429);
    t.match(refused.body, 'Too many requests. Please wait a moment and try again.');
    t.ok(refused.body.length < 1024, `a small page (${refused.body.length} bytes)`);
    t.ok(Number(refused.headers['retry-after']) > 0, `Retry-After: ${refused.headers['retry-after']}`);
    t.equal(queries(refused), 0, 'no SQL');
  });
});
