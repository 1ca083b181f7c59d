import t from 'tap';
import { isAppError } from '#src/core/errors.ts';
import { addQuestion, closeQuestion, createBatch, getBatch, removeQuestion, reopenQuestion, sendBatch, updateQuestion } from '#src/features/expert-panels/admin/batches.ts';
import { addPanelMember, createPanel, getPanel, listPanels, removePanelMember, setPanelArchived, updatePanel } from '#src/features/expert-panels/admin/panels.ts';
import { answerBoard, answerFiltersOf, answersForExport, decideAnswer, editAnswer, getAnswer, startReview } from '#src/features/expert-panels/admin/review.ts';
import { QUESTIONS_PER_BATCH_MAX, WORDS_CEILING } from '#src/features/expert-panels/rules.ts';
import { setupDatabase, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember } from '#test/helpers/factories.ts';
import { epDepsFor, queuedInvites, startEpApp, submitAs } from './admin-fixtures.ts';

/** The code of what `p` throws (and its field names), or 'ok'. */
async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (!isAppError(e)) throw e;
    return e.fields ? `${e.code}:${Object.keys(e.fields).join(',')}` : String(e.code);
  }
}

t.test('expert panels, the editors’ services', async (t) => {
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
  const gone = await createMember(db, alpha, { firstName: 'Gone', lastName: 'Away', active: false });
  const stranger = await createMember(db, harbor, { firstName: 'Sam', lastName: 'Harbor' });
  const editor = { userId: boss.id, isStaff: true };
  const member = { userId: ada.id, isStaff: false };
  const future = new Date(clock.now().getTime() + 7 * 24 * 3600 * 1000).toISOString();

  let panelId = 0;
  await t.test('panels: fields checked, names unique per community whatever their case, members by email or username', async (t) => {
    t.equal(await refusal(createPanel(deps, member, { name: 'Finance', minWords: '10', maxWords: '100' })), 'Forbidden', 'a member is refused');
    t.equal(await refusal(createPanel(deps, editor, { name: '  ', minWords: '10', maxWords: '100' })), 'ExpertPanels.Invalid:name');
    t.equal(await refusal(createPanel(deps, editor, { name: 'x'.repeat(121), minWords: '10', maxWords: '100' })), 'ExpertPanels.Invalid:name');
    t.equal(await refusal(createPanel(deps, editor, { name: 'Fin\u0000ance', minWords: '10', maxWords: '100' })), '150:name');
    t.equal(await refusal(createPanel(deps, editor, { name: 'Finance', minWords: '-1', maxWords: '100' })), 'ExpertPanels.Invalid:minWords');
    t.equal(await refusal(createPanel(deps, editor, { name: 'Finance', minWords: '10', maxWords: String(WORDS_CEILING + 1) })), 'ExpertPanels.Invalid:maxWords');
    t.equal(await refusal(createPanel(deps, editor, { name: 'Finance', minWords: '200', maxWords: '100' })), 'ExpertPanels.Invalid:maxWords', 'min ≤ max');
    t.equal(await refusal(createPanel(deps, editor, { name: 'Finance', minWords: '1e3', maxWords: '100' })), 'ExpertPanels.Invalid:minWords');
    panelId = await createPanel(deps, editor, { name: 'Finance', topic: 'Money matters', minWords: '3', maxWords: '100' });
    t.equal(await refusal(createPanel(deps, editor, { name: 'FINANCE', minWords: '3', maxWords: '100' })), 'ExpertPanels.Invalid:name', 'a name taken whatever its case');
    t.ok(await createPanel(other, { userId: boss.id, isStaff: true }, { name: 'Finance', minWords: '3', maxWords: '100' }), 'another community may use the name');
    await updatePanel(deps, editor, panelId, { name: 'Finance and funding', topic: 'Money', minWords: '5', maxWords: '100' });
    t.equal(await refusal(updatePanel(other, editor, panelId, { name: 'Mine', minWords: '5', maxWords: '100' })), 'ExpertPanels.NotFound', 'another community’s panel is not found');

    t.equal(await addPanelMember(deps, editor, panelId, ada.email.toUpperCase()), ada.id, 'by email, whatever its case');
    t.equal(await addPanelMember(deps, editor, panelId, `@member-${alan.email.split('@')[0]!.split('-')[1]}`), alan.id, 'by @username');
    t.equal(await addPanelMember(deps, editor, panelId, ada.email), ada.id, 'adding again changes nothing');
    t.equal(await refusal(addPanelMember(deps, editor, panelId, gone.email)), 'ExpertPanels.Invalid:who', 'an inactive member is refused');
    t.equal(await refusal(addPanelMember(deps, editor, panelId, stranger.email)), 'ExpertPanels.Invalid:who', 'another community’s member is refused');
    const panel = await getPanel(deps, editor, panelId);
    t.same(panel.members.map((m) => m.member.name), ['Ada Lovelace', 'Alan Turing']);
    t.equal(panel.memberCount, 2);
    t.equal(panel.name, 'Finance and funding');
    t.equal(await refusal(getPanel(other, editor, panelId)), 'ExpertPanels.NotFound');

    const extra = await createMember(db, alpha, { firstName: 'Extra', lastName: 'Person' });
    await addPanelMember(deps, editor, panelId, extra.email);
    await removePanelMember(deps, editor, panelId, extra.id);
    t.equal(await refusal(removePanelMember(deps, editor, panelId, extra.id)), 'ExpertPanels.NotFound', 'someone not on the panel');
    t.equal((await listPanels(deps, editor)).length, 1);
  });

  let batchId = 0;
  let q1 = 0;
  let q2 = 0;
  await t.test('batches: a panel, a title, a deadline in the future; questions while draft', async (t) => {
    t.equal(await refusal(createBatch(deps, editor, { panelId: String(panelId), title: 'Q1', deadline: '2020-01-01T00:00' })), 'ExpertPanels.Invalid:deadline', 'a deadline past');
    t.equal(await refusal(createBatch(deps, editor, { panelId: String(panelId), title: 'Q1', deadline: 'tomorrow' })), 'ExpertPanels.Invalid:deadline');
    t.equal(await refusal(createBatch(deps, editor, { panelId: '999999', title: 'Q1', deadline: future })), 'ExpertPanels.Invalid:panelId');
    t.equal(await refusal(createBatch(deps, editor, { panelId: "1' or 1=1", title: 'Q1', deadline: future })), 'ExpertPanels.Invalid:panelId');
    batchId = await createBatch(deps, editor, { panelId: String(panelId), title: 'December questions', deadline: future });
    t.equal(await refusal(sendBatch(deps, editor, batchId)), 'ExpertPanels.Invalid:form', 'no questions yet');
    t.equal(await refusal(addQuestion(deps, editor, batchId, { title: '' })), 'ExpertPanels.Invalid:title');
    q1 = await addQuestion(deps, editor, batchId, { title: 'How do you plan cash?', brief: '<p>Tell us <script>alert(1)</script><strong>how</strong>.</p>', guidelines: '' });
    q2 = await addQuestion(deps, editor, batchId, { title: 'Your worst hire?', brief: '', guidelines: '<p>Be kind.</p>' });
    const q3 = await addQuestion(deps, editor, batchId, { title: 'To remove', brief: '', guidelines: '' });
    await updateQuestion(deps, editor, q2, { title: 'Your best hire?', brief: '', guidelines: '<p>Be specific.</p>' });
    await removeQuestion(deps, editor, q3);
    const batch = await getBatch(deps, editor, batchId);
    t.same(batch.questions.map((q) => q.title), ['How do you plan cash?', 'Your best hire?']);
    t.notMatch(batch.questions[0]!.briefHtml, '<script', 'the brief is sanitised');
    t.match(batch.questions[0]!.briefHtml, '<strong>how</strong>');
    t.equal(await refusal(addQuestion(other, editor, batchId, { title: 'Sneaky' })), 'ExpertPanels.NotFound', 'another community’s batch');

    const full = await createBatch(deps, editor, { panelId: String(panelId), title: 'Full', deadline: future });
    for (let i = 0; i < QUESTIONS_PER_BATCH_MAX; i++) await addQuestion(deps, editor, full, { title: `Q${i}` });
    t.equal(await refusal(addQuestion(deps, editor, full, { title: 'One too many' })), 'ExpertPanels.Invalid:title');
  });

  await t.test('sending: sent once, one open answer per question and active member, the invite job queued once', async (t) => {
    t.equal(await refusal(sendBatch(deps, member, batchId)), 'Forbidden');
    t.equal(await refusal(sendBatch(other, editor, batchId)), 'ExpertPanels.NotFound');
    const before = await queuedInvites(db);
    const sent = await sendBatch(deps, editor, batchId);
    t.same(sent, { answers: 4, members: 2 });
    t.equal(await queuedInvites(db), before + 1, 'the invite job is queued');
    t.equal(await refusal(sendBatch(deps, editor, batchId)), 'ExpertPanels.BatchSent', 'a second send is refused');
    t.equal(await queuedInvites(db), before + 1, 'and queues nothing');
    const answers = await db.selectFrom('ep_answers').select(['question_id', 'user_id', 'status']).where('community_id', '=', alpha.id).orderBy('id').execute();
    t.equal(answers.length, 4);
    t.ok(answers.every((a) => a.status === 'open'));
    t.equal(await refusal(addQuestion(deps, editor, batchId, { title: 'Late' })), 'ExpertPanels.BatchSent');
    t.equal(await refusal(updateQuestion(deps, editor, q1, { title: 'Changed' })), 'ExpertPanels.BatchSent');
    t.equal(await refusal(removeQuestion(deps, editor, q1)), 'ExpertPanels.BatchSent');
  });

  await t.test('a question is closed and reopened', async (t) => {
    await closeQuestion(deps, editor, q2);
    const closed = await db.selectFrom('ep_questions').select(['closed_at', 'closed_by']).where('id', '=', q2).executeTakeFirstOrThrow();
    t.ok(closed.closed_at);
    t.equal(closed.closed_by, boss.id);
    t.equal(await refusal(closeQuestion(other, editor, q2)), 'ExpertPanels.NotFound');
    await reopenQuestion(deps, editor, q2);
    t.equal((await db.selectFrom('ep_questions').select('closed_at').where('id', '=', q2).executeTakeFirstOrThrow()).closed_at, null);
  });

  await t.test('review: start, edit (a revision), accept or decline with a note, the member told', async (t) => {
    const [adaAnswer, alanAnswer] = await Promise.all(
      [ada, alan].map((m) => db.selectFrom('ep_answers').select('id').where('question_id', '=', q1).where('user_id', '=', m.id).executeTakeFirstOrThrow()),
    );
    t.equal(await refusal(startReview(deps, editor, adaAnswer!.id)), 'ExpertPanels.NotInReview', 'an answer not submitted');
    const text = 'We plan cash thirteen weeks ahead and review the forecast every Monday with the whole team.';
    await submitAs(db, adaAnswer!.id, `<p>${text}</p>`, 16, clock.now());
    await submitAs(db, alanAnswer!.id, `<p>${text} Also we keep reserves.</p>`, 20, clock.now());

    await startReview(deps, editor, adaAnswer!.id);
    const started = await getAnswer(deps, editor, adaAnswer!.id);
    t.ok(started.reviewStartedAt, 'the review started');
    t.equal(started.reviewerName, 'Bea Boss');
    t.ok(started.scan, 'the copy scan ran');
    t.ok((started.scan!.identicalWords ?? 0) > 0, 'and found the other answer’s words');
    t.equal(await refusal(startReview(other, editor, adaAnswer!.id)), 'ExpertPanels.NotFound');

    t.equal(await refusal(editAnswer(deps, editor, adaAnswer!.id, { body: '' })), 'ExpertPanels.Invalid:body');
    await editAnswer(deps, editor, adaAnswer!.id, { body: '<p>We plan cash <em>weekly</em>.</p>' });
    const edited = await getAnswer(deps, editor, adaAnswer!.id);
    t.equal(edited.wordCount, 4);
    t.ok(edited.editedAt);
    t.same(edited.revisions.map((r) => r.byEditor), [true, false], 'the editor’s revision, then the member’s text');

    t.equal(await refusal(decideAnswer(deps, editor, alanAnswer!.id, 'decline', '')), 'ExpertPanels.Invalid:note', 'declining needs a note');
    t.equal(await refusal(decideAnswer(deps, editor, alanAnswer!.id, 'decline', 'x'.repeat(1001))), 'ExpertPanels.Invalid:note');
    t.equal(await refusal(decideAnswer(deps, editor, alanAnswer!.id, null, '')), 'ExpertPanels.Invalid:decision');
    t.equal(await refusal(decideAnswer(deps, member, alanAnswer!.id, 'accept', '')), 'Forbidden');
    t.equal(await decideAnswer(deps, editor, adaAnswer!.id, 'accept', 'Lovely.'), 'accepted');
    t.equal(await decideAnswer(deps, editor, alanAnswer!.id, 'decline', 'Too close to another answer.'), 'declined');
    t.equal(await refusal(decideAnswer(deps, editor, alanAnswer!.id, 'accept', '')), 'ExpertPanels.NotInReview', 'decided once');
    // Once in a published roundup, the answer's text is final.
    const [roundup] = await db
      .insertInto('ep_roundups')
      .values({ community_id: alpha.id, question_id: (await db.selectFrom('ep_answers').select('question_id').where('id', '=', adaAnswer!.id).executeTakeFirstOrThrow()).question_id, title: 'Cash planning', status: 'FINAL', slug: 'cash-planning', published_at: clock.now() })
      .returning('id')
      .execute();
    await db.insertInto('ep_roundup_answers').values({ roundup_id: roundup!.id, answer_id: adaAnswer!.id, community_id: alpha.id, position: 1 }).execute();
    t.equal(await refusal(editAnswer(deps, editor, adaAnswer!.id, { body: '<p>A quiet change after publishing.</p>' })), 'ExpertPanels.RoundupPublished');
    t.equal((await getAnswer(deps, editor, adaAnswer!.id)).wordCount, 4, 'the published text stays');
    await db.deleteFrom('ep_roundup_answers').where('roundup_id', '=', roundup!.id).execute();
    await db.deleteFrom('ep_roundups').where('id', '=', roundup!.id).execute();
    const notes = await db.selectFrom('notifications').select(['user_id', 'kind', 'url', 'message']).where('kind', '=', 'expert_answers').orderBy('id').execute();
    t.same(
      notes.map((n) => [n.user_id, n.url]),
      [
        [ada.id, `/expert-panels/${q1}`],
        [alan.id, `/expert-panels/${q1}`],
      ],
    );
    t.match(notes[0]!.message, 'was accepted');
    t.match(notes[1]!.message, 'Too close to another answer.');
    const declined = await getAnswer(deps, editor, alanAnswer!.id);
    t.equal(declined.status, 'declined');
    t.equal(declined.decisionNote, 'Too close to another answer.');
  });

  await t.test('the board: filters, search, sort, keyset pages, export', async (t) => {
    const all = await answerBoard(deps, editor, answerFiltersOf({}), { first: 3 });
    t.equal(all.rows.length, 3);
    t.ok(all.next);
    const rest = await answerBoard(deps, editor, answerFiltersOf({}), { first: 3, after: all.next });
    t.equal(rest.rows.length, 1);
    t.equal(rest.next, null);
    t.equal(new Set([...all.rows, ...rest.rows].map((r) => r.id)).size, 4, 'every answer once');
    t.same((await answerBoard(deps, editor, answerFiltersOf({ status: 'ACCEPTED' }))).rows.map((r) => r.member.name), ['Ada Lovelace']);
    t.same((await answerBoard(deps, editor, answerFiltersOf({ q: 'reserves' }))).rows.map((r) => r.member.name), ['Alan Turing'], 'search in the text');
    t.same([...new Set((await answerBoard(deps, editor, answerFiltersOf({ q: 'lovelace' }))).rows.map((r) => r.member.name))], ['Ada Lovelace'], 'search in the name');
    t.equal((await answerBoard(deps, editor, answerFiltersOf({ q: '100%_' }))).rows.length, 0, 'wildcards match themselves');
    const byWords = await answerBoard(deps, editor, answerFiltersOf({ sort: 'words' }), { first: 1 });
    t.equal(byWords.rows[0]!.wordCount, 20);
    const second = await answerBoard(deps, editor, answerFiltersOf({ sort: 'words' }), { first: 1, after: byWords.next });
    t.equal(second.rows[0]!.wordCount, 4);
    t.equal((await answerBoard(deps, editor, answerFiltersOf({ panelId: '999' }))).rows.length, 0);
    t.equal((await answerBoard(deps, editor, answerFiltersOf({}), { after: 'garbage' })).rows.length, 4, 'a bad cursor starts at the top');
    t.equal((await answerBoard(other, editor, answerFiltersOf({}))).rows.length, 0, 'another community sees none');
    t.equal(await refusal(Promise.resolve().then(() => answerFiltersOf({ q: 'a\u0000b' }))), '150:q');
    t.equal((await answersForExport(deps, editor, answerFiltersOf({ status: 'declined' })))[0]!.email, alan.email);
  });

  await t.test('archiving a panel', async (t) => {
    await setPanelArchived(deps, editor, panelId, true);
    t.equal(await refusal(createBatch(deps, editor, { panelId: String(panelId), title: 'More', deadline: future })), 'ExpertPanels.Invalid:panelId', 'an archived panel takes no new batches');
    await setPanelArchived(deps, editor, panelId, false);
    t.ok(await createBatch(deps, editor, { panelId: String(panelId), title: 'More', deadline: future }));
  });
});
