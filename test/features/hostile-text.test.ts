import t from 'tap';
import { z } from 'zod';
import { AppError, asClientError, isAppError } from '#src/core/errors.ts';
import { ensureText, hasForbiddenCharacters, textField } from '#src/core/fields.ts';
import { acceptProductAgreement, saveByline } from '#src/features/articles/byline-terms.ts';
import { autosaveRevision, submitForReview } from '#src/features/articles/writing.ts';
import { countWords, plainText } from '#src/lib/plain-text.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { GOOD_PASSWORD, setPassword } from '#test/helpers/auth.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';

const MESSAGE = "This field contains characters that can&#x27;t be used, such as invisible control characters. Remove them and try again.";
/** The opening tag of the element with this id (attribute order is React's business). */
const tag = (html: string, id: string) => new RegExp(`<[a-z]+ id="${id}"[^>]*>`).exec(html)?.[0] ?? '';
const words = (n: number) => `<p>${Array.from({ length: n }, (_, i) => `word${i}`).join(' ')}</p>`;

t.test('the one text field refuses NUL, the other C0 controls and half characters', async (t) => {
  t.notOk(hasForbiddenCharacters('Plain words, accents é and emoji 😀'), 'ordinary text passes');
  t.ok(hasForbiddenCharacters('a\u0000b'), 'NUL');
  t.ok(hasForbiddenCharacters('bell\u0007'), 'another C0 control');
  t.ok(hasForbiddenCharacters('\uD800'), 'a lone high surrogate');
  t.ok(hasForbiddenCharacters('x\uDC00'), 'a lone low surrogate');
  t.ok(hasForbiddenCharacters('two\nlines'), 'a line break in a one-line field');
  t.notOk(hasForbiddenCharacters('two\r\nlines\tand a tab', true), 'line breaks and tabs in multi-line text');
  t.ok(hasForbiddenCharacters('two\nlines\u0000', true), 'but never NUL');

  const parsed = textField({ max: 10 }).safeParse('a\u0000');
  t.notOk(parsed.success);
  t.equal(parsed.error?.issues[0]?.message, 'errors.client.invalidCharacters', 'the zod field names the locale key');
  t.notOk(textField({ max: 3 }).safeParse('abcd').success, 'and keeps its length cap');
  t.ok(z.object({ note: textField({ multiline: true }) }).safeParse({ note: 'one\ntwo' }).success);

  const error = t.throws(() => ensureText({ title: 'ok\u0000', content: '<p>fine</p>\n', other: 12 }, ['content'])) as AppError;
  t.equal(error.code, 150, 'catalogue code 150');
  t.equal(error.status, 400);
  t.same(Object.keys(error.fields ?? {}), ['title'], 'naming the field that holds the character, only it');
});

t.test('an out-of-range character reference is counted, never thrown', async (t) => {
  t.equal(countWords('<p>&#99999999; is one word</p>'), 4, 'beyond U+10FFFF');
  t.equal(countWords('<p>&#x110000;&#xD800; &#0; &#99999999999999999999999;</p>'), 3, 'beyond Unicode, a surrogate, zero, past the safe integers');
  t.equal(plainText('&#99999999;&#0;&#xD800;'), '\uFFFD\uFFFD\uFFFD', 'each read as the replacement character, as browsers do');
  t.equal(plainText('&#233;&#x1F600;'), 'é😀', 'real references still decode');
});

t.test('should a NUL ever reach the database, it is the request’s fault (400), not ours', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha' });
  const refused = await db
    .updateTable('communities')
    .set({ name: 'a\u0000b' })
    .where('id', '=', alpha.id)
    .execute()
    .then(() => null, (e: unknown) => e);
  t.ok(refused, 'the database refuses the text');
  const mapped = asClientError(refused);
  t.equal(mapped?.code, 150, 'which the error handlers answer with code 150');
  t.equal(mapped?.status, 400);
  t.equal(asClientError(new Error('boom')), null, 'other failures stay what they are');
});

