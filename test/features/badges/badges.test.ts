import type { LightMyRequestResponse } from 'fastify';
import t from 'tap';
import type { Community } from '#src/db/types.ts';
import { moveArticle } from '#src/features/articles/review.ts';
import { evaluateCommunity, evaluateMembers, EVALUATE_JOB, type BadgeDeps } from '#src/features/badges/evaluate.ts';
import { createRoundup, moveRoundup, setRoundupAnswers } from '#src/features/expert-panels/roundups/service.ts';
import { setModerator } from '#src/features/members/index.ts';
import { csrfFor, signIn } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';
import { roundupWorld } from '#test/features/expert-panels/roundup-world.ts';

/**
 * Badges (issue 27): the rules on their events (a moderator appointed, an article published, a
 * roundup published, the years and the founding flag by the sweep), awarding once under concurrency
 * and telling once, the staff's awards and revocations with their log, /badges and the profile with
 * JavaScript off, GraphQL for cookie and bearer clients, and the tenancy of every route and field.
 */
t.test('badges', async (t) => {
  const world = await roundupWorld(t);
  const { db, app, clock, alpha, beta, member } = world;
  const deps = (community: Community): BadgeDeps => ({ db, clock, community, t: app.t, notifier: app.notifications });
  const held = async (userId: number, community: Community = alpha) =>
    (await db.selectFrom('member_badges').select(['badge', 'level']).where('user_id', '=', userId).where('community_id', '=', community.id).orderBy('badge').orderBy('level').execute()).map((r) =>
      r.level ? `${r.badge}:${r.level}` : r.badge,
    );
  const told = async (userId: number) => db.selectFrom('notifications').select(['message', 'url']).where('user_id', '=', userId).where('kind', '=', 'badges').orderBy('id').execute();
  const drain = () => app.jobs.drain([EVALUATE_JOB]);

  const staff = await member(alpha, { firstName: 'Sam', lastName: 'Staff', staff: true });
  const ada = await member(alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const bob = await member(alpha, { firstName: 'Bob', lastName: 'Moderator' });
  const cy = await member(alpha, { firstName: 'Cy', lastName: 'Writer' });
  const dee = await member(beta, { firstName: 'Dee', lastName: 'Beta' });
  // Ada founded the community three years and a little ago.
  await db.updateTable('memberships').set({ is_founding: true, joined_at: new Date('2023-09-01T00:00:00Z') }).where('user_id', '=', ada.id).execute();

  await t.test('the founding flag and the years of membership are earned by the sweep, each told once', async (t) => {
    const given = await evaluateCommunity(deps(alpha));
    t.ok(given >= 3, `given ${given}`);
    t.same(await held(ada.id), ['founding_member', 'years:1', 'years:3']);
    t.same(await held(bob.id), [], 'a member of a few days holds nothing');
    t.same((await told(ada.id)).map((n) => n.message), ['You earned a badge: Founding member.', 'You earned a badge: 1 year a member.', 'You earned a badge: 3 years a member.']);
    t.equal((await told(ada.id))[0]!.url, '/badges');
    t.equal(await evaluateCommunity(deps(alpha)), 0, 'a second sweep gives nothing');
    t.equal((await told(ada.id)).length, 3, 'and tells nothing');
    t.same(await held(dee.id, beta), [], 'the sweep of one community gives nothing in another');
  });

  await t.test('awarding at once from several evaluations inserts one row per badge and tells once', async (t) => {
    await db.deleteFrom('member_badges').where('user_id', '=', ada.id).execute();
    await db.deleteFrom('notifications').where('user_id', '=', ada.id).execute();
    const runs = await Promise.all(Array.from({ length: 6 }, () => evaluateMembers(deps(alpha), [ada.id])));
    t.equal(runs.flat().length, 3, 'the badges were given by one run');
    t.same(await held(ada.id), ['founding_member', 'years:1', 'years:3']);
    t.equal((await told(ada.id)).length, 3, 'each told once');
  });

  await t.test('a moderator appointed holds the moderator badge; removed, loses it', async (t) => {
    const membersDeps = { db, clock, jobs: app.jobs };
    const where = { id: alpha.id, code: alpha.code, name: alpha.name };
    await setModerator(membersDeps, { userId: staff.id }, where, bob.id, true);
    t.same(await held(bob.id), [], 'not before the job runs');
    await drain();
    t.same(await held(bob.id), ['moderator']);
    t.same((await told(bob.id)).map((n) => n.message), ['You earned a badge: Moderator.']);
    await setModerator(membersDeps, { userId: staff.id }, where, bob.id, false);
    await drain();
    t.same(await held(bob.id), [], 'the badge goes with the flag');
  });

  await t.test('publishing an article earns the first article badge; the fifth, the five articles badge', async (t) => {
    const editorDeps = { db, clock, community: alpha, t: app.t, notifier: app.notifications, jobs: app.jobs };
    const now = clock.now();
    const article = await db
      .insertInto('articles')
      .values({ community_id: alpha.id, author_id: cy.id, status: 'READY_TO_PUBLISH', created_at: now, updated_at: now, status_updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rev = await db
      .insertInto('article_revisions')
      .values({ community_id: alpha.id, article_id: article.id, author_id: cy.id, title: 'Cash in a slow quarter', content: '<p>Words.</p>', word_count: 1, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.updateTable('articles').set({ current_revision_id: rev.id }).where('id', '=', article.id).execute();
    await moveArticle(editorDeps, { userId: staff.id, isStaff: true }, { articleId: article.id, to: 'PUBLISHED' });
    await drain();
    t.same(await held(cy.id), ['first_article']);
    const published = { community_id: alpha.id, author_id: cy.id, status: 'PUBLISHED' as const, created_at: now, updated_at: now, status_updated_at: now, published_date: now };
    await db.insertInto('articles').values([published, published, published]).execute();
    await evaluateMembers(deps(alpha), [cy.id]);
    t.same(await held(cy.id), ['first_article'], 'four are not five');
    await db.insertInto('articles').values({ ...published, status: 'MANUALLY_PUBLISHED' }).execute();
    await evaluateMembers(deps(alpha), [cy.id]);
    t.same(await held(cy.id), ['first_article', 'five_articles']);
  });

  await t.test('an answer in a published roundup earns the expert contributor badge', async (t) => {
    const p = await world.panel(alpha);
    const question = await p.question('How do you plan cash?');
    const answer = await world.answer(alpha, question, ada.id);
    const editor = { userId: staff.id, isStaff: true };
    const epDeps = world.depsFor(alpha);
    const { id } = await createRoundup(epDeps, editor, { questionId: question, title: 'Cash plans', intro: '<p>Plans.</p>' });
    await setRoundupAnswers(epDeps, editor, id, [answer]);
    await moveRoundup(epDeps, editor, id, 'EDITOR_REVIEW');
    await drain();
    t.notOk((await held(ada.id)).includes('expert_contributor'), 'not while the roundup is in review');
    await moveRoundup(epDeps, editor, id, 'READY_FOR_PUBLISHING');
    await moveRoundup(epDeps, editor, id, 'FINAL');
    await drain();
    t.ok((await held(ada.id)).includes('expert_contributor'));
  });

  const gql = (url: '/graphql' | '/graphqlAdmin', query: string, variables: object, headers: Record<string, string>, host?: string): Promise<LightMyRequestResponse> =>
    app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...(host ? { host } : {}), ...headers }, payload: JSON.stringify({ query, variables }) });

  const admin = new FormBrowser(app, '203.0.113.51');
  admin.cookies.set('auth', (await signIn(app, staff, alpha, ['ADMIN', 'MEMBER'])).token);
  const TAB = '/admin/marketplace/badges';

  await t.test('staff award a Speaker badge with JavaScript off: logged, told once, refused twice', async (t) => {
    const page = await admin.get(TAB);
    t.equal(page.statusCode, 200);
    t.match(page.body, 'aria-current="page"');
    t.match(page.body, 'Award a badge');
    const res = await admin.post(`${TAB}/award`, { member: ada.email, badge: 'speaker', reason: 'Keynote at the spring forum' }, TAB);
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, `${TAB}?done=awarded`);
    const after = await admin.get(`${TAB}?done=awarded`);
    t.match(after.body, 'Badge awarded.');
    t.match(after.body, 'Keynote at the spring forum');
    t.match(after.body, 'Sam Staff', 'the log names who');
    t.ok((await held(ada.id)).includes('speaker'));
    t.equal((await told(ada.id)).filter((n) => n.message.includes('Speaker')).length, 1, 'Ada is told');
    const row = await db.selectFrom('badge_awards').selectAll().where('user_id', '=', ada.id).executeTakeFirstOrThrow();
    t.match(row, { action: 'award', badge: 'speaker', actor_id: staff.id, reason: 'Keynote at the spring forum' });

    const again = await admin.post(`${TAB}/award`, { member: String(ada.id), badge: 'speaker', reason: 'Twice' }, TAB);
    t.equal(again.statusCode, 409);
    t.match(again.body, 'Ada Lovelace already holds this badge.');
    t.match(again.body, 'value="Twice"', 'what was typed is kept');
    t.equal((await told(ada.id)).filter((n) => n.message.includes('Speaker')).length, 1, 'and told nothing more');
  });

  await t.test('refused forms come back with the message next to the field', async (t) => {
    for (const [fields, status, message] of [
      [{ member: '', badge: 'speaker' }, 400, 'Enter the member&#x27;s id or email address.'],
      [{ member: 'not a member', badge: 'speaker' }, 400, 'Enter a member id (digits) or an email address.'],
      [{ member: '99999999', badge: 'speaker' }, 400, 'No member of this community has that id or email address.'],
      [{ member: String(dee.id), badge: 'speaker' }, 400, 'No member of this community has that id or email address.'],
      [{ member: String(bob.id), badge: 'founding_member' }, 400, 'Choose one of the staff badges.'],
      [{ member: String(bob.id), badge: 'speaker', reason: 'x'.repeat(301) }, 400, 'Keep the reason under 300 characters.'],
      [{ member: String(bob.id), badge: 'speaker', reason: 'a\u0000b' }, 400, 'field-error'],
    ] as const) {
      const res = await admin.post(`${TAB}/award`, fields, TAB);
      t.equal(res.statusCode, status, JSON.stringify(fields).slice(0, 60));
      t.match(res.body, message);
      t.match(res.body, 'aria-invalid="true"');
    }
    t.same(await held(dee.id, beta), [], "another community's member got nothing");
  });

  await t.test('hostile input is a 4xx, never a 5xx; without the CSRF token nothing changes', async (t) => {
    const csrf = await csrfFor(app, admin.jar, TAB);
    for (const payload of ['member=1&member=2&badge=speaker', `member=${ada.id}&badge[x]=1`, '%zz', 'badge=' + 'x'.repeat(70)]) {
      const res = await app.inject({ method: 'POST', url: `${TAB}/award`, headers: { cookie: csrf.cookie, 'content-type': 'application/x-www-form-urlencoded', 'x-csrf-token': csrf.token, accept: 'text/html' }, payload });
      t.ok(res.statusCode >= 400 && res.statusCode < 500, `${payload.slice(0, 30)}: ${res.statusCode}`);
    }
    for (const url of [`${TAB}?q=${'x'.repeat(300)}`, `${TAB}?q=a&q=b`, `${TAB}?after=abc`, `${TAB}?q=%00`]) {
      const res = await admin.get(url);
      t.ok(res.statusCode < 500, `${url.slice(0, 50)}: ${res.statusCode}`);
    }
    const noToken = await app.inject({ method: 'POST', url: `${TAB}/award`, headers: { cookie: admin.jar, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }, payload: `member=${bob.id}&badge=mentor` });
    t.equal(noToken.statusCode, 403);
    t.notOk((await held(bob.id)).includes('mentor'));
  });

  await t.test('staff find a member, pick them, and revoke a badge: logged', async (t) => {
    const found = await admin.get(`${TAB}?q=lovelace`);
    t.match(found.body, 'Ada Lovelace');
    t.match(found.body, `Member id ${ada.id}`);
    t.match(found.body, 'Holds: Speaker');
    t.notMatch((await admin.get(`${TAB}?q=beta`)).body, 'Dee Beta', "another community's member is not found");
    t.match((await admin.get(`${TAB}?member=${bob.id}`)).body, `value="${bob.id}"`, 'the picked member fills the form');
    const res = await admin.post(`${TAB}/revoke`, { member: String(ada.id), badge: 'speaker', reason: 'Awarded by mistake' }, TAB);
    t.equal(res.statusCode, 303);
    t.notOk((await held(ada.id)).includes('speaker'));
    const page = await admin.get(`${TAB}?done=revoked`);
    t.match(page.body, 'Badge revoked.');
    t.match(page.body, 'Revoked');
    t.match(page.body, 'Awarded by mistake');
    const again = await admin.post(`${TAB}/revoke`, { member: String(ada.id), badge: 'speaker', reason: '' }, TAB);
    t.equal(again.statusCode, 409);
    t.match(again.body, 'Ada Lovelace does not hold this badge.');
    const log = await db.selectFrom('badge_awards').select(['action', 'actor_id']).where('community_id', '=', alpha.id).orderBy('id').execute();
    t.same(log, [{ action: 'award', actor_id: staff.id }, { action: 'revoke', actor_id: staff.id }]);
  });

  await t.test('the tab is staff only, and only for their community', async (t) => {
    const m = new FormBrowser(app, '203.0.113.52');
    m.cookies.set('auth', (await signIn(app, ada, alpha)).token);
    t.not((await m.get(TAB)).statusCode, 200, 'a member is refused the tab');
    t.equal((await m.post(`${TAB}/award`, { member: String(ada.id), badge: 'mentor' }, '/badges')).statusCode, 403, 'and its actions');
    t.notOk((await held(ada.id)).includes('mentor'));
    t.not((await new FormBrowser(app, '203.0.113.53').get(TAB)).statusCode, 200, 'a visitor is sent to sign in');
    const betaStaff = await member(beta, { firstName: 'Bo', lastName: 'Betastaff', staff: true });
    const b = new FormBrowser(app, '203.0.113.54', 'beta.test');
    b.cookies.set('auth', (await signIn(app, betaStaff, beta, ['ADMIN', 'MEMBER'])).token);
    const page = await b.get(TAB);
    t.equal(page.statusCode, 200);
    t.notMatch(page.body, 'Awarded by mistake', "alpha's log is not beta's");
    const res = await b.post(`${TAB}/award`, { member: String(ada.id), badge: 'mentor' }, TAB);
    t.equal(res.statusCode, 400, "beta's staff cannot award alpha's member");
  });

  await t.test('/badges and the profile, with JavaScript off', async (t) => {
    const m = new FormBrowser(app, '203.0.113.55');
    m.cookies.set('auth', (await signIn(app, ada, alpha)).token);
    const page = await m.get('/badges');
    t.equal(page.statusCode, 200);
    t.match(page.body, 'Badges you hold');
    t.match(page.body, 'Founding member');
    t.match(page.body, '3 years a member');
    t.match(page.body, 'Expert contributor');
    t.match(page.body, 'Badges you can earn');
    t.match(page.body, '5 years a member');
    t.match(page.body, 'Publish your first article');
    t.match(page.body, 'Speaker', 'a staff badge, with how');
    t.notMatch(page.body.split('<main')[1]?.split('</main>')[0] ?? '', '<script', 'no island in the page');
    const profile = await m.get(`/profile/${ada.id}`);
    t.match(profile.body, 'class="profile-badges plain"');
    t.match(profile.body, '<li class="badge">Expert contributor</li>');
    t.match(profile.body, 'href="/badges"', 'her own profile links to her badges');
    t.notMatch((await m.get(`/profile/${cy.id}`)).body, 'href="/badges"');
    t.match((await m.get(`/profile/${cy.id}`)).body, '<li class="badge">Five articles published</li>');
    t.not((await new FormBrowser(app, '203.0.113.56').get('/badges')).statusCode, 200, 'a visitor is sent to sign in');
    const d = new FormBrowser(app, '203.0.113.57', 'beta.test');
    d.cookies.set('auth', (await signIn(app, dee, beta)).token);
    const theirs = await d.get('/badges');
    t.equal(theirs.statusCode, 200);
    t.match(theirs.body, 'You hold no badges yet.', "beta's member holds none of alpha's");
  });

  await t.test('GraphQL: me.badges and user(id).badges for cookie and bearer clients; staff award by bearer', async (t) => {
    const session = await signIn(app, bob, alpha);
    const form = await csrfFor(app, session.cookie, '/badges');
    const cookie = { cookie: form.cookie, 'x-csrf-token': form.token };
    const bearer = { authorization: `Bearer ${(await signIn(app, bob, alpha)).token}` };
    for (const headers of [cookie, bearer]) {
      const res = await gql('/graphql', 'query($id: ID!) { me { badges { key } } user(id: $id) { name badges { key level name description awardedByStaff } } }', { id: String(ada.id) }, headers);
      t.equal(res.statusCode, 200, res.body);
      const data = res.json().data;
      t.same(data.me.badges, [], 'Bob holds none now');
      t.same(
        data.user.badges.map((b: { key: string }) => b.key),
        ['founding_member', 'expert_contributor', 'years'],
      );
      t.match(data.user.badges[2], { level: 3, name: '3 years a member', awardedByStaff: false });
    }
    const other = await gql('/graphql', 'query($id: ID!) { user(id: $id) { badges { key } } }', { id: String(dee.id) }, bearer);
    t.equal(other.json().data.user, null, "another community's member is null");
    const page = await gql('/graphql', '{ members(first: 10) { edges { node { name badges { key } } } } }', {}, bearer);
    const byName = Object.fromEntries(page.json().data.members.edges.map((e: { node: { name: string; badges: { key: string }[] } }) => [e.node.name, e.node.badges.map((b) => b.key)]));
    t.same(byName['Cy Writer'], ['first_article', 'five_articles'], 'a page of members, each with theirs');

    const staffBearer = { authorization: `Bearer ${(await signIn(app, staff, alpha, ['ADMIN', 'MEMBER'])).token}` };
    const award = await gql('/graphqlAdmin', 'mutation($id: ID!) { badgeAward(userId: $id, badge: MENTOR, reason: "Mentors founders") { key awardedByStaff } }', { id: String(bob.id) }, staffBearer);
    t.same(award.json().data?.badgeAward, [{ key: 'mentor', awardedByStaff: true }], award.body);
    const twice = await gql('/graphqlAdmin', 'mutation($id: ID!) { badgeAward(userId: $id, badge: MENTOR) { key } }', { id: String(bob.id) }, staffBearer);
    t.equal(twice.json().errors[0].extensions.code, 'Badges.AlreadyHeld');
    const elsewhere = await gql('/graphqlAdmin', 'mutation($id: ID!) { badgeAward(userId: $id, badge: MENTOR) { key } }', { id: String(dee.id) }, staffBearer);
    t.equal(elsewhere.json().errors[0].extensions.code, 'Badges.Invalid', "another community's member");
    const log = await gql('/graphqlAdmin', '{ badgeLog { entries { action badge member by reason } next } }', {}, staffBearer);
    t.match(log.json().data.badgeLog.entries[0], { action: 'AWARD', badge: 'Mentor', member: 'Bob Moderator', by: 'Sam Staff', reason: 'Mentors founders' });
    const meAgain = await gql('/graphql', '{ me { badges { key name } } }', {}, bearer);
    t.same(meAgain.json().data.me.badges, [{ key: 'mentor', name: 'Mentor' }]);
    const refused = await gql('/graphqlAdmin', 'mutation($id: ID!) { badgeAward(userId: $id, badge: SPEAKER) { key } }', { id: String(bob.id) }, bearer);
    t.equal(refused.statusCode, 403, "a member's token is refused on the staff schema");
    const bad = await gql('/graphqlAdmin', 'mutation { badgeRevoke(userId: "x\\u0000", badge: SPEAKER) { key } }', {}, staffBearer);
    t.ok(bad.statusCode < 500 && bad.json().errors?.length, 'a bad id is refused');
  });
});
