import t, { type Test } from 'tap';
import { AppError } from '#src/core/errors.ts';
import {
  approveIntroduction,
  DAILY_CAP,
  declineIntroduction,
  introductionQueue,
  listMyIntroductions,
  requestIntroduction,
  type IntroDeps,
} from '#src/features/members/introductions.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';

const REASON = 'We both run logistics companies in Texas and could share warehousing.';

async function rejects(t: Test, p: Promise<unknown>, code: string | number, message: string) {
  try {
    await p;
    t.fail(`${message}: expected ${code}`);
  } catch (e) {
    t.ok(e instanceof AppError, `${message}: an AppError`);
    t.equal((e as AppError).code, code, message);
    return e as AppError;
  }
  return null;
}

t.test('introductions', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'] });
  const { app } = await startApp(t, db, { clock });
  const deps: IntroDeps = {
    db,
    clock,
    community: alpha,
    t: app.t,
    messages: app.messages,
    publicUrl: `${app.config.publicUrl}${app.config.basePath}`,
    mailFrom: app.config.mailFrom,
    notifier: app.notifications,
  };

  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace', companyName: 'Analytical Engines' });
  const bob = await createMember(db, alpha, { firstName: 'Bob', lastName: 'Builder', companyName: 'Builder & Sons' });
  const cy = await createMember(db, alpha, { firstName: 'Cy', lastName: 'Young' });
  const gone = await createMember(db, alpha, { firstName: 'Gone', lastName: 'Away', active: false });
  const staff = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Sam', lastName: 'Staff' });
  const betaMember = await createMember(db, beta, { firstName: 'Bea', lastName: 'Other' });
  const betaStaff = await createMember(db, beta, { roles: ['ADMIN', 'MEMBER'], firstName: 'Ben', lastName: 'Betastaff' });

  const openCount = async () => Number((await db.selectFrom('introduction_requests').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'PENDING').executeTakeFirstOrThrow()).n);

  await t.test('rules: create, one open per pair in both directions, not oneself, tenancy, deactivated', async (t) => {
    const created = await requestIntroduction(deps, ada.id, { targetId: bob.id, reason: `  ${REASON}  ` });
    t.equal(created.status, 'PENDING');
    t.equal(created.reason, REASON, 'trimmed');
    t.equal(created.target.name, 'Bob Builder');
    t.equal(created.requester.id, ada.id);

    let e = await rejects(t, requestIntroduction(deps, ada.id, { targetId: bob.id, reason: REASON }), 'Introductions.OpenRequest', 'the same pair again');
    t.equal(app.t(e!.fields!.reason!.key, e!.fields!.reason!.values), 'You already asked to be introduced to Bob Builder; the community team is reviewing that request.');
    e = await rejects(t, requestIntroduction(deps, bob.id, { targetId: ada.id, reason: REASON }), 'Introductions.OpenRequest', 'the other direction');
    t.equal(app.t(e!.fields!.reason!.key, e!.fields!.reason!.values), 'Ada Lovelace has already asked to be introduced to you; the community team is reviewing that request.');

    await rejects(t, requestIntroduction(deps, ada.id, { targetId: ada.id, reason: REASON }), 'Introductions.Self', 'not oneself');
    await rejects(t, requestIntroduction(deps, ada.id, { targetId: betaMember.id, reason: REASON }), 'NotFound', 'another community’s member is not found');
    await rejects(t, requestIntroduction(deps, ada.id, { targetId: gone.id, reason: REASON }), 'NotFound', 'a deactivated member is refused');
    await rejects(t, requestIntroduction(deps, ada.id, { targetId: 999999, reason: REASON }), 'NotFound', 'no one');
    await rejects(t, requestIntroduction(deps, gone.id, { targetId: ada.id, reason: REASON }), 'Forbidden', 'a deactivated member cannot ask');

    e = await rejects(t, requestIntroduction(deps, ada.id, { targetId: cy.id, reason: '   ' }), 'Introductions.Invalid', 'empty reason');
    t.equal(app.t(e!.fields!.reason!.key, e!.fields!.reason!.values), 'Please tell us why you would like to meet Cy Young.');
    await rejects(t, requestIntroduction(deps, ada.id, { targetId: cy.id, reason: 'too short' }), 'Introductions.Invalid', 'short reason');
    await rejects(t, requestIntroduction(deps, ada.id, { targetId: cy.id, reason: 'x'.repeat(1001) }), 'Introductions.Invalid', 'long reason');
    await rejects(t, requestIntroduction(deps, ada.id, { targetId: cy.id, reason: `${REASON}\u0000` }), 150, 'a NUL byte');
    t.equal(await openCount(), 1, 'only the first request exists');
  });

  await t.test('decline: the requester gets the reason by mail; a new request is then allowed; no second review', async (t) => {
    const [open] = (await introductionQueue(deps)).pending;
    await rejects(t, declineIntroduction(deps, staff.id, open!.id, '  '), 'Introductions.Invalid', 'a decline needs a reason');
    const declined = await declineIntroduction(deps, staff.id, open!.id, 'Bob is not taking introductions this quarter.');
    t.equal(declined.status, 'DECLINED');
    t.equal(declined.reviewNote, 'Bob is not taking introductions this quarter.');
    t.equal(declined.reviewer?.name, 'Sam Staff');
    await app.jobs.drain();
    const mail = app.outbox.latestTo(ada.email, 'email');
    t.match(mail?.subject, 'your introduction request to Bob Builder');
    t.match(mail?.text, 'Bob is not taking introductions this quarter.');
    t.notOk(app.outbox.latestTo(bob.email, 'email'), 'the target is not told of a decline');
    await rejects(t, approveIntroduction(deps, staff.id, open!.id, null), 'Introductions.AlreadyReviewed', 'no second review');
    await rejects(t, declineIntroduction(deps, staff.id, open!.id, 'again'), 'Introductions.AlreadyReviewed', 'nor a second decline');
    const actions = await db.selectFrom('staff_actions').selectAll().where('community_id', '=', alpha.id).execute();
    t.same(
      actions.map((a) => [a.action, a.actor_id, a.member_id]),
      [['introduction.decline', staff.id, ada.id]],
    );
    const again = await requestIntroduction(deps, bob.id, { targetId: ada.id, reason: REASON });
    t.equal(again.status, 'PENDING', 'after a decline a new request of the pair is allowed');
  });

  await t.test('approve: both members receive the introduction, once; concurrent reviews: one wins', async (t) => {
    const [open] = (await introductionQueue(deps)).pending;
    const results = await Promise.allSettled([approveIntroduction(deps, staff.id, open!.id, 'You two should talk about warehousing.'), declineIntroduction(deps, staff.id, open!.id, 'no')]);
    t.equal(results.filter((r) => r.status === 'fulfilled').length, 1, 'only one review wins');
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    t.equal((lost.reason as AppError).code, 'Introductions.AlreadyReviewed');
    const row = await db.selectFrom('introduction_requests').selectAll().where('id', '=', open!.id).executeTakeFirstOrThrow();
    await app.jobs.drain();
    if (row.status === 'APPROVED') {
      const toAda = app.outbox.latestTo(ada.email, 'email')!;
      const toBob = app.outbox.latestTo(bob.email, 'email')!;
      t.match(toAda.subject, 'meet Bob Builder');
      t.match(toAda.text, 'Builder & Sons');
      t.match(toAda.text, bob.email);
      t.match(toAda.text, 'Bob Builder asked for this introduction');
      t.match(toAda.text, REASON);
      t.match(toAda.text, 'You two should talk about warehousing.');
      t.match(toBob.subject, 'meet Ada Lovelace');
      t.match(toBob.text, 'Analytical Engines');
      t.match(toBob.text, ada.email);
      t.match(toBob.text, 'You asked for this introduction');
    } else {
      t.equal(row.status, 'DECLINED');
      t.match(app.outbox.latestTo(ada.email, 'email')?.text, 'no', 'the decline mail went out instead');
    }
  });

  await t.test('approve sends two introduction mails and records the action', async (t) => {
    const req = await requestIntroduction(deps, cy.id, { targetId: bob.id, reason: REASON });
    await app.jobs.drain();
    const before = app.outbox.messages.length;
    await approveIntroduction(deps, staff.id, req.id, '');
    await app.jobs.drain();
    const sent = app.outbox.messages.slice(0, app.outbox.messages.length - before);
    t.same(sent.map((m) => m.to).sort(), [bob.email, cy.email].sort(), 'one mail to each member');
    t.notMatch(sent[0]!.text, 'A note from the team', 'no note, no note section');
    const action = await db.selectFrom('staff_actions').selectAll().where('action', '=', 'introduction.approve').where('member_id', '=', cy.id).executeTakeFirst();
    t.ok(action, 'the approval is recorded');
    t.equal(action?.actor_id, staff.id);
  });

  await t.test('approval is refused once a member was deactivated', async (t) => {
    const extra = await createMember(db, alpha, { firstName: 'Ed', lastName: 'Extra' });
    const req = await requestIntroduction(deps, cy.id, { targetId: extra.id, reason: REASON });
    await db.updateTable('memberships').set({ is_active: false }).where('user_id', '=', extra.id).execute();
    await rejects(t, approveIntroduction(deps, staff.id, req.id, null), 'Introductions.MemberInactive', 'refused');
    const declined = await declineIntroduction(deps, staff.id, req.id, 'Ed has left the community.');
    t.equal(declined.status, 'DECLINED', 'it can still be declined');
  });

  await t.test('two requests of a pair at once (both directions): one is stored, the other is told why', async (t) => {
    const kim = await createMember(db, alpha, { firstName: 'Kim', lastName: 'Race' });
    const lou = await createMember(db, alpha, { firstName: 'Lou', lastName: 'Race' });
    const results = await Promise.allSettled([
      requestIntroduction(deps, kim.id, { targetId: lou.id, reason: REASON }),
      requestIntroduction(deps, lou.id, { targetId: kim.id, reason: REASON }),
    ]);
    t.equal(results.filter((r) => r.status === 'fulfilled').length, 1, 'one request is stored');
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    t.equal((lost.reason as AppError).code, 'Introductions.OpenRequest', 'the other gets the open-request message');
    t.equal((lost.reason as AppError).status, 409);
  });

  await t.test('the daily cap: at most DAILY_CAP requests in a rolling 24 hours, with when to ask again', async (t) => {
    const asker = await createMember(db, alpha, { firstName: 'Capped', lastName: 'Asker' });
    const targets = await Promise.all(Array.from({ length: DAILY_CAP + 1 }, (_, i) => createMember(db, alpha, { firstName: `T${i}`, lastName: 'Target' })));
    const start = clock.now();
    for (let i = 0; i < DAILY_CAP; i++) {
      await requestIntroduction(deps, asker.id, { targetId: targets[i]!.id, reason: REASON });
      clock.advance(60_000);
    }
    const e = await rejects(t, requestIntroduction(deps, asker.id, { targetId: targets[DAILY_CAP]!.id, reason: REASON }), 'Introductions.DailyCap', 'the sixth is refused');
    t.equal(e?.status, 429);
    const when = new Date(start.getTime() + 24 * 3600_000).toISOString();
    t.equal(
      app.t(e!.fields!.reason!.key, e!.fields!.reason!.values),
      `You can send at most ${DAILY_CAP} introduction requests in 24 hours. You can ask again after ${when.slice(0, 10)} ${when.slice(11, 16)} UTC.`,
    );
    // Declining does not give the day's requests back; time does.
    clock.set(new Date(start.getTime() + 24 * 3600_000 + 1000));
    const ok = await requestIntroduction(deps, asker.id, { targetId: targets[DAILY_CAP]!.id, reason: REASON });
    t.equal(ok.status, 'PENDING', 'a day after the first, one more');
  });

  await t.test('the queue is scoped to the community; the member list shows their own, newest first', async (t) => {
    const betaDeps = { ...deps, community: beta };
    const betaTwo = await createMember(db, beta, { firstName: 'Bo', lastName: 'Beta' });
    const betaReq = await requestIntroduction(betaDeps, betaMember.id, { targetId: betaTwo.id, reason: REASON });
    const queue = await introductionQueue(deps);
    t.notOk(queue.pending.some((r) => r.id === betaReq.id), 'beta’s request is not in alpha’s queue');
    t.ok((await introductionQueue(betaDeps)).pending.some((r) => r.id === betaReq.id));
    t.ok(
      queue.pending.every((r, i, all) => i === 0 || all[i - 1]!.createdAt <= r.createdAt),
      'pending oldest first',
    );
    await rejects(t, approveIntroduction(deps, staff.id, betaReq.id, null), 'NotFound', 'alpha staff cannot review beta’s request');
    const mine = await listMyIntroductions(deps, cy.id);
    t.ok(mine.length >= 2);
    t.ok(mine.every((r) => r.requester.id === cy.id));
    t.ok(mine.every((r, i, all) => i === 0 || all[i - 1]!.createdAt >= r.createdAt), 'newest first');
    void betaStaff;
  });

  await t.test('pages without JavaScript', async (t) => {
    const dan = await createMember(db, alpha, { firstName: 'Dan', lastName: 'Page' });
    const eve = await createMember(db, alpha, { firstName: 'Eve', lastName: 'Target', companyName: 'Eve Co' });
    const as = await csrfFor(app, (await signIn(app, dan, alpha)).cookie, `/profile/${eve.id}/introduce`);
    const post = (userId: number, fields: Record<string, string>, jar = as, query = '') =>
      app.inject({
        method: 'POST',
        url: `/profile/${userId}/introduce${query}`,
        headers: { cookie: jar.cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        payload: new URLSearchParams({ _csrf: jar.token, ...fields }).toString(),
      });

    const page = await app.inject({ url: `/profile/${eve.id}/introduce`, headers: { cookie: as.cookie, accept: 'text/html' } });
    t.equal(page.statusCode, 200);
    t.match(page.body, 'Request an introduction to Eve Target');
    t.match(page.body, 'Eve Co');
    t.match(page.body, /<textarea[^>]*name="reason"/);

    const short = await post(eve.id, { reason: 'Hi <b>there</b>' });
    t.equal(short.statusCode, 400);
    t.match(short.body, 'Please write at least 20 characters');
    t.match(short.body, 'Hi &lt;b&gt;there&lt;/b&gt;</textarea>', 'the typed text comes back, escaped');
    t.match(short.body, 'aria-invalid="true"');

    const hostile = await post(eve.id, { reason: `${REASON}\u0000\u0007` });
    t.equal(hostile.statusCode, 400, 'control characters: a 4xx with the message');
    t.match(hostile.body, 'field-error');
    const huge = await post(eve.id, { reason: 'y'.repeat(200_000) });
    t.ok(huge.statusCode >= 400 && huge.statusCode < 500, `a huge reason is a 4xx (${huge.statusCode})`);

    const ok = await post(eve.id, { reason: REASON });
    t.equal(ok.statusCode, 303);
    t.match(ok.headers.location, /\/members\/introductions\?sent=\d+$/);
    const mine = await app.inject({ url: ok.headers.location as string, headers: { cookie: as.cookie, accept: 'text/html' } });
    t.equal(mine.statusCode, 200);
    t.match(mine.body, 'Your request to meet Eve Target was sent to the community team.');
    t.match(mine.body, 'Pending');

    const openPage = await app.inject({ url: `/profile/${eve.id}/introduce`, headers: { cookie: as.cookie, accept: 'text/html' } });
    t.match(openPage.body, 'You already asked to be introduced to Eve Target', 'the page says a request is open');
    t.notMatch(openPage.body, '<textarea', 'and offers no form');
    const eveSide = await csrfFor(app, (await signIn(app, eve, alpha)).cookie, `/profile/${dan.id}/introduce`);
    const reverse = await app.inject({ url: `/profile/${dan.id}/introduce?fragment=1`, headers: { cookie: eveSide.cookie, accept: 'text/html' } });
    t.match(reverse.body, 'Dan Page has already asked to be introduced to you', 'the other side is told too');

    const twice = await post(eve.id, { reason: REASON });
    t.equal(twice.statusCode, 409);
    t.match(twice.body, 'You already asked to be introduced to Eve Target');
    t.match(twice.body, REASON, 'the typed reason is kept');

    const self = await app.inject({ url: `/profile/${dan.id}/introduce`, headers: { cookie: as.cookie, accept: 'text/html' } });
    t.equal(self.statusCode, 400);
    t.match(self.body, 'You cannot request an introduction to yourself.');
    const selfPost = await post(dan.id, { reason: REASON });
    t.equal(selfPost.statusCode, 400);

    for (const id of [betaMember.id, gone.id, 999999]) {
      const res = await app.inject({ url: `/profile/${id}/introduce`, headers: { cookie: as.cookie, accept: 'text/html' } });
      t.equal(res.statusCode, 404, `/profile/${id}/introduce is not found`);
      t.equal((await post(id, { reason: REASON })).statusCode, 404);
    }
    t.equal((await app.inject({ url: '/profile/abc/introduce', headers: { cookie: as.cookie, accept: 'text/html' } })).statusCode, 404);

    const signedOut = await app.inject({ url: `/profile/${eve.id}/introduce`, headers: { accept: 'text/html' } });
    t.ok([302, 303, 401].includes(signedOut.statusCode), 'signed out: sign in first');

    // The dialog's fragments: the form alone, and the confirmation.
    const fragment = await app.inject({ url: `/profile/${eve.id}/introduce?fragment=1`, headers: { cookie: as.cookie, accept: 'text/html' } });
    t.equal(fragment.statusCode, 200);
    t.notMatch(fragment.body, '<html');
    t.match(fragment.body, '<h2 id="introduce-heading">');
    const frank = await createMember(db, alpha, { firstName: 'Frank', lastName: 'Fragment' });
    const badFragment = await post(frank.id, { reason: 'short' }, as, '?fragment=1');
    t.equal(badFragment.statusCode, 200, 'the dialog’s fragment with the field message');
    t.notMatch(badFragment.body, '<html');
    t.match(badFragment.body, 'Please write at least 20 characters');
    const goodFragment = await post(frank.id, { reason: REASON }, as, '?fragment=1');
    t.equal(goodFragment.statusCode, 201);
    t.match(goodFragment.body, 'Your request to meet Frank Fragment was sent to the community team.');

    // The staff queue without JavaScript.
    const admin = await csrfFor(app, (await signIn(app, staff, alpha, ['ADMIN', 'MEMBER'])).cookie, '/admin/members/introductions');
    const queue = await app.inject({ url: '/admin/members/introductions', headers: { cookie: admin.cookie, accept: 'text/html' } });
    t.equal(queue.statusCode, 200);
    t.match(queue.body, 'Dan Page');
    t.match(queue.body, 'Eve Target');
    t.notMatch(queue.body, 'Bea Other', 'no other community');
    const req = (await listMyIntroductions(deps, dan.id)).find((r) => r.target.id === eve.id)!;
    const review = (action: string, fields: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: `/admin/members/introductions/${req.id}/${action}`,
        headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        payload: new URLSearchParams({ _csrf: admin.token, ...fields }).toString(),
      });
    const noReason = await review('decline', { reason: '' });
    t.equal(noReason.statusCode, 400);
    t.match(noReason.body, 'Please give the reason for declining');
    const longNote = await review('approve', { note: 'n'.repeat(1001) });
    t.equal(longNote.statusCode, 400);
    t.match(longNote.body, 'The note can have at most 1000 characters.');
    t.match(longNote.body, 'n'.repeat(1001), 'the typed note is kept');
    const approved = await review('approve', { note: 'Say hello!' });
    t.equal(approved.statusCode, 303);
    const after = await app.inject({ url: approved.headers.location as string, headers: { cookie: admin.cookie, accept: 'text/html' } });
    t.match(after.body, 'The introduction between Dan Page and Eve Target was approved');
    const again = await review('decline', { reason: 'Too late' });
    t.equal(again.statusCode, 409);
    t.match(again.body, 'This request has already been reviewed.');

    const member = await app.inject({ url: '/admin/members/introductions', headers: { cookie: as.cookie, accept: 'text/html' } });
    t.ok([303, 403].includes(member.statusCode), `a member cannot open the queue (${member.statusCode})`);
    t.notMatch(member.body, 'Dan Page');
    const mineAfter = await app.inject({ url: '/members/introductions', headers: { cookie: as.cookie, accept: 'text/html' } });
    t.match(mineAfter.body, 'Approved');
    t.match(mineAfter.body, 'Say hello!', 'the staff note is shown');
  });

  await t.test('GraphQL: bearer and cookie+CSRF, member and admin schemas', async (t) => {
    const gia = await createMember(db, alpha, { firstName: 'Gia', lastName: 'Graph' });
    const hal = await createMember(db, alpha, { firstName: 'Hal', lastName: 'Graph' });
    const ivy = await createMember(db, alpha, { firstName: 'Ivy', lastName: 'Graph' });
    const bearer = (await signIn(app, gia, alpha)).token;
    const gql = (url: string, query: string, variables: object, headers: Record<string, string>) =>
      app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });
    const REQUEST = 'mutation R($userId: ID!, $reason: String!) { introductionRequest(userId: $userId, reason: $reason) { id status createdAt reason target { id name companyName jobTitle } } }';

    const viaBearer = await gql('/graphql', REQUEST, { userId: String(hal.id), reason: REASON }, { authorization: `Bearer ${bearer}` });
    const created = viaBearer.json().data?.introductionRequest;
    t.equal(created?.status, 'PENDING', viaBearer.body);
    t.equal(created?.target.name, 'Hal Graph');

    const dup = await gql('/graphql', REQUEST, { userId: String(gia.id), reason: REASON }, { authorization: `Bearer ${(await signIn(app, hal, alpha)).token}` });
    t.equal(dup.json().errors?.[0]?.extensions?.code, 'Introductions.OpenRequest');
    const cross = await gql('/graphql', REQUEST, { userId: String(betaMember.id), reason: REASON }, { authorization: `Bearer ${bearer}` });
    t.equal(cross.json().errors?.[0]?.extensions?.code, 'NotFound');
    const hostile = await gql('/graphql', REQUEST, { userId: String(ivy.id), reason: `${REASON}\u0000` }, { authorization: `Bearer ${bearer}` });
    t.equal(hostile.json().errors?.[0]?.extensions?.code, '150');

    const browser = await csrfFor(app, (await signIn(app, ivy, alpha)).cookie, '/members/introductions');
    const noToken = await gql('/graphql', REQUEST, { userId: String(gia.id), reason: REASON }, { cookie: browser.cookie });
    t.ok(noToken.statusCode === 403 || noToken.json().errors?.[0]?.extensions?.code === 'BadRequest.Csrf', 'a cookie without the CSRF token is refused');
    const viaCookie = await gql('/graphql', REQUEST, { userId: String(gia.id), reason: REASON }, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.equal(viaCookie.json().data?.introductionRequest?.status, 'PENDING', viaCookie.body);

    const mine = await gql('/graphql', '{ introductionRequests { id status target { id } } }', {}, { authorization: `Bearer ${bearer}` });
    t.same(mine.json().data.introductionRequests.map((r: { target: { id: string } }) => r.target.id), [String(hal.id)]);
    const anon = await gql('/graphql', '{ introductionRequests { id } }', {}, {});
    t.equal(anon.json().errors?.[0]?.extensions?.code, 'NotAuthenticated');

    const staffToken = (await signIn(app, staff, alpha, ['ADMIN', 'MEMBER'])).token;
    const asStaff = { authorization: `Bearer ${staffToken}` };
    const pending = await gql('/graphqlAdmin', '{ introductionRequestsPending { id requester { id } target { id } } }', {}, asStaff);
    const ids = pending.json().data.introductionRequestsPending.map((r: { id: string }) => r.id);
    t.ok(ids.includes(String(created.id)));
    const memberAsks = await gql('/graphqlAdmin', '{ introductionRequestsPending { id } }', {}, { authorization: `Bearer ${bearer}` });
    t.ok(memberAsks.json().errors?.length, 'a member cannot read the queue');

    const APPROVE = 'mutation A($id: ID!, $note: String) { introductionApprove(id: $id, note: $note) { id status reviewNote } }';
    const DECLINE = 'mutation D($id: ID!, $reason: String!) { introductionDecline(id: $id, reason: $reason) { id status reviewNote } }';
    const approved = await gql('/graphqlAdmin', APPROVE, { id: String(created.id), note: 'Enjoy' }, asStaff);
    t.same(approved.json().data.introductionApprove, { id: String(created.id), status: 'APPROVED', reviewNote: 'Enjoy' });
    const twice = await gql('/graphqlAdmin', DECLINE, { id: String(created.id), reason: 'No' }, asStaff);
    t.equal(twice.json().errors?.[0]?.extensions?.code, 'Introductions.AlreadyReviewed');
    const betaAsks = await gql('/graphqlAdmin', DECLINE, { id: String(viaCookie.json().data.introductionRequest.id), reason: 'No' }, {
      authorization: `Bearer ${(await signIn(app, betaStaff, beta, ['ADMIN', 'MEMBER'])).token}`,
      host: 'beta.test',
    });
    t.equal(betaAsks.json().errors?.[0]?.extensions?.code, 'NotFound', 'another community’s staff cannot review it');

    // Cookie + CSRF on the admin schema.
    const adminBrowser = await csrfFor(app, (await signIn(app, staff, alpha, ['ADMIN', 'MEMBER'])).cookie, '/admin/members/introductions');
    const declined = await gql('/graphqlAdmin', DECLINE, { id: String(viaCookie.json().data.introductionRequest.id), reason: 'Not now' }, { cookie: adminBrowser.cookie, 'x-csrf-token': adminBrowser.token });
    t.equal(declined.json().data?.introductionDecline?.status, 'DECLINED', declined.body);
  });
});
