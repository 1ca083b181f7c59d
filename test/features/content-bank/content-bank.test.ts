import t from 'tap';
import { crc32 } from 'node:zlib';
import { unzipSync, strFromU8 } from 'fflate';
import sharp from 'sharp';
import type { RawDb } from '#src/db/index.ts';
import type { Community } from '#src/db/types.ts';
import { bankItemKeys } from '#src/features/content-bank/index.ts';
import { checkPdf } from '#src/features/content-bank/assets.ts';
import { addToCollection, createCollection, getCollection, moveInCollection, removeFromCollection, reorderCollection } from '#src/features/content-bank/collections.ts';
import type { BankDeps } from '#src/features/content-bank/deps.ts';
import { refreshBankIndex } from '#src/features/content-bank/index-refresh.ts';
import { parseBankQuery, searchBank } from '#src/features/content-bank/search.ts';
import { demoPdf, demoPng } from '#src/features/content-bank/seed.ts';
import { createTag, deleteTag, tagItem, untagItem } from '#src/features/content-bank/tags.ts';
import { changeFeatured, featureItem } from '#src/features/feeds/featured.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn, type TestUser } from '#test/helpers/factories.ts';
import { createArticle, multipartBody } from '#test/helpers/members-profiles.ts';

const html = { accept: 'text/html' };

/** An expert panel's question with accepted answers, one of them in a published roundup. */
async function expertWork(db: RawDb, community: Community, experts: TestUser[], question: string, roundupTitle: string, slug: string) {
  const panel = await db.insertInto('ep_panels').values({ community_id: community.id, name: 'Finance panel' }).returning('id').executeTakeFirstOrThrow();
  const batch = await db.insertInto('ep_batches').values({ community_id: community.id, panel_id: panel.id, title: 'Autumn', deadline_at: new Date('2026-10-01T00:00:00Z'), status: 'sent' }).returning('id').executeTakeFirstOrThrow();
  const q = await db.insertInto('ep_questions').values({ community_id: community.id, panel_id: panel.id, batch_id: batch.id, title: question }).returning('id').executeTakeFirstOrThrow();
  const answers: number[] = [];
  for (const [i, e] of experts.entries()) {
    const text = i === 0 ? 'We raised prices twice and lost no customers worth keeping.' : 'Annual plans with a discount steadied our cash flow.';
    const a = await db
      .insertInto('ep_answers')
      .values({ community_id: community.id, question_id: q.id, user_id: e.id, status: 'accepted', body_html: `<p>${text}</p>`, body_text: text, decided_at: new Date(`2026-10-0${2 + i}T12:00:00Z`), submitted_at: new Date('2026-10-01T12:00:00Z') })
      .returning('id')
      .executeTakeFirstOrThrow();
    answers.push(a.id);
  }
  const r = await db
    .insertInto('ep_roundups')
    .values({ community_id: community.id, question_id: q.id, title: roundupTitle, slug, status: 'DRAFT', intro_html: '<p>Three leaders on what changed their revenue.</p>' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('ep_roundup_answers').values({ community_id: community.id, roundup_id: r.id, answer_id: answers[0]!, position: 1 }).execute();
  // Published after its answers are in: the trigger marks the roundup and its answers.
  await db.updateTable('ep_roundups').set({ status: 'FINAL', published_at: new Date('2026-10-05T12:00:00Z') }).where('id', '=', r.id).execute();
  return { roundupId: r.id, answers, questionId: q.id };
}

/** A PNG whose header declares other dimensions than its pixels (the avatars' test's bomb). */
function declaredAs(png: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(png);
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)), 29);
  return out;
}

