import t from 'tap';
import { fixedClock } from '#src/core/clock.ts';
import { jobDeps, type MessagesDeps } from '#src/features/messages/deps.ts';
import { countMessageAudience, blankMessageForm, cancelMessage, createMessage, getStaffMessage, scheduleMessage, sendMessage } from '#src/features/messages/compose.ts';
import { runSendBatch, sendDueMessages, SEND_JOB } from '#src/features/messages/delivery.ts';
import { listInbox } from '#src/features/messages/inbox.ts';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';

const html = { accept: 'text/html' };

t.test('messages from the team: audience, delivery exactly once, inbox, pages, GraphQL, tenancy', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle' });
  const beta = await createCommunity(db, { code: 'beta', app_name: 'Beta Guild', hosts: ['beta.test'] });
  const clock = fixedClock('2026-11-21T12:00:00Z');
  const { app } = await startApp(t, db, { clock });

  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const bob = await createMember(db, alpha, { firstName: 'Bob', lastName: 'Founder' });
  await db.updateTable('memberships').set({ is_founding: true, membership_tier: 'Premier', industry: 'Accounting' }).where('user_id', '=', bob.id).execute();
  const cy = await createMember(db, alpha, { firstName: 'Cy', lastName: 'Gone', active: false });
  const staff = await createMember(db, alpha, { firstName: 'Sam', lastName: 'Staff', roles: ['ADMIN'] });
  const bea = await createMember(db, beta, { firstName: 'Bea', lastName: 'Beta' });
  const betaStaff = await createMember(db, beta, { firstName: 'Bo', lastName: 'Staff', roles: ['ADMIN'] });

  const deps: MessagesDeps = jobDeps(app, alpha);
  const betaDeps: MessagesDeps = jobDeps(app, beta);
  const asStaff = { userId: staff.id, isStaff: true };
  const form = (over: Partial<ReturnType<typeof blankMessageForm>> = {}) => ({ ...blankMessageForm(), subject: 'Hello', body: 'Dear members,\n\nA **note**.', ...over });
  const recipients = async (messageId: number) => (await db.selectFrom('message_recipients').select(['user_id', 'state', 'community_id']).where('message_id', '=', messageId).orderBy('user_id').execute());
  const notificationsOf = async (userId: number) => (await db.selectFrom('notifications').select(['id', 'url', 'shown']).where('user_id', '=', userId).where('kind', '=', 'team_messages').execute());
  const drain = () => app.jobs.drain();

  const adaSession = await signIn(app, ada, alpha);
  const staffSession = await signIn(app, staff, alpha, ['ADMIN']);
  const get = (url: string, cookie: string) => app.inject({ url, headers: { ...html, cookie } });
  const post = async (url: string, cookie: string, fields: Record<string, string>) => {
    const c = await csrfFor(app, cookie, '/messages');
    return app.inject({ method: 'POST', url, headers: { ...html, cookie: c.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ ...fields, _csrf: c.token }).toString() });
  };
  const gql = (url: string, query: string, variables: object, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });

  await t.test('the audience by kind: active members of this community only; pasted strangers are named', async (t) => {
    t.equal(await countMessageAudience(deps, asStaff, form()), 3, 'the community: Ada, Bob, Sam (not the deactivated Cy, not Beta)');
    t.equal(await countMessageAudience(deps, asStaff, form({ audienceKind: 'filter', founding: 'yes' })), 1, 'founding');
    t.equal(await countMessageAudience(deps, asStaff, form({ audienceKind: 'filter', tier: 'Premier', industry: 'Accounting', location: 'austin' })), 1, 'tier, industry, location');
    t.equal(await countMessageAudience(deps, asStaff, form({ audienceKind: 'emails', emails: `${ada.email}, ${bob.email.toUpperCase()}` })), 2, 'emails, any case');
    await t.rejects(countMessageAudience(deps, asStaff, form({ audienceKind: 'emails', emails: `${ada.email}\n${cy.email}\n${bea.email}\nnobody@example.com` })), { code: 'Messages.Invalid', fields: { emails: { values: { count: 3, list: `${cy.email}, ${bea.email}, nobody@example.com` } } } });
    // A group (through the groups area's face): its active people only; another community's group is refused.
    const group = await db.insertInto('groups').values({ community_id: alpha.id, name: 'Founders', slug: 'founders', visibility: 'private' }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('group_members').values([ada, bob, cy].map((m, i) => ({ community_id: alpha.id, group_id: group.id, user_id: m.id, role: i === 0 ? ('chair' as const) : ('member' as const) }))).execute();
    const betaGroup = await db.insertInto('groups').values({ community_id: beta.id, name: 'Beta group', slug: 'beta-group', visibility: 'public' }).returning('id').executeTakeFirstOrThrow();
    t.equal(await countMessageAudience(deps, asStaff, form({ audienceKind: 'group', groupId: String(group.id) })), 2, 'a group: its chair and member (not the deactivated Cy)');
    await t.rejects(countMessageAudience(deps, asStaff, form({ audienceKind: 'group', groupId: String(betaGroup.id) })), { code: 'Messages.Invalid', fields: { groupId: {} } }, "another community's group is not a choice");
    await t.rejects(countMessageAudience(deps, asStaff, form({ audienceKind: 'group', groupId: '' })), { code: 'Messages.Invalid', fields: { groupId: {} } }, 'a group must be chosen');
    await t.rejects(countMessageAudience(deps, { userId: ada.id, isStaff: false }, form()), { code: 'Forbidden' });
    await t.rejects(createMessage(deps, asStaff, form({ subject: 'a\u0000b' })), { code: 'Messages.Invalid', fields: { subject: {} } });
  });

  await t.test('send: a crash mid-batch sends nobody anything twice; deactivated and other communities never receive it', async (t) => {
    const id = await createMessage(deps, asStaff, form({ subject: 'Crash test' }));
    await db.updateTable('memberships').set({ is_active: true }).where('user_id', '=', cy.id).execute();
    await sendMessage(deps, asStaff, id);
    t.equal(await runSendBatch(deps, id, { batchSize: 2 }), 'prepared');
    t.equal((await recipients(id)).length, 4, 'the audience written once (Cy was active when it started)');
    await db.updateTable('memberships').set({ is_active: false }).where('user_id', '=', cy.id).execute();
    let calls = 0;
    const crashing: MessagesDeps = {
      ...deps,
      notifier: {
        notify: async (trx, input) => {
          calls += 1;
          if (calls === 2) throw new Error('the process died');
          return deps.notifier.notify(trx, input);
        },
      } as MessagesDeps['notifier'],
    };
    await t.rejects(runSendBatch(crashing, id, { batchSize: 2 }), /died/);
    t.same((await recipients(id)).map((r) => r.state), ['pending', 'pending', 'pending', 'pending'], 'the crashed batch left nothing behind');
    t.equal((await notificationsOf(ada.id)).length, 0, 'and no notification');
    t.equal(await runSendBatch(deps, id, { batchSize: 2 }), 'batch');
    t.equal(await runSendBatch(deps, id, { batchSize: 2 }), 'sent', 'the second batch: Cy (deactivated since) skipped, Sam delivered');
    t.equal(await runSendBatch(deps, id, { batchSize: 2 }), 'idle', 'a batch run again does nothing');
    await drain();
    for (const u of [ada, bob, staff]) t.equal((await notificationsOf(u.id)).length, 1, `one notification for ${u.firstName}`);
    t.equal((await notificationsOf(cy.id)).length, 0, 'none for the deactivated member');
    t.equal((await notificationsOf(bea.id)).length, 0, 'none in another community');
    t.same((await recipients(id)).map((r) => r.state), ['delivered', 'delivered', 'skipped', 'delivered']);
    const m = await getStaffMessage(deps, asStaff, id);
    t.equal(m.status, 'SENT');
    t.same(m.events.map((e) => `${e.from}>${e.to}`).reverse(), ['null>DRAFT', 'DRAFT>SENDING', 'SENDING>SENT'], 'each change logged');
    t.equal(m.figures.delivered, 3);
    t.equal(m.figures.emailed, 3, 'emailed (the kind is on by email by default)');
    await t.rejects(cancelMessage(deps, asStaff, id), { code: 'Messages.BadMove' }, 'a sent message cannot be cancelled');
    await t.rejects(getStaffMessage(betaDeps, { userId: betaStaff.id, isStaff: true }, id), { code: 'Messages.NotFound' }, "another community's staff never see it");
  });

  await t.test('channel preferences and unsubscribe are honoured: no email for a member who turned it off', async (t) => {
    await db.insertInto('notification_preferences').values({ community_id: alpha.id, user_id: bob.id, option: 'team_messages', channel: 'email', selected: false }).execute();
    await db.insertInto('notification_preferences').values({ community_id: alpha.id, user_id: bob.id, option: 'team_messages', channel: 'web', selected: false }).execute();
    const id = await createMessage(deps, asStaff, form({ subject: 'Preferences', audienceKind: 'filter', founding: '' }));
    await sendMessage(deps, asStaff, id);
    await drain();
    const bobs = await db.selectFrom('message_recipients as r').innerJoin('notification_deliveries as d', 'd.notification_id', 'r.notification_id').select('d.channel').where('r.message_id', '=', id).where('r.user_id', '=', bob.id).execute();
    t.same(bobs, [], 'no email to Bob');
    const [n] = (await notificationsOf(bob.id)).filter((x) => x.url === `/messages/team/${id}`);
    t.equal(n?.shown, false, 'nor on the bell; the message is still in his messages');
    t.equal((await getStaffMessage(deps, asStaff, id)).figures.emailed, 2, 'Ada and Sam emailed');
    const mail = await db.selectFrom('notification_deliveries').select('channel').where('user_id', '=', ada.id).where('channel', '=', 'email').execute();
    t.ok(mail.length >= 2, 'Ada keeps her emails');
  });

  await t.test('scheduling: picked up when due; cancelled or early, never', async (t) => {
    const id = await createMessage(deps, asStaff, form({ subject: 'Next week' }));
    await t.rejects(scheduleMessage(deps, asStaff, id, '2026-11-20T09:00'), { code: 'Messages.Invalid', fields: { scheduledAt: { key: 'messagesAdmin.errors.schedulePast' } } });
    for (const impossible of ['2027-02-31T09:00', '2026-11-28T24:00', '2026-11-31T09:00Z'])
      await t.rejects(scheduleMessage(deps, asStaff, id, impossible), { code: 'Messages.Invalid', fields: { scheduledAt: { key: 'messagesAdmin.errors.scheduleInvalid' } } }, `${impossible} is not read as another day`);
    t.equal((await getStaffMessage(deps, asStaff, id)).status, 'DRAFT', 'nothing scheduled by an impossible date');
    await scheduleMessage(deps, asStaff, id, '2026-11-28T09:00');
    t.equal((await getStaffMessage(deps, asStaff, id)).status, 'SCHEDULED');
    t.equal(await sendDueMessages(deps), 0, 'not yet');
    const later = { ...deps, clock: fixedClock('2026-11-28T09:01:00Z') };
    const other = await createMessage(deps, asStaff, form({ subject: 'Cancelled one' }));
    await scheduleMessage(deps, asStaff, other, '2026-11-28T09:00');
    await cancelMessage(deps, asStaff, other);
    t.equal(await sendDueMessages(later), 1, 'the due one starts sending; the cancelled one does not');
    await drain();
    const m = await getStaffMessage(deps, asStaff, id);
    t.equal(m.status, 'SENT');
    t.same(m.events.map((e) => e.to).reverse(), ['DRAFT', 'SCHEDULED', 'SENDING', 'SENT']);
    t.equal((await getStaffMessage(deps, asStaff, other)).status, 'CANCELLED');
  });

  await t.test('the member inbox: newest first, keyset pages, unread; opening marks read; nothing of others', async (t) => {
    const viewer = { userId: ada.id, isStaff: false };
    const first = await listInbox(deps, viewer, { first: 2 });
    t.same(first.items.map((i) => i.subject), ['Next week', 'Preferences']);
    t.equal(first.unread, 3);
    const second = await listInbox(deps, viewer, { first: 2, after: first.next });
    t.same(second.items.map((i) => i.subject), ['Crash test']);
    t.equal(second.next, null);
    await t.rejects(listInbox(deps, viewer, { after: 'not-a-cursor!' }), { code: 'BadRequest.Validation' });

    const page = await get('/messages', adaSession.cookie);
    t.equal(page.statusCode, 200);
    t.match(page.body, 'From the team, 3 unread');
    t.match(page.body, 'You have 3 unread messages from the team.');
    t.notMatch(page.body, 'data-island="(?!NotificationBell)', 'no island of its own');
    const id = first.items[0]!.id;
    const one = await get(`/messages/team/${id}`, adaSession.cookie);
    t.equal(one.statusCode, 200);
    t.match(one.body, '<strong>note</strong>');
    t.match(one.body, 'From the team, 2 unread', 'opening it marked it read');
    t.equal((await get('/messages/team/999999', adaSession.cookie)).statusCode, 404);
    t.equal((await get('/messages/team/abc', adaSession.cookie)).statusCode, 404);
    t.equal((await get('/messages?after=%00%01', adaSession.cookie)).statusCode, 400, 'a hostile cursor is a 400');
    const beaSession = await signIn(app, bea, beta);
    t.equal((await app.inject({ url: `/messages/team/${id}`, headers: { ...html, cookie: beaSession.cookie, host: 'beta.test' } })).statusCode, 404, 'another community: not found');
  });

  await t.test('staff pages without JavaScript: count, refusals keep what was typed, send, cancel', async (t) => {
    const cookie = staffSession.cookie;
    t.equal((await get('/admin/messages', adaSession.cookie)).statusCode, 303, 'a member is sent to the admin sign-in');
    const list = await get('/admin/messages', cookie);
    t.equal(list.statusCode, 200);
    t.match(list.body, 'Crash test');
    t.match(list.body, '3 delivered, ');
    t.equal((await get('/admin/messages?after=9999999999', cookie)).statusCode, 400, 'a page cursor beyond any id is a 400, not a 500');
    t.equal((await get('/admin/messages?after=0', cookie)).statusCode, 400);
    t.match((await get('/admin', cookie)).body, 'href="/admin/messages"', 'the admin home lists it');
    t.equal((await get('/admin/messages/new', cookie)).statusCode, 200);
    const counted = await post('/admin/messages', cookie, { intent: 'count', subject: 'Typed', body: 'Kept', audienceKind: 'filter', founding: 'yes' });
    t.equal(counted.statusCode, 200);
    t.match(counted.body, 'This message would go to 1 member.');
    t.match(counted.body, 'value="Typed"');
    const refused = await post('/admin/messages', cookie, { intent: 'send', subject: 'Typed', body: 'Kept body', audienceKind: 'emails', emails: `${ada.email}\nstranger@example.com` });
    t.equal(refused.statusCode, 400);
    t.match(refused.body, 'This address is not an active member of the community: stranger@example.com');
    t.match(refused.body, 'Kept body');
    t.equal(await db.selectFrom('team_messages').select('id').where('subject', '=', 'Typed').executeTakeFirst(), undefined, 'nothing saved');
    const hostile = await post('/admin/messages', cookie, { intent: 'save', subject: 'x'.repeat(20_000), body: 'b' });
    t.equal(hostile.statusCode, 400, 'a huge value is a 400');
    const nul = await post('/admin/messages', cookie, { intent: 'save', subject: 'a\u0000', body: 'b\u0007' });
    t.equal(nul.statusCode, 400, 'control characters are a 400');
    const sent = await post('/admin/messages', cookie, { intent: 'send', subject: 'From the page', body: 'Hi', audienceKind: 'emails', emails: ada.email });
    t.equal(sent.statusCode, 303);
    const path = sent.headers.location as string;
    t.match(path, /\/admin\/messages\/\d+\?done=sending/);
    await drain();
    t.match((await get(path, cookie)).body, 'Status: Sent.');
    const draft = await post('/admin/messages', cookie, { intent: 'save', subject: 'A draft', body: 'Hi', audienceKind: 'community' });
    const draftPath = (draft.headers.location as string).split('?')[0]!;
    const cancelled = await post(`${draftPath}/cancel`, cookie, {});
    t.equal(cancelled.statusCode, 303);
    t.match((await get(draftPath, cookie)).body, 'Status: Cancelled.');
    const c = await csrfFor(app, cookie, '/admin/messages');
    const noCsrf = await app.inject({ method: 'POST', url: '/admin/messages', headers: { ...html, cookie: c.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'intent=save&subject=x&body=y' });
    t.equal(noCsrf.statusCode, 403, 'a cookie POST without the CSRF token is refused');
  });

  await t.test('GraphQL: bearer and cookie clients; staff compose, count, send; members list and mark read', async (t) => {
    const asStaffBearer = { authorization: `Bearer ${staffSession.token}` };
    const count = await gql('/graphqlAdmin', 'query ($a: TeamMessageAudienceInput!) { staffTeamMessageAudienceCount(audience: $a) }', { a: { kind: 'FILTER', founding: true } }, asStaffBearer);
    t.equal(count.json().data?.staffTeamMessageAudienceCount, 1);
    const composed = await gql('/graphqlAdmin', 'mutation ($i: TeamMessageInput!) { staffTeamMessageCompose(input: $i) { id status audienceCount bodyHtml } }', { i: { subject: 'Via API', bodyHtml: '<p>Hi <script>x</script><strong>all</strong></p>', audience: { kind: 'COMMUNITY' } } }, asStaffBearer);
    const created = composed.json().data?.staffTeamMessageCompose;
    t.equal(created?.status, 'DRAFT');
    t.equal(created?.bodyHtml, '<p>Hi <strong>all</strong></p>', 'sanitised');
    const browser = await csrfFor(app, staffSession.cookie, '/admin/messages');
    const send = 'mutation ($id: ID!) { staffTeamMessageSend(id: $id) { status } }';
    t.equal((await gql('/graphqlAdmin', send, { id: created.id }, { cookie: browser.cookie })).statusCode, 403, 'a cookie without CSRF is refused');
    const viaCookie = await gql('/graphqlAdmin', send, { id: created.id }, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.equal(viaCookie.json().data?.staffTeamMessageSend.status, 'SENDING');
    await drain();
    const listed = await gql('/graphqlAdmin', '{ staffTeamMessages { rows { id subject status audienceCount figures { delivered read } } } }', {}, asStaffBearer);
    t.match(listed.json().data.staffTeamMessages.rows[0], { subject: 'Via API', status: 'SENT', audienceCount: 3, figures: { delivered: 3 } });

    const asAda = { authorization: `Bearer ${adaSession.token}` };
    const inbox = await gql('/graphql', '{ teamMessages(first: 1) { unreadCount edges { node { id subject read } } pageInfo { hasNextPage endCursor } } }', {}, asAda);
    const conn = inbox.json().data.teamMessages;
    t.equal(conn.edges[0].node.subject, 'Via API');
    t.equal(conn.pageInfo.hasNextPage, true);
    const marked = await gql('/graphql', 'mutation ($id: ID!) { teamMessageMarkRead(id: $id) { read readAt } }', { id: conn.edges[0].node.id }, asAda);
    t.equal(marked.json().data.teamMessageMarkRead.read, true);
    const bad = await gql('/graphql', '{ teamMessages(after: "\\u0000") { unreadCount } }', {}, asAda);
    t.equal(bad.json().errors?.[0]?.extensions?.code, 'BadRequest.Validation', 'a hostile cursor is refused');
    const notStaff = await gql('/graphqlAdmin', '{ staffTeamMessages { rows { id } } }', {}, asAda);
    t.ok(notStaff.json().errors, 'members cannot use the staff operations');
    const beyond = await gql('/graphqlAdmin', '{ staffTeamMessages(after: "99999999999") { nextAfter } }', {}, asStaffBearer);
    t.equal(beyond.json().errors?.[0]?.extensions?.code, 'BadRequest.Validation', 'a page cursor beyond any id is refused, not an UnknownError');
  });
});
