import t from 'tap';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';
import { SITE_UPDATE, siteFields, siteInput } from '#test/helpers/members-sites.ts';

const html = { accept: 'text/html' };

t.test('sites: the admin area of brands as data', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', name: 'Alpha Council' });
  const beta = await createCommunity(db, { code: 'beta', name: 'Beta Guild', hosts: ['beta.example.test'] });
  const gamma = await createCommunity(db, { code: 'gamma', name: 'Gamma Circle', hosts: ['gamma.example.test'] });
  const { app } = await startApp(t, db);

  // Ada administers alpha and beta; Bob administers gamma only (and is a plain member of alpha).
  const ada = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Ada' });
  await db.insertInto('memberships').values({ community_id: beta.id, user_id: ada.id, roles: ['ADMIN', 'MEMBER'] }).execute();
  await db.insertInto('memberships').values({ community_id: gamma.id, user_id: ada.id, roles: ['MEMBER'] }).execute();
  const bob = await createMember(db, gamma, { roles: ['ADMIN', 'MEMBER'], firstName: 'Bob' });
  const member = await createMember(db, alpha, { firstName: 'Mia' });
  // Ada is platform staff too (an admin of the `admin` community): only they create sites or change host names.
  const platform = await createCommunity(db, { code: 'admin', name: 'Network Staff', hosts: ['admin.example.test'] });
  await db.insertInto('memberships').values({ community_id: platform.id, user_id: ada.id, roles: ['ADMIN', 'MEMBER'] }).execute();

  const adaSession = await csrfFor(app, (await signIn(app, ada, alpha, ['ADMIN', 'MEMBER'])).cookie, '/admin/sites');
  const post = (as: { cookie: string; token: string }, url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url,
      headers: { ...html, 'content-type': 'application/x-www-form-urlencoded', cookie: as.cookie, ...headers },
      payload: new URLSearchParams({ ...fields, _csrf: as.token }).toString(),
    });
  const get = (cookie: string, url: string, headers: Record<string, string> = {}) => app.inject({ url, headers: { ...html, cookie, ...headers } });

  await t.test('the list holds only the communities the admin administers, with hosts, forum and member counts', async (t) => {
    const res = await get(adaSession.cookie, '/admin/sites');
    t.equal(res.statusCode, 200);
    t.match(res.body, 'data-site="alpha"');
    t.match(res.body, 'data-site="beta"');
    t.notMatch(res.body, 'data-site="gamma"', 'a member but not an admin of gamma: not listed');
    t.match(res.body, 'beta.example.test');
    t.match(res.body, /data-site="alpha"[\s\S]*?<td class="num">2<\/td>/, 'alpha: two active members (Ada and Mia)');
    t.match(res.body, 'href="/admin/sites/new"');
    t.match(res.body, 'href="/admin/dashboards"');
  });

  await t.test('a brand admin (not platform staff) cannot create a site nor change host names; nobody takes the app\'s own host or an IP', async (t) => {
    const bobCookie = (await signIn(app, bob, gamma, ['ADMIN', 'MEMBER'])).cookie;
    const onGamma = { host: 'gamma.example.test' };
    const list = await get(bobCookie, '/admin/sites', onGamma);
    const token = /<meta name="csrf-token" content="([^"]+)"/.exec(list.body)![1]!;
    const bobSession = { token, cookie: `${bobCookie}; _csrf=${list.cookies.find((c) => c.name === '_csrf')!.value}` };
    t.equal(list.statusCode, 200);
    t.notMatch(list.body, 'href="/admin/sites/new"', 'no Create link');
    t.equal((await get(bobSession.cookie, '/admin/sites/new', onGamma)).statusCode, 403);
    t.equal((await post(bobSession, '/admin/sites/new', siteFields('evil'), onGamma)).statusCode, 403);
    t.notOk(await db.selectFrom('communities').select('id').where('code', '=', 'evil').executeTakeFirst(), 'nothing created');
    const form = await get(bobSession.cookie, '/admin/sites/gamma', onGamma);
    t.equal(form.statusCode, 200);
    const fields = { ...siteFields('gamma'), hosts: 'gamma.example.test\nlocalhost' };
    const refused = await post(bobSession, '/admin/sites/gamma', fields, onGamma);
    t.equal(refused.statusCode, 400);
    t.match(refused.body, 'Host names are changed by the platform staff');
    t.same((await db.selectFrom('community_hosts').select('host').where('community_id', '=', gamma.id).execute()).map((h) => h.host), ['gamma.example.test']);
    for (const host of ['localhost', '127.0.0.1', '10.0.0.7']) {
      const res = await post(adaSession, '/admin/sites/new', { ...siteFields('zeta'), hosts: host });
      t.equal(res.statusCode, 400, `${host}: refused`);
      t.match(res.body, 'cannot belong to a community');
    }
    t.equal((await post(adaSession, '/admin/sites/new', { ...siteFields('zeta'), hosts: '[::1]' })).statusCode, 400, '[::1]: not a host name');
  });

  await t.test('a member who is not an admin is refused (sent to sign-in, or 403 for JSON)', async (t) => {
    const cookie = (await signIn(app, member, alpha)).cookie;
    const page = await get(cookie, '/admin/sites');
    t.equal(page.statusCode, 303);
    t.match(page.headers.location, /^\/login\?redirect=%2Fadmin%2Fsites/);
    const json = await app.inject({ url: '/admin/sites/alpha', headers: { accept: 'application/json', cookie } });
    t.equal(json.statusCode, 403);
    const edit = await app.inject({ method: 'POST', url: '/admin/sites/alpha', headers: { accept: 'application/json', cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=Hacked' });
    t.ok(edit.statusCode === 403 || edit.statusCode === 302, `refused (${edit.statusCode})`);
    t.equal((await db.selectFrom('communities').select('name').where('id', '=', alpha.id).executeTakeFirstOrThrow()).name, 'Alpha Council');
  });

  await t.test('create with every field: stored, the creator is its admin, the hosts resolve, the action is recorded', async (t) => {
    const res = await post(adaSession, '/admin/sites/new', siteFields('delta'));
    t.equal(res.statusCode, 303, res.body.slice(0, 2000));
    t.equal(res.headers.location, '/admin/sites/delta?done=created');
    const c = await db.selectFrom('communities').selectAll().where('code', '=', 'delta').executeTakeFirstOrThrow();
    t.match(c, {
      name: 'delta Network',
      app_name: 'delta App',
      familiar_name: 'delta',
      color_primary: '#1f4e79',
      color_accent: '#8a3b12',
      icon: 'img/summit-logo.svg',
      auth_logo: 'https://cdn.example.com/logo.png',
      forum_enabled: true,
      concierge_email: 'concierge@example.com',
      concierge_phone: '+1 512 555 0142',
      copyright_holder: 'delta Inc.',
      exec_link: 'https://example.com/exec',
      link_terms: 'https://example.com/terms',
      link_privacy: 'https://example.com/privacy',
      link_membership_info: 'https://example.com/join',
      google_analytics_id: 'G-ABC1234',
      google_tag_manager_id: 'GTM-XYZ123',
      auth_slug: 'delta',
      auth_background_image: 'img/summit-background.svg',
      auth_play_store_link: 'https://play.google.com/store/apps/details?id=com.example',
      auth_app_store_link: 'https://apps.apple.com/app/id123456',
      auth_text_color: '#ffffff',
    });
    t.same(c.nav_more, [
      { label: 'Events', link: 'https://example.com/events' },
      { label: 'Articles', link: '/articles' },
    ]);
    const hosts = await db.selectFrom('community_hosts').select('host').where('community_id', '=', c.id).orderBy('host').execute();
    t.same(hosts.map((h) => h.host), ['delta.example.test', 'www.delta.example.test']);
    const m = await db.selectFrom('memberships').select(['roles', 'is_active']).where('community_id', '=', c.id).where('user_id', '=', ada.id).executeTakeFirstOrThrow();
    t.same(m, { roles: ['ADMIN', 'MEMBER'], is_active: true }, 'the creating admin administers it');
    const action = await db.selectFrom('staff_actions').selectAll().where('community_id', '=', c.id).executeTakeFirstOrThrow();
    t.match(action, { actor_id: ada.id, action: 'site.create', member_id: null });
    t.match(action.detail, /(^|,)code(,|$)/);
    t.match(action.detail, /hosts/);
    // At once on this node: the new host serves the new community.
    const home = await app.inject({ url: '/login', headers: { ...html, host: 'delta.example.test' } });
    t.match(home.body, '<title>Sign In | delta App</title>');
    const edit = await get(adaSession.cookie, '/admin/sites/delta?done=created');
    t.match(edit.body, 'You are its admin');
    t.match(edit.body, 'contrast 8.');
    t.match(edit.body, 'meets WCAG AA');
  });

  await t.test('bad input (JS off): messages next to the fields, every typed value kept, nothing stored', async (t) => {
    const fields = siteFields('Bad Code!', {
      name: '',
      colorPrimary: '#ffff00',
      colorAccent: 'blue',
      authTextColor: 'white',
      conciergeEmail: 'not-an-email',
      conciergePhone: '12',
      linkTerms: 'ftp://example.com/terms',
      googleAnalytics: 'GA-nope',
      googleTagManager: 'XYZ',
      icon: 'img/missing-file.svg',
      authBackgroundImage: '../../etc/passwd',
      hosts: 'ok.example.test\nhttps://bad host/',
      'nav.2.label': 'No link',
      'nav.2.link': '',
    });
    const res = await post(adaSession, '/admin/sites/new', fields);
    t.equal(res.statusCode, 400);
    const messageFor = (id: string) => new RegExp(`id="${id.replace(/\./g, '\\.')}-error"[^>]*>([^<]+)<`).exec(res.body)?.[1];
    t.match(messageFor('code'), 'lowercase letters');
    t.match(messageFor('name'), 'Enter a value');
    t.match(messageFor('colorPrimary'), /contrast of 1\.0\d:1; WCAG AA needs at least 4\.5:1/);
    t.match(messageFor('colorAccent'), '#rrggbb');
    t.match(messageFor('authTextColor'), '#rrggbb');
    t.match(messageFor('conciergeEmail'), 'valid email');
    t.match(messageFor('conciergePhone'), 'valid phone');
    t.match(messageFor('linkTerms'), 'https://');
    t.match(messageFor('googleAnalytics'), 'G-ABC1234');
    t.match(messageFor('googleTagManager'), 'GTM-');
    t.match(messageFor('icon'), 'under static/');
    t.match(messageFor('authBackgroundImage'), 'under static/');
    t.match(messageFor('hosts'), 'https://bad');
    t.match(messageFor('nav.2.link'), 'path starting with /');
    t.match(res.body, 'aria-invalid="true"');
    for (const value of ['Bad Code!', 'not-an-email', 'ftp://example.com/terms', 'GA-nope', 'img/missing-file.svg', 'No link', '#ffff00']) {
      t.match(res.body, `value="${value}"`, `kept: ${value}`);
    }
    t.match(res.body, /<textarea[^>]*id="hosts"[^>]*>ok\.example\.test\nhttps:\/\/bad host\/<\/textarea>/, 'the hosts as typed');
    t.match(res.body, 'below WCAG AA', 'the contrast note next to the colour');
    t.notOk(await db.selectFrom('communities').select('id').where('name', '=', '').executeTakeFirst(), 'nothing stored');
  });

  await t.test('a duplicate code or host is refused clearly, next to its field', async (t) => {
    const dupCode = await post(adaSession, '/admin/sites/new', siteFields('beta', { hosts: 'fresh.example.test' }));
    t.equal(dupCode.statusCode, 400);
    t.match(dupCode.body, /id="code-error"[^>]*>Another community already has this code/);
    const dupHost = await post(adaSession, '/admin/sites/new', siteFields('epsilon', { hosts: 'epsilon.example.test\nGAMMA.example.test' }));
    t.equal(dupHost.statusCode, 400);
    t.match(dupHost.body, /id="hosts-error"[^>]*>Another community already uses this host name: gamma\.example\.test/);
    t.notOk(await db.selectFrom('communities').select('id').where('code', '=', 'epsilon').executeTakeFirst());
    const reserved = await post(adaSession, '/admin/sites/new', siteFields('new', { hosts: '' }));
    t.match(reserved.body, /id="code-error"[^>]*>This code is reserved/, 'not the address of the creation form');
    const editDup = await post(adaSession, '/admin/sites/beta', siteFields('beta', { name: 'Beta Guild', hosts: 'beta.example.test\ngamma.example.test' }));
    t.equal(editDup.statusCode, 400);
    t.match(editDup.body, 'Another community already uses this host name: gamma.example.test');
  });

  await t.test('hostile input is a 4xx, never a 5xx', async (t) => {
    const cases: Record<string, string>[] = [
      siteFields('zeta', { name: 'Nul\u0000byte' }),
      siteFields('zeta', { hosts: 'a\u0000.example.test' }),
      siteFields('zeta', { 'nav.0.label': '\u0007bell' }),
      siteFields('zeta', { copyrightHolder: 'x'.repeat(100_000) }),
      siteFields('zeta', { hosts: Array.from({ length: 50 }, (_, i) => `h${i}.example.test`).join('\n') }),
      siteFields('zeta', { code: '\ud800' }),
    ];
    for (const fields of cases) {
      const res = await post(adaSession, '/admin/sites/new', fields);
      t.ok(res.statusCode >= 400 && res.statusCode < 500, `4xx (${res.statusCode})`);
    }
    const weird = await get(adaSession.cookie, `/admin/sites/${encodeURIComponent('a\u0000b')}`);
    t.equal(weird.statusCode, 404);
    t.notOk(await db.selectFrom('communities').select('id').where('code', '=', 'zeta').executeTakeFirst());
  });

  await t.test('edit: the change is visible at once on this node, the code stays, the action lists the changed fields', async (t) => {
    // Warm the cache of beta's host first.
    t.match((await app.inject({ url: '/login', headers: { ...html, host: 'beta.example.test' } })).body, 'Sign In | beta App');
    const form = await get(adaSession.cookie, '/admin/sites/beta');
    t.equal(form.statusCode, 200);
    t.match(form.body, 'Code: beta (cannot be changed)');
    t.match(form.body, 'name="nav.2.label"', 'blank rows to add navMore links without JavaScript');
    const res = await post(adaSession, '/admin/sites/beta', siteFields('renamed', { name: 'Beta Guild Renamed', appName: 'Beta Renamed App', hosts: 'beta.example.test\nbeta2.example.test', forumEnabled: '' }));
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, '/admin/sites/beta?done=saved');
    const c = await db.selectFrom('communities').selectAll().where('id', '=', beta.id).executeTakeFirstOrThrow();
    t.equal(c.code, 'beta', 'the code cannot be changed');
    t.equal(c.name, 'Beta Guild Renamed');
    t.equal(c.forum_enabled, false);
    t.match((await app.inject({ url: '/login', headers: { ...html, host: 'beta.example.test' } })).body, 'Sign In | Beta Renamed App', 'at once, not after the cache expires');
    t.match((await app.inject({ url: '/login', headers: { ...html, host: 'beta2.example.test' } })).body, 'Sign In | Beta Renamed App', 'the added host serves it at once');
    const action = await db.selectFrom('staff_actions').selectAll().where('community_id', '=', beta.id).where('action', '=', 'site.update').executeTakeFirstOrThrow();
    t.equal(action.actor_id, ada.id);
    t.match(action.detail, 'name');
    t.match(action.detail, 'hosts');
    t.notMatch(action.detail, 'code');
    // Removing a host name: it no longer serves beta.
    const removed = await post(adaSession, '/admin/sites/beta', siteFields('beta', { name: 'Beta Guild Renamed', appName: 'Beta Renamed App', hosts: 'beta.example.test', forumEnabled: '' }));
    t.equal(removed.statusCode, 303);
    t.notMatch((await app.inject({ url: '/login', headers: { ...html, host: 'beta2.example.test' } })).body, 'Beta Renamed App');
    const again = await post(adaSession, '/admin/sites/beta', siteFields('beta', { name: 'Beta Guild Renamed', appName: 'Beta Renamed App', hosts: 'beta.example.test', forumEnabled: '' }));
    t.equal(again.headers.location, '/admin/sites/beta?done=unchanged', 'nothing changed, nothing recorded');
    t.equal((await db.selectFrom('staff_actions').select('id').where('community_id', '=', beta.id).execute()).length, 2);
  });

  await t.test('an admin of one community cannot see or edit another', async (t) => {
    t.equal((await get(adaSession.cookie, '/admin/sites/gamma')).statusCode, 404, 'Ada is a member of gamma, not its admin');
    const res = await post(adaSession, '/admin/sites/gamma', siteFields('gamma', { name: 'Taken over' }));
    t.equal(res.statusCode, 404);
    const bobCookie = (await signIn(app, bob, gamma, ['ADMIN', 'MEMBER'])).cookie;
    const list = await app.inject({ url: '/admin/sites', headers: { ...html, cookie: bobCookie, host: 'gamma.example.test' } });
    const token = /<meta name="csrf-token" content="([^"]+)"/.exec(list.body)![1]!;
    const bobSession = { token, cookie: `${bobCookie}; _csrf=${list.cookies.find((c) => c.name === '_csrf')!.value}` };
    t.match(list.body, 'data-site="gamma"');
    t.notMatch(list.body, 'data-site="alpha"');
    const bobEdit = await app.inject({
      method: 'POST',
      url: '/admin/sites/alpha',
      headers: { ...html, host: 'gamma.example.test', 'content-type': 'application/x-www-form-urlencoded', cookie: bobSession.cookie },
      payload: new URLSearchParams({ ...siteFields('alpha', { name: 'Taken over' }), _csrf: bobSession.token }).toString(),
    });
    t.equal(bobEdit.statusCode, 404);
    t.equal((await db.selectFrom('communities').select('name').where('id', '=', alpha.id).executeTakeFirstOrThrow()).name, 'Alpha Council');
  });

  await t.test('the dashboards page links each brand’s admin area on its own host, with the request’s scheme and port', async (t) => {
    const res = await get(adaSession.cookie, '/admin/dashboards', { host: 'localhost:3105' });
    t.equal(res.statusCode, 200);
    t.match(res.body, 'href="http://beta.example.test:3105/admin"');
    t.match(res.body, 'href="http://delta.example.test:3105/admin"');
    t.match(res.body, 'Alpha Council has no host name yet');
    t.notMatch(res.body, 'gamma.example.test');
    const proxied = await get(adaSession.cookie, '/admin/dashboards', { host: 'localhost' });
    t.match(proxied.body, 'href="http://beta.example.test/admin"', 'no port when the request had none');
  });

  await t.test('GET /admin sends an admin of the community coded `admin` to the sites page; others get the admin home', async (t) => {
    const network = platform;
    const staff = await createMember(db, network, { roles: ['ADMIN', 'MEMBER'] });
    const cookie = (await signIn(app, staff, network, ['ADMIN', 'MEMBER'])).cookie;
    const res = await app.inject({ url: '/admin', headers: { ...html, cookie, host: 'admin.example.test' } });
    t.equal(res.statusCode, 302);
    t.equal(res.headers.location, '/admin/sites');
    const home = await get(adaSession.cookie, '/admin');
    t.equal(home.statusCode, 200);
    t.match(home.body, 'href="/admin/sites"', 'the admin home links the sites area');
  });
  await t.test('the accent (borders only) may be below 4.5:1: saved, and the note says so; the primary may not', async (t) => {
    const res = await post(adaSession, '/admin/sites/delta', siteFields('delta', { colorAccent: '#b5651d' }));
    t.equal(res.statusCode, 303);
    const page = await get(adaSession.cookie, '/admin/sites/delta');
    t.match(page.body, /id="colorAccent-contrast"[^>]*>White text on #b5651d: contrast 4\.33:1, below WCAG AA \(4\.5:1\)\. Allowed for the accent/);
    const primary = await post(adaSession, '/admin/sites/delta', siteFields('delta', { colorPrimary: '#b5651d' }));
    t.equal(primary.statusCode, 400);
    t.match(primary.body, /id="colorPrimary-error"[^>]*>White text on this colour has a contrast of 4\.33:1/);
  });

  await t.test('GraphQL (staff schema): sites, siteUpdate and siteCreate with the cookie and CSRF token, or a bearer token', async (t) => {
    const gql = (query: string, variables: object, headers: Record<string, string>) =>
      app.inject({ method: 'POST', url: '/graphqlAdmin', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });
    const cookieClient = { cookie: adaSession.cookie, 'x-csrf-token': adaSession.token };
    const list = await gql('{ sites { code hosts memberCount forumEnabled } }', {}, cookieClient);
    t.equal(list.statusCode, 200, list.body);
    const codes = list.json().data.sites.map((s: { code: string }) => s.code);
    t.ok(codes.includes('alpha') && codes.includes('beta') && codes.includes('delta'), 'administered sites');
    t.notOk(codes.includes('gamma'), 'not gamma');
    const noCsrf = await gql('{ sites { code } }', {}, { cookie: adaSession.cookie });
    t.equal(noCsrf.statusCode, 403, 'a cookie client without the CSRF token is refused');

    const updated = await gql(SITE_UPDATE, { code: 'delta', input: siteInput('delta', { name: 'Delta by GraphQL', hosts: ['delta.example.test'] }) }, cookieClient);
    t.match(updated.json().data.siteUpdate, { code: 'delta', name: 'Delta by GraphQL', hosts: ['delta.example.test'], forumEnabled: true, navMore: [{ label: 'Events' }, { label: 'Articles' }] });

    const bad = await gql(SITE_UPDATE, { code: 'delta', input: siteInput('delta', { colorPrimary: '#eeeeee', conciergeEmail: 'nope' }) }, cookieClient);
    const error = bad.json().errors[0];
    t.equal(error.extensions.code, 'BadRequest.Validation');
    t.same(Object.keys(error.extensions.fields).sort(), ['colorPrimary', 'conciergeEmail']);
    t.equal(error.extensions.fields.conciergeEmail.code, 130, 'the email: catalogue code 130');
    const badEmail = await gql(SITE_UPDATE, { code: 'delta', input: siteInput('delta', { conciergeEmail: 'nope' }) }, cookieClient);
    t.equal(badEmail.json().errors[0].extensions.code, '130', 'only a bad email: code 130 (invalid email)');
    t.equal(badEmail.json().errors[0].message, 'Please enter a valid email address.', 'the spec’s message');
    const badUrl = await gql(SITE_UPDATE, { code: 'delta', input: siteInput('delta', { linkTerms: 'javascript:alert(1)' }) }, cookieClient);
    t.equal(badUrl.json().errors[0].extensions.code, '100', 'only a bad address: code 100 (invalid URL)');
    const badPhone = await gql(SITE_UPDATE, { code: 'delta', input: siteInput('delta', { conciergePhone: '12' }) }, cookieClient);
    t.equal(badPhone.json().errors[0].extensions.code, '110', 'only a bad phone: code 110 (invalid phone)');
    const other = await gql(SITE_UPDATE, { code: 'gamma', input: siteInput('gamma') }, cookieClient);
    t.equal(other.json().errors[0].extensions.code, 'NotFound', 'another community’s site is not found');
    const hostile = await gql(SITE_UPDATE, { code: 'delta\u0000', input: siteInput('delta', { name: 'x\u0000y' }) }, cookieClient);
    t.ok(hostile.statusCode < 500, `hostile: ${hostile.statusCode}`);
    t.ok(hostile.json().errors?.length, 'refused');

    // A bearer client: the admin sign-in's token, no cookie, no CSRF token.
    const { token } = await signIn(app, ada, alpha, ['ADMIN', 'MEMBER']);
    const created = await gql(
      'mutation ($code: String!, $input: SiteInput!) { siteCreate(code: $code, input: $input) { code name memberCount } }',
      { code: 'eta', input: siteInput('eta', { name: 'Eta by bearer', hosts: ['eta.example.test'] }) },
      { authorization: `Bearer ${token}` },
    );
    t.same(created.json().data?.siteCreate, { code: 'eta', name: 'Eta by bearer', memberCount: 1 }, created.body);
    const memberToken = (await signIn(app, member, alpha)).token;
    const refused = await gql('{ sites { code } }', {}, { authorization: `Bearer ${memberToken}` });
    t.equal(refused.statusCode, 403, 'a member’s token is refused on the staff schema');
  });
});
