import t from 'tap';
import type { RoundupStatus } from '#src/db/types.ts';
import { exportRoundups, getRoundup, listRoundups, publishedRoundup } from '#src/features/expert-panels/roundups/read.ts';
import { addRoundupAnswer, createRoundup, moveRoundup, moveRoundupAnswer, orderRoundupAnswers, removeRoundupAnswer, setRoundupAnswers, updateRoundup } from '#src/features/expert-panels/roundups/service.ts';
import { slugify } from '#src/features/expert-panels/roundups/slug.ts';
import { rejects } from '#test/helpers/forum-core.ts';
import { roundupWorld } from './roundup-world.ts';

t.test('roundups: composing, moving, publishing (services)', async (t) => {
  const w = await roundupWorld(t);
  const { alpha, beta } = w;
  const deps = w.depsFor(alpha);
  const editor = await w.member(alpha, { firstName: 'Eddie', lastName: 'Editor', staff: true });
  const ada = await w.member(alpha, { firstName: 'Ada', lastName: 'Lovelace', companyName: 'Engines Ltd' });
  const alan = await w.member(alpha, { firstName: 'Alan', lastName: 'Turing' });
  const grace = await w.member(alpha, { firstName: 'Grace', lastName: 'Hopper' });
  const panel = await w.panel(alpha);
  const question = await panel.question('How do you plan cash for a slow quarter?');
  const other = await panel.question('What was your best hire?');
  const a1 = await w.answer(alpha, question, ada.id, 'accepted', 'Keep three months of costs aside and talk to the bank early.');
  const a2 = await w.answer(alpha, question, alan.id, 'accepted', 'Model the worst case first, then cut what you can before you must.');
  const submitted = await w.answer(alpha, question, grace.id, 'submitted');
  const elsewhere = await w.answer(alpha, other, ada.id, 'accepted');
  const betaEditor = await w.member(beta, { staff: true });
  const betaPanel = await w.panel(beta);
  const betaQuestion = await betaPanel.question('Beta question');
  const betaAnswer = await w.answer(beta, betaQuestion, betaEditor.id, 'accepted');

  await t.test('a member who is not staff can neither make nor read roundups', async (t) => {
    await rejects(t, createRoundup(deps, ada.viewer, { questionId: question, title: 'Mine' }), 'Forbidden', 'create');
    await rejects(t, listRoundups(deps, ada.viewer, { status: null, q: null, after: null }), 'Forbidden', 'the board');
  });

  await t.test('a roundup needs a title and a question of the community; the introduction is sanitised', async (t) => {
    const e = await rejects(t, createRoundup(deps, editor.viewer, { questionId: question, title: '   ' }), 'ExpertPanels.Invalid', 'no title');
    t.equal(e?.fields?.title?.key, 'expertPanelsRoundups.errors.titleRequired');
    const q = await rejects(t, createRoundup(deps, editor.viewer, { questionId: betaQuestion, title: 'Borrowed' }), 'ExpertPanels.Invalid', "another community's question");
    t.equal(q?.fields?.questionId?.key, 'expertPanelsRoundups.errors.questionRequired');
    await rejects(t, createRoundup(deps, editor.viewer, { questionId: question, title: 'Null\u0000byte' }), 150, 'a NUL in the title is code 150');
    const long = await rejects(t, createRoundup(deps, editor.viewer, { questionId: question, title: 'Long', intro: 'x'.repeat(200_000) }), 'ExpertPanels.Invalid', 'a huge introduction');
    t.equal(long?.fields?.intro?.key, 'expertPanelsRoundups.errors.introTooLong');
    const { id } = await createRoundup(deps, editor.viewer, { questionId: question, title: ' Cash  in a slow quarter ', intro: '<p>Five founders on <strong>cash</strong>.</p><script>alert(1)</script>' });
    const row = await w.roundupRow(id);
    t.equal(row.title, 'Cash in a slow quarter', 'spaces folded');
    t.equal(row.status, 'DRAFT');
    t.equal(row.intro_html, '<p>Five founders on <strong>cash</strong>.</p>', 'the script is gone');
    t.equal(row.created_by, editor.id);
  });

  const { id } = await createRoundup(deps, editor.viewer, { questionId: question, title: 'Planning cash for a slow quarter', intro: '<p>Our panel on cash.</p>' });

  await t.test('only accepted answers of THAT question join, in the order given', async (t) => {
    for (const [what, ids] of [
      ['a submitted answer', [a1, submitted]],
      ["another question's accepted answer", [elsewhere]],
      ["another community's answer", [betaAnswer]],
      ['a missing answer', [999_999]],
    ] as const) {
      const e = await rejects(t, setRoundupAnswers(deps, editor.viewer, id, ids), 'ExpertPanels.Invalid', what);
      t.equal(e?.fields?.answerIds?.key, 'expertPanelsRoundups.errors.notAccepted');
    }
    await rejects(t, setRoundupAnswers(deps, editor.viewer, id, [a1, a1]), 'ExpertPanels.Invalid', 'twice the same answer');
    await rejects(t, setRoundupAnswers(deps, editor.viewer, id, ["1' or 1=1"]), 'ExpertPanels.Invalid', 'a hostile id');
    t.same((await getRoundup(deps, editor.viewer, id)).answers, [], 'nothing was written');
    await setRoundupAnswers(deps, editor.viewer, id, [a2, a1]);
    const r = await getRoundup(deps, editor.viewer, id);
    t.same(r.answers.map((a) => [a.answerId, a.position]), [[a2, 1], [a1, 2]]);
    t.equal(r.answers[1]!.member.name, 'Ada Lovelace', 'with the member snapshot');
    t.equal(r.answers[1]!.member.companyName, 'Engines Ltd');
    t.ok(r.answers[1]!.wordCount > 5, 'and the word count');
    t.same(r.candidates, [], 'no accepted answer left to add');
  });

  await t.test('add, move up and down, remove', async (t) => {
    await removeRoundupAnswer(deps, editor.viewer, id, a2);
    t.same((await getRoundup(deps, editor.viewer, id)).candidates.map((c) => c.answerId), [a2], 'a removed answer can be added again');
    await rejects(t, removeRoundupAnswer(deps, editor.viewer, id, a2), 'ExpertPanels.Invalid', 'removing what is not in it');
    await rejects(t, addRoundupAnswer(deps, editor.viewer, id, submitted), 'ExpertPanels.Invalid', 'adding a submitted answer');
    await addRoundupAnswer(deps, editor.viewer, id, a2);
    await addRoundupAnswer(deps, editor.viewer, id, a2);
    t.same((await getRoundup(deps, editor.viewer, id)).answers.map((a) => a.answerId), [a1, a2], 'added at the end, once');
    await moveRoundupAnswer(deps, editor.viewer, id, a2, 'up');
    t.same((await getRoundup(deps, editor.viewer, id)).answers.map((a) => a.answerId), [a2, a1]);
    await moveRoundupAnswer(deps, editor.viewer, id, a2, 'up');
    t.same((await getRoundup(deps, editor.viewer, id)).answers.map((a) => a.answerId), [a2, a1], 'the first stays first');
    await moveRoundupAnswer(deps, editor.viewer, id, a2, 'down');
    t.same((await getRoundup(deps, editor.viewer, id)).answers.map((a) => [a.answerId, a.position]), [[a1, 1], [a2, 2]]);
    await rejects(t, moveRoundupAnswer(deps, editor.viewer, id, a2, 'sideways'), 'BadRequest.Validation', 'an unknown direction');
    await orderRoundupAnswers(deps, editor.viewer, id, { [a2]: '1', [a1]: ' 2 ' });
    t.same((await getRoundup(deps, editor.viewer, id)).answers.map((a) => a.answerId), [a2, a1], 'explicit places');
    await rejects(t, orderRoundupAnswers(deps, editor.viewer, id, { [a1]: 'first' }), 'ExpertPanels.Invalid', 'a place that is no number');
    await orderRoundupAnswers(deps, editor.viewer, id, { [a1]: '1', [a2]: '1' });
    t.same((await getRoundup(deps, editor.viewer, id)).answers.map((a) => a.answerId), [a2, a1], 'a tie keeps the current order');
    await orderRoundupAnswers(deps, editor.viewer, id, { [a1]: '1', [a2]: '2' });
  });

  await t.test('a roundup with no answer cannot leave DRAFT', async (t) => {
    const empty = await createRoundup(deps, editor.viewer, { questionId: question, title: 'Empty' });
    const e = await rejects(t, moveRoundup(deps, editor.viewer, empty.id, 'EDITOR_REVIEW'), 'ExpertPanels.RoundupEmpty', 'refused');
    t.equal(e?.status, 409);
    t.same(await w.moves(empty.id), [], 'no move logged');
    // Nor can one be published after its answers were taken out on the way.
    await setRoundupAnswers(deps, editor.viewer, empty.id, [a1]);
    await moveRoundup(deps, editor.viewer, empty.id, 'EDITOR_REVIEW');
    await moveRoundup(deps, editor.viewer, empty.id, 'READY_FOR_PUBLISHING');
    await setRoundupAnswers(deps, editor.viewer, empty.id, []);
    await rejects(t, moveRoundup(deps, editor.viewer, empty.id, 'FINAL'), 'ExpertPanels.RoundupEmpty', 'publishing with no answer is refused');
  });

  await t.test('every move: the allowed ones are logged with who and when, the others refused with 409', async (t) => {
    const refusedFrom: Record<RoundupStatus, RoundupStatus[]> = {
      DRAFT: ['DRAFT', 'READY_FOR_PUBLISHING', 'FINAL'],
      EDITOR_REVIEW: ['EDITOR_REVIEW', 'FINAL'],
      READY_FOR_PUBLISHING: ['DRAFT', 'READY_FOR_PUBLISHING'],
      FINAL: ['DRAFT', 'EDITOR_REVIEW', 'READY_FOR_PUBLISHING', 'FINAL'],
    };
    const path: [RoundupStatus, RoundupStatus][] = [
      ['DRAFT', 'EDITOR_REVIEW'],
      ['EDITOR_REVIEW', 'DRAFT'],
      ['DRAFT', 'EDITOR_REVIEW'],
      ['EDITOR_REVIEW', 'READY_FOR_PUBLISHING'],
      ['READY_FOR_PUBLISHING', 'EDITOR_REVIEW'],
      ['EDITOR_REVIEW', 'READY_FOR_PUBLISHING'],
    ];
    for (const [from, to] of path) {
      for (const bad of refusedFrom[from]) {
        const e = await rejects(t, moveRoundup(deps, editor.viewer, id, bad), 'ExpertPanels.MoveNotAllowed', `${from} → ${bad} refused`);
        t.equal(e?.status, 409);
      }
      t.same(await moveRoundup(deps, editor.viewer, id, to), { status: to, slug: null }, `${from} → ${to}`);
    }
    await rejects(t, moveRoundup(deps, editor.viewer, id, 'PUBLISHED'), 'ExpertPanels.MoveNotAllowed', 'an unknown status');
    await rejects(t, moveRoundup(deps, ada.viewer, id, 'FINAL'), 'Forbidden', 'a member cannot publish');
    await rejects(t, moveRoundup(w.depsFor(beta), betaEditor.viewer, id, 'FINAL'), 'ExpertPanels.NotFound', "another community's editor finds nothing");
    const log = await w.moves(id);
    t.same(log.map((m) => [m.from_status, m.to_status, m.actor_id]), path.map(([f, to]) => [f, to, editor.id]), 'each move once, with its editor');
    t.ok(log.every((m) => new Date(m.created_at).getTime() === w.clock.now().getTime()), 'and its time');
    t.equal((await w.roundupRow(id)).slug, null, 'no address before publishing');
    t.equal(await publishedRoundup(deps, slugify('Planning cash for a slow quarter')), null, 'and no live page');
  });

  await t.test('publishing: the slug, the time, one notification per contributor, in the same transaction', async (t) => {
    const done = await moveRoundup(deps, editor.viewer, id, 'FINAL');
    t.same(done, { status: 'FINAL', slug: 'planning-cash-for-a-slow-quarter' });
    const row = await w.roundupRow(id);
    t.equal(new Date(row.published_at!).toISOString(), w.clock.now().toISOString());
    for (const who of [ada, alan]) {
      const got = (await w.notes(who.id)).filter((n) => n.kind === 'expert_answers');
      t.equal(got.length, 1, `${who.firstName} is told once`);
      t.match(got[0]?.message, 'Planning cash for a slow quarter', 'the message names the roundup');
      t.equal(got[0]?.url, '/expert-panels/roundups/planning-cash-for-a-slow-quarter', 'and leads to its live page');
    }
    t.same(await w.notes(grace.id), [], 'a member whose answer is not in it hears nothing');
    t.same((await w.moves(id)).at(-1)?.to_status, 'FINAL');
    const live = await publishedRoundup(deps, 'planning-cash-for-a-slow-quarter');
    t.same(live?.answers.map((a) => a.answerId), [a1, a2], 'the live page has the answers in order');
    t.equal(live?.questionTitle, 'How do you plan cash for a slow quarter?');
    t.equal(await publishedRoundup(w.depsFor(beta), 'planning-cash-for-a-slow-quarter'), null, "not on another community's site");
    t.equal(await publishedRoundup(deps, '../etc'), null, 'a hostile slug finds nothing');
  });

  await t.test('a published roundup is frozen', async (t) => {
    await rejects(t, updateRoundup(deps, editor.viewer, id, { title: 'New title' }), 'ExpertPanels.RoundupPublished', 'its text');
    await rejects(t, setRoundupAnswers(deps, editor.viewer, id, [a1]), 'ExpertPanels.RoundupPublished', 'its answers');
    await rejects(t, removeRoundupAnswer(deps, editor.viewer, id, a1), 'ExpertPanels.RoundupPublished', 'a removal');
    await rejects(t, moveRoundupAnswer(deps, editor.viewer, id, a2, 'up'), 'ExpertPanels.RoundupPublished', 'the order');
    t.equal((await w.roundupRow(id)).title, 'Planning cash for a slow quarter');
    t.equal((await getRoundup(deps, editor.viewer, id)).answers.length, 2);
  });

  await t.test('slugs are unique in the community: -2, -3; another community may reuse one', async (t) => {
    const publish = async (d: typeof deps, viewer: typeof editor.viewer, q: number, answerId: number) => {
      const r = await createRoundup(d, viewer, { questionId: q, title: 'Planning cash for a slow quarter!' });
      await setRoundupAnswers(d, viewer, r.id, [answerId]);
      for (const to of ['EDITOR_REVIEW', 'READY_FOR_PUBLISHING', 'FINAL'] as const) await moveRoundup(d, viewer, r.id, to);
      return (await w.roundupRow(r.id)).slug;
    };
    t.equal(await publish(deps, editor.viewer, question, a1), 'planning-cash-for-a-slow-quarter-2');
    t.equal(await publish(deps, editor.viewer, question, a2), 'planning-cash-for-a-slow-quarter-3');
    t.equal(await publish(w.depsFor(beta), betaEditor.viewer, betaQuestion, betaAnswer), 'planning-cash-for-a-slow-quarter', 'beta has its own');
    t.equal(slugify('Ça va? Ünïcödé & more'), 'ca-va-unicode-and-more');
    t.equal(slugify('!!!'), 'roundup');
    t.ok(slugify('word '.repeat(60)).length <= 80);
  });

  await t.test("tenancy: another community's roundup is not found", async (t) => {
    const betaDeps = w.depsFor(beta);
    await rejects(t, getRoundup(betaDeps, betaEditor.viewer, id), 'ExpertPanels.NotFound', 'read');
    await rejects(t, updateRoundup(betaDeps, betaEditor.viewer, id, { title: 'Mine now' }), 'ExpertPanels.NotFound', 'update');
    await rejects(t, setRoundupAnswers(betaDeps, betaEditor.viewer, id, []), 'ExpertPanels.NotFound', 'answers');
    const board = await listRoundups(betaDeps, betaEditor.viewer, { status: null, q: null, after: null });
    t.same(board.rows.map((r) => r.title), ['Planning cash for a slow quarter!'], "beta's board has beta's only");
  });

  await t.test('the board: status filter, title search, newest first, keyset pages; the export', async (t) => {
    const all = await listRoundups(deps, editor.viewer, { status: null, q: null, after: null });
    t.ok(all.rows.length >= 5);
    t.same(all.rows.map((r) => r.id), [...all.rows.map((r) => r.id)].sort((a, b) => b - a), 'newest first');
    const finals = await listRoundups(deps, editor.viewer, { status: 'FINAL', q: null, after: null });
    t.equal(finals.rows.length, 3);
    t.ok(finals.rows.every((r) => r.status === 'FINAL' && r.answerCount >= 1));
    const found = await listRoundups(deps, editor.viewer, { status: null, q: 'empt', after: null });
    t.same(found.rows.map((r) => r.title), ['Empty']);
    t.same((await listRoundups(deps, editor.viewer, { status: null, q: '100%_', after: null })).rows, [], 'wildcards are plain text');
    const first = await listRoundups(deps, editor.viewer, { status: null, q: null, after: null }, 2);
    t.equal(first.rows.length, 2);
    t.ok(first.next);
    const second = await listRoundups(deps, editor.viewer, { status: null, q: null, after: first.next }, 2);
    t.ok(second.rows.every((r) => r.id < first.rows[1]!.id), 'the next page goes on from the cursor');
    await rejects(t, listRoundups(deps, editor.viewer, { status: null, q: null, after: 'abc' }), 'BadRequest.Validation', 'a cursor that is no id');
    await rejects(t, listRoundups(deps, editor.viewer, { status: null, q: 'a\u0000b', after: null }), 150, 'control characters in the search');
    const csv = await exportRoundups(deps, editor.viewer, { status: 'FINAL', q: null, after: null });
    t.equal(csv.rows.length, 3);
    t.equal(csv.truncated, false);
  });
});
