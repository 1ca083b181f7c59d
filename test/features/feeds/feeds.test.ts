import t from 'tap';
import sharp from 'sharp';
import { fixedClock } from '#src/core/clock.ts';
import type { Community } from '#src/db/types.ts';
import { changeAnnouncement, createAnnouncement, deleteAnnouncement, getAnnouncement, listAnnouncements, updateAnnouncement } from '#src/features/feeds/announcements.ts';
import type { FeedsDeps } from '#src/features/feeds/deps.ts';
import { changeFeatured, featureEvent, featureItem, listFeatured, searchFeaturable } from '#src/features/feeds/featured.ts';
import { readFeedImage } from '#src/features/feeds/images.ts';
import { feedFor, markAnnouncementSeen } from '#src/features/feeds/member-feed.ts';
import type { AnnouncementForm } from '#src/features/feeds/types.ts';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';

/**
 * The members' feed (issue 29): announcements and featured items, on the demo (Summit with its groups,
 * articles, roundup, offers and forum; Harbor) plus a community of its own for tenancy. The clock is
 * fixed at the moment the demo was seeded, then moved.
 */

const html = { accept: 'text/html' };
const mainOf = (body: string) => /<main[^>]*>([\s\S]*)<\/main>/.exec(body)?.[1] ?? '';
const feedOf = (body: string) => /<section class="home-feed feed" id="feed"[\s\S]*?<\/section>/.exec(body)?.[0] ?? '';
const sqlOf = (r: { headers: Record<string, unknown> }) => Number(/db;[^,]*dur=(\d+)/.exec(String(r.headers['server-timing']))?.[1]);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

