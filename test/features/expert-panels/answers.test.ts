import t from 'tap';
import { markAnswer, submitAnswer } from '#src/features/expert-panels/answers.ts';
import { getQuestion } from '#src/features/expert-panels/questions.ts';
import { ANSWER_HTML_MAX } from '#src/features/expert-panels/rules.ts';
import { rejects } from '#test/helpers/forum-core.ts';
import { epWorld, words } from './member-world.ts';

t.test('a member answers the questions sent to them', async (t) => {
  const w = await epWorld(t);
  const { alpha, beta, db } = w;
  const deps = w.depsFor(alpha);
  const ada = await w.member(alpha, { firstName: 'Ada' });
  const bob = await w.member(alpha, { firstName: 'Bob' });
  const staff = await w.member(alpha, { staff: true });
  const bea = await w.member(beta, { firstName: 'Bea' });
  const panel = await w.panel(alpha, { min: 5, max: 10 });
  const batch = await w.batch(alpha, panel);
  const q1 = await w.question(alpha, batch, panel, [ada.id, bob.id], { title: 'How do you price?' });
  const closed = await w.question(alpha, batch, panel, [ada.id], { title: 'Closed one', closed: true });
  const bPanel = await w.panel(beta);
  const bQuestion = await w.question(beta, await w.batch(beta, bPanel), bPanel, [bea.id]);

  await t.test('submitting puts the answer in review, sanitised, counted, with the member’s revision', async (t) => {
    const view = await submitAnswer(deps, ada.viewer, q1, { body: '<p>We raised prices <strong>twice</strong> last year.</p><script>alert(1)</script>' });
    t.equal(view.answer.status, 'submitted');
    t.equal(view.answer.bodyHtml, '<p>We raised prices <strong>twice</strong> last year.</p>', 'the script is gone');
    t.equal(view.answer.wordCount, 6);
    t.equal(view.answer.editable, true, 'still editable until an editor picks it up');
    t.equal(view.answer.markable, false, 'no longer markable');
    const row = await w.answerOf(q1, ada.id);
    t.equal(row.body_text, 'We raised prices twice last year.');
    t.ok(row.submitted_at, 'submitted_at');
    t.equal(row.edited_at, null, 'not an edit');
    const revisions = await db.selectFrom('ep_answer_revisions').selectAll().where('answer_id', '=', row.id).execute();
    t.equal(revisions.length, 1);
    t.equal(revisions[0]!.editor_id, null, "the member's own text");
  });

  await t.test('the member changes it until an editor picks it up; then it is refused', async (t) => {
    w.clock.advance(60_000);
    const before = await w.answerOf(q1, ada.id);
    const view = await submitAnswer(deps, ada.viewer, q1, { body: '<p>We raised prices three times last year.</p>' });
    t.equal(view.answer.wordCount, 7);
    t.ok(view.answer.editedAt, 'edited_at');
    const after = await w.answerOf(q1, ada.id);
    t.same(after.submitted_at, before.submitted_at, 'submitted_at kept');
    t.equal((await db.selectFrom('ep_answer_revisions').select('id').where('answer_id', '=', after.id).execute()).length, 2, 'a second revision');
    await w.editorSets(q1, ada.id, { review: true });
    await rejects(t, submitAnswer(deps, ada.viewer, q1, { body: '<p>One more change of my answer.</p>' }), 'ExpertPanels.InReview', 'picked up: no more changes');
    t.equal((await getQuestion(deps, ada.viewer, q1)).answer.editable, false, 'the page says so');
    await rejects(t, markAnswer(deps, ada.viewer, q1, 'ignored'), 'ExpertPanels.InReview', 'nor marked');
  });

  await t.test('accepted and declined answers cannot be changed', async (t) => {
    await w.editorSets(q1, ada.id, { status: 'accepted', note: 'Great' });
    await rejects(t, submitAnswer(deps, ada.viewer, q1, { body: '<p>Trying to change my accepted answer.</p>' }), 'ExpertPanels.InReview', 'accepted');
  });

  await t.test('a closed question takes no answer and no mark', async (t) => {
    await rejects(t, submitAnswer(deps, ada.viewer, closed, { body: `<p>${words(6)}</p>` }), 'ExpertPanels.Closed', 'answer refused');
    await rejects(t, markAnswer(deps, ada.viewer, closed, 'cant_answer'), 'ExpertPanels.Closed', 'mark refused');
    const view = await getQuestion(deps, ada.viewer, closed);
    t.equal(view.closed, true);
    t.equal(view.answer.editable, false);
    t.equal(view.answer.markable, false);
  });

  await t.test("the word range's edges: required, too short, too long (the spec's messages)", async (t) => {
    const e1 = await rejects(t, submitAnswer(deps, bob.viewer, q1, { body: '' }), 'ExpertPanels.AnswerRequired', 'empty');
    t.equal(e1?.fields?.body?.key, 'expertPanels.errors.answerRequired');
    await rejects(t, submitAnswer(deps, bob.viewer, q1, { body: '<p> </p><p><br></p>' }), 'ExpertPanels.AnswerRequired', 'only markup');
    await rejects(t, submitAnswer(deps, bob.viewer, q1, { body: null }), 'ExpertPanels.AnswerRequired', 'not a string');
    const short = await rejects(t, submitAnswer(deps, bob.viewer, q1, { body: `<p>${words(4)}</p>` }), 'ExpertPanels.AnswerTooShort', 'min - 1');
    t.same(short?.values, { words: 4, min: 5, max: 10 });
    t.equal(w.app.t(short!.key, short!.values), 'Your answer is 4 words: please write at least 5 words.');
    const long = await rejects(t, submitAnswer(deps, bob.viewer, q1, { body: `<p>${words(11)}</p>` }), 'ExpertPanels.AnswerTooLong', 'max + 1');
    t.equal(w.app.t(long!.key, long!.values), 'Your answer is 11 words: please keep it to 10 words.');
    await rejects(t, submitAnswer(deps, bob.viewer, q1, { body: 'x '.repeat(ANSWER_HTML_MAX) }), 'ExpertPanels.AnswerTooLong', 'huge HTML refused before sanitising');
    t.equal((await w.answerOf(q1, bob.id)).status, 'open', 'nothing was saved');
    t.equal((await submitAnswer(deps, bob.viewer, q1, { body: `<p>${words(5)}</p>` })).answer.wordCount, 5, 'exactly min');
    t.equal((await submitAnswer(deps, bob.viewer, q1, { body: `<p>${words(10)}</p>` })).answer.wordCount, 10, 'exactly max');
  });

  await t.test("can't answer and ignore, from open only; the member may still answer later", async (t) => {
    const q = await w.question(alpha, batch, panel, [ada.id], { title: 'Marks' });
    t.equal((await markAnswer(deps, ada.viewer, q, 'cant_answer')).answer.status, 'cant_answer');
    t.equal((await markAnswer(deps, ada.viewer, q, 'ignored')).answer.status, 'ignored');
    const view = await getQuestion(deps, ada.viewer, q);
    t.equal(view.answer.editable, true, 'still answerable');
    t.equal(view.answer.markable, true);
    await rejects(t, markAnswer(deps, ada.viewer, q, 'accepted'), 'ExpertPanels.Invalid', 'only the two marks');
    await rejects(t, markAnswer(deps, ada.viewer, q, 'submitted'), 'ExpertPanels.Invalid', 'not submitted either');
    t.equal((await submitAnswer(deps, ada.viewer, q, { body: `<p>${words(6)}</p>` })).answer.status, 'submitted', 'answered after ignoring');
    await rejects(t, markAnswer(deps, ada.viewer, q, 'cant_answer'), 'ExpertPanels.InReview', 'a submitted answer is not marked');
  });

  await t.test('tenancy: only the member a question was sent to, in its community', async (t) => {
    await rejects(t, getQuestion(deps, staff.viewer, q1), 'ExpertPanels.QuestionNotFound', 'staff it was not sent to');
    const q = await w.question(alpha, batch, panel, [ada.id], { title: 'Only Ada' });
    await rejects(t, getQuestion(deps, bob.viewer, q), 'ExpertPanels.QuestionNotFound', "another member's question");
    await rejects(t, submitAnswer(deps, bob.viewer, q, { body: `<p>${words(6)}</p>` }), 'ExpertPanels.QuestionNotFound', "answering another member's question");
    await rejects(t, markAnswer(deps, bob.viewer, q, 'ignored'), 'ExpertPanels.QuestionNotFound', "marking another member's question");
    await rejects(t, getQuestion(w.depsFor(beta), ada.viewer, q), 'ExpertPanels.QuestionNotFound', 'from another community');
    await rejects(t, getQuestion(deps, bea.viewer, bQuestion), 'ExpertPanels.QuestionNotFound', "beta's question read through alpha");
    await rejects(t, submitAnswer(deps, bea.viewer, bQuestion, { body: `<p>${words(6)}</p>` }), 'ExpertPanels.QuestionNotFound', "beta's question answered through alpha");
    t.equal((await w.answerOf(bQuestion, bea.id)).status, 'open', 'untouched');
    await rejects(t, getQuestion(deps, ada.viewer, 999_999), 'ExpertPanels.QuestionNotFound', 'a missing id');
  });

  await t.test('hostile input is a 4xx', async (t) => {
    const q = await w.question(alpha, batch, panel, [ada.id], { title: 'Hostile' });
    const nul = await rejects(t, submitAnswer(deps, ada.viewer, q, { body: `<p>${words(6)}\u0000</p>` }), 150, 'a NUL byte');
    t.ok(nul?.fields?.body, 'on the field');
    for (const id of ['abc', '0', '-1', '99999999999', '1 or 1=1', 1.5, null]) {
      await rejects(t, getQuestion(deps, ada.viewer, id), 'ExpertPanels.QuestionNotFound', `id ${String(id)}`);
    }
    await rejects(t, submitAnswer(deps, ada.viewer, q, { body: { html: 'x' } }), 'ExpertPanels.AnswerRequired', 'an object body');
  });
});
