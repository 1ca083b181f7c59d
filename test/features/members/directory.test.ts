import t from 'tap';
import type { LightMyRequestResponse } from 'fastify';
import { forgetFilterOptions, listDirectory, listSuggestions, parseDirectoryQuery, type DirectoryDeps } from '#src/features/members/directory.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, signIn } from '#test/helpers/factories.ts';
import { createDirectoryMember, pageLink, profileIds } from '#test/helpers/members-directory.ts';

const USER = 'query($id: ID!) { user(id: $id) { id name isModerator companyName avatar jobTitle location isActive pronouns displayPronouns } }';
const MEMBERS = `query($q: String, $location: String, $industry: String, $size: String, $founding: Boolean, $letter: String, $first: Int, $after: String, $before: String) {
  members(query: $q, location: $location, industry: $industry, companySize: $size, founding: $founding, letter: $letter, first: $first, after: $after, before: $before) {
    edges { cursor node { id name pronouns } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

t.test('the member directory', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'] });
  const { app } = await startApp(t, db, { clock });
  const deps: DirectoryDeps = { db, community: alpha, clock };
  const list = (input: Parameters<typeof parseDirectoryQuery>[0]) => listDirectory(deps, parseDirectoryQuery(input));

  const me = await createDirectoryMember(db, alpha, 'Vera', 'Quill', { company: 'Quill Works', industry: 'Software', location: 'Denver, CO', employees: 8 });
  // "Austin" as a last name, as a company, as a city: the name ranks first, then the company, then the city.
  const named = await createDirectoryMember(db, alpha, 'Jordan', 'Austin', { company: 'Harbor Freight', location: 'Boston, MA', industry: 'Retail', employees: 300 });
  const company = await createDirectoryMember(db, alpha, 'Lena', 'Brooks', { company: 'Austin Robotics', location: 'Seattle, WA', industry: 'Manufacturing', employees: 1500 });
  const located = await createDirectoryMember(db, alpha, 'Omar', 'Castillo', { company: 'Pine Labs', location: 'Austin, TX', industry: 'Software', employees: 30, founding: true });
  const lumen = await createDirectoryMember(db, alpha, 'Amara', 'Okafor', {
    company: 'Lumen Analytics',
    title: 'Chief Executive Officer',
    location: 'Chicago, IL',
    industry: 'Healthcare',
    employees: 120,
    pronouns: 'she/her',
    displayPronouns: true,
    founding: true,
  });
  const shy = await createDirectoryMember(db, alpha, 'Sam', 'Ortiz', { company: 'Quiet Co', location: 'Denver, CO', industry: 'Legal', pronouns: 'they/them', displayPronouns: false });
  const newcomer = await createDirectoryMember(db, alpha, 'Nia', 'Zeller', { company: 'Fresh Start', location: 'Miami, FL', industry: 'Energy', joinedAt: new Date('2026-11-01T00:00:00Z') });
  const contacted = await createDirectoryMember(db, alpha, 'Carl', 'Dane', { company: 'Dane Legal', location: 'Denver, CO', industry: 'Software' });
  const gone = await createDirectoryMember(db, alpha, 'Gina', 'Austin', { company: 'Austin Gone', industry: 'Software', active: false });
  const blocked = await createDirectoryMember(db, alpha, 'Boris', 'Austin', { company: 'Austin Blocked', industry: 'Software', userActive: false });
  const foreign = await createDirectoryMember(db, beta, 'Farah', 'Austin', { company: 'Lumen Analytics', location: 'Austin, TX', industry: 'Software' });
  const betaMember = await createDirectoryMember(db, beta, 'Ben', 'Beta', { company: 'Beta Co' });
  await db.insertInto('introduction_requests').values({ community_id: alpha.id, requester_id: contacted.id, target_id: me.id, reason: 'Say hello', status: 'DECLINED' }).execute();
  const hidden = [gone.id, blocked.id, foreign.id, betaMember.id];

  const { cookie, token: bearer } = await signIn(app, me, alpha);
  const page = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers: { cookie, accept: 'text/html', ...headers } });
  /** GraphQL as a bearer client (an app): no cookie, no CSRF token. */
  const gql = (query: string, variables: object, as: { bearer?: string; host?: string } = { bearer }) =>
    app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', ...(as.bearer ? { authorization: `Bearer ${as.bearer}` } : {}), ...(as.host ? { host: as.host } : {}) },
      payload: JSON.stringify({ query, variables }),
    });
  const sqlOf = (res: LightMyRequestResponse) => Number(/dur=(\d+)/.exec(String(res.headers['server-timing']))?.[1]);

  await t.test('search ranks an exact name above a company match above a location match', async (t) => {
    const result = await list({ q: 'austin' });
    t.ok(result.ranked);
    t.same(result.members.map((m) => m.id).slice(0, 3), [named.id, company.id, located.id]);
    const res = await page('/members/results?q=Austin');
    t.equal(res.statusCode, 200);
    t.same(profileIds(res.body).slice(0, 3), [named.id, company.id, located.id], 'the page shows the same order, the query read from the address');
    t.match(res.body, 'value="Austin"', 'the query stays in the search box');
  });

  await t.test('a misspelt company or a name begun still finds its member (pg_trgm)', async (t) => {
    t.same((await list({ q: 'Lumen Analitics' })).members.map((m) => m.id), [lumen.id]);
    t.same((await list({ q: 'Okafr' })).members.map((m) => m.id), [lumen.id]);
    t.same((await list({ q: 'Okaf' })).members.map((m) => m.id), [lumen.id], 'a prefix');
    const res = await page('/members/results?q=Lumen+Analitics');
    t.same(profileIds(res.body), [lumen.id]);
    t.same((await list({ q: 'zzzzqqq' })).members, [], 'nothing like it: nothing');
    t.match((await page('/members/results?q=zzzzqqq')).body, 'No members match your search.');
  });

  await t.test('each filter narrows the list, alone and with a search', async (t) => {
    const ids = async (input: Parameters<typeof list>[0]) => (await list(input)).members.map((m) => m.id).sort((a, b) => a - b);
    t.same(await ids({ location: 'Denver, CO' }), [me.id, shy.id, contacted.id].sort((a, b) => a - b));
    t.same(await ids({ industry: 'Software' }), [me.id, located.id, contacted.id].sort((a, b) => a - b));
    t.same(await ids({ size: '1-10' }), [me.id]);
    t.same(await ids({ size: '11-50' }), [located.id]);
    t.same(await ids({ size: '51-200' }), [lumen.id]);
    t.same(await ids({ size: '201-1000' }), [named.id]);
    t.same(await ids({ size: '1001+' }), [company.id]);
    t.same(await ids({ founding: 'true' }), [located.id, lumen.id].sort((a, b) => a - b));
    t.same(await ids({ letter: 'o' }), [lumen.id, shy.id].sort((a, b) => a - b), 'browse by last-name initial');
    t.same(await ids({ q: 'austin', industry: 'Software' }), [located.id]);
    const res = await page('/members/browse?letter=O&founding=true');
    t.same(profileIds(res.body), [lumen.id]);
    t.match(res.body, /<a href="\/members\/browse\?founding=true&amp;letter=O" aria-current="page">O<\/a>/, 'the letter keeps the filters');
    const filtered = await page('/members/results?industry=Healthcare');
    t.same(profileIds(filtered.body), [lumen.id], 'filters without a search');
    t.match(filtered.body, '<option value="Healthcare" selected="">Healthcare</option>');
  });

  await t.test('pronouns show only when the member displays them', async (t) => {
    const res = await page('/members/browse?letter=O');
    t.match(res.body, '(she/her)');
    t.notMatch(res.body, 'they/them');
    const data = (await gql(USER, { id: String(shy.id) })).json().data;
    t.same(data.user, { id: String(shy.id), name: 'Sam Ortiz', isModerator: false, companyName: 'Quiet Co', avatar: null, jobTitle: 'Chief Executive Officer', location: 'Denver, CO', isActive: true, pronouns: null, displayPronouns: false });
    t.equal((await gql(USER, { id: String(lumen.id) })).json().data.user.pronouns, 'she/her');
  });

  await t.test('deactivated members and other communities’ members never appear', async (t) => {
    for (const url of ['/members', '/members/results?q=austin', '/members/results?q=Lumen+Analytics', '/members/browse', '/members/browse?letter=A', '/members?tab=discover', '/members/results?industry=Software']) {
      const res = await page(url);
      t.equal(res.statusCode, 200, url);
      for (const id of hidden) t.notOk(profileIds(res.body).includes(id), `${url} does not show ${id}`);
      t.notMatch(res.body, 'Austin Gone');
      t.notMatch(res.body, 'Farah');
    }
    for (const id of hidden) t.equal((await gql(USER, { id: String(id) })).json().data.user, null, `user(${id}) is null`);
    const all = (await gql(MEMBERS, { q: 'austin', first: 100 })).json().data.members.edges.map((e: { node: { id: string } }) => Number(e.node.id));
    for (const id of hidden) t.notOk(all.includes(id));
    // The other community sees its own members only.
    const { cookie: betaCookie, token: betaBearer } = await signIn(app, betaMember, beta);
    const betaPage = await page('/members', { cookie: betaCookie, host: 'beta.test' });
    t.same(profileIds(betaPage.body).sort((a, b) => a - b), [foreign.id, betaMember.id].sort((a, b) => a - b));
    t.equal((await gql(USER, { id: String(me.id) }, { bearer: betaBearer, host: 'beta.test' })).json().data.user, null, 'a beta member cannot read an alpha member');
    t.equal((await gql(USER, { id: String(foreign.id) }, { bearer: betaBearer, host: 'beta.test' })).json().data.user.name, 'Farah Austin');
    // Once deactivated, a member leaves the directory at once.
    await db.updateTable('memberships').set({ is_active: false }).where('user_id', '=', named.id).execute();
    t.notOk(profileIds((await page('/members/results?q=austin')).body).includes(named.id));
    t.equal((await gql(USER, { id: String(named.id) })).json().data.user, null);
    await db.updateTable('memberships').set({ is_active: true }).where('user_id', '=', named.id).execute();
  });

  await t.test('the directory needs sign-in', async (t) => {
    for (const url of ['/members', '/members/results?q=a', '/members/browse']) {
      const res = await app.inject({ url, headers: { accept: 'text/html' } });
      t.ok([302, 303, 401].includes(res.statusCode), `${url}: ${res.statusCode}`);
      t.notMatch(res.body, 'Okafor');
    }
    const anon = await gql(USER, { id: String(lumen.id) }, {});
    t.equal(anon.json().errors[0].extensions.code, 'NotAuthenticated');
  });

  await t.test('keyset pages: complete, in order, non-overlapping, forwards and back', async (t) => {
    const many = await createCommunity(db, { code: 'many', hosts: ['many.test'] });
    const people = [];
    for (let i = 0; i < 53; i++) {
      // Ties on the name: the id decides, so no member is skipped or shown twice.
      people.push(await createDirectoryMember(db, many, 'Pat', i % 3 === 0 ? 'Same' : `Member${String(i).padStart(2, '0')}`, { company: `Firm ${i}`, industry: 'Software' }));
    }
    const mdeps: DirectoryDeps = { db, community: many, clock };
    const walk = async (input: Parameters<typeof parseDirectoryQuery>[0]) => {
      const seen: number[] = [];
      const cursors: (string | null)[] = [];
      let after: string | null = null;
      for (let n = 0; n < 10; n++) {
        const p = await listDirectory(mdeps, parseDirectoryQuery({ ...input, after: after ?? undefined }));
        seen.push(...p.members.map((m) => m.id));
        cursors.push(after);
        if (!p.next) break;
        after = p.next;
      }
      return { seen, cursors };
    };
    const alphabetical = await walk({});
    t.equal(alphabetical.seen.length, 53);
    t.equal(new Set(alphabetical.seen).size, 53, 'no member twice');
    t.equal(alphabetical.cursors.length, 3, 'pages of 24');
    const ranked = await walk({ q: 'software' });
    t.equal(ranked.seen.length, 53);
    t.equal(new Set(ranked.seen).size, 53);
    const typo = await walk({ q: 'Firm' });
    t.equal(new Set(typo.seen).size, 53);

    // Backwards from the last page gives the same pages.
    const second = await listDirectory(mdeps, parseDirectoryQuery({ after: alphabetical.cursors[1] }));
    const back = await listDirectory(mdeps, parseDirectoryQuery({ before: second.members[0]!.cursor }));
    t.same(back.members.map((m) => m.id), alphabetical.seen.slice(0, 24));
    t.equal(back.previous, null, 'the first page has no previous page');

    // The pages link to each other without JavaScript.
    const { cookie: manyCookie, token: manyBearer } = await signIn(app, people[0]!, many);
    // A process's first page also fills its caches (the community, the ads, the filter lists: a few
    // statements once a minute) and the session's first request records its access (once in 5
    // minutes): counted from the next request on, as a member browsing sees it.
    await page('/members?founding=1', { cookie: manyCookie, host: 'many.test' });
    let url: string | null = '/members';
    const pages: number[][] = [];
    while (url && pages.length < 5) {
      const res = await page(url, { cookie: manyCookie, host: 'many.test' });
      t.equal(res.statusCode, 200);
      t.ok(sqlOf(res) <= 5, `${url}: ${sqlOf(res)} SQL statements`);
      pages.push(profileIds(res.body));
      url = pageLink(res.body, 'next');
    }
    t.same(pages.flat(), alphabetical.seen);
    const searchPages: number[][] = [];
    url = '/members/results?q=software&industry=Software';
    while (url && searchPages.length < 5) {
      const res = await page(url, { cookie: manyCookie, host: 'many.test' });
      searchPages.push(profileIds(res.body));
      const prev = pageLink(res.body, 'prev');
      if (searchPages.length > 1) {
        t.ok(prev, 'a previous link after the first page');
        const prevRes = await page(prev!, { cookie: manyCookie, host: 'many.test' });
        t.same(profileIds(prevRes.body), searchPages.at(-2), 'previous shows the page before');
      }
      url = pageLink(res.body, 'next');
      if (url) t.match(url, 'q=software');
    }
    t.same(searchPages.flat().sort(), ranked.seen.slice().sort());

    // GraphQL walks the same pages.
    const gqlSeen: number[] = [];
    let after: string | null = null;
    for (let n = 0; n < 5; n++) {
      const res = await gql(MEMBERS, { first: 20, after }, { bearer: manyBearer, host: 'many.test' });
      const conn = res.json().data.members;
      gqlSeen.push(...conn.edges.map((e: { node: { id: string } }) => Number(e.node.id)));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    t.same(gqlSeen, alphabetical.seen);
  });

  await t.test('a search’s pages cross from full-text to trigram matches, forwards and back, each member once', async (t) => {
    const tiers = await createCommunity(db, { code: 'tiers' });
    const exact: number[] = [];
    const close: number[] = [];
    for (let i = 0; i < 10; i++) exact.push((await createDirectoryMember(db, tiers, 'Ari', `Exact${i}`, { company: 'Lumen Analytics' })).id);
    // "Analytic" is not the word "analytics": only the trigram similarity finds these.
    for (let i = 0; i < 15; i++) close.push((await createDirectoryMember(db, tiers, 'Bo', `Close${i}`, { company: 'Lumen Analytic' })).id);
    const tdeps: DirectoryDeps = { db, community: tiers, clock };
    const pages: { ids: number[]; next: string | null; previous: string | null }[] = [];
    let after: string | undefined;
    for (let n = 0; n < 10; n++) {
      const p = await listDirectory(tdeps, parseDirectoryQuery({ q: 'Lumen Analytics', first: 4, after }));
      pages.push({ ids: p.members.map((m) => m.id), next: p.next, previous: p.previous });
      if (!p.next) break;
      after = p.next;
    }
    const seen = pages.flatMap((p) => p.ids);
    t.equal(seen.length, 25);
    t.equal(new Set(seen).size, 25);
    t.same(seen.slice(0, 10).sort((a, b) => a - b), exact, 'the full-text matches first');
    t.same(seen.slice(10).sort((a, b) => a - b), close, 'then the close spellings');
    // Back from each page: the page before it.
    for (let i = 1; i < pages.length; i++) {
      const back = await listDirectory(tdeps, parseDirectoryQuery({ q: 'Lumen Analytics', first: 4, before: pages[i]!.previous! }));
      t.same(back.members.map((m) => m.id), pages[i - 1]!.ids, `page ${i + 1} back to page ${i}`);
    }
  });

  await t.test('a full-text search reads name matches, then company matches, then the rest, each alphabetical, forwards and back', async (t) => {
    const classes = await createCommunity(db, { code: 'classes' });
    const make = (first: string, last: string, p: { company?: string; title?: string; location?: string; industry?: string }) =>
      createDirectoryMember(db, classes, first, last, { company: 'Other Co', title: 'Founder', location: 'Denver, CO', ...p });
    // Created out of alphabetical order, so that the id does not give the order away.
    const names = [await make('Ada', 'Quill', {}), await make('Quill', 'Baker', {}), await make('Zed', 'Quill', { company: 'Quill Works' })];
    const companies = [await make('Mia', 'Young', { company: 'Quill Labs' }), await make('Li', 'Abbot', { company: 'Quill Press' })];
    const rest = [await make('Jo', 'Stone', { industry: 'Quill' }), await make('Al', 'Cole', { title: 'Quill Keeper' }), await make('Ed', 'Mart', { location: 'Quill, ME' })];
    const expected = [
      ...[names[1]!, names[0]!, names[2]!], // Baker Quill, Quill Ada, Quill Zed
      ...[companies[1]!, companies[0]!], // Abbot, Young
      ...[rest[1]!, rest[2]!, rest[0]!], // Cole, Mart, Stone
    ].map((u) => u.id);
    const cdeps: DirectoryDeps = { db, community: classes, clock };
    const pages: { ids: number[]; previous: string | null }[] = [];
    let after: string | undefined;
    for (let n = 0; n < 10; n++) {
      const p = await listDirectory(cdeps, parseDirectoryQuery({ q: 'quill', first: 3, after }));
      t.ok(p.ranked);
      pages.push({ ids: p.members.map((m) => m.id), previous: p.previous });
      if (!p.next) break;
      after = p.next;
    }
    t.same(pages.flatMap((p) => p.ids), expected, 'names, then companies, then the rest; alphabetical by last name in each');
    for (let i = 1; i < pages.length; i++) {
      const back = await listDirectory(cdeps, parseDirectoryQuery({ q: 'quill', first: 3, before: pages[i]!.previous! }));
      t.same(back.members.map((m) => m.id), pages[i - 1]!.ids, `page ${i + 1} back to page ${i}`);
    }
  });

  await t.test('Discover suggests by industry, city and newness, with the reason, never oneself or someone contacted', async (t) => {
    const suggestions = await listSuggestions(deps, me.id);
    const byId = new Map(suggestions.map((s) => [s.member.id, s]));
    t.notOk(byId.has(me.id), 'not oneself');
    t.notOk(byId.has(contacted.id), 'not someone with an introduction request');
    t.equal(byId.get(located.id)?.reason, 'industry');
    t.equal(byId.get(located.id)?.detail, 'Software');
    t.equal(byId.get(shy.id)?.reason, 'city');
    t.equal(byId.get(shy.id)?.detail, 'Denver');
    t.equal(byId.get(newcomer.id)?.reason, 'new');
    t.notOk(byId.has(company.id), 'no reason: not suggested');
    for (const id of hidden) t.notOk(byId.has(id));
    const res = await page('/members?tab=discover');
    t.equal(res.statusCode, 200);
    t.match(res.body, 'Also in Software');
    t.match(res.body, 'Also in Denver');
    t.match(res.body, 'New member');
    t.match(res.body, /<a href="\/members\?tab=discover" aria-current="page">Discover<\/a>/);
    const data = (await gql('{ memberSuggestions { user { id } reason detail reasonText } }', {})).json().data;
    t.ok(data.memberSuggestions.some((s: { reason: string; reasonText: string }) => s.reason === 'NEW' && s.reasonText === 'New member'));
  });

  await t.test('filter options: the community’s own values, read once a minute', async (t) => {
    forgetFilterOptions();
    const first = await page('/members');
    t.match(first.body, '<option value="Healthcare">Healthcare</option>');
    t.notMatch(first.body, 'value="Beta Co"');
    const again = await page('/members');
    t.ok(sqlOf(again) < sqlOf(first), `cached: ${sqlOf(again)} < ${sqlOf(first)} statements`);
    t.ok(sqlOf(again) <= 5);
    const data = (await gql('{ memberFilterOptions { locations industries companySizes } }', {})).json().data.memberFilterOptions;
    t.ok(data.industries.includes('Healthcare'));
    t.notOk(data.locations.includes('Nowhere'));
    t.same(data.companySizes, ['1-10', '11-50', '51-200', '201-1000', '1001+']);
  });

  await t.test('hostile or bad queries: a 4xx page with the message by the field, never a 5xx', async (t) => {
    const nul = await page('/members/results?q=a%00b');
    t.equal(nul.statusCode, 400);
    t.match(nul.body, 'field-error');
    const huge = await page(`/members/results?q=${'x'.repeat(10_000)}`);
    t.ok(huge.statusCode >= 400 && huge.statusCode < 500, `10k characters: ${huge.statusCode}`);
    for (const url of [
      '/members/results?size=huge',
      '/members/browse?letter=%C3%A9',
      '/members/results?q=a&after=not-a-cursor',
      '/members?after=WyJhIiwieCIsLTFd',
      '/members/results?location=%01',
      '/members/results?q[]=a&q[]=b',
      "/members/results?q=' or 1=1 --",
      '/members/results?q=%26%26%7C%21(',
      '/members/results?q=%F0%9F%98%80',
    ]) {
      const res = await page(url);
      t.ok(res.statusCode < 500, `${url}: ${res.statusCode}`);
    }
    const gqlBad = await gql(MEMBERS, { q: 'a\u0000b' });
    t.equal(gqlBad.json().errors[0].extensions.code, '150');
    t.equal((await gql(MEMBERS, { after: '!!!' })).json().errors[0].extensions.code, 'BadRequest.Validation');
    t.equal((await gql(USER, { id: 'abc' })).json().data.user, null);
    t.equal((await gql(USER, { id: '99999999999' })).json().data.user, null);
  });

  await t.test('with JavaScript off the pages are plain HTML: a GET form, links, no script', async (t) => {
    const res = await page('/members/results?q=Okafor&founding=true');
    t.match(res.body, /<form[^>]*action="\/members\/results" method="get"/);
    t.same(profileIds(res.body), [lumen.id]);
    t.notMatch(res.body, /data-island="(?!NotificationBell|Tracker)/, 'no island of its own on the directory (the shell has the bell and the page views)');
    t.match(res.body, 'name="founding" checked="" value="true"');
  });

  await t.test('an invitee still in onboarding is not listed, found, counted or suggested until she finishes', async (t) => {
    // Her membership exists (onboarding writes her profile as she goes) and she joined today.
    const invitee = await createDirectoryMember(db, alpha, 'Ivy', 'Austin', { company: 'Austin Biotech', location: 'Raleigh, NC', industry: 'Biotechnology', employees: 24, founding: true, joinedAt: clock.now() });
    await db.updateTable('memberships').set({ gate: 'onboarding' }).where('user_id', '=', invitee.id).where('community_id', '=', alpha.id).execute();
    forgetFilterOptions();
    const urls = ['/members', '/members/results?q=austin', '/members/results?q=Austin+Biotek', '/members/browse', '/members/browse?letter=A', '/members?tab=discover', '/members/results?founding=true', '/members/results?size=11-50'];
    for (const url of urls) {
      const res = await page(url);
      t.equal(res.statusCode, 200, url);
      t.notOk(profileIds(res.body).includes(invitee.id), `${url} does not list her`);
      t.notMatch(res.body, 'Austin Biotech');
      t.notMatch(res.body, 'Raleigh', `${url}: her city is not among the locations`);
      t.notMatch(res.body, 'Biotechnology', `${url}: nor her industry among the industries`);
    }
    t.equal((await gql(USER, { id: String(invitee.id) })).json().data.user, null, 'user(id) is null');
    const found = (await gql(MEMBERS, { q: 'austin', first: 100 })).json().data.members.edges.map((e: { node: { id: string } }) => Number(e.node.id));
    t.notOk(found.includes(invitee.id));
    t.notOk((await listSuggestions(deps, me.id)).some((s) => s.member.id === invitee.id), 'Discover does not suggest her');
    const options = (await gql('{ memberFilterOptions { locations industries } }', {})).json().data.memberFilterOptions;
    t.notOk(options.locations.includes('Raleigh, NC'));
    t.notOk(options.industries.includes('Biotechnology'));

    // Paid and finished: she is a member others can find.
    await db.updateTable('memberships').set({ gate: 'app' }).where('user_id', '=', invitee.id).where('community_id', '=', alpha.id).execute();
    forgetFilterOptions();
    t.ok(profileIds((await page('/members/results?q=austin')).body).includes(invitee.id), 'the search finds her');
    t.ok(profileIds((await page('/members/browse?letter=A')).body).includes(invitee.id), 'her letter lists her');
    t.match((await page('/members')).body, '<option value="Raleigh, NC">', 'her city is a location');
    t.equal((await gql(USER, { id: String(invitee.id) })).json().data.user.name, 'Ivy Austin');
  });
});
