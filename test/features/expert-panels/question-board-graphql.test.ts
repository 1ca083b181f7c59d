import t from 'tap';
import { addQuestion, createBatch, sendBatch } from '#src/features/expert-panels/admin/batches.ts';
import { addPanelMember, createPanel } from '#src/features/expert-panels/admin/panels.ts';
import { setupDatabase, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';
import { epDepsFor, startEpApp, submitAs } from './admin-fixtures.ts';

const DAY = 24 * 3600 * 1000;
const Q = /* GraphQL */ `
  query ($f: ExpertQuestionFilters, $first: Int, $after: String) {
    expertQuestions(filters: $f, first: $first, after: $after) {
      questions { id title panelName batchTitle state answered closedAt counts { invited inReview accepted declined cantAnswer ignored } }
      next
    }
  }
`;

t.test('the questions board on /graphqlAdmin', async (t) => {
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

  const panel = await createPanel(deps, editor, { name: 'Finance', minWords: '1', maxWords: '300' });
  await addPanelMember(deps, editor, panel, ada.email);
  const batch = await createBatch(deps, editor, { panelId: String(panel), title: 'Winter money', deadline: at(7 * DAY) });
  const ids: number[] = [];
  for (const title of ['How do you plan cash?', 'When to raise?', 'Who runs payroll?']) ids.push(await addQuestion(deps, editor, batch, { title }));
  await sendBatch(deps, editor, batch);
  const answer = await db.selectFrom('ep_answers').select('id').where('question_id', '=', ids[0]!).executeTakeFirstOrThrow();
  await submitAs(db, answer.id, '<p>Weekly.</p>', 1, clock.now());
  const draft = await createBatch(deps, editor, { panelId: String(panel), title: 'Spring draft', deadline: at(30 * DAY) });
  const draftId = await addQuestion(deps, editor, draft, { title: 'Draft cash idea' });
  const harborPanel = await createPanel(other, harborEditor, { name: 'Harbor panel', minWords: '1', maxWords: '300' });
  await addPanelMember(other, harborEditor, harborPanel, sam.email);
  const harborBatch = await createBatch(other, harborEditor, { panelId: String(harborPanel), title: 'Harbor batch', deadline: at(5 * DAY) });
  const secretId = await addQuestion(other, harborEditor, harborBatch, { title: 'Secret harbor cash question' });
  await sendBatch(other, harborEditor, harborBatch);

  const gql = async (variables: Record<string, unknown>, headers: Record<string, string>, query = Q, host?: string) => {
    const res = await app.inject({ method: 'POST', url: '/graphqlAdmin', headers: { 'content-type': 'application/json', ...(host ? { host } : {}), ...headers }, payload: JSON.stringify({ query, variables }) });
    return { status: res.statusCode, body: res.json() as { data?: Record<string, any> | null; errors?: Array<{ message: string; extensions?: { code?: string } }> } };
  };
  const code = (r: { body: { errors?: Array<{ extensions?: { code?: string } }> } }) => r.body.errors?.[0]?.extensions?.code;
  const bearer = { authorization: `Bearer ${(await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token}` };

  await t.test('with a bearer token: filters, counts, states, keyset pages', async (t) => {
    const all = await gql({}, bearer);
    t.equal(all.status, 200);
    const rows = all.body.data!.expertQuestions.questions as Array<Record<string, any>>;
    t.same(rows.map((r) => Number(r.id)).sort((a, b) => a - b), [...ids, draftId].sort((a, b) => a - b), 'this community’s questions only');
    const first = rows.find((r) => Number(r.id) === ids[0])!;
    t.same(first.counts, { invited: 0, inReview: 1, accepted: 0, declined: 0, cantAnswer: 0, ignored: 0 });
    t.equal(first.answered, 1);
    t.equal(first.state, 'OPEN');
    t.equal(first.panelName, 'Finance');
    t.equal(rows.find((r) => Number(r.id) === draftId)!.state, 'DRAFT');
    const search = await gql({ f: { q: 'cash', state: 'OPEN' } }, bearer);
    t.same(search.body.data!.expertQuestions.questions.map((r: { title: string }) => r.title), ['How do you plan cash?']);
    const sorted = await gql({ f: { sort: 'ANSWERS' }, first: 1 }, bearer);
    t.equal(Number(sorted.body.data!.expertQuestions.questions[0].id), ids[0]);
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page = await gql({ f: { batchId: String(batch) }, first: 2, after }, bearer);
      seen.push(...page.body.data!.expertQuestions.questions.map((r: { id: string }) => r.id));
      after = page.body.data!.expertQuestions.next;
    } while (after && seen.length < 10);
    t.same(seen.map(Number).sort((a, b) => a - b), ids, 'two pages, each question once');
    t.same((await gql({ first: 2, after: 'not-a-cursor' }, bearer)).body.data!.expertQuestions.questions.length, 2, 'a malformed cursor starts at the top');
    t.equal(code(await gql({ f: { q: 'x'.repeat(500) } }, bearer)), 'ExpertPanels.Invalid', 'a search too long is refused');
    t.equal(String(code(await gql({ f: { q: 'cash\u0000' } }, bearer))), '150', 'a NUL in the search is refused');
    t.ok((await gql({ f: { state: 'NOPE' } }, bearer)).body.errors?.length, 'an unknown state is a validation error');
    t.same((await gql({ f: { panelId: String(harborPanel) } }, bearer)).body.data!.expertQuestions.questions, [], 'another community’s panel finds nothing');
  });

  await t.test('with the cookie and CSRF token of our pages; without the token refused', async (t) => {
    const browser = await csrfFor(app, (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).cookie, '/admin/expert-panels/questions');
    const noToken = await gql({}, { cookie: browser.cookie });
    t.ok(noToken.body.errors?.length || noToken.status === 403, 'no token: refused');
    t.notOk(noToken.body.data?.expertQuestions);
    const ok = await gql({ f: { state: 'DRAFT' } }, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.equal(ok.status, 200);
    t.same(ok.body.data!.expertQuestions.questions.map((r: { id: string }) => Number(r.id)), [draftId]);
  });

  await t.test('a member’s token and a visitor are refused; another community’s staff see their own only', async (t) => {
    const asAda = { authorization: `Bearer ${(await signIn(app, ada, alpha)).token}` };
    const m = await gql({}, asAda);
    t.ok(m.body.errors?.length);
    t.notOk(m.body.data?.expertQuestions);
    t.ok((await gql({}, {})).body.errors?.length);
    const harborStaff = { authorization: `Bearer ${(await signIn(app, hal, harbor, ['ADMIN', 'MEMBER'])).token}` };
    const theirs = await gql({ f: { q: 'cash' } }, harborStaff, Q, 'harbor.test');
    t.same(theirs.body.data!.expertQuestions.questions.map((r: { id: string }) => Number(r.id)), [secretId]);
    // An admin's bearer token carries the community chosen at sign-in, whatever the host: alpha's, never harbor's.
    const cross = await gql({}, bearer, Q, 'harbor.test');
    t.notOk(cross.body.data?.expertQuestions?.questions?.some((r: { id: string }) => Number(r.id) === secretId), 'alpha’s token on harbor’s host never shows harbor’s');
  });
});
