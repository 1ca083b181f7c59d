import t from 'tap';
import { INVITE_JOB, REMINDER_JOB, sendInvitations, sendReminders } from '#src/features/expert-panels/invite/invitations.ts';
import { readInvitation } from '#src/features/expert-panels/invite/links.ts';
import { days, hours, inviteWorld } from './invite-helpers.ts';

const linkOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams) as Record<string, string>;

t.test('the invitation job and the reminders', async (t) => {
  const w = await inviteWorld(t);
  const { app, db, clock, alpha, beta, secret } = w;
  const ada = await w.member(alpha, 'Ada', 'Lovelace');
  const bob = await w.member(alpha, 'Bob', 'Builder');
  const cy = await w.member(alpha, 'Cy', 'Gone');
  await db.updateTable('memberships').set({ is_active: false }).where('user_id', '=', cy.id).execute();
  const bea = await w.member(beta, 'Bea', 'Beta');
  const pricing = await w.panel(alpha, 'Pricing');
  const betaPanel = await w.panel(beta, 'Beta panel');
  const inviteDeps = (community = alpha) => ({ db, clock, community, t: app.t, notifier: app.notifications, secret });
  const reminderDeps = { db, clock, t: app.t, notifier: app.notifications, secret };

  await t.test('one notification per member with open questions of the batch: how many, the deadline, their signed link', async (t) => {
    const b = await w.batch(alpha, pricing, { deadline: new Date('2026-12-05T17:00:00Z'), questions: ['Raise prices?', 'Annual plans?', 'Closed one'], members: [ada, bob, cy] });
    // Ada already answered the first; the third question was closed before the job ran.
    await db.updateTable('ep_answers').set({ status: 'submitted' }).where('question_id', '=', b.questionIds[0]!).where('user_id', '=', ada.id).execute();
    await db.updateTable('ep_questions').set({ closed_at: clock.now() }).where('id', '=', b.questionIds[2]!).execute();
    await app.jobs.enqueue(db, INVITE_JOB, { communityId: alpha.id, batchId: b.id });
    t.equal(await w.drainInvites(), 1, 'the job runs');

    const adaNotes = await w.notes(ada.id);
    t.equal(adaNotes.length, 1);
    t.equal(adaNotes[0]!.message, 'A new expert-panel question from Pricing for you: please answer by Dec 5, 2026.');
    const adaLink = readInvitation(secret, alpha.id, linkOf(adaNotes[0]!.url), clock.now());
    t.same(adaLink.questionIds, [b.questionIds[1]], 'her link names the question still open for her');
    t.equal(adaLink.userId, ada.id, 'and is hers');

    const bobNotes = await w.notes(bob.id);
    t.same(bobNotes.map((n) => n.message), ['2 new expert-panel questions from Pricing for you: please answer by Dec 5, 2026.']);
    t.same(readInvitation(secret, alpha.id, linkOf(bobNotes[0]!.url), clock.now()).questionIds, b.questionIds.slice(0, 2));
    t.same(await w.notes(cy.id), [], 'a member no longer active is not told');

    const marked = await w.answer(b.questionIds[1]!, bob.id);
    t.ok(marked.invited_at, 'the answers told of are marked');
    t.equal((await w.answer(b.questionIds[2]!, bob.id)).invited_at, null, 'a closed question’s are not');
  });

  await t.test('a retry, a second copy or two runs at once tell nobody twice', async (t) => {
    const b = await w.batch(alpha, pricing, { deadline: new Date('2026-12-10T17:00:00Z'), questions: ['Retries?'], members: [ada, bob] });
    const before = { ada: (await w.notes(ada.id)).length, bob: (await w.notes(bob.id)).length };
    const runs = await Promise.all([sendInvitations(inviteDeps(), b.id), sendInvitations(inviteDeps(), b.id)]);
    t.equal(runs[0]! + runs[1]!, 2, 'two members told between the two runs');
    t.equal(await sendInvitations(inviteDeps(), b.id), 0, 'the handler run again tells nobody');
    await app.jobs.enqueue(db, INVITE_JOB, { communityId: alpha.id, batchId: b.id });
    await w.drainInvites();
    t.equal((await w.notes(ada.id)).length, before.ada + 1);
    t.equal((await w.notes(bob.id)).length, before.bob + 1);
  });

  await t.test('a job names its community: another community’s batch, a draft or a missing one tells nobody', async (t) => {
    const betaBatch = await w.batch(beta, betaPanel, { deadline: new Date('2026-12-10T17:00:00Z'), questions: ['Beta question'], members: [bea] });
    await app.jobs.enqueue(db, INVITE_JOB, { communityId: alpha.id, batchId: betaBatch.id });
    await w.drainInvites();
    t.same(await w.notes(bea.id), [], 'alpha’s job with beta’s batch id: nothing');
    const draft = await w.batch(alpha, pricing, { deadline: new Date('2026-12-10T17:00:00Z'), questions: ['Draft'], members: [ada], status: 'draft' });
    const adaBefore = (await w.notes(ada.id)).length;
    t.equal(await sendInvitations(inviteDeps(), draft.id), 0, 'a draft batch tells nobody');
    t.equal(await sendInvitations(inviteDeps(), 999_999), 0, 'a missing batch tells nobody');
    await app.jobs.enqueue(db, INVITE_JOB, { communityId: 999_999, batchId: draft.id });
    await app.jobs.enqueue(db, INVITE_JOB, { communityId: 'x', batchId: null });
    await w.drainInvites();
    t.equal((await w.notes(ada.id)).length, adaBefore);
    t.equal((await app.jobs.counts(INVITE_JOB)).failed, 0, 'no job failed');

    await app.jobs.enqueue(db, INVITE_JOB, { communityId: beta.id, batchId: betaBatch.id });
    await w.drainInvites();
    const beaNotes = await w.notes(bea.id);
    t.equal(beaNotes.length, 1, 'in its own community it tells its members');
    t.equal(beaNotes[0]!.community_id, beta.id, 'under that community');
    t.ok(readInvitation(secret, beta.id, linkOf(beaNotes[0]!.url), clock.now()), 'with a link of that community');
  });

  await t.test('reminders: once, within the window before the deadline only, not for answered or closed questions', async (t) => {
    // Clear the deck: the earlier batches' deadlines are beyond the window, but make sure.
    await db.updateTable('ep_answers').set({ reminded_at: clock.now() }).execute();
    const dan = await w.member(alpha, 'Dan', 'Due');
    const eve = await w.member(alpha, 'Eve', 'Early');
    const fay = await w.member(alpha, 'Fay', 'Finished');
    const sentLongAgo = new Date(clock.now().getTime() - days(5));
    const soon = await w.batch(alpha, pricing, { deadline: new Date(clock.now().getTime() + hours(24)), sentAt: sentLongAgo, questions: ['Soon A', 'Soon B', 'Soon closed'], members: [dan, fay] });
    await db.updateTable('ep_questions').set({ closed_at: clock.now() }).where('id', '=', soon.questionIds[2]!).execute();
    await db.updateTable('ep_answers').set({ status: 'submitted' }).where('user_id', '=', fay.id).where('question_id', 'in', soon.questionIds.slice(0, 2)).execute();
    const later = await w.batch(alpha, pricing, { deadline: new Date(clock.now().getTime() + hours(72)), sentAt: sentLongAgo, questions: ['Later'], members: [eve] });
    const past = await w.batch(alpha, pricing, { deadline: new Date(clock.now().getTime() - hours(1)), sentAt: sentLongAgo, questions: ['Past'], members: [eve] });
    const late = await w.batch(alpha, pricing, { deadline: new Date(clock.now().getTime() + hours(20)), questions: ['Sent late'], members: [eve] });
    const betaSoon = await w.batch(beta, betaPanel, { deadline: new Date(clock.now().getTime() + hours(10)), sentAt: sentLongAgo, questions: ['Beta soon'], members: [bea] });
    const beaBefore = (await w.notes(bea.id)).length;

    await app.jobs.enqueue(db, REMINDER_JOB, {});
    t.equal(await w.drainReminders(), 1, 'the scheduled job runs');
    const danNotes = await w.notes(dan.id);
    t.same(danNotes.map((n) => n.message), ['Reminder: 2 expert-panel questions wait for your answer by Nov 22, 2026.'], 'one reminder for the two open questions');
    t.same(readInvitation(secret, alpha.id, linkOf(danNotes[0]!.url), clock.now()).questionIds, soon.questionIds.slice(0, 2), 'with a fresh link to them');
    t.same(await w.notes(fay.id), [], 'nothing for a member who answered');
    t.same(await w.notes(eve.id), [], 'nothing beyond the window, past the deadline, or sent inside the window');
    const beaNotes = await w.notes(bea.id);
    t.equal(beaNotes.length, beaBefore + 1, 'each community’s members are reminded');
    t.equal(beaNotes.at(-1)!.community_id, beta.id, 'under their community');
    t.ok((await w.answer(soon.questionIds[0]!, dan.id)).reminded_at, 'marked reminded');
    t.equal((await w.answer(soon.questionIds[2]!, dan.id)).reminded_at, null, 'the closed question is not');
    t.equal((await w.answer(past.questionIds[0]!, eve.id)).reminded_at, null);
    t.equal((await w.answer(late.questionIds[0]!, eve.id)).reminded_at, null);
    t.ok(betaSoon);

    t.equal(await sendReminders(reminderDeps, clock.now()), 0, 'run again: nobody is reminded twice');
    t.equal((await w.notes(dan.id)).length, 1);

    clock.advance(hours(30));
    t.equal(await sendReminders(reminderDeps, clock.now()), 1, 'a day later the later batch comes within the window');
    t.same((await w.notes(eve.id)).map((n) => n.message), ['Reminder: an expert-panel question waits for your answer by Nov 24, 2026.']);
    t.same(readInvitation(secret, alpha.id, linkOf((await w.notes(eve.id))[0]!.url), clock.now()).questionIds, later.questionIds);
    clock.advance(-hours(30));
  });

  await t.test('the member’s preferences apply: web off makes the row but keeps it out of the list', async (t) => {
    const gil = await w.member(alpha, 'Gil', 'Quiet');
    await db.insertInto('notification_preferences').values({ community_id: alpha.id, user_id: gil.id, option: 'expert_questions', channel: 'web', selected: false }).execute();
    const b = await w.batch(alpha, pricing, { deadline: new Date('2026-12-20T17:00:00Z'), questions: ['Quiet?'], members: [gil] });
    await sendInvitations(inviteDeps(), b.id);
    t.same((await w.notes(gil.id)).map((n) => n.shown), [false]);
  });
});
