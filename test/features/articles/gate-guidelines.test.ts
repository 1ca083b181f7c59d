import t from 'tap';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';

/** The page as a reader sees it: without the islands' props (which repeat their texts). */
const shown = (html: string) => html.replace(/ data-props="[^"]*"/g, '');

t.test('guidelines=true rides through the agreement gate', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', article_terms: 'You keep the rights.', article_guidelines: 'Write from your own experience.' });
  const { app } = await startApp(t, db, { clock: testClock() });
  const author = await createMember(db, alpha, { firstName: 'Ada' });
  const b = new FormBrowser(app);
  b.cookies.set('auth', (await signIn(app, author, alpha)).token);

  const toGate = await b.get('/articles/edit?guidelines=true');
  t.equal(toGate.statusCode, 303);
  t.equal(toGate.headers.location, '/articles?guidelines=true', 'the editor sends to the gate keeping guidelines=true');
  const gate = await b.get('/articles?guidelines=true');
  t.match(shown(gate.body), 'Before you write');
  t.match(shown(gate.body), /<input type="hidden" name="guidelines" value="true"\/>/, 'the gate form carries it');

  const unticked = await b.post('/articles/agreement', { guidelines: 'true' }, '/articles?guidelines=true');
  t.equal(unticked.statusCode, 400);
  t.match(shown(unticked.body), /name="guidelines" value="true"/, 'an unticked box keeps it too');

  const accepted = await b.post('/articles/agreement', { acknowledge: 'on', guidelines: 'true' }, '/articles?guidelines=true');
  t.equal(accepted.headers.location, '/articles/edit?guidelines=true', 'accepting goes on to the editor with guidelines=true');
  const editor = await b.get('/articles/edit?guidelines=true');
  t.match(shown(editor.body), /<details class="panel" id="editor-guidelines" open="">/, 'the editor opens its guidelines');
});

t.test('without guidelines=true the gate leads to the plain editor', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', article_terms: 'You keep the rights.' });
  const { app } = await startApp(t, db, { clock: testClock() });
  const author = await createMember(db, alpha, { firstName: 'Ada' });
  const b = new FormBrowser(app);
  b.cookies.set('auth', (await signIn(app, author, alpha)).token);
  t.equal((await b.get('/articles/edit')).headers.location, '/articles');
  t.notMatch(shown((await b.get('/articles')).body), 'name="guidelines"');
  const accepted = await b.post('/articles/agreement', { acknowledge: 'on' }, '/articles');
  t.equal(accepted.headers.location, '/articles/edit');
});
