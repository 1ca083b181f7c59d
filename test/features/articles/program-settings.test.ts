import t from 'tap';
import { acceptProductAgreement, saveProgramSettings } from '#src/features/articles/byline-terms.ts';
import { addBlackoutWindow } from '#src/features/articles/blackouts.ts';
import type { AppError } from '#src/core/errors.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';

t.test('the publishing program settings: terms, guidelines, the external application form', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha', article_terms: 'Old terms.', article_guidelines: 'Old guidelines.' });
  const beta = await createCommunity(db, { code: 'beta', article_terms: 'Beta terms.' });
  const { app } = await startApp(t, db, { clock });
  const editor = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'] });
  const b = new FormBrowser(app);
  b.cookies.set('auth', (await signIn(app, editor, alpha, ['ADMIN', 'MEMBER'])).token);

  await t.test('members and visitors cannot reach it; a post needs the CSRF token', async (t) => {
    const member = new FormBrowser(app);
    member.cookies.set('auth', (await signIn(app, await createMember(db, alpha), alpha)).token);
    t.equal((await member.get('/admin/articles/settings')).headers.location, '/login?redirect=%2Fadmin%2Farticles%2Fsettings', 'the page sends members to the app login');
    t.equal((await member.post('/admin/articles/settings', { terms: 'Mine.' }, '/')).statusCode, 403);
    const forged = await app.inject({ method: 'POST', url: '/admin/articles/settings', headers: { cookie: `auth=${(await signIn(app, editor, alpha, ['ADMIN', 'MEMBER'])).token}`, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'terms=Forged' });
    t.equal(forged.statusCode, 403);
    t.equal((await db.selectFrom('communities').select('article_terms').where('id', '=', alpha.id).executeTakeFirstOrThrow()).article_terms, 'Old terms.');
  });

  await t.test('bad input comes back with the typed text and the messages by the fields', async (t) => {
    const page = await b.get('/admin/articles/settings');
    t.match(page.body, 'Old terms.');
    t.match((await b.get('/admin/articles')).body, 'href="/admin/articles/settings"', 'linked from the board');
    const res = await b.post('/admin/articles/settings', { terms: '  ', guidelines: 'New guidelines typed.', applicationUrl: 'http://insecure.example' }, '/admin/articles/settings');
    t.equal(res.statusCode, 400);
    t.match(res.body, 'Please enter the terms.');
    t.match(res.body, 'Enter a full https:// address, or leave it empty.');
    t.match(res.body, 'New guidelines typed.');
    t.match(res.body, 'value="http://insecure.example"');
  });

  await t.test('the catalogue’s codes: 100 for an address, 140 for a date, 900 for a missing input', async (t) => {
    const deps = { db, clock, community: alpha, t: app.t, notifier: app.notifications };
    const person = { userId: editor.id, isStaff: true };
    const refusal = (p: Promise<unknown>) => p.then(() => null, (e: AppError) => ({ code: e.code, fields: Object.fromEntries(Object.entries(e.fields ?? {}).map(([k, f]) => [k, f.code])) }));
    t.same(await refusal(saveProgramSettings(deps, person, { terms: 'Terms.', guidelines: '', applicationUrl: 'http://insecure.example' })), { code: 100, fields: { applicationUrl: 100 } });
    t.same(await refusal(saveProgramSettings(deps, person, { terms: ' ', guidelines: '', applicationUrl: '' })), { code: 900, fields: { terms: 900 } });
    t.same(await refusal(saveProgramSettings(deps, person, { terms: ' ', guidelines: '', applicationUrl: 'ftp://x' })), { code: 'Articles.Invalid', fields: { terms: 900, applicationUrl: 100 } }, 'different reasons: the area’s code, each field its own');
    t.same(await refusal(addBlackoutWindow(deps, person, { startsOn: '2026-02-30', endsBefore: '2026-03-02' })), { code: 140, fields: { startsOn: 140 } });
    t.same(await refusal(addBlackoutWindow(deps, person, { startsOn: '', endsBefore: '' })), { code: 900, fields: { startsOn: 900, endsBefore: 900 } });
  });

  await t.test('saved: the gate shows the new terms at once, and members with no article go to the form', async (t) => {
    const res = await b.post('/admin/articles/settings', { terms: 'New terms.\r\n\r\nSecond paragraph.', guidelines: 'New guidelines.', applicationUrl: 'https://apply.example/form' }, '/admin/articles/settings');
    t.equal(res.headers.location, '/admin/articles/settings?done=saved');
    t.match((await b.get('/admin/articles/settings?done=saved')).body, 'Settings saved.');
    const member = await createMember(db, alpha);
    const m = new FormBrowser(app);
    m.cookies.set('auth', (await signIn(app, member, alpha)).token);
    const gate = await m.get('/articles');
    t.match(gate.body, 'New terms.');
    t.match(gate.body, 'Second paragraph.');
    await acceptProductAgreement({ db, clock, community: alpha, t: app.t, notifier: app.notifications }, member.id);
    const edit = await m.get('/articles/edit');
    t.equal(edit.headers.location, 'https://apply.example/form');
    const row = await db.selectFrom('communities').select(['article_terms', 'article_guidelines', 'article_application_url']).where('id', '=', alpha.id).executeTakeFirstOrThrow();
    t.same(row, { article_terms: 'New terms.\n\nSecond paragraph.', article_guidelines: 'New guidelines.', article_application_url: 'https://apply.example/form' });
    t.equal((await db.selectFrom('communities').select('article_terms').where('id', '=', beta.id).executeTakeFirstOrThrow()).article_terms, 'Beta terms.', 'another community is untouched');
    await b.post('/admin/articles/settings', { terms: 'New terms.', guidelines: '', applicationUrl: '' }, '/admin/articles/settings');
    t.equal((await m.get('/articles/edit')).statusCode, 200, 'an empty address turns the redirect off');
  });
});
