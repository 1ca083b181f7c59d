import t from 'tap';
import { listActions } from '#src/features/forum/actions-log.ts';
import { approve, moderationQueue, reject, removeContent, restoreContent, setAllPostsWait, setLocked, setPinned } from '#src/features/forum/moderation.ts';
import { createPost, deletePost, editPost, getPost, listPosts } from '#src/features/forum/posts.ts';
import { followPost } from '#src/features/forum/reactions.ts';
import { reportContent } from '#src/features/forum/reports.ts';
import { createReply, deleteReply, editReply, listReplies } from '#src/features/forum/replies.ts';
import { MODERATION_NOTE_MAX, TOPIC_NAME_MAX } from '#src/features/forum/rules.ts';
import { createTopic, listTopicsForStaff, moveTopic, renameTopic, setTopicArchived } from '#src/features/forum/topics-admin.ts';
import { fieldMessage, forumWorld, rejects } from '#test/helpers/forum-core.ts';
import { signIn } from '#test/helpers/factories.ts';

t.test('forum moderation', async (t) => {
  const w = await forumWorld(t);
  const { app, alpha, beta, db, clock } = w;
  const deps = w.depsFor(alpha);
  const ada = await w.member(alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const bob = await w.member(alpha, { firstName: 'Bob', lastName: 'Builder' });
  const cy = await w.member(alpha, { firstName: 'Cy', lastName: 'Young' });
  const dee = await w.member(alpha, { firstName: 'Dee', lastName: 'Reader' });
  const newbie = await w.member(alpha, { firstName: 'Nina', lastName: 'New', isNew: true });
  const mod = await w.member(alpha, { firstName: 'Mo', lastName: 'Derator', moderator: true });
  const staff = await w.member(alpha, { firstName: 'Sam', lastName: 'Staff', staff: true });
  const betaMod = await w.member(beta, { firstName: 'Ben', lastName: 'Betamod', moderator: true });
  const general = await w.topic(alpha, 'General');
  const post = await createPost(deps, ada.viewer, { title: 'Freight rates', body: '<p>Up again this month.</p>', topicIds: [general] });
  const replyCount = async (id = post.id) => (await db.selectFrom('forum_posts').select('reply_count').where('id', '=', id).executeTakeFirstOrThrow()).reply_count;

  await t.test('a new member’s post waits; a moderator approves it and its author hears so', async (t) => {
    const waiting = await createPost(deps, newbie.viewer, { title: 'Hello from Nina', body: '<p>Glad to be here</p>', topicIds: [general] });
    t.equal(waiting.status, 'pending');
    const queue = await moderationQueue(deps, mod.viewer);
    const item = queue.find((q) => q.targetKind === 'post' && q.id === waiting.id);
    t.equal(item?.why, 'new_member');
    t.equal(item?.author.name, 'Nina New');
    t.equal(item?.postTitle, 'Hello from Nina');
    await approve(deps, mod.viewer, 'post', waiting.id, '  Welcome!  ');
    const shown = await getPost(deps, bob.viewer, waiting.id);
    t.equal(shown.status, 'published', 'members see it now');
    t.ok((await listPosts(deps, bob.viewer, {})).posts.some((p) => p.id === waiting.id), 'in the list too');
    t.same((await w.forumNotes(newbie.id)).map((n) => [n.message, n.url]), [['Your post “Hello from Nina” was approved. A note from the moderator: Welcome!', `/forum/post/${waiting.id}`]]);
    t.notOk((await moderationQueue(deps, mod.viewer)).some((q) => q.id === waiting.id && q.targetKind === 'post'), 'it left the queue');
    await rejects(t, approve(deps, mod.viewer, 'post', waiting.id), 'Forum.AlreadyModerated', 'approving twice');
    await rejects(t, reject(deps, mod.viewer, 'post', waiting.id, 'too late'), 'Forum.AlreadyModerated', 'a published post cannot be rejected');
  });

  await t.test('reject needs a reason, which the author receives; the rejected post stays hidden', async (t) => {
    const waiting = await createPost(deps, newbie.viewer, { title: 'Buy my course', body: '<p>Only $999</p>', topicIds: [general] });
    let e = await rejects(t, reject(deps, mod.viewer, 'post', waiting.id, '   '), 'Forum.Invalid', 'no reason');
    t.equal(fieldMessage(app, e, 'reason'), 'Please say why, for the author.');
    e = await rejects(t, reject(deps, mod.viewer, 'post', waiting.id, 'r'.repeat(MODERATION_NOTE_MAX + 1)), 'Forum.Invalid', 'a reason too long');
    t.equal(fieldMessage(app, e, 'reason'), `The note can be at most ${MODERATION_NOTE_MAX} characters.`);
    await rejects(t, reject(deps, mod.viewer, 'post', waiting.id, 'no\u0000'), 150, 'a NUL byte');
    await reject(deps, mod.viewer, 'post', waiting.id, 'Advertising is not allowed here.');
    t.equal((await w.forumNotes(newbie.id)).at(-1)?.message, 'Your post “Buy my course” was not approved: Advertising is not allowed here.');
    await rejects(t, getPost(deps, bob.viewer, waiting.id), 'Forum.PostNotFound', 'hidden from members');
    const own = await getPost(deps, newbie.viewer, waiting.id);
    t.equal(own.moderationNote, 'Advertising is not allowed here.', 'its author sees why');
    await rejects(t, approve(deps, mod.viewer, 'post', waiting.id), 'Forum.AlreadyModerated', 'a rejected post cannot be approved');
  });

  await t.test('approving a waiting reply counts it and tells the post’s followers, once', async (t) => {
    await followPost(deps, cy.viewer, post.id, true);
    const waiting = await createReply(deps, newbie.viewer, post.id, { body: '<p>Same here</p>' });
    t.equal(waiting.status, 'pending');
    t.equal(await replyCount(), 0, 'a waiting reply does not count');
    t.equal((await w.forumNotes(cy.id)).length, 0, 'followers hear nothing yet');
    await approve(deps, mod.viewer, 'reply', waiting.id);
    t.equal(await replyCount(), 1, 'counted once approved');
    t.same((await w.forumNotes(cy.id)).map((n) => n.message), ['Nina New replied to "Freight rates"'], 'the follower hears of it');
    t.equal((await w.forumNotes(newbie.id)).at(-1)?.message, 'Your reply on “Freight rates” was approved.');
    t.ok((await listReplies(deps, dee.viewer, post.id)).replies.some((r) => r.id === waiting.id));

    // Reported back to the queue and approved again: put back, not announced twice nor counted twice.
    await Promise.all([ada, bob, dee].map((m) => reportContent(deps, m.viewer, 'reply', waiting.id, { reason: 'off_topic', description: '' })));
    t.equal(await replyCount(), 0, 'reported back: not counted');
    await approve(deps, mod.viewer, 'reply', waiting.id);
    t.equal(await replyCount(), 1, 'approved again: counted once');
    t.equal((await w.forumNotes(cy.id)).length, 1, 'the follower is not told twice');
    const open = await db.selectFrom('forum_reports').select('id').where('target_id', '=', waiting.id).where('resolved_at', 'is', null).execute();
    t.same(open, [], 'the approval dismissed the reports it judged');
  });

  await t.test('remove and restore keep the reply count right and tell the author why', async (t) => {
    const r1 = await createReply(deps, bob.viewer, post.id, { body: '<p>rude</p>' });
    t.equal(await replyCount(), 2);
    await rejects(t, removeContent(deps, mod.viewer, 'reply', r1.id, ''), 'Forum.Invalid', 'a removal needs a reason');
    await removeContent(deps, mod.viewer, 'reply', r1.id, 'Please keep it civil.');
    t.equal(await replyCount(), 1, 'removed: not counted');
    t.equal((await w.forumNotes(bob.id)).at(-1)?.message, 'Your reply on “Freight rates” was removed by a moderator: Please keep it civil.');
    t.match((await w.forumNotes(bob.id)).at(-1)?.url, `/forum/post/${post.id}#reply-${r1.id}`);
    await rejects(t, removeContent(deps, mod.viewer, 'reply', r1.id, 'again'), 'Forum.AlreadyModerated', 'removing twice');
    await restoreContent(deps, mod.viewer, 'reply', r1.id);
    t.equal(await replyCount(), 2, 'restored: counted again');
    t.equal((await w.forumNotes(bob.id)).at(-1)?.message, 'Your reply on “Freight rates” was restored by a moderator.');
    await rejects(t, restoreContent(deps, mod.viewer, 'reply', r1.id), 'Forum.AlreadyModerated', 'restoring what is shown');

    const other = await createPost(deps, bob.viewer, { title: 'Off topic', body: '<p>x</p>', topicIds: [general] });
    await removeContent(deps, staff.viewer, 'post', other.id, 'Not for this forum.');
    await rejects(t, getPost(deps, cy.viewer, other.id), 'Forum.PostNotFound', 'a removed post is not found');
    await restoreContent(deps, staff.viewer, 'post', other.id);
    t.equal((await getPost(deps, cy.viewer, other.id)).status, 'published');
  });

  await t.test('only moderators and staff moderate, and the moderator flag is read from the database each time', async (t) => {
    const waiting = await createReply(deps, newbie.viewer, post.id, { body: '<p>first try</p>' });
    await rejects(t, approve(deps, bob.viewer, 'reply', waiting.id), 'Forum.NotModerator', 'a member');
    await rejects(t, moderationQueue(deps, bob.viewer), 'Forum.NotModerator', 'a member reads no queue');
    await rejects(t, removeContent(deps, bob.viewer, 'post', post.id, 'mine now'), 'Forum.NotModerator', 'a member removes nothing');
    await rejects(t, setLocked(deps, bob.viewer, post.id, true), 'Forum.NotModerator', 'a member locks nothing');
    await db.updateTable('memberships').set({ is_moderator: true }).where('user_id', '=', bob.id).execute();
    t.ok((await moderationQueue(deps, bob.viewer)).some((q) => q.id === waiting.id), 'appointed: the same viewer now moderates');
    await db.updateTable('memberships').set({ is_active: false }).where('user_id', '=', bob.id).execute();
    await rejects(t, moderationQueue(deps, bob.viewer), 'Forum.NotModerator', 'a deactivated membership moderates nothing, flag or not');
    await db.updateTable('memberships').set({ is_active: true }).where('user_id', '=', bob.id).execute();
    await db.updateTable('memberships').set({ is_moderator: false }).where('user_id', '=', bob.id).execute();
    await rejects(t, approve(deps, bob.viewer, 'reply', waiting.id), 'Forum.NotModerator', 'dismissed: refused again at once');
    await rejects(t, approve(w.depsFor(beta), betaMod.viewer, 'reply', waiting.id), 'Forum.ReplyNotFound', 'another community’s moderator finds nothing');
    await approve(deps, staff.viewer, 'reply', waiting.id);
  });

  await t.test('a locked post takes no replies until unlocked; pinning is for staff', async (t) => {
    t.same(await setLocked(deps, mod.viewer, post.id, true), { locked: true });
    t.equal((await getPost(deps, bob.viewer, post.id)).locked, true);
    await rejects(t, createReply(deps, bob.viewer, post.id, { body: '<p>late</p>' }), 'Forum.Locked', 'locked');
    await setLocked(deps, mod.viewer, post.id, false);
    t.equal((await createReply(deps, bob.viewer, post.id, { body: '<p>in time</p>' })).status, 'published', 'unlocked');
    await rejects(t, setPinned(deps, mod.viewer, post.id, true), 'Forbidden', 'a moderator does not pin');
    t.same(await setPinned(deps, staff.viewer, post.id, true), { pinned: true });
    t.ok((await listPosts(deps, bob.viewer, {})).pinned.some((p) => p.id === post.id), 'pinned above the list');
    await setPinned(deps, staff.viewer, post.id, false);
    t.notOk((await listPosts(deps, bob.viewer, {})).pinned.some((p) => p.id === post.id), 'unpinned');
  });

  await t.test('a group’s post is not the forum moderators’ to lock (nor to learn of); staff still may', async (t) => {
    const group = await db.insertInto('groups').values({ community_id: alpha.id, name: 'Board', slug: 'board', visibility: 'private' }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('group_members').values({ community_id: alpha.id, group_id: group.id, user_id: cy.id, role: 'chair' }).execute();
    const scope = { groupId: group.id, canRead: true, canPost: true, moderators: [cy.id] };
    const secret = await createPost(deps, cy.viewer, { title: 'Board only', body: '<p>Not for the forum</p>', topicIds: undefined }, scope);
    await rejects(t, setLocked(deps, mod.viewer, secret.id, true), 'Forum.PostNotFound', 'the forum’s moderator gets the same 404 as an unknown post');
    await rejects(t, setLocked(deps, mod.viewer, secret.id, false), 'Forum.PostNotFound', 'nor unlock it');
    t.equal((await db.selectFrom('forum_posts').select('locked_at').where('id', '=', secret.id).executeTakeFirstOrThrow()).locked_at, null, 'not locked');
    t.same(await setLocked(deps, staff.viewer, secret.id, true), { locked: true }, 'staff act on it from the forum’s staff pages');
    await setLocked(deps, staff.viewer, secret.id, false);
    // Nor are its edit and delete the forum's: nothing half done (saved, then a 404), nothing told of it (NotYours, UseRemove).
    const answer = await createReply(deps, cy.viewer, secret.id, { body: '<p>Minutes attached</p>' }, scope);
    await rejects(t, editPost(deps, cy.viewer, secret.id, { title: 'Changed', body: '<p>Changed</p>', topicIds: undefined }), 'Forum.PostNotFound', 'not edited through the forum');
    t.equal((await db.selectFrom('forum_posts').select('title').where('id', '=', secret.id).executeTakeFirstOrThrow()).title, 'Board only', 'nothing saved');
    await rejects(t, deletePost(deps, bob.viewer, secret.id), 'Forum.PostNotFound', 'an outsider learns nothing (not NotYours)');
    await rejects(t, deletePost(deps, mod.viewer, secret.id), 'Forum.PostNotFound', 'nor does a forum moderator (not UseRemove)');
    await rejects(t, editReply(deps, cy.viewer, answer.id, { body: '<p>Changed</p>' }), 'Forum.ReplyNotFound', 'a reply is not edited through the forum');
    await rejects(t, deleteReply(deps, bob.viewer, answer.id), 'Forum.ReplyNotFound', 'nor told of (not NotYours)');
    t.equal((await getPost(deps, cy.viewer, secret.id, scope)).title, 'Board only', 'still in its group');
  });

  await t.test('staff make every post wait', async (t) => {
    await rejects(t, setAllPostsWait(deps, mod.viewer, true), 'Forbidden', 'not a moderator');
    t.same(await setAllPostsWait(deps, staff.viewer, true), { allPostsWait: true });
    const fresh = await db.selectFrom('communities').selectAll().where('id', '=', alpha.id).executeTakeFirstOrThrow();
    const waiting = await createPost({ ...deps, community: fresh }, dee.viewer, { title: 'Everyone waits', body: '<p>even Dee</p>', topicIds: [general] });
    t.equal(waiting.status, 'pending', 'an established member waits too');
    t.equal((await moderationQueue({ ...deps, community: fresh }, mod.viewer)).find((q) => q.id === waiting.id && q.targetKind === 'post')?.why, 'all_wait');
    await setAllPostsWait({ ...deps, community: fresh }, staff.viewer, false);
    t.equal((await db.selectFrom('communities').select('forum_all_posts_wait').where('id', '=', alpha.id).executeTakeFirstOrThrow()).forum_all_posts_wait, false);
  });

  await t.test('staff keep the topics: create, rename, order, archive; nobody else may', async (t) => {
    await rejects(t, createTopic(deps, mod.viewer, 'Logistics'), 'Forbidden', 'a moderator');
    await rejects(t, createTopic(deps, bob.viewer, 'Logistics'), 'Forbidden', 'a member');
    const logistics = await createTopic(deps, staff.viewer, '  Logistics   and  freight ');
    t.equal(logistics.name, 'Logistics and freight', 'spaces tidied');
    const hiring = await createTopic(deps, staff.viewer, 'Hiring');
    let e = await rejects(t, createTopic(deps, staff.viewer, 'hiring'), 'Forum.Invalid', 'the same name in another case');
    t.equal(fieldMessage(app, e, 'name'), 'There is already a topic named “hiring”.');
    e = await rejects(t, createTopic(deps, staff.viewer, ' '), 'Forum.Invalid', 'no name');
    t.equal(fieldMessage(app, e, 'name'), 'Please give the topic a name.');
    t.ok(await createTopic(deps, staff.viewer, 'n'.repeat(TOPIC_NAME_MAX)), 'a name at the limit');
    e = await rejects(t, createTopic(deps, staff.viewer, 'n'.repeat(TOPIC_NAME_MAX + 1)), 'Forum.Invalid', 'one character over');
    t.equal(fieldMessage(app, e, 'name'), `The name is 1 character too long (at most ${TOPIC_NAME_MAX}).`);
    await rejects(t, createTopic(deps, staff.viewer, 'Tab\u0001'), 150, 'a control character');
    const names = async () => (await listTopicsForStaff(deps, staff.viewer)).map((x) => x.name);
    t.same((await names()).slice(0, 3), ['General', 'Logistics and freight', 'Hiring']);
    await moveTopic(deps, staff.viewer, hiring.id, 'up');
    t.same((await names()).slice(0, 3), ['General', 'Hiring', 'Logistics and freight'], 'Hiring moved up');
    await moveTopic(deps, staff.viewer, (await listTopicsForStaff(deps, staff.viewer))[0]!.id, 'up');
    t.equal((await names())[0], 'General', 'the first cannot go higher');
    await rejects(t, moveTopic(deps, staff.viewer, hiring.id, 'sideways'), 'Forum.Invalid', 'an unknown direction');
    const renamed = await renameTopic(deps, staff.viewer, hiring.id, 'Hiring and jobs');
    t.equal(renamed.name, 'Hiring and jobs');
    await rejects(t, renameTopic(deps, staff.viewer, hiring.id, 'general'), 'Forum.Invalid', 'a name taken');
    await rejects(t, renameTopic(deps, mod.viewer, hiring.id, 'x'), 'Forbidden', 'a moderator renames nothing');
    t.equal((await setTopicArchived(deps, staff.viewer, hiring.id, true)).archived, true);
    t.notOk((await listTopicsForStaff(deps, staff.viewer, { includeArchived: false })).some((x) => x.id === hiring.id), 'archived topics can be left out');
    e = await rejects(t, createPost(deps, ada.viewer, { title: 'Jobs', body: '<p>x</p>', topicIds: [hiring.id] }), 'Forum.Invalid', 'no new post in an archived topic');
    await setTopicArchived(deps, staff.viewer, hiring.id, false);
    const counted = (await listTopicsForStaff(deps, staff.viewer)).find((x) => x.id === general)!;
    t.ok(counted.postCount! >= 3, 'General counts its published posts');
    await rejects(t, renameTopic(w.depsFor(beta), { userId: staff.id, isStaff: true }, hiring.id, 'Stolen'), 'Forum.TopicNotFound', 'another community’s staff find nothing');
  });

  await t.test('the author of a removed post follows the notice’s link to it: read-only, with the note; others still get not found', async (t) => {
    await w.forumNotes(bob.id); // the notices still queued from earlier replies come first
    const gone = await createPost(deps, bob.viewer, { title: 'Taken down', body: '<p>x</p>', topicIds: [general] });
    await removeContent(deps, mod.viewer, 'post', gone.id, 'Not for this forum.');
    const note = (await w.forumNotes(bob.id)).at(-1);
    t.equal(note?.url, `/forum/post/${gone.id}`);
    const seen = await getPost(deps, bob.viewer, gone.id);
    t.equal(seen.status, 'removed');
    t.equal(seen.moderationNote, 'Not for this forum.', 'with the moderator’s note');
    t.same([seen.abilities.canEdit, seen.abilities.canReply, seen.abilities.canReport], [false, false, false], 'read-only');
    await rejects(t, getPost(deps, cy.viewer, gone.id), 'Forum.PostNotFound', 'another member still gets not found');
    t.notOk((await listPosts(deps, bob.viewer, {})).posts.some((p) => p.id === gone.id), 'not in the list, even for its author');
    const page = await app.inject({ method: 'GET', url: `/forum/post/${gone.id}`, headers: { cookie: `auth=${(await signIn(app, bob, alpha)).token}` } });
    t.equal(page.statusCode, 200, 'the notice’s link is no 404 for its author');
    t.match(page.body, 'Not for this forum.');
  });

  await t.test('a waiting reply under a post that is not published cannot be approved or restored, and is not in the queue', async (t) => {
    const host = await createPost(deps, ada.viewer, { title: 'Soon removed', body: '<p>host</p>', topicIds: [general] });
    const waiting = await createReply(deps, newbie.viewer, host.id, { body: '<p>waiting under it</p>' });
    const shown = await createReply(deps, bob.viewer, host.id, { body: '<p>shown under it</p>' });
    await removeContent(deps, mod.viewer, 'reply', shown.id, 'Off topic.');
    await removeContent(deps, mod.viewer, 'post', host.id, 'Spam.');
    t.notOk((await moderationQueue(deps, mod.viewer)).some((q) => q.targetKind === 'reply' && q.id === waiting.id), 'not in the queue');
    await rejects(t, approve(deps, mod.viewer, 'reply', waiting.id), 'Forum.PostNotFound', 'approving is refused');
    await rejects(t, restoreContent(deps, mod.viewer, 'reply', shown.id), 'Forum.PostNotFound', 'restoring is refused');
    const rows = await db.selectFrom('forum_replies').select(['id', 'status']).where('post_id', '=', host.id).orderBy('id').execute();
    t.same(rows.map((r) => r.status), ['pending', 'removed'], 'both as they were');
    t.equal(await replyCount(host.id), 0, 'nothing counted');
  });

  await t.test('a moderator may not approve or reject their own waiting post or reply', async (t) => {
    await setAllPostsWait(deps, staff.viewer, true);
    const own = await createPost(deps, newbie.viewer, { title: 'Mine to judge?', body: '<p>x</p>', topicIds: [general] });
    await setAllPostsWait(deps, staff.viewer, false);
    await db.updateTable('memberships').set({ is_moderator: true }).where('user_id', '=', newbie.id).where('community_id', '=', alpha.id).execute();
    await rejects(t, approve(deps, newbie.viewer, 'post', own.id), 'Forum.NotModerator', 'approving one’s own post');
    await rejects(t, reject(deps, newbie.viewer, 'post', own.id, 'no'), 'Forum.NotModerator', 'rejecting one’s own post');
    await db.updateTable('memberships').set({ is_moderator: false }).where('user_id', '=', newbie.id).where('community_id', '=', alpha.id).execute();
    t.equal((await db.selectFrom('forum_posts').select('status').where('id', '=', own.id).executeTakeFirstOrThrow()).status, 'pending', 'still waiting');
    await approve(deps, mod.viewer, 'post', own.id);
  });

  await t.test('a waiting reply removed then restored goes back to the queue; approved, the followers hear of it once', async (t) => {
    const host = await createPost(deps, ada.viewer, { title: 'Followed thread', body: '<p>host</p>', topicIds: [general] });
    await followPost(deps, dee.viewer, host.id, true);
    const before = (await w.forumNotes(dee.id)).length;
    const waiting = await createReply(deps, newbie.viewer, host.id, { body: '<p>never shown yet</p>' });
    await removeContent(deps, mod.viewer, 'reply', waiting.id, 'Not yet.');
    await restoreContent(deps, mod.viewer, 'reply', waiting.id);
    t.equal((await db.selectFrom('forum_replies').select('status').where('id', '=', waiting.id).executeTakeFirstOrThrow()).status, 'pending', 'back to waiting, not published');
    t.equal(await replyCount(host.id), 0, 'not counted');
    t.ok((await moderationQueue(deps, mod.viewer)).some((q) => q.targetKind === 'reply' && q.id === waiting.id), 'in the queue again');
    await approve(deps, mod.viewer, 'reply', waiting.id);
    t.equal(await replyCount(host.id), 1, 'counted once approved');
    t.same((await w.forumNotes(dee.id)).slice(before).map((n) => n.message), ['Nina New replied to "Followed thread"'], 'the follower hears of it once');
  });

  await t.test('every action is logged with who, what and when, newest first, in keyset pages', async (t) => {
    await rejects(t, listActions(deps, mod.viewer), 'Forbidden', 'the log is for staff');
    const { actions, next } = await listActions(deps, staff.viewer, { first: 5 });
    t.equal(actions.length, 5);
    t.ok(next);
    const all = [...actions, ...(await listActions(deps, staff.viewer, { after: next, first: 100 })).actions];
    const names = all.map((a) => a.action);
    for (const action of ['approve', 'reject', 'remove', 'restore', 'lock', 'unlock', 'pin', 'unpin', 'queue_reported', 'all_posts_wait_on', 'all_posts_wait_off', 'topic_create', 'topic_rename', 'topic_move', 'topic_archive', 'topic_unarchive']) {
      t.ok(names.includes(action), `${action} is logged`);
    }
    const rejected = all.find((a) => a.action === 'reject')!;
    t.same(rejected.actor, { id: mod.id, name: 'Mo Derator' });
    t.equal(rejected.note, 'Advertising is not allowed here.');
    t.same(rejected.createdAt, clock.now());
    t.same([...all].sort((a, b) => b.id - a.id).map((a) => a.id), all.map((a) => a.id), 'newest first');
    t.same((await listActions(w.depsFor(beta), { userId: staff.id, isStaff: true })).actions, [], 'another community’s log is its own');
    await rejects(t, listActions(w.depsFor(w.off), { userId: staff.id, isStaff: true }), 'NotFound', 'where the forum is off, there is no log');
  });
});
