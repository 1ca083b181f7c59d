import t from 'tap';
import { verifyPassword } from '#src/core/passwords.ts';
import { isStrongPassword } from '#shared/password-rules.ts';
import { loginWithPassword } from '#src/features/auth/service.ts';
import { ACCESS_WRITE_WINDOW_MS } from '#src/features/auth/sessions.ts';
import { exportMembers, searchMembers } from '#src/features/members/admin.ts';
import { generatePassword } from '#src/features/members/admin-actions.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { ctxFor, GOOD_PASSWORD, linkFrom, setPassword } from '#test/helpers/auth.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';

t.test('the staff’s members area', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'] });
  const gamma = await createCommunity(db, { code: 'gamma', hosts: ['gamma.test'] });
  const { app } = await startApp(t, db, { clock });
  const deps = { db, clock, jobs: app.jobs };

  // The admin administers alpha and beta (a plain member of gamma).
  const boss = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Bea', lastName: 'Boss' });
  await db.insertInto('memberships').values({ community_id: beta.id, user_id: boss.id, roles: ['ADMIN', 'MEMBER'] }).execute();
  await db.insertInto('memberships').values({ community_id: gamma.id, user_id: boss.id, roles: ['MEMBER'] }).execute();
  const staff = { userId: boss.id };

  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace', companyName: 'Analytical Engines' });
  const alan = await createMember(db, alpha, { firstName: 'Alan', lastName: 'Turing', companyName: '=HYPERLINK("http://evil.example")' });
  const grace = await createMember(db, beta, { firstName: 'Grace', lastName: 'Hopper', companyName: 'Cobol Works' });
  const gone = await createMember(db, beta, { firstName: 'Gone', lastName: 'Member', active: false });
  const secret = await createMember(db, gamma, { firstName: 'Gamma', lastName: 'Secret', companyName: 'Analytical Secrets' });
  const otherAdmin = await createMember(db, gamma, { roles: ['ADMIN', 'MEMBER'], firstName: 'Gus', lastName: 'Gammaboss' });
  await db.updateTable('memberships').set({ standing: 'Good', membership_tier: 'Gold', is_founding: true }).where('user_id', '=', ada.id).where('community_id', '=', alpha.id).execute();
  await db.updateTable('memberships').set({ standing: 'Overdue', membership_tier: 'Silver' }).where('user_id', '=', grace.id).execute();
  await db.updateTable('memberships').set({ standing: 'Good', membership_tier: 'Gold', is_founding: true }).where('user_id', '=', secret.id).execute();

  const b = new FormBrowser(app);
  b.cookies.set('auth', (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token);
  const names = (rows: Array<{ name: string }>) => rows.map((r) => r.name).sort();

  await t.test('the search covers every community the admin administers, and only those', async (t) => {
    const all = await searchMembers(deps, staff, {});
    t.same(names(all.rows), ['Ada Lovelace', 'Alan Turing', 'Bea Boss', 'Bea Boss', 'Gone Member', 'Grace Hopper'], 'alpha and beta, not gamma');
    t.equal(all.total, 6);
    t.same(names((await searchMembers(deps, staff, { q: 'analytical' })).rows), ['Ada Lovelace'], 'by company; gamma’s Analytical Secrets is not found');
    t.same(names((await searchMembers(deps, staff, { q: grace.email.toUpperCase() })).rows), ['Grace Hopper'], 'by email');
    t.same(names((await searchMembers(deps, staff, { q: 'hoper' })).rows), ['Grace Hopper'], 'a typo still finds the name');
    t.same((await searchMembers(deps, staff, { community: 'gamma' })).rows, [], 'a community not theirs gives nothing');
    t.same((await searchMembers(deps, { userId: ada.id }, {})).rows, [], 'a member who administers nothing sees nobody');
    const page = await b.get('/admin/members');
    t.equal(page.statusCode, 200);
    t.match(page.body, 'Grace Hopper');
    t.match(page.body, `href="/admin/members/beta/${grace.id}"`);
    t.notMatch(page.body, 'Gamma Secret');
  });

  await t.test('filters, sorts and keyset pages', async (t) => {
    t.same(names((await searchMembers(deps, staff, { community: 'beta' })).rows), ['Bea Boss', 'Gone Member', 'Grace Hopper']);
    t.same(names((await searchMembers(deps, staff, { standing: 'Good' })).rows), ['Ada Lovelace']);
    t.same(names((await searchMembers(deps, staff, { tier: 'Silver' })).rows), ['Grace Hopper']);
    t.same(names((await searchMembers(deps, staff, { founding: true })).rows), ['Ada Lovelace']);
    t.same(names((await searchMembers(deps, staff, { active: 'deactivated' })).rows), ['Gone Member']);
    t.equal((await searchMembers(deps, staff, { active: 'active' })).total, 5);
    for (const sort of ['name', 'joined', 'lastAccess'] as const) {
      const seen: number[] = [];
      let after: string | null = null;
      for (let i = 0; i < 10; i++) {
        const p = await searchMembers(deps, staff, { sort, first: 2, after });
        seen.push(...p.rows.map((r) => r.membershipId));
        after = p.next;
        if (!after) break;
      }
      t.equal(seen.length, 6, `${sort}: every row once across pages`);
      t.equal(new Set(seen).size, 6, `${sort}: no row twice`);
    }
    const firstPage = await searchMembers(deps, staff, { sort: 'name', first: 2 });
    t.same(firstPage.rows.map((r) => r.name), ['Bea Boss', 'Bea Boss'], 'by last name (Boss before Hopper)');
    const filtered = await b.get('/admin/members?community=beta&active=deactivated');
    t.match(filtered.body, 'Gone Member');
    t.notMatch(filtered.body, 'Grace Hopper');
    t.match(filtered.body, /<option value="deactivated" selected="">/, 'the filter keeps its value');
    t.equal((await b.get('/admin/members?after=not-a-cursor&sort=bogus')).statusCode, 200, 'a bad cursor or sort is the first page');
    for (const key of ['10000-01-01', '-000001-01-01T00:00:00.000Z', '1969-12-31T23:59:59.000Z']) {
      for (const sort of ['joined', 'lastAccess']) {
        const forged = Buffer.from(JSON.stringify([sort, key, 5])).toString('base64url');
        t.equal((await b.get(`/admin/members?sort=${sort}&after=${forged}`)).statusCode, 200, `a forged ${sort} cursor (${key}) is the first page`);
      }
    }
  });

  await t.test('the CSV export follows the filters and guards against formulas', async (t) => {
    const res = await b.get('/admin/members/export.csv?community=alpha');
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], 'text/csv');
    t.match(res.headers['content-disposition'], /attachment; filename="members-\d{4}-\d{2}-\d{2}\.csv"/);
    t.match(res.body, 'Ada Lovelace');
    t.notMatch(res.body, 'Grace Hopper', 'beta is filtered out');
    t.match(res.body, `"'=HYPERLINK(""http://evil.example"")"`, 'a formula is defused');
    t.notMatch(res.body, 'Gamma Secret');
    t.equal((await exportMembers(deps, staff, { q: 'hopper' })).rows.length, 1);
  });

  await t.test('the admin view of a member, and tenancy of every member page', async (t) => {
    const res = await b.get(`/admin/members/beta/${grace.id}`);
    t.equal(res.statusCode, 200);
    for (const text of ['Grace Hopper', grace.email, 'Overdue', 'Silver', 'beta Council', 'Last accessed (any device)', 'Never']) t.match(res.body, text);
    t.equal((await b.get(`/admin/members/gamma/${secret.id}`)).statusCode, 404, 'a community they do not administer');
    t.equal((await b.get(`/admin/members/alpha/${secret.id}`)).statusCode, 404, 'a member of another community under theirs');
    t.equal((await b.get(`/admin/members/alpha/${grace.id}`)).statusCode, 404, 'a member of beta is not under alpha');
    const post = await b.post(`/admin/members/gamma/${secret.id}/active`, { active: 'false' }, '/admin/members');
    t.equal(post.statusCode, 404, 'no action on another community’s member');
    const still = await db.selectFrom('memberships').select('is_active').where('user_id', '=', secret.id).executeTakeFirstOrThrow();
    t.equal(still.is_active, true);
    const gus = new FormBrowser(app, '203.0.113.30', 'gamma.test');
    gus.cookies.set('auth', (await signIn(app, otherAdmin, gamma, ['ADMIN', 'MEMBER'])).token);
    t.equal((await gus.get(`/admin/members/alpha/${ada.id}`)).statusCode, 404, 'gamma’s admin cannot open alpha’s member');
    t.notMatch((await gus.get('/admin/members')).body, 'Ada Lovelace', 'nor find them');
  });

  await t.test('a member who is not an admin is refused', async (t) => {
    const m = new FormBrowser(app, '203.0.113.31');
    m.cookies.set('auth', (await signIn(app, ada, alpha)).token);
    for (const url of ['/admin/members', `/admin/members/alpha/${alan.id}`, '/admin/members/export.csv']) {
      const res = await m.get(url);
      t.not(res.statusCode, 200, url);
      t.notMatch(res.body, 'Alan Turing', `${url} shows nothing`);
    }
    const visitor = new FormBrowser(app, '203.0.113.32');
    t.not((await visitor.get('/admin/members')).statusCode, 200);
  });

  await t.test('deactivation ends the member’s sessions at once and blocks sign-in; reactivation allows it', async (t) => {
    await setPassword(db, ada.id);
    const m = new FormBrowser(app, '203.0.113.33');
    m.cookies.set('auth', (await signIn(app, ada, alpha)).token);
    t.equal((await m.get('/settings')).statusCode, 200, 'signed in');
    const res = await b.post(`/admin/members/alpha/${ada.id}/active`, { active: 'false' }, '/admin/members');
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, `/admin/members/alpha/${ada.id}?done=deactivated`);
    const page = await b.get(res.headers.location as string);
    t.match(page.body, 'Ada Lovelace is deactivated');
    t.match(page.body, 'Activate member');
    const next = await m.get('/settings');
    t.not(next.statusCode, 200, 'the member’s next request is signed out');
    const live = await db.selectFrom('sessions').select('id').where('user_id', '=', ada.id).where('revoked_at', 'is', null).execute();
    t.same(live, [], 'their sessions are revoked');
    await t.rejects(loginWithPassword(ctxFor(app, alpha, '198.51.100.1'), { email: ada.email, password: GOOD_PASSWORD }), 'cannot sign in');
    const back = await b.post(`/admin/members/alpha/${ada.id}/active`, { active: 'true' }, '/admin/members');
    t.equal(back.statusCode, 303);
    const login = await loginWithPassword(ctxFor(app, alpha, '198.51.100.2'), { email: ada.email, password: GOOD_PASSWORD });
    t.equal(login.user.id, ada.id, 'can sign in again');
  });

  await t.test('an admin cannot deactivate themselves', async (t) => {
    const page = await b.get(`/admin/members/alpha/${boss.id}`);
    t.notMatch(page.body, 'Deactivate member', 'the page does not offer it');
    const res = await b.post(`/admin/members/alpha/${boss.id}/active`, { active: 'false' }, '/admin/members');
    t.equal(res.statusCode, 403);
    t.match(res.body, 'You cannot deactivate yourself.');
    const row = await db.selectFrom('memberships').select('is_active').where('user_id', '=', boss.id).where('community_id', '=', alpha.id).executeTakeFirstOrThrow();
    t.equal(row.is_active, true);
  });

  await t.test('a generated password is strong, shown once, works for sign-in and is stored only hashed', async (t) => {
    for (let i = 0; i < 50; i++) t.ok(isStrongPassword(generatePassword()), 'meets the password rules');
    const res = await b.post(`/admin/members/beta/${grace.id}/password`, {}, '/admin/members');
    t.equal(res.statusCode, 200);
    t.equal(res.headers['cache-control'], 'no-store');
    const password = /data-testid="generated-password">([^<]+)</.exec(res.body)?.[1];
    t.ok(password && isStrongPassword(password.replace(/&amp;/g, '&')), 'the password is on the page');
    const plain = password!.replace(/&amp;/g, '&');
    const user = await db.selectFrom('users').select('password_hash').where('id', '=', grace.id).executeTakeFirstOrThrow();
    t.not(user.password_hash, plain);
    t.match(user.password_hash, /^\$argon2id\$/);
    t.ok(await verifyPassword(user.password_hash!, plain));
    const actions = await db.selectFrom('staff_actions').selectAll().where('member_id', '=', grace.id).execute();
    t.notOk(JSON.stringify(actions).includes(plain), 'the record does not hold it');
    t.notMatch((await b.get(`/admin/members/beta/${grace.id}`)).body, plain, 'the page does not show it again');
    const login = await loginWithPassword(ctxFor(app, beta, '198.51.100.3'), { email: grace.email, password: plain });
    t.equal(login.user.id, grace.id, 'signs the member in');
  });

  await t.test('a reset link goes out through the durable queue', async (t) => {
    const res = await b.post(`/admin/members/alpha/${alan.id}/password-reset`, {}, '/admin/members');
    t.equal(res.statusCode, 303);
    const link = await linkFrom(app, alan.email);
    t.match(link, /\/password\/reset\?token=/);
    t.match((await b.get(res.headers.location as string)).body, `A password reset link is on its way to ${alan.email}.`);
  });

  await t.test('forum moderator flag', async (t) => {
    t.equal((await b.post(`/admin/members/alpha/${alan.id}/moderator`, { moderator: 'true' }, '/admin/members')).statusCode, 303);
    const on = await db.selectFrom('memberships').select('is_moderator').where('user_id', '=', alan.id).executeTakeFirstOrThrow();
    t.equal(on.is_moderator, true);
    t.match((await b.get(`/admin/members/alpha/${alan.id}`)).body, 'Remove forum moderator');
    await b.post(`/admin/members/alpha/${alan.id}/moderator`, { moderator: 'false' }, '/admin/members');
    const off = await db.selectFrom('memberships').select('is_moderator').where('user_id', '=', alan.id).executeTakeFirstOrThrow();
    t.equal(off.is_moderator, false);
  });

  await t.test('notes: a timeline with author and time; bad input keeps what was typed', async (t) => {
    const res = await b.post(`/admin/members/alpha/${alan.id}/notes`, { body: 'Called about the spring retreat.\nWants a seat at the CFO table.' }, '/admin/members');
    t.equal(res.statusCode, 303);
    const page = await b.get(`/admin/members/alpha/${alan.id}`);
    t.match(page.body, 'Called about the spring retreat.');
    t.match(page.body, 'Bea Boss, Nov 21, 2026');
    const empty = await b.post(`/admin/members/alpha/${alan.id}/notes`, { body: '   ' }, '/admin/members');
    t.equal(empty.statusCode, 400);
    t.match(empty.body, 'Write the note first.');
    const long = 'x'.repeat(2001);
    const tooLong = await b.post(`/admin/members/alpha/${alan.id}/notes`, { body: long }, '/admin/members');
    t.equal(tooLong.statusCode, 400);
    t.match(tooLong.body, 'Use at most 2000 characters.');
    t.match(tooLong.body, long, 'the typed text is kept');
    const hostile = await b.post(`/admin/members/alpha/${alan.id}/notes`, { body: 'a\u0000b' }, '/admin/members');
    t.equal(hostile.statusCode, 400);
    const huge = await b.get(`/admin/members?q=${'%00'.repeat(5)}`);
    t.equal(huge.statusCode, 400, 'a search with a control character is a 400 with the message');
    const badFilter = await b.get('/admin/members?standing=Good%01');
    t.equal(badFilter.statusCode, 400, 'a filter with a control character is a 400');
    t.match(badFilter.body, 'role="alert"', 'with the message shown');
    t.equal((await b.get(`/admin/members?q=${'y'.repeat(5000)}&standing=${'z'.repeat(5000)}`)).statusCode, 200, 'huge values are cut, not a 5xx');
    t.equal((await b.get('/admin/members/alpha/99999999999')).statusCode, 404);
    t.equal((await b.get('/admin/members/%00/1')).statusCode, 404);
  });

  await t.test('every action is recorded with who and when, and shown in the history', async (t) => {
    const rows = await db.selectFrom('staff_actions').select(['action', 'actor_id', 'member_id', 'created_at']).orderBy('id').execute();
    t.same(
      rows.map((r) => [r.action, r.member_id]),
      [
        ['deactivated', ada.id],
        ['activated', ada.id],
        ['password_generated', grace.id],
        ['password_reset_sent', alan.id],
        ['moderator_on', alan.id],
        ['moderator_off', alan.id],
        ['note_added', alan.id],
      ],
    );
    t.ok(rows.every((r) => r.actor_id === boss.id && r.created_at));
    const page = await b.get(`/admin/members/alpha/${alan.id}`);
    t.match(page.body, 'Password reset link sent, by Bea Boss');
    t.match(page.body, 'Made forum moderator, by Bea Boss');
  });

  await t.test('the history prints words for every action key, never the key itself', async (t) => {
    const keyed = ada;
    // Every key the areas record against a member (members, saved cards, introductions, sites).
    const words: Record<string, string> = {
      note_added: 'Note added',
      password_reset_sent: 'Password reset link sent',
      password_generated: 'Password generated',
      activated: 'Activated',
      deactivated: 'Deactivated',
      moderator_on: 'Made forum moderator',
      moderator_off: 'Forum moderator removed',
      card_added: 'Card added',
      card_default_changed: 'Default card changed',
      card_removed: 'Card removed',
      'introduction.approve': 'Introduction request approved',
      'introduction.decline': 'Introduction request declined',
      'site.create': 'Site created',
      'site.update': 'Site changed',
      'some.future_action': 'Other staff action',
    };
    const added = await db
      .insertInto('staff_actions')
      .values(Object.keys(words).map((action) => ({ community_id: alpha.id, actor_id: boss.id, member_id: keyed.id, action, created_at: clock.now() })))
      .returning('id')
      .execute();
    const page = await b.get(`/admin/members/alpha/${keyed.id}`);
    for (const [action, text] of Object.entries(words)) {
      t.match(page.body, `${text}, by Bea Boss`, action);
      t.notMatch(page.body, `>${action},`, `${action} is not printed raw`);
    }
    t.notMatch(page.body, /introduction\.approve|introduction\.decline|site\.create|card_added/, 'no raw key anywhere');
    await db.deleteFrom('staff_actions').where('id', 'in', added.map((r) => r.id)).execute();
  });

  await t.test('last access is written at most once per window', async (t) => {
    const carl = await createMember(db, alpha, { firstName: 'Carl', lastName: 'Access' });
    const m = new FormBrowser(app, '203.0.113.40');
    const session = await signIn(app, carl, alpha);
    m.cookies.set('auth', session.token);
    const stored = async () => {
      const s = await db.selectFrom('sessions').select('last_accessed_at').where('user_id', '=', carl.id).executeTakeFirstOrThrow();
      const ms = await db.selectFrom('memberships').select('last_accessed_at').where('user_id', '=', carl.id).executeTakeFirstOrThrow();
      return [s.last_accessed_at && new Date(s.last_accessed_at).toISOString(), ms.last_accessed_at && new Date(ms.last_accessed_at).toISOString()];
    };
    t.same(await stored(), [null, null]);
    await m.get('/settings');
    const first = clock.now().toISOString();
    t.same(await stored(), [first, first], 'the first request writes');
    clock.advance(60_000);
    await m.get('/settings');
    await m.get('/settings');
    t.same(await stored(), [first, first], 'requests within the window do not write');
    clock.advance(ACCESS_WRITE_WINDOW_MS);
    await m.get('/settings');
    const later = clock.now().toISOString();
    t.same(await stored(), [later, later], 'after the window, one write');
    const view = await b.get(`/admin/members/alpha/${carl.id}`);
    t.notMatch(view.body, /Last accessed \(any device\)<\/dt><dd>Never/);
  });

  await t.test('GraphQL on /graphqlAdmin, by bearer and by cookie with CSRF', async (t) => {
    const { token } = await signIn(app, boss, alpha, ['ADMIN', 'MEMBER']);
    const gql = (query: string, variables: object, headers: Record<string, string>) =>
      app.inject({ method: 'POST', url: '/graphqlAdmin', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });
    const bearer = { authorization: `Bearer ${token}` };
    const USER = 'query($id: ID!) { user(id: $id) { id name email health joinedAt communityName communityCode standing isFounding vertical membershipTier lastAccessedAt isActive isModerator } }';
    const mine = await gql(USER, { id: String(alan.id) }, bearer);
    t.equal(mine.json().data.user.name, 'Alan Turing');
    t.equal(mine.json().data.user.communityCode, 'alpha');
    t.equal((await gql(USER, { id: String(secret.id) }, bearer)).json().data.user, null, 'another community’s member is null');
    t.equal((await gql(USER, { id: String(grace.id) }, bearer)).json().data.user, null, 'the current community only');
    const MEMBERS = 'query($q: String, $after: String) { members(query: $q, first: 2, after: $after) { total nextCursor rows { id name communityCode } } }';
    const p1 = (await gql(MEMBERS, {}, bearer)).json().data.members;
    t.equal(p1.total, 7, 'alpha and beta (Carl joined alpha)');
    t.equal(p1.rows.length, 2);
    const p2 = (await gql(MEMBERS, { after: p1.nextCursor }, bearer)).json().data.members;
    t.notSame(p2.rows[0].id, p1.rows[0].id);
    t.same((await gql(MEMBERS, { q: 'secret' }, bearer)).json().data.members.rows, []);
    const bad = await gql(MEMBERS, { q: 'a\u0000' }, bearer);
    t.ok(bad.json().errors, 'a control character is refused');

    const SET = 'mutation($id: ID!, $active: Boolean!) { userSetActive(id: $id, active: $active) { isActive } }';
    t.equal((await gql(SET, { id: String(alan.id), active: false }, bearer)).json().data.userSetActive.isActive, false);
    t.ok((await gql(SET, { id: String(secret.id), active: false }, bearer)).json().errors, 'not another community’s member');

    // Cookie: CSRF required.
    const cookie = `auth=${token}`;
    const noCsrf = await gql(SET, { id: String(alan.id), active: true }, { cookie });
    t.equal(noCsrf.statusCode, 403, 'a cookie without the CSRF token is refused');
    const page = await app.inject({ url: '/admin/members', headers: { cookie, accept: 'text/html' } });
    const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(page.body)![1]!;
    const csrfCookie = page.cookies.find((c) => c.name === '_csrf')!.value;
    const withCsrf = { cookie: `${cookie}; _csrf=${csrfCookie}`, 'x-csrf-token': csrf };
    t.equal((await gql(SET, { id: String(alan.id), active: true }, withCsrf)).json().data.userSetActive.isActive, true);
    const MOD = 'mutation($id: ID!) { userSetModerator(id: $id, isModerator: true) { isModerator } }';
    t.equal((await gql(MOD, { id: String(alan.id) }, withCsrf)).json().data.userSetModerator.isModerator, true);
    const NOTE = 'mutation($id: ID!, $body: String!) { memberNoteAdd(userId: $id, body: $body) { id body } }';
    t.equal((await gql(NOTE, { id: String(alan.id), body: 'Over GraphQL.' }, bearer)).json().data.memberNoteAdd.body, 'Over GraphQL.');
    t.ok((await gql(NOTE, { id: String(alan.id), body: '' }, bearer)).json().errors, 'an empty note is refused');
    const RESET = 'mutation($id: ID!) { userSendPasswordReset(id: $id) }';
    t.equal((await gql(RESET, { id: String(ada.id) }, bearer)).json().data.userSendPasswordReset, true);
    t.match(await linkFrom(app, ada.email), /password\/reset/);
    const GEN = 'mutation($id: ID!) { userGeneratePassword(id: $id) { password user { id } } }';
    const gen = (await gql(GEN, { id: String(ada.id) }, bearer)).json().data.userGeneratePassword;
    t.ok(isStrongPassword(gen.password));
    const login = await loginWithPassword(ctxFor(app, alpha, '198.51.100.4'), { email: ada.email, password: gen.password });
    t.equal(login.user.id, ada.id);

    const member = await signIn(app, ada, alpha);
    const refused = await gql(USER, { id: String(alan.id) }, { authorization: `Bearer ${member.token}` });
    t.not(refused.statusCode, 200, 'a member cannot use the admin schema');
  });
  await t.test('no generated password for an admin, or for a member of a community the staff do not run (the reset link instead)', async (t) => {
    // Another admin of alpha; and a member of alpha who also belongs to gamma, which the boss does not administer.
    const coAdmin = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Cora', lastName: 'Coadmin' });
    const twoPlaces = await createMember(db, alpha, { firstName: 'Tess', lastName: 'Twoplaces' });
    await db.insertInto('memberships').values({ community_id: gamma.id, user_id: twoPlaces.id, roles: ['MEMBER'] }).execute();
    for (const who of [coAdmin, twoPlaces]) {
      const before = await db.selectFrom('users').select('password_hash').where('id', '=', who.id).executeTakeFirstOrThrow();
      const res = await b.post(`/admin/members/alpha/${who.id}/password`, {}, '/admin/members');
      t.equal(res.statusCode, 403, `${who.firstName}: refused`);
      t.match(res.body, 'send them a reset link instead');
      t.notMatch(res.body, 'data-testid="generated-password"');
      const after = await db.selectFrom('users').select('password_hash').where('id', '=', who.id).executeTakeFirstOrThrow();
      t.equal(after.password_hash, before.password_hash, 'the password is unchanged');
    }
  });
});
