import t from 'tap';
import { submitAnswer } from '#src/features/expert-panels/answers.ts';
import { getQuestion, listMemberQuestions } from '#src/features/expert-panels/questions.ts';
import { countingDb, rejects } from '#test/helpers/forum-core.ts';
import { epWorld, words } from './member-world.ts';

t.test("the member's questions by tab, and one question", async (t) => {
  const w = await epWorld(t);
  const { alpha } = w;
  const deps = w.depsFor(alpha);
  const ada = await w.member(alpha, { firstName: 'Ada' });
  const bob = await w.member(alpha, { firstName: 'Bob' });
  const panel = await w.panel(alpha, { name: 'Growth', min: 1, max: 50 });
  const batch = await w.batch(alpha, panel, { deadlineDays: 7 });

  // One question in each state for Ada, sent a minute apart (newest last).
  const q = async (title: string, options: { closed?: boolean } = {}) => {
    w.clock.advance(60_000);
    return w.question(alpha, batch, panel, [ada.id, bob.id], { title, ...options });
  };
  const open = await q('Open question');
  const cant = await q("Can't answer question");
  const ignored = await q('Ignored question');
  const closedOpen = await q('Closed before Ada answered', { closed: true });
  const submitted = await q('Submitted question');
  const accepted = await q('Accepted question');
  const declined = await q('Declined question');
  const published = await q('Published question');
  const draftRoundup = await q('Accepted, roundup in draft');
  await w.db.updateTable('ep_answers').set({ status: 'cant_answer' }).where('question_id', '=', cant).where('user_id', '=', ada.id).execute();
  await w.db.updateTable('ep_answers').set({ status: 'ignored' }).where('question_id', '=', ignored).where('user_id', '=', ada.id).execute();
  for (const id of [submitted, accepted, declined, published, draftRoundup]) await submitAnswer(deps, ada.viewer, id, { body: `<p>${words(3)}</p>` });
  await w.editorSets(accepted, ada.id, { status: 'accepted', note: 'Clear and useful.' });
  await w.editorSets(declined, ada.id, { status: 'declined', note: 'Not this time.' });
  await w.editorSets(published, ada.id, { status: 'accepted' });
  await w.editorSets(draftRoundup, ada.id, { status: 'accepted' });
  await w.roundup(alpha, published, [ada.id], { title: 'What members said', slug: 'what-members-said' });
  await w.roundup(alpha, draftRoundup, [ada.id], { status: 'DRAFT' });

  await t.test('each tab holds its states, newest sent first, with counts', async (t) => {
    const titles = async (tab: string) => (await listMemberQuestions(deps, ada.viewer, { tab })).rows.map((r) => r.title);
    t.same(await titles('open'), ['Ignored question', "Can't answer question", 'Open question'], 'open: not yet answered, question open');
    t.same(await titles('in-review'), ['Submitted question']);
    t.same(await titles('answered'), ['Accepted, roundup in draft', 'Published question', 'Declined question', 'Accepted question']);
    t.same(await titles('published'), ['Published question'], 'only a FINAL roundup publishes');
    const page = await listMemberQuestions(deps, ada.viewer, {});
    t.equal(page.tab, 'open', 'open by default');
    t.same(page.counts, { open: 3, 'in-review': 1, answered: 4, published: 1 });
    const row = page.rows[0]!;
    t.equal(row.panelName, 'Growth');
    t.equal(row.deadlineAt.toISOString(), '2026-11-28T12:00:00.000Z', 'the batch deadline');
    t.equal(row.status, 'ignored');
  });

  await t.test('answered rows carry the editor’s note; published ones the live address', async (t) => {
    const answered = (await listMemberQuestions(deps, ada.viewer, { tab: 'answered' })).rows;
    t.equal(answered.find((r) => r.questionId === declined)?.decisionNote, 'Not this time.');
    t.equal(answered.find((r) => r.questionId === accepted)?.decisionNote, 'Clear and useful.');
    const pub = (await listMemberQuestions(deps, ada.viewer, { tab: 'published' })).rows[0]!;
    t.same(pub.roundup, { title: 'What members said', path: '/expert-panels/roundups/what-members-said' });
    t.equal(answered.find((r) => r.questionId === draftRoundup)?.roundup, null, 'a draft roundup is not published');
    const view = await getQuestion(deps, ada.viewer, published);
    t.same(view.roundup, { title: 'What members said', path: '/expert-panels/roundups/what-members-said' });
  });

  await t.test("the question page's answer: the editor's edits beside the member's own text", async (t) => {
    await w.editorSets(accepted, ada.id, { editedHtml: '<p>Edited by the editor.</p>', editorId: (await w.member(alpha, { staff: true })).id });
    const view = await getQuestion(deps, ada.viewer, accepted);
    t.equal(view.answer.bodyHtml, '<p>Edited by the editor.</p>');
    t.equal(view.answer.editorRevision?.bodyHtml, '<p>Edited by the editor.</p>');
    t.equal(view.answer.ownHtml, `<p>${words(3)}</p>`);
    t.equal(view.answer.decisionNote, 'Clear and useful.');
    t.equal(view.answer.editable, false);
    const plain = await getQuestion(deps, ada.viewer, submitted);
    t.equal(plain.answer.editorRevision, null, 'no edits, none shown');
    t.equal(plain.briefHtml, '<p>The brief of the question.</p>');
    t.same(plain.panel, { id: panel, name: 'Growth', minWords: 1, maxWords: 50 });
  });

  await t.test('a closed question: not in the open tab once closed; its page says closed', async (t) => {
    const view = await getQuestion(deps, ada.viewer, closedOpen);
    t.equal(view.closed, true);
    t.notOk((await listMemberQuestions(deps, ada.viewer, { tab: 'open' })).rows.some((r) => r.questionId === closedOpen));
  });

  await t.test('keyset pages: no row twice, none lost, in order', async (t) => {
    const carl = await w.member(alpha, { firstName: 'Carl' });
    const ids: number[] = [];
    for (let i = 0; i < 45; i++) {
      // Several sent in the same instant: the id breaks the tie.
      if (i % 3 === 0) w.clock.advance(1_000);
      ids.push(await w.question(alpha, batch, panel, [carl.id], { title: `Question ${i}` }));
    }
    const seen: number[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page = await listMemberQuestions(deps, carl.viewer, { after });
      seen.push(...page.rows.map((r) => r.questionId));
      after = page.next;
      pages++;
    } while (after && pages < 10);
    t.equal(pages, 3, '20 + 20 + 5');
    t.same(seen, [...ids].reverse(), 'newest first, every one once');
    const small = await listMemberQuestions(deps, carl.viewer, { first: 2 });
    t.equal(small.rows.length, 2);
    t.equal((await listMemberQuestions(deps, carl.viewer, { first: 10_000 })).rows.length, 45, 'a page size is clamped to 100');
  });

  await t.test('the statements a page costs (the bench budget is 5)', async (t) => {
    const counting = countingDb(w.db);
    const cdeps = { ...deps, db: counting.db };
    await listMemberQuestions(cdeps, ada.viewer, { tab: 'answered' });
    t.equal(counting.statements.length, 2, 'the page and its counts');
    counting.statements.length = 0;
    await getQuestion(cdeps, ada.viewer, accepted);
    t.equal(counting.statements.length, 1, 'a question with its answer, revisions and roundup');
  });

  await t.test('bad tabs and cursors are 4xx', async (t) => {
    await rejects(t, listMemberQuestions(deps, ada.viewer, { tab: 'secret' }), 'ExpertPanels.Invalid', 'an unknown tab');
    await rejects(t, listMemberQuestions(deps, ada.viewer, { after: '!!!' }), 'BadRequest.Validation', 'a malformed cursor');
    await rejects(t, listMemberQuestions(deps, ada.viewer, { after: Buffer.from('["0000-01-01T00:00:00.000000Z",1]').toString('base64url') }), 'BadRequest.Validation', 'a cursor before 1970');
    await rejects(t, listMemberQuestions(deps, ada.viewer, { after: 'bm9wZQ' }), 'BadRequest.Validation', 'a cursor of nonsense');
  });

  await t.test("another member's lists are their own", async (t) => {
    const page = await listMemberQuestions(deps, bob.viewer, {});
    t.equal(page.counts.open, 8, 'all of Bob’s but the closed one are open');
    t.equal(page.counts['in-review'], 0);
  });
});
