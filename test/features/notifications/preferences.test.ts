import t, { type Test } from 'tap';
import { AppError } from '#src/core/errors.ts';
import { choicesFor, wantsDigest } from '#src/features/notifications/queries.ts';
import { preferencesOf, savePreferencesForm, selectPreference, setEmailDigest } from '#src/features/notifications/preferences.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';

async function rejects(t: Test, p: Promise<unknown>, code: string | number, message: string) {
  try {
    await p;
    t.fail(`${message}: expected ${code}`);
  } catch (e) {
    t.ok(e instanceof AppError, `${message}: an AppError`);
    t.equal((e as AppError).code, code, message);
  }
}

const SELECT = 'mutation($id: ID!, $selected: Boolean!) { notificationsPreferenceSelection(id: $id, selected: $selected) { id selected } }';
const PREFS = '{ me { notificationPreferences { id group options { id name description email { id selected } web { id selected } push { id selected } } } notificationEmailDigest } }';

t.test('notification preferences', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'] });
  const clock = testClock();
  const { app } = await startApp(t, db, { clock });
  const ada = await createMember(db, alpha, { firstName: 'Ada' });
  const bob = await createMember(db, alpha, { firstName: 'Bob' });
  const bea = await createMember(db, beta, { firstName: 'Bea' });
  const adaRef = { communityId: alpha.id, userId: ada.id };

  const gql = (query: string, variables: object, headers: Record<string, string>, host?: string) =>
    app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...(host ? { host } : {}), ...headers }, payload: JSON.stringify({ query, variables }) });

  await t.test('the defaults come from the catalogue; a change is stored and read back; the rhythm too', async (t) => {
    const view = await preferencesOf(db, adaRef, app.t);
    t.same(view.groups.map((g) => [g.id, g.group]), [['articles', 'Articles'], ['members', 'Members and introductions'], ['account', 'Your account'], ['forum', 'Forum'], ['expertPanels', 'Expert panels'], ['badges', 'Badges'], ['groups', 'Groups'], ['team', 'From the community team']]);
    t.same(view.groups[3]!.options[0]!.email, { id: 'forum:email', channel: 'email', selected: false, available: true }, 'forum news: no email unless chosen');
    const security = view.groups[2]!.options[0]!;
    t.same(security, {
      id: 'account_security',
      name: 'Account security',
      description: 'When your password or the phone on your account changes.',
      email: { id: 'account_security:email', channel: 'email', selected: true, available: true },
      web: { id: 'account_security:web', channel: 'web', selected: true, available: true },
      push: { id: 'account_security:push', channel: 'push', selected: false, available: true },
    });
    t.same(view.groups[1]!.options[0]!.email, { id: 'introductions:email', channel: 'email', selected: false, available: false }, 'an introduction comes by its own email: no email choice');
    t.equal(view.emailDigest, false, 'each email at once by default');

    t.same(await selectPreference(db, adaRef, 'article_feedback:push', false, clock.now()), { id: 'article_feedback:push', channel: 'push', selected: false, available: true });
    t.same(await choicesFor(db, adaRef, 'article_feedback'), { email: true, web: true, push: false });
    await selectPreference(db, adaRef, 'article_feedback:push', true, clock.now());
    t.same(await choicesFor(db, adaRef, 'article_feedback'), { email: true, web: true, push: true }, 'and back on');
    t.equal(await setEmailDigest(db, adaRef, true, clock.now()), true);
    t.equal(await wantsDigest(db, adaRef), true);
    await setEmailDigest(db, adaRef, false, clock.now());
    t.same(await choicesFor(db, { communityId: alpha.id, userId: bob.id }, 'article_feedback'), { email: true, web: true, push: true }, 'another member is untouched');
  });

  await t.test('unknown or hostile ids and values are 400s with a clear code', async (t) => {
    for (const id of ['nope:email', 'introductions:email', 'article_feedback:sms', 'article_feedback', '', 'a\u0000:email', 'x'.repeat(10_000), 42, null, { id: 1 }]) {
      await rejects(t, selectPreference(db, adaRef, id, true, clock.now()), 'Notifications.UnknownPreference', `id ${JSON.stringify(id)?.slice(0, 30)}`);
    }
    await rejects(t, selectPreference(db, adaRef, 'introductions:web', 'yes', clock.now()), 'BadRequest.Validation', 'selected must be a boolean');
    await rejects(t, setEmailDigest(db, adaRef, 'daily', clock.now()), 'BadRequest.Validation', 'enabled must be a boolean');
    await rejects(t, savePreferencesForm(db, adaRef, { digest: 'weekly' }, clock.now()), 'BadRequest.Validation', 'an unknown rhythm');
    await rejects(t, savePreferencesForm(db, adaRef, { digest: ['daily', 'immediate'] }, clock.now()), 'BadRequest.Validation', 'the rhythm sent twice');
  });

  await t.test('GraphQL with a bearer token: read, change, unknown id refused, the rhythm', async (t) => {
    const { token } = await signIn(app, bob, alpha);
    const auth = { authorization: `Bearer ${token}` };
    let res = await gql(PREFS, {}, auth);
    t.equal(res.statusCode, 200);
    const groups = res.json().data.me.notificationPreferences;
    t.equal(groups.length, 8, 'the five groups, the badges, groups and the team');
    t.same(groups[0].options[1].push, { id: 'article_feedback:push', selected: true });
    t.equal(groups[1].options[0].name, 'Introductions');
    t.equal(res.json().data.me.notificationEmailDigest, false);

    res = await gql(SELECT, { id: 'introductions:push', selected: false }, auth);
    t.same(res.json().data.notificationsPreferenceSelection, { id: 'introductions:push', selected: false });
    t.same(await choicesFor(db, { communityId: alpha.id, userId: bob.id }, 'introductions'), { email: false, web: true, push: false });

    res = await gql(SELECT, { id: 'introductions:fax', selected: false }, auth);
    t.equal(res.json().errors[0].extensions.code, 'Notifications.UnknownPreference', 'an unknown id: a clear code');

    res = await gql('mutation { notificationsEmailDigest(enabled: true) }', {}, auth);
    t.equal(res.json().data.notificationsEmailDigest, true);
    t.equal(await wantsDigest(db, { communityId: alpha.id, userId: bob.id }), true);

    res = await gql(SELECT, { id: 'introductions:email', selected: true }, {});
    t.equal(res.json().errors[0].extensions.code, 'NotAuthenticated', 'a visitor changes nothing');
    res = await gql(PREFS, {}, {});
    t.equal(res.json().data.me, null);
  });

  await t.test('GraphQL with the cookie: the CSRF token is required', async (t) => {
    const { cookie } = await signIn(app, ada, alpha);
    const jar = await csrfFor(app, cookie, '/settings/notifications');
    let res = await gql(SELECT, { id: 'article_progress:web', selected: false }, { cookie: jar.cookie });
    t.equal(res.json().errors?.[0]?.extensions?.code ?? res.json().code, 'BadRequest.Csrf', 'without the token: refused');
    t.same(await choicesFor(db, adaRef, 'article_progress'), { email: true, web: true, push: true }, 'nothing changed');
    res = await gql(SELECT, { id: 'article_progress:web', selected: false }, { cookie: jar.cookie, 'x-csrf-token': jar.token });
    t.same(res.json().data.notificationsPreferenceSelection, { id: 'article_progress:web', selected: false });
    t.same(await choicesFor(db, adaRef, 'article_progress'), { email: true, web: false, push: true });
  });

  await t.test('tenancy: a member of another community reads and changes only their own choices there', async (t) => {
    const { token } = await signIn(app, bea, beta);
    const auth = { authorization: `Bearer ${token}` };
    const res = await gql(PREFS, {}, auth, 'beta.test');
    const opt = res.json().data.me.notificationPreferences[0].options[0];
    t.same(opt.web, { id: 'article_progress:web', selected: true }, 'Ada’s change in alpha does not show in beta');
    await gql(SELECT, { id: 'article_progress:email', selected: false }, auth, 'beta.test');
    t.same(await choicesFor(db, { communityId: beta.id, userId: bea.id }, 'article_progress'), { email: false, web: true, push: true });
    t.same(await choicesFor(db, adaRef, 'article_progress'), { email: true, web: false, push: true }, 'Ada in alpha is untouched');
    const stored = await db.selectFrom('notification_preferences').select(['community_id', 'user_id']).where('user_id', '=', bea.id).execute();
    t.ok(stored.every((r) => r.community_id === beta.id), 'Bea’s rows are beta’s');
  });

  await t.test('the page without JavaScript: groups, options with anchors, the form saves everything, 303 with an alert', async (t) => {
    const { cookie } = await signIn(app, ada, alpha);
    let res = await app.inject({ method: 'GET', url: '/settings/notifications', headers: { cookie, accept: 'text/html' } });
    t.equal(res.statusCode, 200);
    for (const text of ['Notification settings', 'Articles', 'Members and introductions', 'Your account', 'Editor feedback', 'When an editor sends you feedback on your article.', 'Mobile push', 'Each email at once', 'One daily digest', 'Save settings', 'Back to your notifications']) {
      t.match(res.body, text, `shows “${text}”`);
    }
    for (const kind of ['article_progress', 'article_feedback', 'introductions', 'account_security']) t.match(res.body, `id="${kind}"`, `an anchor for ${kind}`);
    t.match(res.body, /name="article_progress:email" checked=""/, 'a box that is on');
    t.notMatch(res.body, /name="article_progress:web" checked=""/, 'Ada turned web off for article progress');
    t.notMatch(res.body, /name="account_security:push" checked=""/, 'the catalogue’s default off');
    t.match(res.body, /checked="" value="immediate"/, "each email at once is chosen");
    t.match(res.body, 'data-island="PreferenceSaver"');

    const jar = await csrfFor(app, cookie, '/settings/notifications');
    // Everything on except introductions by email and account security by push; the daily digest.
    const fields = ['article_progress:email', 'article_progress:web', 'article_progress:push', 'article_feedback:email', 'article_feedback:web', 'article_feedback:push', 'introductions:web', 'introductions:push', 'account_security:email', 'account_security:web'];
    const payload = new URLSearchParams([['_csrf', jar.token], ...fields.map((f) => [f, 'on']), ['digest', 'daily']]).toString();
    res = await app.inject({ method: 'POST', url: '/settings/notifications', headers: { cookie: jar.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload });
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, '/settings/notifications?alert=notification-preferences-saved');
    t.same(await choicesFor(db, adaRef, 'article_progress'), { email: true, web: true, push: true });
    t.same(await choicesFor(db, adaRef, 'introductions'), { email: false, web: true, push: true });
    t.same(await choicesFor(db, adaRef, 'account_security'), { email: true, web: true, push: false });
    t.equal(await wantsDigest(db, adaRef), true);
    const stored = await db.selectFrom('notification_preferences').select(['option', 'channel']).where('user_id', '=', ada.id).where('option', '=', 'account_security').execute();
    t.same(stored, [], 'options left as the catalogue has them are not stored');

    res = await app.inject({ method: 'GET', url: '/settings/notifications?alert=notification-preferences-saved', headers: { cookie, accept: 'text/html' } });
    t.match(res.body, 'Your notification settings are saved.');
    t.match(res.body, /checked="" value="daily"/, "the daily digest is chosen");

    res = await app.inject({ method: 'POST', url: '/settings/notifications', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'digest=daily' });
    t.equal(res.statusCode, 403, 'no CSRF token: refused');
    res = await app.inject({ method: 'POST', url: '/settings/notifications', headers: { cookie: jar.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: `_csrf=${encodeURIComponent(jar.token)}&digest=%00` });
    t.equal(res.statusCode, 400, 'a hostile rhythm is a 400');
  });

  await t.test('a multipart POST to the settings form is refused (4xx) and changes nothing', async (t) => {
    const mia = await createMember(db, alpha, { firstName: 'Mia' });
    const ref = { communityId: alpha.id, userId: mia.id };
    const before = await choicesFor(db, ref, 'article_progress');
    const { cookie } = await signIn(app, mia, alpha);
    const jar = await csrfFor(app, cookie, '/settings/notifications');
    const res = await app.inject({
      method: 'POST',
      url: '/settings/notifications',
      headers: { cookie: jar.cookie, 'x-csrf-token': jar.token, 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="digest"\r\n\r\nweekly\r\n--x--\r\n',
    });
    t.ok(res.statusCode >= 400 && res.statusCode < 500, `4xx (${res.statusCode})`);
    t.same(await choicesFor(db, ref, 'article_progress'), before, 'every channel as it was');
  });

  await t.test('signed out, the page sends to sign-in', async (t) => {
    const res = await app.inject({ method: 'GET', url: '/settings/notifications', headers: { accept: 'text/html' } });
    t.equal(res.statusCode, 303);
    t.match(res.headers.location, '/login?redirect=');
  });
});
