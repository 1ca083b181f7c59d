import t from 'tap';
import { sql } from 'kysely';
import { createPost, listPosts, PINNED_MAX } from '#src/features/forum/posts.ts';
import { getPost } from '#src/features/forum/posts.ts';
import { createReply, listReplies } from '#src/features/forum/replies.ts';
import { listTopics } from '#src/features/forum/topics.ts';
import { countingDb, forumWorld, rejects } from '#test/helpers/forum-core.ts';

t.test('the forum list and its search', async (t) => {
  const w = await forumWorld(t);
  const { alpha, beta, db, clock } = w;
  const deps = w.depsFor(alpha);
  const ada = await w.member(alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const bob = await w.member(alpha, { firstName: 'Bob', lastName: 'Builder' });
  const general = await w.topic(alpha, 'General', 1);
  const hiring = await w.topic(alpha, 'Hiring', 0);
  await w.topic(alpha, 'Archived', 2, true);
  await w.topic(beta, 'Beta talk');

  // 45 posts; every third shares its activity time with the one before, so ties are broken by id.
  const ids: number[] = [];
  for (let i = 1; i <= 45; i++) {
    if (i % 3 !== 0) clock.advance(60_000);
    const topicIds = i % 5 === 0 ? [hiring] : [general];
    const body = i === 7 ? '<p>We need refrigerated trucks for the harvest.</p>' : `<p>Post number ${i} about logistics.</p>`;
    ids.push((await createPost(deps, i % 2 ? ada.viewer : bob.viewer, { title: `Post ${i}`, body, topicIds })).id);
  }

  await t.test('topics come in their order; archived ones only when asked', async (t) => {
    t.same((await listTopics(deps)).map((x) => x.name), ['Hiring', 'General']);
    t.same((await listTopics(deps, { includeArchived: true })).map((x) => x.name), ['Hiring', 'General', 'Archived']);
  });

  await t.test('keyset pages walk the whole list newest activity first, none twice, none lost', async (t) => {
    const seen: number[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page = await listPosts(deps, bob.viewer, { after, first: 20 });
      seen.push(...page.posts.map((p) => p.id));
      if (pages > 0) t.same(page.pinned, [], 'pinned posts only on the first page');
      after = page.next;
      pages++;
    } while (after && pages < 10);
    t.equal(pages, 3);
    t.equal(new Set(seen).size, 45, 'no duplicates');
    t.same(seen, [...ids].reverse(), 'newest activity first, ties by id');
  });

  await t.test('a reply moves its post to the top; a pinned post stands apart on the first page only', async (t) => {
    clock.advance(60_000);
    await createReply(deps, bob.viewer, ids[0]!, { body: '<p>bump</p>' });
    let page = await listPosts(deps, bob.viewer, {});
    t.equal(page.posts[0]?.id, ids[0], 'the replied-to post leads');
    t.equal(page.posts[0]?.replyCount, 1);
    t.equal(page.posts[0]?.author.name, 'Ada Lovelace', 'with its author snapshot');
    t.same(page.posts[0]?.topics.map((x) => x.name), ['General'], 'and its topics');
    await db.updateTable('forum_posts').set({ pinned_at: clock.now() }).where('id', '=', ids[10]!).execute();
    page = await listPosts(deps, bob.viewer, {});
    t.same(page.pinned.map((p) => p.id), [ids[10]], 'pinned apart');
    t.ok(page.pinned[0]?.pinned);
    t.notOk(page.posts.some((p) => p.id === ids[10]), 'and not again below');
    const filtered = await listPosts(deps, bob.viewer, { topicId: general, first: 100 });
    t.same(filtered.pinned, [], 'a filtered list has no pinned block');
    t.ok(filtered.posts.some((p) => p.id === ids[10]), 'the pinned post is in its place there');
  });

  await t.test('the topic filter shows only that topic’s posts', async (t) => {
    const page = await listPosts(deps, bob.viewer, { topicId: hiring, first: 100 });
    t.equal(page.posts.length, 9);
    t.ok(page.posts.every((p) => p.topics.some((x) => x.id === hiring)));
    t.same((await listPosts(deps, bob.viewer, { topicId: 999_999 })).posts, [], 'an unknown topic lists nothing');
  });

  await t.test('full-text search finds a post by a word of its message, in keyset pages', async (t) => {
    const found = await listPosts(deps, bob.viewer, { q: 'refrigerated' });
    t.same(found.posts.map((p) => p.title), ['Post 7']);
    t.match(found.posts[0]?.excerpt, 'refrigerated trucks');
    t.same((await listPosts(deps, bob.viewer, { q: 'truck' })).posts.map((p) => p.title), ['Post 7'], 'stemmed: truck finds trucks');
    t.same((await listPosts(deps, bob.viewer, { q: 'zeppelin' })).posts, [], 'no match');
    t.same((await listPosts(deps, bob.viewer, { q: '"unbalanced & | !' })).posts, [], 'web search syntax never fails');
    const seen: number[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page = await listPosts(deps, bob.viewer, { q: 'logistics', after, first: 10 });
      seen.push(...page.posts.map((p) => p.id));
      after = page.next;
      pages++;
    } while (after && pages < 10);
    t.equal(seen.length, 44, 'every post that says logistics');
    t.equal(new Set(seen).size, 44, 'none twice across pages');
    await rejects(t, listPosts(deps, bob.viewer, { q: 'a\u0000b' }), 150, 'a NUL byte in the search is a 400');
    await rejects(t, listPosts(deps, bob.viewer, { after: '%%%' }), 'BadRequest.Validation', 'a forged cursor is a 400');
  });

  await t.test('pages keep microseconds apart: posts active within one millisecond are neither skipped nor repeated', async (t) => {
    const micro = await w.topic(alpha, 'Micro', 9);
    const made: number[] = [];
    for (let i = 0; i < 5; i++) made.push((await createPost(deps, ada.viewer, { title: `Micro ${i}`, body: '<p>tiny</p>', topicIds: [micro] })).id);
    const times = ['.123456', '.123400', '.123300', '.123300', '.123001'];
    for (const [i, id] of made.entries()) {
      await db.updateTable('forum_posts').set({ last_activity_at: sql`${`2026-12-01 00:00:00${times[i]}+00`}::timestamptz` }).where('id', '=', id).execute();
    }
    const seen: number[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const page = await listPosts(deps, bob.viewer, { topicId: micro, after, first: 1 });
      seen.push(...page.posts.map((p) => p.id));
      after = page.next;
      if (!after) break;
    }
    t.same(seen, [made[0], made[1], made[3], made[2], made[4]], 'every post once, ties by id');
    const feb31 = Buffer.from(JSON.stringify(['2026-02-31T00:00:00.000000Z', 5])).toString('base64url');
    await rejects(t, listPosts(deps, bob.viewer, { after: feb31 }), 'BadRequest.Validation', 'an impossible date in a cursor is a 400');
    for (const at of ['0000-01-01T00:00:00.000000Z', '1969-12-31T23:59:59.999999Z']) {
      const old = Buffer.from(JSON.stringify([at, 5])).toString('base64url');
      await rejects(t, listPosts(deps, bob.viewer, { after: old }), 'BadRequest.Validation', `a cursor dated ${at.slice(0, 4)} is a 400`);
    }
  });

  await t.test('a page costs at most five SQL statements, whatever its length', async (t) => {
    const { db: counting, statements } = countingDb(db);
    await listPosts({ ...deps, db: counting }, bob.viewer, { first: 50 });
    t.equal(statements.length, 1, 'the first page: one statement (pinned posts, the page, their authors and topics)');
    statements.length = 0;
    await listPosts({ ...deps, db: counting }, bob.viewer, { q: 'logistics', topicId: general, first: 50 });
    t.equal(statements.length, 1, 'a search page: one statement');
  });

  await t.test('eleven pinned posts all stand apart; pinned beyond the cap stay in the list; none is lost', async (t) => {
    const walk = async () => {
      const seen: number[] = [];
      let after: string | null = null;
      let pinned: number[] = [];
      for (let pages = 0; pages < 50; pages++) {
        const page = await listPosts(deps, bob.viewer, { after, first: 20 });
        if (pages === 0) pinned = page.pinned.map((p) => p.id);
        seen.push(...page.posts.map((p) => p.id));
        after = page.next;
        if (!after) break;
      }
      return { pinned, seen };
    };
    const all = (await db.selectFrom('forum_posts').select('id').where('community_id', '=', alpha.id).where('status', '=', 'published').where('deleted_at', 'is', null).execute()).map((r) => r.id);
    await db.updateTable('forum_posts').set({ pinned_at: null }).where('community_id', '=', alpha.id).execute();
    const eleven = all.slice(0, 11);
    for (const [i, id] of eleven.entries()) await db.updateTable('forum_posts').set({ pinned_at: new Date(clock.now().getTime() - i * 1000) }).where('id', '=', id).execute();
    let { pinned, seen } = await walk();
    t.same([...pinned].sort((a, b) => a - b), [...eleven].sort((a, b) => a - b), 'all eleven pinned posts above the list');
    t.notOk(seen.some((id) => eleven.includes(id)), 'and not again below');
    t.same([...pinned, ...seen].sort((a, b) => a - b), [...all].sort((a, b) => a - b), 'every post once');

    while (all.length <= PINNED_MAX) all.push((await createPost(deps, ada.viewer, { title: `Pinned extra ${all.length}`, body: '<p>extra</p>', topicIds: [general] })).id);
    await db.updateTable('forum_posts').set({ pinned_at: clock.now() }).where('community_id', '=', alpha.id).execute();
    ({ pinned, seen } = await walk());
    t.equal(pinned.length, PINNED_MAX, `at most ${PINNED_MAX} apart`);
    t.same([...pinned, ...seen].sort((a, b) => a - b), [...all].sort((a, b) => a - b), 'the rest are in the list: every post once');
    await db.updateTable('forum_posts').set({ pinned_at: null }).where('community_id', '=', alpha.id).execute();
  });

  await t.test('a post and a reply whose author’s membership row is gone still show, by a “Former member”', async (t) => {
    const gone = await w.member(alpha, { firstName: 'Gina', lastName: 'Gone' });
    clock.advance(60_000);
    const post = await createPost(deps, gone.viewer, { title: 'Left behind', body: '<p>Still useful.</p>', topicIds: [general] });
    const reply = await createReply(deps, gone.viewer, post.id, { body: '<p>And a reply.</p>' });
    await db.deleteFrom('memberships').where('user_id', '=', gone.id).where('community_id', '=', alpha.id).execute();
    const { db: counting, statements } = countingDb(db);
    const countingDeps = { ...deps, db: counting };
    const listed = (await listPosts(countingDeps, bob.viewer, {})).posts.find((p) => p.id === post.id);
    t.equal(statements.length, 1, 'the list: still one statement');
    t.ok(listed, 'still listed');
    t.equal(listed?.author.name, 'Former member', 'a neutral name');
    t.same([listed?.author.companyName, listed?.author.avatar, listed?.author.isActive], [null, null, false], 'no company, no face, not active');
    const searched = (await listPosts(deps, bob.viewer, { q: 'Left behind' })).posts.map((p) => p.id);
    t.ok(searched.includes(post.id), 'found by search');
    statements.length = 0;
    const view = await getPost(countingDeps, bob.viewer, post.id);
    t.equal(view.author.name, 'Former member', 'the post page too');
    const replies = await listReplies(countingDeps, bob.viewer, post.id, { post: view });
    t.same(replies.replies.map((r) => [r.id, r.author.name]), [[reply.id, 'Former member']], 'and the reply');
    t.ok(statements.length <= 5, `${statements.length} statements for the post page`);
    t.equal((await listPosts(deps, bob.viewer, {})).posts.find((p) => p.id === ids[44])?.author.name, 'Ada Lovelace', 'a member is still named');
  });
});