t.test('hostile text through the forms, REST and GraphQL', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const { app } = await startApp(t, db, { clock });
  const deps = { db, clock, community: alpha, t: app.t, notifier: app.notifications };
  const member = await createMember(db, alpha, { firstName: 'Mona', lastName: 'Member' });
  const admin = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'] });
  await setPassword(db, admin.id);
  await acceptProductAgreement(deps, member.id);
  await saveByline(deps, member.id, '<p>Mona writes.</p>');
  const draft = await autosaveRevision(deps, member.id, { title: 'Kept title', content: '<p>Kept body.</p>' });

  const m = new FormBrowser(app);
  m.cookies.set('auth', (await signIn(app, member, alpha)).token);
  const a = new FormBrowser(app);
  a.cookies.set('auth', (await signIn(app, admin, alpha, ['ADMIN', 'MEMBER'])).token);
  const storedTitle = async () => (await db.selectFrom('article_revisions').select('title').where('article_id', '=', draft.id).orderBy('id', 'desc').executeTakeFirstOrThrow()).title;

  await t.test('a NUL in the editor’s title: the form comes back with the message by the title, and the text typed', async (t) => {
    const res = await m.post('/articles/edit', { action: 'save', articleId: String(draft.id), title: 'My title\u0000 here', body: 'My body words stay.' }, '/articles/edit');
    t.equal(res.statusCode, 400);
    t.match(res.body, MESSAGE, 'the message is on the page');
    t.match(tag(res.body, 'title'), /aria-invalid="true"/, 'next to the title field');
    t.match(res.body, 'My body words stay.', 'the body typed is kept');
    t.match(res.body, 'My title', 'and the title');
    t.equal(await storedTitle(), 'Kept title', 'nothing was saved');
  });

  await t.test('a character reference out of range in the body is saved and counted, not a 500', async (t) => {
    const res = await m.post('/articles/edit', { action: 'save', articleId: String(draft.id), title: 'References', body: 'One &#99999999; two &#0; three' }, '/articles/edit');
    t.equal(res.statusCode, 303);
    const saved = await db.selectFrom('article_revisions').select(['word_count']).where('article_id', '=', draft.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    t.equal(saved.word_count, 5);
  });

  await t.test('a control character in the byline comes back with the message, the byline typed kept', async (t) => {
    const res = await m.post('/articles/settings', { byline: 'Mona\u0007 rings the bell.' }, '/articles/settings');
    t.equal(res.statusCode, 400);
    t.match(res.body, MESSAGE);
    t.match(res.body, 'rings the bell.');
  });

  await t.test('the board search: the message next to the search field, the words kept; the CSV export refuses them', async (t) => {
    const res = await a.get(`/admin/articles?q=${encodeURIComponent('shop\u0000floor')}`);
    t.equal(res.statusCode, 400);
    t.match(tag(res.body, 'f-q'), /value="shop\u0000floor"/, 'the words typed are kept');
    t.match(tag(res.body, 'f-q'), /aria-invalid="true" aria-describedby="f-q-error"/);
    t.match(res.body, new RegExp(`<p class="field-error" id="f-q-error">${MESSAGE}</p>`));
    const csv = await a.get(`/admin/articles/export.csv?q=${encodeURIComponent('shop\u0000floor')}`);
    t.equal(csv.statusCode, 400, 'a 400, not a 500');
    t.match(csv.body, MESSAGE);
  });

  await t.test('the editors’ move note: the message by the note, what was typed kept', async (t) => {
    const writer = await createMember(db, alpha);
    await acceptProductAgreement(deps, writer.id);
    await saveByline(deps, writer.id, '<p>Writes.</p>');
    const article = await autosaveRevision(deps, writer.id, { title: 'To move', content: words(500) });
    await submitForReview(deps, writer.id, { articleId: article.id, title: 'To move', content: words(500), agreed: true });
    const res = await a.post(`/admin/articles/${article.id}/move`, { to: 'FIRST_ROUND_EDIT', note: 'Over to \u0000you' }, `/admin/articles/${article.id}`);
    t.equal(res.statusCode, 400);
    t.match(tag(res.body, 'note'), /value="Over to \u0000you"/, 'the note typed is kept');
    t.match(tag(res.body, 'note'), /aria-invalid="true" aria-describedby="note-error"/);
    t.match(res.body, new RegExp(`<p class="field-error" id="note-error">${MESSAGE}</p>`));
    const status = await db.selectFrom('articles').select('status').where('id', '=', article.id).executeTakeFirstOrThrow();
    t.equal(status.status, 'SUBMITTED_FOR_REVIEW', 'the article did not move');
  });

  await t.test('the admin sign-in: a control character as the community is a message by the community', async (t) => {
    const v = new FormBrowser(app, '203.0.113.99');
    const res = await v.post('/login-admin', { email: admin.email, password: GOOD_PASSWORD, community: 'alpha\u0000' }, '/login-admin');
    t.equal(res.statusCode, 400);
    t.match(res.body, MESSAGE);
    t.match(res.body, admin.email, 'the email typed is kept');
  });

  await t.test('REST: code 150 naming the field', async (t) => {
    const { token, cookie } = await csrfFor(app);
    const post = (url: string, payload: object) =>
      app.inject({ method: 'POST', url, headers: { cookie, 'x-csrf-token': token, 'content-type': 'application/json' }, payload });
    const login = await post('/rest/login', { username: admin.email, password: GOOD_PASSWORD, targetCommunity: 'alpha\u0000' });
    t.equal(login.statusCode, 400);
    t.same(login.json().error, { code: '150', message: MESSAGE.replace('&#x27;', "'"), fields: { targetCommunity: { code: 150, key: 'errors.client.invalidCharacters' } } });
    const strategies = await post('/rest/login/auth-strategies', { to: '\uD800@example.com' });
    t.equal(strategies.statusCode, 400);
    t.equal(strategies.json().error.code, '150');
    const shape = await post('/rest/login/auth-strategies', { to: 12 });
    t.equal(shape.json().error.code, '900', 'a wrong shape is still 900');
  });

  await t.test('GraphQL: extensions.code 150 naming the argument', async (t) => {
    const gql = async (path: string, who: FormBrowser, query: string, variables: object) => {
      const { token, cookie } = await csrfFor(app, who.jar);
      return app.inject({ method: 'POST', url: path, headers: { cookie, 'x-csrf-token': token, 'content-type': 'application/json' }, payload: { query, variables } });
    };
    const save = await gql('/graphql', m, 'mutation ($id: ID, $title: String!, $content: String!) { articleAutoSaveRevision(articleId: $id, title: $title, content: $content) { id } }', {
      id: String(draft.id),
      title: 'fine',
      content: '<p>a\u0000b</p>',
    });
    t.equal(save.statusCode, 400);
    t.match(save.json().errors[0], { message: MESSAGE.replace('&#x27;', "'"), extensions: { code: '150', fields: { content: { code: 150 } } } });
    const board = await gql('/graphqlAdmin', a, 'query ($q: String) { articleBoard(search: $q) { total } }', { q: 'x\u0000' });
    t.match(board.json().errors[0], { extensions: { code: '150', fields: { search: { code: 150 } } } });
    const byline = await gql('/graphql', m, 'mutation ($b: String!) { articleUserByline(byline: $b) { id } }', { b: 'ok\u001b[31m' });
    t.match(byline.json().errors[0], { extensions: { code: '150', fields: { byline: { code: 150 } } } });

    for (const query of [123, { a: 1 }, ['{ __typename }'], true]) {
      const res = await app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json' }, payload: { query } });
      t.equal(res.statusCode, 400, `a query that is not text (${JSON.stringify(query)}) is refused, not a crash`);
      t.notMatch(res.body, 'UnknownError');
    }
  });

  t.ok(isAppError(new AppError(150)), 'code 150 is in the catalogue');
});
