import t from 'tap';
import { choicesFor } from '#src/features/notifications/queries.ts';
import { mailContext, unsubscribePath } from '#src/features/notifications/email-delivery.ts';
import { UnsubscribeTokens } from '#src/features/notifications/unsubscribe.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

t.test('unsubscribe links', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha', name: 'Alpha Council' });
  const beta = await createCommunity(db, { code: 'beta', name: 'Beta Guild', hosts: ['beta.test'] });
  const { app } = await startApp(t, db, { clock });
  const ada = await createMember(db, alpha, { firstName: 'Ada' });
  const bob = await createMember(db, alpha, { firstName: 'Bob' });
  const tokens = mailContext(app).tokens;
  const adaRef = { communityId: alpha.id, userId: ada.id };
  const linkFor = async (claims: { communityId: number; userId: number; kind: string }) => unsubscribePath(await tokens.sign(claims));

  await t.test('the link’s page says what will stop and offers the button; nothing changes on GET', async (t) => {
    const url = await linkFor({ ...adaRef, kind: 'article_feedback' });
    const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    t.equal(res.statusCode, 200);
    t.match(res.body, 'Stop email about “Editor feedback” from Alpha Council?');
    t.match(res.body, /<form action="\/notifications\/unsubscribe\?token=[\w.-]+" method="post">/);
    t.match(res.body, '>Unsubscribe</button>');
    t.same(await choicesFor(db, adaRef, 'article_feedback'), { email: true, web: true, push: true }, 'a GET (a mail scanner) changes nothing');
  });

  await t.test('one-click POST without cookies or CSRF token: email off for that kind only, "You’re unsubscribed"', async (t) => {
    const url = await linkFor({ ...adaRef, kind: 'article_feedback' });
    const res = await app.inject({ method: 'POST', url, headers: FORM, payload: 'List-Unsubscribe=One-Click' });
    t.equal(res.statusCode, 200);
    t.match(res.body, 'You’re unsubscribed');
    t.match(res.body, 'We will no longer email you about “Editor feedback”.');
    t.match(res.body, 'href="/settings/notifications"');
    t.same(await choicesFor(db, adaRef, 'article_feedback'), { email: false, web: true, push: true });
    t.same(await choicesFor(db, adaRef, 'article_progress'), { email: true, web: true, push: true }, 'other kinds keep their email');
    t.same(await choicesFor(db, { communityId: alpha.id, userId: bob.id }, 'article_feedback'), { email: true, web: true, push: true }, 'other members too');
    const again = await app.inject({ method: 'POST', url, headers: FORM, payload: 'List-Unsubscribe=One-Click' });
    t.equal(again.statusCode, 200, 'a second click is fine');
    const multipart = await app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n',
    });
    t.equal(multipart.statusCode, 200, 'RFC 8058 allows a multipart body too');
  });

  await t.test('the page’s own button works for a signed-in browser too', async (t) => {
    const { cookie } = await signIn(app, bob, alpha);
    const url = await linkFor({ communityId: alpha.id, userId: bob.id, kind: 'introductions' });
    const res = await app.inject({ method: 'POST', url, headers: { ...FORM, cookie }, payload: 'List-Unsubscribe=One-Click' });
    t.equal(res.statusCode, 200);
    t.same(await choicesFor(db, { communityId: alpha.id, userId: bob.id }, 'introductions'), { email: false, web: true, push: true });
  });

  await t.test('the digest’s link stops every kind’s email', async (t) => {
    const url = await linkFor({ communityId: alpha.id, userId: bob.id, kind: '*' });
    let res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    t.match(res.body, 'Stop all notification email from Alpha Council?');
    res = await app.inject({ method: 'POST', url, headers: FORM, payload: 'List-Unsubscribe=One-Click' });
    t.match(res.body, 'We will no longer send you notification email.');
    for (const kind of ['article_progress', 'article_feedback', 'introductions', 'account_security']) {
      t.equal((await choicesFor(db, { communityId: alpha.id, userId: bob.id }, kind)).email, false, `${kind}: email off`);
    }
  });

  await t.test('forged, tampered, foreign-key, other-purpose and hostile tokens: a 4xx page, nothing changes', async (t) => {
    const good = await tokens.sign({ ...adaRef, kind: 'article_progress' });
    const [h, p, s] = good.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: String(bob.id) })).toString('base64url')}.${s}`;
    const otherKey = await new UnsubscribeTokens('another-secret-0123456789-0123456789').sign({ ...adaRef, kind: 'article_progress' });
    const unknownKind = await tokens.sign({ ...adaRef, kind: 'nope' });
    const noMember = await tokens.sign({ communityId: beta.id, userId: ada.id, kind: 'article_progress' });
    const bad = [tampered, otherKey, unknownKind, noMember, '', 'abc', 'a.b.c', '%00', `${good}\u0000`, 'x'.repeat(5000), `${h}.${p}.`];
    for (const token of bad) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await app.inject({
          method,
          url: `/notifications/unsubscribe?token=${encodeURIComponent(token)}`,
          headers: { accept: 'text/html', ...(method === 'POST' ? FORM : {}) },
          payload: method === 'POST' ? 'List-Unsubscribe=One-Click' : undefined,
        });
        t.equal(res.statusCode, 400, `${method} ${token.slice(0, 20)}…: 400`);
        if (method === 'GET') t.match(res.body, 'This unsubscribe link is not valid.');
      }
    }
    const none = await app.inject({ method: 'POST', url: '/notifications/unsubscribe', headers: FORM, payload: 'List-Unsubscribe=One-Click' });
    t.equal(none.statusCode, 400, 'no token at all: refused');
    const twice = await app.inject({ method: 'POST', url: `/notifications/unsubscribe?token=${good}&token=${good}`, headers: FORM, payload: '' });
    t.equal(twice.statusCode, 400, 'the token sent twice: refused');
    t.same(await choicesFor(db, adaRef, 'article_progress'), { email: true, web: true, push: true }, 'nothing changed');
    t.same(await choicesFor(db, { communityId: alpha.id, userId: bob.id }, 'article_progress'), { email: false, web: true, push: true }, 'Bob only as his own link left him');
  });

  await t.test('the exemption is narrow: other POST routes still need the CSRF token', async (t) => {
    const { cookie } = await signIn(app, ada, alpha);
    const res = await app.inject({ method: 'POST', url: '/settings/notifications', headers: { ...FORM, cookie }, payload: 'digest=daily' });
    t.equal(res.statusCode, 403);
  });
  await t.test('a link acts on its own community, whatever host it is opened on (mail links use the public address)', async (t) => {
    const bea = await createMember(db, beta, { firstName: 'Bea' });
    const beaRef = { communityId: beta.id, userId: bea.id };
    const url = await linkFor({ ...beaRef, kind: 'account_security' });
    const res = await app.inject({ method: 'POST', url, headers: { ...FORM }, payload: 'List-Unsubscribe=One-Click' });
    t.equal(res.statusCode, 200, 'a Beta link opened on the default (Alpha) address works');
    t.equal((await choicesFor(db, beaRef, 'account_security')).email, false, 'Bea’s Beta choice changed');
    t.equal((await choicesFor(db, adaRef, 'account_security')).email, true, 'nothing of Alpha changed');
  });
});
