import t from 'tap';
import { isAppError } from '#src/core/errors.ts';
import type { EpDeps } from '#src/features/expert-panels/deps.ts';
import { addQuestion, closeQuestion, createBatch, reopenQuestion, sendBatch } from '#src/features/expert-panels/admin/batches.ts';
import { addPanelMember, createPanel } from '#src/features/expert-panels/admin/panels.ts';
import { batchBoard, batchFiltersOf, questionBoard, questionFiltersOf, questionsForExport } from '#src/features/expert-panels/admin/question-board.ts';
import type { QuestionFilters } from '#src/features/expert-panels/admin/admin-types.ts';
import { setupDatabase, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember } from '#test/helpers/factories.ts';
import { epDepsFor, startEpApp, submitAs } from './admin-fixtures.ts';

async function refusal(p: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof p === 'function' ? p() : p);
    return 'ok';
  } catch (e) {
    if (!isAppError(e)) throw e;
    return e.fields ? `${e.code}:${Object.keys(e.fields).join(',')}` : String(e.code);
  }
}

const DAY = 24 * 3600 * 1000;

t.test('the editors’ questions board and batches list (services)', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const harbor = await createCommunity(db, { code: 'harbor', hosts: ['harbor.test'] });
  const { app } = await startEpApp(t, db, clock);
  const deps = epDepsFor(app, alpha);
  const other = epDepsFor(app, harbor);
  const boss = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Bea', lastName: 'Boss' });
  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const alan = await createMember(db, alpha, { firstName: 'Alan', lastName: 'Turing' });
  const hal = await createMember(db, harbor, { roles: ['ADMIN', 'MEMBER'], firstName: 'Hal', lastName: 'Harbor' });
  const sam = await createMember(db, harbor, { firstName: 'Sam', lastName: 'Sea' });
  const editor = { userId: boss.id, isStaff: true };
  const harborEditor = { userId: hal.id, isStaff: true };
  const at = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();

  async function batchWith(d: EpDeps, who: typeof editor, panelId: number, title: string, deadlineMs: number, questions: string[], send: boolean) {
    const batchId = await createBatch(d, who, { panelId: String(panelId), title, deadline: at(deadlineMs) });
    const ids: number[] = [];
    for (const q of questions) ids.push(await addQuestion(d, who, batchId, { title: q }));
    if (send) await sendBatch(d, who, batchId);
    return { batchId, ids };
  }

  const finance = await createPanel(deps, editor, { name: 'Finance', minWords: '1', maxWords: '300' });
  const people = await createPanel(deps, editor, { name: 'People', minWords: '1', maxWords: '300' });
  await addPanelMember(deps, editor, finance, ada.email);
  await addPanelMember(deps, editor, finance, alan.email);
  await addPanelMember(deps, editor, people, ada.email);
  const winter = await batchWith(deps, editor, finance, 'Winter money', 7 * DAY, ['How do you plan cash?', 'What is 100% growth?', 'When to raise?', 'Who runs payroll?', 'Why budget yearly?'], true);
  clock.advance(60_000);
  const hiring = await batchWith(deps, editor, people, 'Hiring', 2 * DAY, ['How do you hire?', 'How do you fire?', 'Remote or office?'], true);
  clock.advance(60_000);
  const spring = await batchWith(deps, editor, finance, 'Spring draft', 30 * DAY, ['Draft about cash flow', 'Draft about taxes'], false);
  const harborPanel = await createPanel(other, harborEditor, { name: 'Harbor panel', minWords: '1', maxWords: '300' });
  await addPanelMember(other, harborEditor, harborPanel, sam.email);
  const secret = await batchWith(other, harborEditor, harborPanel, 'Harbor batch', 5 * DAY, ['Secret harbor cash question'], true);

  // Answers: the first winter question gets ada's answer in review and alan can't answer; the second an accepted and a declined one.
  const answerOf = async (questionId: number, userId: number) => (await db.selectFrom('ep_answers').select('id').where('question_id', '=', questionId).where('user_id', '=', userId).executeTakeFirstOrThrow()).id;
  await submitAs(db, await answerOf(winter.ids[0]!, ada.id), '<p>Thirteen weeks ahead.</p>', 3, clock.now());
  await db.updateTable('ep_answers').set({ status: 'cant_answer' }).where('id', '=', await answerOf(winter.ids[0]!, alan.id)).execute();
  await db.updateTable('ep_answers').set({ status: 'accepted' }).where('id', '=', await answerOf(winter.ids[1]!, ada.id)).execute();
  await db.updateTable('ep_answers').set({ status: 'declined' }).where('id', '=', await answerOf(winter.ids[1]!, alan.id)).execute();
  await db.updateTable('ep_answers').set({ status: 'ignored' }).where('id', '=', await answerOf(winter.ids[2]!, alan.id)).execute();
  await submitAs(db, await answerOf(hiring.ids[2]!, ada.id), '<p>Both.</p>', 1, clock.now());
  await closeQuestion(deps, editor, winter.ids[4]!);
  // Three days on: the hiring batch's deadline has passed.
  clock.advance(3 * DAY);

  const base: QuestionFilters = questionFiltersOf({});
  const all = async (f: Partial<QuestionFilters> = {}, d = deps, who = editor) => (await questionBoard(d, who, { ...base, ...f }, { first: 100 })).rows;

  await t.test('every question of the community with its panel, batch, state and answers by status', async (t) => {
    const rows = await all();
    t.equal(rows.length, 10, 'five winter, three hiring, two draft questions');
    const first = rows.find((r) => r.id === winter.ids[0])!;
    t.same(first.counts, { open: 0, submitted: 1, accepted: 0, declined: 0, cant_answer: 1, ignored: 0 });
    t.equal(first.answered, 1);
    t.equal(first.panelName, 'Finance');
    t.equal(first.batchTitle, 'Winter money');
    t.equal(first.state, 'open');
    const second = rows.find((r) => r.id === winter.ids[1])!;
    t.same(second.counts, { open: 0, submitted: 0, accepted: 1, declined: 1, cant_answer: 0, ignored: 0 });
    t.equal(second.answered, 2);
    t.same(rows.find((r) => r.id === winter.ids[3])!.counts, { open: 2, submitted: 0, accepted: 0, declined: 0, cant_answer: 0, ignored: 0 }, 'invited and not answered');
    t.equal(rows.find((r) => r.id === winter.ids[4])!.state, 'closed');
    t.equal(rows.find((r) => r.id === hiring.ids[0])!.state, 'past');
    t.equal(rows.find((r) => r.id === spring.ids[0])!.state, 'draft');
    t.same(rows.find((r) => r.id === spring.ids[0])!.counts, { open: 0, submitted: 0, accepted: 0, declined: 0, cant_answer: 0, ignored: 0 });
  });

  await t.test('filters: panel, batch, state and a search in titles', async (t) => {
    const ids = async (f: Partial<QuestionFilters>) => (await all(f)).map((r) => r.id).sort((a, b) => a - b);
    t.same(await ids({ panelId: people }), [...hiring.ids].sort((a, b) => a - b));
    t.same(await ids({ batchId: spring.batchId }), spring.ids);
    t.same(await ids({ state: 'draft' }), spring.ids);
    t.same(await ids({ state: 'closed' }), [winter.ids[4]]);
    t.same(await ids({ state: 'past' }), [...hiring.ids].sort((a, b) => a - b));
    t.same(await ids({ state: 'open' }), winter.ids.slice(0, 4));
    t.same(await ids({ q: 'CASH' }), [winter.ids[0], spring.ids[0]], 'case-insensitive, this community only');
    t.same(await ids({ q: '100%' }), [winter.ids[1]], '% is itself, not a wildcard');
    t.same(await ids({ q: '%' }), [winter.ids[1]]);
    t.same(await ids({ q: 'how do you', panelId: people, state: 'past' }), [hiring.ids[0], hiring.ids[1]]);
    t.same(await ids({ panelId: harborPanel }), [], 'another community’s panel finds nothing');
  });

  await t.test('the filters from a query string: unknown values ignored, a bad search is the field error q', async (t) => {
    t.same(questionFiltersOf({ panelId: '12', batchId: 'x', state: 'OPEN', sort: 'Deadline', q: '  cash  ' }), { panelId: 12, batchId: null, state: 'open', q: 'cash', sort: 'deadline' });
    t.same(questionFiltersOf({ panelId: '99999999999', state: 'weird', sort: 'drop table', q: '' }), { panelId: null, batchId: null, state: null, q: null, sort: 'newest' });
    t.same(questionFiltersOf({ status: 'past' }).state, 'past', 'status is read as state too');
    t.equal(await refusal(() => questionFiltersOf({ q: 'cash\u0000' })), '150:q', 'a NUL is the invalid-characters error');
    t.equal(await refusal(() => questionFiltersOf({ q: 'x'.repeat(201) })), 'ExpertPanels.Invalid:q');
    t.equal(questionFiltersOf({ q: ['a', 'b'] }).q, null, 'a repeated q is ignored');
    t.equal(await refusal(() => batchFiltersOf({ q: 'x'.repeat(5000) })), 'ExpertPanels.Invalid:q');
  });

  await t.test('sorts: newest, soonest deadline, most answers', async (t) => {
    const newest = await all();
    t.same(newest.slice(0, 2).map((r) => r.id), [spring.ids[1], spring.ids[0]], 'newest first, ties by id');
    const deadline = await all({ sort: 'deadline' });
    t.same(deadline.slice(0, 3).map((r) => r.id), hiring.ids, 'the soonest deadline first');
    t.same(deadline.slice(-2).map((r) => r.id), spring.ids);
    const answers = await all({ sort: 'answers' });
    t.same(answers.slice(0, 1).map((r) => r.id), [winter.ids[1]], 'two answers written');
    t.ok(answers.slice(1, 3).every((r) => r.answered === 1));
    t.ok(answers.slice(3).every((r) => r.answered === 0));
  });

  await t.test('keyset pages walk every question once, in every sort (ties included)', async (t) => {
    for (const sort of ['newest', 'deadline', 'answers'] as const) {
      for (const first of [1, 3, 4]) {
        const seen: number[] = [];
        let after: string | null = null;
        let pages = 0;
        do {
          const page = await questionBoard(deps, editor, { ...base, sort }, { first, after });
          seen.push(...page.rows.map((r) => r.id));
          after = page.next;
          pages += 1;
        } while (after && pages < 20);
        t.same(seen, (await all({ sort })).map((r) => r.id), `${sort}, ${first} a page: the same order`);
        t.equal(new Set(seen).size, 10, `${sort}, ${first} a page: no duplicates`);
      }
    }
    const filtered = await questionBoard(deps, editor, { ...base, panelId: finance }, { first: 4 });
    t.ok(filtered.next);
    const rest = await questionBoard(deps, editor, { ...base, panelId: finance }, { first: 4, after: filtered.next });
    t.same([...filtered.rows, ...rest.rows].map((r) => r.id).sort((a, b) => a - b), [...winter.ids, ...spring.ids].sort((a, b) => a - b));
    t.equal(rest.next, null);
  });

  await t.test('a malformed cursor starts at the top; page sizes are bounded', async (t) => {
    const top = (await questionBoard(deps, editor, base, { first: 2 })).rows.map((r) => r.id);
    for (const after of ['garbage', '1_0', '\u0000', 'x'.repeat(5000), '1.5_99999999999', '-1_5', "1_1'; drop table ep_questions; --"]) {
      t.same((await questionBoard(deps, editor, base, { first: 2, after })).rows.map((r) => r.id), top, JSON.stringify(after.slice(0, 20)));
    }
    t.equal((await questionBoard(deps, editor, { ...base, sort: 'answers' }, { first: 2, after: '99999999999999_1' })).rows.length, 2, 'an out-of-range count is ignored');
    t.equal((await questionBoard(deps, editor, base, { first: 10_000 })).rows.length, 10);
    t.equal((await questionBoard(deps, editor, base, { first: -5 })).rows.length, 1);
  });

  await t.test('tenancy: another community’s questions never appear, nor can they be closed', async (t) => {
    const mine = await all();
    t.notOk(mine.some((r) => r.id === secret.ids[0]));
    t.notOk(mine.some((r) => /harbor/i.test(r.title)));
    const theirs = await all({}, other, harborEditor);
    t.same(theirs.map((r) => r.id), secret.ids);
    t.same(await all({ batchId: winter.batchId }, other, harborEditor), []);
    t.same((await questionsForExport(other, harborEditor, base)).map((r) => r.id), secret.ids);
    t.equal(await refusal(closeQuestion(deps, editor, secret.ids[0]!)), 'ExpertPanels.NotFound');
    t.equal(await refusal(reopenQuestion(other, harborEditor, winter.ids[4]!)), 'ExpertPanels.NotFound');
    t.equal((await db.selectFrom('ep_questions').select('closed_at').where('id', '=', winter.ids[4]!).executeTakeFirstOrThrow()).closed_at !== null, true, 'still closed');
    t.same((await batchBoard(other, harborEditor, batchFiltersOf({}))).rows.map((r) => r.id), [secret.batchId]);
  });

  await t.test('closing and reopening shows on the board', async (t) => {
    await closeQuestion(deps, editor, winter.ids[0]!);
    t.equal((await all()).find((r) => r.id === winter.ids[0])!.state, 'closed');
    t.ok((await all({ state: 'closed' })).some((r) => r.id === winter.ids[0]));
    await reopenQuestion(deps, editor, winter.ids[0]!);
    t.equal((await all()).find((r) => r.id === winter.ids[0])!.state, 'open');
    await reopenQuestion(deps, editor, hiring.ids[0]!);
    t.equal((await all()).find((r) => r.id === hiring.ids[0])!.state, 'past', 'reopening a question past its deadline leaves it past');
  });

  await t.test('only editors see the boards', async (t) => {
    const member = { userId: ada.id, isStaff: false };
    t.equal(await refusal(questionBoard(deps, member, base)), 'Forbidden');
    t.equal(await refusal(questionsForExport(deps, member, base)), 'Forbidden');
    t.equal(await refusal(batchBoard(deps, member, batchFiltersOf({}))), 'Forbidden');
  });

  await t.test('the export: every match in the board’s order', async (t) => {
    t.same((await questionsForExport(deps, editor, { ...base, sort: 'deadline' })).map((r) => r.id), (await all({ sort: 'deadline' })).map((r) => r.id));
    t.same((await questionsForExport(deps, editor, { ...base, q: 'cash' })).map((r) => r.id).sort((a, b) => a - b), [winter.ids[0], spring.ids[0]]);
  });

  await t.test('the batches list: filters by panel, state and title, keyset pages', async (t) => {
    const ids = async (input: Record<string, unknown>) => (await batchBoard(deps, editor, batchFiltersOf(input), { first: 100 })).rows.map((r) => r.id);
    t.same(await ids({}), [spring.batchId, hiring.batchId, winter.batchId], 'newest first');
    t.same(await ids({ panelId: String(finance) }), [spring.batchId, winter.batchId]);
    t.same(await ids({ state: 'draft' }), [spring.batchId]);
    t.same(await ids({ state: 'sent' }), [hiring.batchId, winter.batchId]);
    t.same(await ids({ state: 'closed' }), []);
    for (const id of hiring.ids) await closeQuestion(deps, editor, id);
    t.same(await ids({ state: 'closed' }), [hiring.batchId], 'every question closed: the batch is closed');
    t.same(await ids({ state: 'sent' }), [winter.batchId]);
    const row = (await batchBoard(deps, editor, batchFiltersOf({ state: 'closed' }))).rows[0]!;
    t.same({ state: row.state, questionCount: row.questionCount, closedCount: row.closedCount, panelName: row.panelName }, { state: 'closed', questionCount: 3, closedCount: 3, panelName: 'People' });
    t.same(await ids({ q: 'MONEY' }), [winter.batchId]);
    t.same(await ids({ q: 'harbor' }), []);
    const seen: number[] = [];
    let after: string | null = null;
    do {
      const page = await batchBoard(deps, editor, batchFiltersOf({}), { first: 1, after });
      seen.push(...page.rows.map((r) => r.id));
      after = page.next;
    } while (after && seen.length < 10);
    t.same(seen, [spring.batchId, hiring.batchId, winter.batchId], 'one a page, each once');
    t.same((await batchBoard(deps, editor, batchFiltersOf({}), { first: 1, after: 'nonsense' })).rows.map((r) => r.id), [spring.batchId]);
  });
});
