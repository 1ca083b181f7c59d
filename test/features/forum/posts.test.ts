import t from 'tap';
import { createCommunity } from '#test/helpers/factories.ts';
import { createPost, deletePost, editPost, getPost, listPosts } from '#src/features/forum/posts.ts';
import { mentionLinksUnder } from '#src/features/forum/mentions.ts';
import { createReply } from '#src/features/forum/replies.ts';
import { removeContent, restoreContent } from '#src/features/forum/moderation.ts';
import { EDIT_WINDOW_MS, HTML_MAX, POST_MAX, TITLE_MAX, TOPICS_MAX } from '#src/features/forum/rules.ts';
import { fieldMessage, forumWorld, rejects } from '#test/helpers/forum-core.ts';

t.test('forum posts', async (t) => {
  const w = await forumWorld(t);
  const { app, alpha, beta, off, clock, db } = w;
  const deps = w.depsFor(alpha);
  const ada = await w.member(alpha, { firstName: 'Ada', lastName: 'Lovelace', username: 'ada' });
  const bob = await w.member(alpha, { firstName: 'Bob', lastName: 'Builder', username: 'bob' });
  const newbie = await w.member(alpha, { firstName: 'Nina', lastName: 'New', isNew: true });
  const mod = await w.member(alpha, { firstName: 'Mo', lastName: 'Derator', moderator: true, isNew: true });
  const general = await w.topic(alpha, 'General', 0);
  const hiring = await w.topic(alpha, 'Hiring', 1);
  const events = await w.topic(alpha, 'Events', 2);
  const money = await w.topic(alpha, 'Money', 3);
  const archived = await w.topic(alpha, 'Old news', 4, true);
  const betaTopic = await w.topic(beta, 'Beta talk');
  const valid = { title: 'Warehouse space in Austin', body: '<p>Who has spare pallets?</p>', topicIds: [general] };

  await t.test('a post needs a title, a message and one to three open topics, and says what is wrong with each', async (t) => {
    let e = await rejects(t, createPost(deps, ada.viewer, { title: '  ', body: '<p> </p>', topicIds: [] }), 'Forum.Invalid', 'everything missing');
    t.equal(fieldMessage(app, e, 'title'), 'Please give your post a title.');
    t.equal(fieldMessage(app, e, 'body'), 'Please write a message.');
    t.equal(fieldMessage(app, e, 'topicIds'), 'Choose at least one topic.');

    e = await rejects(t, createPost(deps, ada.viewer, { ...valid, topicIds: [general, hiring, events, money] }), 'Forum.Invalid', `${TOPICS_MAX + 1} topics`);
    t.equal(fieldMessage(app, e, 'topicIds'), `Only ${TOPICS_MAX} allowed`);
    e = await rejects(t, createPost(deps, ada.viewer, { ...valid, topicIds: [archived] }), 'Forum.Invalid', 'an archived topic');
    t.equal(fieldMessage(app, e, 'topicIds'), 'Choose topics from the list.');
    await rejects(t, createPost(deps, ada.viewer, { ...valid, topicIds: [betaTopic] }), 'Forum.Invalid', 'another community’s topic');
    await rejects(t, createPost(deps, ada.viewer, { ...valid, topicIds: ['1; drop table'] }), 'Forum.Invalid', 'a malformed topic id');

    e = await rejects(t, createPost(deps, ada.viewer, { ...valid, title: 'x'.repeat(TITLE_MAX + 1) }), 'Forum.Invalid', 'a title one too long');
    t.equal(fieldMessage(app, e, 'title'), 'The title is 1 character too long.');

    const three = await createPost(deps, ada.viewer, { ...valid, topicIds: [general, hiring, `${events}`] });
    t.same(three.topics.map((x) => x.name), ['General', 'Hiring', 'Events'], 'three topics are fine, in topic order');
    t.equal(three.status, 'published');
    t.equal(three.author.name, 'Ada Lovelace');
  });

  await t.test('the message may be exactly POST_MAX characters, one more is refused with the count', async (t) => {
    const atLimit = await createPost(deps, ada.viewer, { ...valid, body: `<p>${'a'.repeat(POST_MAX)}</p>` });
    t.equal(atLimit.status, 'published', `${POST_MAX} characters are accepted`);
    const e = await rejects(t, createPost(deps, ada.viewer, { ...valid, body: `<p>${'a'.repeat(POST_MAX + 1)}</p>` }), 'Forum.Invalid', 'one more');
    t.equal(fieldMessage(app, e, 'body'), 'Your message is 1 character(s) too long');
    const markup = await createPost(deps, ada.viewer, { ...valid, body: `<p><strong>${'b'.repeat(POST_MAX)}</strong></p>` });
    t.equal(markup.status, 'published', 'markup does not count');
  });

  await t.test('hostile input is a 4xx: control characters, oversized HTML; scripts are sanitised away', async (t) => {
    let e = await rejects(t, createPost(deps, ada.viewer, { ...valid, title: 'Hello\u0000' }), 150, 'a NUL byte in the title');
    t.equal(e?.status, 400);
    t.ok(e?.fields?.title, 'named on the title');
    e = await rejects(t, createPost(deps, ada.viewer, { ...valid, body: '<p>ok\u0007</p>' }), 150, 'a bell character in the message');
    t.ok(e?.fields?.body, 'named on the message');
    e = await rejects(t, createPost(deps, ada.viewer, { ...valid, body: 'x'.repeat(HTML_MAX + 1) }), 'Forum.Invalid', 'HTML over HTML_MAX');
    t.equal(e?.status, 400);
    await rejects(t, createPost(deps, ada.viewer, { ...valid, title: { $gt: '' } as unknown }), 'Forum.Invalid', 'an object for a title');
    const post = await createPost(deps, ada.viewer, { ...valid, body: '<p onclick="x()">Hi <script>alert(1)</script><a href="javascript:alert(1)">there</a></p>' });
    t.equal(post.bodyHtml, '<p>Hi <a>there</a></p>', 'only the articles’ rich text survives');
  });

  await t.test('a new member’s post waits for a moderator; only its author and moderators see it', async (t) => {
    const waiting = await createPost(deps, newbie.viewer, { ...valid, title: 'My first post' });
    t.equal(waiting.status, 'pending');
    t.equal((await getPost(deps, newbie.viewer, waiting.id)).title, 'My first post', 'the author sees it');
    t.equal((await getPost(deps, mod.viewer, waiting.id)).status, 'pending', 'a moderator sees it');
    await rejects(t, getPost(deps, bob.viewer, waiting.id), 'Forum.PostNotFound', 'another member does not');
    const list = await listPosts(deps, bob.viewer, {});
    t.notOk(list.posts.some((p) => p.id === waiting.id), 'not in the list');
    const byMod = await createPost(deps, mod.viewer, { ...valid, title: 'Moderators never wait' });
    t.equal(byMod.status, 'published', 'a new moderator does not wait');
  });

  await t.test('where every post waits, members’ posts wait, staff’s do not, and replies do not', async (t) => {
    const gamma = await createCommunity(w.db, { code: 'gamma', hosts: ['gamma.test'], forum_enabled: true, forum_all_posts_wait: true });
    const gdeps = w.depsFor(gamma);
    const old = await w.member(gamma, { firstName: 'Olga', lastName: 'Old' });
    const staff = await w.member(gamma, { firstName: 'Sam', lastName: 'Staff', staff: true });
    const topic = await w.topic(gamma, 'General');
    t.equal((await createPost(gdeps, old.viewer, { ...valid, topicIds: [topic] })).status, 'pending', 'a long-time member waits');
    const staffPost = await createPost(gdeps, staff.viewer, { ...valid, topicIds: [topic] });
    t.equal(staffPost.status, 'published', 'staff do not');
    t.equal((await createReply(gdeps, old.viewer, staffPost.id, { body: '<p>Replies do not wait</p>' })).status, 'published', 'a long-time member’s reply is published');
  });

  await t.test('the author edits within the edit window, not after; nobody edits another’s post', async (t) => {
    const post = await createPost(deps, ada.viewer, valid);
    t.ok(post.abilities.canEdit, 'the author may edit');
    t.notOk((await getPost(deps, bob.viewer, post.id)).abilities.canEdit, 'another member may not');
    clock.advance(60_000);
    const edited = await editPost(deps, ada.viewer, post.id, { title: 'Pallets wanted', body: '<p>Still looking</p>', topicIds: [hiring] });
    t.equal(edited.title, 'Pallets wanted');
    t.same(edited.topics.map((x) => x.name), ['Hiring']);
    t.ok(edited.editedAt, 'marked as edited');
    await rejects(t, editPost(deps, bob.viewer, post.id, valid), 'Forum.NotYours', 'another member');
    clock.advance(EDIT_WINDOW_MS);
    await rejects(t, editPost(deps, ada.viewer, post.id, valid), 'Forum.EditWindowClosed', 'after the window');
    await rejects(t, deletePost(deps, ada.viewer, post.id), 'Forum.EditWindowClosed', 'nor deleted after the window');
  });

  await t.test('the author deletes their own post, not another’s; a deleted post is not found', async (t) => {
    const post = await createPost(deps, ada.viewer, { ...valid, title: 'Delete me' });
    await rejects(t, deletePost(deps, bob.viewer, post.id), 'Forum.NotYours', 'another member cannot');
    await deletePost(deps, ada.viewer, post.id);
    const e = await rejects(t, getPost(deps, ada.viewer, post.id), 'Forum.PostNotFound', 'gone for the author');
    t.equal(app.t(e!.key), 'Post not found');
    t.notOk((await listPosts(deps, bob.viewer, {})).posts.some((p) => p.id === post.id), 'gone from the list');
  });

  await t.test('a moderator or staff cannot delete another’s post: they remove it with a reason (logged, its author told, restorable)', async (t) => {
    const staff = await w.member(alpha, { firstName: 'Sam', lastName: 'Staff', staff: true });
    const cal = await w.member(alpha, { firstName: 'Cal', lastName: 'Author' });
    const other = await createPost(deps, cal.viewer, { ...valid, title: 'Not the moderator’s to delete' });
    t.same(
      [(await getPost(deps, mod.viewer, other.id)).abilities, (await getPost(deps, cal.viewer, other.id)).abilities].map((a) => [a.canDelete, a.canRemove]),
      [[false, true], [true, false]],
      'the moderator is offered removal, the author deletion',
    );
    const e = await rejects(t, deletePost(deps, mod.viewer, other.id), 'Forum.UseRemove', 'a moderator’s plain delete is refused');
    t.match(app.t(e!.key), 'remove it with a reason');
    await rejects(t, deletePost(deps, staff.viewer, other.id), 'Forum.UseRemove', 'so is staff’s');
    t.equal((await getPost(deps, cal.viewer, other.id)).status, 'published', 'still there');
    const notesBefore = (await w.forumNotes(cal.id)).length;
    await removeContent(deps, mod.viewer, 'post', other.id, 'Off topic here');
    t.equal((await getPost(deps, mod.viewer, other.id)).status, 'removed', 'removed instead');
    t.match((await w.forumNotes(cal.id)).slice(notesBefore), [{ message: /Off topic here/ }], 'the author is told why');
    const logged = await db.selectFrom('forum_actions').select(['action', 'actor_id', 'note']).where('target_kind', '=', 'post').where('target_id', '=', other.id).execute();
    t.same(logged, [{ action: 'remove', actor_id: mod.id, note: 'Off topic here' }], 'in the staff’s log');
    await restoreContent(deps, staff.viewer, 'post', other.id);
    t.equal((await getPost(deps, cal.viewer, other.id)).status, 'published', 'staff can restore it');
    const own = await createPost(deps, mod.viewer, { ...valid, title: 'The moderator’s own' });
    await deletePost(deps, mod.viewer, own.id);
    await rejects(t, getPost(deps, mod.viewer, own.id), 'Forum.PostNotFound', 'their own they delete like anyone');
  });

  await t.test('another community’s post is “Post not found”, and the forum-off community is a 404', async (t) => {
    const betaMember = await w.member(beta, { firstName: 'Bea', lastName: 'Other' });
    const betaPost = await createPost(w.depsFor(beta), betaMember.viewer, { ...valid, topicIds: [betaTopic] });
    const e = await rejects(t, getPost(deps, ada.viewer, betaPost.id), 'Forum.PostNotFound', 'read from alpha');
    t.equal(app.t(e!.key), 'Post not found');
    await rejects(t, editPost(deps, betaMember.viewer, betaPost.id, valid), 'Forum.PostNotFound', 'edited through alpha');
    await rejects(t, deletePost(deps, betaMember.viewer, betaPost.id), 'Forum.PostNotFound', 'deleted through alpha');
    t.notOk((await listPosts(deps, ada.viewer, {})).posts.some((p) => p.id === betaPost.id), 'not in alpha’s list');

    const offDeps = w.depsFor(off);
    const offMember = await w.member(off);
    const notFound = await rejects(t, listPosts(offDeps, offMember.viewer, {}), 'NotFound', 'the list');
    t.equal(notFound?.status, 404);
    await rejects(t, createPost(offDeps, offMember.viewer, valid), 'NotFound', 'writing');
    await rejects(t, getPost(offDeps, offMember.viewer, betaPost.id), 'NotFound', 'reading');
  });

  await t.test('an @mention links to the member’s profile and notifies them, not the author', async (t) => {
    const post = await createPost(deps, ada.viewer, { ...valid, title: 'Question', body: '<p>What do you think, @Bob? And @ada and @nobody, mail a@bob.com</p>' });
    t.match(post.bodyHtml, `<a href="/profile/${bob.id}">@Bob</a>`, 'a profile link');
    t.notMatch(post.bodyHtml, '@nobody</a>', 'an unknown name stays text');
    t.notMatch(post.bodyHtml, 'a@<a', 'an e-mail address is no mention');
    const notes = await w.forumNotes(bob.id);
    t.same(notes.map((n) => n.message), ['Ada Lovelace mentioned you in "Question"']);
    t.equal(notes[0]?.url, `/forum/post/${post.id}`);
    t.same(await w.forumNotes(ada.id), [], 'the author is not notified of their own mention');
    t.match(mentionLinksUnder(post.bodyHtml, '/v2'), `<a href="/v2/profile/${bob.id}">@Bob</a>`, 'under a path prefix the link keeps inside it');
  });

  await t.test('an edit that adds a mention notifies the newly mentioned member once, not those mentioned before', async (t) => {
    const post = await createPost(deps, ada.viewer, { ...valid, title: 'Edited mentions', body: '<p>Hello @bob</p>' });
    const before = { bob: (await w.forumNotes(bob.id)).length, mod: (await w.forumNotes(mod.id)).length };
    await db.updateTable('users').set({ username: 'mo' }).where('id', '=', mod.id).execute();
    const edited = await editPost(deps, ada.viewer, post.id, { title: 'Edited mentions', body: '<p>Hello @bob and @mo</p>', topicIds: [general] });
    t.match(edited.bodyHtml, `<a href="/profile/${mod.id}">@mo</a>`);
    t.same((await w.forumNotes(mod.id)).slice(before.mod), [{ message: 'Ada Lovelace mentioned you in "Edited mentions"', url: `/forum/post/${post.id}` }], 'the new one hears');
    t.equal((await w.forumNotes(bob.id)).length, before.bob, 'the one mentioned before is not told again');
    await editPost(deps, ada.viewer, post.id, { title: 'Edited mentions', body: '<p>Hello @bob and @mo, again</p>', topicIds: [general] });
    t.equal((await w.forumNotes(mod.id)).length, before.mod + 1, 'a second edit tells nobody twice');
    const waiting = await createPost(deps, newbie.viewer, { ...valid, title: 'Waiting mentions', body: '<p>plain</p>' });
    await editPost(deps, newbie.viewer, waiting.id, { title: 'Waiting mentions', body: '<p>now @bob</p>', topicIds: [general] });
    t.equal((await w.forumNotes(bob.id)).length, before.bob, 'a waiting post’s mentions wait for its approval');
  });
});
