import t from 'tap';
import { GOOD_PASSWORD, setPassword } from '#test/helpers/auth.ts';
import { signIn } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';
import { roundupWorld } from './roundup-world.ts';

const BOARD = '/admin/expert-panels/roundups';

t.test('the roundups’ staff pages with JavaScript off, and the public live page', async (t) => {
  const w = await roundupWorld(t);
  const { app, db, alpha, beta } = w;
  const editor = await w.member(alpha, { firstName: 'Eddie', lastName: 'Editor', staff: true });
  const ada = await w.member(alpha, { firstName: 'Ada', lastName: 'Lovelace', companyName: 'Engines Ltd' });
  const alan = await w.member(alpha, { firstName: 'Alan', lastName: 'Turing', companyName: 'Bletchley Works' });
  const panel = await w.panel(alpha, 'Founders');
  const question = await panel.question('How do you plan cash for a slow quarter?');
  const unanswered = await panel.question('A question nobody answered well');
  await w.answer(alpha, unanswered, ada.id, 'declined');
  const a1 = await w.answer(alpha, question, ada.id, 'accepted', 'Keep three months of costs aside and talk to the bank early.');
  const a2 = await w.answer(alpha, question, alan.id, 'accepted', 'Model the worst case first, then cut what you can before you must.');

  const b = new FormBrowser(app);
  b.cookies.set('auth', (await signIn(app, editor, alpha, ['ADMIN', 'MEMBER'])).token);

  await t.test('a member who is not staff, and a visitor, get none of the pages or actions', async (t) => {
    const m = new FormBrowser(app, '203.0.113.41');
    m.cookies.set('auth', (await signIn(app, ada, alpha)).token);
    for (const url of [BOARD, `${BOARD}/new`, `${BOARD}/export.csv`, `${BOARD}/1`]) {
      const res = await m.get(url);
      t.not(res.statusCode, 200, url);
    }
    const res = await m.post(BOARD, { questionId: String(question), title: 'Mine' }, '/');
    t.equal(res.statusCode, 403, 'creating is forbidden');
    t.not((await new FormBrowser(app, '203.0.113.42').get(BOARD)).statusCode, 200, 'a visitor is sent to sign in');
  });

  let id = 0;

  await t.test('a new roundup: only questions with accepted answers are offered; a refused form keeps what was typed', async (t) => {
    const page = await b.get(`${BOARD}/new`);
    t.equal(page.statusCode, 200);
    t.match(page.body, 'How do you plan cash for a slow quarter? (Founders, 2 accepted answers)');
    t.notMatch(page.body, 'A question nobody answered well', 'a question without accepted answers is not offered');
    const refused = await b.post(BOARD, { questionId: String(question), title: '  ', intro: 'Five founders on cash.' }, `${BOARD}/new`);
    t.equal(refused.statusCode, 400);
    t.match(refused.body, 'Please give the roundup a title.');
    t.match(refused.body, 'field-error');
    t.match(refused.body, 'Five founders on cash.', 'the introduction typed is kept');
    const hostile = await b.post(BOARD, { questionId: String(question), title: 'Bad\u0001title' }, `${BOARD}/new`);
    t.equal(hostile.statusCode, 400, 'a control character is a 400');
    const noQuestion = await b.post(BOARD, { questionId: 'abc', title: 'Cash' }, `${BOARD}/new`);
    t.equal(noQuestion.statusCode, 400);
    t.match(noQuestion.body, 'Please choose a question with accepted answers.');
    const res = await b.post(BOARD, { questionId: String(question), title: 'Planning cash for a slow quarter', intro: 'Five founders on **cash**.' }, `${BOARD}/new`);
    t.equal(res.statusCode, 303);
    const location = res.headers.location as string;
    t.match(location, /^\/admin\/expert-panels\/roundups\/\d+\?alert=ep-roundup-created$/);
    id = Number(/roundups\/(\d+)/.exec(location)![1]);
    const shown = await b.get(location);
    t.match(shown.body, 'Roundup created.', 'the alert shows without JavaScript');
    t.match(shown.body, 'Roundup: Planning cash for a slow quarter');
    t.match(shown.body, 'Five founders on **cash**.', 'the introduction back as typed');
    t.equal((await w.roundupRow(id)).intro_html, '<p>Five founders on <strong>cash</strong>.</p>');
  });

  await t.test('a post without the CSRF token changes nothing', async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: `${BOARD}/${id}/answers`,
      headers: { cookie: b.jar, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      payload: `answerId=${a1}`,
    });
    t.equal(res.statusCode, 403);
    t.equal((await db.selectFrom('ep_roundup_answers').select('answer_id').where('roundup_id', '=', id).execute()).length, 0);
  });

  await t.test('composing: add the accepted answers, order them, remove one; refusals come back as messages', async (t) => {
    const page = await b.get(`${BOARD}/${id}`);
    t.match(page.body, 'Accepted answers to add');
    t.match(page.body, 'Add Ada Lovelace&#x27;s answer');
    const refused = await b.post(`${BOARD}/${id}/move`, { to: 'EDITOR_REVIEW' }, BOARD);
    t.equal(refused.statusCode, 409, 'an empty roundup cannot leave DRAFT');
    t.match(refused.body, 'Add at least one accepted answer before moving this roundup on.');
    for (const answerId of [a1, a2]) {
      const res = await b.post(`${BOARD}/${id}/answers`, { answerId: String(answerId) }, BOARD);
      t.equal(res.statusCode, 303);
      t.equal(res.headers.location, `${BOARD}/${id}?alert=ep-roundup-answers#answers`);
    }
    const declined = await db.selectFrom('ep_answers').select('id').where('status', '=', 'declined').executeTakeFirstOrThrow();
    const notAccepted = await b.post(`${BOARD}/${id}/answers`, { answerId: String(declined.id) }, BOARD);
    t.equal(notAccepted.statusCode, 400);
    t.match(notAccepted.body, 'Only accepted answers to this roundup&#x27;s question can be added.');
    const moved = await b.post(`${BOARD}/${id}/answers/${a2}/move`, { direction: 'up' }, BOARD);
    t.equal(moved.statusCode, 303);
    const composed = await b.get(`${BOARD}/${id}`);
    t.ok(composed.body.indexOf('Alan Turing') < composed.body.indexOf('Ada Lovelace'), 'Alan now comes first');
    t.match(composed.body, 'Bletchley Works', 'the member snapshot');
    t.match(composed.body, /\d+ words/, 'and the word count');
    t.match(composed.body, 'Every accepted answer to this question is in the roundup.');
    t.equal((await b.post(`${BOARD}/${id}/answers/${a2}/move`, { direction: 'left' }, BOARD)).statusCode, 400, 'a bad direction is a 400');
    const ordered = await b.post(`${BOARD}/${id}/order`, { [`position-${a1}`]: '1', [`position-${a2}`]: '2' }, BOARD);
    t.equal(ordered.statusCode, 303, 'explicit places');
    const placed = await b.get(`${BOARD}/${id}`);
    t.ok(placed.body.indexOf('Ada Lovelace') < placed.body.indexOf('Alan Turing'), 'Ada first again');
    const badPlace = await b.post(`${BOARD}/${id}/order`, { [`position-${a1}`]: 'one' }, BOARD);
    t.equal(badPlace.statusCode, 400);
    t.match(badPlace.body, 'Please number each answer with a whole number from 1.');
    t.equal((await b.post(`${BOARD}/${id}/answers/${a1}/remove`, {}, BOARD)).statusCode, 303);
    t.equal((await b.post(`${BOARD}/${id}/answers`, { answerId: String(a1) }, BOARD)).statusCode, 303, 'added back at the end');
    const saved = await b.post(`${BOARD}/${id}`, { title: '', intro: 'kept text' }, BOARD);
    t.equal(saved.statusCode, 400);
    t.match(saved.body, 'kept text');
    t.equal((await b.post(`${BOARD}/${id}`, { title: 'Cash in a slow quarter: five founders', intro: 'Our panel answers.' }, BOARD)).statusCode, 303);
  });

  await t.test('moving along the allowed moves to Published; the log and the live address', async (t) => {
    const page = await b.get(`${BOARD}/${id}`);
    t.match(page.body, 'Status: Draft');
    t.match(page.body, '>Move to editor review</button>');
    t.notMatch(page.body, '>Publish</button>', 'no move that is not allowed is offered');
    const skipped = await b.post(`${BOARD}/${id}/move`, { to: 'FINAL' }, BOARD);
    t.equal(skipped.statusCode, 409);
    t.match(skipped.body, 'That move is not allowed from the roundup&#x27;s current status.');
    for (const to of ['EDITOR_REVIEW', 'READY_FOR_PUBLISHING']) {
      const res = await b.post(`${BOARD}/${id}/move`, { to }, BOARD);
      t.equal(res.headers.location, `${BOARD}/${id}?alert=ep-roundup-moved#moves`);
    }
    t.match((await b.get(`${BOARD}/${id}`)).body, '>Publish</button>');
    const published = await b.post(`${BOARD}/${id}/move`, { to: 'FINAL' }, BOARD);
    t.equal(published.headers.location, `${BOARD}/${id}?alert=ep-roundup-published#moves`);
    const after = await b.get(published.headers.location as string);
    t.match(after.body, 'The roundup is published.');
    t.match(after.body, 'Status: Published', 'FINAL is shown as Published');
    t.match(after.body, 'href="/expert-panels/roundups/cash-in-a-slow-quarter-five-founders"', 'the live address');
    t.match(after.body, 'Ready for publishing → Published, by Eddie Editor on', 'the log says who and when');
    t.match(after.body, 'Draft → Editor review, by Eddie Editor');
    t.notMatch(after.body, 'Accepted answers to add', 'nothing left to compose');
    const frozen = await b.post(`${BOARD}/${id}`, { title: 'Changed', intro: '' }, BOARD);
    t.equal(frozen.statusCode, 409);
    t.match(frozen.body, 'This roundup is published: its content can no longer be changed.');
    const told = await db.selectFrom('notifications').select(['url', 'message']).where('kind', '=', 'expert_answers').where('user_id', '=', ada.id).execute();
    t.same(told.map((n) => n.url), ['/expert-panels/roundups/cash-in-a-slow-quarter-five-founders']);
  });

  await t.test('the board: filter, search, CSV export', async (t) => {
    const other = await b.post(BOARD, { questionId: String(question), title: 'A second draft' }, `${BOARD}/new`);
    t.equal(other.statusCode, 303);
    const board = await b.get(BOARD);
    t.equal(board.statusCode, 200);
    t.ok(board.body.indexOf('A second draft') < board.body.indexOf('Cash in a slow quarter'), 'newest first');
    t.match(board.body, 'Published');
    const drafts = await b.get(`${BOARD}?status=DRAFT`);
    t.match(drafts.body, 'A second draft');
    t.notMatch(drafts.body, 'Cash in a slow quarter: five founders');
    const search = await b.get(`${BOARD}?q=five+founders`);
    t.match(search.body, 'Cash in a slow quarter: five founders');
    t.notMatch(search.body, 'A second draft');
    const bad = await b.get(`${BOARD}?q=a%00b`);
    t.equal(bad.statusCode, 400, 'a NUL in the search is a 400 with the message');
    t.equal((await b.get(`${BOARD}?after=zzz`)).statusCode, 400, 'a cursor that is no id');
    const csv = await b.get(`${BOARD}/export.csv?status=FINAL`);
    t.equal(csv.statusCode, 200);
    t.match(csv.headers['content-type'], 'text/csv');
    t.match(csv.headers['content-disposition'], /attachment; filename="roundups-alpha-\d{4}-\d{2}-\d{2}\.csv"/);
    t.match(csv.body, 'ID,Title,Status,Question,Answers,Created,Updated,Published,Live page');
    t.match(csv.body, 'Cash in a slow quarter: five founders,Published,');
    t.notMatch(csv.body, 'A second draft');
    t.match(csv.body, '/expert-panels/roundups/cash-in-a-slow-quarter-five-founders');
  });

  await t.test("another community's staff find nothing of alpha's", async (t) => {
    const betaStaff = await w.member(beta, { staff: true });
    const bb = new FormBrowser(app, '203.0.113.50', 'beta.test');
    bb.cookies.set('auth', (await signIn(app, betaStaff, beta, ['ADMIN', 'MEMBER'])).token);
    t.equal((await bb.get(`${BOARD}/${id}`)).statusCode, 404);
    t.notMatch((await bb.get(BOARD)).body, 'Cash in a slow quarter');
    t.equal((await bb.post(`${BOARD}/${id}/move`, { to: 'DRAFT' }, BOARD)).statusCode, 404);
    t.equal((await b.get(`${BOARD}/99999999999`)).statusCode, 404, 'an id out of range is a 404');
  });

  await t.test('the live page: published, readable signed out; a draft or another community 404', async (t) => {
    const visitor = new FormBrowser(app, '203.0.113.60');
    const res = await visitor.get('/expert-panels/roundups/cash-in-a-slow-quarter-five-founders');
    t.equal(res.statusCode, 200);
    t.match(res.body, '<h1 id="roundup-title">Cash in a slow quarter: five founders</h1>');
    t.match(res.body, 'Our panel answers.');
    t.match(res.body, 'How do you plan cash for a slow quarter?');
    t.match(res.body, 'Chief Executive Officer, Bletchley Works', 'the member’s job and company');
    t.ok(res.body.indexOf('Alan Turing') < res.body.indexOf('Ada Lovelace'), 'in order');
    t.match(res.body, 'Published Nov 21, 2026');
    // Spec section 2: after login the user goes back to the previous page (the redirect parameter).
    const LIVE = '/expert-panels/roundups/cash-in-a-slow-quarter-five-founders';
    const signInHref = /<a class="button button-small" href="([^"]+)">Sign In<\/a>/.exec(res.body)?.[1];
    t.equal(signInHref, `/login?redirect=${encodeURIComponent(LIVE)}`, "the header's Sign In link carries this page");
    const login = await visitor.get(signInHref!);
    t.match(login.body, `name="redirect" value="${LIVE}"`, 'the sign-in form keeps it');
    await setPassword(db, alan.id);
    await visitor.post('/login', { email: alan.email, redirect: LIVE }, signInHref!);
    const signedIn = await visitor.post('/login/password', { email: alan.email, password: GOOD_PASSWORD, redirect: LIVE }, signInHref!);
    t.equal(signedIn.headers.location, LIVE, 'signed in, the member is back on the roundup, not on /');
    const withAlert = await new FormBrowser(app, '203.0.113.62').get(`${LIVE}?alert=settings-saved`);
    t.match(withAlert.body, `href="/login?redirect=${encodeURIComponent(LIVE)}"`, 'the one-time alert is not carried');
    const draft = await db.selectFrom('ep_roundups').select('id').where('title', '=', 'A second draft').executeTakeFirstOrThrow();
    await db.updateTable('ep_roundups').set({ slug: 'a-second-draft' }).where('id', '=', draft.id).execute();
    t.equal((await visitor.get('/expert-panels/roundups/a-second-draft')).statusCode, 404, 'a roundup not FINAL has no live page');
    t.equal((await visitor.get('/expert-panels/roundups/nothing-here')).statusCode, 404);
    t.equal((await visitor.get('/expert-panels/roundups/%00bad')).statusCode, 404, 'a hostile slug is a 404');
    const elsewhere = new FormBrowser(app, '203.0.113.61', 'beta.test');
    t.equal((await elsewhere.get('/expert-panels/roundups/cash-in-a-slow-quarter-five-founders')).statusCode, 404, "not on another community's site");
  });
});
