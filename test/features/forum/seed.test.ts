import t from 'tap';
import { sql } from 'kysely';
import { setupDatabase } from '#test/helpers/app.ts';

t.test('the demo forum: a living Summit forum, and Harbor with its forum off', async (t) => {
  const db = await setupDatabase(t, { seeded: true });
  const summit = await db.selectFrom('communities').selectAll().where('code', '=', 'summit').executeTakeFirstOrThrow();
  const harbor = await db.selectFrom('communities').selectAll().where('code', '=', 'harbor').executeTakeFirstOrThrow();
  const userId = async (email: string) => (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  const amara = await userId('amara.okafor@summit-demo.example.com');
  const daniel = await userId('daniel.reyes@summit-demo.example.com');

  await t.test('Summit has its forum on and Harbor has it off, with nothing in it', async (t) => {
    t.equal(summit.forum_enabled, true);
    t.equal(harbor.forum_enabled, false);
    for (const table of ['forum_topics', 'forum_posts', 'forum_replies', 'forum_likes'] as const) {
      const { n } = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('community_id', '=', harbor.id).executeTakeFirstOrThrow();
      t.equal(Number(n), 0, `Harbor has no ${table}`);
    }
  });

  await t.test('Summit has topics in order, one of them archived', async (t) => {
    const topics = await db.selectFrom('forum_topics').selectAll().where('community_id', '=', summit.id).orderBy('position').execute();
    t.ok(topics.length >= 6, `${topics.length} topics`);
    t.same(topics.map((tp) => tp.position), [...topics.keys()], 'positions 0, 1, 2, ...');
    t.equal(topics.filter((tp) => tp.archived_at).length, 1, 'one archived');
    t.ok(topics.some((tp) => tp.name === 'Operations'));
  });

  const posts = await db.selectFrom('forum_posts').selectAll().where('community_id', '=', summit.id).execute();

  await t.test('about forty posts by many members over the past four months, each with one or two topics', async (t) => {
    t.ok(posts.length >= 38 && posts.length <= 45, `${posts.length} posts`);
    t.ok(new Set(posts.map((p) => p.author_id)).size >= 30, 'by many different members');
    const ages = posts.map((p) => (Date.now() - new Date(p.created_at).getTime()) / 86_400_000);
    t.ok(Math.max(...ages) > 100 && Math.max(...ages) < 125, 'the oldest about four months ago');
    t.ok(Math.min(...ages) < 3, 'the newest days ago');
    for (const p of posts) t.ok(new Date(p.last_activity_at) >= new Date(p.created_at) && new Date(p.last_activity_at).getTime() <= Date.now(), `${p.title}: last activity after it was written, not in the future`);
    const topicCounts = await db.selectFrom('forum_post_topics').select(['post_id', (eb) => eb.fn.countAll<number>().as('n')]).where('community_id', '=', summit.id).groupBy('post_id').execute();
    t.equal(topicCounts.length, posts.length, 'every post has topics');
    t.ok(topicCounts.every((r) => Number(r.n) >= 1 && Number(r.n) <= 2), 'one or two each');
    t.ok(posts.every((p) => /<p>/.test(p.body_html) && p.body_text.length > 40 && !/</.test(p.body_text)), 'bodies are HTML paragraphs with their plain text');
    t.ok(posts.some((p) => /<ul><li>/.test(p.body_html)) && posts.some((p) => /<a href="https:/.test(p.body_html)) && posts.some((p) => /<strong>/.test(p.body_html)));
  });

  await t.test('two posts wait for approval: one by a member who joined recently, and Amara\u2019s', async (t) => {
    const pending = posts.filter((p) => p.status === 'pending');
    t.equal(pending.length, 2);
    const newcomer = pending.find((p) => p.author_id !== amara)!;
    t.ok(newcomer, 'one by another member');
    const joined = await db.selectFrom('memberships').select('joined_at').where('community_id', '=', summit.id).where('user_id', '=', newcomer.author_id).executeTakeFirstOrThrow();
    t.ok(Date.now() - new Date(joined.joined_at).getTime() < 14 * 86_400_000, 'joined less than two weeks ago');
    t.equal(pending.filter((p) => p.author_id === amara).length, 1, 'one by Amara (her home page lists it)');
    t.ok(pending.every((p) => p.reply_count === 0));
    t.equal(posts.filter((p) => p.status !== 'published' && p.status !== 'pending').length, 0, 'every other post is published');
  });

  await t.test('one post was reported by two different members and is still published', async (t) => {
    const reported = posts.filter((p) => p.report_count > 0);
    t.equal(reported.length, 1);
    t.equal(reported[0]!.report_count, 2);
    t.equal(reported[0]!.status, 'published');
    const reports = await db.selectFrom('forum_reports').selectAll().where('community_id', '=', summit.id).execute();
    t.equal(reports.length, 2);
    t.equal(new Set(reports.map((r) => r.reporter_id)).size, 2, 'by different members');
    t.ok(reports.every((r) => r.target_kind === 'post' && r.target_id === reported[0]!.id && r.reporter_id !== reported[0]!.author_id && r.resolved_at === null));
  });

  await t.test('one post is pinned and one locked, and the admin did it', async (t) => {
    t.equal(posts.filter((p) => p.pinned_at).length, 1);
    t.equal(posts.filter((p) => p.locked_at).length, 1);
    const actions = await db.selectFrom('forum_actions').selectAll().where('community_id', '=', summit.id).execute();
    t.same(new Set(actions.map((a) => a.action)), new Set(['pin', 'lock', 'approve', 'topic_archive']));
    const admin = await userId('admin@example.com');
    t.ok(actions.every((a) => a.actor_id === admin));
  });

  await t.test('reply and like counts equal the rows they count', async (t) => {
    const counts = await sql<{ id: number; reply_count: number; like_count: number; replies: number; likes: number }>`
      select p.id, p.reply_count, p.like_count,
        (select count(*)::int from forum_replies r where r.post_id = p.id and r.status = 'published' and r.deleted_at is null) as replies,
        (select count(*)::int from forum_likes l where l.target_kind = 'post' and l.target_id = p.id) as likes
      from forum_posts p where p.community_id = ${summit.id}`.execute(db);
    for (const c of counts.rows) {
      t.equal(c.reply_count, c.replies, `post ${c.id}: reply_count`);
      t.equal(c.like_count, c.likes, `post ${c.id}: like_count`);
    }
    const wrong = await sql<{ n: number }>`
      select count(*)::int as n from forum_replies r
      where r.community_id = ${summit.id} and r.like_count <> (select count(*) from forum_likes l where l.target_kind = 'reply' and l.target_id = r.id)`.execute(db);
    t.equal(wrong.rows[0]!.n, 0, 'every reply like_count too');
    const replies = counts.rows.reduce((s, c) => s + c.replies, 0);
    const likes = counts.rows.reduce((s, c) => s + c.likes, 0);
    t.ok(replies > 150, `${replies} replies`);
    t.ok(likes > 300, `${likes} post likes`);
    t.ok(Math.max(...counts.rows.map((c) => c.replies)) >= 25, 'one thread long enough to page');
    t.ok(counts.rows.every((c) => c.replies <= 25));
    const reactions = await db.selectFrom('forum_reactions').select(['user_id', 'reaction']).where('community_id', '=', summit.id).execute();
    t.ok(reactions.length > 50 && new Set(reactions.map((r) => r.user_id)).size > 20, `${reactions.length} reactions from many members`);
    t.ok(new Set(reactions.map((r) => r.reaction)).size >= 4, 'of every kind');
    const likers = await db.selectFrom('forum_likes').select('user_id').distinct().where('community_id', '=', summit.id).execute();
    t.ok(likers.length > 30, `${likers.length} members like things`);
  });

  await t.test('nobody likes their own post or reply, and every author follows their post', async (t) => {
    const own = await sql<{ n: number }>`
      select count(*)::int as n from forum_likes l
      left join forum_posts p on l.target_kind = 'post' and p.id = l.target_id
      left join forum_replies r on l.target_kind = 'reply' and r.id = l.target_id
      where l.community_id = ${summit.id} and l.user_id = coalesce(p.author_id, r.author_id)`.execute(db);
    t.equal(own.rows[0]!.n, 0);
    const follows = await db.selectFrom('forum_follows').select(['post_id', 'user_id']).where('community_id', '=', summit.id).execute();
    const followed = new Set(follows.map((f) => `${f.post_id}:${f.user_id}`));
    t.ok(posts.every((p) => followed.has(`${p.id}:${p.author_id}`)));
    t.ok(follows.filter((f) => f.user_id === amara && !posts.some((p) => p.id === f.post_id && p.author_id === amara)).length >= 2, 'Amara follows others\u2019 posts');
  });

  await t.test('Amara has a post of her own and a reply mentions her with a link to her profile', async (t) => {
    t.ok(posts.some((p) => p.author_id === amara && p.status === 'published'));
    const mentions = await db.selectFrom('forum_replies').select(['body_html', 'body_text']).where('community_id', '=', summit.id).where('body_html', 'like', `%href="/profile/${amara}"%`).execute();
    t.equal(mentions.length, 1);
    t.match(mentions[0]!.body_html, `<a href="/profile/${amara}">@amara.okafor</a>`);
    t.match(mentions[0]!.body_text, '@amara.okafor');
  });

  await t.test('Daniel is the moderator', async (t) => {
    const m = await db.selectFrom('memberships').select('is_moderator').where('community_id', '=', summit.id).where('user_id', '=', daniel).executeTakeFirstOrThrow();
    t.equal(m.is_moderator, true);
  });
});
