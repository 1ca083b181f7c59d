import t from 'tap';
import { acceptProductAgreement, saveByline } from '#src/features/articles/byline-terms.ts';
import { autosaveRevision, submitForReview } from '#src/features/articles/writing.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';

const words = (n: number) => `<p>${Array.from({ length: n }, (_, i) => `w${i}`).join(' ')}</p>`;

t.test('the assign route answers JSON to the board’s assign-editor modal', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta' });
  const { app } = await startApp(t, db, { clock });
  const deps = { db, clock, community: alpha, t: app.t, notifier: app.notifications };
  const edna = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Edna', lastName: 'Editor' });
  const eve = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Eve', lastName: 'Reviewer' });
  const author = await createMember(db, alpha, { firstName: 'Grace', lastName: 'Writer' });
  await acceptProductAgreement(deps, author.id);
  await saveByline(deps, author.id, '<p>Grace writes.</p>');
  const title = 'Grace’s "night" article';
  const article = (await autosaveRevision(deps, author.id, { title, content: words(500) })).id;
  await submitForReview(deps, author.id, { articleId: article, title, content: words(500), agreed: true });
  const bea = await createMember(db, beta, { firstName: 'Bea' });
  await acceptProductAgreement({ ...deps, community: beta }, bea.id);
  const betaArticle = (await autosaveRevision({ ...deps, community: beta }, bea.id, { title: 'Beta secret', content: words(10) })).id;

  const editorOf = async (id: number) => (await db.selectFrom('articles').select('editor_id').where('id', '=', id).executeTakeFirstOrThrow()).editor_id;
  /** The island's request: JSON asked for, the token in the header, the form's fields in the body. */
  async function assign(as: { cookie: string; token?: string }, id: number, editorId: string, extra: Record<string, string> = {}) {
    return app.inject({
      method: 'POST',
      url: `/admin/articles/${id}/editor`,
      headers: {
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
        cookie: as.cookie,
        ...(as.token ? { 'x-csrf-token': as.token } : {}),
      },
      payload: new URLSearchParams({ editorId, ...extra }).toString(),
    });
  }
  const editor = await csrfFor(app, (await signIn(app, edna, alpha, ['ADMIN', 'MEMBER'])).cookie, '/admin/articles');

  await t.test('the board renders the island, a link to the article page’s form per row; the page has the anchor', async (t) => {
    const board = await app.inject({ url: '/admin/articles', headers: { accept: 'text/html', cookie: editor.cookie } });
    t.equal(board.statusCode, 200);
    t.match(board.body, 'data-island="AssignEditor"');
    t.match(board.body, `<a href="/admin/articles/${article}#assign" aria-describedby="board-title-${article}">Assign editor</a>`);
    t.match(board.body, `id="board-title-${article}"`);
    t.notMatch(board.body, '<dialog', 'the dialog is for JavaScript only');
    const page = await app.inject({ url: `/admin/articles/${article}`, headers: { accept: 'text/html', cookie: editor.cookie } });
    t.match(page.body, /<form[^>]* id="assign"/);
  });

  await t.test('success: the editor and a message to announce; the database has it', async (t) => {
    const res = await assign(editor, article, String(eve.id));
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], 'application/json');
    t.same(res.json(), { article: { id: article, editorId: eve.id, editorName: 'Eve Reviewer' }, message: `Eve Reviewer now edits “${title}”.` });
    t.equal(await editorOf(article), eve.id);

    const cleared = await assign(editor, article, '');
    t.equal(cleared.statusCode, 200);
    t.same(cleared.json(), { article: { id: article, editorId: null, editorName: null }, message: `“${title}” has no editor now.` });
    t.equal(await editorOf(article), null);

    const byField = await assign({ cookie: editor.cookie }, article, String(edna.id), { _csrf: editor.token });
    t.equal(byField.statusCode, 200, 'the _csrf form field does too');
    t.equal(await editorOf(article), edna.id);
  });

  await t.test('someone who is not staff cannot be the editor: 400 with the reason, nothing changed', async (t) => {
    const res = await assign(editor, article, String(author.id));
    t.equal(res.statusCode, 400);
    t.equal(res.json().error.message, 'Only staff can edit articles.');
    t.equal(res.json().error.code, 'Articles.Invalid');
    t.equal(await editorOf(article), edna.id);
  });

  await t.test('a member is refused (403), another community’s article is not found (404), signed out is 401', async (t) => {
    const member = await csrfFor(app, (await signIn(app, author, alpha)).cookie, '/');
    const refused = await assign(member, article, String(author.id));
    t.equal(refused.statusCode, 403);
    t.equal(refused.json().error.code, 'Forbidden');
    t.equal(await editorOf(article), edna.id);

    const elsewhere = await assign(editor, betaArticle, String(edna.id));
    t.equal(elsewhere.statusCode, 404);
    t.equal(elsewhere.json().error.code, 'NotFound');
    t.equal(await editorOf(betaArticle), null);
    t.equal((await assign(editor, 999999, String(edna.id))).statusCode, 404, 'no such article');

    const anonymous = await csrfFor(app, '', '/login');
    const signedOut = await assign(anonymous, article, String(eve.id));
    t.equal(signedOut.statusCode, 401);
    t.match(signedOut.headers['content-type'], 'application/json');
  });

  await t.test('the CSRF token is required', async (t) => {
    const missing = await assign({ cookie: editor.cookie }, article, String(eve.id));
    t.equal(missing.statusCode, 403);
    t.equal(missing.json().error.code, 'BadRequest.Csrf');
    const wrong = await assign({ cookie: editor.cookie, token: 'not-the-token' }, article, String(eve.id));
    t.equal(wrong.statusCode, 403);
    t.equal(wrong.json().error.code, 'BadRequest.Csrf');
    t.equal(await editorOf(article), edna.id, 'nothing changed');
  });

  await t.test('without JavaScript the form still posts and is sent back to the page', async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: `/admin/articles/${article}/editor`,
      headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', cookie: editor.cookie },
      payload: new URLSearchParams({ _csrf: editor.token, editorId: String(eve.id) }).toString(),
    });
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, `/admin/articles/${article}?done=assigned`);
    t.equal(await editorOf(article), eve.id);
    const refused = await app.inject({
      method: 'POST',
      url: `/admin/articles/${article}/editor`,
      headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', cookie: editor.cookie },
      payload: new URLSearchParams({ _csrf: editor.token, editorId: String(author.id) }).toString(),
    });
    t.equal(refused.statusCode, 400);
    t.match(refused.headers['content-type'], 'text/html');
    t.match(refused.body, 'Only staff can edit articles.');
  });
});
