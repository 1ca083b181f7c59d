import t from 'tap';
import type { EpDeps } from '#src/features/expert-panels/deps.ts';
import { getQuestion, listMemberQuestions } from '#src/features/expert-panels/questions.ts';
import { ANSWER_STATUSES, checkAnswer } from '#src/features/expert-panels/rules.ts';
import { startApp } from '#test/helpers/app.ts';
import { signIn } from '#test/helpers/factories.ts';
import { setupDatabase } from '#test/helpers/app.ts';

t.test("the demo's expert panels, as Amara Okafor sees them", async (t) => {
  const db = await setupDatabase(t, { seeded: true });
  const { app } = await startApp(t, db, { env: { DEFAULT_COMMUNITY: 'summit' } });
  const summit = await db.selectFrom('communities').selectAll().where('code', '=', 'summit').executeTakeFirstOrThrow();
  const amara = (await db.selectFrom('users').select('id').where('email', '=', 'amara.okafor@summit-demo.example.com').executeTakeFirstOrThrow()).id;
  const deps: EpDeps = { db, clock: app.clock, community: summit, t: app.t, notifier: app.notifications, publicUrl: app.config.publicUrl, jobs: app.jobs };
  const viewer = { userId: amara, isStaff: false };

  await t.test('two panels, Amara in both; answers in every state', async (t) => {
    const panels = await db.selectFrom('ep_panels').select(['id', 'name']).where('community_id', '=', summit.id).orderBy('id').execute();
    t.same(panels.map((p) => p.name), ['Growth & Go-to-Market', 'Leadership & Teams']);
    const mine = await db.selectFrom('ep_panel_members').select('panel_id').where('user_id', '=', amara).execute();
    t.equal(mine.length, 2);
    const statuses = new Set((await db.selectFrom('ep_answers').select('status').where('community_id', '=', summit.id).execute()).map((r) => r.status));
    t.same([...statuses].sort(), [...ANSWER_STATUSES].sort(), 'every state');
  });

  await t.test('every written answer keeps to its panel’s word range', async (t) => {
    const rows = await db
      .selectFrom('ep_answers as a')
      .innerJoin('ep_questions as q', 'q.id', 'a.question_id')
      .innerJoin('ep_panels as p', 'p.id', 'q.panel_id')
      .select(['a.body_html', 'a.word_count', 'p.min_words', 'p.max_words'])
      .where('a.body_html', '!=', '')
      .execute();
    for (const r of rows) t.ok(checkAnswer(r.body_html, { min: r.min_words, max: r.max_words }).ok, `${r.word_count} words`);
  });

  await t.test('Amara: three open questions to answer (one already in review), one answered, one published', async (t) => {
    const open = await listMemberQuestions(deps, viewer, { tab: 'open' });
    t.equal(open.rows.length, 2, 'two she can answer now');
    t.ok(open.rows.every((r) => !r.closed && r.deadlineAt.getTime() > Date.now() + 9 * 86_400_000), 'due in about ten days');
    t.same(open.counts, { open: 2, 'in-review': 1, answered: 2, published: 1 });
    const published = (await listMemberQuestions(deps, viewer, { tab: 'published' })).rows[0]!;
    t.same(published.roundup, { title: 'Pricing moves that paid off: three leaders on what changed their revenue', path: '/expert-panels/roundups/pricing-moves-that-paid-off' });
    const view = await getQuestion(deps, viewer, published.questionId);
    t.equal(view.closed, true, 'the older batch is closed');
    t.ok(view.answer.editorRevision, "the editor's light edit");
    const inReview = (await listMemberQuestions(deps, viewer, { tab: 'in-review' })).rows[0]!;
    t.equal((await getQuestion(deps, viewer, inReview.questionId)).answer.editable, true, 'still editable');
  });

  await t.test('the roundup: FINAL, three answers in order, its moves logged by the admin', async (t) => {
    const roundup = await db.selectFrom('ep_roundups').selectAll().where('community_id', '=', summit.id).executeTakeFirstOrThrow();
    t.equal(roundup.status, 'FINAL');
    t.ok(roundup.published_at);
    const answers = await db.selectFrom('ep_roundup_answers').select('position').where('roundup_id', '=', roundup.id).orderBy('position').execute();
    t.same(answers.map((a) => a.position), [1, 2, 3]);
    const moves = await db.selectFrom('ep_roundup_moves').select(['from_status', 'to_status']).where('roundup_id', '=', roundup.id).orderBy('id').execute();
    t.same(moves.map((m) => `${m.from_status}>${m.to_status}`), ['DRAFT>EDITOR_REVIEW', 'EDITOR_REVIEW>READY_FOR_PUBLISHING', 'READY_FOR_PUBLISHING>FINAL']);
  });

  await t.test("what the services would have told Amara: the open batch's questions (unread), the decisions, the published roundup", async (t) => {
    const mine = await db
      .selectFrom('notifications')
      .select(['kind', 'url', 'message', 'read_at', 'viewed_at'])
      .where('community_id', '=', summit.id)
      .where('user_id', '=', amara)
      .where('kind', 'in', ['expert_questions', 'expert_answers'])
      .orderBy('created_at')
      .execute();
    const unread = mine.filter((n) => n.read_at === null);
    t.equal(unread.length, 1, 'one unread: the open batch');
    t.match(unread[0], { kind: 'expert_questions', url: '/expert-panels', viewed_at: null });
    t.match(unread[0]!.message, /^3 new expert-panel questions from .+ for you: please answer by /);
    const published = mine.find((n) => n.url === '/expert-panels/roundups/pricing-moves-that-paid-off');
    t.equal(published?.message, 'Your expert answer is published in the roundup “Pricing moves that paid off: three leaders on what changed their revenue”.');
    const decisions = mine.filter((n) => n.kind === 'expert_answers' && n.url !== published?.url);
    t.equal(decisions.length, 2, 'her two decided answers');
    t.ok(decisions.every((n) => /^\/expert-panels\/\d+$/.test(n.url) && /^Your answer to ".+" was (accepted|not accepted)/.test(n.message)));
    const { cookie } = await signIn(app, { id: amara }, summit);
    for (const n of mine) {
      const page = await app.inject({ url: n.url, headers: { accept: 'text/html', cookie } });
      t.equal(page.statusCode, 200, `${n.url} opens`);
    }
  });
});
