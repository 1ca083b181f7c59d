import t from 'tap';
import { csrfFor, signIn } from '#test/helpers/factories.ts';
import { epWorld, words } from './member-world.ts';

const QUESTION_FIELDS = 'id title panelName deadlineAt closed status submittedAt decisionNote roundup { title url } briefHtml guidelinesHtml panel { id name minWords maxWords } answer { status bodyHtml wordCount editable markable ownHtml editorRevision { bodyHtml } decisionNote }';
const LIST = 'query L($tab: ExpertQuestionTab, $first: Int, $after: String) { expertQuestions(tab: $tab, first: $first, after: $after) { edges { cursor node { id title panelName status closed roundup { url } answer { status } } } pageInfo { hasNextPage endCursor } counts { open inReview answered published } } }';
const ONE = `query Q($id: ID!) { expertQuestion(id: $id) { ${QUESTION_FIELDS} } }`;
const ANSWER = `mutation A($id: ID!, $body: String!) { answerExpertQuestion(questionId: $id, body: $body) { ${QUESTION_FIELDS} } }`;
const MARK = 'mutation M($id: ID!, $mark: ExpertAnswerMark!) { markExpertQuestion(questionId: $id, mark: $mark) { id status answer { status editable markable } } }';

t.test('expert-panel questions on the member GraphQL schema', async (t) => {
  const w = await epWorld(t);
  const { app, alpha, beta } = w;
  const ada = await w.member(alpha, { firstName: 'Ada' });
  const bob = await w.member(alpha, { firstName: 'Bob' });
  const bea = await w.member(beta, { firstName: 'Bea' });
  const panel = await w.panel(alpha, { name: 'Leadership & Teams', min: 5, max: 10 });
  const batch = await w.batch(alpha, panel);
  const q1 = await w.question(alpha, batch, panel, [ada.id, bob.id], { title: 'First question' });
  w.clock.advance(60_000);
  const q2 = await w.question(alpha, batch, panel, [ada.id, bob.id], { title: 'Second question' });
  const bobOnly = await w.question(alpha, batch, panel, [bob.id], { title: "Bob's" });
  const bPanel = await w.panel(beta);
  const betaQuestion = await w.question(beta, await w.batch(beta, bPanel), bPanel, [bea.id]);
  const adaBearer = { authorization: `Bearer ${(await signIn(app, ada, alpha)).token}` };
  const gql = (query: string, variables: object, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });

  await t.test('with a bearer token: list, read, answer, mark', async (t) => {
    const list = await gql(LIST, { first: 1 }, adaBearer);
    const conn = list.json().data?.expertQuestions;
    t.equal(conn?.edges.length, 1, list.body);
    t.same(conn.edges[0].node, { id: String(q2), title: 'Second question', panelName: 'Leadership & Teams', status: 'OPEN', closed: false, roundup: null, answer: null });
    t.equal(conn.pageInfo.hasNextPage, true);
    t.same(conn.counts, { open: 2, inReview: 0, answered: 0, published: 0 });
    const next = await gql(LIST, { first: 1, after: conn.pageInfo.endCursor }, adaBearer);
    t.equal(next.json().data?.expertQuestions.edges[0].node.id, String(q1), 'the next page');
    t.equal(next.json().data?.expertQuestions.pageInfo.hasNextPage, false);

    const one = await gql(ONE, { id: String(q1) }, adaBearer);
    const q = one.json().data?.expertQuestion;
    t.equal(q?.briefHtml, '<p>The brief of the question.</p>', one.body);
    t.same(q.panel, { id: String(panel), name: 'Leadership & Teams', minWords: 5, maxWords: 10 });
    t.equal(q.answer.editable, true);
    t.equal(q.answer.markable, true);

    const tooLong = await gql(ANSWER, { id: String(q1), body: `<p>${words(11)}</p>` }, adaBearer);
    const error = tooLong.json().errors?.[0];
    t.equal(error?.extensions?.code, 'ExpertPanels.AnswerTooLong', tooLong.body);
    t.equal(error?.message, 'Your answer is 11 words: please keep it to 10 words.');
    t.equal(error?.extensions?.fields?.body?.key, 'expertPanels.errors.answerTooLong');
    t.equal(tooLong.statusCode, 400);

    const answered = await gql(ANSWER, { id: String(q1), body: '<p>Alignment comes from a weekly written note.</p>' }, adaBearer);
    const a = answered.json().data?.answerExpertQuestion;
    t.equal(a?.status, 'SUBMITTED', answered.body);
    t.equal(a.answer.wordCount, 7);
    t.equal(a.answer.editable, true);
    const inReview = await gql(LIST, { tab: 'IN_REVIEW' }, adaBearer);
    t.same(inReview.json().data?.expertQuestions.edges.map((e: { node: { id: string } }) => e.node.id), [String(q1)]);

    const marked = await gql(MARK, { id: String(q2), mark: 'CANT_ANSWER' }, adaBearer);
    t.same(marked.json().data?.markExpertQuestion, { id: String(q2), status: 'CANT_ANSWER', answer: { status: 'CANT_ANSWER', editable: true, markable: true } }, marked.body);
    const refused = await gql(MARK, { id: String(q1), mark: 'IGNORED' }, adaBearer);
    t.equal(refused.json().errors?.[0]?.extensions?.code, 'ExpertPanels.InReview', 'a submitted answer is not marked');
  });

  await t.test("published: the roundup's live address", async (t) => {
    await w.editorSets(q1, ada.id, { status: 'accepted', note: 'Thank you' });
    await w.roundup(alpha, q1, [ada.id], { title: 'Alignment', slug: 'alignment' });
    const res = await gql(LIST, { tab: 'PUBLISHED' }, adaBearer);
    t.same(res.json().data?.expertQuestions.edges[0]?.node.roundup, { url: '/expert-panels/roundups/alignment' }, res.body);
    const one = await gql(ONE, { id: String(q1) }, adaBearer);
    t.equal(one.json().data?.expertQuestion.decisionNote, 'Thank you');
  });

  await t.test('a browser with its cookie and the CSRF token; never without the token', async (t) => {
    const browser = await csrfFor(app, (await signIn(app, bob, alpha)).cookie, '/');
    const vars = { id: String(q1), body: `<p>${words(6)}</p>` };
    const noToken = await gql(ANSWER, vars, { cookie: browser.cookie });
    t.ok(noToken.statusCode === 403 || noToken.json().errors?.[0]?.extensions?.code === 'BadRequest.Csrf', 'refused without the token');
    t.equal((await w.answerOf(q1, bob.id)).status, 'open', 'nothing saved');
    const viaCookie = await gql(ANSWER, vars, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.equal(viaCookie.json().data?.answerExpertQuestion.status, 'SUBMITTED', viaCookie.body);
    const read = await gql(LIST, { tab: 'IN_REVIEW' }, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.equal(read.json().data?.expertQuestions.counts.inReview, 1);
    const mark = await gql(MARK, { id: String(q2), mark: 'IGNORED' }, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.equal(mark.json().data?.markExpertQuestion.status, 'IGNORED', mark.body);
  });

  await t.test("another member's or community's question is not found; hostile input is a 4xx", async (t) => {
    for (const id of [String(bobOnly), String(betaQuestion), '999999', 'abc', '1 or 1=1', '-1']) {
      const res = await gql(ONE, { id }, adaBearer);
      t.equal(res.json().errors?.[0]?.extensions?.code, 'ExpertPanels.QuestionNotFound', `id ${id}`);
      t.equal(res.statusCode, 404);
    }
    const other = await gql(ANSWER, { id: String(bobOnly), body: `<p>${words(6)}</p>` }, adaBearer);
    t.equal(other.json().errors?.[0]?.extensions?.code, 'ExpertPanels.QuestionNotFound');
    const nul = await gql(ANSWER, { id: String(q2), body: `<p>${words(6)}\u0000</p>` }, adaBearer);
    t.equal(nul.json().errors?.[0]?.extensions?.code, '150', nul.body);
    t.equal(nul.statusCode, 400);
    const badCursor = await gql(LIST, { after: '@@@' }, adaBearer);
    t.equal(badCursor.json().errors?.[0]?.extensions?.code, 'BadRequest.Validation');
    const badMark = await gql('mutation { markExpertQuestion(questionId: "1", mark: ACCEPTED) { id } }', {}, adaBearer);
    t.ok(badMark.statusCode >= 400 && badMark.statusCode < 500, `an unknown mark (${badMark.statusCode})`);
    const anon = await gql(LIST, {}, {});
    t.equal(anon.json().errors?.[0]?.extensions?.code, 'NotAuthenticated', 'signed out');
    const beaBearer = { host: 'beta.test', authorization: `Bearer ${(await signIn(app, bea, beta)).token}` };
    const fromBeta = await gql(ONE, { id: String(q1) }, beaBearer);
    t.equal(fromBeta.json().errors?.[0]?.extensions?.code, 'ExpertPanels.QuestionNotFound', "alpha's question from beta");
  });
});
