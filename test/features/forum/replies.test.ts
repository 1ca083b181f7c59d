import t from 'tap';
import { createPost, getPost } from '#src/features/forum/posts.ts';
import { publishEffects } from '#src/features/forum/effects.ts';
import { createReply, deleteReply, editReply, listReplies } from '#src/features/forum/replies.ts';
import { reject, removeContent } from '#src/features/forum/moderation.ts';
import { EDIT_WINDOW_MS, REPLY_MAX } from '#src/features/forum/rules.ts';
import { countingDb, fieldMessage, forumWorld, rejects } from '#test/helpers/forum-core.ts';

t.test('forum replies', async (t) => {
  const w = await forumWorld(t);
  const { app, alpha, beta, db, clock } = w;
  const deps = w.depsFor(alpha);
  const ada = await w.member(alpha, { firstName: 'Ada', lastName: 'Lovelace', username: 'ada' });
  const bob = await w.member(alpha, { firstName: 'Bob', lastName: 'Builder', username: 'bob' });
  const cy = await w.member(alpha, { firstName: 'Cy', lastName: 'Young', username: 'cy' });
  const dee = await w.member(alpha, { firstName: 'Dee', lastName: 'Reader', username: 'dee' });
  const newbie = await w.member(alpha, { firstName: 'Nina', lastName: 'New', isNew: true });
  const mod = await w.member(alpha, { firstName: 'Mo', lastName: 'Derator', moderator: true });
  const general = await w.topic(alpha, 'General');
  const newPost = (title = 'Warehouse space') => createPost(deps, ada.viewer, { title, body: '<p>Who has spare pallets?</p>', topicIds: [general] });

  await t.test('an empty reply is refused; REPLY_MAX characters are fine and one more says how many too many', async (t) => {
    const post = await newPost();
    let e = await rejects(t, createReply(deps, bob.viewer, post.id, { body: '<p>   </p>' }), 'Forum.Invalid', 'empty');
    t.equal(fieldMessage(app, e, 'body'), 'Your reply cannot be empty.');
    e = await rejects(t, createReply(deps, bob.viewer, post.id, { body: `<p>${'r'.repeat(REPLY_MAX + 1)}</p>` }), 'Forum.Invalid', 'one too many');
    t.equal(fieldMessage(app, e, 'body'), 'Your reply is 1 character(s) too long');
    const atLimit = await createReply(deps, bob.viewer, post.id, { body: `<p>${'r'.repeat(REPLY_MAX)}</p>` });
    t.equal(atLimit.status, 'published', 'exactly at the limit');
    await rejects(t, createReply(deps, bob.viewer, post.id, { body: 'hi\u0000' }), 150, 'a NUL byte');
    await rejects(t, createReply(deps, bob.viewer, 999_999, { body: '<p>hi</p>' }), 'Forum.PostNotFound', 'no such post');
  });

  await t.test('a locked post takes no replies', async (t) => {
    const post = await newPost('Locked');
    await db.updateTable('forum_posts').set({ locked_at: clock.now() }).where('id', '=', post.id).execute();
    const e = await rejects(t, createReply(deps, bob.viewer, post.id, { body: '<p>Late</p>' }), 'Forum.Locked', 'locked');
    t.equal(app.t(e!.key), 'This post is locked: it takes no new replies.');
    t.notOk((await getPost(deps, bob.viewer, post.id)).abilities.canReply, 'the page offers no reply');
  });

  await t.test('reply_count counts published replies and stays right after deletes', async (t) => {
    const post = await newPost('Counting');
    const r1 = await createReply(deps, bob.viewer, post.id, { body: '<p>one</p>' });
    const r2 = await createReply(deps, cy.viewer, post.id, { body: '<p>two</p>' });
    await createReply(deps, bob.viewer, post.id, { body: '<p>three</p>' });
    const waiting = await createReply(deps, newbie.viewer, post.id, { body: '<p>a new member waits</p>' });
    t.equal(waiting.status, 'pending');
    t.equal((await getPost(deps, ada.viewer, post.id)).replyCount, 3, 'three published; the waiting one does not count');
    await deleteReply(deps, bob.viewer, r1.id);
    t.equal((await getPost(deps, ada.viewer, post.id)).replyCount, 2, 'one deleted');
    await rejects(t, deleteReply(deps, bob.viewer, r1.id), 'Forum.ReplyNotFound', 'deleting twice');
    t.equal((await getPost(deps, ada.viewer, post.id)).replyCount, 2, 'still two');
    await rejects(t, deleteReply(deps, bob.viewer, r2.id), 'Forum.NotYours', 'not another’s');
    await rejects(t, deleteReply(deps, mod.viewer, r2.id), 'Forum.UseRemove', 'nor a moderator’s plain delete of another’s');
    t.same([(await listReplies(deps, mod.viewer, post.id)).replies.find((r) => r.id === r2.id)!.abilities].map((a) => [a.canDelete, a.canRemove]), [[false, true]], 'the moderator is offered removal');
    await removeContent(deps, mod.viewer, 'reply', r2.id, 'Not kind');
    await deleteReply(deps, newbie.viewer, waiting.id);
    t.equal((await getPost(deps, ada.viewer, post.id)).replyCount, 1, 'a moderator’s removal counts; a waiting one never counted');
    const page = await listReplies(deps, ada.viewer, post.id);
    t.same(page.replies.map((r) => r.bodyHtml), ['<p>three</p>'], 'only the remaining reply is shown');
  });

  await t.test('the author edits a reply within the window; waiting replies show to their author and moderators only', async (t) => {
    const post = await newPost('Editing');
    const reply = await createReply(deps, bob.viewer, post.id, { body: '<p>frist</p>' });
    const edited = await editReply(deps, bob.viewer, reply.id, { body: '<p>first</p>' });
    t.equal(edited.bodyHtml, '<p>first</p>');
    t.ok(edited.editedAt);
    await rejects(t, editReply(deps, cy.viewer, reply.id, { body: '<p>x</p>' }), 'Forum.NotYours', 'another member');
    await rejects(t, editReply(deps, bob.viewer, reply.id, { body: '' }), 'Forum.Invalid', 'emptied');
    const waiting = await createReply(deps, newbie.viewer, post.id, { body: '<p>hello</p>' });
    t.ok((await listReplies(deps, newbie.viewer, post.id)).replies.some((r) => r.id === waiting.id), 'its author sees it');
    t.ok((await listReplies(deps, mod.viewer, post.id)).replies.some((r) => r.id === waiting.id), 'a moderator sees it');
    t.notOk((await listReplies(deps, cy.viewer, post.id)).replies.some((r) => r.id === waiting.id), 'another member does not');
    clock.advance(EDIT_WINDOW_MS + 1000);
    await rejects(t, editReply(deps, bob.viewer, reply.id, { body: '<p>late</p>' }), 'Forum.EditWindowClosed', 'after the window');
  });

  await t.test('45 replies come in keyset pages, oldest first, none twice or lost', async (t) => {
    const post = await newPost('Long thread');
    const ids: number[] = [];
    for (let i = 1; i <= 45; i++) ids.push((await createReply(deps, i % 2 ? bob.viewer : cy.viewer, post.id, { body: `<p>reply ${i}</p>` })).id);
    const seen: number[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page = await listReplies(deps, dee.viewer, post.id, { after, first: 20 });
      seen.push(...page.replies.map((r) => r.id));
      after = page.next;
      pages++;
    } while (after && pages < 10);
    t.equal(pages, 3, '20 + 20 + 5');
    t.same(seen, ids, 'every reply once, in order');
    t.equal((await getPost(deps, dee.viewer, post.id)).replyCount, 45);
    await rejects(t, listReplies(deps, dee.viewer, post.id, { after: 'not-a-cursor!' }), 'BadRequest.Validation', 'a forged cursor is a 400');
    await rejects(t, listReplies(deps, dee.viewer, post.id, { after: Buffer.from('["x"]').toString('base64url') }), 'BadRequest.Validation', 'a cursor of the wrong shape');
  });

  await t.test('the post page (the post, then a page of its replies) costs at most five SQL statements', async (t) => {
    const post = await newPost('Counted statements');
    for (let i = 0; i < 25; i++) await createReply(deps, bob.viewer, post.id, { body: `<p>r${i}</p>` });
    const { db: counting, statements } = countingDb(db);
    const countingDeps = { ...deps, db: counting };
    const view = await getPost(countingDeps, dee.viewer, post.id);
    const page = await listReplies(countingDeps, dee.viewer, post.id, { post: view });
    t.equal(page.replies.length, 20);
    t.equal(statements.length, 2, 'two statements: the post; the replies with their authors, flags and reactions');
    const alone = await listReplies(deps, dee.viewer, post.id, { after: page.next });
    t.equal(alone.replies.length, 5, 'the next page, read on its own');
  });

  await t.test('the author sees their own rejected and removed replies (not deleted ones) with their state; others do not', async (t) => {
    const post = await newPost('Own hidden replies');
    const removed = await createReply(deps, bob.viewer, post.id, { body: '<p>removed one</p>' });
    await removeContent(deps, mod.viewer, 'reply', removed.id, 'Please keep it civil.');
    const waiting = await createReply(deps, newbie.viewer, post.id, { body: '<p>rejected one</p>' });
    await reject(deps, mod.viewer, 'reply', waiting.id, 'Off topic.');
    const deleted = await createReply(deps, bob.viewer, post.id, { body: '<p>deleted one</p>' });
    await deleteReply(deps, bob.viewer, deleted.id);
    await db.updateTable('forum_replies').set({ status: 'removed' }).where('id', '=', deleted.id).execute(); // deleted and removed
    const shown = await createReply(deps, cy.viewer, post.id, { body: '<p>shown</p>' });

    const ofBob = (await listReplies(deps, bob.viewer, post.id)).replies;
    t.same(ofBob.map((r) => [r.id, r.status]), [[removed.id, 'removed'], [shown.id, 'published']], 'Bob sees his removed reply, not his deleted one');
    t.equal(ofBob[0]!.moderationNote, 'Please keep it civil.', 'with the moderator’s note');
    t.notOk(ofBob[0]!.abilities.canReport, 'and cannot report it');
    const ofNina = (await listReplies(deps, newbie.viewer, post.id)).replies;
    t.same(ofNina.map((r) => [r.id, r.status]), [[waiting.id, 'rejected'], [shown.id, 'published']], 'Nina sees her rejected reply');
    t.same((await listReplies(deps, dee.viewer, post.id)).replies.map((r) => r.id), [shown.id], 'another member sees neither');
    t.same((await listReplies(deps, mod.viewer, post.id)).replies.map((r) => r.id), [shown.id], 'a moderator’s thread shows neither (the staff pages do)');

    // Still one statement for the replies: the post page stays within five.
    const { db: counting, statements } = countingDb(db);
    const countingDeps = { ...deps, db: counting };
    const view = await getPost(countingDeps, bob.viewer, post.id);
    const before = statements.length;
    await listReplies(countingDeps, bob.viewer, post.id, { post: view });
    t.equal(statements.length - before, 1, 'the replies with their reactions: one statement');
    t.ok(statements.length <= 5, `${statements.length} statements for the page`);
  });

  await t.test('followers hear of a new reply, the replier does not; a mention notifies a non-follower once', async (t) => {
    const post = await newPost('Followed');
    await createReply(deps, bob.viewer, post.id, { body: '<p>Bob follows by replying</p>' });
    const before = { ada: (await w.forumNotes(ada.id)).length, bob: (await w.forumNotes(bob.id)).length, cy: (await w.forumNotes(cy.id)).length, dee: (await w.forumNotes(dee.id)).length };
    const reply = await createReply(deps, cy.viewer, post.id, { body: '<p>Agreed, @bob and @dee</p>' });
    t.match(reply.bodyHtml, `<a href="/profile/${dee.id}">@dee</a>`);
    const adaNotes = (await w.forumNotes(ada.id)).slice(before.ada);
    t.same(adaNotes, [{ message: 'Cy Young replied to "Followed"', url: `/forum/post/${post.id}#reply-${reply.id}` }], 'the author follows and hears');
    t.same((await w.forumNotes(bob.id)).slice(before.bob).map((n) => n.message), ['Cy Young replied to "Followed"'], 'a mentioned follower hears once');
    t.same((await w.forumNotes(dee.id)).slice(before.dee).map((n) => n.message), ['Cy Young mentioned you in "Followed"'], 'a mentioned non-follower hears of the mention');
    t.equal((await w.forumNotes(cy.id)).length, before.cy, 'the replier hears nothing');
    t.ok((await getPost(deps, cy.viewer, post.id)).followedByMe, 'the replier now follows');
    const waitingBefore = (await w.forumNotes(ada.id)).length;
    await createReply(deps, newbie.viewer, post.id, { body: '<p>waiting</p>' });
    t.equal((await w.forumNotes(ada.id)).length, waitingBefore, 'a waiting reply notifies nobody yet');
  });

  await t.test('publishEffects, run when a waiting reply is approved, counts it and notifies as a new reply would, once', async (t) => {
    const post = await newPost('Approved later');
    const waiting = await createReply(deps, newbie.viewer, post.id, { body: '<p>Hello @bob</p>' });
    t.equal((await getPost(deps, ada.viewer, post.id)).replyCount, 0, 'a waiting reply does not count');
    const before = { ada: (await w.forumNotes(ada.id)).length, bob: (await w.forumNotes(bob.id)).length };
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('forum_replies').set({ status: 'published' }).where('id', '=', waiting.id).execute();
      await publishEffects(trx, deps, 'reply', waiting.id);
    });
    t.equal((await getPost(deps, ada.viewer, post.id)).replyCount, 1, 'counted once published');
    t.same((await w.forumNotes(ada.id)).slice(before.ada).map((n) => n.message), ['Nina New replied to "Approved later"'], 'the follower hears');
    t.same((await w.forumNotes(bob.id)).slice(before.bob).map((n) => n.message), ['Nina New mentioned you in "Approved later"'], 'the mentioned member hears');
    await db.transaction().execute((trx) => publishEffects(trx, deps, 'reply', waiting.id));
    t.equal((await getPost(deps, ada.viewer, post.id)).replyCount, 1, 'the count is recounted, never counted twice');
  });

  await t.test('another community’s thread is not found', async (t) => {
    const betaMember = await w.member(beta);
    const betaTopic = await w.topic(beta, 'Beta');
    const betaPost = await createPost(w.depsFor(beta), betaMember.viewer, { title: 'Beta only', body: '<p>hi</p>', topicIds: [betaTopic] });
    const betaReply = await createReply(w.depsFor(beta), betaMember.viewer, betaPost.id, { body: '<p>hi</p>' });
    await rejects(t, listReplies(deps, ada.viewer, betaPost.id), 'Forum.PostNotFound', 'reading');
    await rejects(t, createReply(deps, ada.viewer, betaPost.id, { body: '<p>x</p>' }), 'Forum.PostNotFound', 'replying');
    await rejects(t, editReply(deps, betaMember.viewer, betaReply.id, { body: '<p>x</p>' }), 'Forum.ReplyNotFound', 'editing');
    await rejects(t, deleteReply(deps, betaMember.viewer, betaReply.id), 'Forum.ReplyNotFound', 'deleting');
  });

  await t.test('an edit of a reply that adds a mention notifies the newly mentioned member once', async (t) => {
    const post = await newPost('Reply mentions');
    const reply = await createReply(deps, cy.viewer, post.id, { body: '<p>Hi @bob</p>' });
    const before = { bob: (await w.forumNotes(bob.id)).length, dee: (await w.forumNotes(dee.id)).length };
    await editReply(deps, cy.viewer, reply.id, { body: '<p>Hi @bob and @dee</p>' });
    t.same((await w.forumNotes(dee.id)).slice(before.dee), [{ message: 'Cy Young mentioned you in "Reply mentions"', url: `/forum/post/${post.id}#reply-${reply.id}` }], 'the new one hears');
    t.equal((await w.forumNotes(bob.id)).length, before.bob, 'the one mentioned before is not told again');
  });
});
