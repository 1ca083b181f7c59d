import t from 'tap';
import { sql } from 'kysely';
import { createPost } from '#src/features/forum/posts.ts';
import { createReply } from '#src/features/forum/replies.ts';
import type { ForumDeps } from '#src/features/forum/deps.ts';
import { REPLY_MAX, REPORT_DESCRIPTION_MAX } from '#src/features/forum/rules.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn, type TestUser } from '#test/helpers/factories.ts';

type Jar = { cookie: string; token: string };

const html = { accept: 'text/html' };

t.test('the forum pages, with JavaScript off', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha', forum_enabled: true });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'], forum_enabled: false });
  const { app } = await startApp(t, db, { clock });
  const deps: ForumDeps = { db, clock, community: alpha, t: app.t, notifier: app.notifications, publicUrl: `${app.config.publicUrl}${app.config.basePath}`, jobs: app.jobs };

  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace', companyName: 'Analytical Engines' });
  const bob = await createMember(db, alpha, { firstName: 'Bob', lastName: 'Builder', companyName: 'Builder & Sons' });
  const mo = await createMember(db, alpha, { firstName: 'Mo', lastName: 'Derator' });
  const newbie = await createMember(db, alpha, { firstName: 'Nell', lastName: 'Newcomer' });
  const bea = await createMember(db, beta, { firstName: 'Bea', lastName: 'Beta' });
  // Everyone joined long ago (their posts are published at once), except Nell, who joined yesterday.
  await db.updateTable('memberships').set({ joined_at: new Date('2026-01-05T00:00:00Z') }).execute();
  await db.updateTable('memberships').set({ joined_at: new Date('2026-11-20T00:00:00Z') }).where('user_id', '=', newbie.id).execute();
  await db.updateTable('memberships').set({ is_moderator: true }).where('user_id', '=', mo.id).execute();
  const topics = await db
    .insertInto('forum_topics')
    .values(['Hiring', 'Fundraising', 'Operations', 'Marketing'].map((name, position) => ({ community_id: alpha.id, name, position })))
    .returning(['id', 'name'])
    .execute();
  const topicId = (name: string) => topics.find((x) => x.name === name)!.id;

  const jars = new Map<number, Jar>();
  const jarOf = async (user: TestUser, community = alpha): Promise<Jar> => {
    const known = jars.get(user.id);
    if (known) return known;
    const jar = await csrfFor(app, (await signIn(app, user, community)).cookie, '/');
    jars.set(user.id, jar);
    return jar;
  };
  const get = async (user: TestUser, url: string, extra: Record<string, string> = {}) => app.inject({ url: url.replace(/#.*$/, ''), headers: { cookie: (await jarOf(user)).cookie, ...html, ...extra } });
  const post = async (user: TestUser, url: string, fields: Record<string, string | string[]>, extra: Record<string, string> = {}) => {
    const jar = await jarOf(user);
    const form = new URLSearchParams({ _csrf: jar.token });
    for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
    return app.inject({ method: 'POST', url, headers: { cookie: jar.cookie, 'content-type': 'application/x-www-form-urlencoded', ...html, ...extra }, payload: form.toString() });
  };
  const idFrom = (location: unknown) => Number(/\/forum\/post\/(\d+)/.exec(String(location))?.[1]);
  const textOf = (body: string) => body.replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/\s+/g, ' ');

  await t.test('where the community has no forum, every forum page is a 404', async (t) => {
    const cookie = (await signIn(app, bea, beta)).cookie;
    for (const url of ['/forum', '/forum/new', '/forum/post/1', '/forum/moderation', '/forum/report/post/1']) {
      const res = await app.inject({ url, headers: { host: 'beta.test', cookie, ...html } });
      t.equal(res.statusCode, 404, `${url} is not found`);
    }
  });

  await t.test('a signed-out visitor is not shown the forum', async (t) => {
    const res = await app.inject({ url: '/forum', headers: html });
    t.ok([302, 303, 401].includes(res.statusCode), `refused or sent to sign in (${res.statusCode})`);
    t.notMatch(res.body, 'New post');
  });

  let firstPostId = 0;
  await t.test('a member writes a post: the messages sit next to the fields and nothing typed is lost', async (t) => {
    const page = await get(ada, '/forum/new');
    t.equal(page.statusCode, 200);
    t.match(page.body, 'Start a conversation');
    t.match(page.body, 'data-island="ForumDraft"', 'the draft helper is on the page');

    const empty = await post(ada, '/forum/new', { title: '', body: 'A body without a title', topicIds: [String(topicId('Hiring'))] });
    t.equal(empty.statusCode, 400);
    t.match(empty.body, /<p class="field-error" id="post-title-error">Please give your post a title\.<\/p>/, 'the title message is beside the title');
    t.match(empty.body, 'A body without a title', 'the message is kept');
    t.match(empty.body, new RegExp(`id="topic-${topicId('Hiring')}"[^>]*checked`), 'the topic stays chosen');

    const four = await post(ada, '/forum/new', { title: 'Too many topics', body: 'Hello', topicIds: topics.map((x) => String(x.id)) });
    t.equal(four.statusCode, 400);
    t.match(four.body, /id="topics-error">Only 3 allowed</, "'Only {limit} allowed' beside the topics");
    t.match(four.body, 'value="Too many topics"', 'the title is kept');

    const created = await post(ada, '/forum/new', {
      title: 'Who do you use for payroll?',
      body: 'We are **twelve people** now.\n\nAny advice? See https://example.com/payroll',
      topicIds: [String(topicId('Hiring')), String(topicId('Operations'))],
    });
    t.equal(created.statusCode, 303);
    firstPostId = idFrom(created.headers.location);
    t.ok(firstPostId > 0, 'sent to the new post');
    const shown = await get(ada, String(created.headers.location).replace(/^.*?(\/forum)/, '$1'));
    t.equal(shown.statusCode, 200);
    t.match(shown.body, 'Your post is published.');
    t.match(shown.body, '<h1 id="post-title">Who do you use for payroll?</h1>');
    t.match(shown.body, '<strong>twelve people</strong>', 'bold survives the plain field');
    t.match(shown.body, '<a href="https://example.com/payroll">', 'links are linked');
    t.match(textOf(shown.body), 'Hiring');
    t.match(textOf(shown.body), 'You follow this post.', 'the author follows their post');
  });

  await t.test('hostile input is refused with a 4xx, never a 5xx', async (t) => {
    const nul = await post(ada, '/forum/new', { title: 'Null\u0000byte', body: 'Text', topicIds: [String(topicId('Hiring'))] });
    t.equal(nul.statusCode, 400, 'a NUL byte in the title');
    t.match(nul.body, 'field-error');
    const huge = await post(ada, '/forum/new', { title: 'Huge', body: 'x'.repeat(200_000), topicIds: [String(topicId('Hiring'))] });
    t.ok(huge.statusCode >= 400 && huge.statusCode < 500, `a huge message (${huge.statusCode})`);
    const badTopic = await post(ada, '/forum/new', { title: 'Bad topic', body: 'Text', topicIds: ['abc'] });
    t.equal(badTopic.statusCode, 400, 'a topic that is not a number');
    t.equal((await get(ada, '/forum?q=%00')).statusCode, 400, 'a NUL byte in the search');
    const badCursor = await get(ada, '/forum?after=!!!');
    t.ok(badCursor.statusCode < 500, 'a malformed cursor is ignored or refused');
    t.equal((await get(ada, `/forum/post/${firstPostId}?after=bm9wZQ`)).statusCode, 400, 'a cursor that decodes to nonsense');
    t.equal((await get(ada, '/forum/post/abc')).statusCode, 404, 'a post id that is not a number');
    t.equal((await get(ada, '/forum/post/99999999999')).statusCode, 404, 'a post id out of range');
    const reply = await post(ada, `/forum/post/${firstPostId}/reply`, { body: 'Hi\u0007there' });
    t.equal(reply.statusCode, 400, 'a control character in a reply');
    const like = await post(ada, `/forum/post/${firstPostId}/like`, { on: 'maybe', post: String(firstPostId) });
    t.equal(like.statusCode, 400, 'a like that is neither on nor off');
    const noCsrf = await app.inject({
      method: 'POST',
      url: `/forum/post/${firstPostId}/like`,
      headers: { cookie: (await jarOf(ada)).cookie, 'content-type': 'application/x-www-form-urlencoded', ...html },
      payload: 'on=1',
    });
    t.equal(noCsrf.statusCode, 403, 'a form without its CSRF token');
  });

  await t.test('the list: rows with author, company, topics and counts; search, topic filter, pinned first, older posts', async (t) => {
    const others = [];
    for (let i = 1; i <= 21; i++) {
      clock.advance(60_000);
      others.push(await createPost({ ...deps }, { userId: bob.id, isStaff: false }, { title: `Quarterly update number ${i}`, body: `<p>Numbers for quarter ${i}</p>`, topicIds: [topicId('Fundraising')] }));
    }
    const list = await get(bob, '/forum');
    t.equal(list.statusCode, 200);
    const text = textOf(list.body);
    t.match(text, 'Quarterly update number 21', 'the newest activity first');
    t.match(text, 'Bob Builder');
    t.match(text, 'Builder & Sons', 'the company');
    t.match(text, '0 replies · 0 likes');
    t.match(text, 'New post');
    t.notMatch(text, 'Moderation', 'no moderation link for a member');
    const older = /href="(\/forum\?after=[^"]+)"/.exec(list.body)?.[1];
    t.ok(older, 'an "Older posts" link');
    const page2 = await get(bob, older!.replace(/&amp;/g, '&'));
    t.match(textOf(page2.body), 'Who do you use for payroll?', 'the oldest post is on the second page');

    const search = await get(bob, '/forum?q=payroll');
    t.match(textOf(search.body), 'Posts matching “payroll”');
    t.match(textOf(search.body), 'Who do you use for payroll?');
    t.notMatch(textOf(search.body), 'Quarterly update');
    const none = await get(bob, '/forum?q=zebra+crossing');
    t.match(textOf(none.body), 'No posts match.');

    const hiring = await get(bob, `/forum?topic=${topicId('Hiring')}`);
    t.match(textOf(hiring.body), 'Posts in Hiring');
    t.match(textOf(hiring.body), 'Who do you use for payroll?');
    t.notMatch(textOf(hiring.body), 'Quarterly update');

    await db.updateTable('forum_posts').set({ pinned_at: new Date('2026-11-01T00:00:00Z') }).where('id', '=', firstPostId).execute();
    const pinned = await get(bob, '/forum');
    const pinnedText = textOf(pinned.body);
    t.ok(pinnedText.indexOf('Who do you use for payroll?') < pinnedText.indexOf('Quarterly update number 21'), 'the pinned post comes first');
    t.match(pinnedText, 'Pinned');
    await db.updateTable('forum_posts').set({ pinned_at: null }).where('id', '=', firstPostId).execute();
  });

  await t.test("'Post not found' for a missing, removed or other community's post", async (t) => {
    const missing = await get(bob, '/forum/post/987654');
    t.equal(missing.statusCode, 404);
    t.match(missing.body, '<h1>Post not found</h1>');
    const betaPost = await db
      .insertInto('forum_posts')
      .values({ community_id: beta.id, author_id: bea.id, title: 'Beta secret', body_html: '<p>x</p>', body_text: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const other = await get(bob, `/forum/post/${betaPost.id}`);
    t.equal(other.statusCode, 404);
    t.match(other.body, 'Post not found');
    t.notMatch(other.body, 'Beta secret');
    const gone = await createPost(deps, { userId: bob.id, isStaff: false }, { title: 'Soon removed', body: '<p>x</p>', topicIds: [topicId('Hiring')] });
    await db.updateTable('forum_posts').set({ status: 'removed' }).where('id', '=', gone.id).execute();
    const removed = await get(ada, `/forum/post/${gone.id}`);
    t.equal(removed.statusCode, 404);
    t.match(removed.body, 'Post not found');
  });

  await t.test('replying: empty refused, too long told by how much with the text kept; the author is notified', async (t) => {
    const url = `/forum/post/${firstPostId}/reply`;
    const empty = await post(bob, url, { body: '   ' });
    t.equal(empty.statusCode, 400);
    t.match(empty.body, /id="reply-body-error">Your reply cannot be empty\.</);
    const long = 'y'.repeat(REPLY_MAX + 1);
    const tooLong = await post(bob, url, { body: long });
    t.equal(tooLong.statusCode, 400);
    t.match(tooLong.body, /id="reply-body-error">Your reply is 1 character\(s\) too long</);
    t.match(tooLong.body, long, 'the reply is kept');

    const before = await db.selectFrom('notifications').select('id').where('user_id', '=', ada.id).where('kind', '=', 'forum').execute();
    const ok = await post(bob, url, { body: 'We use Gusto and like it.' });
    t.equal(ok.statusCode, 303);
    t.match(String(ok.headers.location), /#reply-\d+$/, 'back to the reply');
    const page = await get(bob, `/forum/post/${firstPostId}`);
    t.match(page.body, 'We use Gusto and like it.');
    t.match(textOf(page.body), '1 reply');
    await app.jobs.drain(); // the reply's notices are a queued job
    const after = await db.selectFrom('notifications').select('id').where('user_id', '=', ada.id).where('kind', '=', 'forum').execute();
    t.equal(after.length, before.length + 1, 'the follower (the author) is notified');
  });

  await t.test('a long thread pages its replies, and a new reply lands on the page that shows it', async (t) => {
    const long = await createPost(deps, { userId: ada.id, isStaff: false }, { title: 'A long thread', body: '<p>Go</p>', topicIds: [topicId('Operations')] });
    for (let i = 1; i <= 21; i++) await createReply(deps, { userId: bob.id, isStaff: false }, long.id, { body: `<p>Reply number ${i} here</p>` });
    const first = await get(ada, `/forum/post/${long.id}`);
    t.match(textOf(first.body), '21 replies');
    t.match(first.body, 'Reply number 20 here');
    t.notMatch(first.body, 'Reply number 21 here', 'twenty on the first page');
    const later = /href="(\/forum\/post\/\d+\?after=[^"]+)">Later replies</.exec(first.body)?.[1];
    t.ok(later, 'a "Later replies" link');
    const second = await get(ada, later!.replace(/&amp;/g, '&'));
    t.match(second.body, 'Reply number 21 here');
    t.match(second.body, '>First replies<', 'and a way back to the first');
    const replied = await post(ada, `/forum/post/${long.id}/reply`, { body: 'The twenty-second reply.' });
    t.equal(replied.statusCode, 303);
    const landing = await get(ada, String(replied.headers.location));
    t.match(landing.body, 'The twenty-second reply.', 'the new reply is on the page the redirect opens');
    t.match(landing.body, 'Your reply is posted.');

    // Nineteen published replies, then a new member's replies that wait: they see their own, so the
    // twenty-first reply they see is past the first page although only nineteen are published.
    const waiting = await createPost(deps, { userId: ada.id, isStaff: false }, { title: 'A thread with waiting replies', body: '<p>Go</p>', topicIds: [topicId('Operations')] });
    for (let i = 1; i <= 19; i++) await createReply(deps, { userId: bob.id, isStaff: false }, waiting.id, { body: `<p>Published reply ${i}</p>` });
    for (const text of ['My first waiting reply.', 'My second waiting reply.']) {
      const sent = await post(newbie, `/forum/post/${waiting.id}/reply`, { body: text });
      t.equal(sent.statusCode, 303);
      const shown = await get(newbie, String(sent.headers.location));
      t.match(shown.body, text, `"${text}" is on the page the redirect opens`);
      t.match(shown.body, 'Your reply waits for a moderator’s approval.');
    }
    // Out of the moderators' queue, which later tests count.
    await db.deleteFrom('forum_replies').where('post_id', '=', waiting.id).where('author_id', '=', newbie.id).execute();
  });

  await t.test('liking without JavaScript returns to the post and the count changes; with htmx the fragment alone', async (t) => {
    const like = await post(bob, `/forum/post/${firstPostId}/like`, { on: '1', post: String(firstPostId) });
    t.equal(like.statusCode, 303);
    t.match(String(like.headers.location), new RegExp(`/forum/post/${firstPostId}#post$`));
    const page = await get(bob, `/forum/post/${firstPostId}`);
    t.match(page.body, /id="like-post-\d+-button" aria-pressed="true"/);
    t.match(textOf(page.body), '1 like');

    const jar = await jarOf(ada);
    const htmx = await app.inject({
      method: 'POST',
      url: `/forum/post/${firstPostId}/like`,
      headers: { cookie: jar.cookie, 'x-csrf-token': jar.token, 'hx-request': 'true', 'content-type': 'application/x-www-form-urlencoded', ...html },
      payload: new URLSearchParams({ on: '1', post: String(firstPostId) }).toString(),
    });
    t.equal(htmx.statusCode, 200);
    t.notMatch(htmx.body, '<html', 'a fragment, not a page');
    t.match(htmx.body, /^<span[^>]+class="forum-like"/);
    t.match(textOf(htmx.body), '2 likes');
    t.match(htmx.body, /<span class="forum-count">2 likes<\/span>/, 'the new count');
    t.match(htmx.body, /<p id="forum-live" class="visually-hidden" role="status" hx-swap-oob="innerHTML">Liked. 2 likes<\/p>/, 'announced in the page\'s one live region, filled out of band');
    t.match((await get(ada, `/forum/post/${firstPostId}`)).body, /<p id="forum-live" class="visually-hidden" role="status"><\/p>/, 'the post page has that region, empty');

    // The database refuses Mo's like (a trigger stands in for a deadlock or a dropped connection).
    await sql`create function refuse_like() returns trigger language plpgsql as $$ begin raise exception 'like refused'; end $$`.execute(db);
    await sql`create trigger refuse_like before insert on forum_likes for each row when (new.user_id = ${sql.lit(mo.id)}) execute function refuse_like()`.execute(db);
    const moJar = await jarOf(mo);
    const failed = await app.inject({
      method: 'POST',
      url: `/forum/post/${firstPostId}/like`,
      headers: { cookie: moJar.cookie, 'x-csrf-token': moJar.token, 'hx-request': 'true', 'content-type': 'application/x-www-form-urlencoded', ...html },
      payload: new URLSearchParams({ on: '1', post: String(firstPostId) }).toString(),
    });
    t.equal(failed.statusCode, 200, 'htmx swaps the answer in');
    t.match(failed.body, /role="alert">Failed to like, please try again shortly</, "the spec's message beside the button");
    t.match(textOf(failed.body), '2 likes', 'the count as it is');
    const failedPlain = await post(mo, `/forum/post/${firstPostId}/like`, { on: '1', post: String(firstPostId) });
    t.equal(failedPlain.statusCode, 409);
    t.match(failedPlain.body, 'Failed to like, please try again shortly');
    await sql`drop trigger refuse_like on forum_likes`.execute(db);

    const unlike = await post(bob, `/forum/post/${firstPostId}/like`, { on: '0', post: String(firstPostId) });
    t.equal(unlike.statusCode, 303);
    t.match(textOf((await get(bob, `/forum/post/${firstPostId}`)).body), '1 like');

    const replyId = (await db.selectFrom('forum_replies').select('id').where('post_id', '=', firstPostId).executeTakeFirstOrThrow()).id;
    const likeReply = await post(ada, `/forum/reply/${replyId}/like`, { on: '1', post: String(firstPostId) });
    t.equal(likeReply.statusCode, 303);
    t.match(String(likeReply.headers.location), `#reply-${replyId}`);

    const react = await post(ada, `/forum/post/${firstPostId}/react`, { on: '1', reaction: 'insightful', post: String(firstPostId) });
    t.equal(react.statusCode, 303);
    const reacted = textOf((await get(ada, `/forum/post/${firstPostId}`)).body);
    t.match(reacted, 'Insightful 1');
    const reactHtmx = await app.inject({
      method: 'POST',
      url: `/forum/post/${firstPostId}/react`,
      headers: { cookie: jar.cookie, 'x-csrf-token': jar.token, 'hx-request': 'true', 'content-type': 'application/x-www-form-urlencoded', ...html },
      payload: new URLSearchParams({ on: '1', reaction: 'celebrate', post: String(firstPostId) }).toString(),
    });
    t.match(reactHtmx.body, /id="react-post-\d+-celebrate"[^>]*>Celebrate <span class="forum-count">1<\/span>/, 'a reaction count');
    t.match(reactHtmx.body, /hx-swap-oob="innerHTML">Celebrate given. 1 in all.<\/p>/, 'is announced too');
    await post(ada, `/forum/post/${firstPostId}/react`, { on: '0', reaction: 'celebrate', post: String(firstPostId) });
    // Only the reactions given show, with their counts (issue 30); the rest wait one press away.
    t.notMatch(reacted, 'Celebrate 0', 'no reaction of the post shows a zero');
    const menu = (await get(ada, `/forum/post/${firstPostId}`)).body.split(`id="reactions-post-${firstPostId}"`)[1]?.split('</details>')[0] ?? '';
    t.match(menu, new RegExp(`<details class="forum-react-more"><summary class="chip">React</summary>[\\s\\S]*id="react-post-${firstPostId}-celebrate"`), 'every reaction of the set is offered behind React');
    const badReaction = await post(ada, `/forum/post/${firstPostId}/react`, { on: '1', reaction: 'angry', post: String(firstPostId) });
    t.ok(badReaction.statusCode >= 400 && badReaction.statusCode < 500, 'a reaction outside the set is refused');

    // On the page, one form per item: the CSRF field once, each button carrying its own value.
    const shown = (await get(ada, `/forum/post/${firstPostId}`)).body;
    const forms = shown.match(/<form[^>]*class="forum-actions-form"[\s\S]*?<\/form>/g) ?? [];
    t.ok(forms.length >= 2, `one actions form for the post and each reply (${forms.length})`);
    t.same(forms.map((f) => f.match(/name="_csrf"/g)?.length), forms.map(() => 1), 'one CSRF field in each');
    const buttonTag = (id: string) => new RegExp(`<button[^>]*id="${id}"[^>]*>`).exec(shown)?.[0] ?? '';
    const likeButton = buttonTag(`like-post-${firstPostId}-button`);
    t.match(likeButton, 'name="on"', 'the like button carries its toggle');
    t.match(likeButton, /value="[01]"/);
    t.match(likeButton, new RegExp(`formaction="/forum/post/${firstPostId}/like"`, 'i'), 'and posts to the like address without JavaScript');
    const insightful = buttonTag(`react-post-${firstPostId}-insightful`);
    t.match(insightful, 'aria-pressed="true"');
    t.match(insightful, 'name="toggle"');
    t.match(insightful, 'value="insightful:0"', 'a given reaction offers to take it back');
    const off = await post(ada, `/forum/post/${firstPostId}/react`, { toggle: 'insightful:0', post: String(firstPostId) });
    t.equal(off.statusCode, 303, 'a reaction button without JavaScript');
    const taken = (await get(ada, `/forum/post/${firstPostId}`)).body;
    t.notMatch(textOf(taken), 'Insightful 0', 'a reaction taken back shows no zero');
    t.match(taken, new RegExp(`value="insightful:1"[^>]*id="react-post-${firstPostId}-insightful" aria-pressed="false"`), 'and waits behind React again');
    const on = await post(ada, `/forum/post/${firstPostId}/react`, { toggle: 'insightful:1', post: String(firstPostId) });
    t.equal(on.statusCode, 303);
    t.match(textOf((await get(ada, `/forum/post/${firstPostId}`)).body), 'Insightful 1');
    const toggleHtmx = await app.inject({
      method: 'POST',
      url: `/forum/post/${firstPostId}/react`,
      headers: { cookie: jar.cookie, 'x-csrf-token': jar.token, 'hx-request': 'true', 'content-type': 'application/x-www-form-urlencoded', ...html },
      payload: new URLSearchParams({ toggle: 'curious:1', post: String(firstPostId) }).toString(),
    });
    t.match(toggleHtmx.body, /^<div[^>]+class="forum-reactions"/, 'with htmx, the group of reactions alone');
    t.match(toggleHtmx.body, /id="react-post-\d+-curious" aria-pressed="true"[^>]*>Curious <span class="forum-count">1<\/span>/);
    await post(ada, `/forum/post/${firstPostId}/react`, { toggle: 'curious:0', post: String(firstPostId) });

    // A reply shows only the reactions given, with their counts; the rest wait behind its React
    // disclosure: the same buttons in the same form, so it works without JavaScript.
    const replyOf = async (id: number) => new RegExp(`<li class="forum-reply" id="reply-${id}">[\\s\\S]*?</li>`).exec((await get(ada, `/forum/post/${firstPostId}`)).body)?.[0] ?? '';
    await db.deleteFrom('forum_reactions').where('target_kind', '=', 'reply').where('target_id', '=', replyId).execute();
    const quiet = await replyOf(replyId);
    t.notMatch(textOf(quiet), / 0\b/, 'no reaction of a reply shows a zero');
    t.match(quiet, /<details class="forum-react-more"><summary class="chip">React<\/summary>/, 'a way to react');
    t.match(quiet, new RegExp(`<button[^>]*value="support:1"[^>]*id="react-reply-${replyId}-support" aria-pressed="false" name="toggle">Support</button>`), 'its buttons, as on the post');
    const supported = await post(ada, `/forum/reply/${replyId}/react`, { toggle: 'support:1', post: String(firstPostId) });
    t.equal(supported.statusCode, 303, 'reacting to a reply without JavaScript');
    const after = await replyOf(replyId);
    t.match(textOf(after), 'Support 1', 'the reaction given shows with its count');
    t.notMatch(textOf(after), /(Insightful|Celebrate|Curious) 0/, 'the others still show no zeros');
    t.match(after, new RegExp(`id="react-reply-${replyId}-support" aria-pressed="true" name="toggle">Support <span class="forum-count">1</span>`), 'a toggle to take it back');
    t.notMatch(after.split('<details')[1] ?? '', 'Support', 'and no longer behind React');
    for (const toggle of ['insightful:maybe', 'insightful', ':1', 'angry:1']) {
      const bad = await post(ada, `/forum/post/${firstPostId}/react`, { toggle, post: String(firstPostId) });
      t.ok(bad.statusCode >= 400 && bad.statusCode < 500, `a toggle of ${JSON.stringify(toggle)} is refused (${bad.statusCode})`);
    }

    const unfollow = await post(ada, `/forum/post/${firstPostId}/follow`, { on: '0', post: String(firstPostId) });
    t.equal(unfollow.statusCode, 303);
    t.match(textOf((await get(ada, `/forum/post/${firstPostId}`)).body), 'Get a notification when someone replies.');
  });

  await t.test("reporting: a reason is required, the description has a limit; then 'Reported By You'", async (t) => {
    const form = await get(bob, `/forum/report/post/${firstPostId}`);
    t.equal(form.statusCode, 200);
    t.match(form.body, 'Report this post');
    const noReason = await post(bob, `/forum/report/post/${firstPostId}`, { description: 'Looks like an ad' });
    t.equal(noReason.statusCode, 400);
    t.match(noReason.body, /id="report-reason-error">Choose a reason\.</);
    t.match(noReason.body, 'Looks like an ad', 'the description is kept');
    const long = 'z'.repeat(REPORT_DESCRIPTION_MAX + 1);
    const tooLong = await post(bob, `/forum/report/post/${firstPostId}`, { reason: 'spam', description: long });
    t.equal(tooLong.statusCode, 400);
    t.match(tooLong.body, `The description can be at most ${REPORT_DESCRIPTION_MAX} characters.`);
    t.match(tooLong.body, /id="reason-spam"[^>]*checked/, 'the reason stays chosen');
    const ok = await post(bob, `/forum/report/post/${firstPostId}`, { reason: 'spam', description: 'Looks like an ad' });
    t.equal(ok.statusCode, 303);
    const page = await get(bob, String(ok.headers.location));
    t.match(page.body, 'Reported By You');
    t.match(page.body, 'Thank you: the moderators will look at your report.');
    t.notMatch(page.body, `href="/forum/report/post/${firstPostId}"`, 'no second report link');
    const resent = await post(bob, `/forum/report/post/${firstPostId}`, { reason: 'spam', description: 'Looks like an ad' });
    t.equal(resent.statusCode, 303, 'the form sent twice (JavaScript off): back to the post');
    t.match(String(resent.headers.location), /notice=alreadyReported/);
    const resentPage = await get(bob, String(resent.headers.location));
    t.match(textOf(resentPage.body), 'You have already reported this.', 'told it is already reported, not thanked');
    t.notMatch(resentPage.body, 'Thank you: the moderators will look at your report.');
    const again = await get(bob, `/forum/report/post/${firstPostId}`);
    t.equal(again.statusCode, 303, 'a second report is refused: back to the post');
    const told = await get(bob, String(again.headers.location));
    t.match(textOf(told.body), 'You have already reported this.', 'with a notice that says why');
    t.match(told.body, 'Reported By You');
    const own = await get(ada, `/forum/report/post/${firstPostId}`);
    t.equal(own.statusCode, 303, 'one’s own post is not reported: back to it');
  });

  await t.test('moderation: a new member’s post waits; a moderator rejects with a reason or approves it inline and on the moderation page', async (t) => {
    const created = await post(newbie, '/forum/new', { title: 'Hello from a newcomer', body: 'Glad to be here.', topicIds: [String(topicId('Hiring'))] });
    t.equal(created.statusCode, 303);
    const id = idFrom(created.headers.location);
    const mine = await get(newbie, `/forum/post/${id}?notice=createdPending`);
    t.match(textOf(mine.body), 'Your post waits for a moderator’s approval');
    t.match(textOf(mine.body), 'Waiting for approval');
    const hidden = await get(bob, `/forum/post/${id}`);
    t.equal(hidden.statusCode, 404, 'others do not see it yet');
    t.match(hidden.body, 'Post not found');

    t.equal((await get(bob, '/forum/moderation')).statusCode, 403, 'a member has no moderation page');
    const queue = await get(mo, '/forum/moderation');
    t.equal(queue.statusCode, 200);
    t.match(textOf(queue.body), 'Waiting for approval (1)');
    t.match(textOf(queue.body), 'Hello from a newcomer');
    t.match(textOf(queue.body), 'Reported by Bob Builder: Spam or advertising');
    t.match(textOf((await get(mo, '/forum')).body), 'Moderation', 'the list links a moderator to the page');

    const inline = await get(mo, `/forum/post/${id}`);
    t.match(inline.body, `action="/forum/moderate/post/${id}/approve"`, 'approve inline');
    const noReason = await post(mo, `/forum/moderate/post/${id}/reject`, { reason: '', back: String(id) });
    t.equal(noReason.statusCode, 400);
    t.match(noReason.body, `id="reject-post-${id}-error"`, 'the message beside the reason');
    const approved = await post(mo, `/forum/moderate/post/${id}/approve`, { back: 'moderation' });
    t.equal(approved.statusCode, 303);
    t.equal(approved.headers.location, '/forum/moderation?notice=approved');
    t.equal((await get(bob, `/forum/post/${id}`)).statusCode, 200, 'published: everyone sees it');
    const again = await post(mo, `/forum/moderate/post/${id}/approve`, { back: String(id) });
    t.equal(again.statusCode, 409, 'approving twice says someone already did');
    t.match(again.body, 'Someone has already moderated this.');

    // Nell's reply waits too: the moderator approves it inline on the post and lands back on it.
    const nellReply = await post(newbie, `/forum/post/${id}/reply`, { body: 'A newcomer reply.' });
    t.equal(nellReply.statusCode, 303);
    const nellReplyId = Number(/#reply-(\d+)$/.exec(String(nellReply.headers.location))?.[1]);
    t.notMatch((await get(bob, `/forum/post/${id}`)).body, 'A newcomer reply.', 'others do not see the waiting reply');
    const withReply = await get(mo, `/forum/post/${id}`);
    t.match(withReply.body, `action="/forum/moderate/reply/${nellReplyId}/approve"`);
    const replyApproved = await post(mo, `/forum/moderate/reply/${nellReplyId}/approve`, { back: String(id) });
    t.equal(replyApproved.statusCode, 303);
    t.equal(replyApproved.headers.location, `/forum/post/${id}?notice=approved#reply-${nellReplyId}`);
    t.match((await get(bob, `/forum/post/${id}`)).body, 'A newcomer reply.', 'published');

    // A locked post takes no reply: the page says so instead of offering the form.
    await db.updateTable('forum_posts').set({ locked_at: new Date('2026-11-21T00:00:00Z') }).where('id', '=', id).execute();
    const locked = await get(bob, `/forum/post/${id}`);
    t.match(textOf(locked.body), 'This post is locked: it takes no new replies.');
    t.notMatch(locked.body, 'id="reply-body"', 'no reply form');
    const lockedReply = await post(bob, `/forum/post/${id}/reply`, { body: 'Too late' });
    t.equal(lockedReply.statusCode, 409);
    t.match(lockedReply.body, 'This post is locked: it takes no new replies.');

    const report = await db.selectFrom('forum_reports').select('id').where('target_id', '=', firstPostId).executeTakeFirstOrThrow();
    const card = new RegExp(`<li[^>]*id="report-${report.id}"[\\s\\S]*?</li>`).exec((await get(mo, '/forum/moderation')).body)?.[0] ?? '';
    t.match(textOf(card), /Reported by Bob Builder: Spam or advertising · reported just now/, 'the report card says when it was reported');
    t.equal(card.split('<time').length - 1, 1, 'and shows no other date as if it were the content’s');
    t.match(card, /<time dateTime="[^"]+" data-rel="reported \{when\}">reported just now<\/time>/, 'its template is marked for the script that keeps it current');
    const dismissed = await post(mo, `/forum/reports/${report.id}/dismiss`, {});
    t.equal(dismissed.statusCode, 303);
    t.match(textOf((await get(mo, '/forum/moderation?notice=dismissed')).body), 'No open reports.');
  });

  await t.test('editing and deleting one’s own post and reply', async (t) => {
    const edit = await get(ada, `/forum/post/${firstPostId}/edit`);
    t.equal(edit.statusCode, 200);
    t.match(edit.body, '**twelve people**', 'the stored text comes back as typed');
    const refused = await post(ada, `/forum/post/${firstPostId}/edit`, { title: '', body: 'Changed', topicIds: [String(topicId('Hiring'))] });
    t.equal(refused.statusCode, 400);
    t.match(refused.body, 'Please give your post a title.');
    t.match(refused.body, 'Changed');
    const saved = await post(ada, `/forum/post/${firstPostId}/edit`, { title: 'Who runs your payroll?', body: 'Changed text', topicIds: [String(topicId('Hiring'))] });
    t.equal(saved.statusCode, 303);
    const page = await get(ada, `/forum/post/${firstPostId}`);
    t.match(page.body, 'Who runs your payroll?');
    t.match(textOf(page.body), 'Edited');
    const notMine = await get(bob, `/forum/post/${firstPostId}/edit`);
    t.equal(notMine.statusCode, 403, 'not another member’s post');
    t.match(notMine.body, 'Only its author can change this.');

    const replyId = (await db.selectFrom('forum_replies').select('id').where('post_id', '=', firstPostId).where('author_id', '=', bob.id).executeTakeFirstOrThrow()).id;
    const replyEdit = await get(bob, `/forum/reply/${replyId}/edit`);
    t.match(replyEdit.body, 'We use Gusto and like it.');
    const replySaved = await post(bob, `/forum/reply/${replyId}/edit`, { body: 'We use Gusto; it is fine.' });
    t.equal(replySaved.statusCode, 303);
    const confirm = await get(bob, `/forum/reply/${replyId}/delete`);
    t.match(confirm.body, 'Delete your reply to');
    const deleted = await post(bob, `/forum/reply/${replyId}/delete`, {});
    t.equal(deleted.statusCode, 303);
    const after = await get(ada, `/forum/post/${firstPostId}`);
    t.notMatch(after.body, 'We use Gusto');
    t.match(textOf(after.body), 'No replies yet.', 'the count is right after the delete');

    const confirmPost = await get(ada, `/forum/post/${firstPostId}/delete`);
    t.match(textOf(confirmPost.body), 'Delete your post “Who runs your payroll?”?');
    const gone = await post(ada, `/forum/post/${firstPostId}/delete`, {});
    t.equal(gone.statusCode, 303);
    t.equal(gone.headers.location, '/forum?notice=deleted');
    t.match((await get(ada, `/forum/post/${firstPostId}`)).body, 'Post not found');
  });

  await t.test('a moderator does not delete another’s post or reply: the delete sends them to remove-with-reason (logged, author told, restorable)', async (t) => {
    const target = await createPost(deps, { userId: bob.id, isStaff: false }, { title: 'Bob’s lumber ad', body: '<p>Cheap oak</p>', topicIds: [topicId('Hiring')] });
    const answer = await createReply(deps, { userId: ada.id, isStaff: false }, target.id, { body: '<p>Spam link</p>' });
    const page = await get(mo, `/forum/post/${target.id}`);
    t.match(page.body, `/forum/post/${target.id}/remove`, 'the post page offers Remove');
    t.notMatch(page.body, `/forum/post/${target.id}/delete`, 'not Delete');
    const toRemove = await get(mo, `/forum/post/${target.id}/delete`);
    t.equal(toRemove.statusCode, 303);
    t.equal(toRemove.headers.location, `/forum/post/${target.id}/remove`, 'the delete page sends a moderator to the removal form');
    const refused = await post(mo, `/forum/post/${target.id}/delete`, {});
    t.equal(refused.statusCode, 403, 'a plain delete POST is refused');
    t.match(textOf(refused.body), 'As a moderator, remove it with a reason');
    t.match(refused.body, 'name="reason"', 'with the removal form to fill in');
    const replyRefused = await post(mo, `/forum/reply/${answer.id}/delete`, {});
    t.equal(replyRefused.statusCode, 403, 'the reply delete too');
    t.equal((await db.selectFrom('forum_posts').select(['status', 'deleted_at']).where('id', '=', target.id).executeTakeFirstOrThrow()).deleted_at, null, 'nothing was deleted');
    const form = await get(mo, `/forum/post/${target.id}/remove`);
    t.match(textOf(form.body), 'Remove the post “Bob’s lumber ad” by Bob Builder?');
    const noReason = await post(mo, `/forum/post/${target.id}/remove`, { reason: '' });
    t.equal(noReason.statusCode, 400, 'a reason is required');
    t.match(noReason.body, 'field-error');
    const removed = await post(mo, `/forum/post/${target.id}/remove`, { reason: 'Ads go in the marketplace' });
    t.equal(removed.statusCode, 303);
    t.match(String(removed.headers.location), `/forum/post/${target.id}?notice=removed`);
    const row = await db.selectFrom('forum_posts').select(['status', 'deleted_at']).where('id', '=', target.id).executeTakeFirstOrThrow();
    t.same(row, { status: 'removed', deleted_at: null }, 'removed, not deleted: staff can restore it');
    const logged = await db.selectFrom('forum_actions').select(['action', 'actor_id', 'note']).where('target_kind', '=', 'post').where('target_id', '=', target.id).execute();
    t.same(logged, [{ action: 'remove', actor_id: mo.id, note: 'Ads go in the marketplace' }], 'in the staff’s log');
    const told = await db.selectFrom('notifications').select('message').where('user_id', '=', bob.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    t.match(told.message, 'Ads go in the marketplace', 'the author is told why');
    const notMod = await get(ada, `/forum/post/${target.id}/remove`);
    t.not(notMod.statusCode, 200, 'a member who is not a moderator gets no removal form');
    // Leave the forum as the later tests expect it.
    await db.updateTable('forum_posts').set({ status: 'published', deleted_at: new Date() }).where('id', '=', target.id).execute();
  });
  await t.test('hostile values in every field of every forum form and query never make a 5xx', async (t) => {
    const target = await createPost(deps, { userId: ada.id, isStaff: false }, { title: 'Fuzz target', body: '<p>x</p>', topicIds: [topicId('Hiring')] });
    const reply = await createReply(deps, { userId: ada.id, isStaff: false }, target.id, { body: '<p>y</p>' });
    const names = ['title', 'body', 'topicIds', 'on', 'toggle', 'post', 'after', 'reaction', 'reason', 'description', 'back', 'note', 'q', 'topic', 'notice'];
    const values = ['\u0000', '\ud800', '\u0007bell', 'x'.repeat(120_000), '-1', '99999999999999999999', '../../etc', '<script>alert(1)</script>', '%', ''];
    const posts = [
      '/forum/new',
      `/forum/post/${target.id}/reply`,
      `/forum/post/${target.id}/edit`,
      `/forum/reply/${reply.id}/edit`,
      `/forum/post/${target.id}/like`,
      `/forum/reply/${reply.id}/like`,
      `/forum/post/${target.id}/react`,
      `/forum/reply/${reply.id}/react`,
      `/forum/post/${target.id}/follow`,
      `/forum/report/post/${target.id}`,
      `/forum/report/reply/${reply.id}`,
      `/forum/moderate/post/${target.id}/reject`,
      `/forum/moderate/reply/${reply.id}/approve`,
      '/forum/reports/1/dismiss',
    ];
    const fives: string[] = [];
    for (const url of posts) {
      for (const value of values) {
        const fields = Object.fromEntries(names.map((n) => [n, value]));
        const user = url.includes('/moderate/') || url.includes('/reports/') ? mo : bob;
        const res = await post(user, url, fields);
        if (res.statusCode >= 500) fives.push(`POST ${url} with ${JSON.stringify(value.slice(0, 20))}: ${res.statusCode}`);
        const htmx = await post(user, url, fields, { 'hx-request': 'true' });
        if (htmx.statusCode >= 500) fives.push(`htmx POST ${url} with ${JSON.stringify(value.slice(0, 20))}: ${htmx.statusCode}`);
      }
      const repeated = await post(bob, url, Object.fromEntries(names.map((n) => [n, ['1', '2']])));
      if (repeated.statusCode >= 500) fives.push(`POST ${url} with repeated fields: ${repeated.statusCode}`);
    }
    for (const url of ['/forum', `/forum/post/${target.id}`, '/forum/moderation', `/forum/report/post/${target.id}`, '/forum/new']) {
      for (const value of values.filter((v) => v.length < 1000)) {
        const res = await get(mo, `${url}?${new URLSearchParams(Object.fromEntries(names.map((n) => [n, value]))).toString()}`);
        if (res.statusCode >= 500) fives.push(`GET ${url} with ${JSON.stringify(value)}: ${res.statusCode}`);
      }
      const malformed = await get(mo, `${url}?q=%E0%A4%A&after=%&topic[]=1`);
      if (malformed.statusCode >= 500) fives.push(`GET ${url} malformed: ${malformed.statusCode}`);
    }
    t.same(fives, [], 'no 5xx');
  });

  await t.test('under a path prefix (BASE_PATH), mention links lead inside it on every page and in GraphQL', async (t) => {
    const prefixed = (await startApp(t, db, { env: { BASE_PATH: '/v2' }, clock })).app;
    const bobName = (await db.selectFrom('users').select('username').where('id', '=', bob.id).executeTakeFirstOrThrow()).username;
    const mentioning = await createPost(deps, { userId: ada.id, isStaff: false }, { title: 'Prefix mentions', body: `<p>Thanks @${bobName}</p>`, topicIds: [topicId('Hiring')] });
    await createReply(deps, { userId: mo.id, isStaff: false }, mentioning.id, { body: `<p>Agreed @${bobName}</p>` });
    const waiting = await createPost(deps, { userId: newbie.id, isStaff: false }, { title: 'Waiting mention', body: `<p>Hello @${bobName}</p>`, topicIds: [topicId('Hiring')] });
    t.equal(waiting.status, 'pending', 'a new member’s post waits');
    const link = `<a href="/v2/profile/${bob.id}">@${bobName}</a>`;
    const boss = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Bea', lastName: 'Boss' });
    const page = async (user: TestUser, url: string, roles: ('MEMBER' | 'ADMIN')[] = ['MEMBER']) =>
      prefixed.inject({ url, headers: { cookie: (await signIn(prefixed, user, alpha, roles)).cookie, ...html } });

    const postPage = await page(ada, `/v2/forum/post/${mentioning.id}`);
    t.equal(postPage.statusCode, 200);
    t.equal(postPage.body.split(link).length - 1, 2, 'the post and its reply link the mention under /v2');
    t.notMatch(postPage.body, `href="/profile/${bob.id}"`, 'no link leaves the prefix');

    const moderation = await page(mo, '/v2/forum/moderation');
    t.equal(moderation.statusCode, 200);
    t.match(moderation.body, link, 'the moderation queue too');
    const staffQueue = await page(boss, '/v2/admin/forum/queue', ['ADMIN', 'MEMBER']);
    t.equal(staffQueue.statusCode, 200);
    t.match(staffQueue.body, link, 'and the staff queue');

    const gql = async (url: string, query: string, variables: Record<string, unknown>, user: TestUser, roles: ('MEMBER' | 'ADMIN')[] = ['MEMBER']) =>
      (
        await prefixed.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${(await signIn(prefixed, user, alpha, roles)).token}` },
          payload: JSON.stringify({ query, variables }),
        })
      ).json();
    const one = await gql('/v2/graphql', 'query ($id: ID!) { forumPost(id: $id) { bodyHtml } forumReplies(postId: $id) { replies { bodyHtml } } }', { id: String(mentioning.id) }, ada);
    t.match(one.data.forumPost.bodyHtml, link, 'GraphQL forumPost');
    t.match(one.data.forumReplies.replies[0].bodyHtml, link, 'GraphQL forumReplies');
    const QUEUE = '{ forumModerationQueue { title: postTitle bodyHtml } }';
    const inQueue = (res: { data: { forumModerationQueue: { title: string; bodyHtml: string }[] } }) => res.data.forumModerationQueue.find((x) => x.title === 'Waiting mention')?.bodyHtml;
    t.match(inQueue(await gql('/v2/graphqlAdmin', QUEUE, {}, boss, ['ADMIN', 'MEMBER'])), link, 'GraphQL moderation queue (staff)');
    t.match(inQueue(await gql('/v2/graphql', QUEUE, {}, mo)), link, 'GraphQL moderation queue (a moderator)');
    t.match(textOf(postPage.body), `Thanks @${bobName}`);
  });

  await t.test('the post page shows its author their own removed reply, with the note, at its anchor; others not', async (t) => {
    const { id: postId } = await db
      .insertInto('forum_posts')
      .values({ community_id: alpha.id, author_id: ada.id, title: 'Anchored', body_html: '<p>Where is it?</p>', body_text: 'Where is it?' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const row = await db
      .insertInto('forum_replies')
      .values({ community_id: alpha.id, post_id: postId, author_id: bob.id, body_html: '<p>Out of line</p>', body_text: 'Out of line', status: 'removed', moderation_note: 'Please keep it civil.' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const mine = await get(bob, `/forum/post/${postId}`);
    t.equal(mine.statusCode, 200);
    t.match(mine.body, `id="reply-${row.id}"`, 'the notice’s anchor finds the reply');
    t.match(mine.body, 'Please keep it civil.', 'with the moderator’s note');
    const theirs = await get(ada, `/forum/post/${postId}`);
    t.notMatch(theirs.body, `id="reply-${row.id}"`, 'another member does not see it');
    t.notMatch(theirs.body, 'Out of line');
  });
});
