import t from 'tap';
import { csrfFor, signIn } from '#test/helpers/factories.ts';
import { roundupWorld } from './roundup-world.ts';

const FIELDS = 'id title status statusLabel answerCount slug liveUrl publishedAt introHtml answers { id position wordCount member { name companyName } } candidates { id } moves { from to actorName at } allowedMoves';

t.test('roundups over GraphQL: staff with a bearer token or cookie and CSRF; members refused; the published read', async (t) => {
  const w = await roundupWorld(t);
  const { app, alpha, beta } = w;
  const editor = await w.member(alpha, { firstName: 'Eddie', lastName: 'Editor', staff: true });
  const ada = await w.member(alpha, { firstName: 'Ada', lastName: 'Lovelace', companyName: 'Engines Ltd' });
  const alan = await w.member(alpha, { firstName: 'Alan', lastName: 'Turing' });
  const panel = await w.panel(alpha);
  const question = await panel.question('How do you plan cash for a slow quarter?');
  const other = await panel.question('Another question');
  const a1 = await w.answer(alpha, question, ada.id);
  const a2 = await w.answer(alpha, question, alan.id);
  const elsewhere = await w.answer(alpha, other, alan.id);
  const betaStaff = await w.member(beta, { staff: true });

  const gql = (url: string, query: string, variables: Record<string, unknown>, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });
  const staffBearer = { authorization: `Bearer ${(await signIn(app, editor, alpha, ['ADMIN', 'MEMBER'])).token}` };
  const memberBearer = { authorization: `Bearer ${(await signIn(app, ada, alpha)).token}` };
  const browser = await csrfFor(app, (await signIn(app, editor, alpha, ['ADMIN', 'MEMBER'])).cookie, '/admin');
  const staffCookie = { cookie: browser.cookie, 'x-csrf-token': browser.token };

  const CREATE = `mutation ($q: ID!, $title: String!, $intro: String) { createExpertRoundup(questionId: $q, title: $title, intro: $intro) { ${FIELDS} } }`;
  const SET = `mutation ($id: ID!, $ids: [ID!]) { setExpertRoundupAnswers(id: $id, answerIds: $ids) { ${FIELDS} } }`;
  const MOVE = `mutation ($id: ID!, $to: RoundupStatus!) { moveExpertRoundup(id: $id, to: $to) { ${FIELDS} } }`;
  let id = '';

  await t.test('a member’s token is refused every admin operation', async (t) => {
    const res = await gql('/graphqlAdmin', CREATE, { q: String(question), title: 'Mine' }, memberBearer);
    t.not(res.statusCode, 200);
    t.ok(res.json().errors?.length, 'an error');
    const list = await gql('/graphqlAdmin', '{ expertRoundups { roundups { id } } }', {}, memberBearer);
    t.ok(list.json().errors?.length, 'the board too');
    t.equal(await w.db.selectFrom('ep_roundups').select('id').executeTakeFirst(), undefined, 'nothing was made');
  });

  await t.test('create with a bearer token, set the answers in order, refuse what is not accepted for that question', async (t) => {
    const created = await gql('/graphqlAdmin', CREATE, { q: String(question), title: 'Cash in a slow quarter', intro: '<p>Our <em>panel</em>.</p><img src=x onerror=alert(1)>' }, staffBearer);
    const r = created.json().data.createExpertRoundup;
    id = r.id;
    t.equal(r.status, 'DRAFT');
    t.equal(r.statusLabel, 'Draft');
    t.equal(r.introHtml, '<p>Our <em>panel</em>.</p>', 'sanitised');
    t.same(r.allowedMoves, ['EDITOR_REVIEW']);
    t.same(r.candidates.map((c: { id: string }) => Number(c.id)).sort(), [a1, a2].sort());
    const noTitle = await gql('/graphqlAdmin', CREATE, { q: String(question), title: '' }, staffBearer);
    t.equal(noTitle.statusCode, 400);
    t.equal(noTitle.json().errors[0].extensions.fields.title.key, 'expertPanelsRoundups.errors.titleRequired');
    const refused = await gql('/graphqlAdmin', SET, { id, ids: [String(a1), String(elsewhere)] }, staffBearer);
    t.equal(refused.statusCode, 400);
    t.equal(refused.json().errors[0].extensions.fields.answerIds.key, 'expertPanelsRoundups.errors.notAccepted');
    const set = await gql('/graphqlAdmin', SET, { id, ids: [String(a2), String(a1)] }, staffCookie);
    const answers = set.json().data.setExpertRoundupAnswers.answers;
    t.same(answers.map((a: { id: string; position: number }) => [Number(a.id), a.position]), [[a2, 1], [a1, 2]], 'the list order, through cookie and CSRF');
    t.equal(answers[1].member.companyName, 'Engines Ltd');
    const noList = await gql('/graphqlAdmin', SET, { id, ids: null }, staffBearer);
    t.equal(noList.statusCode, 400, 'the list is required');
    const noCsrf = await gql('/graphqlAdmin', SET, { id, ids: [] }, { cookie: browser.cookie });
    t.equal(noCsrf.statusCode, 403, 'a cookie without the CSRF token is refused');
  });

  await t.test('moves: refused with MoveNotAllowed (409), allowed ones logged; FINAL publishes', async (t) => {
    const skip = await gql('/graphqlAdmin', MOVE, { id, to: 'FINAL' }, staffBearer);
    t.equal(skip.statusCode, 409);
    t.equal(skip.json().errors[0].extensions.code, 'ExpertPanels.MoveNotAllowed');
    for (const to of ['EDITOR_REVIEW', 'READY_FOR_PUBLISHING']) {
      const res = await gql('/graphqlAdmin', MOVE, { id, to }, staffCookie);
      t.equal(res.json().data.moveExpertRoundup.status, to);
    }
    const done = (await gql('/graphqlAdmin', MOVE, { id, to: 'FINAL' }, staffBearer)).json().data.moveExpertRoundup;
    t.equal(done.status, 'FINAL');
    t.equal(done.statusLabel, 'Published');
    t.equal(done.slug, 'cash-in-a-slow-quarter');
    t.match(done.liveUrl, /\/expert-panels\/roundups\/cash-in-a-slow-quarter$/);
    t.same(done.allowedMoves, []);
    t.same(done.moves.map((m: { from: string; to: string; actorName: string }) => [m.from, m.to, m.actorName]), [
      ['READY_FOR_PUBLISHING', 'FINAL', 'Eddie Editor'],
      ['EDITOR_REVIEW', 'READY_FOR_PUBLISHING', 'Eddie Editor'],
      ['DRAFT', 'EDITOR_REVIEW', 'Eddie Editor'],
    ]);
    const frozen = await gql('/graphqlAdmin', `mutation ($id: ID!) { updateExpertRoundup(id: $id, title: "New") { id } }`, { id }, staffBearer);
    t.equal(frozen.statusCode, 409);
    t.equal(frozen.json().errors[0].extensions.code, 'ExpertPanels.RoundupPublished');
  });

  await t.test('the board and one roundup; another community’s staff find nothing', async (t) => {
    const list = await gql('/graphqlAdmin', '{ expertRoundups(filters: { status: FINAL, q: "slow" }, first: 10) { roundups { id title answerCount } next } }', {}, staffBearer);
    t.same(list.json().data.expertRoundups, { roundups: [{ id, title: 'Cash in a slow quarter', answerCount: 2 }], next: null });
    const one = await gql('/graphqlAdmin', `query ($id: ID!) { expertRoundup(id: $id) { title } }`, { id }, staffBearer);
    t.equal(one.json().data.expertRoundup.title, 'Cash in a slow quarter');
    const betaBearer = { authorization: `Bearer ${(await signIn(app, betaStaff, beta, ['ADMIN', 'MEMBER'])).token}`, host: 'beta.test' };
    const foreign = await gql('/graphqlAdmin', `query ($id: ID!) { expertRoundup(id: $id) { title } }`, { id }, betaBearer);
    t.equal(foreign.statusCode, 404);
    const hostile = await gql('/graphqlAdmin', `query ($id: ID!) { expertRoundup(id: $id) { title } }`, { id: "1 or 1=1" }, staffBearer);
    t.equal(hostile.statusCode, 404, 'a hostile id is a 404');
  });

  await t.test('the member schema reads a published roundup by its slug, signed out too', async (t) => {
    const READ = 'query ($slug: String!) { publishedExpertRoundup(slug: $slug) { title questionTitle publishedAt liveUrl answers { position bodyHtml member { name companyName } } } }';
    const res = await gql('/graphql', READ, { slug: 'cash-in-a-slow-quarter' }, {});
    const r = res.json().data.publishedExpertRoundup;
    t.equal(r.title, 'Cash in a slow quarter');
    t.equal(r.questionTitle, 'How do you plan cash for a slow quarter?');
    t.same(r.answers.map((a: { member: { name: string } }) => a.member.name), ['Alan Turing', 'Ada Lovelace']);
    t.equal((await gql('/graphql', READ, { slug: 'nothing' }, memberBearer)).json().data.publishedExpertRoundup, null);
    t.equal((await gql('/graphql', READ, { slug: 'cash-in-a-slow-quarter' }, { host: 'beta.test' })).json().data.publishedExpertRoundup, null, 'not on another site');
  });
});
