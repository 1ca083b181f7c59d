import t from 'tap';
import { createPost } from '#src/features/forum/posts.ts';
import { createReply, editReply } from '#src/features/forum/replies.ts';
import { followPost } from '#src/features/forum/reactions.ts';
import { removeContent } from '#src/features/forum/moderation.ts';
import { deliverReplyNotices, REPLY_NOTICES_JOB } from '#src/features/forum/notices.ts';
import { forumWorld } from '#test/helpers/forum-core.ts';

/** A reply's notices to followers and mentioned members: a durable job, enqueued with the reply, idempotent. */
t.test('forum reply notices', async (t) => {
  const w = await forumWorld(t);
  const { app, alpha, beta, db } = w;
  const deps = w.depsFor(alpha);
  const ada = await w.member(alpha, { firstName: 'Ada', lastName: 'Lovelace', username: 'ada' });
  const bob = await w.member(alpha, { firstName: 'Bob', lastName: 'Builder', username: 'bob' });
  const cy = await w.member(alpha, { firstName: 'Cy', lastName: 'Young', username: 'cy' });
  const dee = await w.member(alpha, { firstName: 'Dee', lastName: 'Reader', username: 'dee' });
  const mod = await w.member(alpha, { firstName: 'Mo', lastName: 'Derator', moderator: true });
  const general = await w.topic(alpha, 'General');
  const newPost = (title: string) => createPost(deps, ada.viewer, { title, body: '<p>Who has spare pallets?</p>', topicIds: [general] });
  /** Forum notifications of a member as stored now, without running the queue. */
  const stored = (userId: number) => db.selectFrom('notifications').select(['message', 'url', 'shown']).where('user_id', '=', userId).where('kind', '=', 'forum').orderBy('id').execute();
  const drain = () => app.jobs.drain([REPLY_NOTICES_JOB]);

  await t.test('the reply commits with its job, not its notifications; the job tells each follower and mentioned member once, the replier never', async (t) => {
    const post = await newPost('Queued');
    await followPost(deps, bob.viewer, post.id, true);
    await drain();
    const before = { ada: (await stored(ada.id)).length, bob: (await stored(bob.id)).length, cy: (await stored(cy.id)).length, dee: (await stored(dee.id)).length };
    const queuedBefore = (await app.jobs.counts(REPLY_NOTICES_JOB)).queued;
    const reply = await createReply(deps, cy.viewer, post.id, { body: '<p>Yes, @bob and @dee and @cy</p>' });
    t.equal((await app.jobs.counts(REPLY_NOTICES_JOB)).queued, queuedBefore + 1, 'one job, queued with the reply');
    t.equal((await stored(ada.id)).length, before.ada, 'nobody is told inside the reply’s transaction');
    t.equal(await drain(), 1, 'the job runs');
    const url = `/forum/post/${post.id}#reply-${reply.id}`;
    t.same((await stored(ada.id)).slice(before.ada), [{ message: 'Cy Young replied to "Queued"', url, shown: true }], 'the post’s author follows and hears');
    t.same((await stored(bob.id)).slice(before.bob).map((n) => n.message), ['Cy Young replied to "Queued"'], 'a mentioned follower hears once, as a follower');
    t.same((await stored(dee.id)).slice(before.dee).map((n) => n.message), ['Cy Young mentioned you in "Queued"'], 'a mentioned non-follower hears of the mention');
    t.equal((await stored(cy.id)).length, before.cy, 'the replier, even mentioning themselves, hears nothing');

    // A retry (the job ran, then the process died before it was marked done) tells nobody again.
    t.same(await deliverReplyNotices(deps, reply.id), [], 'the handler run again notifies nobody');
    await app.jobs.enqueue(db, REPLY_NOTICES_JOB, { communityId: alpha.id, replyId: reply.id });
    await drain();
    t.equal((await stored(ada.id)).length, before.ada + 1, 'a second copy of the job notifies nobody');
    t.equal((await stored(dee.id)).length, before.dee + 1);
    const marks = await db.selectFrom('forum_reply_notices').select('user_id').where('reply_id', '=', reply.id).orderBy('user_id').execute();
    t.same(marks.map((m) => m.user_id), [ada.id, bob.id, dee.id].sort((a, b) => a - b), 'one mark per member told');
  });

  await t.test('the notification preferences apply as before: web off keeps the row out of the list', async (t) => {
    const post = await newPost('Preferences');
    await followPost(deps, dee.viewer, post.id, true);
    await db.insertInto('notification_preferences').values({ community_id: alpha.id, user_id: dee.id, option: 'forum', channel: 'web', selected: false }).execute();
    const before = (await stored(dee.id)).length;
    await createReply(deps, bob.viewer, post.id, { body: '<p>Hello</p>' });
    await drain();
    t.same((await stored(dee.id)).slice(before).map((n) => n.shown), [false], 'made, not shown');
    await db.deleteFrom('notification_preferences').where('user_id', '=', dee.id).execute();
  });

  await t.test('a follower no longer an active member, and a reply removed before the job runs, tell nobody', async (t) => {
    const post = await newPost('Gone before');
    await followPost(deps, dee.viewer, post.id, true);
    await db.updateTable('memberships').set({ is_active: false }).where('user_id', '=', dee.id).where('community_id', '=', alpha.id).execute();
    const deeBefore = (await stored(dee.id)).length;
    await createReply(deps, bob.viewer, post.id, { body: '<p>One</p>' });
    await drain();
    t.equal((await stored(dee.id)).length, deeBefore, 'the inactive follower is not told');
    await db.updateTable('memberships').set({ is_active: true }).where('user_id', '=', dee.id).where('community_id', '=', alpha.id).execute();

    const adaBefore = (await stored(ada.id)).length;
    const removed = await createReply(deps, bob.viewer, post.id, { body: '<p>Two</p>' });
    await removeContent(deps, mod.viewer, 'reply', removed.id, 'Off topic.');
    await drain();
    t.equal((await stored(ada.id)).length, adaBefore, 'a reply removed before its notices went out tells nobody');
  });

  await t.test('a job names its community: another community’s reply id there tells nobody', async (t) => {
    const post = await newPost('Tenancy');
    await followPost(deps, dee.viewer, post.id, true);
    const reply = await createReply(deps, bob.viewer, post.id, { body: '<p>Here</p>' });
    t.same(await deliverReplyNotices(w.depsFor(beta), reply.id), [], 'read in beta, alpha’s reply is not found');
    await app.jobs.enqueue(db, REPLY_NOTICES_JOB, { communityId: beta.id, replyId: reply.id });
    const before = (await stored(dee.id)).length;
    await drain();
    t.equal((await stored(dee.id)).length, before + 1, 'only the job of the reply’s own community told the follower');
  });

  await t.test('an edit that mentions someone before the notices went out: they hear once', async (t) => {
    const post = await newPost('Edited early');
    await drain();
    const before = (await stored(dee.id)).length;
    const reply = await createReply(deps, bob.viewer, post.id, { body: '<p>Hi</p>' });
    await editReply(deps, bob.viewer, reply.id, { body: '<p>Hi @dee</p>' });
    t.equal((await stored(dee.id)).length, before + 1, 'the edit tells Dee');
    await drain();
    t.same((await stored(dee.id)).slice(before).map((n) => n.message), ['Bob Builder mentioned you in "Edited early"'], 'the queued job does not tell her again');
  });
});
