import t from 'tap';
import { createPost } from '#src/features/forum/posts.ts';
import { createReply } from '#src/features/forum/replies.ts';
import { csrfFor, signIn } from '#test/helpers/factories.ts';
import { forumWorld } from '#test/helpers/forum-core.ts';

t.test('forum actions over GraphQL', async (t) => {
  const w = await forumWorld(t);
  const { app, alpha, off, db } = w;
  const deps = w.depsFor(alpha);
  const ada = await w.member(alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const bob = await w.member(alpha, { firstName: 'Bob', lastName: 'Builder' });
  const cy = await w.member(alpha, { firstName: 'Cy', lastName: 'Young' });
  const newbie = await w.member(alpha, { firstName: 'Nina', lastName: 'New', isNew: true });
  const mod = await w.member(alpha, { firstName: 'Mo', lastName: 'Derator', moderator: true });
  const staff = await w.member(alpha, { firstName: 'Sam', lastName: 'Staff', staff: true });
  const offMember = await w.member(off, { firstName: 'Olly', lastName: 'Off' });
  const general = await w.topic(alpha, 'General');
  const post = await createPost(deps, ada.viewer, { title: 'Trade show in May', body: '<p>Who is going?</p>', topicIds: [general] });
  const reply = await createReply(deps, cy.viewer, post.id, { body: '<p>I am.</p>' });

  const gql = (url: string, query: string, variables: Record<string, unknown>, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });
  const bearer = async (user: { id: number }, community = alpha, roles: ('MEMBER' | 'ADMIN')[] = ['MEMBER']) => ({ authorization: `Bearer ${(await signIn(app, user, community, roles)).token}` });
  const LIKE = 'mutation ($id: ID!) { likeForumPost(id: $id) { likeCount likedByMe } }';

  await t.test('a member likes and unlikes with a bearer token and with the cookie and CSRF token of our pages', async (t) => {
    const asBob = await bearer(bob);
    const liked = await gql('/graphql', LIKE, { id: String(post.id) }, asBob);
    t.same(liked.json().data.likeForumPost, { likeCount: 1, likedByMe: true });
    const again = await gql('/graphql', LIKE, { id: String(post.id) }, asBob);
    t.same(again.json().data.likeForumPost, { likeCount: 1, likedByMe: true }, 'liking twice counts once');

    const browser = await csrfFor(app, (await signIn(app, cy, alpha)).cookie, '/');
    const noToken = await gql('/graphql', LIKE, { id: String(post.id) }, { cookie: browser.cookie });
    t.equal(noToken.statusCode, 403, 'a cookie without the CSRF token is refused');
    const viaCookie = await gql('/graphql', LIKE, { id: String(post.id) }, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.same(viaCookie.json().data.likeForumPost, { likeCount: 2, likedByMe: true });
    const unliked = await gql('/graphql', 'mutation ($id: ID!) { unlikeForumPost(id: $id) { likeCount likedByMe } }', { id: String(post.id) }, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.same(unliked.json().data.unlikeForumPost, { likeCount: 1, likedByMe: false });

    const replyLike = await gql('/graphql', 'mutation ($id: ID!) { likeForumReply(id: $id) { likeCount } }', { id: String(reply.id) }, asBob);
    t.equal(replyLike.json().data.likeForumReply.likeCount, 1);
    const replyUnlike = await gql('/graphql', 'mutation ($id: ID!) { unlikeForumReply(id: $id) { likeCount } }', { id: String(reply.id) }, asBob);
    t.equal(replyUnlike.json().data.unlikeForumReply.likeCount, 0);

    const anon = await gql('/graphql', LIKE, { id: String(post.id) }, {});
    t.equal(anon.json().errors[0].extensions.code, 'NotAuthenticated', 'signed out');
    const missing = await gql('/graphql', LIKE, { id: '999999' }, asBob);
    t.equal(missing.statusCode, 404);
    t.equal(missing.json().errors[0].message, 'Post not found');
    const hostile = await gql('/graphql', LIKE, { id: "1' or 1=1 --" }, asBob);
    t.equal(hostile.statusCode, 404, 'a hostile id is a 404, never a 500');
  });

  await t.test('react, follow and report through the member schema', async (t) => {
    const asBob = await bearer(bob);
    const reacted = await gql('/graphql', 'mutation ($id: ID!) { reactForum(targetKind: POST, id: $id, reaction: "celebrate", on: true) { reaction count mine } }', { id: String(post.id) }, asBob);
    t.same(reacted.json().data.reactForum, [{ reaction: 'celebrate', count: 1, mine: true }]);
    const bad = await gql('/graphql', 'mutation ($id: ID!) { reactForum(targetKind: REPLY, id: $id, reaction: "angry", on: true) { count } }', { id: String(reply.id) }, asBob);
    t.equal(bad.statusCode, 400);
    t.equal(bad.json().errors[0].message, 'Please check the highlighted fields.');
    t.equal(bad.json().errors[0].extensions.fields.reaction.key, 'forumAdmin.errors.unknownReaction');
    const followed = await gql('/graphql', 'mutation ($id: ID!) { followForumPost(id: $id, on: true) { followedByMe } }', { id: String(post.id) }, asBob);
    t.same(followed.json().data.followForumPost, { followedByMe: true });

    const REPORT = 'mutation ($id: ID!, $d: String) { reportForum(targetKind: REPLY, id: $id, reason: "spam", description: $d) }';
    const reported = await gql('/graphql', REPORT, { id: String(reply.id), d: 'Selling things' }, asBob);
    t.equal(reported.json().data.reportForum, true);
    const bobBrowser = await csrfFor(app, (await signIn(app, bob, alpha)).cookie, '/');
    const viaCookie = { cookie: bobBrowser.cookie, 'x-csrf-token': bobBrowser.token };
    for (const [how, auth] of [['bearer token', asBob], ['cookie and CSRF', viaCookie]] as const) {
      const twice = await gql('/graphql', REPORT, { id: String(reply.id), d: 'Again' }, auth);
      t.equal(twice.statusCode, 409, `a second report (${how}): 409`);
      t.equal(twice.json().errors[0].extensions.code, 'Forum.AlreadyReported', 'the client reads the code');
      t.equal(twice.json().errors[0].message, 'You have already reported this.', 'and the message');
    }
    const tooLong = await gql('/graphql', REPORT, { id: String(reply.id), d: 'x'.repeat(501) }, await bearer(ada));
    t.equal(tooLong.statusCode, 400);
    t.equal(tooLong.json().errors[0].extensions.fields.description.key, 'forum.errors.descriptionTooLong');
    const nul = await gql('/graphql', REPORT, { id: String(reply.id), d: 'x\u0000' }, await bearer(ada));
    t.equal(nul.statusCode, 400, 'a NUL byte is a 400');
    const own = await gql('/graphql', REPORT, { id: String(reply.id), d: '' }, await bearer(cy));
    t.equal(own.json().errors[0].extensions.code, 'Forum.Invalid', 'one’s own reply');
  });

  await t.test('a moderator moderates on the member schema; a member may not', async (t) => {
    const waiting = await createReply(deps, newbie.viewer, post.id, { body: '<p>hi all</p>' });
    const asMod = await bearer(mod);
    const queue = await gql('/graphql', '{ forumModerationQueue { targetKind id postTitle why author { name } } }', {}, asMod);
    t.same(queue.json().data.forumModerationQueue, [{ targetKind: 'REPLY', id: String(waiting.id), postTitle: 'Trade show in May', why: 'new_member', author: { name: 'Nina New' } }]);
    const asBob = await bearer(bob);
    const refused = await gql('/graphql', '{ forumModerationQueue { id } }', {}, asBob);
    t.equal(refused.statusCode, 403);
    t.equal(refused.json().errors[0].message, 'Only moderators and staff can do this.');
    const reports = await gql('/graphql', '{ forumReports { reports { reason targetKind reporter { name } } next } }', {}, asMod);
    t.same(reports.json().data.forumReports, { reports: [{ reason: 'spam', targetKind: 'REPLY', reporter: { name: 'Bob Builder' } }], next: null });

    const REJECT = 'mutation ($id: ID!, $r: String!) { rejectForum(targetKind: REPLY, id: $id, reason: $r) { id status } }';
    const noReason = await gql('/graphql', REJECT, { id: String(waiting.id), r: ' ' }, asMod);
    t.equal(noReason.json().errors[0].extensions.fields.reason.key, 'forum.errors.moderationReasonRequired');
    const browser = await csrfFor(app, (await signIn(app, mod, alpha)).cookie, '/');
    const approved = await gql('/graphql', 'mutation ($id: ID!) { approveForum(targetKind: REPLY, id: $id, note: "Welcome") { id status } }', { id: String(waiting.id) }, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.same(approved.json().data.approveForum, { id: String(waiting.id), status: 'published' });
    const twice = await gql('/graphql', REJECT, { id: String(waiting.id), r: 'no' }, asMod);
    t.equal(twice.statusCode, 409);
    t.equal(twice.json().errors[0].extensions.code, 'Forum.AlreadyModerated');

    const removed = await gql('/graphql', 'mutation ($id: ID!) { removeForum(targetKind: REPLY, id: $id, reason: "Spam") { status } }', { id: String(waiting.id) }, asMod);
    t.equal(removed.json().data.removeForum.status, 'removed');
    const restored = await gql('/graphql', 'mutation ($id: ID!) { restoreForum(targetKind: REPLY, id: $id) { status } }', { id: String(waiting.id) }, asMod);
    t.equal(restored.json().data.restoreForum.status, 'published');
    const locked = await gql('/graphql', 'mutation ($id: ID!) { lockForumPost(id: $id, on: true) { id locked } }', { id: String(post.id) }, asMod);
    t.same(locked.json().data.lockForumPost, { id: String(post.id), locked: true });
    const memberLock = await gql('/graphql', 'mutation ($id: ID!) { lockForumPost(id: $id, on: false) { locked } }', { id: String(post.id) }, asBob);
    t.equal(memberLock.json().errors[0].extensions.code, 'Forum.NotModerator');
    await gql('/graphql', 'mutation ($id: ID!) { lockForumPost(id: $id, on: false) { locked } }', { id: String(post.id) }, asMod);
  });

  await t.test('staff use the admin schema: topics, pins, every-post-waits, the log; members may not', async (t) => {
    const asStaff = await bearer(staff, alpha, ['ADMIN', 'MEMBER']);
    const created = await gql('/graphqlAdmin', 'mutation { createForumTopic(name: "Events") { id name position archived postCount } }', {}, asStaff);
    const topic = created.json().data.createForumTopic;
    t.match(topic, { name: 'Events', archived: false, postCount: 0 });
    const dup = await gql('/graphqlAdmin', 'mutation { createForumTopic(name: "events") { id } }', {}, asStaff);
    t.equal(dup.json().errors[0].extensions.fields.name.key, 'forumAdmin.errors.topicExists');
    const moved = await gql('/graphqlAdmin', 'mutation ($id: ID!) { moveForumTopic(id: $id, direction: UP) { position } }', { id: topic.id }, asStaff);
    t.equal(moved.json().data.moveForumTopic.position, 0, 'moved up to the top');
    const renamed = await gql('/graphqlAdmin', 'mutation ($id: ID!) { renameForumTopic(id: $id, name: "Events and meetups") { name } }', { id: topic.id }, asStaff);
    t.equal(renamed.json().data.renameForumTopic.name, 'Events and meetups');
    const archived = await gql('/graphqlAdmin', 'mutation ($id: ID!) { archiveForumTopic(id: $id, archived: true) { archived } }', { id: topic.id }, asStaff);
    t.equal(archived.json().data.archiveForumTopic.archived, true);
    const listed = await gql('/graphqlAdmin', '{ all: forumTopics { name } live: forumTopics(includeArchived: false) { name } }', {}, asStaff);
    t.same(listed.json().data, { all: [{ name: 'Events and meetups' }, { name: 'General' }], live: [{ name: 'General' }] });

    const pinned = await gql('/graphqlAdmin', 'mutation ($id: ID!) { pinForumPost(id: $id, on: true) { id pinned } }', { id: String(post.id) }, asStaff);
    t.same(pinned.json().data.pinForumPost, { id: String(post.id), pinned: true });
    const wait = await gql('/graphqlAdmin', 'mutation { setForumAllPostsWait(on: true) }', {}, asStaff);
    t.equal(wait.json().data.setForumAllPostsWait, true);
    t.equal((await db.selectFrom('communities').select('forum_all_posts_wait').where('id', '=', alpha.id).executeTakeFirstOrThrow()).forum_all_posts_wait, true);
    await gql('/graphqlAdmin', 'mutation { setForumAllPostsWait(on: false) }', {}, asStaff);

    const queue = await gql('/graphqlAdmin', '{ forumModerationQueue { id } forumReports { reports { id } } }', {}, asStaff);
    t.same(queue.json().data.forumModerationQueue, [], 'the moderation operations are on the admin schema too');
    const log = await gql('/graphqlAdmin', '{ forumActions { actions { action actor { name } targetKind createdAt } next } }', {}, asStaff);
    const actions = log.json().data.forumActions.actions;
    t.equal(actions[0].action, 'all_posts_wait_off');
    t.equal(actions[0].actor.name, 'Sam Staff');
    t.ok(actions.some((a: { action: string; actor: { name: string } }) => a.action === 'approve' && a.actor.name === 'Mo Derator'), 'the moderator’s approval is there');

    const adminBrowser = await csrfFor(app, (await signIn(app, staff, alpha, ['ADMIN', 'MEMBER'])).cookie, '/');
    const viaCookie = await gql('/graphqlAdmin', 'mutation ($id: ID!) { pinForumPost(id: $id, on: false) { pinned } }', { id: String(post.id) }, { cookie: adminBrowser.cookie, 'x-csrf-token': adminBrowser.token });
    t.equal(viaCookie.json().data.pinForumPost.pinned, false, 'staff’s pages use the cookie and CSRF token');

    const asMod = await bearer(mod);
    const modTries = await gql('/graphqlAdmin', '{ forumTopics { id } }', {}, asMod);
    t.equal(modTries.json().errors[0].extensions.code, 'Forbidden', 'a moderator is not staff');
    const memberPin = await gql('/graphql', 'mutation { pinForumPost(id: 1, on: true) { pinned } }', {}, asMod);
    t.equal(memberPin.statusCode, 400, 'pinning is not on the member schema');
  });

  await t.test('where the forum is off, every operation is not found', async (t) => {
    const asOff = { ...(await bearer(offMember, off)), host: 'off.test' };
    const like = await gql('/graphql', LIKE, { id: String(post.id) }, asOff);
    t.equal(like.statusCode, 404);
    t.equal(like.json().errors[0].extensions.code, 'NotFound');
    const queue = await gql('/graphql', '{ forumModerationQueue { id } }', {}, asOff);
    t.equal(queue.json().errors[0].extensions.code, 'NotFound');
    const offStaff = await w.member(off, { firstName: 'Ola', lastName: 'Offstaff', staff: true });
    const topics = await gql('/graphqlAdmin', '{ forumTopics { id } }', {}, { ...(await bearer(offStaff, off, ['ADMIN', 'MEMBER'])), host: 'off.test' });
    t.equal(topics.statusCode, 404);
    t.equal(topics.json().errors[0].extensions.code, 'NotFound');
  });
});
