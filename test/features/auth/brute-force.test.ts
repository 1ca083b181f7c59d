import t from 'tap';
import { AppError } from '#src/core/errors.ts';
import { sendOneTimeCode, verifyOneTimeCode } from '#src/features/auth/codes.ts';
import { loginWithPassword } from '#src/features/auth/service.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { codeFrom, ctxFor, GOOD_PASSWORD, setPassword } from '#test/helpers/auth.ts';
import { createCommunity, createMember, csrfFor } from '#test/helpers/factories.ts';

const outcome = (p: Promise<unknown>) => p.then(() => 'ok', (e) => (e instanceof AppError ? String(e.code) : 'crash'));
const tally = (xs: string[]) => xs.reduce<Record<string, number>>((acc, x) => ({ ...acc, [x]: (acc[x] ?? 0) + 1 }), {});

t.test('brute force: concurrent guesses cannot slip past the limits', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const { app } = await startApp(t, db, { clock });

  await t.test('40 simultaneous wrong passwords from one address, then more: at most 5 are ever checked', async (t) => {
    const victim = await createMember(db, alpha);
    await setPassword(db, victim.id);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => outcome(loginWithPassword(ctxFor(app, alpha, '198.51.100.1'), { email: victim.email, password: `Guess-${i}-x` }))),
    );
    // Then the attacker goes on, one guess at a time.
    for (let i = 0; i < 10; i++) results.push(await outcome(loginWithPassword(ctxFor(app, alpha, '198.51.100.1'), { email: victim.email, password: `Next-${i}-x` })));
    const counts = tally(results);
    t.notOk(counts.ok, 'nobody got in');
    t.ok((counts['NotAuthorized.Password'] ?? 0) <= 5, `passwords checked in all: ${counts['NotAuthorized.Password'] ?? 0}`);
    t.equal((counts['NotAuthorized.Password'] ?? 0) + (counts['BadRequest.MaxAttempts'] ?? 0) + (counts['BadRequest.TooManyRequests'] ?? 0), 50, JSON.stringify(counts));
    t.equal(await outcome(loginWithPassword(ctxFor(app, alpha, '198.51.100.1'), { email: victim.email, password: GOOD_PASSWORD })), 'BadRequest.MaxAttempts', 'locked for that address, even for the right password');
    t.ok((await loginWithPassword(ctxFor(app, alpha, '192.0.2.77'), { email: victim.email, password: GOOD_PASSWORD })).authToken, 'the member, elsewhere, signs in');
  });

  await t.test('150 guesses from 150 addresses at once: at most 100 failures an hour for the account', async (t) => {
    const victim = await createMember(db, alpha);
    await setPassword(db, victim.id);
    const results = await Promise.all(
      Array.from({ length: 150 }, (_, i) => outcome(loginWithPassword(ctxFor(app, alpha, `10.9.${Math.floor(i / 200)}.${i % 200}`), { email: victim.email, password: `Guess-${i}-x` }))),
    );
    const counts = tally(results);
    t.notOk(counts.ok);
    t.ok((counts['NotAuthorized.Password'] ?? 0) <= 100, `checked: ${counts['NotAuthorized.Password'] ?? 0}`);
    t.ok((counts['BadRequest.TooManyRequests'] ?? 0) >= 50, JSON.stringify(counts));
  });

  await t.test('guessing a code: 100 000 possibilities, 5 tries per address', async (t) => {
    const who = await createMember(db, alpha);
    await sendOneTimeCode(ctxFor(app, alpha), { email: who.email });
    const right = await codeFrom(app, who.email);
    const guesses = Array.from({ length: 30 }, (_, i) => String((Number(right) + 1 + i) % 100000).padStart(5, '0'));
    const results = await Promise.all(guesses.map((code) => outcome(verifyOneTimeCode(ctxFor(app, alpha, '198.51.100.2'), { email: who.email, code }))));
    for (const code of guesses.slice(0, 10)) results.push(await outcome(verifyOneTimeCode(ctxFor(app, alpha, '198.51.100.2'), { email: who.email, code })));
    const counts = tally(results);
    t.ok((counts['BadRequest.InvalidCode'] ?? 0) <= 5, JSON.stringify(counts));
    t.equal(await outcome(verifyOneTimeCode(ctxFor(app, alpha, '198.51.100.2'), { email: who.email, code: right })), 'BadRequest.MaxAttempts');
  });

  await t.test('over HTTP the flood meets 429 and the lockout view', async (t) => {
    const victim = await createMember(db, alpha);
    await setPassword(db, victim.id);
    const { token, cookie } = await csrfFor(app);
    const statuses = [];
    for (let i = 0; i < 8; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/login/password',
        remoteAddress: '198.51.100.3',
        headers: { cookie, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: token, email: victim.email, password: `Wrong-${i}-pw` }).toString(),
      });
      statuses.push(res.statusCode);
      if (i === 7) t.match(res.body, 'Try again in 10 minutes');
    }
    t.same(statuses, [401, 401, 401, 401, 429, 429, 429, 429]);
  });
});
