import t from 'tap';
import { fixedClock } from '#src/core/clock.ts';
import { REPLY_NOTICES_JOB } from '#src/features/forum/notices.ts';
import { groupAudience, groupChoices } from '#src/features/groups/index.ts';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';

const html = { accept: 'text/html' };

t.test('groups: staff, visibility, joining, discussion, tenancy, the face', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle', forum_enabled: true });
  const beta = await createCommunity(db, { code: 'beta', app_name: 'Beta Guild', hosts: ['beta.test'] });
  const clock = fixedClock('2026-11-21T12:00:00Z');
  const { app } = await startApp(t, db, { clock });

  const staff = await createMember(db, alpha, { firstName: 'Sam', lastName: 'Staff', roles: ['ADMIN'] });
  const chair = await createMember(db, alpha, { firstName: 'Cara', lastName: 'Chair' });
  const member = await createMember(db, alpha, { firstName: 'Mo', lastName: 'Member' });
  const outsider = await createMember(db, alpha, { firstName: 'Oz', lastName: 'Outsider' });
  const gone = await createMember(db, alpha, { firstName: 'Gil', lastName: 'Gone', active: false });
  const bea = await createMember(db, beta, { firstName: 'Bea', lastName: 'Beta', roles: ['ADMIN'] });

  const s = { staff: await signIn(app, staff, alpha, ['ADMIN']), chair: await signIn(app, chair, alpha), member: await signIn(app, member, alpha), outsider: await signIn(app, outsider, alpha) };
  const beaSession = await signIn(app, bea, beta, ['ADMIN']);
  const get = (url: string, cookie: string, host?: string) => app.inject({ url, headers: { ...html, cookie, ...(host ? { host } : {}) } });
  const post = async (url: string, cookie: string, form: Record<string, string>, host?: string) => {
    const c = await csrfFor(app, cookie, '/');
    return app.inject({ method: 'POST', url, headers: { ...html, cookie: c.cookie, 'content-type': 'application/x-www-form-urlencoded', ...(host ? { host } : {}) }, payload: new URLSearchParams({ ...form, _csrf: c.token }).toString() });
  };
  const idFrom = (location: string | undefined) => Number(/\/admin\/groups\/(\d+)/.exec(location ?? '')?.[1]);

  // ---- Staff create groups (the form, slug rules, uniqueness per community) ----
  const make = async (name: string, slug: string, visibility: string) => {
    const res = await post('/admin/groups', s.staff.cookie, { name, slug, about: `About ${name}\n\n- one\n- two <script>x</script>`, visibility });
    t.equal(res.statusCode, 303, `${name} created`);
    return idFrom(res.headers.location as string);
  };
  const pub = await make('Peer Forum', 'peer-forum', 'public');
  const priv = await make('CFO Circle', 'cfo-circle', 'private');
  const prev = await make('New Venture', 'new-venture', 'preview');
  const off = await make('Old Board', 'old-board', 'disabled');

  await t.test('staff pages: list, refusals beside the field with what was typed, hostile input', async (t) => {
    const list = await get('/admin/groups', s.staff.cookie);
    t.equal(list.statusCode, 200);
    for (const n of ['Peer Forum', 'CFO Circle', 'New Venture', 'Old Board']) t.match(list.body, n);
    t.equal((await get('/admin/groups', s.member.cookie)).statusCode, 303, 'members are not staff: sent to sign in as staff');
    t.match((await get('/admin', s.staff.cookie)).body, 'href="/admin/groups"', 'the admin home links it');
    const taken = await post('/admin/groups', s.staff.cookie, { name: 'Copy', slug: 'peer-forum', about: 'typed about', visibility: 'public' });
    t.equal(taken.statusCode, 400);
    t.match(taken.body, 'Another group of this community has this address.');
    t.match(taken.body, 'typed about', 'what was typed is kept');
    const bad = await post('/admin/groups', s.staff.cookie, { name: '', slug: 'Bad Slug!', about: '', visibility: 'secret' });
    t.equal(bad.statusCode, 400);
    t.match(bad.body, 'Give the group a name.');
    t.match(bad.body, 'lowercase letters, digits and single hyphens');
    t.match(bad.body, 'Choose one of the four visibilities.');
    t.equal((await post('/admin/groups', s.staff.cookie, { name: 'Nul\u0000', slug: 'nul', about: '', visibility: 'public' })).statusCode, 400, 'a NUL byte is 400');
    t.equal((await post('/admin/groups', s.staff.cookie, { name: 'x'.repeat(5000), slug: 'y', visibility: 'public' })).statusCode, 400, 'a huge value is 4xx');
    t.equal((await post('/admin/groups', s.staff.cookie, { name: 'Reserved', slug: 'images', visibility: 'public' })).statusCode, 400, 'reserved slug');
    t.equal((await get('/admin/groups/99999999999', s.staff.cookie)).statusCode, 404);
    const edit = await get(`/admin/groups/${pub}`, s.staff.cookie);
    t.notMatch(edit.body, '<script>x', 'about is sanitised');
    const rename = await post(`/admin/groups/${pub}`, s.staff.cookie, { name: 'Peer Forum', slug: 'peer-forum', about: 'Peers who share.', visibility: 'public' });
    t.equal(rename.statusCode, 303);
  });

  await t.test('staff add people by pasted emails and by the search; CSV; the log', async (t) => {
    const unknown = await post(`/admin/groups/${pub}/people`, s.staff.cookie, { emails: `${member.email}, nobody@example.com`, role: 'member' });
    t.equal(unknown.statusCode, 400);
    t.match(unknown.body, 'Not members of this community: nobody@example.com');
    t.match(unknown.body, member.email, 'the pasted list is kept');
    const beaNotHere = await post(`/admin/groups/${pub}/people`, s.staff.cookie, { emails: bea.email, role: 'member' });
    t.equal(beaNotHere.statusCode, 400, "another community's member is not added");
    t.equal((await post(`/admin/groups/${pub}/people`, s.staff.cookie, { emails: `Mo <${member.email.toUpperCase()}>`, role: 'member' })).statusCode, 303);
    t.equal((await post(`/admin/groups/${pub}/people`, s.staff.cookie, { userId: String(chair.id), role: 'chair' })).statusCode, 303);
    for (const g of [priv, prev, off]) {
      await post(`/admin/groups/${g}/people`, s.staff.cookie, { emails: chair.email, role: 'chair' });
      await post(`/admin/groups/${g}/people`, s.staff.cookie, { emails: member.email, role: 'member' });
    }
    await db.insertInto('group_members').values({ community_id: alpha.id, group_id: priv, user_id: gone.id, role: 'member' }).execute();
    const search = await get(`/admin/groups/${pub}?q=outs`, s.staff.cookie);
    t.match(search.body, 'Oz Outsider');
    const csv = await get(`/admin/groups/${pub}/people.csv`, s.staff.cookie);
    t.equal(csv.statusCode, 200);
    t.match(csv.headers['content-type'], 'text/csv');
    t.match(csv.body, member.email);
    t.match(csv.body, 'Chair');
    const page = await get(`/admin/groups/${pub}`, s.staff.cookie);
    t.match(page.body, 'Members added');
    t.match(page.body, 'Chairs added');
    const removed = await post(`/admin/groups/${off}/people/${member.id}/remove`, s.staff.cookie, {});
    t.equal(removed.statusCode, 303);
    t.equal((await post(`/admin/groups/${off}/people/${member.id}/remove`, s.staff.cookie, {})).statusCode, 404, 'removing twice: not found');
  });

  await t.test('the face for messages: audience (active only) and choices', async (t) => {
    t.same(await groupAudience(app.db, alpha, priv), [chair.id, member.id].sort((a, b) => a - b), 'the inactive member is left out');
    t.equal(await groupAudience(app.db, beta, priv), null, "another community's group is none");
    t.equal(await groupAudience(app.db, alpha, 99999), null);
    const choices = await groupChoices(app.db, alpha);
    t.same(choices.map((c) => c.name), ['CFO Circle', 'New Venture', 'Old Board', 'Peer Forum']);
    t.equal(choices.find((c) => c.id === priv)?.memberCount, 2);
  });

  await t.test('visibility: each state for outsiders, members, chairs and staff (404, not 403; absent from lists)', async (t) => {
    const expect = { 'peer-forum': [200, 200, 200, 200], 'cfo-circle': [404, 200, 200, 200], 'new-venture': [404, 404, 200, 200], 'old-board': [404, 404, 404, 200] } as const;
    for (const [slug, codes] of Object.entries(expect)) {
      const who = [s.outsider, s.member, s.chair, s.staff];
      for (let i = 0; i < who.length; i++) t.equal((await get(`/groups/${slug}`, who[i]!.cookie)).statusCode, codes[i], `${slug} for ${['outsider', 'member', 'chair', 'staff'][i]}`);
    }
    const outsiderList = (await get('/groups', s.outsider.cookie)).body;
    t.match(outsiderList, 'Peer Forum');
    for (const hidden of ['CFO Circle', 'New Venture', 'Old Board']) t.notMatch(outsiderList, hidden);
    const memberList = (await get('/groups', s.member.cookie)).body;
    t.match(memberList, 'CFO Circle');
    t.notMatch(memberList, 'New Venture');
    t.ok(memberList.indexOf('CFO Circle') < memberList.indexOf('Other groups') || memberList.indexOf('Peer Forum') < memberList.indexOf('Other groups'), 'theirs first');
    t.match((await get('/groups', s.chair.cookie)).body, 'New Venture');
    t.equal((await get('/groups/peer-forum', beaSession.cookie, 'beta.test')).statusCode, 404, "another community's group is 404");
    t.equal((await get('/groups/NOT%20A%20SLUG', s.member.cookie)).statusCode, 404);
    t.equal((await post('/groups/cfo-circle/join', s.outsider.cookie, {})).statusCode, 404, 'asking to join a private group: it does not exist');
  });

  await t.test("a group's image is served to whoever may see the group (staff always), else the same 404", async (t) => {
    const key = 'previewImageKey0123456789';
    await db.insertInto('group_images').values({ community_id: alpha.id, key, group_id: prev, content_type: 'image/webp', bytes: Buffer.from('RIFFxxxxWEBP') }).execute();
    const url = `/groups/images/${key}.webp`;
    const unknown = await get('/groups/images/noSuchImageKey0123456.webp', s.member.cookie);
    t.equal(unknown.statusCode, 404);
    for (const [who, code] of [['outsider', 404], ['member', 404], ['chair', 200], ['staff', 200]] as const) t.equal((await get(url, s[who].cookie)).statusCode, code, `a preview group's image for its ${who}`);
    const main = (b: string) => /<main[\s\S]*<\/main>/.exec(b)?.[0];
    t.ok(main(unknown.body));
    t.equal(main((await get(url, s.member.cookie)).body), main(unknown.body), 'the same 404 as an unknown image');
    t.equal((await get(url, beaSession.cookie, 'beta.test')).statusCode, 404, "another community's");
  });

  await t.test('join request: outsider asks, chair is told and accepts, member is told', async (t) => {
    const asked = await post('/groups/peer-forum/join', s.outsider.cookie, {});
    t.equal(asked.statusCode, 303);
    t.equal((await post('/groups/peer-forum/join', s.outsider.cookie, {})).statusCode, 303, 'asking twice changes nothing');
    const note = await db.selectFrom('notifications').select(['message', 'url']).where('user_id', '=', chair.id).where('kind', '=', 'groups').executeTakeFirst();
    t.match(note?.message, 'Oz Outsider asks to join Peer Forum');
    const req = await db.selectFrom('group_join_requests').select('id').where('user_id', '=', outsider.id).where('status', '=', 'pending').executeTakeFirstOrThrow();
    t.equal((await post(`/groups/peer-forum/requests/${req.id}`, s.member.cookie, { decision: 'accept' })).statusCode, 403, 'a member is not a chair');
    const page = await get('/groups/peer-forum', s.chair.cookie);
    t.match(page.body, 'Requests to join (1)');
    t.equal((await post(`/groups/peer-forum/requests/${req.id}`, s.chair.cookie, { decision: 'accept' })).statusCode, 303);
    t.equal((await post(`/groups/peer-forum/requests/${req.id}`, s.chair.cookie, { decision: 'accept' })).statusCode, 404, 'decided already');
    t.ok(await db.selectFrom('group_members').select('role').where('group_id', '=', pub).where('user_id', '=', outsider.id).executeTakeFirst(), 'now a member');
    t.match((await db.selectFrom('notifications').select('message').where('user_id', '=', outsider.id).where('kind', '=', 'groups').executeTakeFirst())?.message, 'Welcome to Peer Forum');
  });

  await t.test('accepting the request of someone no longer an active member: not found, nobody joins, the request is settled', async (t) => {
    const leaver = await createMember(db, alpha, { firstName: 'Lee', lastName: 'Leaver' });
    t.equal((await post('/groups/peer-forum/join', (await signIn(app, leaver, alpha)).cookie, {})).statusCode, 303);
    const req = await db.selectFrom('group_join_requests').select('id').where('user_id', '=', leaver.id).where('status', '=', 'pending').executeTakeFirstOrThrow();
    await db.updateTable('memberships').set({ is_active: false }).where('user_id', '=', leaver.id).where('community_id', '=', alpha.id).execute();
    t.equal((await post(`/groups/peer-forum/requests/${req.id}`, s.chair.cookie, { decision: 'accept' })).statusCode, 404);
    t.notOk(await db.selectFrom('group_members').select('role').where('group_id', '=', pub).where('user_id', '=', leaver.id).executeTakeFirst(), 'not added');
    t.equal((await db.selectFrom('group_join_requests').select('status').where('id', '=', req.id).executeTakeFirstOrThrow()).status, 'declined', 'the request is settled (declined)');
    t.equal((await db.selectFrom('notifications').select('id').where('user_id', '=', leaver.id).where('kind', '=', 'groups').execute()).length, 0, 'and they are not told');
  });

  await t.test('discussion: a group post is the forum’s service, invisible in /forum and to outsiders; a chair moderates', async (t) => {
    const bad = await post('/groups/cfo-circle/posts', s.member.cookie, { title: '', body: 'kept text' });
    t.equal(bad.statusCode, 400);
    t.match(bad.body, 'kept text');
    const made = await post('/groups/cfo-circle/posts', s.member.cookie, { title: 'Budget season secrets', body: 'How do you run the budget?\n\nWe start in <September>.' });
    t.equal(made.statusCode, 303);
    const postId = Number(/\/posts\/(\d+)/.exec(made.headers.location as string)?.[1]);
    t.ok(postId > 0);
    const page = await get(`/groups/cfo-circle/posts/${postId}`, s.member.cookie);
    t.equal(page.statusCode, 200);
    t.match(page.body, '<p>How do you run the budget?</p><p>We start in &lt;September&gt;.</p>', 'typed text becomes paragraphs, as in the forum; what looks like markup stays text');
    // SQL per page (issue budget ≤ 5, Server-Timing as the bench reads it): the group is read once.
    const sqlOf = (r: { headers: Record<string, unknown> }) => Number(/db;[^,]*dur=(\d+)/.exec(String(r.headers['server-timing']))?.[1]);
    t.ok(sqlOf(page) <= 5, `a post's page: ${sqlOf(page)} statements`);
    const groupPageRes = await get('/groups/cfo-circle', s.member.cookie);
    t.match(groupPageRes.body, 'Budget season secrets');
    t.ok(sqlOf(groupPageRes) <= 5, `the group's page: ${sqlOf(groupPageRes)} statements`);
    t.ok(sqlOf(await get('/groups/cfo-circle', s.chair.cookie)) <= 5, "a chair's group page (with its requests) too");
    t.notMatch((await get('/forum', s.member.cookie)).body, 'Budget season secrets', 'not in the forum list');
    t.notMatch((await get('/forum?q=budget', s.member.cookie)).body, 'Budget season secrets', 'not in search');
    t.notMatch((await get('/', s.member.cookie)).body, 'Budget season secrets', 'not on home');
    const unknown = await get('/forum/post/99999999', s.outsider.cookie);
    const outsiders = await get(`/forum/post/${postId}`, s.outsider.cookie);
    t.equal(outsiders.statusCode, 404, 'an outsider: 404 at the forum address');
    const main = (b: string) => /<main[\s\S]*<\/main>/.exec(b)?.[0];
    t.equal(main(outsiders.body), main(unknown.body), 'the same 404 as an unknown post');
    t.equal((await get(`/groups/cfo-circle/posts/${postId}`, s.outsider.cookie)).statusCode, 404);
    // Following or unfollowing a group's post through the forum: the forum's 404, for its author too (who follows it already).
    for (const [who, on] of [['outsider', '0'], ['outsider', '1'], ['member', '0']] as const) t.equal((await post(`/forum/post/${postId}/follow`, s[who].cookie, { on })).statusCode, 404, `forum follow ${on} by the ${who}: 404`);
    t.ok(await db.selectFrom('forum_follows').select('user_id').where('post_id', '=', postId).where('user_id', '=', member.id).executeTakeFirst(), 'the author still follows it');
    const forMember = await get(`/forum/post/${postId}`, s.member.cookie);
    t.equal(forMember.statusCode, 302, 'a member is sent to the group');
    t.equal(forMember.headers.location, `/groups/cfo-circle/posts/${postId}`);
    t.equal((await post(`/groups/peer-forum/posts`, s.staff.cookie, { title: 'Staff note', body: 'hi' })).statusCode, 303, 'staff may post');
    const replied = await post(`/groups/cfo-circle/posts/${postId}/replies`, s.chair.cookie, { body: 'Zero-based, every year.' });
    t.equal(replied.statusCode, 303);
    const replyId = Number(/reply-(\d+)/.exec(replied.headers.location as string)?.[1]);
    t.equal((await post(`/groups/cfo-circle/posts/${postId}/moderate`, s.member.cookie, { kind: 'reply', id: String(replyId), action: 'remove', reason: 'no' })).statusCode, 403, 'a member is not a moderator');
    const noReason = await post(`/groups/cfo-circle/posts/${postId}/moderate`, s.chair.cookie, { kind: 'post', id: String(postId), action: 'remove', reason: '' });
    t.equal(noReason.statusCode, 400);
    t.equal((await post(`/groups/cfo-circle/posts/${postId}/moderate`, s.chair.cookie, { kind: 'post', id: String(postId), action: 'remove', reason: 'Confidential figures' })).statusCode, 303, 'the chair removes');
    t.equal((await db.selectFrom('forum_posts').select('status').where('id', '=', postId).executeTakeFirstOrThrow()).status, 'removed');
    t.equal((await post(`/groups/cfo-circle/posts/${postId}/moderate`, s.chair.cookie, { kind: 'post', id: String(postId), action: 'restore', reason: '' })).statusCode, 303, 'and restores');
    // A forum moderator who is not in the group cannot act on it through the forum.
    t.equal((await post(`/groups/peer-forum/posts/${postId}/moderate`, s.chair.cookie, { kind: 'post', id: String(postId), action: 'remove', reason: 'x' })).statusCode, 404, "another group's post is not found in this group");
  });

  await t.test("the author edits and deletes their own post and reply in the group (the forum's services in its scope); nobody else; not after leaving; never through /forum", async (t) => {
    const other = await createMember(db, alpha, { firstName: 'Otto', lastName: 'Other' });
    const ed = await createMember(db, alpha, { firstName: 'Ed', lastName: 'Editor' });
    for (const [who, g] of [[other, priv], [ed, pub]] as const) t.equal((await post(`/admin/groups/${g}/people`, s.staff.cookie, { emails: who.email, role: 'member' })).statusCode, 303);
    const asOther = (await signIn(app, other, alpha)).cookie;
    const made = await post('/groups/cfo-circle/posts', s.member.cookie, { title: 'Draft figures', body: 'First draft.' });
    const postId = Number(/\/posts\/(\d+)/.exec(made.headers.location as string)?.[1]);
    const base = `/groups/cfo-circle/posts/${postId}`;
    const replyId = Number(/reply-(\d+)/.exec((await post(`${base}/replies`, s.member.cookie, { body: 'My reply.' })).headers.location as string)?.[1]);
    const page = (await get(base, s.member.cookie)).body;
    for (const action of [`${base}/edit"`, `${base}/delete"`, `${base}?edit-reply=${replyId}#reply-${replyId}"`, `${base}/replies/${replyId}/delete"`]) t.match(page, action, `the author has ${action}`);
    const othersPage = (await get(base, asOther)).body;
    t.notMatch(othersPage, `${base}/edit"`, 'another member has no edit');
    t.notMatch(othersPage, `/replies/${replyId}/delete"`, 'nor delete');
    // Another member: 404 for each (and so for a reply under another post's address).
    t.equal((await get(`${base}/edit`, asOther)).statusCode, 404);
    for (const [url, form] of [[`${base}/edit`, { title: 'Mine now', body: 'x' }], [`${base}/delete`, {}], [`${base}/replies/${replyId}/edit`, { body: 'x' }], [`${base}/replies/${replyId}/delete`, {}]] as const) t.equal((await post(url, asOther, form)).statusCode, 404, `another member: ${url.slice(base.length) || 'post'} is 404`);
    t.equal((await post(`/groups/cfo-circle/posts/${postId + 100000}/replies/${replyId}/edit`, s.member.cookie, { body: 'x' })).statusCode, 404, "a reply under another post's address");
    // The forum's own endpoints still know nothing of the group's post and reply, even for its author.
    // (The forum's post edit checks its fields, topics included, first: a refusal there is 400 for any post.)
    for (const url of [`/forum/post/${postId}/edit`, `/forum/reply/${replyId}/edit`, `/forum/post/${postId}/delete`, `/forum/reply/${replyId}/delete`]) t.equal((await get(url, s.member.cookie)).statusCode, 404, `GET ${url}: 404`);
    t.not((await post(`/forum/post/${postId}/edit`, s.member.cookie, { title: 'Via the forum', body: 'Changed through the forum.' })).statusCode, 303, 'no edit through the forum');
    for (const [url, form] of [[`/forum/post/${postId}/delete`, {}], [`/forum/reply/${replyId}/edit`, { body: 'Changed through the forum.' }], [`/forum/reply/${replyId}/delete`, {}]] as const) t.equal((await post(url, s.member.cookie, form)).statusCode, 404, `${url}: 404`);
    // The author edits: the form prefilled; a refusal beside the field with what was typed; then saved.
    const form = await get(`${base}/edit`, s.member.cookie);
    t.equal(form.statusCode, 200);
    t.match(form.body, 'First draft.');
    const refused = await post(`${base}/edit`, s.member.cookie, { title: '', body: 'typed and kept' });
    t.equal(refused.statusCode, 400);
    t.match(refused.body, 'typed and kept');
    const saved = await post(`${base}/edit`, s.member.cookie, { title: 'Final figures', body: 'Second draft.' });
    t.equal(saved.headers.location, `${base}?done=edited`);
    t.match(await db.selectFrom('forum_posts').select(['title', 'body_text']).where('id', '=', postId).executeTakeFirstOrThrow(), { title: 'Final figures', body_text: 'Second draft.' });
    const inline = (await get(`${base}?edit-reply=${replyId}`, s.member.cookie)).body;
    t.match(inline, `action="${base}/replies/${replyId}/edit"`, 'the inline reply form');
    const emptyReply = await post(`${base}/replies/${replyId}/edit`, s.member.cookie, { body: '   ' });
    t.equal(emptyReply.statusCode, 400);
    t.match(emptyReply.body, `id="edit-reply-${replyId}-error"`, 'the refusal beside the reply field');
    t.equal((await post(`${base}/replies/${replyId}/edit`, s.member.cookie, { body: 'Better reply.' })).headers.location, `${base}?done=edited#reply-${replyId}`);
    t.equal((await db.selectFrom('forum_replies').select('body_text').where('id', '=', replyId).executeTakeFirstOrThrow()).body_text, 'Better reply.');
    // And deletes.
    t.equal((await post(`${base}/replies/${replyId}/delete`, s.member.cookie, {})).headers.location, `${base}?done=deleted#replies`);
    t.ok((await db.selectFrom('forum_replies').select('deleted_at').where('id', '=', replyId).executeTakeFirstOrThrow()).deleted_at, 'the reply is deleted');
    t.equal((await post(`${base}/delete`, s.member.cookie, {})).headers.location, '/groups/cfo-circle?done=deleted#discussion');
    t.ok((await db.selectFrom('forum_posts').select('deleted_at').where('id', '=', postId).executeTakeFirstOrThrow()).deleted_at, 'the post is deleted');
    t.equal((await get(base, s.member.cookie)).statusCode, 404);
    // Having left a public group (still readable), its former member changes nothing there.
    const asEd = (await signIn(app, ed, alpha)).cookie;
    const edPost = Number(/\/posts\/(\d+)/.exec((await post('/groups/peer-forum/posts', asEd, { title: 'Ed writes', body: 'Hello.' })).headers.location as string)?.[1]);
    t.equal((await post('/groups/peer-forum/leave', asEd, {})).statusCode, 303);
    t.notMatch((await get(`/groups/peer-forum/posts/${edPost}`, asEd)).body, `/posts/${edPost}/edit"`, 'no edit offered after leaving');
    t.equal((await post(`/groups/peer-forum/posts/${edPost}/edit`, asEd, { title: 'Changed', body: 'x' })).statusCode, 403, 'an edit after leaving is refused');
    t.equal((await post(`/groups/peer-forum/posts/${edPost}/delete`, asEd, {})).statusCode, 403, 'and a delete');
    t.equal((await db.selectFrom('forum_posts').select('title').where('id', '=', edPost).executeTakeFirstOrThrow()).title, 'Ed writes');
  });

  await t.test("mentions and reply notices tell only who may read the group: a preview group's chairs, nobody in a disabled one", async (t) => {
    const drain = () => app.jobs.drain([REPLY_NOTICES_JOB]);
    await drain();
    const at = (who: string) => `@${who.split('@')[0]}`;
    const heard = async (userId: number, title: string) => (await db.selectFrom('notifications').select('message').where('user_id', '=', userId).where('kind', '=', 'forum').execute()).filter((n) => n.message.includes(title)).length;
    const setVisibility = (v: 'preview' | 'private' | 'disabled') => db.updateTable('groups').set({ visibility: v }).where('id', '=', priv).execute();
    // The member posts in the private group (and follows it), then the group goes back to preview.
    const made = await post('/groups/cfo-circle/posts', s.member.cookie, { title: 'Preview plans', body: 'Our plans.' });
    const postId = Number(/\/posts\/(\d+)/.exec(made.headers.location as string)?.[1]);
    await setVisibility('preview');
    t.equal((await post('/groups/cfo-circle/posts', s.chair.cookie, { title: 'Chair only draft', body: `Thoughts, ${at(member.email)}?` })).statusCode, 303);
    t.equal(await heard(member.id, 'Chair only draft'), 0, 'a plain member of a preview group is not told of a mention');
    t.equal((await post(`/groups/cfo-circle/posts/${postId}/replies`, s.chair.cookie, { body: `Noted ${at(member.email)}.` })).statusCode, 303);
    await drain();
    t.equal(await heard(member.id, 'Preview plans'), 0, 'nor of a reply to the post they follow');
    // Private again: the member hears; a reply queued before the group is disabled tells nobody.
    await setVisibility('private');
    await post(`/groups/cfo-circle/posts/${postId}/replies`, s.chair.cookie, { body: 'Second thought.' });
    await drain();
    t.equal(await heard(member.id, 'Preview plans'), 1, 'a member of a private group hears of the reply');
    await post(`/groups/cfo-circle/posts/${postId}/replies`, s.chair.cookie, { body: `Third, ${at(member.email)}.` });
    await setVisibility('disabled');
    await drain();
    t.equal(await heard(member.id, 'Preview plans'), 1, 'a disabled group: nobody is told');
    await setVisibility('private');
  });

  await t.test('GraphQL: members (bearer, cookie with CSRF), visibility as the page, join, decide, leave; staff; tenancy; hostile input', async (t) => {
    const answers: string[] = [];
    const gql = async (url: string, query: string, variables: object, headers: Record<string, string>) => {
      const res = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });
      answers.push(res.body);
      return res;
    };
    const codeOf = (res: { json: () => { errors?: { extensions?: { code?: string } }[] } }) => res.json().errors?.[0]?.extensions?.code;
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const newbie = await createMember(db, alpha, { firstName: 'Nia', lastName: 'Newbie' });
    const asNewbie = bearer((await signIn(app, newbie, alpha)).token);
    const asMember = bearer(s.member.token);
    const asChair = bearer(s.chair.token);
    const LIST = '{ groups { slug myRole visibility memberCount aboutHtml chairs { name } } }';
    const ONE = 'query ($slug: String!) { group(slug: $slug) { id slug name aboutHtml myRole requested chairs { id name } members { name } abilities { canRead canPost canRequest canChair canLeave } } }';

    const mine = (await gql('/graphql', LIST, {}, asMember)).json().data.groups;
    t.same(mine.map((g: { slug: string }) => g.slug), ['cfo-circle', 'peer-forum'], "a member's list: theirs, no preview or disabled group");
    t.equal(mine[0].aboutHtml, null, 'no about in a list');
    t.same((await gql('/graphql', LIST, {}, asNewbie)).json().data.groups.map((g: { slug: string }) => g.slug), ['peer-forum'], 'an outsider sees the public group only');
    for (const slug of ['cfo-circle', 'new-venture', 'old-board', 'no-such-group', 'NOT A SLUG', 'nul\u0000', 'x'.repeat(100_000)]) {
      const res = await gql('/graphql', ONE, { slug }, asNewbie);
      t.equal(res.json().data?.group, null, `group(${JSON.stringify(slug.slice(0, 20))}) is null to an outsider`);
      t.equal(codeOf(res), 'Groups.NotFound');
    }
    const pubView = (await gql('/graphql', ONE, { slug: 'peer-forum' }, asNewbie)).json().data.group;
    t.same(pubView.chairs.map((c: { name: string }) => c.name), ['Cara Chair']);
    t.same(pubView.abilities, { canRead: true, canPost: false, canRequest: true, canChair: false, canLeave: false });
    t.equal((await gql('/graphql', ONE, { slug: 'cfo-circle' }, asMember)).json().data.group.myRole, 'MEMBER', 'a member sees their private group');

    const JOIN = 'mutation ($slug: String!) { groupJoinRequest(slug: $slug) { slug requested } }';
    t.same((await gql('/graphql', JOIN, { slug: 'peer-forum' }, asNewbie)).json().data.groupJoinRequest, { slug: 'peer-forum', requested: true });
    t.equal(codeOf(await gql('/graphql', JOIN, { slug: 'cfo-circle' }, asNewbie)), 'Groups.NotFound', 'asking to join a private group: it does not exist');
    const REQUESTS = 'query ($slug: String!) { groupJoinRequests(slug: $slug) { id member { name } createdAt } }';
    t.equal(codeOf(await gql('/graphql', REQUESTS, { slug: 'peer-forum' }, asMember)), 'Groups.NotChair');
    const browser = await csrfFor(app, s.chair.cookie, '/');
    const waiting = (await gql('/graphql', REQUESTS, { slug: 'peer-forum' }, { cookie: browser.cookie, 'x-csrf-token': browser.token })).json().data.groupJoinRequests;
    t.same(waiting.map((r: { member: { name: string } }) => r.member.name), ['Nia Newbie']);
    const ACCEPT = 'mutation ($id: ID!) { groupJoinRequestAccept(id: $id) { slug memberCount } }';
    const DECLINE = 'mutation ($id: ID!) { groupJoinRequestDecline(id: $id) { slug } }';
    t.equal((await gql('/graphql', ACCEPT, { id: waiting[0].id }, { cookie: browser.cookie })).statusCode, 403, 'a mutation by cookie without CSRF is refused');
    t.equal(codeOf(await gql('/graphql', ACCEPT, { id: waiting[0].id }, asMember)), 'Groups.NotChair', 'a member is not a chair');
    const accepted = await gql('/graphql', ACCEPT, { id: waiting[0].id }, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.equal(accepted.json().data?.groupJoinRequestAccept.slug, 'peer-forum', accepted.body);
    for (const id of [waiting[0].id, 'abc', '99999999999999999999']) t.equal(codeOf(await gql('/graphql', DECLINE, { id }, asChair)), 'Groups.RequestNotFound', `decline(${id})`);

    const LEAVE = 'mutation ($slug: String!) { groupLeave(slug: $slug) }';
    t.equal((await gql('/graphql', LEAVE, { slug: 'peer-forum' }, asNewbie)).json().data.groupLeave, true, 'a member leaves');
    t.equal(codeOf(await gql('/graphql', LEAVE, { slug: 'peer-forum' }, asNewbie)), 'Groups.NotMember');
    t.equal(codeOf(await gql('/graphql', LEAVE, { slug: 'cfo-circle' }, asChair)), 'Groups.LastChair', 'the only chair stays');
    t.equal(codeOf(await gql('/graphql', LEAVE, { slug: 'cfo-circle' }, asNewbie)), 'Groups.NotFound');

    // Staff.
    const asStaff = bearer(s.staff.token);
    const asBea = { ...bearer(beaSession.token), host: 'beta.test' };
    const rows = (await gql('/graphqlAdmin', '{ adminGroups { id slug visibility chairCount memberCount pendingCount } }', {}, asStaff)).json().data.adminGroups;
    t.same(rows.map((r: { slug: string }) => r.slug), ['cfo-circle', 'new-venture', 'old-board', 'peer-forum']);
    t.not(codeOf(await gql('/graphqlAdmin', '{ adminGroups { id } }', {}, asMember)), undefined, 'members are refused');
    const CREATE = 'mutation ($input: GroupInput!) { groupCreate(input: $input) { id slug visibility about people { userId role } log { action } } }';
    const bad = await gql('/graphqlAdmin', CREATE, { input: { name: 'Nul\u0000', slug: 'Bad Slug', visibility: 'PUBLIC' } }, asStaff);
    t.equal(codeOf(bad), 'Groups.Invalid');
    t.ok(bad.json().errors[0].extensions.fields.name && bad.json().errors[0].extensions.fields.slug, 'each field named');
    t.equal(codeOf(await gql('/graphqlAdmin', CREATE, { input: { name: 'Copy', slug: 'peer-forum', visibility: 'PUBLIC' } }, asStaff)), 'Groups.Invalid', 'a taken slug');
    const made = (await gql('/graphqlAdmin', CREATE, { input: { name: 'Board Room', about: 'Boards.', visibility: 'PRIVATE' } }, asStaff)).json().data.groupCreate;
    t.match(made, { slug: 'board-room', visibility: 'PRIVATE', about: 'Boards.', log: [{ action: 'created' }] });
    const UPDATE = 'mutation ($id: ID!, $input: GroupInput!) { groupUpdate(id: $id, input: $input) { name visibility } }';
    t.same((await gql('/graphqlAdmin', UPDATE, { id: made.id, input: { name: 'Board Room', slug: 'board-room', visibility: 'PUBLIC' } }, asStaff)).json().data.groupUpdate, { name: 'Board Room', visibility: 'PUBLIC' });
    const ADD = 'mutation ($g: ID!, $e: String!, $r: GroupRole!) { groupPeopleAdd(groupId: $g, emails: $e, role: $r) { people { userId role email } } }';
    const unknown = await gql('/graphqlAdmin', ADD, { g: made.id, e: `${member.email}, nobody@example.com`, r: 'MEMBER' }, asStaff);
    t.equal(codeOf(unknown), 'Groups.Invalid', 'an unknown address: nobody added');
    t.equal(codeOf(await gql('/graphqlAdmin', ADD, { g: made.id, e: bea.email, r: 'MEMBER' }, asStaff)), 'Groups.Invalid', "another community's member");
    for (const e of ['\u0000', '\uD800@x.y', 'word '.repeat(20_000)]) t.equal(codeOf(await gql('/graphqlAdmin', ADD, { g: made.id, e, r: 'MEMBER' }, asStaff)), 'Groups.Invalid', 'hostile emails');
    const added = (await gql('/graphqlAdmin', ADD, { g: made.id, e: `${member.email}\n${chair.email}`, r: 'MEMBER' }, asStaff)).json().data.groupPeopleAdd.people;
    t.equal(added.length, 2);
    const ROLE = 'mutation ($g: ID!, $u: ID!, $r: GroupRole!) { groupPersonRole(groupId: $g, userId: $u, role: $r) { people { userId role } } }';
    const roled = (await gql('/graphqlAdmin', ROLE, { g: made.id, u: String(chair.id), r: 'CHAIR' }, asStaff)).json().data.groupPersonRole.people;
    t.same(roled.find((p: { userId: string }) => p.userId === String(chair.id)), { userId: String(chair.id), role: 'CHAIR' });
    t.equal(codeOf(await gql('/graphqlAdmin', ROLE, { g: made.id, u: String(outsider.id), r: 'CHAIR' }, asStaff)), 'Groups.NotFound', 'someone not in the group');
    const REMOVE = 'mutation ($g: ID!, $u: ID!) { groupPersonRemove(groupId: $g, userId: $u) { people { userId } } }';
    t.same((await gql('/graphqlAdmin', REMOVE, { g: made.id, u: String(member.id) }, asStaff)).json().data.groupPersonRemove.people, [{ userId: String(chair.id) }]);
    t.equal(codeOf(await gql('/graphqlAdmin', REMOVE, { g: made.id, u: String(member.id) }, asStaff)), 'Groups.NotFound', 'removing twice');
    // Tenancy: beta's staff see none of alpha's groups, and make their own under the same slug.
    t.same((await gql('/graphqlAdmin', '{ adminGroups { id } }', {}, asBea)).json().data.adminGroups, []);
    for (const q of ['query ($id: ID!) { adminGroup(id: $id) { id } }', 'mutation ($id: ID!) { groupPersonRemove(groupId: $id, userId: "1") { id } }']) t.equal(codeOf(await gql('/graphqlAdmin', q, { id: made.id }, asBea)), 'Groups.NotFound', "alpha's group from beta");
    t.equal(codeOf(await gql('/graphqlAdmin', ADD, { g: made.id, e: bea.email, r: 'MEMBER' }, asBea)), 'Groups.NotFound');
    const betaMade = (await gql('/graphqlAdmin', CREATE, { input: { name: 'Board Room', visibility: 'PUBLIC' } }, asBea)).json().data.groupCreate;
    t.equal(betaMade.slug, 'board-room', 'slugs are unique per community');
    t.equal(codeOf(await gql('/graphqlAdmin', 'query ($id: ID!) { adminGroup(id: $id) { id } }', { id: betaMade.id }, asStaff)), 'Groups.NotFound', "beta's group from alpha");
    t.same((await gql('/graphql', LIST, {}, { ...bearer(beaSession.token), host: 'beta.test' })).json().data.groups.map((g: { slug: string }) => g.slug), ['board-room'], "a member's list is their community's");
    t.notOk(answers.some((a) => a.includes('UnknownError')), 'never UnknownError');
  });

  await t.test('leaving from the page: a member leaves (logged), a private group is then 404; the only chair has no button and is refused', async (t) => {
    t.match((await get('/groups/peer-forum', s.member.cookie)).body, 'Leave the group', 'a member has the button');
    t.notMatch((await get('/groups/cfo-circle', s.chair.cookie)).body, 'Leave the group', 'its only chair has none');
    const left = await post('/groups/cfo-circle/leave', s.member.cookie, {});
    t.equal(left.statusCode, 303);
    t.equal(left.headers.location, '/groups?done=left', 'a private group is no longer theirs to see: back to the list');
    t.match((await get('/groups?done=left', s.member.cookie)).body, 'You left the group.');
    t.equal((await get('/groups/cfo-circle', s.member.cookie)).statusCode, 404);
    t.equal((await post('/groups/cfo-circle/leave', s.member.cookie, {})).statusCode, 404, 'leaving again: it does not exist for them');
    t.equal((await post('/groups/peer-forum/leave', s.outsider.cookie, {})).headers.location, '/groups/peer-forum?done=left', 'a public group: back to it');
    t.equal((await post('/groups/peer-forum/leave', s.outsider.cookie, {})).statusCode, 409, 'not in it any more');
    t.equal((await post('/groups/cfo-circle/leave', s.chair.cookie, {})).statusCode, 409, 'the only chair stays');
    t.match((await get(`/admin/groups/${priv}`, s.staff.cookie)).body, 'Member left', 'logged');
  });
});