t.test('the content bank: index, two-tier search, filters, tenancy, uploads, tags, collections, exports, picker, pages, GraphQL', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle' });
  const beta = await createCommunity(db, { code: 'beta', app_name: 'Beta Guild', hosts: ['beta.test'] });
  const clock = testClock();
  const { app } = await startApp(t, db, { clock });

  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const bob = await createMember(db, alpha, { firstName: 'Bob', lastName: 'Baker' });
  const staff = await createMember(db, alpha, { firstName: 'Sam', lastName: 'Staff', roles: ['ADMIN', 'MEMBER'] });
  const bea = await createMember(db, beta, { firstName: 'Bea', lastName: 'Beta' });
  const betaStaff = await createMember(db, beta, { firstName: 'Bo', lastName: 'Boss', roles: ['ADMIN', 'MEMBER'] });

  const leading = await createArticle(db, alpha, ada.id, 'Leading remote teams through change', 'PUBLISHED', new Date('2026-09-01T12:00:00Z'));
  const downturn = await createArticle(db, alpha, bob.id, 'Pricing in a downturn', 'PUBLISHED', new Date('2026-10-10T12:00:00Z'));
  const draft = await createArticle(db, alpha, ada.id, 'A secret draft about pricing', 'DRAFT');
  const betaMemo = await createArticle(db, beta, bea.id, 'Beta leadership memo on pricing', 'PUBLISHED', new Date('2026-09-15T12:00:00Z'));
  await db.updateTable('article_revisions').set({ content: '<p>How we kept our <strong>margins</strong> when demand fell.</p><script>alert(1)</script><p onclick="steal()">Read on.</p><a href="javascript:alert(2)">x</a>' }).where('article_id', '=', downturn).execute();
  await db.updateTable('articles').set({ updated_at: new Date('2026-10-10T12:00:01Z') }).where('id', '=', downturn).execute();
  const work = await expertWork(db, alpha, [ada, bob], 'How did you set your first prices?', 'Pricing moves that paid off', 'pricing-moves');

  const deps: BankDeps = { db, clock, community: alpha, publicUrl: 'http://localhost:3000' };
  const betaDeps: BankDeps = { db, clock, community: beta, publicUrl: 'http://localhost:3000' };
  const asStaff = { userId: staff.id, isStaff: true };
  const asBetaStaff = { userId: betaStaff.id, isStaff: true };
  const search = async (input: Parameters<typeof parseBankQuery>[0], d = deps, v = asStaff) => searchBank(d, v, parseBankQuery(input));
  const keys = (rows: { kind: string; id: number }[]) => rows.map((r) => `${r.kind}:${r.id}`);

  const staffSession = await signIn(app, staff, alpha, ['ADMIN', 'MEMBER']);
  const memberSession = await signIn(app, ada, alpha);
  const beaSession = await signIn(app, bea, beta);
  const betaStaffSession = await signIn(app, betaStaff, beta, ['ADMIN', 'MEMBER']);
  const csrf = await csrfFor(app, staffSession.cookie, '/admin/content-bank/tags');
  const get = (url: string, cookie = staffSession.cookie, host?: string) => app.inject({ url, headers: { ...html, cookie, ...(host ? { host } : {}) } });
  const post = (url: string, fields: Record<string, string>) =>
    app.inject({ method: 'POST', url, headers: { ...html, cookie: csrf.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ ...fields, _csrf: csrf.token }).toString() });
  const upload = (title: string, file: { filename: string; type: string; bytes: Buffer } | null) => {
    const body = multipartBody({ _csrf: csrf.token, title }, file ? { name: 'file', ...file } : undefined);
    return app.inject({ method: 'POST', url: '/admin/content-bank/assets', headers: { ...html, cookie: csrf.cookie, 'content-type': body.contentType }, payload: body.payload });
  };
  const gql = (query: string, variables: object, token = staffSession.token, host?: string) =>
    app.inject({ method: 'POST', url: '/graphqlAdmin', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...(host ? { host } : {}) }, payload: JSON.stringify({ query, variables }) });

  await t.test('the index: published articles, the published roundup and accepted answers of the community, nothing else; kept current by the marks', async (t) => {
    const page = await search({});
    t.same(keys(page.rows), [`article:${downturn}`, `roundup:${work.roundupId}`, `answer:${work.answers[1]}`, `answer:${work.answers[0]}`, `article:${leading}`], 'newest first, no draft, no other community');
    t.equal(page.ranked, false);
    const answer = page.rows.find((r) => r.kind === 'answer' && r.id === work.answers[0])!;
    t.equal(answer.url, `/expert-panels/roundups/pricing-moves#answer-${work.answers[0]}`, 'an answer opens in its published roundup');
    t.equal(page.rows.find((r) => r.kind === 'answer' && r.id === work.answers[1])!.url, null, 'one outside any roundup has no address yet');
    t.equal(page.rows.find((r) => r.kind === 'article' && r.id === downturn)!.authorName, 'Bob Baker');
    t.equal(await refreshBankIndex(db, alpha, () => clock.now()), 0, 'a second read finds no mark');

    // Unpublished, published, retitled: the next read shows it.
    await db.updateTable('articles').set({ status: 'TRASHED' }).where('id', '=', leading).execute();
    await db.updateTable('articles').set({ status: 'PUBLISHED', published_date: new Date('2026-11-01T12:00:00Z') }).where('id', '=', draft).execute();
    await db.updateTable('article_revisions').set({ title: 'Pricing in a downturn, revisited' }).where('article_id', '=', downturn).execute();
    const after = await search({});
    t.notOk(keys(after.rows).includes(`article:${leading}`), 'an unpublished article leaves');
    t.equal(after.rows[0]!.id, draft, 'a newly published one comes in, newest');
    t.ok(after.rows.some((r) => r.title === 'Pricing in a downturn, revisited'), 'a new title shows');
    await db.updateTable('articles').set({ status: 'PUBLISHED' }).where('id', '=', leading).execute();
    await db.updateTable('articles').set({ status: 'DRAFT' }).where('id', '=', draft).execute();
    t.same((await search({})).rows.length, 5);
  });

  await t.test('search: title matches first, then the text, then near spellings (trigram); keyset pages without a gap or a repeat', async (t) => {
    const pricing = await search({ q: 'pricing' });
    t.equal(pricing.ranked, true);
    t.same(keys(pricing.rows).slice(0, 2), [`article:${downturn}`, `roundup:${work.roundupId}`], 'the two with "pricing" in their title, newest first');
    t.notOk(keys(pricing.rows).includes(`article:${leading}`));
    const margins = await search({ q: 'margins' });
    t.same(keys(margins.rows), [`article:${downturn}`], 'a word of the text (full-text tier)');
    const typo = await search({ q: 'downturm' });
    t.same(keys(typo.rows), [`article:${downturn}`], 'a typo of the title (trigram tier)');
    const begun = await search({ q: 'lovela' });
    t.ok(keys(begun.rows).includes(`article:${leading}`), 'an author begun (trigram tier)');
    t.same((await search({ q: 'zebra crossing' })).rows, [], 'nothing matches');
    // Pages of one: every item once, in the same order as one page (across the classes and tiers).
    for (const q of ['prices', 'pricin', 'pricing']) {
      const all = await search({ q });
      t.ok(all.rows.length >= 2, `${q}: ${all.rows.length} results`);
      const seen: string[] = [];
      let after = '';
      for (let i = 0; i < 10; i++) {
        const one = await searchBank(deps, asStaff, { ...parseBankQuery({ q, after }), first: 1 });
        seen.push(...keys(one.rows));
        if (!one.next) break;
        after = one.next;
      }
      t.same(seen, keys(all.rows), `${q}: keyset pages of one give the whole ranking`);
    }
    let after = '';
    const browse: string[] = [];
    after = '';
    for (let i = 0; i < 10; i++) {
      const one = await searchBank(deps, asStaff, { ...parseBankQuery({ after }), first: 2 });
      browse.push(...keys(one.rows));
      if (!one.next) break;
      after = one.next;
    }
    t.same(browse, keys((await search({})).rows), 'newest-first pages of two give the whole library');
  });

  await t.test('filters: type, author, date range, tag; refusals by field', async (t) => {
    t.same(keys((await search({ kind: 'answer' })).rows).sort(), [`answer:${work.answers[0]}`, `answer:${work.answers[1]}`].sort());
    t.same(keys((await search({ author: String(bob.id) })).rows).sort(), [`answer:${work.answers[1]}`, `article:${downturn}`].sort());
    t.same(keys((await search({ from: '2026-10-04', to: '2026-10-10' })).rows), [`article:${downturn}`, `roundup:${work.roundupId}`], 'the date range, both days included');
    const tag = await createTag(deps, asStaff, 'Finance');
    await tagItem(deps, asStaff, tag, { kind: 'roundup', id: work.roundupId });
    t.same(keys((await search({ tag: String(tag) })).rows), [`roundup:${work.roundupId}`]);
    t.same(keys((await search({ tag: String(tag), q: 'pricing' })).rows), [`roundup:${work.roundupId}`], 'a search and a tag');
    await t.rejects(search({ q: 'a\u0000b' }), { code: 'ContentBank.Invalid', fields: { q: {} } });
    await t.rejects(search({ q: 'x'.repeat(201) }), { code: 'ContentBank.Invalid', fields: { q: { key: 'contentBank.errors.tooLong' } } });
    await t.rejects(search({ kind: 'video' }), { code: 'ContentBank.Invalid', fields: { kind: {} } });
    await t.rejects(search({ author: '-1' }), { code: 'ContentBank.Invalid', fields: { author: {} } });
    await t.rejects(search({ from: '2026-02-31' }), { code: 'ContentBank.Invalid', fields: { from: {} } });
    await t.rejects(search({ from: '2026-10-10', to: '2026-10-01' }), { code: 'ContentBank.Invalid', fields: { to: { key: 'contentBank.errors.dateOrder' } } });
    await t.rejects(search({ after: 'bm9wZQ' }), { code: 'ContentBank.Invalid', fields: { after: {} } });
    await t.rejects(search({}, deps, { userId: ada.id, isStaff: false }), { code: 'Forbidden' });
  });

  await t.test("tenancy: another community's staff never see these items, tags or collections", async (t) => {
    const beta1 = await search({ q: 'pricing' }, betaDeps, asBetaStaff);
    t.same(keys(beta1.rows), [`article:${betaMemo}`], "beta's search finds beta's memo only");
    t.same(keys((await search({}, betaDeps, asBetaStaff)).rows), [`article:${betaMemo}`]);
    const alphaTag = (await db.selectFrom('bank_tags').select('id').where('community_id', '=', alpha.id).executeTakeFirstOrThrow()).id;
    t.same((await search({ tag: String(alphaTag) }, betaDeps, asBetaStaff)).rows, [], "alpha's tag filters nothing in beta");
    await t.rejects(tagItem(betaDeps, asBetaStaff, alphaTag, { kind: 'article', id: betaMemo }), { code: 'ContentBank.NotFound' }, "alpha's tag cannot be used in beta");
    const betaTag = await createTag(betaDeps, asBetaStaff, 'Finance');
    await t.rejects(tagItem(deps, asStaff, betaTag, { kind: 'article', id: downturn }), { code: 'ContentBank.NotFound' });
    await t.rejects(tagItem(betaDeps, asBetaStaff, betaTag, { kind: 'article', id: downturn }), { code: 'ContentBank.NotFound' }, "alpha's article is not in beta's library");
    t.same(await bankItemKeys(db, beta, { tagIds: [alphaTag] }), [], 'bankItemKeys: nothing of another community');
  });

  await t.test('tags and collections: unique names, tag and untag, order, bankItemKeys by tag, collection and kind', async (t) => {
    await t.rejects(createTag(deps, asStaff, '  finance '), { code: 'ContentBank.Taken', fields: { name: { key: 'contentBank.errors.tagTaken' } } }, 'a tag name is unique whatever its case');
    await t.rejects(createTag(deps, asStaff, ''), { code: 'ContentBank.Invalid', fields: { name: {} } });
    const leadership = await createTag(deps, asStaff, 'Leadership');
    await tagItem(deps, asStaff, leadership, { kind: 'article', id: leading });
    await tagItem(deps, asStaff, leadership, { kind: 'article', id: leading });
    await tagItem(deps, asStaff, leadership, { kind: 'answer', id: work.answers[0]! });
    await t.rejects(tagItem(deps, asStaff, leadership, { kind: 'article', id: draft }), { code: 'ContentBank.NotFound' }, 'a draft is not in the library');
    t.same(keys(await bankItemKeys(db, alpha, { tagIds: [leadership] })), [`answer:${work.answers[0]}`, `article:${leading}`]);
    t.same(keys(await bankItemKeys(db, alpha, { tagIds: [leadership], kinds: ['article'] })), [`article:${leading}`]);
    await untagItem(deps, asStaff, leadership, { kind: 'answer', id: work.answers[0]! });
    t.same(keys(await bankItemKeys(db, alpha, { tagIds: [leadership] })), [`article:${leading}`]);

    const best = await createCollection(deps, asStaff, { name: 'Best of 2026', description: 'The year-end newsletter.' });
    await t.rejects(createCollection(deps, asStaff, { name: 'best OF 2026' }), { code: 'ContentBank.Taken' });
    for (const k of [{ kind: 'roundup' as const, id: work.roundupId }, { kind: 'article' as const, id: downturn }, { kind: 'article' as const, id: leading }]) await addToCollection(deps, asStaff, best, k);
    await t.rejects(addToCollection(deps, asStaff, best, { kind: 'article', id: leading }), { code: 'ContentBank.Taken' }, 'each item once');
    await moveInCollection(deps, asStaff, best, { kind: 'article', id: leading }, 'up');
    t.same((await getCollection(deps, asStaff, best)).entries.map((e) => `${e.kind}:${e.id}`), [`roundup:${work.roundupId}`, `article:${leading}`, `article:${downturn}`]);
    await reorderCollection(deps, asStaff, best, [{ kind: 'article', id: downturn }, { kind: 'roundup', id: work.roundupId }, { kind: 'article', id: leading }]);
    await t.rejects(reorderCollection(deps, asStaff, best, [{ kind: 'article', id: downturn }]), { code: 'ContentBank.Invalid' });
    const c = await getCollection(deps, asStaff, best);
    t.same(c.entries.map((e) => [e.position, `${e.kind}:${e.id}`]), [[1, `article:${downturn}`], [2, `roundup:${work.roundupId}`], [3, `article:${leading}`]]);
    t.same(keys(await bankItemKeys(db, alpha, { collectionIds: [best] })).sort(), [`article:${downturn}`, `article:${leading}`, `roundup:${work.roundupId}`].sort());
    await removeFromCollection(deps, asStaff, best, { kind: 'article', id: leading });
    await addToCollection(deps, asStaff, best, { kind: 'article', id: leading });
    t.equal((await getCollection(deps, asStaff, best)).entries.length, 3);
    await t.rejects(getCollection(betaDeps, asBetaStaff, best), { code: 'ContentBank.NotFound' }, "another community's collection");
    const temp = await createTag(deps, asStaff, 'Temporary');
    await tagItem(deps, asStaff, temp, { kind: 'article', id: leading });
    await deleteTag(deps, asStaff, temp);
    t.same(await bankItemKeys(db, alpha, { tagIds: [temp] }), [], 'a deleted tag leaves its items');
  });

  let pngItem = '';
  await t.test('uploads: sniffed by their bytes, re-encoded, limits and bombs refused, PDFs checked; served to members with their type', async (t) => {
    const png = await demoPng(64, 32);
    const ok = await upload('Climate banner', { filename: 'banner.png', type: 'image/png', bytes: png });
    t.equal(ok.statusCode, 303, ok.body.slice(0, 300));
    pngItem = ok.headers.location as string;
    t.match(pngItem, /^\/admin\/content-bank\/items\/image\/\d+\?done=uploaded$/);
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 9, g: 99, b: 199 } } }).jpeg().toBuffer();
    const lying = await upload('A photo sent as a PNG', { filename: 'photo.png', type: 'image/png', bytes: jpeg });
    t.equal(lying.statusCode, 303, 'a JPEG claiming to be a PNG is taken as what it is');
    const stored = await db.selectFrom('bank_assets').select(['id', 'key', 'filename', 'content_type', 'kind', 'bytes', 'width', 'community_id']).where('community_id', '=', alpha.id).orderBy('id').execute();
    t.same(stored.map((s) => [s.filename, s.content_type, s.kind]), [['climate-banner.png', 'image/png', 'image'], ['a-photo-sent-as-a-png.jpg', 'image/jpeg', 'image']]);
    t.equal((await sharp(stored[0]!.bytes).metadata()).format, 'png', 're-encoded in its own format');

    const refusals: [string, Buffer, string, number][] = [
      ['text claiming to be a PNG', Buffer.from('hello, not an image'), 'This is not a JPEG, PNG or WebP image, nor a PDF.', 400],
      ['a PNG over 5 MB', Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]), 'This file is too large: at most 5 MB.', 400],
      ['a bomb (20000 × 20000 declared)', declaredAs(png, 20_000, 20_000), 'This image has too many pixels', 400],
      ['a fake PDF (no end)', Buffer.from('%PDF-1.7\n1 0 obj garbage'), 'This PDF is incomplete or damaged', 400],
      ['an encrypted PDF', Buffer.from(demoPdf('Secret', 'x').toString('latin1').replace('/Root 1 0 R', '/Root 1 0 R /Encrypt 9 0 R'), 'latin1'), 'protected by a password', 400],
      ['a PDF with a script', Buffer.from(demoPdf('Script', 'x').toString('latin1').replace('/Type /Catalog', '/Type /Catalog /OpenAction << /S /J#61vaScript /JS (app.alert(1)) >>'), 'latin1'), 'carries scripts', 400],
      ['over 10 MB', Buffer.alloc(10 * 1024 * 1024 + 10, 1), 'This file is too large: at most 10 MB.', 413],
    ];
    for (const [what, bytes, message, status] of refusals) {
      const res = await upload('Kept title', { filename: 'x.png', type: 'image/png', bytes });
      t.equal(res.statusCode, status, `${what}: ${status}`);
      t.match(res.body, message, `${what}: the message beside the field`);
      t.match(res.body, 'value="Kept title"', `${what}: the title typed is kept`);
    }
    const noFile = await upload('Kept title', null);
    t.equal(noFile.statusCode, 400);
    t.match(noFile.body, 'Choose a file to upload.');
    const noTitle = await upload('', { filename: 'a.pdf', type: 'application/pdf', bytes: demoPdf('A', 'B') });
    t.equal(noTitle.statusCode, 400);
    t.match(noTitle.body, 'Enter a title.');
    t.equal((await db.selectFrom('bank_assets').select('id').where('community_id', '=', alpha.id).execute()).length, 2, 'nothing refused was stored');
    t.doesNotThrow(() => checkPdf(demoPdf('Pricing playbook', 'A line.')), "the seed's PDF passes the checks");

    const pdf = await upload('Board pack', { filename: 'pack.bin', type: 'application/octet-stream', bytes: demoPdf('Board pack', 'Numbers.') });
    t.equal(pdf.statusCode, 303);
    const pdfRow = await db.selectFrom('bank_assets').select(['key', 'filename']).where('kind', '=', 'pdf').executeTakeFirstOrThrow();
    const file = await get(`/content-bank/assets/${pdfRow.key}/${pdfRow.filename}`, memberSession.cookie);
    t.equal(file.statusCode, 200, 'a member of the community opens it');
    t.equal(file.headers['content-type'], 'application/pdf');
    t.equal(file.headers['x-content-type-options'], 'nosniff');
    t.equal(file.headers['content-disposition'], 'attachment; filename="board-pack.pdf"');
    const image = await get(`/content-bank/assets/${stored[0]!.key}/${stored[0]!.filename}`, memberSession.cookie);
    t.equal(image.headers['content-type'], 'image/png');
    t.equal(image.headers['content-disposition'], 'inline; filename="climate-banner.png"');
    t.equal((await get(`/content-bank/assets/${stored[0]!.key}/other-name.png`, memberSession.cookie)).statusCode, 404, 'another name: 404');
    t.equal((await get(`/content-bank/assets/${stored[0]!.key}/${stored[0]!.filename}`, beaSession.cookie, 'beta.test')).statusCode, 404, "another community's member: 404");
    t.not((await get(`/content-bank/assets/${stored[0]!.key}/${stored[0]!.filename}`, '')).statusCode, 200, 'a visitor: no');

    const rest = multipartBody({ title: 'From the API' }, { name: 'file', filename: 'x.png', type: 'image/png', bytes: png });
    const res = await app.inject({ method: 'POST', url: '/rest/admin/content-bank/assets', headers: { authorization: `Bearer ${staffSession.token}`, accept: 'application/json', 'content-type': rest.contentType }, payload: rest.payload });
    t.equal(res.statusCode, 201, res.body);
    t.match(res.json(), { kind: 'IMAGE', title: 'From the API', contentType: 'image/png', url: /\/content-bank\/assets\/[A-Za-z0-9_-]{24}\/from-the-api\.png$/ });
    const restBad = multipartBody({ title: 'Bad' }, { name: 'file', filename: 'x.png', type: 'image/png', bytes: Buffer.from('nope') });
    const bad = await app.inject({ method: 'POST', url: '/rest/admin/content-bank/assets', headers: { authorization: `Bearer ${staffSession.token}`, accept: 'application/json', 'content-type': restBad.contentType }, payload: restBad.payload });
    t.equal(bad.statusCode, 400);
    t.equal(bad.json().error.code, 'ContentBank.Invalid');
    t.match(bad.json().error.fields, { file: { key: 'contentBank.errors.fileType' } });
    const restBig = multipartBody({ title: 'Big' }, { name: 'file', filename: 'x.pdf', type: 'application/pdf', bytes: Buffer.alloc(10 * 1024 * 1024 + 10, 1) });
    const big = await app.inject({ method: 'POST', url: '/rest/admin/content-bank/assets', headers: { authorization: `Bearer ${staffSession.token}`, accept: 'application/json', 'content-type': restBig.contentType }, payload: restBig.payload });
    t.equal(big.statusCode, 413, 'over 10 MB: 413');
    t.equal(big.json().error.code, 'ContentBank.TooLarge');
    const asMember = await app.inject({ method: 'POST', url: '/rest/admin/content-bank/assets', headers: { authorization: `Bearer ${memberSession.token}`, accept: 'application/json', 'content-type': rest.contentType }, payload: rest.payload });
    t.ok(asMember.statusCode === 401 || asMember.statusCode === 403, `a member may not upload (${asMember.statusCode})`);
    t.same((await search({ kind: 'pdf' }, betaDeps, asBetaStaff)).rows, [], "beta's library has none of alpha's assets");
  });

  await t.test('exports: the CSV in order, the zip streamed with an index and sanitised pages; never another community', async (t) => {
    const best = (await db.selectFrom('bank_collections').select('id').where('community_id', '=', alpha.id).where('name', '=', 'Best of 2026').executeTakeFirstOrThrow()).id;
    const imageId = Number(/image\/(\d+)/.exec(pngItem)![1]);
    await addToCollection(deps, asStaff, best, { kind: 'image', id: imageId });
    await db.updateTable('article_revisions').set({ title: '=HYPERLINK("http://evil")' }).where('article_id', '=', leading).execute();
    const csv = await get(`/admin/content-bank/collections/${best}/export.csv`);
    t.equal(csv.statusCode, 200);
    t.equal(csv.headers['content-type'], 'text/csv; charset=utf-8');
    t.match(csv.headers['content-disposition'], 'attachment; filename="collection-best-of-2026.csv"');
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    t.equal(lines[0], 'Position,Type,Title,Author,Published,Address,Staff page,Tags');
    t.match(lines[1], /^1,Article,"Pricing in a downturn, revisited",Bob Baker,2026-10-10,https:\/\/news\.example\.com\//);
    t.match(lines[2], /^2,Roundup,Pricing moves that paid off,,2026-10-05,http:\/\/localhost:3000\/expert-panels\/roundups\/pricing-moves,.*,Finance$/);
    t.match(lines[3], /^3,Article,"'=HYPERLINK\(""http:\/\/evil""\)",Ada Lovelace/, 'a formula is defused');
    t.match(lines[4], /^4,Image,Climate banner,Sam Staff,/);

    const zip = await get(`/admin/content-bank/collections/${best}/export.zip`);
    t.equal(zip.statusCode, 200);
    t.equal(zip.headers['content-type'], 'application/zip');
    t.match(zip.headers['content-disposition'], 'attachment; filename="collection-best-of-2026.zip"');
    const files = unzipSync(new Uint8Array(zip.rawPayload));
    const names = Object.keys(files).sort();
    t.same(names.filter((n) => n.endsWith('.html')), ['index.html', 'items/001-pricing-in-a-downturn-revisited.html', 'items/002-pricing-moves-that-paid-off.html', 'items/003-hyperlink-http-evil.html', 'items/004-climate-banner.html']);
    t.ok(names.some((n) => /^assets\/\d+-climate-banner\.png$/.test(n)), 'the image file beside the pages');
    const index = strFromU8(files['index.html']!);
    t.match(index, '<h1>Best of 2026</h1>');
    t.match(index, '<a href="items/001-pricing-in-a-downturn-revisited.html">Pricing in a downturn, revisited</a>');
    const article = strFromU8(files['items/001-pricing-in-a-downturn-revisited.html']!);
    t.match(article, '<strong>margins</strong>', 'the body kept');
    t.notMatch(article, /<script|onclick|javascript:/i, 'no script, no handler, no javascript: link');
    t.match(strFromU8(files['items/003-hyperlink-http-evil.html']!), '<h1>=HYPERLINK(&quot;http://evil&quot;)</h1>', 'a title is text');
    t.match(strFromU8(files['items/002-pricing-moves-that-paid-off.html']!), 'We raised prices twice', "the roundup's answers");
    t.match(strFromU8(files['items/004-climate-banner.html']!), /<img src="\.\.\/assets\/\d+-climate-banner\.png" alt="Climate banner">/);
    t.equal((await sharp(Buffer.from(files[names.find((n) => n.startsWith('assets/'))!]!)).metadata()).format, 'png', 'the file itself');
    t.equal((await get(`/admin/content-bank/collections/${best}/export.zip`, betaStaffSession.cookie, 'beta.test')).statusCode, 404, "another community's staff: 404");
    t.equal((await get(`/admin/content-bank/collections/${best}/export.csv`, betaStaffSession.cookie, 'beta.test')).statusCode, 404);
    t.equal((await get('/admin/content-bank/export.csv?q=pricing')).statusCode, 200, "the search's CSV");
  });

  await t.test('pages without JavaScript: staff search, tag and collect with plain forms; members are refused; hostile input is a 4xx', async (t) => {
    const page = await get('/admin/content-bank?q=pricing&kind=article');
    t.equal(page.statusCode, 200);
    t.match(page.body, 'Pricing in a downturn, revisited');
    t.notMatch(page.body, 'Beta leadership memo');
    t.notMatch(page.body, '<script src=', 'no page script of its own');
    const refused = await get('/admin/content-bank?q=%00&from=2026-13-01');
    t.equal(refused.statusCode, 400);
    t.match(refused.body, 'contains characters that cannot be used');
    t.match(refused.body, 'Enter a date like 2026-11-28.');
    t.match(refused.body, 'value="2026-13-01"', 'what was typed is kept');
    for (const url of ['/admin/content-bank', '/admin/content-bank/tags', '/admin/content-bank/collections', '/admin/content-bank/assets', `/admin/content-bank/items/article/${downturn}`, pngItem.split('?')[0]!]) {
      const res = await get(url);
      t.equal(res.statusCode, 200, `${url} for staff`);
      const member = await get(url, memberSession.cookie);
      t.ok(member.statusCode === 403 || member.statusCode === 303 || member.statusCode === 302 || member.statusCode === 404, `${url}: not for a member (${member.statusCode})`);
    }
    for (const url of ['/admin/content-bank/items/bogus/1', '/admin/content-bank/items/article/99999999999', `/admin/content-bank/items/article/${draft}`, `/admin/content-bank/items/article/${betaMemo}`, '/admin/content-bank/collections/%00', '/admin/content-bank/collections/0']) {
      t.equal((await get(url)).statusCode, 404, `${url}: 404`);
    }

    const blank = await post('/admin/content-bank/tags', { name: '' });
    t.equal(blank.statusCode, 400);
    t.match(blank.body, 'Enter a name.');
    const made = await post(`/admin/content-bank/items/article/${downturn}/tags`, { tagId: '', newTag: 'Strategy' });
    t.equal(made.statusCode, 303, 'a new tag made and put on the item at once');
    const item = await get(`/admin/content-bank/items/article/${downturn}`);
    t.match(item.body, 'Strategy');
    t.match(item.body, 'Best of 2026', 'the collections holding it');
    const coll = await post('/admin/content-bank/collections', { name: 'Onboarding pack', description: '' });
    t.equal(coll.statusCode, 303);
    const collId = Number(/collections\/(\d+)/.exec(coll.headers.location as string)![1]);
    t.equal((await post(`/admin/content-bank/items/article/${downturn}/collections`, { collectionId: String(collId) })).statusCode, 303);
    const again = await post(`/admin/content-bank/items/article/${downturn}/collections`, { collectionId: String(collId) });
    t.equal(again.statusCode, 409, 'added twice: the page again, with why');
    t.match(again.body, 'It is in that collection already.');
    t.equal((await post(`/admin/content-bank/collections/${collId}/items/article/${downturn}/move`, { direction: 'sideways' })).statusCode, 400);
    t.equal((await post(`/admin/content-bank/collections/${collId}/delete`, {})).statusCode, 303);
  });

  await t.test('the picker: a team message and an offer get an item inserted without losing what was typed; a sent message records its use', async (t) => {
    const compose = { subject: 'Our best pricing advice', body: 'Dear members,\n\nRead this:', audienceKind: 'community', groupId: '', tier: '', founding: '', industry: '', location: '', standing: '', emails: '', scheduledAt: '' };
    const found = await post('/admin/messages', { ...compose, bankQ: 'prices', bankSearch: '1' });
    t.equal(found.statusCode, 200);
    t.match(found.body, 'value="Our best pricing advice"', 'the subject kept');
    t.match(found.body, `value="answer:${work.answers[0]}"`, 'an answer in a published roundup offered');
    t.match(found.body, `value="roundup:${work.roundupId}"`, 'the roundup offered');
    t.notMatch(found.body, `value="answer:${work.answers[1]}"`, 'an answer with no address is not offered');
    const picked = await post('/admin/messages', { ...compose, bankQ: 'pricing', bankPick: `roundup:${work.roundupId}` });
    t.equal(picked.statusCode, 200);
    const link = 'http://localhost:3000/expert-panels/roundups/pricing-moves';
    t.match(picked.body, `Read this:\n\nPricing moves that paid off: ${link}</textarea>`, 'the title and address added to the body');
    t.match(picked.body, 'Added “Pricing moves that paid off”.');
    const gone = await post('/admin/messages', { ...compose, bankPick: 'article:99999' });
    t.match(gone.body, 'That item is no longer in the library.');
    const sent = await post('/admin/messages', { ...compose, body: `Read this:\n\nPricing moves that paid off: ${link}`, intent: 'send' });
    t.equal(sent.statusCode, 303);
    await app.jobs.drain();
    const usage = await get(`/admin/content-bank/items/roundup/${work.roundupId}`);
    t.match(usage.body, 'Sent in a team message');
    t.match(usage.body, 'Our best pricing advice');

    const partner = await db.insertInto('partners').values({ community_id: alpha.id, name: 'Acme Travel' }).returning('id').executeTakeFirstOrThrow();
    const offer = { partnerId: String(partner.id), title: 'Ten percent off', valueLine: '10% off', description: 'For members.', category: '', tier: 'everyone', redemption: 'link', code: '', link: '', terms: '', startsAt: '', endsAt: '', position: '' };
    const asLink = await post('/admin/marketplace/offers', { ...offer, bankTarget: 'link', bankPick: `roundup:${work.roundupId}` });
    t.equal(asLink.statusCode, 200);
    t.match(asLink.body, `value="${link}"`, 'the redemption link set');
    t.match(asLink.body, 'value="Ten percent off"');
    const inText = await post('/admin/marketplace/offers', { ...offer, bankTarget: 'description', bankPick: `article:${downturn}` });
    t.match(inText.body, 'For members.\n\nPricing in a downturn, revisited: https://news.example.com/');
  });

  await t.test('GraphQL: search, tags, collections, picker, through the same services; tenancy', async (t) => {
    const res = await gql(`query ($q: String, $f: ContentBankFilters) { contentBankSearch(query: $q, filters: $f, first: 2) { ranked edges { cursor node { kind id title url tags { name } } } pageInfo { hasNextPage endCursor } } }`, { q: 'pricing', f: { kinds: ['ARTICLE', 'ROUNDUP'] } });
    const data = res.json().data.contentBankSearch;
    t.equal(data.ranked, true);
    t.same(data.edges.map((e: { node: { kind: string; id: string } }) => `${e.node.kind}:${e.node.id}`), [`ARTICLE:${downturn}`, `ROUNDUP:${work.roundupId}`]);
    t.equal(data.pageInfo.hasNextPage, false);
    const tag = await gql(`mutation { contentBankTagCreate(name: "Climate") { id name } }`, {});
    const tagId = tag.json().data.contentBankTagCreate.id;
    const tagged = await gql(`mutation ($t: ID!, $i: ContentBankItemRef!) { contentBankTagItem(tagId: $t, item: $i) { title tags { name } collections { name } usage { what label } } }`, { t: tagId, i: { kind: 'ROUNDUP', id: String(work.roundupId) } });
    t.match(tagged.json().data.contentBankTagItem, { tags: [{ name: 'Climate' }, { name: 'Finance' }], collections: [{ name: 'Best of 2026' }], usage: [{ what: 'sent', label: 'Our best pricing advice' }] });
    const col = await gql(`mutation { contentBankCollectionCreate(name: "Via the API") { id entries { id } } }`, {});
    const colId = col.json().data.contentBankCollectionCreate.id;
    const added = await gql(`mutation ($c: ID!, $i: ContentBankItemRef!) { contentBankCollectionAddItem(id: $c, item: $i) { itemCount entries { kind id position item { title } } } }`, { c: colId, i: { kind: 'ARTICLE', id: String(leading) } });
    t.match(added.json().data.contentBankCollectionAddItem, { itemCount: 1, entries: [{ kind: 'ARTICLE', position: 1 }] });
    const picker = await gql(`{ contentBankPicker(query: "pricing") { kind title url } }`, {});
    t.ok(picker.json().data.contentBankPicker.every((p: { url: string | null }) => p.url), 'the picker offers items with an address');
    const betaView = await gql(`query ($c: ID!) { contentBankCollection(id: $c) { name } }`, { c: colId }, betaStaffSession.token, 'beta.test');
    t.equal(betaView.json().errors?.[0]?.extensions?.code, 'ContentBank.NotFound', "beta's staff cannot read alpha's collection");
    const betaSearch = await gql(`{ contentBankSearch(query: "pricing") { edges { node { kind id } } } }`, {}, betaStaffSession.token, 'beta.test');
    t.same(betaSearch.json().data.contentBankSearch.edges.map((e: { node: { id: string } }) => e.node.id), [String(betaMemo)]);
    const bad = await gql(`{ contentBankSearch(query: "a\\u0000b") { ranked } }`, {});
    t.equal(bad.json().errors?.[0]?.extensions?.code, 'ContentBank.Invalid');
  });

  await t.test("usage: featured on the members' feed (recorded with the featuring, forgotten on unfeaturing) and syndicated (the feeds choosing it by tag)", async (t) => {
    const feedsDeps = { db, clock, community: alpha, t: app.t };
    const featured = await featureItem(feedsDeps, asStaff, { kind: 'roundup', itemId: String(work.roundupId) });
    const finance = await db.selectFrom('bank_tags').select('id').where('community_id', '=', alpha.id).where('name', '=', 'Finance').executeTakeFirstOrThrow();
    const other = await createTag(deps, asStaff, 'Unrelated');
    for (const [title, tag] of [['Finance roundups', finance.id], ['Unrelated feed', other]] as const) {
      const made = await post('/admin/feeds/syndication', { title, slug: '', description: '', types: 'roundup', tags: String(tag), limit: '5', enabled: 'on' });
      t.equal(made.statusCode, 303, `${title}: a feed by a tag`);
    }
    const page = await get(`/admin/content-bank/items/roundup/${work.roundupId}`);
    t.match(page.body, 'Featured on the members&#x27; feed');
    t.match(page.body, 'href="/admin/feeds/featured"');
    t.match(page.body, 'In a syndication feed');
    t.match(page.body, 'Finance roundups', 'the feed choosing it by its tag');
    t.notMatch(page.body, 'Unrelated feed', 'not a feed by a tag it does not carry');
    t.match(page.body, 'Sent in a team message', 'the sent message still there');
    await changeFeatured(feedsDeps, asStaff, featured, 'unfeature');
    t.notMatch((await get(`/admin/content-bank/items/roundup/${work.roundupId}`)).body, 'Featured on the members', 'unfeatured: forgotten');
  });
});
