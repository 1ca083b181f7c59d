import t from 'tap';
import { setupDatabase, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';
import { startEpApp, submitAs } from './admin-fixtures.ts';

t.test('the editors’ expert panels on /graphqlAdmin', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const harbor = await createCommunity(db, { code: 'harbor', hosts: ['harbor.test'] });
  const { app } = await startEpApp(t, db, clock);
  const boss = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Bea', lastName: 'Boss' });
  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const harborBoss = await createMember(db, harbor, { roles: ['ADMIN', 'MEMBER'], firstName: 'Hal', lastName: 'Harbor' });

  const gql = async (query: string, variables: Record<string, unknown>, headers: Record<string, string>) => {
    const res = await app.inject({ method: 'POST', url: '/graphqlAdmin', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });
    return { status: res.statusCode, body: res.json() as { data?: Record<string, any>; errors?: Array<{ message: string; extensions?: { code?: string } }> } };
  };
  const staff = { authorization: `Bearer ${(await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token}` };
  const code = (r: { body: { errors?: Array<{ extensions?: { code?: string } }> } }) => r.body.errors?.[0]?.extensions?.code;

  await t.test('a member’s token is refused; a visitor too', async (t) => {
    const asAda = { authorization: `Bearer ${(await signIn(app, ada, alpha)).token}` };
    const r = await gql('{ expertPanels { id } }', {}, asAda);
    t.ok(r.body.errors?.length, 'refused');
    t.notOk(r.body.data?.expertPanels);
    const m = await gql('mutation { createExpertPanel(input: { name: "X", minWords: 1, maxWords: 10 }) { id } }', {}, asAda);
    t.ok(m.body.errors?.length);
    t.equal(await db.selectFrom('ep_panels').select('id').executeTakeFirst(), undefined);
    t.ok((await gql('{ expertPanels { id } }', {}, {})).body.errors?.length);
  });

  let panelId = '';
  let batchId = '';
  let questionId = '';
  await t.test('the whole flow with a bearer token', async (t) => {
    const bad = await gql('mutation { createExpertPanel(input: { name: "Growth", minWords: 50, maxWords: 10 }) { id } }', {}, staff);
    t.equal(code(bad), 'ExpertPanels.Invalid');
    const p = await gql('mutation { createExpertPanel(input: { name: "Growth", topic: "Scale", minWords: 2, maxWords: 100 }) { id name minWords maxWords } }', {}, staff);
    panelId = p.body.data!.createExpertPanel.id;
    t.equal(p.body.data!.createExpertPanel.name, 'Growth');
    const u = await gql('mutation ($id: ID!) { updateExpertPanel(id: $id, input: { name: "Growth team", minWords: 2, maxWords: 120 }) { name maxWords } }', { id: panelId }, staff);
    t.same(u.body.data!.updateExpertPanel, { name: 'Growth team', maxWords: 120 });
    const add = await gql('mutation ($id: ID!, $who: String!) { addExpertPanelMember(panelId: $id, who: $who) { memberCount members { member { name } email } } }', { id: panelId, who: ada.email }, staff);
    t.equal(add.body.data!.addExpertPanelMember.memberCount, 1);
    t.equal(add.body.data!.addExpertPanelMember.members[0].member.name, 'Ada Lovelace');
    const b = await gql('mutation ($p: ID!) { createExpertBatch(panelId: $p, title: "Winter", deadline: "2026-12-24T12:00:00Z") { id status } }', { p: panelId }, staff);
    batchId = b.body.data!.createExpertBatch.id;
    t.equal(b.body.data!.createExpertBatch.status, 'DRAFT');
    const q = await gql('mutation ($b: ID!) { addExpertQuestion(batchId: $b, input: { title: "Why?", briefHtml: "<p>Because <img src=x onerror=alert(1)>.</p>" }) { id title briefHtml } }', { b: batchId }, staff);
    questionId = q.body.data!.addExpertQuestion.id;
    t.notMatch(q.body.data!.addExpertQuestion.briefHtml, 'onerror');
    const extra = await gql('mutation ($b: ID!) { addExpertQuestion(batchId: $b, input: { title: "Extra" }) { id } }', { b: batchId }, staff);
    const upd = await gql('mutation ($id: ID!) { updateExpertQuestion(id: $id, input: { title: "Why not?" }) { title } }', { id: questionId }, staff);
    t.equal(upd.body.data!.updateExpertQuestion.title, 'Why not?');
    t.equal((await gql('mutation ($id: ID!) { removeExpertQuestion(id: $id) }', { id: extra.body.data!.addExpertQuestion.id }, staff)).body.data!.removeExpertQuestion, true);
    const sent = await gql('mutation ($id: ID!) { sendExpertBatch(id: $id) { answersCreated members batch { status questions { id } } } }', { id: batchId }, staff);
    t.same(sent.body.data!.sendExpertBatch, { answersCreated: 1, members: 1, batch: { status: 'SENT', questions: [{ id: questionId }] } });
    t.equal(code(await gql('mutation ($id: ID!) { sendExpertBatch(id: $id) { answersCreated } }', { id: batchId }, staff)), 'ExpertPanels.BatchSent');
    t.equal((await gql('mutation ($id: ID!) { closeExpertQuestion(id: $id) { closed } }', { id: questionId }, staff)).body.data!.closeExpertQuestion.closed, true);
    t.equal((await gql('mutation ($id: ID!) { reopenExpertQuestion(id: $id) { closed } }', { id: questionId }, staff)).body.data!.reopenExpertQuestion.closed, false);
    t.equal((await gql('{ expertBatches { id } }', {}, staff)).body.data!.expertBatches.length, 1);

    const answer = await db.selectFrom('ep_answers').select('id').where('question_id', '=', Number(questionId)).executeTakeFirstOrThrow();
    await submitAs(db, answer.id, '<p>Because growth needs people.</p>', 4, clock.now());
    const list = await gql('query ($f: ExpertAnswerFilters) { expertAnswers(filters: $f, first: 10) { answers { id status member { name } wordCount } next } }', { f: { status: 'SUBMITTED', q: 'growth' } }, staff);
    t.same(list.body.data!.expertAnswers, { answers: [{ id: String(answer.id), status: 'SUBMITTED', member: { name: 'Ada Lovelace' }, wordCount: 4 }], next: null });
    const started = await gql('mutation ($id: ID!) { startExpertAnswerReview(id: $id) { reviewStartedAt reviewerName scan { totalWords } } }', { id: String(answer.id) }, staff);
    t.ok(started.body.data!.startExpertAnswerReview.reviewStartedAt);
    t.equal(started.body.data!.startExpertAnswerReview.reviewerName, 'Bea Boss');
    const edited = await gql('mutation ($id: ID!) { editExpertAnswer(id: $id, bodyHtml: "<p>Growth needs <b>good</b> people.</p>") { wordCount revisions { byEditor } } }', { id: String(answer.id) }, staff);
    t.same(edited.body.data!.editExpertAnswer, { wordCount: 4, revisions: [{ byEditor: true }, { byEditor: false }] });
    t.equal(code(await gql('mutation ($id: ID!) { decideExpertAnswer(id: $id, decision: DECLINE) { status } }', { id: String(answer.id) }, staff)), 'ExpertPanels.Invalid');
    const decided = await gql('mutation ($id: ID!) { decideExpertAnswer(id: $id, decision: ACCEPT, note: "Great") { status decisionNote } }', { id: String(answer.id) }, staff);
    t.same(decided.body.data!.decideExpertAnswer, { status: 'ACCEPTED', decisionNote: 'Great' });
    t.equal((await db.selectFrom('notifications').select('id').where('user_id', '=', ada.id).where('kind', '=', 'expert_answers').execute()).length, 1, 'the member was told');
  });

  await t.test('with the cookie and CSRF token of our pages; without the token refused', async (t) => {
    const browser = await csrfFor(app, (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).cookie, '/admin/expert-panels');
    const Q = 'mutation ($id: ID!) { archiveExpertPanel(id: $id, archived: true) { archived } }';
    const noToken = await gql(Q, { id: panelId }, { cookie: browser.cookie });
    t.ok(noToken.status === 403 || noToken.body.errors?.length, 'refused without the token');
    t.equal((await db.selectFrom('ep_panels').select('archived_at').where('id', '=', Number(panelId)).executeTakeFirstOrThrow()).archived_at, null);
    const ok = await gql(Q, { id: panelId }, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.equal(ok.body.data!.archiveExpertPanel.archived, true);
    const read = await gql('query ($id: ID!) { expertPanel(id: $id) { name archived } }', { id: panelId }, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.same(read.body.data!.expertPanel, { name: 'Growth team', archived: true });
  });

  await t.test('hostile arguments are refused, never a crash', async (t) => {
    const answer = await db.selectFrom('ep_answers').select('id').where('question_id', '=', Number(questionId)).executeTakeFirstOrThrow();
    const draft = (await gql('mutation ($p: ID!) { createExpertBatch(panelId: $p, title: "Draft", deadline: "2026-12-25") { id } }', { p: panelId }, staff)).body.data;
    const hostile = ['a\u0000b', '\uD800', 'a\u0001\u001b', `<p>${'word '.repeat(25_000)}</p>`, '<p>&#99999999; &#0; &#xD800;</p>', "' or 1=1 --"];
    const calls: Array<[string, (v: string) => Record<string, unknown>]> = [
      ['mutation ($v: String!) { createExpertPanel(input: { name: $v, topic: $v, minWords: 1, maxWords: 10 }) { id } }', (v) => ({ v })],
      ['mutation ($id: ID!, $v: String!) { addExpertPanelMember(panelId: $id, who: $v) { id } }', (v) => ({ id: panelId, v })],
      ['mutation ($id: ID!, $v: String!) { createExpertBatch(panelId: $id, title: $v, deadline: $v) { id } }', (v) => ({ id: panelId, v })],
      ['mutation ($id: ID!, $v: String!) { addExpertQuestion(batchId: $id, input: { title: $v, briefHtml: $v, guidelinesHtml: $v }) { id } }', (v) => ({ id: draft?.createExpertBatch?.id ?? '1', v })],
      ['mutation ($id: ID!, $v: String!) { editExpertAnswer(id: $id, bodyHtml: $v) { id } }', (v) => ({ id: String(answer.id), v })],
      ['mutation ($id: ID!, $v: String!) { decideExpertAnswer(id: $id, decision: DECLINE, note: $v) { id } }', (v) => ({ id: String(answer.id), v })],
      ['query ($v: String!) { expertAnswers(filters: { q: $v, status: $v }, after: $v) { next } }', (v) => ({ v })],
    ];
    for (const [query, vars] of calls) {
      for (const v of hostile) {
        const r = await gql(query, vars(v), staff);
        t.ok(r.status < 500 && code(r) !== 'UnknownError', `${query.slice(0, 60)} with ${JSON.stringify(v.slice(0, 20))}: ${code(r) ?? 'ok'}`);
      }
    }
  });

  await t.test('another community’s ids are not found; hostile ids too', async (t) => {
    const other = { authorization: `Bearer ${(await signIn(app, harborBoss, harbor, ['ADMIN', 'MEMBER'])).token}`, host: 'harbor.test' };
    t.equal(code(await gql('query ($id: ID!) { expertPanel(id: $id) { id } }', { id: panelId }, other)), 'ExpertPanels.NotFound');
    t.equal(code(await gql('mutation ($id: ID!) { closeExpertQuestion(id: $id) { id } }', { id: questionId }, other)), 'ExpertPanels.NotFound');
    t.equal((await gql('{ expertAnswers { answers { id } } }', {}, other)).body.data!.expertAnswers.answers.length, 0);
    t.equal(code(await gql('query ($id: ID!) { expertAnswer(id: $id) { id } }', { id: "1' or 1=1" }, staff)), 'NotFound');
  });
});
