import t from 'tap';
import sharp from 'sharp';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';
import { pgliteOf } from '#src/db/index.ts';
import { AdCounter, adCounterFor } from '#src/features/ads/counter.ts';

/**
 * Ads (issue 27): the staff's tab (exact sizes, link, schedule, active), the live ones in the page
 * shell and the `ads` query, impressions and clicks counted in memory and flushed, the click redirect.
 */

const html = { accept: 'text/html' };
const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#336699' } }).png().toBuffer();

/** A multipart body: text fields and at most one file, as a browser sends the form. */
function multipart(fields: Record<string, string>, file?: { name: string; bytes: Buffer; type?: string }) {
  const boundary = `----ads${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${file.name}"; filename="art.png"\r\ncontent-type: ${file.type ?? 'image/png'}\r\n\r\n`), file.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

const sqlOf = (res: { headers: Record<string, unknown> }) => Number(/dur=(\d+)/.exec(String(res.headers['server-timing']))?.[1] ?? NaN);

t.test('ads: the staff upload and schedule them, members see the live ones, counts cost no write per view', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', name: 'Alpha Council', concierge_email: 'concierge@alpha.test', concierge_phone: '+1 (512) 555-0142' });
  const beta = await createCommunity(db, { code: 'beta', name: 'Beta Guild', hosts: ['beta.test'] });
  const clock = testClock(); // 2026-11-21T12:00:00Z
  const { app } = await startApp(t, db, { clock });

  const staff = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Ada' });
  const member = await createMember(db, alpha, { firstName: 'Mia' });
  const staffSession = await csrfFor(app, (await signIn(app, staff, alpha, ['ADMIN', 'MEMBER'])).cookie, '/admin/marketplace/ads');
  const memberLogin = await signIn(app, member, alpha);
  const memberSession = await csrfFor(app, memberLogin.cookie, '/contact');

  const [betaAd] = await db
    .insertInto('ads')
    .values({ community_id: beta.id, shape: 'MASTHEAD', image_url: 'img/ads/masthead-partner.svg', link: 'https://beta.example/ad', alt_text: 'Beta ad' })
    .returning('id')
    .execute();

  const postAd = (url: string, fields: Record<string, string>, file?: Buffer, session = staffSession, headers: Record<string, string> = {}) => {
    const body = multipart({ _csrf: session.token, ...fields }, file ? { name: 'image', bytes: file } : undefined);
    return app.inject({ method: 'POST', url, headers: { ...html, cookie: session.cookie, 'content-type': body.contentType, ...headers }, payload: body.payload });
  };
  const off = ({ isActive: _, ...rest }: Record<string, string>) => rest; // an unticked box is not sent
  const good = { shape: 'MASTHEAD', link: 'https://partner.example/offer?x=1', altText: 'Partner: members save 20%', startsAt: '', endsAt: '', isActive: 'on' };
  const masthead = await png(700, 50);
  const square = await png(240, 240);
  const created = async (fields: Record<string, string>, file: Buffer) => {
    const res = await postAd('/admin/marketplace/ads', fields, file);
    if (res.statusCode !== 303) throw new Error(`not created: ${res.statusCode} ${/<main[\s\S]*?<\/main>/.exec(res.body)?.[0]}`);
    return Number(/\/admin\/marketplace\/ads\/(\d+)\?done=created$/.exec(String(res.headers.location))![1]);
  };

  await t.test('the tab is the staff’s: a member is refused, and the page lists the tabs of the marketplace', async (t) => {
    const page = await app.inject({ url: '/admin/marketplace/ads', headers: { ...html, cookie: staffSession.cookie } });
    t.equal(page.statusCode, 200);
    t.match(page.body, /<a href="\/admin\/marketplace\/ads" aria-current="page">Ads<\/a>/);
    t.match(page.body, 'encType="multipart/form-data"');
    const refused = await app.inject({ url: '/admin/marketplace/ads', headers: { ...html, cookie: memberSession.cookie } });
    t.not(refused.statusCode, 200);
    t.notMatch(refused.body, 'New ad');
    const post = await postAd('/admin/marketplace/ads', good, masthead, memberSession);
    t.not(post.statusCode, 303, 'a member cannot add an ad');
    t.equal((await db.selectFrom('ads').select('id').where('community_id', '=', alpha.id).execute()).length, 0);
  });

  await t.test('art of another size is refused beside the field, with what was typed kept', async (t) => {
    const res = await postAd('/admin/marketplace/ads', { ...good, link: 'https://typed.example/kept' }, await png(700, 60));
    t.equal(res.statusCode, 400);
    t.match(res.body, /id="new-image-error">That picture is 700x60 pixels; this shape needs exactly 700x50\.</);
    t.match(res.body, /aria-describedby="new-image-error new-image-hint"/);
    t.match(res.body, 'value="https://typed.example/kept"', 'the link typed is kept');
    t.match(res.body, 'value="Partner: members save 20%"', 'and the words');
    const wrongShape = await postAd('/admin/marketplace/ads', { ...good, shape: 'MEDIUM_SQUARE' }, masthead);
    t.match(wrongShape.body, 'this shape needs exactly 240x240', 'a masthead picture is not a square');
    t.match(wrongShape.body, /id="new-shape-MEDIUM_SQUARE" type="radio" name="shape" checked="" value="MEDIUM_SQUARE"/, 'the shape chosen stays chosen');
    const notImage = await postAd('/admin/marketplace/ads', good, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="700" height="50"></svg>'));
    t.match(notImage.body, 'That file is not a picture we can use');
    const missing = await postAd('/admin/marketplace/ads', good);
    t.match(missing.body, "Choose the ad&#x27;s picture.");
    t.equal((await db.selectFrom('ads').select('id').where('community_id', '=', alpha.id).execute()).length, 0, 'nothing stored');
  });

  await t.test('hostile or wrong fields are refused with 4xx and a message beside each, never stored', async (t) => {
    const res = await postAd('/admin/marketplace/ads', { ...good, link: 'javascript:alert(1)', altText: 'bad\u0007bell', startsAt: '2026-13-45T99:00', endsAt: 'tomorrow', shape: 'BILLBOARD' }, masthead);
    t.equal(res.statusCode, 400);
    t.match(res.body, /id="new-link-error">Enter a full web address starting with https:\/\//);
    t.match(res.body, /id="new-altText-error">Keep it to 200 characters/);
    t.match(res.body, /id="new-startsAt-error">Enter a date and time/);
    t.match(res.body, /id="new-endsAt-error">Enter a date and time/);
    t.match(res.body, /id="new-shape-error">Choose the masthead or the medium square/);
    t.notMatch(res.body, 'href="javascript:', 'never a link');
    const backwards = await postAd('/admin/marketplace/ads', { ...good, startsAt: '2026-12-10T10:00', endsAt: '2026-12-01T10:00' }, masthead);
    t.match(backwards.body, 'The end must come after the start.');
    const credentials = await postAd('/admin/marketplace/ads', { ...good, link: 'https://user:pw@partner.example/' }, masthead);
    t.match(credentials.body, /id="new-link-error"/);
    const noCsrf = await postAd('/admin/marketplace/ads', { ...good, _csrf: 'forged' }, masthead);
    t.equal(noCsrf.statusCode, 403, 'no CSRF token, no ad');
    const urlencoded = await app.inject({ method: 'POST', url: '/admin/marketplace/ads', headers: { ...html, cookie: staffSession.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ ...good, _csrf: staffSession.token }).toString() });
    t.equal(urlencoded.statusCode, 400, 'a form without its file: the message, not a crash');
    const array = await app.inject({ method: 'POST', url: '/admin/marketplace/ads', headers: { ...html, cookie: staffSession.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: `_csrf=${encodeURIComponent(staffSession.token)}&link=a&link=b` });
    t.equal(array.statusCode, 400, 'a field sent twice does not fit the form');
    const garbage = await app.inject({ method: 'POST', url: '/admin/marketplace/ads', headers: { ...html, cookie: staffSession.cookie, 'content-type': 'multipart/form-data; boundary=x' }, payload: 'not a multipart body' });
    t.ok(garbage.statusCode >= 400 && garbage.statusCode < 500, `garbage is a 4xx (${garbage.statusCode})`);
    const huge = await postAd('/admin/marketplace/ads', good, Buffer.alloc(3 * 1024 * 1024, 1));
    t.equal(huge.statusCode, 413);
    t.match(huge.body, 'That file is too large');
    for (const bad of ['abc', '0', '-1', '1e3', '99999999999999999999']) {
      t.equal((await app.inject({ url: `/admin/marketplace/ads/${bad}`, headers: { ...html, cookie: staffSession.cookie } })).statusCode, 404, `/admin/marketplace/ads/${bad} is 404`);
      t.equal((await app.inject({ url: `/ads/${bad}/click` })).statusCode, 404, `/ads/${bad}/click is 404`);
    }
    t.equal((await db.selectFrom('ads').select('id').where('community_id', '=', alpha.id).execute()).length, 0, 'nothing stored');
  });

  const ids: Record<string, number> = {};
  await t.test('art at the exact size is stored re-encoded and served like the avatars; a JS-off post redirects', async (t) => {
    ids.live = await created(good, masthead);
    ids.square = await created({ ...good, shape: 'MEDIUM_SQUARE', link: 'https://partner.example/square', altText: 'Square ad' }, square);
    ids.future = await created({ ...good, altText: 'Future ad', startsAt: '2026-12-01T09:00' }, masthead);
    ids.past = await created({ ...good, altText: 'Past ad', startsAt: '2026-11-01T00:00', endsAt: '2026-11-20T00:00' }, masthead);
    ids.off = await created(off({ ...good, altText: 'Switched off' }), masthead);
    const ad = await db.selectFrom('ads').selectAll().where('id', '=', ids.live).executeTakeFirstOrThrow();
    t.match(ad.image_url, /^\/ads\/images\/[A-Za-z0-9_-]{24}\.webp$/);
    t.equal(ad.link, 'https://partner.example/offer?x=1');
    const image = await app.inject({ url: ad.image_url });
    t.equal(image.statusCode, 200);
    t.equal(image.headers['content-type'], 'image/webp');
    t.match(String(image.headers['cache-control']), 'immutable');
    const meta = await sharp(image.rawPayload).metadata();
    t.same([meta.format, meta.width, meta.height], ['webp', 700, 50]);
    t.equal((await app.inject({ url: ad.image_url, headers: { host: 'beta.test' } })).statusCode, 404, 'not from another community');
    const page = await app.inject({ url: `/admin/marketplace/ads/${ids.live}?done=created`, headers: { ...html, cookie: staffSession.cookie } });
    t.match(page.body, 'The ad is added.');
    const list = await app.inject({ url: '/admin/marketplace/ads', headers: { ...html, cookie: staffSession.cookie } });
    t.match(list.body, /data-ad="\d+"[\s\S]*Scheduled/);
    t.match(list.body, 'Ended');
    t.match(list.body, '>Off<');
  });

  await t.test('an edit keeps the shape, checks a new picture, and a refused one keeps what was typed', async (t) => {
    const refused = await postAd(`/admin/marketplace/ads/${ids.off}`, { ...good, altText: 'Typed words', endsAt: 'soon' }, square);
    t.equal(refused.statusCode, 400);
    t.match(refused.body, 'this shape needs exactly 700x50');
    t.match(refused.body, 'value="Typed words"');
    const saved = await postAd(`/admin/marketplace/ads/${ids.off}`, off({ ...good, altText: 'Switched off, renamed' }), masthead);
    t.equal(saved.statusCode, 303);
    t.equal(saved.headers.location, `/admin/marketplace/ads/${ids.off}?done=saved`);
    const row = await db.selectFrom('ads').selectAll().where('id', '=', ids.off).executeTakeFirstOrThrow();
    t.same([row.alt_text, row.is_active, row.shape], ['Switched off, renamed', false, 'MASTHEAD']);
  });

  await t.test('another community’s ad is a 404 for the staff, its page, its changes and its click', async (t) => {
    t.equal((await app.inject({ url: `/admin/marketplace/ads/${betaAd!.id}`, headers: { ...html, cookie: staffSession.cookie } })).statusCode, 404);
    const post = await postAd(`/admin/marketplace/ads/${betaAd!.id}`, { ...good, altText: 'Hijacked' }, masthead);
    t.equal(post.statusCode, 404);
    t.equal((await db.selectFrom('ads').select('alt_text').where('id', '=', betaAd!.id).executeTakeFirstOrThrow()).alt_text, 'Beta ad');
    t.equal((await app.inject({ url: `/ads/${betaAd!.id}/click` })).statusCode, 404);
    const list = await app.inject({ url: '/admin/marketplace/ads', headers: { ...html, cookie: staffSession.cookie } });
    t.notMatch(list.body, 'Beta ad');
  });

  await t.test('the ads query serves only the live ones, to cookie and bearer clients alike', async (t) => {
    const query = { query: '{ ads { id shape link imageUrl clickUrl } }' };
    const cookie = await app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', cookie: memberSession.cookie, 'x-csrf-token': memberSession.token }, payload: query });
    const bearer = await app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', authorization: `Bearer ${memberLogin.token}` }, payload: query });
    for (const [name, res] of [['cookie', cookie], ['bearer', bearer]] as const) {
      const ads = res.json().data.ads as { id: string; shape: string; link: string; clickUrl: string }[];
      t.same(ads.map((a) => Number(a.id)).sort(), [ids.live, ids.square].sort(), `${name}: the live masthead and square only`);
      t.equal(ads.find((a) => Number(a.id) === ids.live)!.clickUrl, `/ads/${ids.live}/click`);
    }
    // The schedule is applied at every call, not when the cache was filled.
    clock.set(new Date('2026-12-01T09:00:00Z'));
    const later = await app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', authorization: `Bearer ${memberLogin.token}` }, payload: query });
    t.same((later.json().data.ads as { id: string }[]).map((a) => Number(a.id)).sort(), [ids.live, ids.square, ids.future].sort(), 'the scheduled one starts on time');
    clock.set(new Date('2026-11-21T12:00:00Z'));
  });

  await t.test('the staff schema lists the ads with their counts and changes them through the same checks', async (t) => {
    const staffToken = (await signIn(app, staff, alpha, ['ADMIN', 'MEMBER'])).token;
    const gql = (query: string, token: string) =>
      app.inject({ method: 'POST', url: '/graphqlAdmin', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, payload: { query } });
    const list = await gql('{ adminAds { id shape status impressions clicks } }', staffToken);
    t.same(
      (list.json().data.adminAds as { id: string; status: string }[]).map((a) => [Number(a.id), a.status]).sort(),
      [[ids.live, 'live'], [ids.square, 'live'], [ids.future, 'scheduled'], [ids.past, 'ended'], [ids.off, 'inactive']].sort(),
    );
    const refused = await gql(`mutation { adUpdate(id: "${ids.off}", input: { link: "ftp://x", altText: "", isActive: true }) { id } }`, staffToken);
    t.equal(refused.json().errors[0].extensions.code, 'Ads.Invalid');
    t.same(Object.keys(refused.json().errors[0].extensions.fields).sort(), ['altText', 'link']);
    const other = await gql(`{ adminAd(id: "${betaAd!.id}") { id } }`, staffToken);
    t.equal(other.json().errors[0].extensions.code, 'Ads.NotFound', 'not another community’s');
    const member = await gql('{ adminAds { id } }', memberLogin.token);
    t.notOk(member.json().data?.adminAds, 'not for a member');
  });

  await t.test('page views count impressions in memory with no statement of their own; a flush adds them in one upsert', async (t) => {
    const counter = adCounterFor(app.db, app.clock);
    await counter.flush();
    // One view first: the staff's changes made this process forget its copy of the ads.
    await app.inject({ url: '/contact', headers: { ...html, cookie: memberSession.cookie } });
    await counter.flush();
    const before = await db.selectFrom('ad_daily_counts').selectAll().execute();
    const statements: number[] = [];
    // Every statement the database is sent while the pages are viewed (PGlite; on PostgreSQL the
    // Server-Timing counts above are what is checked).
    const seen: string[] = [];
    const pglite = pgliteOf(db) as unknown as { query: (sql: string, ...rest: unknown[]) => Promise<unknown> } | undefined;
    const query = pglite?.query;
    if (pglite && query) pglite.query = (sql: string, ...rest: unknown[]) => (seen.push(sql), query.call(pglite, sql, ...rest));
    t.teardown(() => {
      if (pglite && query) pglite.query = query;
    });
    for (let i = 0; i < 40; i++) {
      const res = await app.inject({ url: '/contact', headers: { ...html, cookie: memberSession.cookie } });
      t.equal(res.statusCode, 200);
      statements.push(sqlOf(res));
    }
    // The session's read (with the bell's dot) and, now and then, its last-access bookkeeping: the ads
    // are read from memory and counted in memory.
    t.ok(Math.max(...statements) <= 3, `a few statements a view, for the session (${[...new Set(statements)].join(', ')})`);
    if (pglite) t.ok(seen.length >= 40, `the statements were seen (${seen.length})`);
    t.same(seen.filter((q) => /\bads\b|ad_daily_counts/.test(q)), [], 'none of them reads or writes an ad');
    if (pglite && query) pglite.query = query;
    t.same(await db.selectFrom('ad_daily_counts').selectAll().execute(), before, 'nothing written yet');
    const anonymous = await app.inject({ url: '/contact', headers: html });
    t.notMatch(anonymous.body, 'class="ad ', 'a visitor sees no ads (and none is counted)');
    t.same(counter.pending(alpha.id).get(ids.live), { impressions: 40, clicks: 0 });
    const flushed = counter.flushStatements;
    await counter.flush();
    t.equal(counter.flushStatements - flushed, 1, 'one statement for the community’s ads');
    const rows = await db.selectFrom('ad_daily_counts').selectAll().where('community_id', '=', alpha.id).orderBy('ad_id').execute();
    t.same(rows.map((r) => [r.ad_id, r.day, r.impressions, r.clicks]), [[ids.live, '2026-11-21', 41, 0], [ids.square, '2026-11-21', 41, 0]], 'the warm-up view and the 40');

    // Two processes flushing into the same rows: the upserts add.
    const other = new AdCounter(app.db, app.clock);
    other.impression(alpha.id, ids.live);
    other.click(alpha.id, ids.live);
    counter.impression(alpha.id, ids.live);
    await Promise.all([other.close(), counter.flush()]);
    const live = await db.selectFrom('ad_daily_counts').selectAll().where('ad_id', '=', ids.live).executeTakeFirstOrThrow();
    t.same([live.impressions, live.clicks], [43, 1]);
    const list = await app.inject({ url: '/admin/marketplace/ads', headers: { ...html, cookie: staffSession.cookie } });
    t.match(list.body, `data-impressions="43"`, 'the staff see the counts per ad');
    t.match(list.body, `data-clicks="1"`);
  });

  await t.test('a click is counted and goes to the ad’s stored link only', async (t) => {
    const counter = adCounterFor(app.db, app.clock);
    const res = await app.inject({ url: `/ads/${ids.live}/click?to=https://evil.example/&redirect=//evil.example`, headers: { cookie: memberSession.cookie } });
    t.equal(res.statusCode, 302);
    t.equal(res.headers.location, 'https://partner.example/offer?x=1');
    t.equal(res.headers['cache-control'], 'no-store');
    t.equal(counter.pending(alpha.id).get(ids.live)?.clicks, 1);
    const page = await app.inject({ url: '/contact', headers: { ...html, cookie: memberSession.cookie } });
    t.match(page.body, new RegExp(`<aside class="ad ad-masthead"[^>]*><a href="/ads/${ids.live}/click" rel="noopener sponsored"><img src="/ads/images/`), 'the page links through the click route');
    const past = await app.inject({ url: `/ads/${ids.past}/click` });
    t.equal(past.headers.location, 'https://partner.example/offer?x=1', 'an ended ad still leads to its link');
    await counter.flush();
    const edit = await app.inject({ url: `/admin/marketplace/ads/${ids.live}`, headers: { ...html, cookie: staffSession.cookie } });
    t.match(edit.body, /<dd data-clicks="2">2<\/dd>/);
    t.match(edit.body, 'Nov 21, 2026');
  });
});
