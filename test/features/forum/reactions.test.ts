import t from 'tap';
import { createPost, getPost } from '#src/features/forum/posts.ts';
import { followPost, likePost, likeReply, react, unlikePost, unlikeReply } from '#src/features/forum/reactions.ts';
import { createReply, listReplies } from '#src/features/forum/replies.ts';
import { fieldMessage, forumWorld, rejects } from '#test/helpers/forum-core.ts';

t.test('forum likes, reactions and follows', async (t) => {
  const w = await forumWorld(t);
  const { app, alpha, beta, off, db } = w;
  const deps = w.depsFor(alpha);
  const ada = await w.member(alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const bob = await w.member(alpha, { firstName: 'Bob', lastName: 'Builder' });
  const cy = await w.member(alpha, { firstName: 'Cy', lastName: 'Young' });
  const newbie = await w.member(alpha, { firstName: 'Nina', lastName: 'New', isNew: true });
  const bea = await w.member(beta, { firstName: 'Bea', lastName: 'Other' });
  const general = await w.topic(alpha, 'General');
  const post = await createPost(deps, ada.viewer, { title: 'Shared warehousing', body: '<p>Anyone near Austin?</p>', topicIds: [general] });
  const reply = await createReply(deps, bob.viewer, post.id, { body: '<p>Yes, in Round Rock.</p>' });

  await t.test('twenty concurrent clicks on like count one like', async (t) => {
    const results = await Promise.all(Array.from({ length: 20 }, () => likePost(deps, bob.viewer, post.id)));
    t.ok(results.every((r) => r.likedByMe && r.likeCount === 1), 'every click answers: liked, one like');
    t.equal((await getPost(deps, ada.viewer, post.id)).likeCount, 1, 'the post counts one');
    const rows = await db.selectFrom('forum_likes').selectAll().where('target_kind', '=', 'post').where('target_id', '=', post.id).execute();
    t.equal(rows.length, 1, 'one like row');
  });

  await t.test('likes from several members add up and unliking takes one off, once', async (t) => {
    t.same(await likePost(deps, cy.viewer, post.id), { likeCount: 2, likedByMe: true });
    t.same(await likePost(deps, ada.viewer, post.id), { likeCount: 3, likedByMe: true }, 'the author may like their own post');
    t.same(await unlikePost(deps, cy.viewer, post.id), { likeCount: 2, likedByMe: false });
    const again = await Promise.all(Array.from({ length: 10 }, () => unlikePost(deps, cy.viewer, post.id)));
    t.ok(again.every((r) => r.likeCount === 2 && !r.likedByMe), 'unliking again changes nothing');
    const view = await getPost(deps, bob.viewer, post.id);
    t.equal(view.likeCount, 2);
    t.ok(view.likedByMe, 'the page says Bob likes it');
    t.notOk((await getPost(deps, cy.viewer, post.id)).likedByMe, 'and that Cy does not');
  });

  await t.test('a reply is liked and unliked on its own count, concurrently too', async (t) => {
    const results = await Promise.all([...Array.from({ length: 20 }, () => likeReply(deps, ada.viewer, reply.id)), likeReply(deps, cy.viewer, reply.id)]);
    t.equal(results.at(-1)!.likeCount, 2);
    const [shown] = (await listReplies(deps, ada.viewer, post.id)).replies;
    t.equal(shown!.likeCount, 2, 'two members, two likes');
    t.ok(shown!.likedByMe);
    t.same(await unlikeReply(deps, ada.viewer, reply.id), { likeCount: 1, likedByMe: false });
    t.equal((await getPost(deps, ada.viewer, post.id)).likeCount, 2, 'the post’s count is its own');
  });

  await t.test('what members cannot see cannot be liked: waiting, other community, forum off, nothing', async (t) => {
    const waiting = await createPost(deps, newbie.viewer, { title: 'Hello all', body: '<p>New here</p>', topicIds: [general] });
    t.equal(waiting.status, 'pending');
    await rejects(t, likePost(deps, bob.viewer, waiting.id), 'Forum.PostNotFound', 'a waiting post');
    await rejects(t, likePost(w.depsFor(beta), bea.viewer, post.id), 'Forum.PostNotFound', 'another community’s post');
    await rejects(t, likeReply(w.depsFor(beta), bea.viewer, reply.id), 'Forum.ReplyNotFound', 'another community’s reply');
    await rejects(t, likePost(w.depsFor(off), bob.viewer, post.id), 'NotFound', 'a community without a forum');
    await rejects(t, likeReply(deps, bob.viewer, 999_999), 'Forum.ReplyNotFound', 'no such reply');
    t.equal((await getPost(deps, ada.viewer, post.id)).likeCount, 2, 'nothing changed');
  });

  await t.test('reactions go on and off, once per member and reaction, and count', async (t) => {
    let counts = await react(deps, bob.viewer, 'post', post.id, 'insightful', true);
    t.same(counts, [{ reaction: 'insightful', count: 1, mine: true }]);
    await Promise.all(Array.from({ length: 5 }, () => react(deps, bob.viewer, 'post', post.id, 'insightful', true)));
    counts = await react(deps, cy.viewer, 'post', post.id, 'insightful', true);
    t.same(counts, [{ reaction: 'insightful', count: 2, mine: true }], 'twice clicked by Bob, once by Cy: two');
    counts = await react(deps, cy.viewer, 'post', post.id, 'celebrate', true);
    t.same(counts, [
      { reaction: 'insightful', count: 2, mine: true },
      { reaction: 'celebrate', count: 1, mine: true },
    ]);
    counts = await react(deps, cy.viewer, 'post', post.id, 'insightful', false);
    t.same(counts, [
      { reaction: 'insightful', count: 1, mine: false },
      { reaction: 'celebrate', count: 1, mine: true },
    ], 'taken back');
    t.same((await getPost(deps, bob.viewer, post.id)).reactions, [
      { reaction: 'insightful', count: 1, mine: true },
      { reaction: 'celebrate', count: 1, mine: false },
    ], 'the post shows the same counts to Bob');
    t.same(await react(deps, ada.viewer, 'reply', reply.id, 'support', true), [{ reaction: 'support', count: 1, mine: true }], 'replies have their own');
    const e = await rejects(t, react(deps, bob.viewer, 'post', post.id, 'angry', true), 'Forum.Invalid', 'not in the set');
    t.equal(fieldMessage(app, e, 'reaction'), 'Choose a reaction from the list.');
    await rejects(t, react(deps, bob.viewer, 'post', post.id, { $ne: 1 }, true), 'Forum.Invalid', 'not even text');
    await rejects(t, react(w.depsFor(beta), bea.viewer, 'post', post.id, 'support', true), 'Forum.PostNotFound', 'another community');
  });

  await t.test('follow and unfollow, idempotent; followers hear of replies', async (t) => {
    await w.forumNotes(cy.id); // the notices of the earlier reply go out first (a job tells the followers of when it runs)
    t.same(await followPost(deps, cy.viewer, post.id, true), { followedByMe: true });
    t.same(await followPost(deps, cy.viewer, post.id, true), { followedByMe: true }, 'twice is once');
    t.ok((await getPost(deps, cy.viewer, post.id)).followedByMe);
    await createReply(deps, bob.viewer, post.id, { body: '<p>One more thing</p>' });
    t.same((await w.forumNotes(cy.id)).map((n) => n.message), ['Bob Builder replied to "Shared warehousing"'], 'Cy hears of the reply');
    t.same(await followPost(deps, cy.viewer, post.id, false), { followedByMe: false });
    t.same(await followPost(deps, cy.viewer, post.id, false), { followedByMe: false }, 'unfollowing twice is fine');
    t.notOk((await getPost(deps, cy.viewer, post.id)).followedByMe);
    await createReply(deps, bob.viewer, post.id, { body: '<p>And another</p>' });
    t.equal((await w.forumNotes(cy.id)).length, 1, 'no more news after unfollowing');
    await rejects(t, followPost(w.depsFor(beta), bea.viewer, post.id, true), 'Forum.PostNotFound', 'another community');
  });
});
