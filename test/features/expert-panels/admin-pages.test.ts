import t from 'tap';
import { setupDatabase, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';
import { startEpApp, submitAs } from './admin-fixtures.ts';

t.test('the editors’ expert panels pages, JavaScript off', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const harbor = await createCommunity(db, { code: 'harbor', hosts: ['harbor.test'] });
  const { app } = await startEpApp(t, db, clock);
  const boss = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Bea', lastName: 'Boss' });
  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const harborBoss = await createMember(db, harbor, { roles: ['ADMIN', 'MEMBER'], firstName: 'Hal', lastName: 'Harbor' });

  const b = new FormBrowser(app);
  b.cookies.set('auth', (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token);
  const idFrom = (location: unknown, re: RegExp) => Number(re.exec(String(location))![1]);

  await t.test('a member who is not staff is refused the pages and the actions; a visitor is sent to sign in', async (t) => {
    const m = new FormBrowser(app, '203.0.113.41');
    m.cookies.set('auth', (await signIn(app, ada, alpha)).token);
    for (const url of ['/admin/expert-panels', '/admin/expert-panels/batches', '/admin/expert-panels/answers']) t.not((await m.get(url)).statusCode, 200, url);
    t.equal((await m.post('/admin/expert-panels/panels', { name: 'Sneaky', minWords: '1', maxWords: '10' }, '/')).statusCode, 403);
    t.equal(await db.selectFrom('ep_panels').select('id').executeTakeFirst(), undefined, 'nothing was made');
    t.not((await new FormBrowser(app, '203.0.113.42').get('/admin/expert-panels')).statusCode, 200);
  });

  let panelId = 0;
  await t.test('an editor creates a panel: errors beside the fields with what was typed kept, then the panel', async (t) => {
    const page = await b.get('/admin/expert-panels');
    t.equal(page.statusCode, 200);
    t.match(page.body, 'href="/admin/expert-panels/roundups"', 'the sub-navigation links to the roundups');
    t.match(page.body, 'aria-current="page"');
    const bad = await b.post('/admin/expert-panels/panels', { name: 'Growth', topic: 'Scaling up', minWords: '300', maxWords: '100' }, '/admin/expert-panels');
    t.equal(bad.statusCode, 400);
    t.match(bad.body, 'The most words must be at least the fewest (300).');
    t.match(bad.body, 'value="Scaling up"', 'the typed topic is kept');
    const hostile = await b.post('/admin/expert-panels/panels', { name: 'Gr\u0001owth', minWords: '99999999999999', maxWords: '1' }, '/admin/expert-panels');
    t.ok(hostile.statusCode >= 400 && hostile.statusCode < 500, 'hostile input is a 4xx');
    const ok = await b.post('/admin/expert-panels/panels', { name: 'Growth', topic: 'Scaling up', minWords: '3', maxWords: '100' }, '/admin/expert-panels');
    t.equal(ok.statusCode, 303);
    panelId = idFrom(ok.headers.location, /panels\/(\d+)/);
    const added = await b.post(`/admin/expert-panels/panels/${panelId}/members`, { who: ada.email }, `/admin/expert-panels/panels/${panelId}`);
    t.equal(added.statusCode, 303);
    const detail = await b.get(String(added.headers.location));
    t.match(detail.body, 'The member was added to the panel.');
    t.match(detail.body, 'Ada Lovelace');
    const unknown = await b.post(`/admin/expert-panels/panels/${panelId}/members`, { who: 'nobody@example.com' }, `/admin/expert-panels/panels/${panelId}`);
    t.equal(unknown.statusCode, 400);
    t.match(unknown.body, 'No active member of this community has the email or username');
    t.match(unknown.body, 'value="nobody@example.com"');
  });

  let batchId = 0;
  let questionId = 0;
  await t.test('a batch with a question, sent; its question closed and reopened', async (t) => {
    const bad = await b.post('/admin/expert-panels/batches', { panelId: String(panelId), title: 'Winter', deadline: '2001-01-01T10:00' }, '/admin/expert-panels/batches');
    t.equal(bad.statusCode, 400);
    t.match(bad.body, 'The deadline must be in the future.');
    const ok = await b.post('/admin/expert-panels/batches', { panelId: String(panelId), title: 'Winter', deadline: '2026-12-20T10:00' }, '/admin/expert-panels/batches');
    t.equal(ok.statusCode, 303);
    batchId = idFrom(ok.headers.location, /batches\/(\d+)/);
    const q = await b.post(`/admin/expert-panels/batches/${batchId}/questions`, { title: 'How do you hire?', brief: 'Tell us **how**.\n\nAnd why.', guidelines: '- Be brief\n- Be kind' }, `/admin/expert-panels/batches/${batchId}`);
    t.equal(q.statusCode, 303);
    questionId = idFrom(q.headers.location, /question-(\d+)/);
    const page = await b.get(`/admin/expert-panels/batches/${batchId}`);
    t.match(page.body, '<strong>how</strong>');
    t.match(page.body, '<li>Be brief</li>');
    const sent = await b.post(`/admin/expert-panels/batches/${batchId}/send`, {}, `/admin/expert-panels/batches/${batchId}`);
    t.equal(sent.statusCode, 303);
    t.match((await b.get(String(sent.headers.location))).body, 'The batch was sent');
    const again = await b.post(`/admin/expert-panels/batches/${batchId}/send`, {}, `/admin/expert-panels/batches/${batchId}`);
    t.equal(again.statusCode, 409);
    t.match(again.body, 'This batch has been sent');
    t.equal((await db.selectFrom('ep_answers').select('id').where('question_id', '=', questionId).execute()).length, 1);
    t.equal((await b.post(`/admin/expert-panels/questions/${questionId}/close`, {}, `/admin/expert-panels/batches/${batchId}`)).statusCode, 303);
    t.match((await b.get(`/admin/expert-panels/batches/${batchId}`)).body, 'Reopen');
    t.equal((await b.post(`/admin/expert-panels/questions/${questionId}/reopen`, {}, `/admin/expert-panels/batches/${batchId}`)).statusCode, 303);
  });

  await t.test('an answer reviewed: start, edit, decline without a note refused (typed kept), accept', async (t) => {
    const answer = await db.selectFrom('ep_answers').select('id').where('question_id', '=', questionId).executeTakeFirstOrThrow();
    await submitAs(db, answer.id, '<p>We hire slowly and fire quickly, always.</p>', 7, clock.now());
    const board = await b.get(`/admin/expert-panels/answers?questionId=${questionId}`);
    t.equal(board.statusCode, 200);
    t.match(board.body, 'Ada Lovelace');
    t.match(board.body, 'In review');
    const url = `/admin/expert-panels/answers/${answer.id}`;
    t.equal((await b.post(`${url}/review`, {}, url)).statusCode, 303);
    t.match((await b.get(url)).body, 'Started');
    t.equal((await b.post(`${url}/edit`, { body: 'We hire **slowly**.' }, url)).statusCode, 303);
    const declined = await b.post(`${url}/decide`, { decision: 'decline', note: '' }, url);
    t.equal(declined.statusCode, 400);
    t.match(declined.body, 'Please say why the answer is declined');
    const accepted = await b.post(`${url}/decide`, { decision: 'accept', note: 'Thanks!' }, url);
    t.equal(accepted.statusCode, 303);
    const after = await b.get(String(accepted.headers.location));
    t.match(after.body, 'The answer was accepted and the member told.');
    t.match(after.body, '<strong>slowly</strong>');
    const csv = await b.get(`/admin/expert-panels/answers/export.csv?questionId=${questionId}`);
    t.equal(csv.statusCode, 200);
    t.match(csv.headers['content-type'], 'text/csv');
    t.match(csv.body, 'Ada Lovelace');
    t.match(csv.body, ada.email);
  });

  await t.test('hostile input to every form of the area is a 4xx or a redirect, never a 5xx', async (t) => {
    const draft = await b.post('/admin/expert-panels/batches', { panelId: String(panelId), title: 'Draft', deadline: '2026-12-21T10:00' }, '/admin/expert-panels/batches');
    const draftId = idFrom(draft.headers.location, /batches\/(\d+)/);
    const q = await b.post(`/admin/expert-panels/batches/${draftId}/questions`, { title: 'Draft question' }, `/admin/expert-panels/batches/${draftId}`);
    const draftQuestion = idFrom(q.headers.location, /question-(\d+)/);
    const answer = await db.selectFrom('ep_answers').select('id').where('question_id', '=', questionId).executeTakeFirstOrThrow();
    const hostile = ['\u0000', 'a\u0001\u001b[31m', '\uD800', '<p>&#99999999; &#0; words</p>', `<p>${'word '.repeat(25_000)}</p>`, "' or 1=1; --", '<script>alert(1)</script>'];
    const forms: Array<[string, string[]]> = [
      ['/admin/expert-panels/panels', ['name', 'topic', 'minWords', 'maxWords']],
      [`/admin/expert-panels/panels/${panelId}`, ['name', 'topic', 'minWords', 'maxWords']],
      [`/admin/expert-panels/panels/${panelId}/archive`, ['archived']],
      [`/admin/expert-panels/panels/${panelId}/members`, ['who']],
      ['/admin/expert-panels/batches', ['panelId', 'title', 'deadline']],
      [`/admin/expert-panels/batches/${draftId}/questions`, ['title', 'brief', 'guidelines']],
      [`/admin/expert-panels/questions/${draftQuestion}`, ['title', 'brief', 'guidelines']],
      [`/admin/expert-panels/answers/${answer.id}/edit`, ['body']],
      [`/admin/expert-panels/answers/${answer.id}/decide`, ['decision', 'note']],
    ];
    const page = await b.get('/admin/expert-panels');
    const token = /<meta name="csrf-token" content="([^"]+)"/.exec(page.body)![1]!;
    const post = (url: string, params: URLSearchParams) =>
      app.inject({ method: 'POST', url, headers: { accept: 'text/html', cookie: b.jar, 'content-type': 'application/x-www-form-urlencoded' }, payload: params.toString() });
    for (const [url, fields] of forms) {
      for (const value of hostile) {
        const params = new URLSearchParams({ _csrf: token });
        for (const f of fields) params.append(f, value);
        const res = await post(url, params);
        t.ok(res.statusCode < 500, `${url} with ${JSON.stringify(value.slice(0, 30))}: ${res.statusCode}`);
      }
      const twice = new URLSearchParams({ _csrf: token });
      for (const f of fields) twice.append(f, 'one'), twice.append(f, '\u0000');
      t.ok((await post(url, twice)).statusCode < 500, `${url} with fields sent twice`);
    }
    for (const query of ['q=%00', 'q=%E0%A4%A', 'status=%00&panelId=-1&questionId=99999999999&sort=x&after=1_1', `q=${'x'.repeat(5000)}`, 'after=99999999999999.1234567_1']) {
      t.ok((await b.get(`/admin/expert-panels/answers?${query}`)).statusCode < 500, `the board with ${query.slice(0, 40)}`);
      t.ok((await b.get(`/admin/expert-panels/answers/export.csv?${query}`)).statusCode < 500, `the export with ${query.slice(0, 40)}`);
    }
  });

  await t.test('a POST without the CSRF token changes nothing; bad ids are 404; another community’s staff see nothing', async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: `/admin/expert-panels/panels/${panelId}/archive`,
      headers: { cookie: b.jar, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      payload: 'archived=true',
    });
    t.equal(res.statusCode, 403);
    t.equal((await db.selectFrom('ep_panels').select('archived_at').where('id', '=', panelId).executeTakeFirstOrThrow()).archived_at, null);
    t.equal((await b.get('/admin/expert-panels/panels/abc')).statusCode, 404);
    t.equal((await b.get('/admin/expert-panels/answers/99999999999')).statusCode, 404);
    t.equal((await b.get('/admin/expert-panels/answers?after=%00%01&q=%00')).statusCode, 200, 'a hostile search is shown as a field error, not a failure');
    const h = new FormBrowser(app, '203.0.113.50', 'harbor.test');
    h.cookies.set('auth', (await signIn(app, harborBoss, harbor, ['ADMIN', 'MEMBER'])).token);
    t.equal((await h.get(`/admin/expert-panels/panels/${panelId}`)).statusCode, 404);
    t.equal((await h.get(`/admin/expert-panels/batches/${batchId}`)).statusCode, 404);
    t.equal((await h.post(`/admin/expert-panels/questions/${questionId}/close`, {}, '/admin/expert-panels')).statusCode, 404);
  });
});