t.test('the members\u2019 feed: announcements, featured items, the home page, staff pages, GraphQL, tenancy', async (t) => {
  const db = await setupDatabase(t, { seeded: true });
  const clock = fixedClock(new Date());
  const alpha = await createCommunity(db, { code: 'alpha', hosts: ['alpha.test'] });
  const { app } = await startApp(t, db, { clock });
  const community = (code: string) => db.selectFrom('communities').selectAll().where('code', '=', code).executeTakeFirstOrThrow();
  const summit = await community('summit');
  const user = async (email: string) => ({ id: (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id });
  const amara = await user('amara.okafor@summit-demo.example.com');
  const kwame = await user('kwame.mensah@summit-demo.example.com');
  const admin = await user('admin@example.com');
  const alphaStaff = await createMember(db, alpha, { firstName: 'Al', lastName: 'Staff', roles: ['ADMIN'] });
  const alphaMember = await createMember(db, alpha, { firstName: 'Ann', lastName: 'Alpha' });

  const deps: FeedsDeps = { db, clock, community: summit, t: app.t };
  const alphaDeps: FeedsDeps = { db, clock, community: alpha, t: app.t };
  const staff = { userId: admin.id, isStaff: true };
  const asAlphaStaff = { userId: alphaStaff.id, isStaff: true };
  const form = (over: Partial<AnnouncementForm> = {}): AnnouncementForm => ({ title: 'A note', body: 'Hello **all**.', imageAlt: '', linkUrl: '', linkLabel: '', audience: 'everyone', groupId: '', pinned: false, startsAt: '', endsAt: '', ...over });
  const at = (ms: number) => new Date(clock.now().getTime() + ms).toISOString().slice(0, 16);
  const feedIds = async (c: Community, u: { id: number }) => (await feedFor({ db, clock, community: c }, u.id)).items.map((i) => `${i.kind}:${i.title}`);

  const s = { admin: await signIn(app, admin, summit, ['ADMIN', 'MEMBER']), amara: await signIn(app, amara, summit), alphaStaff: await signIn(app, alphaStaff, alpha, ['ADMIN']), alphaMember: await signIn(app, alphaMember, alpha) };
  const SUMMIT = 'summit.localhost';
  const get = (url: string, cookie: string, host = SUMMIT) => app.inject({ url, headers: { ...html, cookie, host } });
  const post = async (url: string, cookie: string, fields: Record<string, string>, host = SUMMIT) => {
    const c = await csrfFor(app, cookie, '/contact');
    return app.inject({ method: 'POST', url, headers: { ...html, cookie: c.cookie, host, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ ...fields, _csrf: c.token }).toString() });
  };
  const gql = (url: string, query: string, variables: object, token: string, host = SUMMIT) =>
    app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, host }, payload: JSON.stringify({ query, variables }) });

  await t.test('the demo: Amara sees the pinned announcement first, her group\u2019s, and five featured items; not the scheduled or expired one', async (t) => {
    const items = await feedIds(summit, amara);
    t.equal(items[0], 'announcement:Annual summit: save the date', 'pinned first');
    t.ok(items.includes('announcement:Founders Peer Group: hiring plans session'), 'her group\u2019s');
    t.equal(items.filter((i) => i.startsWith('featured:')).length, 5, 'an article, a roundup, an offer, a forum post, an event');
    t.notOk(items.some((i) => i.includes('spring batch') || i.includes('Dinner series')), 'not the scheduled one, not the expired one');
    t.notOk((await feedIds(summit, kwame)).includes('announcement:Founders Peer Group: hiring plans session'), 'Kwame is not in the Founders Peer Group');
    const states = (await listAnnouncements(deps, staff)).rows.map((r) => `${r.title}:${r.state}`);
    t.same(states.sort(), ['Annual summit: save the date:live', 'Dinner series: last seats in Austin:expired', 'Expert panels: the spring batch opens:scheduled', 'Founders Peer Group: hiring plans session:live'].sort());
    t.same(await feedIds(await community('harbor'), await user('rosa.delgado@harbor-demo.example.com')), ['announcement:Welcome to the Harbor feed'], 'Harbor has its own');
  });

  await t.test('schedule and expiry follow the clock: draft, scheduled, live, expired', async (t) => {
    const id = await createAnnouncement(deps, staff, form({ title: 'Office hours', startsAt: at(2 * HOUR), endsAt: at(DAY) }));
    t.equal((await getAnnouncement(deps, staff, id)).state, 'draft');
    t.notOk((await feedIds(summit, amara)).includes('announcement:Office hours'), 'a draft is not shown');
    await changeAnnouncement(deps, staff, id, 'publish');
    t.equal((await getAnnouncement(deps, staff, id)).state, 'scheduled');
    t.notOk((await feedIds(summit, amara)).includes('announcement:Office hours'), 'scheduled: not yet');
    t.ok((await listAnnouncements(deps, staff, { state: 'scheduled' })).rows.some((r) => r.id === id), 'in the scheduled filter');
    clock.advance(3 * HOUR);
    t.equal((await getAnnouncement(deps, staff, id)).state, 'live', 'live once its start has come, with nothing run');
    t.equal((await feedIds(summit, amara)).filter((i) => i.startsWith('announcement:'))[1], 'announcement:Office hours', 'the newest after the pinned one');
    clock.advance(DAY);
    t.equal((await getAnnouncement(deps, staff, id)).state, 'expired');
    t.notOk((await feedIds(summit, amara)).includes('announcement:Office hours'), 'expired: gone from the feed');
    await t.rejects(markAnnouncementSeen({ db, clock, community: summit }, amara.id, id), { code: 'Feeds.NotFound' }, 'an expired one cannot be marked seen');
    await t.rejects(updateAnnouncement(deps, staff, id, form({ title: 'Office hours', endsAt: at(-HOUR) })), { code: 'Feeds.Invalid', fields: { endsAt: { key: 'feedsAdmin.errors.endPast' } } }, 'a new end in the past is refused');
    await updateAnnouncement(deps, staff, id, form({ title: 'Office hours', startsAt: at(-2 * DAY), endsAt: (await getAnnouncement(deps, staff, id)).form.endsAt }));
    t.equal((await getAnnouncement(deps, staff, id)).state, 'expired', 'the end already saved may stay as it is');
    await changeAnnouncement(deps, staff, id, 'unpublish');
    t.equal((await getAnnouncement(deps, staff, id)).state, 'draft');
    await t.rejects(createAnnouncement(deps, staff, form({ startsAt: at(DAY), endsAt: at(HOUR) })), { code: 'Feeds.Invalid', fields: { endsAt: { key: 'feedsAdmin.errors.endBeforeStart' } } });
    await t.rejects(createAnnouncement(deps, staff, form({ startsAt: '2027-02-31T09:00' })), { code: 'Feeds.Invalid', fields: { startsAt: { key: 'feedsAdmin.errors.instantInvalid' } } }, '31 February is not 3 March');
    const log = (await getAnnouncement(deps, staff, id)).log.map((l) => l.action).reverse();
    t.same(log, ['created', 'published', 'edited', 'unpublished'], 'each change logged');
  });

  await t.test('audience: a group\u2019s announcement reaches its chairs and members only', async (t) => {
    const cfo = await db.selectFrom('groups').select('id').where('community_id', '=', summit.id).where('slug', '=', 'cfo-circle').executeTakeFirstOrThrow();
    const id = await createAnnouncement(deps, staff, form({ title: 'CFO Circle: audit checklist', audience: 'group', groupId: String(cfo.id) }), { publish: true });
    t.ok((await feedIds(summit, kwame)).includes('announcement:CFO Circle: audit checklist'), 'Kwame is in the CFO Circle');
    t.notOk((await feedIds(summit, amara)).includes('announcement:CFO Circle: audit checklist'), 'Amara is not');
    await t.rejects(markAnnouncementSeen({ db, clock, community: summit }, amara.id, id), { code: 'Feeds.NotFound' }, 'nor can she mark it seen');
    const before = (await feedFor({ db, clock, community: summit }, kwame.id)).unseen;
    await markAnnouncementSeen({ db, clock, community: summit }, kwame.id, id);
    await markAnnouncementSeen({ db, clock, community: summit }, kwame.id, id);
    const after = await feedFor({ db, clock, community: summit }, kwame.id);
    t.equal(after.unseen, before - 1, 'one fewer unseen (twice is once)');
    t.ok(after.seen.some((a) => a.id === id) && !after.items.some((i) => i.kind === 'announcement' && i.id === id), 'it folds into the seen ones');
    const beta = await db.insertInto('groups').values({ community_id: alpha.id, name: 'Alpha group', slug: 'alpha-group', visibility: 'public' }).returning('id').executeTakeFirstOrThrow();
    await t.rejects(createAnnouncement(deps, staff, form({ audience: 'group', groupId: String(beta.id) })), { code: 'Feeds.Invalid', fields: { groupId: { key: 'feedsAdmin.errors.groupRequired' } } }, 'another community\u2019s group is no choice');
    await t.rejects(createAnnouncement(deps, staff, form({ audience: 'somebody' })), { code: 'Feeds.Invalid', fields: { audience: {} } });
    await t.rejects(createAnnouncement(deps, { userId: amara.id, isStaff: false }, form()), { code: 'Forbidden' });
    await deleteAnnouncement(deps, staff, id);
  });

  await t.test('featured items: found through each area, featured once, gone when their area no longer shows them, pinned first, expiring', async (t) => {
    for (const kind of ['article', 'roundup', 'offer', 'forum_post'] as const) {
      const found = await searchFeaturable(deps, staff, kind, '');
      t.ok(found.length > 0, `${kind}: found`);
      t.ok(found.some((f) => f.featured), `${kind}: the demo's featured one is marked`);
    }
    t.same(await searchFeaturable(deps, staff, 'offer', 'zzz-nothing'), []);
    const offers = await searchFeaturable(deps, staff, 'offer', '');
    const offer = offers.find((o) => o.featured)!;
    await t.rejects(featureItem(deps, staff, { kind: 'offer', itemId: offer.id }), { code: 'Feeds.AlreadyFeatured' });
    // Withdrawn in its own area: gone from the feed and marked gone for staff, without anyone unfeaturing it.
    await db.updateTable('offers').set({ status: 'withdrawn' }).where('id', '=', offer.id).execute();
    t.notOk((await feedIds(summit, amara)).includes(`featured:${offer.title}`), 'a withdrawn offer leaves the feed');
    t.equal((await listFeatured(deps, staff, { state: 'gone' })).rows.map((r) => r.itemId).join(), String(offer.id), 'staff see it as no longer there');
    await t.rejects(featureItem(deps, staff, { kind: 'offer', itemId: offer.id }), { code: 'Feeds.Invalid', fields: { itemId: { key: 'feedsAdmin.errors.itemGone' } } }, 'and cannot feature it again');
    await db.updateTable('offers').set({ status: 'published' }).where('id', '=', offer.id).execute();
    // Another offer, pinned, with an expiry: first in the feed, then gone when it expires.
    const other = offers.find((o) => !o.featured)!;
    const id = await featureItem(deps, staff, { kind: 'offer', itemId: other.id, pinned: true, endsAt: at(2 * HOUR) });
    const now = await feedFor({ db, clock, community: summit }, amara.id);
    t.same(now.items.slice(0, 2).map((i) => i.title).sort(), ['Annual summit: save the date', other.title].sort(), 'the two pinned ones first');
    clock.advance(3 * HOUR);
    t.notOk((await feedIds(summit, amara)).includes(`featured:${other.title}`), 'expired');
    t.ok((await listFeatured(deps, staff, { state: 'expired' })).rows.some((r) => r.id === id));
    await changeFeatured(deps, staff, id, 'unfeature');
    t.notOk((await listFeatured(deps, staff)).rows.some((r) => r.id === id), 'unfeatured');
    // An event link of its own: refused when over, else gone the day after.
    await t.rejects(featureEvent(deps, staff, { title: 'Past', url: 'https://example.com/e', date: '2020-01-01', place: '', pinned: false, endsAt: '' }), { code: 'Feeds.Invalid', fields: { date: { key: 'feedsAdmin.errors.datePast' } } });
    await t.rejects(featureEvent(deps, staff, { title: '', url: 'javascript:alert(1)', date: 'soon', place: '', pinned: false, endsAt: '' }), { code: 'Feeds.Invalid', fields: { title: {}, url: { key: 'feedsAdmin.errors.urlInvalid' }, date: { key: 'feedsAdmin.errors.dateInvalid' } } });
    const day = new Date(clock.now().getTime() + 2 * DAY).toISOString().slice(0, 10);
    await featureEvent(deps, staff, { title: 'Breakfast briefing', url: 'https://example.com/breakfast', date: day, place: 'Austin', pinned: false, endsAt: '' });
    t.ok((await feedIds(summit, amara)).includes('featured:Breakfast briefing'));
    clock.advance(3 * DAY + HOUR);
    t.notOk((await feedIds(summit, amara)).includes('featured:Breakfast briefing'), 'gone after its day');
    const actions = (await listFeatured(deps, staff, { state: 'expired' })).rows.map((r) => r.title);
    t.ok(actions.includes('Breakfast briefing'));
  });

  await t.test('tenancy: another community\u2019s announcements and featured items are never shown nor changed', async (t) => {
    const mine = await createAnnouncement(alphaDeps, asAlphaStaff, form({ title: 'Alpha only news' }), { publish: true });
    await featureEvent(alphaDeps, asAlphaStaff, { title: 'Alpha only event', url: 'https://example.com/alpha', date: new Date(clock.now().getTime() + 5 * DAY).toISOString().slice(0, 10), place: '', pinned: true, endsAt: '' });
    t.same(await feedIds(alpha, alphaMember), ['featured:Alpha only event', 'announcement:Alpha only news']);
    const summitFeed = await feedIds(summit, amara);
    t.notOk(summitFeed.some((i) => i.includes('Alpha only')), 'Summit never shows Alpha\u2019s');
    const summitOne = (await listAnnouncements(deps, staff)).rows[0]!.id;
    const summitFeatured = (await listFeatured(deps, staff)).rows[0]!.id;
    await t.rejects(getAnnouncement(alphaDeps, asAlphaStaff, summitOne), { code: 'Feeds.NotFound' });
    await t.rejects(updateAnnouncement(alphaDeps, asAlphaStaff, summitOne, form()), { code: 'Feeds.NotFound' });
    for (const change of ['publish', 'unpublish', 'pin', 'unpin'] as const) await t.rejects(changeAnnouncement(alphaDeps, asAlphaStaff, summitOne, change), { code: 'Feeds.NotFound' });
    await t.rejects(deleteAnnouncement(alphaDeps, asAlphaStaff, summitOne), { code: 'Feeds.NotFound' });
    await t.rejects(changeFeatured(alphaDeps, asAlphaStaff, summitFeatured, 'unfeature'), { code: 'Feeds.NotFound' });
    const summitOffer = (await searchFeaturable(deps, staff, 'offer', ''))[0]!;
    await t.rejects(featureItem(alphaDeps, asAlphaStaff, { kind: 'offer', itemId: summitOffer.id }), { code: 'Feeds.Invalid', fields: { itemId: { key: 'feedsAdmin.errors.itemGone' } } }, 'another community\u2019s offer is not featurable here');
    t.same(await searchFeaturable(alphaDeps, asAlphaStaff, 'article', ''), [], 'Alpha finds none of Summit\u2019s articles');
    await t.rejects(markAnnouncementSeen({ db, clock, community: alpha }, alphaMember.id, summitOne), { code: 'Feeds.NotFound' });
    await t.rejects(markAnnouncementSeen({ db, clock, community: summit }, amara.id, mine), { code: 'Feeds.NotFound' });
    t.ok((await listAnnouncements(deps, staff)).rows.every((r) => r.id !== mine), 'Summit staff never list Alpha\u2019s');
    // The pages, with Alpha's host and staff.
    t.equal((await get(`/admin/feeds/announcements/${summitOne}`, s.alphaStaff.cookie, 'alpha.test')).statusCode, 404);
    t.equal((await post(`/admin/feeds/announcements/${summitOne}/change`, s.alphaStaff.cookie, { change: 'delete' }, 'alpha.test')).statusCode, 404);
    t.equal((await post(`/admin/feeds/featured/${summitFeatured}/change`, s.alphaStaff.cookie, { change: 'unfeature' }, 'alpha.test')).statusCode, 404);
    t.equal((await post(`/feeds/announcements/${summitOne}/seen`, s.alphaMember.cookie, {}, 'alpha.test')).statusCode, 404);
    t.notMatch(mainOf((await get('/admin/feeds', s.alphaStaff.cookie, 'alpha.test')).body), 'Annual summit', 'Alpha\u2019s list has none of Summit\u2019s');
  });

  await t.test('staff pages without JavaScript: list by state, the form\u2019s refusals beside the fields, publish, pin, image, delete, CSV, the log', async (t) => {
    const list = await get('/admin/feeds', s.admin.cookie);
    t.equal(list.statusCode, 200);
    t.match(list.body, '<a href="/admin/feeds" aria-current="page">Announcements</a>', 'the feeds tabs, announcements current');
    t.match(list.body, 'href="/admin/feeds/featured"');
    t.match(list.body, 'Annual summit: save the date');
    const scheduledId = (await db.selectFrom('feed_announcements').select('id').where('title', '=', 'Expert panels: the spring batch opens').executeTakeFirstOrThrow()).id;
    const scheduled = /<table[\s\S]*?<\/table>/.exec((await get('/admin/feeds?state=scheduled', s.admin.cookie)).body)?.[0] ?? '';
    t.match(scheduled, 'Expert panels: the spring batch opens');
    t.notMatch(scheduled, 'Annual summit', 'only the scheduled ones');
    t.equal((await get('/admin/feeds?state=%00', s.admin.cookie)).statusCode, 400, 'a state that is not one: 400');
    t.equal((await get('/admin/feeds', s.amara.cookie)).statusCode, 303, 'a member is sent to sign in as staff');
    const refused = await post('/admin/feeds/announcements', s.admin.cookie, { title: '', body: 'Typed body stays', linkUrl: 'javascript:alert(1)', linkLabel: '', audience: 'everyone', startsAt: 'tomorrow', intent: 'publish' });
    t.equal(refused.statusCode, 400);
    for (const text of ['Enter a title.', 'Enter a web address starting with https:// or a page of this site starting with /.', 'Enter the link&#x27;s text.', 'Enter a date and time, like 2027-01-31T09:00.', 'Typed body stays', 'javascript:alert(1)']) t.match(refused.body, text);
    t.match(refused.body, /aria-describedby="announcement-title-error"/, 'the message is tied to its field');
    t.equal((await post('/admin/feeds/announcements', s.admin.cookie, { title: 'Nul\u0000', audience: 'everyone' })).statusCode, 400, 'a NUL is 400');
    t.equal((await post('/admin/feeds/announcements', s.admin.cookie, { title: 'x'.repeat(20_000), audience: 'everyone' })).statusCode, 400, 'a huge value is 400');
    const made = await post('/admin/feeds/announcements', s.admin.cookie, { title: 'Board dinner <RSVP>', body: 'Seats are open.\n\n- Austin\n- Denver', linkUrl: '/offers', linkLabel: 'See the offers', audience: 'everyone', pinned: 'on', intent: 'publish' });
    t.equal(made.statusCode, 303);
    t.match(made.headers.location, /^\/admin\/feeds\/announcements\/\d+\?done=published$/);
    const path = String(made.headers.location).split('?')[0]!;
    const edit = await get(made.headers.location as string, s.admin.cookie);
    t.match(edit.body, 'Published.');
    t.match(edit.body, 'Board dinner &lt;RSVP&gt;');
    t.match(edit.body, 'Seats are open.\n\n- Austin\n- Denver', 'the form shows the text as typed');
    t.match(mainOf(edit.body), /Published[\s\S]*Created/, 'its log, newest first');
    t.equal((await post(`${path}/change`, s.admin.cookie, { change: 'unpin' })).headers.location, `${path}?done=unpinned`);
    t.equal((await post(`${path}/change`, s.admin.cookie, { change: 'unpublish' })).headers.location, `${path}?done=unpublished`);
    t.match((await get(path, s.admin.cookie)).body, 'Draft');
    const saved = await post(path, s.admin.cookie, { title: 'Board dinner', body: 'Seats.', audience: 'everyone', endsAt: '2020-01-01T00:00', intent: 'save' });
    t.equal(saved.statusCode, 400);
    t.match(saved.body, 'The end must be in the future.');
    t.match(saved.body, 'value="Board dinner"', 'what was typed is kept');
    t.equal((await post(path, s.admin.cookie, { title: 'Board dinner', body: 'Seats.', audience: 'everyone', intent: 'publish' })).statusCode, 303);
    // An image: checked by its bytes, served to members once published.
    const png = await sharp({ create: { width: 800, height: 450, channels: 3, background: '#336699' } }).png().toBuffer();
    const boundary = 'feedsboundary';
    const c = await csrfFor(app, s.admin.cookie, '/contact');
    const multipart = (bytes: Buffer, type: string) =>
      Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${c.token}\r\n--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="x.png"\r\nContent-Type: ${type}\r\n\r\n`), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const upload = (bytes: Buffer, type = 'image/png') => app.inject({ method: 'POST', url: `${path}/image`, headers: { ...html, host: SUMMIT, cookie: c.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: multipart(bytes, type) });
    const notImage = await upload(Buffer.from('<svg onload="x"/>'), 'image/png');
    t.equal(notImage.statusCode, 400);
    t.match(notImage.body, 'That is not a JPEG, PNG or WebP image we can use.');
    t.equal((await upload(png)).statusCode, 303);
    const imagePath = /<img src="(\/feeds\/images\/[A-Za-z0-9_-]+\.webp)"/.exec((await get(path, s.admin.cookie)).body)?.[1];
    t.ok(imagePath, 'the edit page shows it');
    const image = await app.inject({ url: imagePath!, headers: { host: SUMMIT, cookie: s.amara.cookie } });
    t.equal(image.statusCode, 200);
    t.equal(image.headers['content-type'], 'image/webp');
    t.equal((await app.inject({ url: imagePath!, headers: { host: 'alpha.test', cookie: s.alphaMember.cookie } })).statusCode, 404, 'not from another community');
    t.match(feedOf((await get('/', s.amara.cookie)).body), `src="${imagePath}"`, 'in the member\u2019s feed');
    t.equal((await post(`${path}/change`, s.admin.cookie, { change: 'removeImage' })).statusCode, 303);
    t.equal(await readFeedImage(deps, staff, imagePath!.slice(13, -5)), undefined, 'removed');
    const csv = await get('/admin/feeds/announcements.csv?state=live', s.admin.cookie);
    t.equal(csv.headers['content-type'], 'text/csv; charset=utf-8');
    t.match(csv.body, /^\uFEFFTitle,State,Audience,Pinned,Shown from,Shown until,Seen by,Last changed/);
    t.match(csv.body, 'Board dinner,Live,Everyone,no');
    t.equal((await post(`${path}/change`, s.admin.cookie, { change: 'delete' })).headers.location, '/admin/feeds?done=deleted');
    t.equal((await get(path, s.admin.cookie)).statusCode, 404);
    t.match(mainOf((await get('/admin/feeds', s.admin.cookie)).body), /Deleted<\/td><td>Board dinner/, 'the log keeps it');
    t.equal((await get('/admin/feeds/announcements/99999999999', s.admin.cookie)).statusCode, 404, 'a bad id: 404');
    t.equal((await post(`/admin/feeds/announcements/${scheduledId}/change`, s.admin.cookie, { change: 'explode' })).statusCode, 400, 'a change that is not one: 400');
  });

  await t.test('the announcement form carries the content bank\u2019s picker without JavaScript: nothing typed lost, the item into the text or the link', async (t) => {
    const typed = { title: 'Read this week', body: 'Dear members,', imageAlt: '', linkUrl: '', linkLabel: '', audience: 'everyone', groupId: '', startsAt: '', endsAt: '' };
    const found = await post('/admin/feeds/announcements', s.admin.cookie, { ...typed, bankQ: '', bankSearch: '1' });
    t.equal(found.statusCode, 200, 'a search re-renders the form');
    t.match(found.body, 'value="Read this week"', 'the title kept');
    const choice = /value="((?:article|roundup):\d+)"[^>]*name="bankPick"/.exec(found.body)?.[1];
    t.ok(choice, 'an item offered with an Insert button');
    const intoBody = await post('/admin/feeds/announcements', s.admin.cookie, { ...typed, bankPick: choice!, bankTarget: 'body' });
    t.equal(intoBody.statusCode, 200);
    t.match(intoBody.body, /Dear members,\n\n[^<]+: https?:\/\/[^<]+<\/textarea>/, 'the title and address added to the body');
    t.match(intoBody.body, 'value="Read this week"');
    const intoLink = await post('/admin/feeds/announcements', s.admin.cookie, { ...typed, linkLabel: 'Typed label', bankPick: choice!, bankTarget: 'link' });
    t.match(intoLink.body, /id="announcement-link-url"[^>]*value="https?:\/\/[^"]+"/, 'the address into the link');
    t.match(intoLink.body, 'value="Typed label"', 'a typed link text kept');
    t.match(intoLink.body, 'Dear members,</textarea>', 'the body untouched');
    const saved = await post('/admin/feeds/announcements', s.admin.cookie, { ...typed, intent: 'save' });
    t.equal(saved.statusCode, 303, 'the form still saves');
    const id = /\/admin\/feeds\/announcements\/(\d+)/.exec(String(saved.headers.location))?.[1];
    const edit = await post(`/admin/feeds/announcements/${id}`, s.admin.cookie, { ...typed, title: 'Edited title', bankPick: choice!, bankTarget: 'body' });
    t.equal(edit.statusCode, 200, 'the edit form too');
    t.match(edit.body, 'value="Edited title"');
    t.match(edit.body, /Dear members,\n\n[^<]+: https?:\/\/[^<]+<\/textarea>/);
  });

  await t.test('staff featured page without JavaScript: find, choose, feature; an event link; pin and unfeature', async (t) => {
    const page = await get('/admin/feeds/featured', s.admin.cookie);
    t.equal(page.statusCode, 200);
    t.match(page.body, '<a href="/admin/feeds/featured" aria-current="page">Featured</a>');
    t.match(page.body, 'Leadership dinner in Denver');
    const found = await get('/admin/feeds/featured?kind=forum_post&q=sales', s.admin.cookie);
    t.match(found.body, 'Moving from founder-led sales to a first sales leader');
    const postId = /id="feature-item-(\d+)"[^>]*\/><label for="feature-item-\d+">Moving from founder-led sales/.exec(found.body)?.[1];
    t.ok(postId, 'a radio button per item');
    const none = await post('/admin/feeds/featured', s.admin.cookie, { kind: 'forum_post', q: 'sales', itemId: '', endsAt: '' });
    t.equal(none.statusCode, 400);
    t.match(none.body, 'Choose an item to feature.');
    t.match(none.body, 'Moving from founder-led sales', 'the search comes back with it');
    const done = await post('/admin/feeds/featured', s.admin.cookie, { kind: 'forum_post', q: 'sales', itemId: postId!, pinned: 'on', endsAt: '' });
    t.equal(done.headers.location, '/admin/feeds/featured?done=featured');
    t.match(feedOf((await get('/', s.amara.cookie)).body), `href="/forum/post/${postId}">Moving from founder-led sales`, 'in the member\u2019s feed');
    const again = await post('/admin/feeds/featured', s.admin.cookie, { kind: 'forum_post', q: 'sales', itemId: postId!, endsAt: '' });
    t.equal(again.statusCode, 409);
    t.match(again.body, 'That item is featured already.');
    const event = await post('/admin/feeds/featured/event', s.admin.cookie, { title: 'Typed title', url: 'ftp://x', date: '2027-02-30', place: 'Austin' });
    t.equal(event.statusCode, 400);
    t.match(event.body, 'Enter a web address starting with https://.');
    t.match(event.body, 'Enter a date, like 2027-01-31.');
    t.match(event.body, 'value="Typed title"');
    const eventDay = new Date(clock.now().getTime() + 7 * DAY).toISOString().slice(0, 10);
    t.equal((await post('/admin/feeds/featured/event', s.admin.cookie, { title: 'Spring mixer', url: 'https://example.com/mixer', date: eventDay, place: 'Denver' })).statusCode, 303);
    const row = (await listFeatured(deps, staff)).rows.find((r) => r.title === 'Spring mixer')!;
    t.equal((await post(`/admin/feeds/featured/${row.id}/change`, s.admin.cookie, { change: 'pin' })).headers.location, '/admin/feeds/featured?done=pinned');
    t.equal((await post(`/admin/feeds/featured/${row.id}/change`, s.admin.cookie, { change: 'unfeature' })).headers.location, '/admin/feeds/featured?done=unfeatured');
    t.match(mainOf((await get('/admin/feeds/featured', s.admin.cookie)).body), /Unfeatured<\/td><td>Spring mixer/, 'logged');
    t.equal((await get('/admin/feeds/featured?kind=offer&q=%00', s.admin.cookie)).statusCode, 400, 'a NUL in the search: 400');
    t.equal((await get('/admin/feeds/featured?state=nope', s.admin.cookie)).statusCode, 400);
  });

  await t.test('the member\u2019s home: the feed, pinned first, marked seen with a plain form, within five SQL statements', async (t) => {
    const first = await get('/', s.amara.cookie);
    t.equal(first.statusCode, 200);
    const home = await get('/', s.amara.cookie);
    t.ok(sqlOf(home) <= 5, `the signed-in home page: ${sqlOf(home)} SQL statements (budget 5, the session's included)`);
    const feed = feedOf(home.body);
    t.match(feed, /From the team <span class="feed-count">\(\d+ new announcements?\)<\/span>/);
    t.match(feed, /<li class="feed-pinned"><article class="feed-item" aria-labelledby="feed-announcement-\d+"><p class="feed-kind">Pinned<\/p><h3 id="feed-announcement-\d+">Annual summit: save the date<\/h3>/, 'the pinned one first');
    const pinned = await db.selectFrom('feed_announcements').select('id').where('title', '=', 'Annual summit: save the date').executeTakeFirstOrThrow();
    t.match(feed, `<form class="inline-form" action="/feeds/announcements/${pinned.id}/seen" method="post"><input type="hidden" name="_csrf"`, 'a plain form to mark it seen');
    const unseenBefore = Number(/\((\d+) new announcements?\)/.exec(feed)?.[1]);
    const marked = await post(`/feeds/announcements/${pinned.id}/seen`, s.amara.cookie, {});
    t.equal(marked.statusCode, 303);
    t.equal(marked.headers.location, '/#feed', 'back to the feed');
    const after = feedOf((await get('/', s.amara.cookie)).body);
    t.equal(Number(/\((\d+) new announcements?\)/.exec(after)?.[1] ?? 0), unseenBefore - 1, 'one fewer to see');
    t.match(after, /<details class="feed-seen"><summary>1 announcement you have seen<\/summary>[\s\S]*Annual summit: save the date/, 'it folds below');
    t.notMatch(after, `action="/feeds/announcements/${pinned.id}/seen"`, 'no form to mark it again');
    t.equal((await post(`/feeds/announcements/${pinned.id}/seen`, s.amara.cookie, {})).statusCode, 303, 'marking again is harmless');
    const scheduled = await db.selectFrom('feed_announcements').select('id').where('title', '=', 'Expert panels: the spring batch opens').executeTakeFirstOrThrow();
    t.equal((await post(`/feeds/announcements/${scheduled.id}/seen`, s.amara.cookie, {})).statusCode, 404, 'one not live yet: 404');
    t.equal((await post('/feeds/announcements/abc/seen', s.amara.cookie, {})).statusCode, 404);
    t.equal((await post(`/feeds/announcements/${pinned.id}/seen`, '', {})).statusCode, 401, 'signed out: refused');
  });

  await t.test('GraphQL: the member\u2019s feed and marking seen; staff announcements and featured items, same services', async (t) => {
    const feed = await gql('/graphql', '{ memberFeed { unseenCount items { kind id title pinned seen itemKind url } seen { id } } }', {}, s.amara.token);
    const data = feed.json().data.memberFeed;
    t.ok(data.items.length > 0);
    const next = data.items.find((i: { kind: string }) => i.kind === 'ANNOUNCEMENT');
    const marked = await gql('/graphql', 'mutation ($id: ID!) { announcementMarkSeen(id: $id) { unseenCount seen { id } } }', { id: next.id }, s.amara.token);
    t.equal(marked.json().data.announcementMarkSeen.unseenCount, data.unseenCount - 1);
    t.ok(marked.json().data.announcementMarkSeen.seen.some((a: { id: string }) => a.id === next.id));
    t.equal((await gql('/graphql', 'mutation { announcementMarkSeen(id: "99999") { unseenCount } }', {}, s.amara.token)).json().errors[0].extensions.code, 'Feeds.NotFound');
    const created = await gql('/graphqlAdmin', 'mutation ($i: AnnouncementInput!) { announcementCreate(input: $i, publish: true) { id state bodyHtml audience log { action } } }', { i: { title: 'Via API', bodyHtml: '<p>Hi <script>x</script><strong>all</strong></p>', audience: 'EVERYONE' } }, s.admin.token);
    const a = created.json().data.announcementCreate;
    t.equal(a.state, 'LIVE');
    t.equal(a.bodyHtml, '<p>Hi <strong>all</strong></p>', 'sanitised');
    t.same(a.log.map((l: { action: string }) => l.action), ['published', 'created']);
    const bad = await gql('/graphqlAdmin', 'mutation ($i: AnnouncementInput!) { announcementCreate(input: $i) { id } }', { i: { title: 'a\u0000b', audience: 'EVERYONE', startsAt: 'x'.repeat(100_000) } }, s.admin.token);
    t.equal(bad.json().errors[0].extensions.code, 'Feeds.Invalid', 'hostile input: the catalogue\u2019s 400, never UnknownError');
    t.ok((await gql('/graphqlAdmin', '{ announcements(state: LIVE) { rows { id title } } }', {}, s.admin.token)).json().data.announcements.rows.some((r: { title: string }) => r.title === 'Via API'));
    const pinned = await gql('/graphqlAdmin', 'mutation ($id: ID!) { announcementPin(id: $id, pinned: true) { pinned } }', { id: a.id }, s.admin.token);
    t.equal(pinned.json().data.announcementPin.pinned, true);
    const offers = (await gql('/graphqlAdmin', '{ featurableItems(kind: OFFER) { id title featured } }', {}, s.admin.token)).json().data.featurableItems;
    const free = offers.find((o: { featured: boolean }) => !o.featured);
    const featured = await gql('/graphqlAdmin', 'mutation ($id: ID!) { featureItem(kind: OFFER, itemId: $id) { id kind state url } }', { id: free.id }, s.admin.token);
    t.match(featured.json().data.featureItem, { kind: 'OFFER', state: 'LIVE', url: `/offers/${free.id}` });
    t.equal((await gql('/graphqlAdmin', 'mutation ($id: ID!) { unfeatureItem(id: $id) }', { id: featured.json().data.featureItem.id }, s.admin.token)).json().data.unfeatureItem, true);
    t.equal((await gql('/graphqlAdmin', 'mutation ($id: ID!) { announcementDelete(id: $id) }', { id: a.id }, s.admin.token)).json().data.announcementDelete, true);
    t.equal((await gql('/graphqlAdmin', '{ announcements { rows { id } } }', {}, s.amara.token)).statusCode, 403, 'a member is not staff');
  });
});
