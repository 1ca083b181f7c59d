import t from 'tap';
import type { LightMyRequestResponse } from 'fastify';
import { checkLink } from '#src/features/members/profile.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { GOOD_PASSWORD, setPassword } from '#test/helpers/auth.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';
import { createArticle } from '#test/helpers/members-profiles.ts';

const html = { accept: 'text/html' };
const FORM = 'application/x-www-form-urlencoded';

t.test('profiles: the page, one’s own profile, GraphQL', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'] });
  const { app } = await startApp(t, db, { clock });

  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace', companyName: 'Analytical Engines' });
  const grace = await createMember(db, alpha, { firstName: 'Grace', lastName: 'Hopper' });
  const gone = await createMember(db, alpha, { firstName: 'Gone', lastName: 'Away', active: false });
  const bea = await createMember(db, beta, { firstName: 'Bea', lastName: 'Beta' });
  await db
    .updateTable('memberships')
    .set({
      pronouns: 'she/her',
      display_pronouns: true,
      is_moderator: true,
      industry: 'Software & Technology',
      company_description: 'We build engines.\n\nThe difference engine.',
      company_area_of_focus: 'Computation',
      company_employee_count: 42,
      link_linkedin: 'https://www.linkedin.com/in/ada',
      link_website: 'https://ada.example.com/',
    })
    .where('user_id', '=', ada.id)
    .execute();
  await db.updateTable('memberships').set({ pronouns: 'she/her', display_pronouns: false }).where('user_id', '=', grace.id).execute();
  await createArticle(db, alpha, ada.id, 'Notes on the Engine');
  await createArticle(db, alpha, ada.id, 'A draft in review', 'FIRST_ROUND_EDIT');

  const adaSession = await signIn(app, ada, alpha);
  const graceSession = await signIn(app, grace, alpha);
  const get = (url: string, cookie: string, host?: string) => app.inject({ url, headers: { ...html, cookie, ...(host ? { host } : {}) } });

  await t.test('another member’s profile: snapshot, company, links, published articles, the introduction link', async (t) => {
    const res = await get(`/profile/${ada.id}`, graceSession.cookie);
    t.equal(res.statusCode, 200);
    const body = res.body;
    t.match(body, '<h1 id="profile-name">Ada Lovelace');
    t.match(body, '(she/her)', 'displayed pronouns show');
    t.match(body, 'Moderator');
    t.match(body, 'Chief Executive Officer, Analytical Engines');
    t.match(body, 'Austin, TX');
    t.match(body, 'Software &amp; Technology');
    t.match(body, 'Computation');
    t.match(body, '<dd>42</dd>');
    t.match(body, '<p>We build engines.</p><p>The difference engine.</p>');
    t.match(body, '<a href="https://www.linkedin.com/in/ada" rel="noopener noreferrer ugc">linkedin.com/in/ada</a>');
    t.match(body, 'href="https://ada.example.com/"');
    t.match(body, 'Notes on the Engine');
    t.notMatch(body, 'A draft in review', 'only published articles');
    // The introductions area's link: a page without JavaScript, a native dialog with it.
    t.match(body, new RegExp(`<a class="button button-secondary" href="/profile/${ada.id}/introduce" data-introduce="">Request introduction<span class="visually-hidden">`));
    t.match(body, /IntroduceDialog/, 'the dialog script is on the page');
    t.notMatch(body, 'Edit profile');
  });

  await t.test('pronouns not displayed stay hidden; one’s own profile has Edit profile instead of the introduction', async (t) => {
    const res = await get(`/profile/${grace.id}`, graceSession.cookie);
    t.equal(res.statusCode, 200);
    t.notMatch(res.body, 'she/her');
    t.notMatch(res.body, 'data-introduce');
    t.match(res.body, `href="/profile/${grace.id}/self">Edit profile</a>`);
  });

  await t.test('another community’s member, a deactivated member, an unknown or non-numeric id: 404', async (t) => {
    for (const url of [`/profile/${bea.id}`, `/profile/${gone.id}`, '/profile/99999999', '/profile/abc', '/profile/1e3', '/profile/-1']) {
      const res = await get(url, graceSession.cookie);
      t.equal(res.statusCode, 404, url);
      t.match(res.body, 'main', 'the app’s not-found page');
    }
    const beaSession = await signIn(app, bea, beta);
    t.equal((await get(`/profile/${ada.id}`, beaSession.cookie, 'beta.test')).statusCode, 404, 'from the other community’s host');
    t.equal((await get(`/profile/${bea.id}`, beaSession.cookie, 'beta.test')).statusCode, 200);
    const visitor = await app.inject({ url: `/profile/${ada.id}`, headers: html });
    t.not(visitor.statusCode, 200, 'signed out is not shown the profile');
  });

  await t.test('/self: only one’s own (404 for anyone else’s, GET and POST); the form has every field and the notices', async (t) => {
    const res = await get(`/profile/${grace.id}/self`, graceSession.cookie);
    t.equal(res.statusCode, 200);
    for (const name of ['pronouns', 'displayPronouns', 'jobTitle', 'companyName', 'location', 'industry', 'companyDescription', 'areaOfFocus', 'employeeCount', 'linkedin', 'twitter', 'facebook', 'instagram', 'crunchbase', 'angellist', 'website']) {
      t.match(res.body, `name="${name}"`, name);
    }
    t.match(res.body, /id="profile-name"[^>]*readOnly|id="profile-name"[^>]*readonly/i, 'the name is read-only');
    t.match(res.body, 'Public profile changes may take 24 hours to appear');
    t.match(res.body, 'Empty profiles may be supplemented after 30 days');
    t.match(res.body, /enctype="multipart\/form-data"/i);
    t.equal((await get(`/profile/${ada.id}/self`, graceSession.cookie)).statusCode, 404);
    const form = await csrfFor(app, graceSession.cookie, `/profile/${grace.id}/self`);
    const post = await app.inject({
      method: 'POST',
      url: `/profile/${ada.id}/self`,
      headers: { cookie: form.cookie, 'content-type': FORM },
      payload: new URLSearchParams({ _csrf: form.token, jobTitle: 'Hijacked' }).toString(),
    });
    t.equal(post.statusCode, 404);
    const row = await db.selectFrom('memberships').select('job_title').where('user_id', '=', ada.id).executeTakeFirstOrThrow();
    t.equal(row.job_title, 'Chief Executive Officer');
  });

  const form = await csrfFor(app, graceSession.cookie, `/profile/${grace.id}/self`);
  const save = (fields: Record<string, string>, csrf = true) =>
    app.inject({
      method: 'POST',
      url: `/profile/${grace.id}/self`,
      headers: { cookie: form.cookie, 'content-type': FORM, ...html },
      payload: new URLSearchParams({ ...(csrf ? { _csrf: form.token } : {}), ...fields }).toString(),
    });
  const full = {
    pronouns: 'she/her',
    displayPronouns: 'on',
    jobTitle: 'Rear Admiral',
    companyName: 'US Navy',
    location: 'Arlington, VA',
    industry: 'Government & Nonprofit',
    companyDescription: 'Compilers.\r\n\r\nCOBOL.',
    areaOfFocus: 'Programming languages',
    employeeCount: '1,000',
    linkedin: 'linkedin.com/in/grace-hopper',
    twitter: 'https://x.com/gracehopper',
    facebook: 'https://www.facebook.com/grace.hopper',
    instagram: 'https://instagram.com/grace.hopper',
    crunchbase: 'https://www.crunchbase.com/person/grace-hopper',
    angellist: 'https://wellfound.com/u/grace',
    website: 'http://grace.example.org/about',
  };

  await t.test('saving: every field stored, profile_updated_at set, redirect to a saved notice', async (t) => {
    t.equal((await save(full, false)).statusCode, 403, 'without the CSRF token: refused');
    const res = await save(full);
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, `/profile/${grace.id}/self?saved=1`);
    const row = await db.selectFrom('memberships').selectAll().where('user_id', '=', grace.id).executeTakeFirstOrThrow();
    t.match(row, {
      pronouns: 'she/her',
      display_pronouns: true,
      job_title: 'Rear Admiral',
      company_name: 'US Navy',
      location_name: 'Arlington, VA',
      location_familiar_name: 'Arlington',
      industry: 'Government & Nonprofit',
      company_description: 'Compilers.\n\nCOBOL.',
      company_area_of_focus: 'Programming languages',
      company_employee_count: 1000,
      link_linkedin: 'https://linkedin.com/in/grace-hopper',
      link_twitter: 'https://x.com/gracehopper',
      link_website: 'http://grace.example.org/about',
    });
    t.same(row.profile_updated_at, clock.now());
    const page = await get(`/profile/${grace.id}/self?saved=1`, graceSession.cookie);
    t.match(page.body, 'Your profile is saved.');
    const shown = await get(`/profile/${grace.id}`, adaSession.cookie);
    t.match(shown.body, '(she/her)');
    t.match(shown.body, 'Rear Admiral, US Navy');
    const cleared = await save({ ...full, displayPronouns: '', twitter: '', employeeCount: '' });
    t.equal(cleared.statusCode, 303, 'an unchecked box and empty fields clear');
    const after = await db.selectFrom('memberships').selectAll().where('user_id', '=', grace.id).executeTakeFirstOrThrow();
    t.equal(after.display_pronouns, false);
    t.equal(after.link_twitter, null);
    t.equal(after.company_employee_count, null);
  });

  await t.test('bad links and numbers: 400, a message next to each field, every typed value kept, nothing saved', async (t) => {
    const before = await db.selectFrom('memberships').selectAll().where('user_id', '=', grace.id).executeTakeFirstOrThrow();
    const bad = {
      ...full,
      jobTitle: 'Typed title kept',
      linkedin: 'https://www.facebook.com/grace',
      twitter: 'https://x.com/this-handle-is-way-too-long',
      facebook: 'javascript:alert(1)',
      instagram: 'https://instagram.com/',
      crunchbase: 'https://www.crunchbase.com/hub/grace',
      angellist: 'https://angel.co',
      website: 'not a web address',
      employeeCount: '-3',
      industry: 'Piracy',
      areaOfFocus: 'x'.repeat(201),
    };
    const res = await save(bad);
    t.equal(res.statusCode, 400);
    const body = res.body;
    t.match(body, 'Your profile was not saved.');
    t.match(body, 'Enter your LinkedIn profile address');
    t.match(body, 'Enter your Twitter (X) profile address');
    t.match(body, 'id="profile-facebook-error"');
    t.match(body, 'Enter your Instagram profile address');
    t.match(body, 'Enter your Crunchbase address');
    t.match(body, 'Enter your AngelList (Wellfound) address');
    t.match(body, 'Enter a web address starting with https://');
    t.match(body, 'Enter a whole number of employees from 1 to 10,000,000.');
    t.match(body, 'Choose an industry from the list.');
    t.match(body, 'Use at most 200 characters.');
    t.match(body, 'value="Typed title kept"');
    t.match(body, 'value="https://x.com/this-handle-is-way-too-long"');
    t.match(body, 'value="not a web address"');
    t.match(body, 'value="-3"');
    t.match(body, /Compilers\.\r?\n\r?\nCOBOL\.<\/textarea>/, 'the description as typed');
    t.match(body, /aria-invalid="true" aria-describedby="profile-website-error profile-website-hint"/);
    const after = await db.selectFrom('memberships').selectAll().where('user_id', '=', grace.id).executeTakeFirstOrThrow();
    t.same(after, before, 'nothing saved');
  });

  await t.test('an industry outside the list, set before it (or by staff), is kept when saved unchanged', async (t) => {
    await db.updateTable('memberships').set({ industry: 'Aerospace' }).where('user_id', '=', grace.id).execute();
    const page = await get(`/profile/${grace.id}/self`, graceSession.cookie);
    t.match(page.body, '<option value="Aerospace" selected="">Aerospace</option>');
    t.equal((await save({ ...full, industry: 'Aerospace' })).statusCode, 303);
    t.equal((await save({ ...full, industry: 'Shipbuilding' })).statusCode, 400, 'another value outside the list is refused');
    t.equal((await save({ ...full, displayPronouns: '' })).statusCode, 303);
  });

  await t.test('the link rules', async (t) => {
    const ok = (n: Parameters<typeof checkLink>[0], v: string) => 'value' in checkLink(n, v);
    t.ok(ok('linkedin', 'https://www.linkedin.com/company/acme/'));
    t.ok(ok('linkedin', 'https://uk.linkedin.com/in/ada') === false, 'a country host is not the network’s');
    t.ok(ok('twitter', 'https://twitter.com/ada_l'));
    t.notOk(ok('twitter', 'https://x.com/ada/status/1'));
    t.ok(ok('facebook', 'https://m.facebook.com/profile.php?id=4'));
    t.ok(ok('crunchbase', 'https://crunchbase.com/organization/acme'));
    t.ok(ok('angellist', 'https://angel.co/u/ada'));
    t.notOk(ok('website', 'ftp://example.com'));
    t.notOk(ok('website', 'https://localhost/'));
    t.notOk(ok('website', 'https://user:pass@example.com/'));
    t.notOk(ok('website', `https://example.com/${'a'.repeat(300)}`));
  });

  await t.test('hostile input is a 4xx, never a 5xx', async (t) => {
    for (const value of ['a\u0000b', 'x'.repeat(100_000), 'a\u0007b']) {
      for (const field of ['pronouns', 'jobTitle', 'companyDescription', 'linkedin', 'website', 'employeeCount', 'industry']) {
        const res = await save({ ...full, [field]: value });
        t.ok(res.statusCode >= 400 && res.statusCode < 500, `${field} = ${JSON.stringify(value.slice(0, 8))}: ${res.statusCode}`);
      }
    }
    const raw = await app.inject({
      method: 'POST',
      url: `/profile/${grace.id}/self`,
      headers: { cookie: form.cookie, 'content-type': FORM, ...html },
      payload: `_csrf=${encodeURIComponent(form.token)}&jobTitle=%ED%A0%80&website=%&pronouns=%E0%A4%A`,
    });
    t.ok(raw.statusCode < 500, `malformed encoding: ${raw.statusCode}`);
    const nul = await save({ ...full, jobTitle: 'a\u0000b' });
    t.match(nul.body, 'id="profile-jobTitle-error"');
    const json = await app.inject({
      method: 'POST',
      url: `/profile/${grace.id}/self`,
      headers: { cookie: form.cookie, 'content-type': 'application/json', 'x-csrf-token': form.token },
      payload: JSON.stringify({ jobTitle: ['a'], employeeCount: { n: 1 }, linkedin: 5 }),
    });
    t.ok(json.statusCode < 500, `JSON of the wrong shapes: ${json.statusCode}`);
  });

  const gql = (query: string, variables: object, headers: Record<string, string>): Promise<LightMyRequestResponse> =>
    app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });
  const PROFILE_FIELDS = 'id name pronouns displayPronouns jobTitle companyName location avatar company { name industry employeeCount description areaOfFocus } links { linkedin website } publishedArticles { title articleUrl publishedDate }';

  await t.test('GraphQL with the cookie and the CSRF token: me.memberProfile, memberProfile(id), profileUpdate', async (t) => {
    const adaForm = await csrfFor(app, adaSession.cookie, `/profile/${ada.id}/self`);
    const headers = { cookie: adaForm.cookie, 'x-csrf-token': adaForm.token };
    const me = await gql(`{ me { id profile { companyName } memberProfile { ${PROFILE_FIELDS} } } }`, {}, headers);
    t.equal(me.statusCode, 200);
    const data = me.json().data.me;
    t.equal(data.profile.companyName, 'Analytical Engines', 'the spec’s profile still answers');
    t.match(data.memberProfile, {
      id: String(ada.id),
      name: 'Ada Lovelace',
      pronouns: 'she/her',
      company: { name: 'Analytical Engines', industry: 'Software & Technology', employeeCount: 42, areaOfFocus: 'Computation' },
      links: { linkedin: 'https://www.linkedin.com/in/ada', website: 'https://ada.example.com/' },
      publishedArticles: [{ title: 'Notes on the Engine', publishedDate: '2026-10-01T12:00:00.000Z' }],
    });

    const other = await gql('query($id: ID!) { memberProfile(id: $id) { id pronouns displayPronouns } }', { id: String(grace.id) }, headers);
    t.same(other.json().data.memberProfile, { id: String(grace.id), pronouns: null, displayPronouns: false }, 'pronouns not displayed are not given');
    for (const id of [bea.id, gone.id, 999999]) {
      const res = await gql('query($id: ID!) { memberProfile(id: $id) { id } }', { id: String(id) }, headers);
      t.equal(res.json().data.memberProfile, null, `memberProfile(${id}) is null`);
    }
    t.equal((await gql('query { memberProfile(id: "x\\u0000") { id } }', {}, headers)).json().data.memberProfile, null);

    const update = await gql(
      'mutation($input: ProfileInput!) { profileUpdate(input: $input) { jobTitle company { employeeCount } links { twitter linkedin } } }',
      { input: { jobTitle: 'Analyst', employeeCount: 7, links: { twitter: 'https://twitter.com/ada' } } },
      headers,
    );
    t.same(update.json().data.profileUpdate, { jobTitle: 'Analyst', company: { employeeCount: 7 }, links: { twitter: 'https://twitter.com/ada', linkedin: 'https://www.linkedin.com/in/ada' } }, 'fields left out stay');

    const refused = await gql('mutation($input: ProfileInput!) { profileUpdate(input: $input) { id } }', { input: { links: { linkedin: 'https://example.com/ada' }, employeeCount: 0 } }, headers);
    const error = refused.json().errors[0];
    t.equal(error.extensions.code, 'BadRequest.Validation');
    t.same(Object.keys(error.extensions.fields).sort(), ['employeeCount', 'linkedin']);
    t.equal(error.extensions.fields.linkedin.key, 'profile.errors.links.linkedin');
    t.equal(error.extensions.fields.linkedin.code, 100, 'the link: catalogue code 100, invalid URL');
    const badLinks = await gql('mutation($input: ProfileInput!) { profileUpdate(input: $input) { id } }', { input: { links: { website: 'not a web address', linkedin: 'https://example.com/ada' } } }, headers);
    const linkError = badLinks.json().errors[0];
    t.equal(linkError.extensions.code, '100', 'only bad addresses: the answer is code 100 (invalid URL)');
    t.equal(linkError.message, 'Please enter a valid URL.');
    t.same(linkError.extensions.fields.website, { code: 100, key: 'profile.errors.webAddress' }, 'each field names the code and its own message');
    const nullLinks = await gql('mutation { profileUpdate(input: { links: null }) { id } }', {}, headers);
    t.equal(nullLinks.json().errors[0].extensions.code, '100');

    const noToken = await gql('mutation { profileUpdate(input: { jobTitle: "x" }) { id } }', {}, { cookie: adaForm.cookie });
    t.equal(noToken.json().errors[0].extensions.code, 'BadRequest.Csrf', 'a cookie without the token is refused');
    const nul = await gql('mutation($input: ProfileInput!) { profileUpdate(input: $input) { id } }', { input: { jobTitle: 'a\u0000' } }, headers);
    t.equal(nul.json().errors[0].extensions.code, '150');
    const visitor = await gql('mutation { profileUpdate(input: { jobTitle: "x" }) { id } }', {}, {});
    t.equal(visitor.json().errors[0].extensions.code, 'NotAuthenticated');
  });

  await t.test('GraphQL with a bearer token', async (t) => {
    await setPassword(db, grace.id);
    const login = await app.inject({ method: 'POST', url: '/rest/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ username: grace.email, password: GOOD_PASSWORD }) });
    t.equal(login.statusCode, 200);
    const bearer = { authorization: `Bearer ${login.json().authToken}` };
    const res = await gql('mutation { profileUpdate(input: { areaOfFocus: "Compilers", displayPronouns: true }) { id pronouns company { areaOfFocus } } }', {}, bearer);
    t.same(res.json().data.profileUpdate, { id: String(grace.id), pronouns: 'she/her', company: { areaOfFocus: 'Compilers' } });
    const me = await gql('{ me { memberProfile { id company { areaOfFocus } } } }', {}, bearer);
    t.equal(me.json().data.me.memberProfile.company.areaOfFocus, 'Compilers');
    const ofAda = await gql('query($id: ID!) { memberProfile(id: $id) { name } }', { id: String(ada.id) }, bearer);
    t.equal(ofAda.json().data.memberProfile.name, 'Ada Lovelace');
  });
});
