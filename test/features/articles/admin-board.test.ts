import t from 'tap';
import { acceptProductAgreement, saveByline } from '#src/features/articles/byline-terms.ts';
import { autosaveRevision, submitForReview } from '#src/features/articles/writing.ts';
import { createFeedback } from '#src/features/articles/feedback.ts';
import { editArticleText } from '#src/features/articles/review.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn, type TestUser } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';

const words = (n: number, prefix = 'w') => `<p>${Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ')}</p>`;
/** The opening tag of the element with this id (attribute order is React's business). */
const tag = (html: string, id: string) => new RegExp(`<[a-z]+ id="${id}"[^>]*>`).exec(html)?.[0] ?? '';
const plainWords = (n: number, prefix = 'w') => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ');

t.test('the editors’ board extras: diff, text, feedback, CSV export, blackout windows', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock(); // 2026-11-21T12:00:00Z
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta' });
  const { app } = await startApp(t, db, { clock });
  const deps = { db, clock, community: alpha, t: app.t, notifier: app.notifications };
  const betaDeps = { ...deps, community: beta };
  const editor = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Edna', lastName: 'Editor' });
  const otherEditor = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Otto', lastName: 'Editor' });

  async function author(firstName: string, community = alpha): Promise<TestUser> {
    const user = await createMember(db, community, { firstName, lastName: 'Writer' });
    const d = community === alpha ? deps : betaDeps;
    await acceptProductAgreement(d, user.id);
    await saveByline(d, user.id, `<p>${firstName} writes.</p>`);
    return user;
  }
  async function submitted(user: TestUser, title: string, content = words(500)) {
    const a = await autosaveRevision(deps, user.id, { title, content });
    await submitForReview(deps, user.id, { articleId: a.id, title, content, agreed: true });
    clock.advance(60_000);
    return a.id;
  }
  const revisionCount = async (articleId: number) =>
    Number((await db.selectFrom('article_revisions').select((eb) => eb.fn.countAll<number>().as('n')).where('article_id', '=', articleId).executeTakeFirstOrThrow()).n);

  const grace = await author('Grace');
  const graceArticle = await submitted(grace, 'Grace, "the" writer');
  const alan = await author('@Alan');
  const alanDraft = (await autosaveRevision(deps, alan.id, { title: '=HYPERLINK("http://evil.example","click")', content: words(20) })).id;
  clock.advance(60_000);
  const bea = await author('Bea', beta);
  const betaArticle = (await autosaveRevision(betaDeps, bea.id, { title: 'Beta secret', content: words(10) })).id;

  const b = new FormBrowser(app);
  b.cookies.set('auth', (await signIn(app, editor, alpha, ['ADMIN', 'MEMBER'])).token);
  const page = (id: number) => `/admin/articles/${id}`;

  await t.test('the member filter: a member’s name on the board shows only their articles, and the export follows', async (t) => {
    const board = await b.get('/admin/articles');
    t.match(board.body, `href="/admin/articles?author=${grace.id}"`, "the member's name links to the filter");
    const only = await b.get(`/admin/articles?author=${grace.id}`);
    t.match(only.body, 'Only the articles of Grace Writer.');
    t.match(only.body, 'Grace, &quot;the&quot; writer');
    t.notMatch(only.body, 'HYPERLINK', "another member's draft is not listed");
    t.match(only.body, new RegExp(`<input type="hidden" name="author" value="${grace.id}"/>`), 'the other filters keep it');
    const csv = await b.get(`/admin/articles/export.csv?author=${grace.id}`);
    t.match(csv.body, 'Grace');
    t.notMatch(csv.body, 'HYPERLINK');
    const other = await b.get(`/admin/articles?author=${bea.id}`);
    t.notMatch(other.body, 'Beta secret', "a member of another community shows nothing of theirs");
  });

  await t.test('members are refused every new route', async (t) => {
    const member = await createMember(db, alpha);
    const m = new FormBrowser(app);
    m.cookies.set('auth', (await signIn(app, member, alpha)).token);
    // Pages send members to the app login with a way back (spec section 2); form posts are refused.
    const toLogin = (path: string) => `/login?redirect=${encodeURIComponent(path)}`;
    t.equal((await m.get('/admin/articles/export.csv')).headers.location, toLogin('/admin/articles/export.csv'), 'export');
    t.equal((await m.get('/admin/articles/blackouts')).headers.location, toLogin('/admin/articles/blackouts'), 'blackout list');
    t.equal((await m.get(`${page(graceArticle)}?from=1&to=2`)).headers.location, toLogin(`${page(graceArticle)}?from=1&to=2`), 'article page with a diff');
    t.equal((await m.post(`${page(graceArticle)}/text`, { title: 'Mine now', body: 'x' }, '/')).statusCode, 403, 'text');
    t.equal((await m.post(`${page(graceArticle)}/feedback`, { feedback: 'hello' }, '/')).statusCode, 403, 'feedback');
    t.equal((await m.post('/admin/articles/blackouts', { startsOn: '2026-12-01', endsBefore: '2026-12-02' }, '/')).statusCode, 403, 'add window');
    t.equal((await m.post('/admin/articles/blackouts/1/delete', {}, '/')).statusCode, 403, 'delete window');
    t.equal(await revisionCount(graceArticle), 1);
    t.equal((await db.selectFrom('blackout_windows').selectAll().execute()).length, 0);
    t.equal((await db.selectFrom('article_feedback').selectAll().execute()).length, 0);
  });

  await t.test('a form post without the CSRF token is refused and changes nothing', async (t) => {
    await b.get('/admin/articles'); // the _csrf cookie is set, the token is missing from the body
    for (const [url, payload] of [
      [`${page(graceArticle)}/text`, 'title=Hijacked&body=gone'],
      [`${page(graceArticle)}/feedback`, 'feedback=spam'],
      ['/admin/articles/blackouts', 'startsOn=2026-12-01&endsBefore=2026-12-02'],
    ] as const) {
      const res = await app.inject({ method: 'POST', url, headers: { accept: 'text/html', cookie: b.jar, 'content-type': 'application/x-www-form-urlencoded' }, payload });
      t.equal(res.statusCode, 403, url);
    }
    t.equal(await revisionCount(graceArticle), 1);
    t.equal((await db.selectFrom('blackout_windows').selectAll().execute()).length, 0);
    t.equal((await db.selectFrom('article_feedback').selectAll().execute()).length, 0);
  });

  await t.test('an editor edits the text: a new revision, and the difference between the two', async (t) => {
    const before = await b.get(page(graceArticle));
    t.equal(before.statusCode, 200);
    t.match(before.body, 'There is only one revision so far');
    t.match(tag(before.body, 'text-title'), 'value="Grace, &quot;the&quot; writer"');
    t.match(before.body, `>${plainWords(500)}</textarea>`, 'the body as plain paragraphs');

    const edited = `${plainWords(500).replace('w1 ', 'sharper ')}\n\nA new closing paragraph.`;
    const saved = await b.post(`${page(graceArticle)}/text`, { title: 'Grace, the writer', body: edited }, page(graceArticle));
    t.equal(saved.statusCode, 303);
    t.equal(saved.headers.location, `${page(graceArticle)}?done=text#text`);
    t.equal(await revisionCount(graceArticle), 2, 'a new revision is recorded');
    const current = await db
      .selectFrom('articles')
      .innerJoin('article_revisions', 'article_revisions.id', 'articles.current_revision_id')
      .select(['article_revisions.title', 'article_revisions.content', 'article_revisions.author_id'])
      .where('articles.id', '=', graceArticle)
      .executeTakeFirstOrThrow();
    t.equal(current.title, 'Grace, the writer');
    t.equal(current.author_id, editor.id, 'the revision is the editor’s');
    t.match(current.content, /<\/p><p>A new closing paragraph\.<\/p>$/);

    const after = await b.get(`${page(graceArticle)}?done=text`);
    t.match(after.body, 'Text saved as a new revision.');
    t.match(after.body, 'Differences between revisions');
    t.match(after.body, /<del><span class="visually-hidden">\[removed: <\/span>w1<span class="visually-hidden">\]<\/span><\/del>/);
    t.match(after.body, /<ins><span class="visually-hidden">\[added: <\/span>sharper<span class="visually-hidden">\]<\/span><\/ins>/);
    t.match(after.body, /<ins><span class="visually-hidden">\[added: <\/span>A new closing paragraph\.<span/);
    t.match(after.body, /<del><span class="visually-hidden">\[removed: <\/span>&quot;<span class="visually-hidden">\]<\/span><\/del>the/, 'the title is compared too, escaped');
    t.match(after.body, /class="diff-legend">Key: <ins>added words<\/ins> <del>removed words<\/del>/);
    t.match(after.body, '5 words added, 1 word removed.');

    const [r1, r2] = (await db.selectFrom('article_revisions').select('id').where('article_id', '=', graceArticle).orderBy('id').execute()).map((r) => r.id);
    const reversed = await b.get(`${page(graceArticle)}?from=${r2}&to=${r1}`);
    t.match(reversed.body, /<ins><span class="visually-hidden">\[added: <\/span>w1<span/, 'any two revisions, either way round');
    t.match(reversed.body, new RegExp(`<select id="diff-from" name="from"><option value="${r1}">Revision 1[^<]*</option><option value="${r2}" selected="">Revision 2`));
    t.match((await b.get(`${page(graceArticle)}?from=${r1}&to=${r1}`)).body, 'You chose the same revision twice');
    t.match((await b.get(`${page(graceArticle)}?from=${betaArticle}&to=abc`)).body, /\[removed: <\/span>w1/, 'unknown ids fall back to the default pair');
  });

  await t.test('a text saved over a revision that changed since the page was opened comes back to compare', async (t) => {
    const opened = await b.get(page(graceArticle));
    const base = /name="revisionId" value="(\d+)"/.exec(opened.body)?.[1];
    t.ok(base, 'the form names the revision it corrects');
    // Another editor saves meanwhile (a new revision of theirs).
    await editArticleText(deps, { userId: otherEditor.id, isStaff: true }, { articleId: graceArticle, title: 'Grace, the writer', content: `<p>${plainWords(501)}</p>` });
    const count = await revisionCount(graceArticle);
    const stale = await b.post(`${page(graceArticle)}/text`, { title: 'Mine', body: 'My correction.', revisionId: base! }, page(graceArticle));
    t.equal(stale.statusCode, 400);
    t.match(stale.body, 'The text changed since you opened this page');
    t.match(stale.body, 'value="Mine"', 'the typed title is kept');
    t.match(stale.body, '>My correction.</textarea>', 'and the typed body');
    t.equal(await revisionCount(graceArticle), count, 'nothing was replaced');
    const now = /name="revisionId" value="(\d+)"/.exec(stale.body)![1]!;
    t.not(now, base, 'the form now goes on from the current revision');
    t.equal((await b.post(`${page(graceArticle)}/text`, { title: 'Grace, the writer', body: plainWords(500), revisionId: now }, page(graceArticle))).statusCode, 303, 'saved on purpose');
  });

  await t.test('the rich-text form (with JavaScript) posts content: the formatting is kept and cleaned', async (t) => {
    const content = `<h2>Opening</h2><p><strong>Bold</strong> and <a href="https://grace.example">a link</a> <img src=x onerror=alert(1)></p><ul><li><p>point</p></li></ul><p>${plainWords(498)}</p>`; // 504 words, as before
    const page1 = await b.get(page(graceArticle));
    t.match(page1.body, 'data-island="RichTextForm"');
    const saved = await b.post(`${page(graceArticle)}/text`, { title: 'Grace, the writer', content }, page(graceArticle));
    t.equal(saved.statusCode, 303);
    const row = await db
      .selectFrom('articles')
      .innerJoin('article_revisions', 'article_revisions.id', 'articles.current_revision_id')
      .select(['article_revisions.content'])
      .where('articles.id', '=', graceArticle)
      .executeTakeFirstOrThrow();
    t.match(row.content, '<h2>Opening</h2><p><strong>Bold</strong> and <a href="https://grace.example">a link</a> </p><ul><li><p>point</p></li></ul>');
    t.notMatch(row.content, /<img|onerror/);
    const refused = await b.post(`${page(graceArticle)}/text`, { title: '', content: '<p><em>kept</em> words</p>' }, page(graceArticle));
    t.equal(refused.statusCode, 400);
    t.match(refused.body, '&lt;p&gt;&lt;em&gt;kept&lt;/em&gt; words&lt;/p&gt;', 'a refused save comes back with the rich text for the island');
  });

  await t.test('a bad title comes back with the typed text, the message by the field, and status 400', async (t) => {
    const typedBody = 'Kept paragraph one.\n\nKept <paragraph> two & more.';
    const revisionsBefore = await revisionCount(graceArticle);
    const tooLong = await b.post(`${page(graceArticle)}/text`, { title: 'x'.repeat(255), body: typedBody }, page(graceArticle));
    t.equal(tooLong.statusCode, 400);
    const input = tag(tooLong.body, 'text-title');
    t.match(input, 'aria-invalid="true"');
    t.match(input, 'aria-describedby="text-title-error"');
    t.match(input, `value="${'x'.repeat(255)}"`);
    t.match(tooLong.body, `<p class="field-error" id="text-title-error">${app.t('articles.errors.titleTooLong')}</p>`);
    t.match(tooLong.body, '>Kept paragraph one.\n\nKept &lt;paragraph&gt; two &amp; more.</textarea>', 'nothing typed is lost');
    const empty = await b.post(`${page(graceArticle)}/text`, { title: '  ', body: '' }, page(graceArticle));
    t.equal(empty.statusCode, 400);
    t.match(empty.body, app.t('articles.errors.titleRequired'));
    t.match(empty.body, 'Please enter the body of the article.');
    t.equal(await revisionCount(graceArticle), revisionsBefore, 'no revision from a refused edit');
  });

  await t.test('the text form is offered only when the service allows it', async (t) => {
    const draftPage = await b.get(page(alanDraft));
    t.notMatch(draftPage.body, `action="${page(alanDraft)}/text"`);
    t.match(draftPage.body, 'The editors can change the text while the article is with them, up to proofreading');
    const refused = await b.post(`${page(alanDraft)}/text`, { title: 'Editor title', body: 'Editor body' }, page(alanDraft));
    t.equal(refused.statusCode, 409);
    t.match(refused.body, app.t('articles.errors.notEditable'));
    t.match(refused.body, 'value="Editor title"', 'the typed text is kept');
    t.equal((await b.post(`${page(betaArticle)}/text`, { title: 'x', body: 'y' }, page(alanDraft))).statusCode, 404, 'another community’s article');
  });

  await t.test('feedback from the board: sent, shown, refused when empty, paged', async (t) => {
    const sent = await b.post(`${page(graceArticle)}/feedback`, { feedback: 'Tighten the intro, <b>please</b>.\nThanks' }, page(graceArticle));
    t.equal(sent.statusCode, 303);
    t.equal(sent.headers.location, `${page(graceArticle)}?done=feedback#feedback`);
    const shown = await b.get(`${page(graceArticle)}?done=feedback`);
    t.match(shown.body, 'Feedback sent.');
    t.match(shown.body, /Edna Editor · [^<]+<\/p><p class="remark-text">Tighten the intro, &lt;b&gt;please&lt;\/b&gt;.\nThanks<\/p>/);

    const empty = await b.post(`${page(graceArticle)}/feedback`, { feedback: '   ' }, page(graceArticle));
    t.equal(empty.statusCode, 400);
    t.match(empty.body, `<p class="field-error" id="feedback-text-error">${app.t('articles.errors.feedbackEmpty')}</p>`);
    t.match(empty.body, /<textarea id="feedback-text" name="feedback"[^>]*aria-invalid="true" aria-describedby="feedback-text-error">/);
    const long = 'y'.repeat(5001);
    const tooLong = await b.post(`${page(graceArticle)}/feedback`, { feedback: long }, page(graceArticle));
    t.equal(tooLong.statusCode, 400);
    t.match(tooLong.body, `>${long}</textarea>`, 'what was typed is kept');
    t.equal((await db.selectFrom('article_feedback').selectAll().execute()).length, 1);

    for (let i = 1; i <= 24; i++) await createFeedback(deps, { userId: grace.id, isStaff: false }, { articleId: graceArticle, feedback: `Reply number ${i}.` });
    const newest = await b.get(page(graceArticle));
    t.equal([...newest.body.matchAll(/class="remark-text"/g)].length, 20, 'the newest 20');
    t.match(newest.body, 'Reply number 24.');
    t.notMatch(newest.body, 'Reply number 4.<');
    const older = /href="(\/admin\/articles\/\d+\?before=\d+#feedback)">Older feedback</.exec(newest.body)?.[1];
    t.ok(older, 'a link to older feedback');
    const olderPage = await b.get(older!.replace('#feedback', ''));
    t.match(olderPage.body, 'Tighten the intro');
    t.match(olderPage.body, 'Reply number 4.<');
    t.notMatch(olderPage.body, 'Reply number 5.<');
    t.match(olderPage.body, '>Newest feedback</a>');
    t.notMatch(olderPage.body, 'Older feedback');
  });

  await t.test('CSV export: the board’s rows with its filters, quoted, formula-safe, this community only', async (t) => {
    const res = await b.get('/admin/articles/export.csv');
    t.equal(res.statusCode, 200);
    t.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    t.equal(res.headers['content-disposition'], 'attachment; filename="articles-alpha-2026-11-21.csv"');
    t.ok(res.body.startsWith('\uFEFF'), 'a byte-order mark for spreadsheet programs');
    const lines = res.body.slice(1).split('\r\n');
    t.equal(lines.pop(), '', 'every line ends in CRLF');
    t.equal(lines[0], 'ID,Title,Status,Author name,Author email,Editor name,Word count,Created,Status updated,Scheduled date,Published date,Article URL');
    t.equal(lines.length, 3, 'a header and both of this community’s articles');
    t.notMatch(res.body, 'Beta secret');
    t.notMatch(res.body, bea.email);
    const graceLine = lines.find((l) => l.startsWith(`${graceArticle},`))!;
    t.equal(graceLine, `${graceArticle},"Grace, the writer",SUBMITTED_FOR_REVIEW,Grace Writer,${grace.email},,504,2026-11-21T12:00:00.000Z,2026-11-21T12:00:00.000Z,,,`);
    const alanLine = lines.find((l) => l.startsWith(`${alanDraft},`))!;
    t.equal(alanLine, `${alanDraft},"'=HYPERLINK(""http://evil.example"",""click"")",DRAFT,'@Alan Writer,${alan.email},,20,2026-11-21T12:01:00.000Z,2026-11-21T12:01:00.000Z,,,`);
    t.ok(lines.indexOf(alanLine) < lines.indexOf(graceLine), 'newest change first, as on the board');

    const drafts = (await b.get('/admin/articles/export.csv?status=DRAFT')).body;
    t.match(drafts, 'HYPERLINK');
    t.notMatch(drafts, 'Grace Writer');
    const search = (await b.get('/admin/articles/export.csv?q=grace')).body;
    t.match(search, 'Grace Writer');
    t.notMatch(search, 'HYPERLINK');
    const oldest = (await b.get('/admin/articles/export.csv?sort=oldest')).body.split('\r\n');
    t.ok(oldest[1]!.startsWith(`${graceArticle},`), 'oldest first when asked');
    t.equal((await b.get(`/admin/articles/export.csv?editor=${editor.id}`)).body.split('\r\n').length, 2, 'no article has this editor: the header alone');

    const board = await b.get('/admin/articles?status=DRAFT&q=alan');
    t.match(board.body, '<a href="/admin/articles/export.csv?status=DRAFT&amp;q=alan&amp;sort=newest" download="">Export CSV</a>', 'the link carries the filters');
    t.match(board.body, '<a href="/admin/articles/blackouts">Blackout windows</a>');
  });

  await t.test('blackout windows: listed, validated, added, enforced, deleted', async (t) => {
    const empty = await b.get('/admin/articles/blackouts');
    t.equal(empty.statusCode, 200);
    t.match(empty.body, '<h1>Blackout windows</h1>');
    t.match(empty.body, 'No blackout windows.');

    const missing = await b.post('/admin/articles/blackouts', { startsOn: '', endsBefore: '' }, '/admin/articles/blackouts');
    t.equal(missing.statusCode, 400);
    t.match(missing.body, '<p class="field-error" id="bw-startsOn-error">Please enter a date.</p>');
    t.match(missing.body, '<p class="field-error" id="bw-endsBefore-error">Please enter a date.</p>');
    const backwards = await b.post('/admin/articles/blackouts', { startsOn: '2026-11-25', endsBefore: '2026-11-20' }, '/admin/articles/blackouts');
    t.equal(backwards.statusCode, 400);
    t.match(backwards.body, '<p class="field-error" id="bw-endsBefore-error">The end date must be after the start date.</p>');
    t.match(backwards.body, 'value="2026-11-25"', 'typed values are kept');
    t.match(backwards.body, 'value="2026-11-20"');
    const unreal = await b.post('/admin/articles/blackouts', { startsOn: '2026-02-30', endsBefore: 'soon' }, '/admin/articles/blackouts');
    t.equal(unreal.statusCode, 400);
    t.equal([...unreal.body.matchAll(/Please enter a real date as YYYY-MM-DD\./g)].length, 2);
    t.equal((await db.selectFrom('blackout_windows').selectAll().execute()).length, 0);

    const added = await b.post('/admin/articles/blackouts', { startsOn: '2026-11-20', endsBefore: '2026-11-23' }, '/admin/articles/blackouts');
    t.equal(added.statusCode, 303);
    t.equal(added.headers.location, '/admin/articles/blackouts?done=added');
    const listed = await b.get('/admin/articles/blackouts?done=added');
    t.match(listed.body, 'Window added.');
    // Dates show like 'Mon D, YYYY' (spec section 9), never the stored ISO day.
    t.match(listed.body, /<th scope="row"><time dateTime="2026-11-20">Nov 20, 2026<\/time><\/th><td><time dateTime="2026-11-23">Nov 23, 2026<\/time><\/td><td>In force now<\/td>/);
    t.notMatch(listed.body, />2026-11-20</, 'no raw ISO date is shown');
    const window = await db.selectFrom('blackout_windows').select(['id', 'community_id']).executeTakeFirstOrThrow();
    t.equal(window.community_id, alpha.id);
    t.match(listed.body, `aria-label="Delete the window from Nov 20, 2026 to Nov 23, 2026"`);

    // The new window blocks submission while the clock is inside it.
    const ada = await author('Ada');
    const draft = await autosaveRevision(deps, ada.id, { title: 'Ada’s article', content: words(500) });
    await t.rejects(submitForReview(deps, ada.id, { articleId: draft.id, title: 'Ada’s article', content: words(500), agreed: true }), { code: 'Articles.Blackout' });
    // ...and only in its community.
    const bDraft = await autosaveRevision(betaDeps, bea.id, { articleId: betaArticle, title: 'Beta secret', content: words(500) });
    await t.resolves(submitForReview(betaDeps, bea.id, { articleId: bDraft.id, title: 'Beta secret', content: words(500), agreed: true }));

    const betaWindow = await db.insertInto('blackout_windows').values({ community_id: beta.id, starts_on: '2027-01-01', ends_before: '2027-01-05' }).returning('id').executeTakeFirstOrThrow();
    t.notMatch((await b.get('/admin/articles/blackouts')).body, 'Jan 1, 2027', 'another community’s windows are not listed');
    t.equal((await b.post(`/admin/articles/blackouts/${betaWindow.id}/delete`, {}, '/admin/articles/blackouts')).statusCode, 404, 'nor deleted');
    t.equal((await db.selectFrom('blackout_windows').selectAll().where('id', '=', betaWindow.id).execute()).length, 1);

    const deleted = await b.post(`/admin/articles/blackouts/${window.id}/delete`, {}, '/admin/articles/blackouts');
    t.equal(deleted.statusCode, 303);
    t.equal(deleted.headers.location, '/admin/articles/blackouts?done=deleted');
    const gone = await b.get('/admin/articles/blackouts?done=deleted');
    t.match(gone.body, 'Window deleted.');
    t.match(gone.body, 'No blackout windows.');
    await t.resolves(submitForReview(deps, ada.id, { articleId: draft.id, title: 'Ada’s article', content: words(500), agreed: true }), 'submitting works again');
  });
});
