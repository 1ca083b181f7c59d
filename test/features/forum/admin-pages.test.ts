import t from 'tap';
import type { RawDb as Db } from '#src/db/index.ts';
import type { Community } from '#src/db/types.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';

/** A post written straight into the database, in the given state (with one topic when given). */
async function insertPost(db: Db, community: Community, authorId: number, title: string, status: 'published' | 'pending' | 'removed' = 'published', topicId?: number) {
  const post = await db
    .insertInto('forum_posts')
    .values({ community_id: community.id, author_id: authorId, title, body_html: `<p>${title}, in full.</p>`, body_text: `${title}, in full.`, status })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (topicId) await db.insertInto('forum_post_topics').values({ post_id: post.id, topic_id: topicId, community_id: community.id }).execute();
  return post.id;
}

const lastAction = (db: Db, community: Community) =>
  db.selectFrom('forum_actions').selectAll().where('community_id', '=', community.id).orderBy('id', 'desc').executeTakeFirstOrThrow();

t.test('the staff’s forum area (/admin/forum)', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha', forum_enabled: true });
  const harbor = await createCommunity(db, { code: 'harbor', hosts: ['harbor.test'] });
  const { app } = await startApp(t, db, { clock });

  const boss = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Bea', lastName: 'Boss' });
  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const alan = await createMember(db, alpha, { firstName: 'Alan', lastName: 'Turing' });
  const topic = await db.insertInto('forum_topics').values({ community_id: alpha.id, name: 'General', position: 0 }).returning('id').executeTakeFirstOrThrow();

  const waiting = await insertPost(db, alpha, ada.id, 'Looking for a CFO mentor', 'pending', topic.id);
  const reported = await insertPost(db, alpha, alan.id, 'Buy my course now', 'published', topic.id);
  const report = await db
    .insertInto('forum_reports')
    .values({ community_id: alpha.id, target_kind: 'post', target_id: reported, post_id: reported, reporter_id: ada.id, reason: 'spam', description: 'Selling, again.' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('forum_posts').set({ report_count: 1 }).where('id', '=', reported).execute();

  const b = new FormBrowser(app);
  b.cookies.set('auth', (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token);

  await t.test('a member who is not staff is refused every page and every action', async (t) => {
    const m = new FormBrowser(app, '203.0.113.41');
    m.cookies.set('auth', (await signIn(app, ada, alpha)).token);
    for (const url of ['/admin/forum', '/admin/forum/queue', '/admin/forum/reports', '/admin/forum/posts', '/admin/forum/topics', '/admin/forum/moderators', '/admin/forum/settings', '/admin/forum/log']) {
      const res = await m.get(url);
      t.not(res.statusCode, 200, url);
      t.notMatch(res.body, 'Looking for a CFO mentor', `${url} shows nothing`);
    }
    const res = await m.post(`/admin/forum/queue/post/${waiting}/approve`, {}, '/');
    t.equal(res.statusCode, 403, 'the approval is forbidden');
    t.equal((await db.selectFrom('forum_posts').select('status').where('id', '=', waiting).executeTakeFirstOrThrow()).status, 'pending', 'and the post still waits');
    const visitor = new FormBrowser(app, '203.0.113.42');
    t.not((await visitor.get('/admin/forum')).statusCode, 200, 'a visitor is sent to sign in');
  });

  await t.test('the overview counts what waits and what is reported, each a link', async (t) => {
    const res = await b.get('/admin/forum');
    t.equal(res.statusCode, 200);
    t.match(res.body, '1 post or reply waits for approval');
    t.match(res.body, '1 open report');
    t.match(res.body, 'href="/admin/forum/queue"');
    t.match(res.body, 'aria-current="page"');
  });

  await t.test('a post without a CSRF token changes nothing', async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: `/admin/forum/queue/post/${waiting}/approve`,
      headers: { cookie: b.jar, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      payload: 'note=',
    });
    t.equal(res.statusCode, 403);
    t.equal((await db.selectFrom('forum_posts').select('status').where('id', '=', waiting).executeTakeFirstOrThrow()).status, 'pending');
  });

  await t.test('rejecting needs a reason: the form comes back with the message and what was typed', async (t) => {
    const queue = await b.get('/admin/forum/queue');
    t.match(queue.body, 'Looking for a CFO mentor');
    t.match(queue.body, 'New member', 'why it waits');
    const res = await b.post(`/admin/forum/queue/post/${waiting}/reject`, { reason: '   ' }, '/admin/forum/queue');
    t.equal(res.statusCode, 400);
    t.match(res.body, 'field-error', 'the message is beside the field');
    t.match(res.body, `id="reason-post-${waiting}"`);
    t.equal((await db.selectFrom('forum_posts').select('status').where('id', '=', waiting).executeTakeFirstOrThrow()).status, 'pending', 'nothing changed');
  });

  await t.test('staff approve a waiting post: it is published, and the approval logged with who and when', async (t) => {
    const res = await b.post(`/admin/forum/queue/post/${waiting}/approve`, { note: 'Welcome aboard.' }, '/admin/forum/queue');
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, '/admin/forum/queue?done=approved');
    t.equal((await db.selectFrom('forum_posts').select('status').where('id', '=', waiting).executeTakeFirstOrThrow()).status, 'published');
    const logged = await lastAction(db, alpha);
    t.equal(logged.action, 'approve');
    t.equal(logged.actor_id, boss.id, 'who');
    t.equal(new Date(logged.created_at).toISOString(), clock.now().toISOString(), 'when');
    const back = await b.get(res.headers.location as string);
    t.match(back.body, 'Approved: it is published.');
    t.match(back.body, 'Nothing waits for approval.');
    const again = await b.post(`/admin/forum/queue/post/${waiting}/approve`, {}, '/admin/forum/queue');
    t.equal(again.statusCode, 409, 'approving twice is refused with a message, not an error page');
    t.match(again.body, 'alert-error');
  });

  await t.test('a reply waiting is rejected with its reason, which reaches its author', async (t) => {
    const reply = await db
      .insertInto('forum_replies')
      .values({ community_id: alpha.id, post_id: waiting, author_id: alan.id, body_html: '<p>DM me for deals</p>', body_text: 'DM me for deals', status: 'pending' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await b.post(`/admin/forum/queue/reply/${reply.id}/reject`, { reason: 'Please keep offers to the marketplace.' }, '/admin/forum/queue');
    t.equal(res.statusCode, 303);
    const row = await db.selectFrom('forum_replies').select(['status', 'moderation_note']).where('id', '=', reply.id).executeTakeFirstOrThrow();
    t.same(row, { status: 'rejected', moderation_note: 'Please keep offers to the marketplace.' });
    const told = await db.selectFrom('notifications').select('message').where('user_id', '=', alan.id).execute();
    t.ok(told.some((n) => n.message.includes('Please keep offers to the marketplace.')), 'the author is told why');
    const logged = await lastAction(db, alpha);
    t.same([logged.action, logged.target_kind, logged.actor_id], ['reject', 'reply', boss.id]);
  });

  await t.test('reports: the open one is listed; removing with a reason takes the post down and resolves it', async (t) => {
    const list = await b.get('/admin/forum/reports');
    t.equal(list.statusCode, 200);
    t.match(list.body, 'Buy my course now');
    t.match(list.body, 'Selling, again.');
    const refused = await b.post(`/admin/forum/reports/${report.id}/remove`, { reason: '' }, '/admin/forum/reports');
    t.equal(refused.statusCode, 400, 'removing needs a reason');
    const res = await b.post(`/admin/forum/reports/${report.id}/remove`, { reason: 'Advertising is not allowed here.' }, '/admin/forum/reports');
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, '/admin/forum/reports?done=removed');
    const post = await db.selectFrom('forum_posts').select(['status', 'moderation_note']).where('id', '=', reported).executeTakeFirstOrThrow();
    t.same(post, { status: 'removed', moderation_note: 'Advertising is not allowed here.' });
    const resolved = await db.selectFrom('forum_reports').select(['resolution', 'resolved_by']).where('id', '=', report.id).executeTakeFirstOrThrow();
    t.same(resolved, { resolution: 'removed', resolved_by: boss.id });
    t.match((await b.get('/admin/forum/reports')).body, 'No open reports.');
  });

  await t.test('reports: dismissing one leaves the content as it was', async (t) => {
    const other = await insertPost(db, alpha, ada.id, 'Board retreat ideas');
    const r = await db
      .insertInto('forum_reports')
      .values({ community_id: alpha.id, target_kind: 'post', target_id: other, post_id: other, reporter_id: alan.id, reason: 'off_topic' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await b.post(`/admin/forum/reports/${r.id}/dismiss`, {}, '/admin/forum/reports');
    t.equal(res.statusCode, 303);
    t.equal((await db.selectFrom('forum_reports').select('resolution').where('id', '=', r.id).executeTakeFirstOrThrow()).resolution, 'dismissed');
    t.equal((await db.selectFrom('forum_posts').select('status').where('id', '=', other).executeTakeFirstOrThrow()).status, 'published');
    t.match((await b.get('/admin/forum/reports?done=dismissed')).body, 'Report dismissed.');
  });

  await t.test('posts: every state listed and found by title; lock, pin, restore and remove from the list', async (t) => {
    const all = await b.get('/admin/forum/posts');
    t.equal(all.statusCode, 200);
    t.match(all.body, 'Buy my course now', 'a removed post is listed');
    t.match(all.body, 'Removed');
    const found = await b.get('/admin/forum/posts?q=retreat');
    t.match(found.body, 'Board retreat ideas');
    t.notMatch(found.body, 'Buy my course now');
    t.match((await b.get('/admin/forum/posts?q=100%25_off')).body, 'No posts match.', 'wildcards match themselves');

    const back = 'q=mentor';
    let res = await b.post(`/admin/forum/posts/${waiting}/lock`, { on: 'true', back }, '/admin/forum/posts');
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, `/admin/forum/posts?q=mentor&done=locked#post-${waiting}`, 'back to the list as it was');
    res = await b.post(`/admin/forum/posts/${waiting}/pin`, { on: 'true', back }, '/admin/forum/posts');
    t.equal(res.statusCode, 303);
    const row = await db.selectFrom('forum_posts').select(['locked_at', 'pinned_at']).where('id', '=', waiting).executeTakeFirstOrThrow();
    t.ok(row.locked_at && row.pinned_at, 'locked and pinned');
    t.equal((await lastAction(db, alpha)).action, 'pin');
    await b.post(`/admin/forum/posts/${waiting}/lock`, { on: 'false' }, '/admin/forum/posts');
    t.equal((await db.selectFrom('forum_posts').select('locked_at').where('id', '=', waiting).executeTakeFirstOrThrow()).locked_at, null, 'unlocked');

    res = await b.post(`/admin/forum/posts/${reported}/restore`, {}, '/admin/forum/posts');
    t.equal(res.statusCode, 303);
    t.equal((await db.selectFrom('forum_posts').select('status').where('id', '=', reported).executeTakeFirstOrThrow()).status, 'published', 'restored');
    const typed = 'x'.repeat(3);
    const refused = await b.post(`/admin/forum/posts/${reported}/remove`, { reason: '' }, '/admin/forum/posts');
    t.equal(refused.statusCode, 400, 'removing needs a reason');
    t.match(refused.body, `id="remove-post-${reported}"`);
    res = await b.post(`/admin/forum/posts/${reported}/remove`, { reason: `Spam ${typed}` }, '/admin/forum/posts');
    t.equal(res.statusCode, 303);
    t.equal((await db.selectFrom('forum_posts').select('status').where('id', '=', reported).executeTakeFirstOrThrow()).status, 'removed');
  });

  await t.test('a post’s replies: staff remove one with a reason and restore it', async (t) => {
    const r = await db
      .insertInto('forum_replies')
      .values({ community_id: alpha.id, post_id: waiting, author_id: alan.id, body_html: '<p>Try my coaching</p>', body_text: 'Try my coaching', status: 'published' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const page = await b.get(`/admin/forum/posts/${waiting}`);
    t.equal(page.statusCode, 200);
    t.match(page.body, 'Replies to Looking for a CFO mentor');
    t.match(page.body, 'Try my coaching');
    t.match(page.body, 'DM me for deals', 'a rejected reply is shown to staff too');
    const refused = await b.post(`/admin/forum/posts/${waiting}/replies/${r.id}/remove`, { reason: '' }, '/admin/forum');
    t.equal(refused.statusCode, 400);
    t.match(refused.body, `id="remove-reply-${r.id}"`);
    let res = await b.post(`/admin/forum/posts/${waiting}/replies/${r.id}/remove`, { reason: 'No self-promotion.' }, '/admin/forum');
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, `/admin/forum/posts/${waiting}?done=removed#reply-${r.id}`);
    t.same(await db.selectFrom('forum_replies').select(['status', 'moderation_note']).where('id', '=', r.id).executeTakeFirstOrThrow(), { status: 'removed', moderation_note: 'No self-promotion.' });
    res = await b.post(`/admin/forum/posts/${waiting}/replies/${r.id}/restore`, {}, '/admin/forum');
    t.equal(res.statusCode, 303);
    t.equal((await db.selectFrom('forum_replies').select('status').where('id', '=', r.id).executeTakeFirstOrThrow()).status, 'published');
    const logged = await lastAction(db, alpha);
    t.same([logged.action, logged.target_kind, logged.target_id, logged.actor_id], ['restore', 'reply', r.id, boss.id]);
    t.equal((await b.get('/admin/forum/posts/99999')).statusCode, 404, 'a post that does not exist');
  });

  await t.test('topics: created, renamed, moved and archived, each logged; a taken name comes back with the form', async (t) => {
    let res = await b.post('/admin/forum/topics', { name: 'Hiring' }, '/admin/forum/topics');
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, '/admin/forum/topics?done=topicCreated');
    const hiring = await db.selectFrom('forum_topics').select(['id', 'position']).where('community_id', '=', alpha.id).where('name', '=', 'Hiring').executeTakeFirstOrThrow();
    t.equal((await lastAction(db, alpha)).action, 'topic_create');

    const taken = await b.post('/admin/forum/topics', { name: 'general' }, '/admin/forum/topics');
    t.equal(taken.statusCode, 400, 'a name already taken');
    t.match(taken.body, 'value="general"', 'what was typed is kept');
    t.match(taken.body, 'field-error');

    res = await b.post(`/admin/forum/topics/${hiring.id}/rename`, { name: 'Hiring and careers' }, '/admin/forum/topics');
    t.equal(res.statusCode, 303);
    t.equal((await db.selectFrom('forum_topics').select('name').where('id', '=', hiring.id).executeTakeFirstOrThrow()).name, 'Hiring and careers');

    res = await b.post(`/admin/forum/topics/${hiring.id}/move`, { direction: 'up' }, '/admin/forum/topics');
    t.equal(res.statusCode, 303);
    const order = await db.selectFrom('forum_topics').select('name').where('community_id', '=', alpha.id).orderBy('position').orderBy('name').execute();
    t.same(
      order.map((o) => o.name),
      ['Hiring and careers', 'General'],
      'moved up',
    );

    res = await b.post(`/admin/forum/topics/${hiring.id}/archive`, { archived: 'true' }, '/admin/forum/topics');
    t.equal(res.statusCode, 303);
    t.not((await db.selectFrom('forum_topics').select('archived_at').where('id', '=', hiring.id).executeTakeFirstOrThrow()).archived_at, null);
    const page = await b.get('/admin/forum/topics?done=topicArchived');
    t.match(page.body, 'Topic archived.');
    t.match(page.body, 'Archived');
    res = await b.post(`/admin/forum/topics/${hiring.id}/archive`, { archived: 'false' }, '/admin/forum/topics');
    t.equal((await db.selectFrom('forum_topics').select('archived_at').where('id', '=', hiring.id).executeTakeFirstOrThrow()).archived_at, null, 'brought back');
    const actions = await db.selectFrom('forum_actions').select('action').where('community_id', '=', alpha.id).where('target_kind', '=', 'topic').orderBy('id').execute();
    t.same(
      actions.map((a) => a.action),
      ['topic_create', 'topic_rename', 'topic_move', 'topic_archive', 'topic_unarchive'],
    );
  });

  await t.test('moderators: found by name, appointed and removed, recorded in the member’s staff history', async (t) => {
    const search = await b.get('/admin/forum/moderators?q=turing');
    t.match(search.body, 'Alan Turing');
    t.notMatch(search.body, 'Ada Lovelace');
    let res = await b.post(`/admin/forum/moderators/${alan.id}`, { moderator: 'true', q: 'turing' }, '/admin/forum/moderators');
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, '/admin/forum/moderators?q=turing&done=moderatorOn');
    t.equal((await db.selectFrom('memberships').select('is_moderator').where('user_id', '=', alan.id).executeTakeFirstOrThrow()).is_moderator, true);
    const listed = await b.get('/admin/forum/moderators');
    t.match(listed.body, `href="/admin/members/alpha/${alan.id}"`);
    res = await b.post(`/admin/forum/moderators/${alan.id}`, { moderator: 'false' }, '/admin/forum/moderators');
    t.equal(res.statusCode, 303);
    const history = await db.selectFrom('staff_actions').select(['action', 'actor_id']).where('member_id', '=', alan.id).orderBy('id').execute();
    t.same(history, [
      { action: 'moderator_on', actor_id: boss.id },
      { action: 'moderator_off', actor_id: boss.id },
    ]);
    const stranger = await createMember(db, harbor, { firstName: 'Hal', lastName: 'Harbor' });
    t.equal((await b.post(`/admin/forum/moderators/${stranger.id}`, { moderator: 'true' }, '/admin/forum/moderators')).statusCode, 404, 'not a member of this community');
  });

  await t.test('settings: every post waits for a moderator, switched on and off', async (t) => {
    let res = await b.post('/admin/forum/settings', { allPostsWait: 'on' }, '/admin/forum/settings');
    t.equal(res.statusCode, 303);
    t.equal((await db.selectFrom('communities').select('forum_all_posts_wait').where('id', '=', alpha.id).executeTakeFirstOrThrow()).forum_all_posts_wait, true);
    const page = await b.get('/admin/forum/settings?done=settingsSaved');
    t.match(page.body, 'Settings saved.');
    t.match(page.body, /id="allPostsWait"[^>]*checked/);
    res = await b.post('/admin/forum/settings', {}, '/admin/forum/settings');
    t.equal((await db.selectFrom('communities').select('forum_all_posts_wait').where('id', '=', alpha.id).executeTakeFirstOrThrow()).forum_all_posts_wait, false, 'an unticked box turns it off');
  });

  await t.test('the log shows who did what and when, newest first', async (t) => {
    const res = await b.get('/admin/forum/log');
    t.equal(res.statusCode, 200);
    t.match(res.body, 'Bea Boss');
    t.match(res.body, 'Advertising is not allowed here.');
  });

  await t.test('where the forum is off, the pages say so and link to the site settings', async (t) => {
    const h = new FormBrowser(app, '203.0.113.43', 'harbor.test');
    const harborBoss = await createMember(db, harbor, { roles: ['ADMIN', 'MEMBER'], firstName: 'Hana', lastName: 'Harbor' });
    h.cookies.set('auth', (await signIn(app, harborBoss, harbor, ['ADMIN', 'MEMBER'])).token);
    for (const url of ['/admin/forum', '/admin/forum/queue', '/admin/forum/topics']) {
      const res = await h.get(url);
      t.equal(res.statusCode, 200, url);
      t.match(res.body, 'The forum is off');
      t.match(res.body, 'href="/admin/sites/harbor"');
    }
    t.equal((await h.post('/admin/forum/topics', { name: 'Anything' }, '/admin/forum')).statusCode, 404, 'its actions do not exist');
  });

  await t.test('another community’s posts, reports and topics are out of reach', async (t) => {
    await db.updateTable('communities').set({ forum_enabled: true }).where('id', '=', harbor.id).execute();
    app.communities.invalidate();
    const hal = await createMember(db, harbor, { firstName: 'Hal', lastName: 'Sailor' });
    const theirs = await insertPost(db, harbor, hal.id, 'Harbor private matters', 'pending');
    const theirTopic = await db.insertInto('forum_topics').values({ community_id: harbor.id, name: 'Harbor only' }).returning('id').executeTakeFirstOrThrow();
    const theirReport = await db
      .insertInto('forum_reports')
      .values({ community_id: harbor.id, target_kind: 'post', target_id: theirs, post_id: theirs, reporter_id: hal.id, reason: 'spam' })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const url of ['/admin/forum/posts', '/admin/forum/queue', '/admin/forum/reports', '/admin/forum/topics']) t.notMatch((await b.get(url)).body, /Harbor (private|only)/, url);
    t.equal((await b.get(`/admin/forum/posts/${theirs}`)).statusCode, 404);
    t.equal((await b.post(`/admin/forum/queue/post/${theirs}/approve`, {}, '/admin/forum')).statusCode, 404);
    t.equal((await b.post(`/admin/forum/posts/${theirs}/lock`, { on: 'true' }, '/admin/forum')).statusCode, 404);
    t.equal((await b.post(`/admin/forum/topics/${theirTopic.id}/rename`, { name: 'Mine now' }, '/admin/forum')).statusCode, 404);
    t.not((await b.post(`/admin/forum/reports/${theirReport.id}/dismiss`, {}, '/admin/forum')).statusCode, 303);
    const row = await db.selectFrom('forum_posts').select(['status', 'locked_at']).where('id', '=', theirs).executeTakeFirstOrThrow();
    t.same(row, { status: 'pending', locked_at: null }, 'their post is untouched');
    t.equal((await db.selectFrom('forum_topics').select('name').where('id', '=', theirTopic.id).executeTakeFirstOrThrow()).name, 'Harbor only');
    t.equal((await db.selectFrom('forum_reports').select('resolved_at').where('id', '=', theirReport.id).executeTakeFirstOrThrow()).resolved_at, null);
    await db.updateTable('communities').set({ forum_enabled: false }).where('id', '=', harbor.id).execute();
    app.communities.invalidate();
  });

  await t.test('hostile input is refused with a 4xx', async (t) => {
    const cases: Array<[string, Record<string, string>]> = [
      [`/admin/forum/queue/post/${waiting}/reject`, { reason: 'bad\u0000reason' }],
      [`/admin/forum/posts/${waiting}/remove`, { reason: 'x'.repeat(20_000) }],
      ['/admin/forum/topics', { name: 'Spam\u0007topic' }],
      ['/admin/forum/topics', { name: 'x'.repeat(5000) }],
      [`/admin/forum/posts/${waiting}/lock`, { on: 'maybe' }],
      [`/admin/forum/topics/${topic.id}/move`, { direction: 'sideways' }],
      ['/admin/forum/queue/bogus/1/approve', {}],
      ['/admin/forum/queue/post/abc/approve', {}],
      ['/admin/forum/posts/99999999999/pin', { on: 'true' }],
      [`/admin/forum/moderators/${alan.id}`, { moderator: 'yes' }],
      ['/admin/forum/settings', { allPostsWait: '\u0000' }],
    ];
    for (const [url, fields] of cases) {
      const res = await b.post(url, fields, '/admin/forum');
      t.ok(res.statusCode >= 400 && res.statusCode < 500, `${url} ${JSON.stringify(fields).slice(0, 40)}: ${res.statusCode}`);
    }
    for (const url of [`/admin/forum/posts/${waiting}?after=zz`, '/admin/forum/posts?q=a%00b', '/admin/forum/reports?after=abc', '/admin/forum/log?after=-1', '/admin/forum/moderators?q=%07', `/admin/forum/posts?q=${'x'.repeat(300)}`]) {
      const res = await b.get(url);
      t.ok(res.statusCode >= 400 && res.statusCode < 500, `${url.slice(0, 60)}: ${res.statusCode}`);
    }
  });
  await t.test('hostile cursors are a 400 or an empty page, never a 500', async (t) => {
    for (const url of ['/admin/forum/posts?after=9999999999', '/admin/forum/reports?after=9999999999', `/admin/forum/posts/${waiting}?after=9999999999`, '/admin/forum/posts?after=0001']) {
      const res = await b.get(url);
      t.equal(res.statusCode, 400, `${url}: a 400`);
    }
    const year0 = Buffer.from(JSON.stringify(['0000-01-01T00:00:00.000000Z', 5])).toString('base64url');
    const res = await b.get(`/forum?after=${year0}`);
    t.equal(res.statusCode, 400, 'a year-0000 cursor on the forum list is a 400');
    const gql = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${(await signIn(app, ada, alpha)).token}` },
      payload: JSON.stringify({ query: 'query L($after: String) { forumPosts(after: $after) { posts { id } } }', variables: { after: year0 } }),
    });
    t.equal(gql.json().errors?.[0]?.extensions?.code, 'BadRequest.Validation', gql.body);
  });
});
