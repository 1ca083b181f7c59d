import t from 'tap';
import { SignJWT } from 'jose';
import { fixedClock } from '#src/core/clock.ts';
import { SessionTokens, type AuthClaims } from '#src/features/auth/session-tokens.ts';

const SECRET = 'a-session-secret-of-enough-length-for-hs256';
const claims: AuthClaims = { aud: ['/graphql'], sub: 'u:7', brand: 'alpha', community: '1', location: '/', gate: 'app', sid: 'session-1' };

t.test('a token verified once is still refused after it expires, or before it is valid, or when tampered with', async (t) => {
  const clock = fixedClock('2026-11-26T12:00:00Z');
  const tokens = new SessionTokens(SECRET, '', clock);
  const token = await tokens.sign(claims, new Date('2026-11-26T13:00:00Z'));

  t.same(await tokens.verify(token), claims, 'valid the first time');
  const again = await tokens.verify(token);
  t.same(again, claims, 'and the second');
  again!.aud.push('/graphqlAdmin');
  t.same((await tokens.verify(token))!.aud, ['/graphql'], 'a caller changing its copy changes nothing for the next');

  clock.set('2026-11-26T13:00:00Z');
  t.equal(await tokens.verify(token), null, 'refused at its expiry');
  clock.set('2026-11-26T12:30:00Z');
  t.same(await tokens.verify(token), claims, 'valid again when the clock goes back (as jose decides)');

  const [head, body] = token.split('.');
  t.equal(await tokens.verify(`${head}.${body}.${'A'.repeat(43)}`), null, 'a changed signature is refused');
  t.equal(await new SessionTokens(`${SECRET}-other`, '', clock).verify(token), null, 'another secret refuses it');

  const notYet = await new SignJWT({ sid: 's', brand: 'alpha', community: '1', location: '/', gate: 'app' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('u:7')
    .setAudience(['/graphql'])
    .setNotBefore(Math.floor(new Date('2026-11-26T12:45:00Z').getTime() / 1000))
    .setExpirationTime(Math.floor(new Date('2026-11-26T14:00:00Z').getTime() / 1000))
    .sign(new TextEncoder().encode(SECRET));
  clock.set('2026-11-26T12:50:00Z');
  t.equal((await tokens.verify(notYet))?.sub, 'u:7', 'a token with a start is valid after it');
  clock.set('2026-11-26T12:40:00Z');
  t.equal(await tokens.verify(notYet), null, 'and refused before it, even once verified');
});
