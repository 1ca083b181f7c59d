import t from 'tap';
import { createFeedback, moveArticle, publishDueArticles } from '#src/features/articles/service.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';

const words = (n: number, w = 'word') => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');

t.test('the articles pages, as a browser without JavaScript uses them', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, {
    code: 'alpha',
    article_terms: 'You keep the rights; we may edit and publish.',
    article_guidelines: 'Write from your own experience.',
  });
  const { app } = await startApp(t, db, { clock });
  const author = await createMember(db, alpha, { firstName: 'Ada' });
  const editorUser = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Ed' });
  const editor = { userId: editorUser.id, isStaff: true };
  const deps = { db, clock, community: alpha, t: app.t };
  const b = new FormBrowser(app);
  b.cookies.set('auth', (await signIn(app, author, alpha)).token);

  await t.test('a visitor is sent to sign-in; the editor too', async (t) => {
    const res = await app.inject({ url: '/articles/edit', headers: { accept: 'text/html' } });
    t.equal(res.headers.location, '/login?redirect=%2Farticles%2Fedit');
  });

  await t.test('the product agreement gates the area; confirming needs the box ticked, then the editor opens', async (t) => {
    const gate = await b.get('/articles');
    t.match(gate.body, 'Before you write');
    t.match(gate.body, 'You keep the rights; we may edit and publish.');
    t.match((await b.get('/articles/published')).body, 'Before you write');
    t.equal((await b.get('/articles/edit')).headers.location, '/articles');
    const unticked = await b.post('/articles/agreement', {}, '/articles');
    t.equal(unticked.statusCode, 400);
    t.match(unticked.body, 'Please tick the box to accept the terms.');
    const ok = await b.post('/articles/agreement', { acknowledge: 'on' }, '/articles');
    t.equal(ok.headers.location, '/articles/edit');
    t.match((await b.get('/articles/agreement')).body, 'You accepted the agreement on Nov 21, 2026.');
  });

  await t.test('the dashboard: nothing in flight, guidelines=true opens the guidelines panel', async (t) => {
    const res = await b.get('/articles?guidelines=true');
    t.match(res.body, 'You have no article in progress.');
    t.match(res.body, /<details class="panel" open="">/);
    t.match(res.body, 'Write from your own experience.');
  });

  await t.test('the first save creates the article; words are counted on the server; nothing typed is lost', async (t) => {
    const empty = await b.get('/articles/edit');
    t.match(empty.body, '0/1000 words (500 min)');
    const saved = await b.post('/articles/edit', { action: 'save', title: 'Lessons from the shop floor', body: `${words(20)}\n\n${words(10, 'second')}` }, '/articles/edit');
    t.equal(saved.headers.location, '/articles/edit?saved=1');
    const page = await b.get('/articles/edit?saved=1');
    t.match(page.body, 'Saved.');
    t.match(page.body, '30/1000 words (500 min)');
    t.match(page.body, 'value="Lessons from the shop floor"');
    const articleId = /name="articleId" value="(\d+)"/.exec(page.body)![1]!;
    const short = await b.post('/articles/edit', { action: 'submit', articleId, title: 'Lessons from the shop floor', body: words(499), agreed: 'on' }, '/articles/edit');
    t.equal(short.statusCode, 400);
    t.match(short.body, 'Your article needs at least 500 words.');
    t.match(short.body, 'Save a byline before you submit.');
    t.match(short.body, '499/1000 words (500 min)', 'the typed text comes back, counted');
    t.match(short.body, 'word498', 'nothing typed is lost');
  });

  await t.test('the byline: at most 140 characters, saved from the settings page', async (t) => {
    const long = await b.post('/articles/settings', { byline: 'x'.repeat(141) }, '/articles/settings');
    t.equal(long.statusCode, 400);
    t.match(long.body, 'The byline can have at most 140 characters.');
    t.match(long.body, 'x'.repeat(141), 'kept');
    const ok = await b.post('/articles/settings', { byline: 'Ada runs Analytical Engines & Co.' }, '/articles/settings');
    t.equal(ok.headers.location, '/articles/settings?saved=1');
    t.match((await b.get('/articles/edit')).body, 'Ada runs Analytical Engines &amp; Co.');
  });

  await t.test('submitting needs the agreement box; then the article is with the editors, read-only', async (t) => {
    const page = await b.get('/articles/edit');
    const articleId = /name="articleId" value="(\d+)"/.exec(page.body)![1]!;
    const noBox = await b.post('/articles/edit', { action: 'submit', articleId, title: 'Lessons from the shop floor', body: words(500) }, '/articles/edit');
    t.equal(noBox.statusCode, 403);
    t.match(noBox.body, 'Please accept the agreement first.');
    const sent = await b.post('/articles/edit', { action: 'submit', articleId, title: 'Lessons from the shop floor', body: words(500), agreed: 'on' }, '/articles/edit');
    t.equal(sent.headers.location, '/articles?notice=submitted');
    const scan = await db.selectFrom('copy_scans').selectAll().where('article_id', '=', Number(articleId)).executeTakeFirstOrThrow();
    t.equal(scan.status, 'COMPLETED', 'submitting runs the copy scan');
    t.equal(scan.total_words, 500);
    t.equal(scan.ai_probability, null, 'what cannot truly be computed stays empty');
    const dash = await b.get('/articles?notice=submitted');
    t.match(dash.body, 'Your article was submitted for review.');
    t.match(dash.body, 'Submitted for review');
    t.equal((await b.get('/articles/edit')).headers.location, '/articles', 'SUBMITTED_FOR_REVIEW redirects to the dashboard');
    await moveArticle(deps, editor, { articleId: Number(articleId), to: 'FIRST_ROUND_EDIT' });
    const atWork = await b.get('/articles/edit');
    t.match(atWork.body, 'The editors are working on your article.');
    t.notMatch(atWork.body, 'name="title"', 'read-only');
  });

  await t.test('feedback from the editor, a reply, a revision, approval, then the job publishes it', async (t) => {
    const articleId = Number(/name="articleId" value="(\d+)"/.exec((await b.get('/articles/edit')).body)![1]);
    await createFeedback(deps, editor, { articleId, feedback: 'Cut the introduction by half.' });
    await moveArticle(deps, editor, { articleId, to: 'NEEDS_REVISION' });
    const page = await b.get('/articles/edit');
    t.match(page.body, 'Cut the introduction by half.');
    t.match(page.body, 'name="title"', 'editable again');
    const empty = await b.post('/articles/feedback', { articleId: String(articleId), feedback: ' ' }, '/articles/edit');
    t.match(empty.body, 'Please write a message.');
    await b.post('/articles/feedback', { articleId: String(articleId), feedback: 'Done, thanks!' }, '/articles/edit');
    t.match((await b.get('/articles/edit')).body, 'Done, thanks!');
    const resent = await b.post('/articles/edit', { action: 'submit', articleId: String(articleId), title: 'Lessons, shorter', body: words(520, 'rev'), agreed: 'on' }, '/articles/edit');
    t.equal(resent.headers.location, '/articles?notice=submitted');
    for (const to of ['FIRST_ROUND_EDIT', 'FINAL_EDIT', 'READY_TO_APPROVE'] as const) await moveArticle(deps, editor, { articleId, to });
    const preview = await b.get('/articles/edit');
    t.match(preview.body, 'Approve for publishing');
    t.match(preview.body, 'rev519');
    const noBox = await b.post('/articles/approve', { articleId: String(articleId) }, '/articles/edit');
    t.equal(noBox.statusCode, 403);
    const approved = await b.post('/articles/approve', { articleId: String(articleId), agreed: 'on' }, '/articles/edit');
    t.equal(approved.headers.location, '/articles?notice=approved');
    t.match((await b.get('/articles?notice=approved')).body, 'Lessons, shorter');
    await moveArticle(deps, editor, { articleId, to: 'SCHEDULED', scheduledDate: '2026-11-28T09:00:00Z' });
    t.match((await b.get('/articles')).body, 'Scheduled for Nov 28, 2026');
    clock.set('2026-11-28T09:00:01Z');
    t.same(await publishDueArticles(db, clock, app.t), [articleId]);
    const published = await b.get('/articles/published');
    t.match(published.body, 'Lessons, shorter');
    t.match(published.body, 'Nov 28, 2026');
  });

  await t.test('during a blackout Submit is disabled and refused with the spec notice', async (t) => {
    clock.set('2026-12-24T12:00:00Z');
    await db.insertInto('blackout_windows').values({ community_id: alpha.id, starts_on: '2026-12-23', ends_before: '2027-01-02' }).execute();
    b.cookies.set('auth', (await signIn(app, author, alpha)).token); // a month on: a fresh session
    const page = await b.get('/articles/edit');
    t.match(page.body, 'The community is closed from 12/24 through 1/1. You may return on 1/2 to submit your article.');
    t.match(page.body, /value="submit" class="button" disabled=""/);
    const refused = await b.post('/articles/edit', { action: 'submit', title: 'Holiday piece', body: words(600), agreed: 'on' }, '/articles/edit');
    t.equal(refused.statusCode, 409);
    t.match(refused.body, 'The community is closed from 12/24 through 1/1.');
    t.match(refused.body, 'word599', 'the text is kept');
  });
});
