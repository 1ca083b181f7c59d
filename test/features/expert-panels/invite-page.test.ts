import t from 'tap';
import { invitationExpiry, invitationPath } from '#src/features/expert-panels/invite/links.ts';
import { csrfFor, signIn, type TestUser } from '#test/helpers/factories.ts';
import { inviteWorld } from './invite-helpers.ts';

const html = { accept: 'text/html' };
const form = 'application/x-www-form-urlencoded';
const textOf = (body: string) => body.replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/\s+/g, ' ');
const fieldsOf = (path: string) => Object.fromEntries(new URL(path, 'http://x').searchParams) as Record<string, string>;

t.test('the invite page, with JavaScript off', async (t) => {
  const w = await inviteWorld(t);
  const { app, db, clock, alpha, secret } = w;
  const ada = await w.member(alpha, 'Ada', 'Lovelace');
  const bob = await w.member(alpha, 'Bob', 'Builder');
  const pricing = await w.panel(alpha, 'Pricing', { min: 3, max: 20 });
  const deadline = new Date('2026-12-05T17:00:00Z');
  const b = await w.batch(alpha, pricing, { deadline, questions: ['Raise prices?', 'Annual plans?', 'Free trials?'], members: [ada, bob] });
  const linkFor = (user: TestUser, ids = b.questionIds, expiresAt = invitationExpiry(clock.now()), communityId = alpha.id) =>
    invitationPath(secret, { communityId, userId: user.id, questionIds: ids, expiresAt });
  const expiredFor = (user: TestUser, ids = b.questionIds) => linkFor(user, ids, new Date(clock.now().getTime() - 1000));

  /** A visitor's GET of a page (no cookies at all). */
  const visit = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers: { ...html, ...headers } });
  /** A POST of the page's form: the link's fields, the question, the action; with the page's CSRF cookie and token. */
  async function answer(path: string, questionId: number, fields: Record<string, string>, session = '') {
    const jar = await csrfFor(app, session, path);
    const payload = new URLSearchParams({ _csrf: jar.token, ...fieldsOf(path), questionId: String(questionId), ...fields });
    return app.inject({ method: 'POST', url: '/expert-panels/invite', headers: { ...html, cookie: jar.cookie, 'content-type': form }, payload: payload.toString() });
  }

  await t.test('signed out, a valid link shows the member’s open questions with their brief, guidelines and an answer form', async (t) => {
    const res = await visit(linkFor(ada));
    t.equal(res.statusCode, 200, res.body.slice(0, 300));
    const text = textOf(res.body);
    t.match(text, 'Questions for you');
    for (const title of ['Raise prices?', 'Annual plans?', 'Free trials?']) t.match(text, title);
    t.match(text, 'Panel: Pricing');
    t.match(text, 'Answer by Dec 5, 2026');
    t.match(text, 'Brief of Raise prices?');
    t.match(text, 'Guidelines of Raise prices?');
    t.match(text, 'without signing in until Dec 5, 2026', 'until when the link works (14 days)');
    t.match(res.body, /<textarea id="answer-\d+" name="body"/);
    t.match(res.body, /name="_csrf" value="[^"]+"/, 'the forms carry the CSRF token');
    t.match(res.body, new RegExp(`name="m" value="${ada.id}"`), 'and the link’s fields');
    t.match(text, 'Sign in to see all your expert-panel questions');
  });

  await t.test('the spec’s invite errors', async (t) => {
    const missing = await visit('/expert-panels/invite');
    t.equal(missing.statusCode, 400);
    t.match(textOf(missing.body), 'missing the questions it should show (required argument ids)');
    const missing2 = await visit('/expert-panels/invite?ids=&m=1&exp=1&sig=x');
    t.equal(missing2.statusCode, 400);
    t.match(textOf(missing2.body), 'required argument ids');

    const f = fieldsOf(linkFor(ada));
    const tampered = await visit(`/expert-panels/invite?ids=${f.ids}&m=${bob.id}&exp=${f.exp}&sig=${f.sig}`);
    t.equal(tampered.statusCode, 400, 'another member in a member’s link');
    t.match(textOf(tampered.body), 'We could not load the questions of this invitation');
    t.match(tampered.body, /href="\/login\?redirect=%2Fexpert-panels"/, 'signing in leads to the member’s own questions');

    const expired = await visit(expiredFor(ada));
    t.equal(expired.statusCode, 400);
    t.match(textOf(expired.body), 'This invitation link has expired. Sign in to answer your questions.');
    t.match(expired.body, /href="\/login\?redirect=%2Fexpert-panels%2Finvite%3Fids%3D/, 'signing in comes back to the invitation');

    const bobCookie = (await signIn(app, bob, alpha)).cookie;
    const other = await visit(linkFor(ada), { cookie: bobCookie });
    t.equal(other.statusCode, 400, 'another member signed in');
    t.match(textOf(other.body), 'sent to another member than the one signed in');
    t.notMatch(textOf(other.body), 'Raise prices?', 'shows none of the questions');

    const elsewhere = await visit(linkFor(ada), { host: 'beta.test' });
    t.equal(elsewhere.statusCode, 400, 'the link on another community’s address');
    t.match(textOf(elsewhere.body), 'We could not load the questions of this invitation');

    const cy = await w.member(alpha, 'Cy', 'Nobody');
    const none = await visit(linkFor(cy));
    t.equal(none.statusCode, 404, 'nothing was sent to this member');
    t.match(textOf(none.body), 'No unanswered questions found');
  });

  await t.test('signed out, the member answers with the valid link: sent, in review, the page goes on with the rest', async (t) => {
    const path = linkFor(ada);
    const res = await answer(path, b.questionIds[0]!, { body: 'We raised prices by ten percent last spring.\n\n- churn held\n- **margins** grew', action: 'submit' });
    t.equal(res.statusCode, 303, res.body.slice(0, 400));
    t.match(String(res.headers.location), /^\/expert-panels\/invite\?ids=.*&notice=submitted$/);
    const row = await w.answer(b.questionIds[0]!, ada.id);
    t.equal(row.status, 'submitted');
    t.match(row.body_html, '<p>We raised prices by ten percent last spring.</p><ul><li>churn held</li><li><strong>margins</strong> grew</li></ul>');
    t.equal(row.word_count, 12);
    const revisions = await db.selectFrom('ep_answer_revisions').select(['editor_id', 'body_html']).where('answer_id', '=', row.id).execute();
    t.same(revisions.map((r) => r.editor_id), [null], 'the member’s own revision');

    const after = await visit(String(res.headers.location));
    t.equal(after.statusCode, 200);
    const text = textOf(after.body);
    t.match(text, 'Thank you: your answer was sent and is now in review.');
    t.notMatch(text, 'Raise prices?', 'the answered question is no longer listed');
    t.match(text, 'Annual plans?');

    const cant = await answer(path, b.questionIds[1]!, { body: '', action: 'cant_answer' });
    t.equal(cant.statusCode, 303);
    t.equal((await w.answer(b.questionIds[1]!, ada.id)).status, 'cant_answer');
    const ignored = await answer(path, b.questionIds[2]!, { body: '', action: 'ignored' });
    t.equal(ignored.statusCode, 303);
    t.equal((await w.answer(b.questionIds[2]!, ada.id)).status, 'ignored');
    const done = await visit(String(ignored.headers.location));
    t.equal(done.statusCode, 200);
    t.match(textOf(done.body), 'That was the last open question of this invitation.');
    const again = await visit(path);
    t.equal(again.statusCode, 404, 'opened again later: no unanswered questions found');
  });

  await t.test('a refused text comes back next to the field, with what was typed', async (t) => {
    const path = linkFor(bob);
    const short = await answer(path, b.questionIds[0]!, { body: 'Too short', action: 'submit' });
    t.equal(short.statusCode, 400);
    t.match(textOf(short.body), 'Your answer is 2 words: please write at least 3 words.');
    t.match(short.body, /<textarea id="answer-\d+" name="body" rows="10" aria-invalid="true" aria-describedby="answer-\d+-error answer-\d+-hint">Too short<\/textarea>/);
    const long = await answer(path, b.questionIds[0]!, { body: 'word '.repeat(25), action: 'submit' });
    t.equal(long.statusCode, 400);
    t.match(textOf(long.body), 'Your answer is 25 words: please keep it to 20 words.');
    const empty = await answer(path, b.questionIds[0]!, { body: '   ', action: 'submit' });
    t.equal(empty.statusCode, 400);
    t.match(textOf(empty.body), 'Please write your answer.');
    const nul = await answer(path, b.questionIds[0]!, { body: 'bad \u0000 text here', action: 'submit' });
    t.equal(nul.statusCode, 400, 'a control character is a 400');
    const huge = await answer(path, b.questionIds[0]!, { body: 'x'.repeat(200_000), action: 'submit' });
    t.ok(huge.statusCode >= 400 && huge.statusCode < 500, `a huge text is a 4xx (${huge.statusCode})`);
    t.equal((await w.answer(b.questionIds[0]!, bob.id)).status, 'open', 'nothing was written');
  });

  await t.test('where the link is not enough, the page asks to sign in and keeps what was typed', async (t) => {
    // The member opened the page in time, typed, and the link expired before they sent it.
    const expired = expiredFor(bob);
    const res = await answer(expired, b.questionIds[1]!, { body: 'Annual plans pay for themselves quickly.', action: 'submit' });
    t.equal(res.statusCode, 401);
    const text = textOf(res.body);
    t.match(text, 'This invitation link has expired, so it can no longer send answers by itself.');
    t.match(res.body, />Annual plans pay for themselves quickly\.<\/textarea>/, 'the text is kept');
    t.match(res.body, /<a href="\/login\?redirect=%2Fexpert-panels%2Finvite[^"]*" target="_blank" rel="noopener">Sign in \(opens in a new tab\)<\/a>/);
    t.equal((await w.answer(b.questionIds[1]!, bob.id)).status, 'open', 'nothing was written');

    // Signed in (in the other tab), the same form goes through on the session, expired link or not.
    const cookie = (await signIn(app, bob, alpha)).cookie;
    const page = await visit(expired, { cookie });
    t.equal(page.statusCode, 200, 'signed in as its member, an expired link still lists the questions');
    t.match(textOf(page.body), "Your community's editors would value your answer. Answer each question here.");
    const sent = await answer(expired, b.questionIds[1]!, { body: 'Annual plans pay for themselves quickly.', action: 'submit' }, cookie);
    t.equal(sent.statusCode, 303);
    t.equal((await w.answer(b.questionIds[1]!, bob.id)).status, 'submitted');

    // Another member signed in meanwhile: refused, the text kept.
    const adaCookie = (await signIn(app, ada, alpha)).cookie;
    const other = await answer(linkFor(bob), b.questionIds[2]!, { body: 'Trials convert well for us.', action: 'submit' }, adaCookie);
    t.equal(other.statusCode, 403);
    t.match(other.body, />Trials convert well for us\.<\/textarea>/);
    t.match(textOf(other.body), 'sign in as the member it was sent to');
    t.equal((await w.answer(b.questionIds[2]!, bob.id)).status, 'open');
  });

  await t.test('the link alone acts only on an open answer of an active member', async (t) => {
    const carol = await w.member(alpha, 'Carol', 'Cook');
    const c = await w.batch(alpha, pricing, { deadline, questions: ['Bundles?', 'Discounts?'], members: [carol] });
    const path = linkFor(carol, c.questionIds);
    const first = await answer(path, c.questionIds[0]!, { body: 'Bundles lifted our average order value a lot.', action: 'submit' });
    t.equal(first.statusCode, 303);
    const overwrite = await answer(path, c.questionIds[0]!, { body: 'Someone else with the forwarded link writes this.', action: 'submit' });
    t.equal(overwrite.statusCode, 404, 'a submitted answer cannot be rewritten through the link');
    t.match((await w.answer(c.questionIds[0]!, carol.id)).body_html, 'Bundles lifted', 'the member’s text stays');
    await db.updateTable('memberships').set({ is_active: false }).where('user_id', '=', carol.id).where('community_id', '=', alpha.id).execute();
    const gone = await answer(path, c.questionIds[1]!, { body: 'Discounts train buyers to wait for them.', action: 'submit' });
    t.equal(gone.statusCode, 404, 'nor can a deactivated member’s link answer');
    t.equal((await w.answer(c.questionIds[1]!, carol.id)).status, 'open');
  });

  await t.test('refusals: no CSRF token, a question not in the link, a closed question, a tampered link', async (t) => {
    const path = linkFor(bob);
    const noToken = await app.inject({
      method: 'POST',
      url: '/expert-panels/invite',
      headers: { ...html, 'content-type': form },
      payload: new URLSearchParams({ ...fieldsOf(path), questionId: String(b.questionIds[2]), body: 'Trials convert well for us.' }).toString(),
    });
    t.equal(noToken.statusCode, 403, 'a POST without the CSRF token is refused');
    const c2 = await w.batch(alpha, pricing, { deadline, questions: ['Not in the link'], members: [bob] });
    const outside = await answer(path, c2.questionIds[0]!, { body: 'Trials convert well for us.' });
    t.equal(outside.statusCode, 400, 'a question the link does not name');
    t.equal((await w.answer(c2.questionIds[0]!, bob.id)).status, 'open');
    const bad = await answer(`${path.replace(/sig=[\w-]+/, `sig=${'A'.repeat(43)}`)}`, b.questionIds[2]!, { body: 'Trials convert well for us.' });
    t.equal(bad.statusCode, 400, 'a tampered link');
    const junk = await answer(path, b.questionIds[2]!, { body: 'Trials convert well for us.', questionId: 'abc' });
    t.equal(junk.statusCode, 400, 'a junk question id');

    const page = await csrfFor(app, '', path);
    await db.updateTable('ep_questions').set({ closed_at: clock.now() }).where('id', '=', b.questionIds[2]!).execute();
    const closed = await app.inject({
      method: 'POST',
      url: '/expert-panels/invite',
      headers: { ...html, cookie: page.cookie, 'content-type': form },
      payload: new URLSearchParams({ _csrf: page.token, ...fieldsOf(path), questionId: String(b.questionIds[2]), body: 'Trials convert well for us.', action: 'submit' }).toString(),
    });
    t.equal(closed.statusCode, 409, 'closed while the member typed');
    t.match(textOf(closed.body), 'This question is closed and takes no new answers.');
    t.equal((await w.answer(b.questionIds[2]!, bob.id)).status, 'open');
  });
});
