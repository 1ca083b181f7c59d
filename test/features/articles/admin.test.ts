import t from 'tap';
import { runCopyScan } from '#src/features/articles/copy-scan/stored.ts';
import { acceptProductAgreement, saveByline } from '#src/features/articles/byline-terms.ts';
import { autosaveRevision, submitForReview } from '#src/features/articles/writing.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';

const words = (n: number) => `<p>${Array.from({ length: n }, (_, i) => `w${i}`).join(' ')}</p>`;

t.test('the editors’ board in the admin area, without JavaScript', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta' });
  const { app } = await startApp(t, db, { clock });
  const deps = { db, clock, community: alpha, t: app.t, notifier: app.notifications };
  const editorUser = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Edna', lastName: 'Editor' });
  const ids: number[] = [];
  for (const [i, name] of ['Grace', 'Alan', 'Ada'].entries()) {
    const author = await createMember(db, alpha, { firstName: name, lastName: 'Writer' });
    await acceptProductAgreement(deps, author.id);
    await saveByline(deps, author.id, `<p>${name} writes.</p>`);
    const a = await autosaveRevision(deps, author.id, { title: `${name}'s article`, content: words(500 + i) });
    await submitForReview(deps, author.id, { articleId: a.id, title: `${name}'s article`, content: words(500 + i), agreed: true }, (submitted) =>
      runCopyScan(db, app.copyScanner, alpha, submitted.id, { now: clock.now() }).then(() => undefined),
    );
    ids.push(a.id);
    clock.advance(60_000);
  }
  const other = await createMember(db, beta, { firstName: 'Bea' });
  await acceptProductAgreement({ ...deps, community: beta }, other.id);
  await autosaveRevision({ ...deps, community: beta }, other.id, { title: 'Beta secret', content: words(10) });

  const b = new FormBrowser(app);
  b.cookies.set('auth', (await signIn(app, editorUser, alpha, ['ADMIN', 'MEMBER'])).token);

  await t.test('members are sent from the board to the app login with a way back', async (t) => {
    const member = await createMember(db, alpha);
    const res = await app.inject({ url: '/admin/articles', headers: { accept: 'text/html', cookie: (await signIn(app, member, alpha)).cookie } });
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, '/login?redirect=%2Fadmin%2Farticles');
  });

  await t.test('the board lists this community’s articles, newest change first, and filters', async (t) => {
    const res = await b.get('/admin/articles');
    t.equal(res.statusCode, 200);
    const order = [...res.body.matchAll(/>(\w+)&#x27;s article</g)].map((m) => m[1]);
    t.same(order, ['Ada', 'Alan', 'Grace']);
    t.notMatch(res.body, 'Beta secret');
    t.same([...(await b.get('/admin/articles?sort=oldest')).body.matchAll(/>(\w+)&#x27;s article</g)].map((m) => m[1]), ['Grace', 'Alan', 'Ada']);
    t.match((await b.get('/admin/articles?q=alan')).body, 'Alan&#x27;s article', 'search by member');
    t.notMatch((await b.get('/admin/articles?q=alan')).body, 'Grace&#x27;s article');
    t.match((await b.get('/admin/articles?status=DRAFT')).body, 'No articles match.');
    t.match((await b.get('/admin/articles?editor=none')).body, 'Ada&#x27;s article');
  });

  await t.test('assign an editor, move along allowed transitions, refused otherwise; history and revisions show', async (t) => {
    const id = ids[0]!;
    const assigned = await b.post(`/admin/articles/${id}/editor`, { editorId: String(editorUser.id) }, `/admin/articles/${id}`);
    t.equal(assigned.headers.location, `/admin/articles/${id}?done=assigned`);
    const page = await b.get(`/admin/articles/${id}?done=assigned`);
    t.match(page.body, 'Editor assigned.');
    t.match(page.body, /<option value="FIRST_ROUND_EDIT">/);
    t.notMatch(page.body, /<option value="PUBLISHED">/, 'only allowed moves are offered');
    t.match(page.body, /Score \d/, 'the copy-scan result is shown');
    const refused = await b.post(`/admin/articles/${id}/move`, { to: 'PUBLISHED' }, `/admin/articles/${id}`);
    t.equal(refused.statusCode, 409);
    t.match(refused.body, 'This article cannot move to that status now.');
    const moved = await b.post(`/admin/articles/${id}/move`, { to: 'FIRST_ROUND_EDIT', note: 'Taking it' }, `/admin/articles/${id}`);
    t.equal(moved.headers.location, `/admin/articles/${id}?done=moved`);
    const after = await b.get(`/admin/articles/${id}?done=moved`);
    t.match(after.body, 'Submitted for review → First-round edit (Taking it)');
    t.match(after.body, 'Revision 1');
    t.match(after.body, /<option value="NEEDS_REVISION">Needs revision<\/option>/, 'moves are offered by name');
    t.match(after.body, /<option value="FINAL_EDIT">Proofreading<\/option>/, 'FINAL_EDIT is shown as proofreading');
    t.match((await b.get('/admin/articles?editor=' + editorUser.id)).body, 'Grace&#x27;s article');
    t.match((await b.get('/admin/articles')).body, /<option value="FINAL_EDIT">Proofreading<\/option>/, 'the status filter too');
  });

  await t.test('a scan that failed says so, and the editors scan the text again', async (t) => {
    const id = ids[1]!;
    await db.updateTable('copy_scans').set({ status: 'FAILED', aggregated_score: null, total_words: null }).where('article_id', '=', id).execute();
    const failed = await b.get(`/admin/articles/${id}`);
    t.match(failed.body, 'The scan failed. Scan it again, or read the text with care.');
    t.notMatch(failed.body, />FAILED</, 'not the code');
    const again = await b.post(`/admin/articles/${id}/scan`, {}, `/admin/articles/${id}`);
    t.equal(again.headers.location, `/admin/articles/${id}?done=scanned#scan`);
    const page = await b.get(`/admin/articles/${id}?done=scanned`);
    t.match(page.body, 'Scanned again.');
    t.match(page.body, /Score \d/, 'the new result is shown');
    t.equal((await db.selectFrom('copy_scans').select('id').where('article_id', '=', id).execute()).length, 2, 'a new result row; the old one kept');
    await db.updateTable('copy_scans').set({ status: 'PENDING', export_id: 'x-1' }).where('article_id', '=', id).execute();
    const pending = await b.get(`/admin/articles/${id}`);
    t.match(pending.body, 'The scanning service is still working on it');
    t.notMatch(pending.body, 'Scan again', 'no second scan while one is pending');
    const betaArticle = await db.selectFrom('articles').select('id').where('community_id', '=', beta.id).executeTakeFirstOrThrow();
    t.equal((await b.post(`/admin/articles/${betaArticle.id}/scan`, {}, '/admin/articles')).statusCode, 404, 'another community’s article is not scanned');
  });

  await t.test('an article of another community is not found', async (t) => {
    const betaArticle = await db.selectFrom('articles').select('id').where('community_id', '=', beta.id).executeTakeFirstOrThrow();
    t.equal((await b.get(`/admin/articles/${betaArticle.id}`)).statusCode, 404);
  });
});
