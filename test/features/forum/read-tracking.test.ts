import t from 'tap';
import { createPost, getPost, listPosts } from '#src/features/forum/posts.ts';
import { createReply, deleteReply, listReplies } from '#src/features/forum/replies.ts';
import { removeContent } from '#src/features/forum/moderation.ts';
import type { PostSummary } from '#src/features/forum/types.ts';
import type { ForumViewer } from '#src/features/forum/deps.ts';
import { forumNewsJson, forumNewsOf, newestPosts } from '#src/features/forum/activity.ts';
import { sql } from 'kysely';
import { addMembership } from '#test/helpers/factories.ts';
import { countingDb, forumWorld, rejects } from '#test/helpers/forum-core.ts';

// Read tracking (issue 30, decision 0065): per member and post, the highest reply they were shown;
// the list says which posts they never opened and how many replies came since, in its own statement.
t.test('forum read tracking', async (t) => {
  const w = await forumWorld(t);
  const { alpha, beta, db, clock } = w;
  const deps = w.depsFor(alpha);
  const ada = await w.member(alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const bob = await w.member(alpha, { firstName: 'Bob', lastName: 'Builder' });
  const cy = await w.member(alpha, { firstName: 'Cy', lastName: 'Young' });
  const dee = await w.member(alpha, { firstName: 'Dee', lastName: 'Reader' });
  const newbie = await w.member(alpha, { firstName: 'Nina', lastName: 'New', isNew: true });
  const mod = await w.member(alpha, { firstName: 'Mo', lastName: 'Derator', moderator: true });
  const general = await w.topic(alpha, 'General');
  const newPost = (title: string) => {
    clock.advance(1000);
    return createPost(deps, ada.viewer, { title, body: '<p>Who has spare pallets?</p>', topicIds: [general] });
  };
  const reply = (who: { viewer: ForumViewer }, postId: number, body = 'A reply') => createReply(deps, who.viewer, postId, { body: `<p>${body}</p>` });
  /** The post as the member's list shows it. */
  const rowOf = async (who: { viewer: ForumViewer }, postId: number): Promise<PostSummary> => {
    const page = await listPosts(deps, who.viewer, { first: 100 });
    const row = [...page.pinned, ...page.posts].find((p) => p.id === postId);
    if (!row) throw new Error(`post ${postId} not in the list`);
    return row;
  };
  /** The thread's first page as the post page shows it (the visit recorded). */
  const read = async (who: { viewer: ForumViewer }, postId: number, after: string | null = null) => {
    const post = await getPost(deps, who.viewer, postId);
    return listReplies(deps, who.viewer, postId, { post, after });
  };

  await t.test('a new post is unread for the others, never for its author; reading it clears it', async (t) => {
    const post = await newPost('Fresh');
    const forBob = await rowOf(bob, post.id);
    t.ok(forBob.unread, 'unread for Bob');
    t.equal(forBob.newReplyCount, 0, 'nothing "new" on a post never opened: unread says it');
    t.notOk((await rowOf(ada, post.id)).unread, 'never unread for its author');
    await read(bob, post.id);
    const after = await rowOf(bob, post.id);
    t.notOk(after.unread, 'read once opened');
    t.equal(after.newReplyCount, 0);
    t.ok((await rowOf(cy, post.id)).unread, 'still unread for Cy: each member their own');
  });

  await t.test('its author has read a new post: replies by others are new to them without opening it (the API never shows it)', async (t) => {
    const post = await newPost('Mine');
    await reply(bob, post.id, 'first');
    await reply(cy, post.id, 'second');
    const forAda = await rowOf(ada, post.id);
    t.notOk(forAda.unread);
    t.equal(forAda.newReplyCount, 2, '"2 new" for the author');
  });

  await t.test('"N new": the published replies by others after the last reply the member was shown', async (t) => {
    const post = await newPost('Counting');
    await reply(cy, post.id, 'one');
    await read(bob, post.id);
    await reply(cy, post.id, 'two');
    await reply(ada, post.id, 'three');
    await reply(bob, post.id, 'Bob’s own');
    t.equal((await rowOf(bob, post.id)).newReplyCount, 2, 'two new for Bob; his own reply is not news to him');
    t.equal((await getPost(deps, bob.viewer, post.id)).newReplyCount, 2, 'the post says the same');
    t.ok((await rowOf(dee, post.id)).unread, 'Dee never opened it');
    await read(dee, post.id);
    t.equal((await rowOf(dee, post.id)).newReplyCount, 0, 'Dee read it all');
    t.equal((await rowOf(bob, post.id)).newReplyCount, 2, 'Dee’s reading changes nothing for Bob');
    await read(bob, post.id);
    t.equal((await rowOf(bob, post.id)).newReplyCount, 0, 'reading clears it');
  });

  await t.test('counts stay exact when replies come in while the page is read and drawn', async (t) => {
    const post = await newPost('Busy thread');
    for (let i = 0; i < 3; i++) await reply(cy, post.id, `before ${i}`);
    // A reply written between reading the post and drawing its replies is on the page (and read);
    // one written after the replies were read is not, and counts as new.
    const view = await getPost(deps, bob.viewer, post.id);
    await reply(cy, post.id, 'between read and render');
    const page = await listReplies(deps, bob.viewer, post.id, { post: view });
    t.equal(page.replies.length, 4, 'the page shows the reply written meanwhile');
    await reply(dee, post.id, 'after render');
    t.equal((await rowOf(bob, post.id)).newReplyCount, 1, 'only the reply written after the page');

    // Replies and page views at once: the count is always the replies the member was not shown.
    for (let round = 0; round < 4; round++) {
      const results = await Promise.all([reply(cy, post.id, `race ${round}a`), listReplies(deps, bob.viewer, post.id, { first: 100 }), reply(dee, post.id, `race ${round}b`), reply(ada, post.id, `race ${round}c`)]);
      const shown = results[1].replies.map((r) => r.id);
      const highest = Math.max(...shown);
      const written = [results[0], results[2], results[3]].map((r) => r.id);
      const all = await db.selectFrom('forum_replies').select('id').where('post_id', '=', post.id).where('status', '=', 'published').where('deleted_at', 'is', null).where('author_id', '!=', bob.id).execute();
      const unseen = all.filter((r) => r.id > highest).length;
      t.equal((await rowOf(bob, post.id)).newReplyCount, unseen, `round ${round}: ${unseen} new, the replies not on the page Bob was shown`);
      t.ok(written.every((id) => shown.includes(id) || id > highest), 'a reply is either on the page or after it');
    }
  });

  await t.test('pages: the mark moves on over replies read in order, never over a page skipped', async (t) => {
    const post = await newPost('Long thread');
    for (let i = 0; i < 25; i++) await reply(cy, post.id, `r${i}`);
    const first = await read(bob, post.id);
    t.equal(first.replies.length, 20);
    t.equal((await rowOf(bob, post.id)).newReplyCount, 5, 'the five on the next page are new');
    await read(bob, post.id, first.next);
    t.equal((await rowOf(bob, post.id)).newReplyCount, 0, 'then none');
    await read(bob, post.id);
    t.equal((await rowOf(bob, post.id)).newReplyCount, 0, 'the first page again changes nothing');

    // Dee lands on the second page first (a notification's link): the post is opened, but the
    // replies she skipped are still new to her, and so are those she was shown out of order.
    await read(dee, post.id, first.next);
    const dees = await rowOf(dee, post.id);
    t.notOk(dees.unread, 'opened');
    t.equal(dees.newReplyCount, 25, 'nothing counted read that she skipped');
    await read(dee, post.id);
    t.equal((await rowOf(dee, post.id)).newReplyCount, 5);

    // Finding the page for a new reply (the reply form's redirect) shows nothing and records nothing.
    await listReplies(deps, cy.viewer, post.id, { record: false });
    t.ok((await rowOf(cy, post.id)).newReplyCount === 0 && !(await db.selectFrom('forum_reads').select('user_id').where('post_id', '=', post.id).where('user_id', '=', cy.id).executeTakeFirst()), 'no visit recorded');
  });

  await t.test('waiting, removed and deleted replies are not new', async (t) => {
    const post = await newPost('Moderated thread');
    await read(bob, post.id);
    const waiting = await reply(newbie, post.id, 'waits for a moderator');
    t.equal(waiting.status, 'pending');
    const removed = await reply(cy, post.id, 'removed');
    await removeContent(deps, mod.viewer, 'reply', removed.id, 'Off topic.');
    const deleted = await reply(dee, post.id, 'deleted');
    await deleteReply(deps, dee.viewer, deleted.id);
    const kept = await reply(dee, post.id, 'kept');
    t.ok(kept.id > removed.id);
    t.equal((await rowOf(bob, post.id)).newReplyCount, 1, 'only the published one');
    // A moderator is shown the waiting reply on the page: reading past it is reading it.
    await read(mod, post.id);
    t.equal((await rowOf(mod, post.id)).newReplyCount, 0);
  });

  await t.test('another community’s reads are invisible; a post of another community records nothing', async (t) => {
    const post = await newPost('Tenancy');
    await reply(cy, post.id, 'one');
    await addMembership(db, beta, bob.id);
    // A forged row in beta for alpha's post (the key carries the community): alpha's list ignores it.
    await db.insertInto('forum_reads').values({ community_id: beta.id, post_id: post.id, user_id: bob.id, last_reply_id: 2_000_000_000 }).execute();
    t.ok((await rowOf(bob, post.id)).unread, 'still unread in alpha');
    await rejects(t, listReplies(w.depsFor(beta), bob.viewer, post.id), 'Forum.PostNotFound', 'beta does not find alpha’s post');
    await read(bob, post.id);
    const rows = await db.selectFrom('forum_reads').select(['community_id', 'last_reply_id']).where('post_id', '=', post.id).where('user_id', '=', bob.id).orderBy('community_id').execute();
    t.same(
      rows.map((r) => r.community_id).sort(),
      [alpha.id, beta.id].sort(),
      'the visit is recorded in alpha, beside (not over) the forged row',
    );
    t.equal((await rowOf(bob, post.id)).newReplyCount, 0);
    const betaMember = await w.member(beta, { firstName: 'Bea', lastName: 'Beta' });
    t.same((await listPosts(w.depsFor(beta), betaMember.viewer, {})).posts, [], 'beta’s list shows nothing of alpha');
  });

  await t.test('rows carry the faces of up to three who replied last, besides the author', async (t) => {
    const post = await newPost('Faces');
    await reply(bob, post.id);
    await reply(cy, post.id);
    await reply(ada, post.id, 'the author replies');
    await reply(dee, post.id);
    await reply(bob, post.id, 'Bob again');
    const row = await rowOf(mod, post.id);
    t.same(row.repliers.map((m) => m.name), ['Bob Builder', 'Dee Reader', 'Cy Young'], 'newest first, each once, not the author');
  });

  await t.test('the list and the post page cost no more statements', async (t) => {
    const post = await newPost('Counted');
    for (let i = 0; i < 3; i++) await reply(cy, post.id);
    const { db: counting, statements } = countingDb(db);
    const countingDeps = { ...deps, db: counting };
    await listPosts(countingDeps, bob.viewer, {});
    t.equal(statements.length, 1, 'the list: one statement, read state and faces included');
    statements.length = 0;
    const view = await getPost(countingDeps, bob.viewer, post.id);
    await listReplies(countingDeps, bob.viewer, post.id, { post: view });
    t.equal(statements.length, 2, 'the post page: two statements, the visit recorded in the second');
    t.notOk((await rowOf(bob, post.id)).unread, 'and recorded it was');
  });

  await t.test("the home page's counts: unread posts and new replies, exact, per member and community", async (t) => {
    const news = async (who: { id: number }, community = alpha) => {
      const { rows } = await sql<{ v: unknown }>`select ${forumNewsJson(community, who.id)} as v`.execute(db);
      return forumNewsOf(rows[0]!.v);
    };
    const eve = await w.member(alpha, { firstName: 'Eve', lastName: 'Counter' });
    const fay = await w.member(alpha, { firstName: 'Fay', lastName: 'Poster' });
    const start = await news(eve);
    t.ok(start.unread > 0 && start.newReplies === 0, `Eve starts with every post unread (${start.unread}), no new replies`);
    const a = await newPost('Count me');
    const b = await newPost('Count me too');
    t.same(await news(eve), { unread: start.unread + 2, newReplies: 0 }, 'two new posts: two more unread');
    await read(eve, a.id);
    t.same(await news(eve), { unread: start.unread + 1, newReplies: 0 }, 'one opened: one fewer');
    await Promise.all([reply(fay, a.id, 'one'), reply(fay, a.id, 'two'), reply(bob, a.id, 'three')]);
    await reply(eve, a.id, 'her own');
    await reply(fay, b.id, 'on the unread one');
    t.same(await news(eve), { unread: start.unread + 1, newReplies: 3 }, 'three replies by others at once, all counted; not her own; not those on a post she never opened');
    const [row] = (await newestPosts(db, alpha, { userId: eve.id, formerMember: 'Former member' }, 20)).filter((p) => p.id === a.id);
    t.equal(row!.newReplyCount, 3, 'the home page row says the same "3 new"');
    t.same(row!.repliers.map((m) => m.name).sort(), ['Bob Builder', 'Eve Counter', 'Fay Poster'], 'with the faces of those who replied');
    t.notOk(row!.unread);
    t.ok((await newestPosts(db, alpha, { userId: eve.id, formerMember: 'Former member' }, 20)).find((p) => p.id === b.id)!.unread, 'the other still unread');
    await read(eve, a.id);
    t.same(await news(eve), { unread: start.unread + 1, newReplies: 0 }, 'read again: nothing new');
    const bea = await w.member(beta, { firstName: 'Bea', lastName: 'Other' });
    t.same(await news(bea, beta), { unread: 0, newReplies: 0 }, "another community's member counts none of alpha's");
    t.same(await news(eve, beta), { unread: 0, newReplies: 0 }, "and alpha's member counts none in beta");
  });
});
