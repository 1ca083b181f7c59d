import t from 'tap';
import { acceptProductAgreement, saveByline } from '#src/features/articles/byline-terms.ts';
import { moveArticle } from '#src/features/articles/review.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

/** What the editor island sends: the rich text as `content` (with JavaScript), besides the plain form. */
t.test('the editor page with its islands', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha', article_terms: 'Terms.', article_guidelines: 'Guidelines.' });
  const { app } = await startApp(t, db, { clock });
  const author = await createMember(db, alpha);
  const editorUser = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'] });
  const deps = { db, clock, community: alpha, t: app.t, notifier: app.notifications };
  await acceptProductAgreement(deps, author.id);
  const b = new FormBrowser(app);
  b.cookies.set('auth', (await signIn(app, author, alpha)).token);

  await t.test('the page server-renders the editor island as a working plain form, with its props', async (t) => {
    const page = await b.get('/articles/edit');
    t.match(page.body, 'data-island="ArticleEditor"');
    t.match(page.body, 'data-island="SidebarToggle"');
    t.match(page.body, /<textarea[^>]*name="body"/, 'the plain body field for browsers without JavaScript');
    t.match(page.body, 'Save draft');
    t.match(page.body, /<script type="module"[^>]*island_ArticleEditor-/);
  });

  await t.test('rich text posted as content is kept, cleaned by the server sanitiser', async (t) => {
    const content = `<h2>Heading</h2><p><strong>Bold</strong> <em>it</em> <span style="text-decoration: underline">u</span> <a href="https://example.com" onclick="x()">link</a> <a href="javascript:alert(1)">bad</a></p><script>alert(1)</script><img src="x" onerror="y()"><ul><li><p>one</p></li></ul><p>${words(20)}</p>`;
    const res = await b.post('/articles/edit', { action: 'save', title: 'Rich', content }, '/articles/edit');
    t.equal(res.headers.location, '/articles/edit?saved=1');
    const row = await db
      .selectFrom('articles')
      .innerJoin('article_revisions', 'article_revisions.id', 'articles.current_revision_id')
      .select(['article_revisions.content', 'article_revisions.word_count'])
      .where('articles.author_id', '=', author.id)
      .executeTakeFirstOrThrow();
    t.match(row.content, '<h2>Heading</h2>');
    t.match(row.content, '<strong>Bold</strong>');
    t.match(row.content, '<u>u</u>');
    t.match(row.content, '<a href="https://example.com">link</a>');
    t.notMatch(row.content, /script|onerror|onclick|javascript:|<img/);
    t.match(row.content, '<ul><li><p>one</p></li></ul>');
    t.equal(row.word_count, 27, "Heading, five words of marks and links, one, and twenty");
    const page = await b.get('/articles/edit');
    t.match(page.body, '27/1000 words (500 min)');
  });

  await t.test('a refused submit comes back with the rich text, not flattened', async (t) => {
    const content = `<p><strong>${words(30)}</strong></p>`;
    const res = await b.post('/articles/edit', { action: 'submit', title: 'Short', content, agreed: 'on' }, '/articles/edit');
    t.equal(res.statusCode, 400);
    t.match(res.body, 'Your article needs at least 500 words.');
    const props = /data-island="ArticleEditor" data-props="([^"]*)"/.exec(res.body)![1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
    t.match(JSON.parse(props).content, `<p><strong>${words(30)}</strong></p>`);
  });

  await t.test('the editors-at-work page watches the status; the status endpoint answers for the member only', async (t) => {
    await saveByline(deps, author.id, '<p>Writer.</p>');
    const article = await db.selectFrom('articles').select('id').where('author_id', '=', author.id).executeTakeFirstOrThrow();
    await b.post('/articles/edit', { action: 'submit', title: 'Long enough', body: words(510), articleId: String(article.id), agreed: 'on' }, '/articles/edit');
    await moveArticle(deps, { userId: editorUser.id, isStaff: true }, { articleId: article.id, to: 'FIRST_ROUND_EDIT' });
    const page = await b.get('/articles/edit');
    t.match(page.body, 'data-island="StatusWatch"');
    const status = await b.get('/articles/edit/status');
    t.same(JSON.parse(status.body), { status: 'FIRST_ROUND_EDIT' });
    t.equal(status.headers['cache-control'], 'no-store');
    const visitor = await app.inject({ url: '/articles/edit/status', headers: { accept: 'application/json' } });
    t.equal(visitor.statusCode, 401);
    const other = new FormBrowser(app);
    other.cookies.set('auth', (await signIn(app, await createMember(db, alpha), alpha)).token);
    t.same(JSON.parse((await other.get('/articles/edit/status')).body), { status: null }, "another member sees only their own article's status");
  });

  await t.test('the byline without JavaScript: plain text, a web address becomes the link; with a link the field shows the HTML', async (t) => {
    const res = await b.post('/articles/settings', { byline: 'Ada builds engines at https://acme.example/?a=1&b=2. Since 1843.' }, '/articles/settings');
    t.equal(res.headers.location, '/articles/settings?saved=1');
    const row = await db.selectFrom('article_user_settings').select('byline').where('user_id', '=', author.id).executeTakeFirstOrThrow();
    t.equal(row.byline, '<p>Ada builds engines at <a href="https://acme.example/?a=1&amp;b=2">https://acme.example/?a=1&amp;b=2</a>. Since 1843.</p>');
    const page = await b.get('/articles/settings');
    t.match(page.body, 'data-island="BylineEditor"');
    t.match(page.body, /<textarea[^>]*name="byline"[^>]*>&lt;p&gt;Ada builds/);
    const two = await b.post('/articles/settings', { byline: 'https://one.example and https://two.example' }, '/articles/settings');
    t.equal(two.statusCode, 400);
    t.match(two.body, 'The byline can have at most 1 link.');
    t.match(two.body, 'https://one.example and https://two.example', 'the typed text comes back');
    await b.post('/articles/settings', { byline: 'Just words.' }, '/articles/settings');
    t.match((await b.get('/articles/settings')).body, /<textarea[^>]*name="byline"[^>]*>Just words.<\/textarea>/, 'without a link the field shows plain text');
  });

  await t.test('a refused byline comes back cleaned: nothing typed as markup reaches the page able to run', async (t) => {
    const res = await b.post('/articles/settings', { byline: '<img src=x onerror=alert(document.domain)><a href="javascript:alert(1)">x</a><a href="https://a.example">a</a><a href="https://b.example">b</a>' }, '/articles/settings');
    t.equal(res.statusCode, 400);
    const props = /data-island="BylineEditor" data-props="([^"]*)"/.exec(res.body)![1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
    const html: string = JSON.parse(props).html;
    t.notMatch(html, /onerror|<img|javascript:/);
    t.match(html, '<a href="https://a.example">a</a>');
  });

  await t.test('the gate and the approval are confirm forms: enabled without JavaScript, the server checks the box', async (t) => {
    const fresh = new FormBrowser(app);
    fresh.cookies.set('auth', (await signIn(app, await createMember(db, alpha), alpha)).token);
    const gate = await fresh.get('/articles');
    t.match(gate.body, 'data-island="AgreementDialog"');
    t.match(gate.body, /<div id="gate-behind" hidden="">/, 'the dashboard behind the modal is hidden without JavaScript');
    t.notMatch(/<button type="submit" class="button"[^>]*>Confirm</.exec(gate.body)?.[0] ?? '', 'disabled', 'the button works without JavaScript');
  });
});
