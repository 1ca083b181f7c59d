import t from 'tap';
import { addQuestion, closeQuestion, createBatch, sendBatch } from '#src/features/expert-panels/admin/batches.ts';
import { addPanelMember, createPanel } from '#src/features/expert-panels/admin/panels.ts';
import { setupDatabase, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';
import { epDepsFor, startEpApp, submitAs } from './admin-fixtures.ts';

const DAY = 24 * 3600 * 1000;
const BOARD = '/admin/expert-panels/questions';

t.test('the editors’ questions board and batches list, JavaScript off', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const harbor = await createCommunity(db, { code: 'harbor', hosts: ['harbor.test'] });
  const { app } = await startEpApp(t, db, clock);
  const deps = epDepsFor(app, alpha);
  const other = epDepsFor(app, harbor);
  const boss = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Bea', lastName: 'Boss' });
  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const hal = await createMember(db, harbor, { roles: ['ADMIN', 'MEMBER'], firstName: 'Hal', lastName: 'Harbor' });
  const sam = await createMember(db, harbor, { firstName: 'Sam', lastName: 'Sea' });
  const editor = { userId: boss.id, isStaff: true };
  const harborEditor = { userId: hal.id, isStaff: true };
  const at = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();

  const finance = await createPanel(deps, editor, { name: 'Finance', minWords: '1', maxWords: '300' });
  const people = await createPanel(deps, editor, { name: 'People', minWords: '1', maxWords: '300' });
  await addPanelMember(deps, editor, finance, ada.email);
  await addPanelMember(deps, editor, people, ada.email);
  const winter = await createBatch(deps, editor, { panelId: String(finance), title: 'Winter money', deadline: at(7 * DAY) });
  const winter2 = await createBatch(deps, editor, { panelId: String(finance), title: 'Winter money 2', deadline: at(8 * DAY) });
  const cashIds: number[] = [];
  for (let i = 1; i <= 25; i += 1) cashIds.push(await addQuestion(deps, editor, i <= 15 ? winter : winter2, { title: `Cash question ${String(i).padStart(2, '0')}` }));
  await sendBatch(deps, editor, winter);
  await sendBatch(deps, editor, winter2);
  const hiring = await createBatch(deps, editor, { panelId: String(people), title: 'Hiring', deadline: at(7 * DAY) });
  const hireId = await addQuestion(deps, editor, hiring, { title: 'How do you hire?' });
  await sendBatch(deps, editor, hiring);
  const draft = await createBatch(deps, editor, { panelId: String(people), title: 'Spring draft', deadline: at(30 * DAY) });
  const formulaId = await addQuestion(deps, editor, draft, { title: '=HYPERLINK("http://evil.test","cash")' });
  const answer = await db.selectFrom('ep_answers').select('id').where('question_id', '=', hireId).executeTakeFirstOrThrow();
  await submitAs(db, answer.id, '<p>Slowly, carefully.</p>', 2, clock.now());
  const harborPanel = await createPanel(other, harborEditor, { name: 'Harbor panel', minWords: '1', maxWords: '300' });
  await addPanelMember(other, harborEditor, harborPanel, sam.email);
  const harborBatch = await createBatch(other, harborEditor, { panelId: String(harborPanel), title: 'Harbor batch', deadline: at(5 * DAY) });
  const secretId = await addQuestion(other, harborEditor, harborBatch, { title: 'Secret harbor question' });
  await sendBatch(other, harborEditor, harborBatch);

  const b = new FormBrowser(app);
  b.cookies.set('auth', (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token);

  await t.test('a member who is not staff, and a visitor, get neither the board, its CSV, nor its buttons', async (t) => {
    const m = new FormBrowser(app, '203.0.113.51');
    m.cookies.set('auth', (await signIn(app, ada, alpha)).token);
    for (const url of [BOARD, `${BOARD}/export.csv`, '/admin/expert-panels/batches?state=draft']) {
      t.not((await m.get(url)).statusCode, 200, url);
      t.not((await new FormBrowser(app, '203.0.113.52').get(url)).statusCode, 200, `${url} signed out`);
    }
    const res = await m.post(`${BOARD}/${hireId}/board`, { action: 'close' }, '/expert-panels');
    t.equal(res.statusCode, 403);
    t.equal((await db.selectFrom('ep_questions').select('closed_at').where('id', '=', hireId).executeTakeFirstOrThrow()).closed_at, null, 'nothing changed');
  });

  await t.test('the board: every question of the community, its tab current, its answers counted', async (t) => {
    const page = await b.get(BOARD);
    t.equal(page.statusCode, 200);
    t.match(page.body, /<a href="\/admin\/expert-panels\/questions" aria-current="page">Questions<\/a>/);
    t.match(page.body, 'How do you hire?');
    t.match(page.body, `href="/admin/expert-panels/batches/${hiring}#question-${hireId}"`, 'the title links to the question on its batch page');
    t.match(page.body, 'Draft (batch not sent)');
    t.notMatch(page.body, 'Secret harbor question', 'never another community’s');
    t.match(page.body, 'rel="next"', '28 questions: a second page');
    t.notMatch(page.body, '<td>Cash question 01', 'the oldest is on a later page');
    const row = /<tr id="question-row-(\d+)">([\s\S]*?)<\/tr>/g;
    const hireRow = [...page.body.matchAll(row)].find((m) => Number(m[1]) === hireId)![2]!;
    t.match(hireRow, /<td>People<\/td>/);
    t.match(hireRow, /<td>Open<\/td><td>0<\/td><td>1<\/td><td>0<\/td>/, 'invited 0, in review 1, accepted 0');
    t.match(hireRow, 'aria-label="Close &quot;How do you hire?&quot;"', 'the button names its question');
  });

  await t.test('filters live in the query string and come back in the form', async (t) => {
    const page = await b.get(`${BOARD}?panelId=${finance}&state=open&q=question+0&sort=deadline`);
    t.equal(page.statusCode, 200);
    t.match(page.body, 'value="question 0"');
    t.match(page.body, `<option value="${finance}" selected="">Finance</option>`);
    t.match(page.body, '<option value="open" selected="">Open</option>');
    t.match(page.body, '<option value="deadline" selected="">Soonest deadline first</option>');
    t.equal([...page.body.matchAll(/<tr id="question-row-/g)].length, 9, 'Cash question 01 to 09');
    t.notMatch(page.body, 'How do you hire?');
    t.match(page.body, `href="/admin/expert-panels/questions/export.csv?panelId=${finance}&amp;state=open&amp;q=question+0&amp;sort=deadline"`, 'the export keeps the filters');
    const batch = await b.get(`${BOARD}?batchId=${hiring}`);
    t.match(batch.body, 'Questions of the batch &quot;Hiring&quot;.');
    t.equal([...batch.body.matchAll(/<tr id="question-row-/g)].length, 1);
  });

  await t.test('keyset pages: the next page keeps the filters and shows the rest, each once', async (t) => {
    const first = await b.get(`${BOARD}?panelId=${finance}`);
    const next = /<a href="([^"]+)" rel="next">/.exec(first.body)![1]!.replace(/&amp;/g, '&');
    t.match(next, `panelId=${finance}`);
    const second = await b.get(next);
    t.equal(second.statusCode, 200);
    const ids = (body: string) => [...body.matchAll(/<tr id="question-row-(\d+)"/g)].map((m) => Number(m[1]));
    const seen = [...ids(first.body), ...ids(second.body)];
    t.equal(seen.length, 25);
    t.equal(new Set(seen).size, 25, 'no duplicates');
    t.notMatch(second.body, 'rel="next"');
    t.match(second.body, 'First page');
  });

  await t.test('a search that cannot be used: the message by the field, what was typed kept, a 400', async (t) => {
    const long = await b.get(`${BOARD}?q=${'x'.repeat(250)}&panelId=${finance}`);
    t.equal(long.statusCode, 400);
    t.match(long.body, 'Please keep this to 200 characters.');
    t.match(long.body, /aria-describedby="eq-q-error"/);
    t.match(long.body, `value="${'x'.repeat(250)}"`, 'the typed search is kept');
    t.match(long.body, `<option value="${finance}" selected="">`, 'the other filters stay');
    const nul = await b.get(`${BOARD}?q=cash%00`);
    t.equal(nul.statusCode, 400);
    t.match(nul.body, 'eq-q-error');
  });

  await t.test('hostile query strings are a 4xx or ignored, never a 5xx', async (t) => {
    const hostile = [
      '?after=%00',
      `?after=${'9'.repeat(5000)}`,
      '?after=1_1%27%3B+drop+table+ep_questions',
      '?after=99999999999999999999.999999_2147483647',
      '?sort=answers&after=999999999999_1',
      '?panelId=%00&batchId=-1&state=%3Cscript%3E&sort=%00',
      '?panelId=99999999999999999999&batchId=2147483648',
      '?q[]=a&q[]=b',
      '?q=a&q=b',
      `?q=${'%C3%A9'.repeat(3000)}`,
      '?q=%ZZ',
      '?state=OPEN&sort=DEADLINE',
      `?batchId=${harborBatch}`,
    ];
    for (const qs of hostile) {
      for (const path of [BOARD, `${BOARD}/export.csv`, '/admin/expert-panels/batches']) {
        const res = await b.get(`${path}${qs}`);
        t.ok(res.statusCode < 500, `${path}${qs.slice(0, 60)}: ${res.statusCode}`);
        t.notMatch(res.body, 'Secret harbor question');
      }
    }
    t.equal((await b.post(`${BOARD}/abc/board`, { action: 'close' }, BOARD)).statusCode, 404);
    t.equal((await b.post(`${BOARD}/99999999999/board`, { action: 'close' }, BOARD)).statusCode, 404);
    t.equal((await b.post(`${BOARD}/${hireId}/board`, { action: 'drop\u0000' }, BOARD)).statusCode, 400);
    const noise = await b.post(`${BOARD}/${hireId}/board`, { action: 'close', panelId: '\u0000', q: 'x'.repeat(100_000), after: '\u0000', sort: '<b>' }, BOARD);
    t.equal(noise.statusCode, 303, 'noise in the way back is dropped');
    t.equal(String(noise.headers.location), `${BOARD}?done=questionClosed#question-row-${hireId}`);
    await db.updateTable('ep_questions').set({ closed_at: null, closed_by: null }).where('id', '=', hireId).execute();
  });

  await t.test('close and reopen from the board come back to it with its filters and page', async (t) => {
    const first = await b.get(`${BOARD}?panelId=${finance}&q=cash&sort=deadline`);
    const next = /<a href="([^"]+)" rel="next">/.exec(first.body)![1]!.replace(/&amp;/g, '&');
    const after = new URL(next, 'http://x').searchParams.get('after')!;
    const target = cashIds[24]!;
    const page = await b.get(next);
    t.match(page.body, `question-row-${target}`, 'the question is on the second page');
    const closed = await b.post(`${BOARD}/${target}/board`, { action: 'close', panelId: String(finance), batchId: '', state: '', q: 'cash', sort: 'deadline', after }, next);
    t.equal(closed.statusCode, 303);
    const back = String(closed.headers.location);
    t.equal(back, `${BOARD}?panelId=${finance}&q=cash&sort=deadline&after=${encodeURIComponent(after)}&done=questionClosed#question-row-${target}`);
    const shown = await b.get(back.split('#')[0]!);
    t.match(shown.body, 'The question was closed: it takes no new answers.');
    t.match(shown.body, 'value="cash"');
    t.match(shown.body, 'aria-label="Reopen &quot;Cash question 25&quot;"');
    t.ok((await db.selectFrom('ep_questions').select('closed_at').where('id', '=', target).executeTakeFirstOrThrow()).closed_at);
    const reopened = await b.post(`${BOARD}/${target}/board`, { action: 'reopen', panelId: String(finance), state: 'closed', q: 'cash', sort: 'deadline', after: '' }, back.split('#')[0]!);
    t.equal(String(reopened.headers.location), `${BOARD}?panelId=${finance}&state=closed&q=cash&sort=deadline&done=questionReopened#question-row-${target}`);
    t.match((await b.get(String(reopened.headers.location).split('#')[0]!)).body, 'The question is open again.');
    t.equal((await db.selectFrom('ep_questions').select('closed_at').where('id', '=', target).executeTakeFirstOrThrow()).closed_at, null);
  });

  await t.test('another community’s question cannot be closed from this board; a POST without its token changes nothing', async (t) => {
    t.equal((await b.post(`${BOARD}/${secretId}/board`, { action: 'close' }, BOARD)).statusCode, 404);
    t.equal((await db.selectFrom('ep_questions').select('closed_at').where('id', '=', secretId).executeTakeFirstOrThrow()).closed_at, null);
    const noToken = await app.inject({ method: 'POST', url: `${BOARD}/${hireId}/board`, headers: { cookie: b.jar, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }, payload: 'action=close' });
    t.equal(noToken.statusCode, 403);
    t.equal((await db.selectFrom('ep_questions').select('closed_at').where('id', '=', hireId).executeTakeFirstOrThrow()).closed_at, null);
  });

  await t.test('the CSV: the filters’ questions, safe to open in a spreadsheet', async (t) => {
    await closeQuestion(deps, editor, cashIds[0]!);
    const res = await b.get(`${BOARD}/export.csv?panelId=${people}`);
    t.equal(res.statusCode, 200);
    t.match(String(res.headers['content-type']), 'text/csv; charset=utf-8');
    t.match(String(res.headers['content-disposition']), /^attachment; filename="expert-questions-alpha-\d{4}-\d{2}-\d{2}\.csv"$/);
    t.equal(res.headers['cache-control'], 'no-store');
    const lines = res.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    t.equal(lines[0], 'Question id,Question,Panel,Batch,Deadline,State,"Invited, not answered",In review,Accepted,Declined,Can’t answer,Ignored,Closed at,Created');
    t.equal(lines.length, 3, 'the header and People’s two questions');
    const hire = lines.find((l) => l.startsWith(`${hireId},`))!;
    t.match(hire, /^\d+,How do you hire\?,People,Hiring,2026-11-28T12:00:00\.000Z,Open,0,1,0,0,0,0,,2026-11-21T12:00:00\.000Z$/);
    const formula = lines.find((l) => l.startsWith(`${formulaId},`))!;
    t.match(formula, `${formulaId},"'=HYPERLINK(""http://evil.test"",""cash"")",People,Spring draft,`, 'a formula is defused');
    const all = await b.get(`${BOARD}/export.csv?state=closed`);
    t.equal(all.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n').length, 2, 'the closed one only');
    t.notMatch((await b.get(`${BOARD}/export.csv`)).body, 'Secret harbor');
    t.equal((await b.get(`${BOARD}/export.csv?q=${'x'.repeat(300)}`)).statusCode, 400, 'a bad search is refused, not ignored into everything');
  });

  await t.test('the batches list: filters by panel, state and title, keyset pages, the new batch form still there', async (t) => {
    for (let i = 0; i < 21; i += 1) await createBatch(deps, editor, { panelId: String(people), title: `Filler ${i}`, deadline: at(9 * DAY) });
    const page = await b.get('/admin/expert-panels/batches');
    t.equal(page.statusCode, 200);
    t.match(page.body, 'rel="next"');
    t.match(page.body, 'Create batch');
    const next = /<a href="([^"]+)" rel="next">/.exec(page.body)![1]!.replace(/&amp;/g, '&');
    const second = await b.get(next);
    t.equal(second.statusCode, 200);
    const titles = (body: string) => [...body.matchAll(/<a href="\/admin\/expert-panels\/batches\/\d+">([^<]+)<\/a>/g)].map((m) => m[1]);
    t.equal(new Set([...titles(page.body), ...titles(second.body)]).size, 25, 'every batch once');
    const sent = await b.get(`/admin/expert-panels/batches?state=sent&panelId=${finance}`);
    t.same(titles(sent.body), ['Winter money 2', 'Winter money']);
    t.match(sent.body, '<option value="sent" selected="">Sent</option>');
    const search = await b.get('/admin/expert-panels/batches?q=SPRING');
    t.same(titles(search.body), ['Spring draft']);
    t.match(search.body, 'value="SPRING"');
    t.match(search.body, `href="/admin/expert-panels/questions?batchId=${draft}"`, 'its questions on the board');
    const bad = await b.get(`/admin/expert-panels/batches?q=${'y'.repeat(300)}`);
    t.match(bad.body, 'Please keep this to 200 characters.');
    t.match(bad.body, `value="${'y'.repeat(300)}"`);
    const closedAll = await b.get('/admin/expert-panels/batches?state=closed');
    t.same(titles(closedAll.body), []);
  });
});
