import t from 'tap';
import { fixedClock } from '#src/core/clock.ts';
import type { Community } from '#src/db/types.ts';
import { SEND_LIMIT } from '#src/features/conversations/rules.ts';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { addMembership, createCommunity, createMember, csrfFor, signIn, type TestUser } from '#test/helpers/factories.ts';

const html = { accept: 'text/html' };
const MINUTE = 60_000;

t.test('conversations between members who were introduced: pages, GraphQL, notices, blocks, limits, tenancy', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle' });
  const beta = await createCommunity(db, { code: 'beta', app_name: 'Beta Guild', hosts: ['beta.test'] });
  const clock = fixedClock('2026-11-28T12:00:00Z');
  const { app } = await startApp(t, db, { clock });

  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Asker' });
  const bo = await createMember(db, alpha, { firstName: 'Bo', lastName: 'Builder' });
  const cy = await createMember(db, alpha, { firstName: 'Cy', lastName: 'Pending' });
  const di = await createMember(db, alpha, { firstName: 'Di', lastName: 'Declined' });
  const ed = await createMember(db, alpha, { firstName: 'Ed', lastName: 'Gone' });
  const fay = await createMember(db, alpha, { firstName: 'Fay', lastName: 'Stranger' });
  const gil = await createMember(db, alpha, { firstName: 'Gil', lastName: 'Third' });
  const hal = await createMember(db, alpha, { firstName: 'Hal', lastName: 'Hasty' });
  const bea = await createMember(db, beta, { firstName: 'Bea', lastName: 'Beta' });
  await addMembership(db, beta, ada.id);

  const intro = (c: Community, from: TestUser, to: TestUser, status: 'PENDING' | 'APPROVED' | 'DECLINED') =>
    db.insertInto('introduction_requests').values({ community_id: c.id, requester_id: from.id, target_id: to.id, reason: 'We should talk about supply chains.', status }).execute();
  await intro(alpha, ada, bo, 'APPROVED');
  await intro(alpha, ada, cy, 'PENDING');
  await intro(alpha, di, ada, 'DECLINED');
  await intro(alpha, ed, ada, 'APPROVED');
  await intro(alpha, gil, ada, 'APPROVED');
  await intro(alpha, hal, ada, 'APPROVED');
  // Introduced in Beta, not in Alpha: nothing in Alpha.
  await intro(beta, bea, ada, 'APPROVED');
  await db.updateTable('memberships').set({ is_active: false }).where('user_id', '=', ed.id).execute();

  const sessions = new Map<number, string>();
  const cookieOf = async (u: TestUser) => sessions.get(u.id) ?? (sessions.set(u.id, (await signIn(app, u, alpha)).cookie), sessions.get(u.id)!);
  const get = async (url: string, u: TestUser) => app.inject({ url, headers: { ...html, cookie: await cookieOf(u) } });
  const csrf = new Map<number, { cookie: string; token: string }>();
  const post = async (url: string, u: TestUser, form: Record<string, string>) => {
    const c = csrf.get(u.id) ?? (csrf.set(u.id, await csrfFor(app, await cookieOf(u), '/messages/conversations')), csrf.get(u.id)!);
    return app.inject({ method: 'POST', url, headers: { ...html, cookie: c.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ ...form, _csrf: c.token }).toString() });
  };
  const gql = (query: string, variables: object, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });
  const notices = (u: TestUser) => db.selectFrom('notifications').select(['id', 'url', 'message', 'kind']).where('user_id', '=', u.id).where('kind', '=', 'conversations').orderBy('id').execute();
  const mailsTo = (u: TestUser) => app.outbox.messages.filter((m) => m.to === u.email && m.channel === 'email');
  let adaBo = 0;

  await t.test('only members introduced (approved, either way, both active, this community) may converse; anyone else is a 404', async (t) => {
    const open = await get(`/messages/conversations/with/${bo.id}`, ada);
    t.equal(open.statusCode, 200, 'an approved introduction: an empty thread with the form');
    t.match(open.body, 'Conversation with Bo Builder');
    t.match(open.body, `action="/messages/conversations/with/${bo.id}"`);
    t.match(open.body, 'name="_csrf"');
    t.equal((await get(`/messages/conversations/with/${ada.id}`, bo)).statusCode, 200, 'either way');
    for (const [who, u] of [['pending', cy], ['declined', di], ['inactive', ed], ['stranger', fay], ['self', ada], ['another community', bea]] as const) {
      t.equal((await get(`/messages/conversations/with/${u.id}`, ada)).statusCode, 404, `${who}: 404`);
      t.equal((await post(`/messages/conversations/with/${u.id}`, ada, { body: 'Hello there' })).statusCode, 404, `${who}: POST 404`);
    }
    for (const id of ['abc', '0', '-1', '99999999999', '2147483647']) t.equal((await get(`/messages/conversations/with/${id}`, ada)).statusCode, 404, `with/${id}`);
    t.equal((await app.inject({ url: `/messages/conversations/with/${bo.id}`, headers: html })).statusCode, 303, 'signed out: to sign-in');
  });

  await t.test('sending without JavaScript: POST then redirect; escaped, line breaks kept; the recipient is notified once until they read', async (t) => {
    const first = await post(`/messages/conversations/with/${bo.id}`, ada, { body: 'Hi Bo,\r\n<script>alert(1)</script> https://example.com/x' });
    t.equal(first.statusCode, 303, first.body);
    const m = /^\/messages\/conversations\/(\d+)#m\d+$/.exec(String(first.headers.location));
    t.ok(m, String(first.headers.location));
    adaBo = Number(m![1]);
    const again = await get(`/messages/conversations/with/${bo.id}`, ada);
    t.equal(again.statusCode, 303, 'once started, the profile link goes to the conversation');
    t.equal(again.headers.location, `/messages/conversations/${adaBo}#reply`);

    const thread = await get(`/messages/conversations/${adaBo}`, ada);
    t.equal(thread.statusCode, 200);
    t.match(thread.body, 'Hi Bo,\n&lt;script&gt;alert(1)&lt;/script&gt; https://example.com/x', 'escaped, its line break kept');
    t.notMatch(thread.body, '<script>alert(1)');
    t.notMatch(thread.body, 'href="https://example.com/x"', 'links stay text');

    t.equal((await notices(bo)).length, 1, 'a notice for Bo');
    t.equal((await notices(bo))[0]!.url, `/messages/conversations/${adaBo}`);
    t.equal((await notices(bo))[0]!.message, 'Ada Asker sent you a message');
    clock.advance(MINUTE);
    t.equal((await post(`/messages/conversations/${adaBo}`, ada, { body: 'Are you free on Thursday?' })).statusCode, 303);
    t.equal((await notices(bo)).length, 1, 'no second notice while Bo has not read');

    const list = await get('/messages/conversations', bo);
    t.match(list.body, '2 unread messages');
    t.match(list.body, 'Conversations, 1 unread', 'the tab says it in words');
    t.match(list.body, 'Are you free on Thursday?');
    const read = await get(`/messages/conversations/${adaBo}`, bo);
    t.match(read.body, 'Are you free on Thursday?');
    t.notMatch(read.body, 'Conversations, 1 unread', 'opening it reads it');
    t.notMatch((await get('/messages/conversations', bo)).body, 'unread message');

    clock.advance(MINUTE);
    t.equal((await post(`/messages/conversations/${adaBo}`, bo, { body: 'Thursday works.' })).statusCode, 303);
    t.equal((await notices(ada)).length, 1, 'Ada is notified of the reply');
    clock.advance(MINUTE);
    t.equal((await post(`/messages/conversations/${adaBo}`, ada, { body: 'See you then.' })).statusCode, 303);
    t.equal((await notices(bo)).length, 2, 'after reading, a new message notifies again');

    // Email follows the member's preferences: on by default; off once Bo turns it off.
    await app.jobs.drain();
    const mailed = mailsTo(bo).length;
    t.ok(mailed >= 1, 'mailed by default');
    await db.insertInto('notification_preferences').values({ community_id: alpha.id, user_id: bo.id, option: 'conversations', channel: 'email', selected: false }).execute();
    await get(`/messages/conversations/${adaBo}`, bo);
    clock.advance(MINUTE);
    await post(`/messages/conversations/${adaBo}`, ada, { body: 'One more thing.' });
    await app.jobs.drain();
    t.equal((await notices(bo)).length, 3, 'still in the bell');
    t.equal(mailsTo(bo).length, mailed, 'no mail once email is off');
  });

  await t.test('hostile or bad input is a 4xx with the message beside the field and nothing typed lost', async (t) => {
    const url = `/messages/conversations/${adaBo}`;
    const empty = await post(url, ada, { body: '   \n ' });
    t.equal(empty.statusCode, 400);
    t.match(empty.body, 'Write a message before sending.');
    const long = await post(url, ada, { body: `${'word '.repeat(800)}x` });
    t.equal(long.statusCode, 400);
    t.match(long.body, 'Your message is 1 character too long (at most 4,000).');
    t.match(long.body, 'word word word', 'what was typed is kept');
    t.match(long.body, 'aria-invalid="true"');
    t.equal((await post(url, ada, { body: 'nul \u0000 here' })).statusCode, 400, 'NUL');
    t.equal((await post(url, ada, { body: 'bell \u0007 here' })).statusCode, 400, 'a control character');
    t.equal((await post(url, ada, { body: 'x'.repeat(70_000) })).statusCode, 400, 'huge');
    t.equal((await post(url, fay, { body: 'x'.repeat(5000) })).statusCode, 404, 'not her conversation: 404 before anything else');
    t.equal((await get('/messages/conversations?after=garbage!', ada)).statusCode, 400);
    t.equal((await get(`/messages/conversations?after=${Buffer.from('[1,2]').toString('base64url')}`, ada)).statusCode, 400);
    t.equal((await get(`${url}?before=nope!`, ada)).statusCode, 400);
    for (const id of ['abc', '0', '99999999999']) t.equal((await get(`/messages/conversations/${id}`, ada)).statusCode, 404);
    t.equal((await get(url, fay)).statusCode, 404, 'someone else’s conversation');
    const c = await csrfFor(app, await cookieOf(ada), '/messages/conversations');
    const noCsrf = await app.inject({ method: 'POST', url, headers: { ...html, cookie: c.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'body=hi' });
    t.equal(noCsrf.statusCode, 403, 'a cookie POST without the CSRF token');
    const count = await db.selectFrom('conversation_messages').select((eb) => eb.fn.countAll<number>().as('n')).where('conversation_id', '=', adaBo).executeTakeFirstOrThrow();
    t.equal(Number(count.n), 5, 'nothing refused was stored');
  });

  await t.test('blocking: the other can no longer write; the blocker unblocks; no one else can block', async (t) => {
    t.equal((await post(`/messages/conversations/${adaBo}/block`, fay, {})).statusCode, 404);
    t.equal((await post(`/messages/conversations/${adaBo}/block`, bo, {})).statusCode, 303);
    const refused = await post(`/messages/conversations/${adaBo}`, ada, { body: 'Hello?' });
    t.equal(refused.statusCode, 409);
    t.match(refused.body, 'Bo Builder has closed this conversation. You can no longer send messages here.');
    t.notMatch(refused.body, 'name="body"', 'no form while blocked');
    t.match((await get('/messages/conversations', ada)).body, 'Closed by Bo');
    const own = await post(`/messages/conversations/${adaBo}`, bo, { body: 'Oops' });
    t.equal(own.statusCode, 409);
    t.match(own.body, 'You blocked this conversation');
    t.match(own.body, 'Unblock this conversation');
    t.equal((await post(`/messages/conversations/${adaBo}/unblock`, ada, {})).statusCode, 303, 'the other member’s unblock changes nothing');
    t.equal((await post(`/messages/conversations/${adaBo}`, ada, { body: 'Hello?' })).statusCode, 409);
    t.equal((await post(`/messages/conversations/${adaBo}/unblock`, bo, {})).statusCode, 303);
    clock.advance(MINUTE);
    t.equal((await post(`/messages/conversations/${adaBo}`, ada, { body: 'Hello again.' })).statusCode, 303);
  });

  await t.test('the send limit per member, all conversations together', async (t) => {
    const before = (await db.selectFrom('conversation_messages').select((eb) => eb.fn.countAll<number>().as('n')).where('sender_id', '=', hal.id).executeTakeFirstOrThrow()).n;
    t.equal(Number(before), 0);
    for (let i = 0; i < SEND_LIMIT; i++) t.equal((await post(`/messages/conversations/with/${ada.id}`, hal, { body: `Note ${i}` })).statusCode, 303);
    const tooMany = await post(`/messages/conversations/with/${ada.id}`, hal, { body: 'One too many' });
    t.equal(tooMany.statusCode, 429);
    t.match(tooMany.body, `You have sent ${SEND_LIMIT} messages in the last 10 minutes`);
    t.match(tooMany.body, 'One too many', 'kept');
    clock.advance(11 * MINUTE);
    t.equal((await post(`/messages/conversations/with/${ada.id}`, hal, { body: 'Later' })).statusCode, 303);
    t.equal((await notices(ada)).filter((n) => n.message.startsWith('Hal')).length, 1, 'twenty-two messages, one notice');
  });

  await t.test('GraphQL: bearer and cookie clients; keyset list, thread, start, send, read, block; tenancy', async (t) => {
    const LIST = 'query ($first: Int, $after: String) { conversations(first: $first, after: $after) { unreadCount edges { cursor node { id unread state lastFromMe excerpt with { id name } } } pageInfo { hasNextPage endCursor } } }';
    const ONE = 'query ($id: ID!) { conversation(id: $id) { conversation { id unread } messages { body fromMe } earlierCursor } }';
    const START = 'mutation ($userId: ID!, $body: String!) { conversationStart(userId: $userId, body: $body) { conversation { id state with { name } } message { body fromMe } } }';
    const SEND = 'mutation ($id: ID!, $body: String!) { conversationSend(id: $id, body: $body) { message { id body } } }';
    const READ = 'mutation ($id: ID!) { conversationMarkRead(id: $id) { id unread } }';
    const BLOCK = 'mutation ($id: ID!) { conversationBlock(id: $id) { state } }';
    const UNBLOCK = 'mutation ($id: ID!) { conversationUnblock(id: $id) { state } }';
    const asAda = { authorization: `Bearer ${(await signIn(app, ada, alpha)).token}` };
    const asGil = { authorization: `Bearer ${(await signIn(app, gil, alpha)).token}` };

    clock.advance(MINUTE);
    const started = await gql(START, { userId: String(ada.id), body: 'Hello Ada, Gil here.' }, asGil);
    t.equal(started.json().data?.conversationStart.conversation.with.name, 'Ada Asker', started.body);
    const gilAda = started.json().data.conversationStart.conversation.id;
    for (const [who, id] of [['stranger', fay.id], ['pending', cy.id], ['another community', bea.id], ['not an id', 'abc']] as const) {
      const res = await gql(START, { userId: String(id), body: 'Hi' }, asGil);
      t.equal(res.json().errors?.[0]?.extensions?.code, 'Conversations.NotFound', `${who}: ${res.body}`);
    }

    const first = await gql(LIST, { first: 2 }, asAda);
    const conn = first.json().data?.conversations;
    t.equal(conn?.edges.length, 2, first.body);
    t.equal(conn.edges[0].node.id, gilAda, 'newest activity first');
    t.equal(conn.edges[0].node.unread, 1);
    t.ok(conn.unreadCount >= 2, 'Gil’s and Hal’s');
    t.equal(conn.pageInfo.hasNextPage, true);
    const next = await gql(LIST, { first: 2, after: conn.pageInfo.endCursor }, asAda);
    const ids = [...conn.edges, ...next.json().data.conversations.edges].map((e: { node: { id: string } }) => e.node.id);
    t.equal(new Set(ids).size, 3, 'three conversations, none twice');
    t.equal(next.json().data.conversations.pageInfo.hasNextPage, false);
    t.equal((await gql(LIST, { after: 'garbage!' }, asAda)).json().errors?.[0]?.extensions?.code, 'BadRequest.Validation');

    const thread = await gql(ONE, { id: gilAda }, asAda);
    t.same(thread.json().data?.conversation.messages, [{ body: 'Hello Ada, Gil here.', fromMe: false }], thread.body);
    t.equal(thread.json().data.conversation.conversation.unread, 1, 'reading by the query does not mark read');
    t.equal((await gql(READ, { id: gilAda }, asAda)).json().data?.conversationMarkRead.unread, 0);
    for (const id of [String(adaBo), 'abc', '0']) t.equal((await gql(ONE, { id }, asGil)).json().errors?.[0]?.extensions?.code, 'Conversations.NotFound', `conversation(${id})`);
    t.equal((await gql(SEND, { id: gilAda, body: 'x\u0000' }, asAda)).json().errors?.[0]?.extensions?.code, '150', 'NUL refused');
    t.equal((await gql(SEND, { id: gilAda, body: 'x'.repeat(4001) }, asAda)).json().errors?.[0]?.extensions?.code, 'Conversations.Invalid');

    t.equal((await gql(BLOCK, { id: gilAda }, asAda)).json().data?.conversationBlock.state, 'BLOCKED_BY_ME');
    t.equal((await gql(SEND, { id: gilAda, body: 'Still there?' }, asGil)).json().errors?.[0]?.extensions?.code, 'Conversations.Blocked');
    t.equal((await gql(UNBLOCK, { id: gilAda }, asAda)).json().data?.conversationUnblock.state, 'OPEN');

    const browser = await csrfFor(app, await cookieOf(ada), '/');
    t.equal((await gql(SEND, { id: gilAda, body: 'Hi Gil' }, { cookie: browser.cookie })).statusCode, 403, 'a cookie without CSRF is refused');
    const viaCookie = await gql(SEND, { id: gilAda, body: 'Hi Gil' }, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.equal(viaCookie.json().data?.conversationSend.message.body, 'Hi Gil', viaCookie.body);

    // Ada is a member of Beta too: her Alpha conversations are not there, and Beta's introduction works there only.
    const adaBeta = { authorization: `Bearer ${(await signIn(app, ada, beta)).token}`, host: 'beta.test' };
    t.same((await gql(LIST, {}, adaBeta)).json().data?.conversations.edges, [], 'nothing of Alpha in Beta');
    t.equal((await gql(ONE, { id: gilAda }, adaBeta)).json().errors?.[0]?.extensions?.code, 'Conversations.NotFound');
    t.ok((await gql(START, { userId: String(bea.id), body: 'Hello Bea' }, adaBeta)).json().data?.conversationStart, 'introduced in Beta: may write there');
    t.equal((await gql(READ, { id: gilAda }, adaBeta)).json().errors?.[0]?.extensions?.code, 'Conversations.NotFound');
  });

  await t.test('the profile shows the Message link only between members who were introduced', async (t) => {
    t.match((await get(`/profile/${bo.id}`, ada)).body, `href="/messages/conversations/with/${bo.id}"`);
    t.match((await get(`/profile/${ada.id}`, gil)).body, `href="/messages/conversations/with/${ada.id}"`, 'either way');
    for (const u of [cy, di, fay]) t.notMatch((await get(`/profile/${u.id}`, ada)).body, '/messages/conversations/with/', `${u.firstName}: no link`);
    t.notMatch((await get(`/profile/${ada.id}`, ada)).body, '/messages/conversations/with/', 'not on one’s own profile');
  });
});
