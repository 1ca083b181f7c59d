import t from 'tap';
import { csrfFor, signIn } from '#test/helpers/factories.ts';
import { forumWorld } from '#test/helpers/forum-core.ts';

const POST_FIELDS = 'id title bodyHtml excerpt author { id name isModerator } topics { id name } replyCount likeCount likedByMe followedByMe reportedByMe reactions { reaction count mine } lastActivityAt createdAt editedAt pinned locked status moderationNote';
const CREATE = `mutation C($input: ForumPostInput!) { createForumPost(input: $input) { ${POST_FIELDS} } }`;
const REPLY = 'mutation R($postId: ID!, $body: String) { createForumReply(postId: $postId, body: $body) { id postId bodyHtml status author { name } } }';

t.test('the forum on the member GraphQL schema', async (t) => {
  const w = await forumWorld(t);
  const { app, alpha, off } = w;
  const ada = await w.member(alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const bob = await w.member(alpha, { firstName: 'Bob', lastName: 'Builder', moderator: true });
  const general = await w.topic(alpha, 'General');
  const adaBearer = { authorization: `Bearer ${(await signIn(app, ada, alpha)).token}` };
  const gql = (query: string, variables: object, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });

  await t.test('a member writes, reads, replies, edits and deletes with a bearer token', async (t) => {
    const created = await gql(CREATE, { input: { title: 'Cold storage', body: '<p>Anyone near the port?</p>', topicIds: [String(general)] } }, adaBearer);
    const post = created.json().data?.createForumPost;
    t.equal(post?.title, 'Cold storage', created.body);
    t.equal(post?.status, 'PUBLISHED');
    t.equal(post?.author.name, 'Ada Lovelace');
    t.same(post?.topics, [{ id: String(general), name: 'General' }]);
    t.equal(post?.followedByMe, true, 'the author follows');

    const list = await gql('{ forumPosts(first: 10) { pinned { id } posts { id title excerpt likedByMe bodyHtml author { name } } next } forumTopics { id name } }', {}, adaBearer);
    t.same(list.json().data?.forumPosts.posts, [{ id: post.id, title: 'Cold storage', excerpt: 'Anyone near the port?', likedByMe: false, bodyHtml: null, author: { name: 'Ada Lovelace' } }], list.body);
    t.equal(list.json().data?.forumPosts.next, null);
    t.same(list.json().data?.forumTopics, [{ id: String(general), name: 'General' }]);

    const searched = await gql('query S($q: String) { forumPosts(q: $q) { posts { title } } }', { q: 'port' }, adaBearer);
    t.same(searched.json().data?.forumPosts.posts, [{ title: 'Cold storage' }], 'full-text search');

    const replied = await gql(REPLY, { postId: post.id, body: '<p>Yes, pier 4.</p>' }, adaBearer);
    t.equal(replied.json().data?.createForumReply.bodyHtml, '<p>Yes, pier 4.</p>', replied.body);
    const replies = await gql('query T($id: ID!) { forumReplies(postId: $id) { replies { id bodyHtml likedByMe reactions { reaction } } next } forumPost(id: $id) { replyCount } }', { id: post.id }, adaBearer);
    t.equal(replies.json().data?.forumReplies.replies.length, 1, replies.body);
    t.equal(replies.json().data?.forumPost.replyCount, 1);

    // Read tracking reaches API clients (decision 0065): reading a thread's replies records the visit.
    const bobBearer = { authorization: `Bearer ${(await signIn(app, bob, alpha)).token}` };
    const readState = async () => (await gql('{ forumPosts(first: 10) { posts { id unread newReplyCount repliers { name } } } }', {}, bobBearer)).json().data?.forumPosts.posts;
    t.same(await readState(), [{ id: post.id, unread: true, newReplyCount: 0, repliers: [] }], 'unread for Bob; the author is no replier');
    await gql('query T($id: ID!) { forumReplies(postId: $id) { replies { id } } }', { id: post.id }, bobBearer);
    await gql(REPLY, { postId: post.id, body: '<p>Or pier 6.</p>' }, adaBearer);
    t.same(await readState(), [{ id: post.id, unread: false, newReplyCount: 1, repliers: [] }], 'read, with one new reply since');

    const edited = await gql('mutation E($id: ID!, $input: ForumPostInput!) { editForumPost(id: $id, input: $input) { title editedAt } }', { id: post.id, input: { title: 'Cold storage wanted', body: '<p>Near the port</p>' } }, adaBearer);
    t.equal(edited.json().data?.editForumPost.title, 'Cold storage wanted', edited.body);
    const replyId = replied.json().data.createForumReply.id;
    const editedReply = await gql('mutation E($id: ID!, $body: String) { editForumReply(id: $id, body: $body) { bodyHtml } }', { id: replyId, body: '<p>Pier 5.</p>' }, adaBearer);
    t.equal(editedReply.json().data?.editForumReply.bodyHtml, '<p>Pier 5.</p>');
    const delReply = await gql('mutation D($id: ID!) { deleteForumReply(id: $id) }', { id: replyId }, adaBearer);
    t.equal(delReply.json().data?.deleteForumReply, true);
    const del = await gql('mutation D($id: ID!) { deleteForumPost(id: $id) }', { id: post.id }, adaBearer);
    t.equal(del.json().data?.deleteForumPost, true);
    const gone = await gql(`query P($id: ID!) { forumPost(id: $id) { id } }`, { id: post.id }, adaBearer);
    t.equal(gone.json().errors?.[0]?.extensions?.code, 'Forum.PostNotFound');
    t.equal(gone.json().errors?.[0]?.message, 'Post not found');
  });

  await t.test('a moderator’s deleteForumPost / deleteForumReply on another’s is refused: removeForum, with a reason, is the way', async (t) => {
    const bobBearer = { authorization: `Bearer ${(await signIn(app, bob, alpha)).token}` };
    const post = (await gql(CREATE, { input: { title: 'Ada’s to keep', body: '<p>Mine</p>', topicIds: [String(general)] } }, adaBearer)).json().data.createForumPost;
    const replyId = (await gql(REPLY, { postId: post.id, body: '<p>Also mine</p>' }, adaBearer)).json().data.createForumReply.id;
    const del = await gql('mutation D($id: ID!) { deleteForumPost(id: $id) }', { id: post.id }, bobBearer);
    t.equal(del.json().errors?.[0]?.extensions?.code, 'Forum.UseRemove', del.body);
    const delReply = await gql('mutation D($id: ID!) { deleteForumReply(id: $id) }', { id: replyId }, bobBearer);
    t.equal(delReply.json().errors?.[0]?.extensions?.code, 'Forum.UseRemove', delReply.body);
    const still = await gql('query P($id: ID!) { forumPost(id: $id) { status replyCount } }', { id: post.id }, adaBearer);
    t.same(still.json().data?.forumPost, { status: 'PUBLISHED', replyCount: 1 }, 'both still there');
    const removed = await gql('mutation ($id: ID!) { removeForum(targetKind: POST, id: $id, reason: "Off topic") { status } }', { id: post.id }, bobBearer);
    t.equal(removed.json().data?.removeForum.status, 'removed', removed.body);
  });

  await t.test('errors reach clients as codes with field messages; hostile input is a 4xx', async (t) => {
    const invalid = await gql(CREATE, { input: { title: '', body: `<p>${'x'.repeat(10_001)}</p>`, topicIds: [] } }, adaBearer);
    const error = invalid.json().errors?.[0];
    t.equal(error?.extensions?.code, 'Forum.Invalid');
    t.equal(error?.extensions?.fields?.body?.key, 'forum.errors.bodyTooLong');
    t.same(error?.extensions?.fields?.body?.values, { num: 1 });
    t.equal(invalid.statusCode, 400);
    const hostile = await gql(CREATE, { input: { title: 'Hi\u0000', body: '<p>x</p>', topicIds: [String(general)] } }, adaBearer);
    t.equal(hostile.json().errors?.[0]?.extensions?.code, '150');
    t.equal(hostile.statusCode, 400);
    const badId = await gql('{ forumPost(id: "1 or 1=1") { id } }', {}, adaBearer);
    t.equal(badId.json().errors?.[0]?.extensions?.code, 'Forum.PostNotFound', 'a malformed id is not found');
    const badCursor = await gql('{ forumPosts(after: "@@@") { next } }', {}, adaBearer);
    t.equal(badCursor.json().errors?.[0]?.extensions?.code, 'BadRequest.Validation');
    const empty = await gql(REPLY, { postId: '999999', body: '' }, adaBearer);
    t.ok(empty.statusCode >= 400 && empty.statusCode < 500, `a reply to nothing is a 4xx (${empty.statusCode})`);
    const anon = await gql('{ forumPosts { next } }', {}, {});
    t.equal(anon.json().errors?.[0]?.extensions?.code, 'NotAuthenticated', 'signed out');
  });

  await t.test('a browser writes with its cookie and the CSRF token, never without the token', async (t) => {
    const browser = await csrfFor(app, (await signIn(app, bob, alpha)).cookie, '/');
    const input = { input: { title: 'From the browser', body: '<p>Hello</p>', topicIds: [String(general)] } };
    const noToken = await gql(CREATE, input, { cookie: browser.cookie });
    t.ok(noToken.statusCode === 403 || noToken.json().errors?.[0]?.extensions?.code === 'BadRequest.Csrf', 'refused without the token');
    const viaCookie = await gql(CREATE, input, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    const post = viaCookie.json().data?.createForumPost;
    t.equal(post?.title, 'From the browser', viaCookie.body);
    t.equal(post?.author.isModerator, true, 'the author snapshot says moderator');
    const read = await gql('query P($id: ID!) { forumPost(id: $id) { title } }', { id: post.id }, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.equal(read.json().data?.forumPost.title, 'From the browser');
  });

  await t.test('where the forum is off, every forum operation is NOT_FOUND', async (t) => {
    const offMember = await w.member(off);
    const headers = { host: 'off.test', authorization: `Bearer ${(await signIn(app, offMember, off)).token}` };
    for (const query of ['{ forumPosts { next } }', '{ forumTopics { id } }', '{ forumPost(id: "1") { id } }', '{ forumReplies(postId: "1") { next } }']) {
      const res = await gql(query, {}, headers);
      t.equal(res.json().errors?.[0]?.extensions?.code, 'NotFound', query);
    }
    const write = await gql(CREATE, { input: { title: 'x', body: '<p>x</p>', topicIds: ['1'] } }, headers);
    t.equal(write.json().errors?.[0]?.extensions?.code, 'NotFound', 'createForumPost');
    t.equal(write.statusCode, 404);
  });
});
