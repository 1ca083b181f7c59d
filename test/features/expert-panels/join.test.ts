import t from 'tap';
import { firstOpenQuestion, joinPanels, listJoinablePanels, onboardingPanelState, panelIdsOf } from '#src/features/expert-panels/join.ts';
import { submitAnswer } from '#src/features/expert-panels/answers.ts';
import { createCommunity } from '#test/helpers/factories.ts';
import { rejects } from '#test/helpers/forum-core.ts';
import { epWorld, words } from './member-world.ts';

const DAY = 24 * 60 * 60 * 1000;

t.test('a member joins expert panels by themselves (onboarding ep-landing)', async (t) => {
  const w = await epWorld(t);
  const { alpha, beta, db, clock } = w;
  const deps = w.depsFor(alpha);
  const ada = await w.member(alpha, { firstName: 'Ada' });
  const old = await w.member(alpha, { firstName: 'Olu' });
  const growth = await w.panel(alpha, { name: 'Growth', min: 3, max: 20 });
  const leaders = await w.panel(alpha, { name: 'Leadership' });
  const archived = await w.panel(alpha, { name: 'Archived one' });
  await db.updateTable('ep_panels').set({ archived_at: clock.now() }).where('id', '=', archived).execute();
  const betaPanel = await w.panel(beta, { name: 'Beta panel' });

  // Growth: a sent batch, open (two questions still open, one closed); an older sent batch past its deadline; a draft batch.
  const open = await w.batch(alpha, growth, { title: 'Open batch', deadlineDays: 5 });
  const q1 = await w.question(alpha, open, growth, [old.id], { title: 'Pricing?' });
  const q2 = await w.question(alpha, open, growth, [old.id], { title: 'Hiring?' });
  const closedQ = await w.question(alpha, open, growth, [old.id], { title: 'Closed one', closed: true });
  const pastBatch = await db
    .insertInto('ep_batches')
    .values({ community_id: alpha.id, panel_id: growth, title: 'Past', deadline_at: new Date(clock.now().getTime() - DAY), status: 'sent', sent_at: new Date(clock.now().getTime() - 10 * DAY) })
    .returning('id')
    .executeTakeFirstOrThrow();
  const pastQ = await w.question(alpha, pastBatch.id, growth, [old.id], { title: 'Past question' });
  const draft = await db.insertInto('ep_batches').values({ community_id: alpha.id, panel_id: growth, title: 'Draft', deadline_at: new Date(clock.now().getTime() + 9 * DAY), status: 'draft' }).returning('id').executeTakeFirstOrThrow();
  const draftQ = await w.question(alpha, draft.id, growth, [], { title: 'Draft question' });

  await t.test('the panels a member may join: active ones of the community only, by name', async (t) => {
    const panels = await listJoinablePanels(deps, ada.id);
    t.same(
      panels.map((p) => [p.name, p.joined]),
      [
        ['Growth', false],
        ['Leadership', false],
      ],
    );
    const state = await onboardingPanelState(db, alpha, ada.id, clock.now());
    t.same(state, { activePanels: 2, firstOpenQuestion: null }, 'two active panels, no open question yet');
  });

  await t.test('joining gives an open answer only for the still-open questions of sent batches', async (t) => {
    const result = await joinPanels(deps, ada.id, [String(growth)]);
    t.same(result, { panelIds: [growth], answers: 2 });
    const member = await db.selectFrom('ep_panel_members').selectAll().where('panel_id', '=', growth).where('user_id', '=', ada.id).executeTakeFirstOrThrow();
    t.equal(member.community_id, alpha.id);
    t.equal(member.added_by, ada.id, 'added by themselves');
    const rows = await db.selectFrom('ep_answers').selectAll().where('user_id', '=', ada.id).orderBy('question_id').execute();
    t.same(
      rows.map((r) => r.question_id),
      [q1, q2],
      'not the closed question, the past batch, nor the draft',
    );
    t.ok(
      rows.every((r) => r.status === 'open' && r.community_id === alpha.id && r.invited_at === null && r.sent_at !== null),
      'open, in the community, not yet invited',
    );
    t.equal((await w.app.jobs.counts('expert-panels.invite')).queued, 1, 'the invitation job was queued with the join');
    // The batch's invitation job tells the new member (only them: the panel was told when it was sent).
    const { sendInvitations } = await import('#src/features/expert-panels/invite/invitations.ts');
    const told = await sendInvitations({ ...deps, secret: w.config.cookieSecret }, open);
    t.ok(told >= 1, 'the invitation job tells the new member (and whoever this fixture never told)');
    const notice = await db.selectFrom('notifications').selectAll().where('user_id', '=', ada.id).where('kind', '=', 'expert_questions').execute();
    t.equal(notice.length, 1);
    t.match(notice[0]!.message, /^2 new expert-panel questions from Growth/);
    t.match(notice[0]!.url, /^\/expert-panels\/invite\?/);
    t.notOk(rows.some((r) => [closedQ, pastQ, draftQ].includes(r.question_id)));
    const state = await onboardingPanelState(db, alpha, ada.id, clock.now());
    t.equal(state.firstOpenQuestion, q1, 'the first open question (soonest deadline, then position)');
    const first = await firstOpenQuestion(deps, ada.id);
    t.equal(first?.title, 'Pricing?');
    t.equal(first?.panel.name, 'Growth');
    t.equal((await listJoinablePanels(deps, ada.id)).find((p) => p.id === growth)?.joined, true);
  });

  await t.test('joining again changes nothing (idempotent)', async (t) => {
    const again = await joinPanels(deps, ada.id, [growth, growth]);
    t.same(again, { panelIds: [growth], answers: 0 });
    t.equal((await db.selectFrom('ep_panel_members').select('user_id').where('user_id', '=', ada.id).execute()).length, 1);
    t.equal((await db.selectFrom('ep_answers').select('id').where('user_id', '=', ada.id).execute()).length, 2);
    // An answered question stays answered when the member joins again.
    await submitAnswer(deps, ada.viewer, q1, { body: `<p>${words(5)}</p>` });
    await joinPanels(deps, ada.id, String(growth));
    t.equal((await w.answerOf(q1, ada.id)).status, 'submitted');
    t.equal((await onboardingPanelState(db, alpha, ada.id, clock.now())).firstOpenQuestion, q2, 'the next open question');
  });

  await t.test("tenancy: another community's panel, an archived or a missing one is refused, and nothing is written", async (t) => {
    for (const bad of [[betaPanel], [leaders, betaPanel], [archived], [2_000_000_000]]) {
      await rejects(t, joinPanels(deps, old.id, bad), 'ExpertPanels.Invalid', `refused: ${bad.join(',')}`);
    }
    t.equal((await db.selectFrom('ep_panel_members').select('panel_id').where('user_id', '=', old.id).execute()).length, 0, 'not even the good one of a mixed list');
    const betaDeps = w.depsFor(beta);
    await rejects(t, joinPanels(betaDeps, ada.id, [growth]), 'ExpertPanels.Invalid', "alpha's panel on beta");
    t.same(await listJoinablePanels(betaDeps, ada.id), [{ id: betaPanel, name: 'Beta panel', topic: 'Growth', joined: false }], "beta's list is beta's");
  });

  await t.test('hostile ids are a 400 on panelIds', async (t) => {
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999', 'a\u0000', { id: 1 }, Array.from({ length: 51 }, (_, i) => i + 1)]) {
      t.throws(() => panelIdsOf(bad), { code: 'ExpertPanels.Invalid', fields: { panelIds: { key: 'onboarding.epLanding.unknownPanel' } } }, JSON.stringify(bad).slice(0, 40));
    }
    t.same(panelIdsOf(undefined), []);
    t.same(panelIdsOf(''), []);
    t.same(await joinPanels(deps, ada.id, []), { panelIds: [], answers: 0 }, 'none picked: nothing to do');
  });

  await t.test('a community without active panels: none to join', async (t) => {
    const gamma = await createCommunity(db, { code: 'gamma-ep' });
    const g = await w.member(gamma);
    t.same(await onboardingPanelState(db, gamma, g.id, clock.now()), { activePanels: 0, firstOpenQuestion: null });
  });
});
